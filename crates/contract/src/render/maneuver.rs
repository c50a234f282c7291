//! Text and data of the maneuver trace steps.

use super::glossary;
use super::movement::{MoveOpportunityStepOut, opportunity_out};
use super::shared::{Absent, dist, sq};
use crate::lang::Lang;
use crate::wire::{SquareOut, squares as square_list};
use arbiter_rules::encounter::Condition;
use arbiter_rules::grid::Square;
use arbiter_rules::maneuver::{
    AttackerMove, AttackerMoveKind, ChargeStep, CheckKind, Illegal, Kind, ManeuverEffect, Modifier,
    MoveFollowUp, Obstacle, Opportunity, Push, PushStop, SecondaryRush, Side,
};
use arbiter_rules::movement::MoveOpportunity;
use arbiter_rules::ruleset::Words;

fn squares_text(v: &[Square]) -> String {
    if v.is_empty() {
        return "—".to_owned();
    }
    v.iter().map(|q| format!("({}, {})", q.x, q.y)).collect::<Vec<_>>().join(", ")
}

fn obstacle_text(o: &Obstacle, lang: Lang) -> String {
    let at = o
        .square
        .map(|q| match lang {
            Lang::En => format!(" at ({}, {})", q.x, q.y),
            Lang::Fr => format!(" en ({}, {})", q.x, q.y),
        })
        .unwrap_or_default();
    let who = o.creature.as_ref().map(|c| format!(" ({c})")).unwrap_or_default();
    format!("{}{at}{who}", glossary::charge_illegal(o.why, lang))
}

fn obstacle_out(o: &Obstacle) -> ObstacleOut {
    ObstacleOut { creature: o.creature.clone(), reason: o.why.id(), square: o.square.map(sq) }
}

fn charge_step(c: &ChargeStep, lang: Lang, voc: &Words) -> (String, ManeuverEffectOut) {
    use Lang::*;
    match c {
        ChargeStep::Closest { squares, feet } => (
            match lang {
                En => format!("closest squares from which to attack: {} ({feet} ft)", squares_text(squares)),
                Fr => format!(
                    "cases d'attaque les plus proches : {}, à {}",
                    squares_text(squares),
                    dist(*feet, lang)
                ),
            },
            ChargeClosestStepOut { closest: square_list(squares), feet: *feet }.into(),
        ),
        ChargeStep::Sight { clear } => (
            match (clear, lang) {
                (true, En) => "line of sight to the target at the start".to_owned(),
                (true, Fr) => "ligne de vue sur la cible au départ".to_owned(),
                (false, En) => "no line of sight to the target at the start".to_owned(),
                (false, Fr) => "pas de ligne de vue sur la cible au départ".to_owned(),
            },
            ChargeSightStepOut { line_of_sight: *clear }.into(),
        ),
        ChargeStep::Tested { test, end } => (
            {
                let (x, y, squares) = (end.end.x, end.end.y, squares_text(&end.squares));
                let (moved, tested) = (dist(end.movement_ft, lang), glossary::path_test(*test, lang));
                match (&end.obstacle, lang) {
                    (None, En) => format!("end ({x}, {y}), {moved}, {tested} {squares}: clear"),
                    (None, Fr) => format!("arrivée ({x}, {y}), {moved}, {tested} {squares} : dégagées"),
                    (Some(o), En) => {
                        format!("end ({x}, {y}), {moved}, {tested} {squares}: {}", obstacle_text(o, lang))
                    }
                    (Some(o), Fr) => {
                        format!(
                            "arrivée ({x}, {y}), {moved}, {tested} {squares} : {}",
                            obstacle_text(o, lang)
                        )
                    }
                }
            },
            ChargeTestedStepOut {
                end: sq(end.end),
                movement_ft: end.movement_ft,
                path_test: test.id(),
                squares: square_list(&end.squares),
                obstacle: end.obstacle.as_ref().map(obstacle_out),
            }
            .into(),
        ),
        ChargeStep::Provokes(o) => opportunity_step(o, lang),
        ChargeStep::Illegal(o) => (
            match lang {
                En => format!("no charge: {}", obstacle_text(o, lang)),
                Fr => format!("pas de charge : {}", obstacle_text(o, lang)),
            },
            ChargeIllegalStepOut { legal: false, obstacle: obstacle_out(o) }.into(),
        ),
        ChargeStep::Legal { end, movement_ft, attack_bonus, ac_penalty, alternatives } => (
            match lang {
                En => format!(
                    "charge to ({}, {}), {movement_ft} ft: {attack_bonus:+} to the attack, {ac_penalty:+} to {} until the next turn (the charger gains the charged condition)",
                    end.x,
                    end.y,
                    glossary::armour(voc, lang)
                ),
                Fr => format!(
                    "charge jusqu'en ({}, {}), {} : {attack_bonus:+} à l'attaque, {ac_penalty:+} à la {} jusqu'au prochain tour (le chargeur prend l'état « ayant chargé »)",
                    end.x,
                    end.y,
                    dist(*movement_ft, lang),
                    glossary::armour(voc, lang)
                ),
            },
            ChargeLegalStepOut {
                legal: true,
                end: sq(*end),
                movement_ft: *movement_ft,
                attack_bonus: *attack_bonus,
                ac_penalty: *ac_penalty,
                alternatives: square_list(alternatives),
            }
            .into(),
        ),
    }
}

/// The data of a push (or of any walk square by square).
fn push_out(p: &Push) -> PushStepOut {
    PushStepOut {
        direction: DirectionOut { x: p.direction.0, y: p.direction.1 },
        from: sq(p.from),
        moved_ft: p.moved_ft,
        path: square_list(&p.path),
        stopped_by: p.stopped.as_ref().map(PushStop::id),
        to: sq(p.to),
        wanted_ft: p.wanted_ft,
    }
}

fn secondary_text(r: &SecondaryRush, lang: Lang) -> String {
    use Lang::*;
    let at = format!("({}, {})", r.square.x, r.square.y);
    match (r.illegal, r.success, lang) {
        (Some(why), _, En) => format!(
            "{} on {at} is in the way and cannot be bull rushed ({}): the push stops",
            r.creature,
            glossary::maneuver_illegal(why, lang)
        ),
        (Some(why), _, Fr) => format!(
            "{} en {at} est sur le chemin et ne peut pas être bousculé ({}) : la poussée s'arrête",
            r.creature,
            glossary::maneuver_illegal(why, lang)
        ),
        (None, Some(true), En) => format!(
            "{} on {at} is in the way: new check {:+} against CMD {} → {}, success; both move on {} ft",
            r.creature,
            r.bonus,
            r.cmd,
            r.total.unwrap_or(0),
            r.moved.as_ref().map_or(0, |p| p.moved_ft)
        ),
        (None, Some(true), Fr) => format!(
            "{} en {at} est sur le chemin : nouveau test {:+} contre DMD {} → {}, réussite ; tous deux avancent de {}",
            r.creature,
            r.bonus,
            r.cmd,
            r.total.unwrap_or(0),
            dist(r.moved.as_ref().map_or(0, |p| p.moved_ft), lang)
        ),
        (None, _, En) => format!(
            "{} on {at} is in the way: new check {:+} against CMD {} → {}, failure; the push stops",
            r.creature,
            r.bonus,
            r.cmd,
            r.total.map_or_else(|| "not rolled".to_owned(), |t| t.to_string())
        ),
        (None, _, Fr) => format!(
            "{} en {at} est sur le chemin : nouveau test {:+} contre DMD {} → {}, échec ; la poussée s'arrête",
            r.creature,
            r.bonus,
            r.cmd,
            r.total.map_or_else(|| "non lancé".to_owned(), |t| t.to_string())
        ),
    }
}

fn secondary_json(r: &SecondaryRush) -> ManeuverEffectOut {
    SecondaryRushStepOut {
        creature: r.creature.clone(),
        square: sq(r.square),
        illegal: r.illegal.map(|i| i.id()),
        bonus: r.bonus,
        cmd: r.cmd,
        natural: r.natural,
        total: r.total,
        margin: r.margin,
        success: r.success,
        earned_ft: r.earned_ft,
        moved: r.moved.as_ref().map(push_out),
    }
    .into()
}

fn opportunity_step(o: &MoveOpportunity, lang: Lang) -> (String, ManeuverEffectOut) {
    use Lang::*;
    let at = format!("({}, {})", o.square.x, o.square.y);
    (
        match (o.provoked, lang) {
            (true, En) => format!("leaving {at} provokes an attack of opportunity from {}", o.creature),
            (true, Fr) => format!("quitter {at} provoque une attaque d'opportunité de {}", o.creature),
            (false, En) => {
                let why = glossary::opportunity_reason(o.reason, lang);
                format!("leaving {at}: no attack of opportunity from {} ({why})", o.creature)
            }
            (false, Fr) => {
                let why = glossary::opportunity_reason(o.reason, lang);
                format!("quitter {at} : pas d'attaque d'opportunité de {} ({why})", o.creature)
            }
        },
        opportunity_out(o).into(),
    )
}

fn stop_text(s: &PushStop, lang: Lang) -> String {
    use Lang::*;
    let at =
        |q: Option<arbiter_rules::grid::Square>| q.map(|q| format!("({}, {})", q.x, q.y)).unwrap_or_default();
    match (s, lang) {
        (PushStop::Edge { square }, En) => {
            format!("stopped at the grid edge ({} is off the map)", at(Some(*square)))
        }
        (PushStop::Edge { square }, Fr) => {
            format!("arrêt au bord de la grille ({} est hors carte)", at(Some(*square)))
        }
        (PushStop::Solid { square }, En) => format!("stopped by the solid square {}", at(Some(*square))),
        (PushStop::Solid { square }, Fr) => format!("arrêt contre la case pleine {}", at(Some(*square))),
        (PushStop::Wall { square }, En) => format!("stopped by a wall before {}", at(Some(*square))),
        (PushStop::Wall { square }, Fr) => format!("arrêt contre un mur avant {}", at(Some(*square))),
        (PushStop::Corner { square }, En) => {
            format!("stopped: the diagonal step to {} would cut a corner", at(Some(*square)))
        }
        (PushStop::Corner { square }, Fr) => {
            format!("arrêt : le pas en diagonale vers {} couperait un coin", at(Some(*square)))
        }
        (PushStop::Creature { square, creature, .. }, En) => {
            format!("stopped by {creature} on {}", at(Some(*square)))
        }
        (PushStop::Creature { square, creature, .. }, Fr) => {
            format!("arrêt contre {creature} en {}", at(Some(*square)))
        }
        (PushStop::NoDirection, En) => "no direction away from the pusher".to_owned(),
        (PushStop::NoDirection, Fr) => "aucune direction pour s'éloigner".to_owned(),
    }
}

/// Renders one maneuver step.
pub(super) fn effect(e: &ManeuverEffect, lang: Lang, voc: &Words) -> (String, ManeuverEffectOut) {
    use Lang::*;
    match e {
        ManeuverEffect::Illegal { kind, why } => (
            illegal_text(*kind, *why, lang),
            ManeuverIllegalStepOut { legal: false, kind: kind.id(), reason: why.id() }.into(),
        ),
        ManeuverEffect::Modifier(m) => modifier(m, lang),
        ManeuverEffect::Numbers { check, bonus, dc, opposed_bonus } => (
            numbers_text(*check, *bonus, *dc, *opposed_bonus, lang),
            ManeuverNumbersStepOut {
                check: check.id(),
                bonus: *bonus,
                dc: *dc,
                opposed_bonus: *opposed_bonus,
            }
            .into(),
        ),
        ManeuverEffect::Automatic { condition } => (
            automatic_text(*condition, lang),
            ManeuverAutomaticStepOut { automatic: true, condition: condition.id() }.into(),
        ),
        ManeuverEffect::Rolled { natural, total, opposed_total, margin, success } => (
            rolled_text(*natural, *total, *opposed_total, *margin, *success, lang),
            ManeuverRolledStepOut {
                natural: *natural,
                total: *total,
                opposed_total: *opposed_total,
                margin: *margin,
                success: *success,
            }
            .into(),
        ),
        ManeuverEffect::Tie => (
            match lang {
                En => "a tie leaves the situation unchanged: the attempt fails".to_owned(),
                Fr => "l'égalité laisse la situation inchangée : la tentative échoue".to_owned(),
            },
            ManeuverTieStepOut { tie: true }.into(),
        ),
        ManeuverEffect::Odds { success } => (
            odds_text(success.to_f64(), lang),
            ManeuverOddsStepOut { success: success.to_f64(), exact: success.to_string() }.into(),
        ),
        ManeuverEffect::Outcome { band } => {
            (outcome_text(band, lang), ManeuverOutcomeStepOut { band: band.clone() }.into())
        }
        ManeuverEffect::Concealment { miss_chance } => concealment(*miss_chance, lang),
        ManeuverEffect::MissRoll { roll, missed } => miss_roll(*roll, *missed, lang),
        ManeuverEffect::Pushed(p) => (pushed_text(p, lang), push_out(p).into()),
        ManeuverEffect::Secondary(r) => (secondary_text(r, lang), secondary_json(r)),
        ManeuverEffect::AttackerMoves(m) => (
            attacker_moves_text(m, lang),
            AttackerMovesStepOut { attacker_move: m.kind.id(), walk: push_out(&m.walk) }.into(),
        ),
        ManeuverEffect::Opportunity(o) => maneuver_opportunity(o, lang),
        ManeuverEffect::TargetAvoids => (
            match lang {
                En => "the target lets the attacker through: no check".to_owned(),
                Fr => "la cible laisse passer l'attaquant : pas de test".to_owned(),
            },
            TargetAvoidsStepOut { target_avoids: true }.into(),
        ),
        ManeuverEffect::PullAdjacent { from, to } => {
            (pull_text(*from, *to, lang), PullAdjacentStepOut { from: sq(*from), to: to.map(sq) }.into())
        }
        ManeuverEffect::FollowUpMove(f) => (follow_up_text(f, lang), follow_up_json(f)),
        ManeuverEffect::PickUp { whip } => {
            (pick_up_text(*whip, lang), PickUpStepOut { may_pick_up: true, whip: *whip }.into())
        }
        ManeuverEffect::EscapeDc { dc } => {
            (escape_dc_text(*dc, lang), EscapeDcStepOut { escape_dc: *dc }.into())
        }
        ManeuverEffect::Charge(c) => charge_step(c, lang, voc),
        ManeuverEffect::CheckDice { faces, natural } => (
            check_dice_text(faces, *natural, lang),
            CheckDiceStepOut { faces: faces.clone(), natural: *natural }.into(),
        ),
        ManeuverEffect::OpposedRoll { natural, total } => (
            opposed_roll_text(*natural, *total, lang),
            OpposedRollStepOut { opposed_natural: *natural, opposed_total: *total }.into(),
        ),
    }
}

/// The chance of success, as a percentage.
fn odds_text(success: f64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("chance of success {:.2} %", success * 100.0),
        Lang::Fr => format!("probabilité de réussite {:.2} %", success * 100.0).replace('.', ","),
    }
}

/// The outcome band the check reached.
fn outcome_text(band: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("outcome: {}", glossary::band(band, lang)),
        Lang::Fr => format!("résultat : {}", glossary::band(band, lang)),
    }
}

/// The DC to escape the ropes.
fn escape_dc_text(dc: i32, lang: Lang) -> String {
    match lang {
        Lang::En => format!("escaping the ropes: DC {dc}"),
        Lang::Fr => format!("se libérer des liens : DD {dc}"),
    }
}

/// The other side's roll of a contest.
fn opposed_roll_text(natural: i64, total: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("the opposing roll: natural {natural}, total {total}"),
        Lang::Fr => format!("le jet opposé\u{a0}: dé naturel {natural}, total {total}"),
    }
}

/// Why a maneuver of `kind` cannot be attempted.
fn illegal_text(kind: Kind, why: Illegal, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{} cannot be attempted: {}",
            glossary::maneuver(kind, lang),
            glossary::maneuver_illegal(why, lang)
        ),
        Lang::Fr => {
            format!(
                "{} impossible : {}",
                glossary::maneuver(kind, lang),
                glossary::maneuver_illegal(why, lang)
            )
        }
    }
}

/// The target's condition makes the maneuver succeed without a roll.
fn automatic_text(condition: Condition, lang: Lang) -> String {
    match lang {
        Lang::En => format!("the target is {}: automatic success", glossary::condition(condition, lang)),
        Lang::Fr => {
            format!("la cible subit l'état {} : réussite automatique", glossary::condition(condition, lang))
        }
    }
}

/// A successful disarm (unarmed, or with a whip) lets the attacker pick the item up.
fn pick_up_text(whip: bool, lang: Lang) -> String {
    match (whip, lang) {
        (false, Lang::En) => "disarming unarmed: on a success the attacker may pick the dropped item up (free action)".to_owned(),
        (true, Lang::En) => "disarming with a whip: on a success the attacker may pick the dropped item up (free action)".to_owned(),
        (false, Lang::Fr) => "désarmement à mains nues : en cas de réussite, l'attaquant peut ramasser l'objet tombé (action libre)".to_owned(),
        (true, Lang::Fr) => "désarmement avec un fouet : en cas de réussite, l'attaquant peut ramasser l'objet tombé (action libre)".to_owned(),
    }
}

/// The three d6 of an hb3d check and their sum.
fn check_dice_text(faces: &[u32], natural: i64, lang: Lang) -> String {
    let shown = faces.iter().map(u32::to_string).collect::<Vec<_>>().join(" + ");
    match lang {
        Lang::En => format!("{}d6: {shown} = {natural}", faces.len()),
        Lang::Fr => format!("{}d6\u{a0}: {shown} = {natural}", faces.len()),
    }
}

/// A modifier, to the check or to the defence.
fn modifier(m: &Modifier, lang: Lang) -> (String, ManeuverEffectOut) {
    use Lang::*;
    let side = match m.side {
        Side::Check => "check",
        Side::Defence => "defence",
    };
    let detail = glossary::fixed_phrase(&m.detail, lang);
    (
        match (lang, m.side) {
            (En, Side::Check) => format!("{detail}: {:+} to the check", m.value),
            (En, Side::Defence) => format!("{detail}: {:+} to the defence", m.value),
            (Fr, Side::Check) => format!("{detail} : {:+} au test", m.value),
            (Fr, Side::Defence) => format!("{detail} : {:+} à la défense", m.value),
        },
        ManeuverModifierStepOut { detail: m.detail.clone(), value: m.value, applies_to: side }.into(),
    )
}

/// The numbers compared, by the kind of check.
fn numbers_text(
    check: CheckKind,
    bonus: i32,
    dc: Option<i32>,
    opposed_bonus: Option<i32>,
    lang: Lang,
) -> String {
    use Lang::*;
    match (check, lang) {
        (CheckKind::Contest, En) => {
            format!("contest: d20 {bonus:+} against d20 {:+}; a tie fails", opposed_bonus.unwrap_or(0))
        }
        (CheckKind::Contest, Fr) => {
            format!(
                "opposition : d20 {bonus:+} contre d20 {:+} ; l'égalité échoue",
                opposed_bonus.unwrap_or(0)
            )
        }
        (CheckKind::Save, En) => {
            format!("the target saves with d20 {bonus:+} against DC {}", dc.unwrap_or(0))
        }
        (CheckKind::Save, Fr) => {
            format!("la cible sauvegarde avec d20 {bonus:+} contre DD {}", dc.unwrap_or(0))
        }
        (CheckKind::ThreeD6VsDc, En) => format!("3d6 {bonus:+} against {}", dc.unwrap_or(0)),
        (CheckKind::ThreeD6VsDc, Fr) => format!("3d6 {bonus:+} contre {}", dc.unwrap_or(0)),
        (_, En) => format!("d20 {bonus:+} against {}", dc.unwrap_or(0)),
        (_, Fr) => format!("d20 {bonus:+} contre {}", dc.unwrap_or(0)),
    }
}

/// The roll and its verdict.
fn rolled_text(
    natural: i64,
    total: i64,
    opposed_total: Option<i64>,
    margin: i64,
    success: bool,
    lang: Lang,
) -> String {
    use Lang::*;
    let verdict = match (success, lang) {
        (true, En) => "success",
        (false, En) => "failure",
        (true, Fr) => "réussite",
        (false, Fr) => "échec",
    };
    let vs = opposed_total
        .map(|o| match lang {
            En => format!(" vs {o}"),
            Fr => format!(" contre {o}"),
        })
        .unwrap_or_default();
    format!("{natural} → {total}{vs}: {verdict} ({margin:+})")
}

/// The target's concealment miss chance.
fn concealment(miss_chance: u32, lang: Lang) -> (String, ManeuverEffectOut) {
    (
        match lang {
            Lang::En => format!(
                "the target's concealment applies: {miss_chance} % miss chance after a successful check"
            ),
            Lang::Fr => format!(
                "le camouflage de la cible s'applique : {miss_chance} % de chances de rater après un test réussi"
            ),
        },
        ManeuverConcealmentStepOut { miss_chance }.into(),
    )
}

/// The d100 against the miss chance.
fn miss_roll(roll: i64, missed: bool, lang: Lang) -> (String, ManeuverEffectOut) {
    use Lang::*;
    (
        match (missed, lang) {
            (true, En) => format!("miss chance d100 = {roll}: the maneuver misses"),
            (true, Fr) => format!("chances de rater, d100 = {roll} : la manœuvre rate"),
            (false, En) => format!("miss chance d100 = {roll}: no effect"),
            (false, Fr) => format!("chances de rater, d100 = {roll} : sans effet"),
        },
        ManeuverMissRollStepOut { roll, missed }.into(),
    )
}

/// A push: how far, from where to where, and what stopped it.
fn pushed_text(p: &Push, lang: Lang) -> String {
    let text = match lang {
        Lang::En => format!(
            "pushed {} ft of {} ft, from ({}, {}) to ({}, {})",
            p.moved_ft, p.wanted_ft, p.from.x, p.from.y, p.to.x, p.to.y
        ),
        Lang::Fr => format!(
            "repoussé de {} sur {}, de ({}, {}) à ({}, {})",
            dist(p.moved_ft, lang),
            dist(p.wanted_ft, lang),
            p.from.x,
            p.from.y,
            p.to.x,
            p.to.y
        ),
    };
    with_stop(text, p, lang)
}

/// The text of a walk, then what stopped it, if anything did.
fn with_stop(text: String, p: &Push, lang: Lang) -> String {
    match &p.stopped {
        Some(s) => format!("{text}; {}", stop_text(s, lang)),
        None => text,
    }
}

/// The acting creature's movement: following, through or in front of the target.
fn attacker_moves_text(m: &AttackerMove, lang: Lang) -> String {
    use Lang::*;
    let p = &m.walk;
    let text = match (m.kind, lang) {
        (AttackerMoveKind::Follow, En) => format!(
            "the attacker may follow ({} ft, movement permitting): ({}, {}) to ({}, {})",
            p.moved_ft, p.from.x, p.from.y, p.to.x, p.to.y
        ),
        (AttackerMoveKind::Follow, Fr) => format!(
            "l'attaquant peut suivre sur {}, s'il lui reste du mouvement : de ({}, {}) à ({}, {})",
            dist(p.moved_ft, lang),
            p.from.x,
            p.from.y,
            p.to.x,
            p.to.y
        ),
        (AttackerMoveKind::Through, En) => format!(
            "the attacker moves through the target's space: ({}, {}) to ({}, {})",
            p.from.x, p.from.y, p.to.x, p.to.y
        ),
        (AttackerMoveKind::Through, Fr) => format!(
            "l'attaquant traverse l'espace de la cible : de ({}, {}) à ({}, {})",
            p.from.x, p.from.y, p.to.x, p.to.y
        ),
        (AttackerMoveKind::Front, En) => {
            format!("the attacker's movement ends in front of the target, on ({}, {})", p.to.x, p.to.y)
        }
        (AttackerMoveKind::Front, Fr) => {
            format!("le mouvement de l'attaquant s'arrête devant la cible, en ({}, {})", p.to.x, p.to.y)
        }
    };
    with_stop(text, p, lang)
}

/// An attack of opportunity the maneuver provokes (or not).
fn maneuver_opportunity(o: &Opportunity, lang: Lang) -> (String, ManeuverEffectOut) {
    use Lang::*;
    (
        match (o.provoked, lang) {
            (true, En) => format!("{} gets an attack of opportunity", o.creature),
            (true, Fr) => format!("{} obtient une attaque d'opportunité", o.creature),
            (false, En) => format!(
                "no attack of opportunity from {} ({})",
                o.creature,
                glossary::maneuver_opportunity(o.reason, lang)
            ),
            (false, Fr) => format!(
                "pas d'attaque d'opportunité de {} ({})",
                o.creature,
                glossary::maneuver_opportunity(o.reason, lang)
            ),
        },
        ManeuverOpportunityStepOut { creature: o.creature.clone(), provoked: o.provoked, reason: o.reason }
            .into(),
    )
}

/// A grapple's follow-up move: the path, its cost against half the speed, the placement, and
/// whether it can be made.
fn follow_up_text(f: &MoveFollowUp, lang: Lang) -> String {
    use Lang::*;
    let (path, place) = (squares_text(&f.path), format!("({}, {})", f.place.x, f.place.y));
    let (cost, max) = (dist(f.cost_ft, lang), dist(f.max_ft, lang));
    let pct = |r: &arbiter_rules::dice::Ratio| format!("{:.2} %", r.to_f64() * 100.0);
    match (f.reason, lang) {
        (None, En) => format!(
            "grapple follow-up, move: the grappler walks {path} ({cost} of half its speed, {max}) with the target and places it on {place}; only on a success ({})",
            pct(&f.applies)
        ),
        (None, Fr) => format!(
            "suite de la lutte, déplacement : l'agrippeur parcourt {path} ({cost} sur la moitié de sa vitesse, {max}) avec la cible et la place en {place} ; seulement en cas de réussite ({})",
            pct(&f.applies).replace('.', ",")
        ),
        (Some(why), En) => format!(
            "grapple follow-up, move along {path}, target on {place}: not possible ({})",
            glossary::follow_up_issue(why, lang)
        ),
        (Some(why), Fr) => format!(
            "suite de la lutte, déplacement par {path}, cible en {place} : impossible ({})",
            glossary::follow_up_issue(why, lang)
        ),
    }
}

fn follow_up_json(f: &MoveFollowUp) -> ManeuverEffectOut {
    FollowUpMoveStepOut {
        legal: f.legal,
        reason: f.reason,
        path: square_list(&f.path),
        cost_ft: f.cost_ft,
        max_ft: f.max_ft,
        place: sq(f.place),
        p_applies: f.applies.to_f64(),
        exact: f.applies.to_string(),
    }
    .into()
}

/// A grappled target pulled to a free adjacent square, or the grapple failing for want of one.
fn pull_text(from: Square, to: Option<Square>, lang: Lang) -> String {
    use Lang::*;
    match (to, lang) {
        (Some(s), En) => format!(
            "the target is not adjacent: on a success it is pulled from ({}, {}) to ({}, {})",
            from.x, from.y, s.x, s.y
        ),
        (Some(s), Fr) => format!(
            "la cible n'est pas au contact : en cas de réussite elle est amenée de ({}, {}) en ({}, {})",
            from.x, from.y, s.x, s.y
        ),
        (None, En) => {
            "the target is not adjacent and no adjacent square is free: the grapple fails".to_owned()
        }
        (None, Fr) => {
            "la cible n'est pas au contact et aucune case adjacente n'est libre : la lutte échoue".to_owned()
        }
    }
}

wire! {
    /// A combat maneuver or charge step (`ManeuverEffect`) on the wire.
    ManeuverEffectOut {
    /// The closest squares from which a charge can attack.
    ChargeClosest ChargeClosestStepOut { closest: Vec<SquareOut>, feet: u32 },
    /// Whether the charger sees the target at the start.
    ChargeSight ChargeSightStepOut { line_of_sight: bool },
    /// One end square tested, with the path test and what blocks it.
    ChargeTested ChargeTestedStepOut { end: SquareOut, movement_ft: u32, obstacle: Option<ObstacleOut>, #[schema(value_type = crate::wire::PathTestId)] path_test: &'static str, squares: Vec<SquareOut> },
    /// No charge is possible (`legal` is always false).
    ChargeIllegal ChargeIllegalStepOut { legal: bool, obstacle: ObstacleOut },
    /// The charge (`legal` is always true).
    ChargeLegal ChargeLegalStepOut { ac_penalty: i32, alternatives: Vec<SquareOut>, attack_bonus: i32, end: SquareOut, legal: bool, movement_ft: u32 },
    /// A push, or any walk square by square.
    Pushed PushStepOut {
        direction: DirectionOut,
        from: SquareOut,
        moved_ft: u32,
        path: Vec<SquareOut>,
        #[schema(value_type = Option<crate::wire::PushStopId>)] stopped_by: Option<&'static str>,
        to: SquareOut,
        wanted_ft: u32,
    },
    /// The acting creature's movement: its kind, then the walk.
    AttackerMoves AttackerMovesStepOut {
        #[schema(value_type = crate::wire::AttackerMoveKindId)] attacker_move: &'static str,
        #[serde(flatten)]
        walk: PushStepOut,
    },
    /// A secondary bull rush against a creature in the way.
    Secondary SecondaryRushStepOut { bonus: i32, cmd: i32, creature: String, earned_ft: Option<u32>, #[schema(value_type = Option<crate::wire::SecondaryIllegalId>)] illegal: Option<&'static str>, margin: Option<i64>, moved: Option<PushStepOut>, natural: Option<i64>, square: SquareOut, success: Option<bool>, total: Option<i64> },
    /// The maneuver cannot be attempted (`legal` is always false).
    Illegal ManeuverIllegalStepOut { #[schema(value_type = crate::wire::ManeuverKindId)] kind: &'static str, legal: bool, #[schema(value_type = crate::wire::ManeuverIllegalId)] reason: &'static str },
    /// A modifier, to the check or to the defence.
    Modifier ManeuverModifierStepOut { #[schema(value_type = crate::wire::AppliesToId)] applies_to: &'static str, detail: String, value: i32 },
    /// The numbers compared.
    Numbers ManeuverNumbersStepOut { bonus: i32, #[schema(value_type = crate::wire::CheckKindId)] check: &'static str, dc: Option<i32>, opposed_bonus: Option<i32> },
    /// Automatic success against a helpless target (`automatic` is always true).
    Automatic ManeuverAutomaticStepOut { automatic: bool, #[schema(value_type = crate::wire::ConditionId)] condition: &'static str },
    /// The roll.
    Rolled ManeuverRolledStepOut { margin: i64, natural: i64, opposed_total: Option<i64>, success: bool, total: i64 },
    /// A tie in a 5e 2014 contest (`tie` is always true).
    Tie ManeuverTieStepOut { tie: bool },
    /// The exact chance of success, as a number and as a fraction.
    Odds ManeuverOddsStepOut { exact: String, success: f64 },
    /// The outcome band.
    Outcome ManeuverOutcomeStepOut { band: String },
    /// The target's concealment miss chance, percent.
    Concealment ManeuverConcealmentStepOut { miss_chance: u32 },
    /// The d100 against the miss chance.
    MissRoll ManeuverMissRollStepOut { missed: bool, roll: i64 },
    /// An attack of opportunity the maneuver provokes (or not).
    Opportunity ManeuverOpportunityStepOut { creature: String, provoked: bool, #[schema(value_type = crate::wire::ManeuverOpportunityReasonId)] reason: &'static str },
    /// The target let the attacker through (`target_avoids` is always true).
    TargetAvoids TargetAvoidsStepOut { target_avoids: bool },
    /// A grappled target pulled to a free adjacent square, if any.
    PullAdjacent PullAdjacentStepOut { from: SquareOut, to: Option<SquareOut> },
    /// A grapple's follow-up move judged: the grappler's path, its cost against half its speed, the target's square, and the probability it happens.
    FollowUpMove FollowUpMoveStepOut { cost_ft: u32, exact: String, legal: bool, max_ft: u32, p_applies: f64, path: Vec<SquareOut>, place: SquareOut, #[schema(value_type = Option<crate::wire::FollowUpIllegalId>)] reason: Option<&'static str> },
    /// Disarm: on a success the attacker may pick the dropped item up (`may_pick_up` is always true).
    PickUp PickUpStepOut { may_pick_up: bool, whip: bool },
    /// The DC to escape being tied up.
    EscapeDc EscapeDcStepOut { escape_dc: i32 },
    /// The three d6 of an hb3d check.
    CheckDice CheckDiceStepOut { faces: Vec<u32>, natural: i64 },
    /// The other side's roll of a contest.
    OpposedRoll OpposedRollStepOut { opposed_natural: i64, opposed_total: i64 },
    }
    reuses {
        /// An attack of opportunity a charge provokes (or not), as in a movement.
        ChargeProvokes(MoveOpportunityStepOut),
    }
}

/// Why a charge is not possible, or what blocks an end square.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct ObstacleOut {
    /// The creature in the way, if one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    creature: Option<String>,
    /// Why (`ChargeIllegal` id).
    #[schema(value_type = crate::wire::ChargeIllegalId)]
    reason: &'static str,
    /// The square in the way, if one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    square: Option<SquareOut>,
}

/// A push direction: squares per 5 ft east (`x`) and south (`y`), each −1, 0 or 1.
#[derive(Debug, Clone, Copy, serde::Serialize, utoipa::ToSchema)]
pub struct DirectionOut {
    /// East.
    x: i32,
    /// South.
    y: i32,
}

// Fields of other effects, never left out of their objects (see `Absent`).
impl Absent for ObstacleOut {}
impl Absent for DirectionOut {}
impl Absent for PushStepOut {}
