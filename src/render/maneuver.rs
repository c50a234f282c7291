//! Text and data of the maneuver trace steps.

use serde_json::{Value, json};

use super::{Lang, sq};
use arbiter_rules::grid::Square;
use arbiter_rules::maneuver::{
    AttackerMoveKind, ChargeStep, CheckKind, ManeuverEffect, Obstacle, Push, PushStop, SecondaryRush, Side,
};
use arbiter_rules::movement::MoveOpportunity;

fn squares_text(v: &[Square]) -> String {
    if v.is_empty() {
        return "—".to_owned();
    }
    v.iter().map(|q| format!("({}, {})", q.x, q.y)).collect::<Vec<_>>().join(", ")
}

fn obstacle_text(o: &Obstacle, lang: Lang) -> String {
    let at = o.square.map(|q| format!(" ({}, {})", q.x, q.y)).unwrap_or_default();
    let who = o.creature.as_ref().map(|c| format!(" {c}")).unwrap_or_default();
    match lang {
        Lang::En => format!("{}{at}{who}", o.why.id()),
        Lang::Fr => format!("{}{at}{who}", o.why.id()),
    }
}

fn obstacle_json(o: &Obstacle) -> Value {
    json!({"reason": o.why.id(), "square": o.square.map(sq), "creature": o.creature})
}

fn charge_step(c: &ChargeStep, lang: Lang) -> (String, Value) {
    use Lang::*;
    match c {
        ChargeStep::Closest { squares, feet } => (
            match lang {
                En => format!("closest squares from which to attack: {} ({feet} ft)", squares_text(squares)),
                Fr => format!("cases d'attaque les plus proches : {} ({feet} pieds)", squares_text(squares)),
            },
            json!({"closest": squares.iter().map(|s| sq(*s)).collect::<Vec<_>>(), "feet": feet}),
        ),
        ChargeStep::Sight { clear } => (
            match (clear, lang) {
                (true, En) => "line of sight to the target at the start".to_owned(),
                (true, Fr) => "ligne de vue sur la cible au départ".to_owned(),
                (false, En) => "no line of sight to the target at the start".to_owned(),
                (false, Fr) => "pas de ligne de vue sur la cible au départ".to_owned(),
            },
            json!({"line_of_sight": clear}),
        ),
        ChargeStep::Tested { test, end } => (
            match (&end.obstacle, lang) {
                (None, En) => format!(
                    "end ({}, {}), {} ft, {} squares {}: clear",
                    end.end.x,
                    end.end.y,
                    end.movement_ft,
                    test.id(),
                    squares_text(&end.squares)
                ),
                (None, Fr) => format!(
                    "arrivée ({}, {}), {} pieds, cases {} {} : dégagées",
                    end.end.x,
                    end.end.y,
                    end.movement_ft,
                    test.id(),
                    squares_text(&end.squares)
                ),
                (Some(o), En) => format!(
                    "end ({}, {}), {} ft, {} squares {}: {}",
                    end.end.x,
                    end.end.y,
                    end.movement_ft,
                    test.id(),
                    squares_text(&end.squares),
                    obstacle_text(o, lang)
                ),
                (Some(o), Fr) => format!(
                    "arrivée ({}, {}), {} pieds, cases {} {} : {}",
                    end.end.x,
                    end.end.y,
                    end.movement_ft,
                    test.id(),
                    squares_text(&end.squares),
                    obstacle_text(o, lang)
                ),
            },
            json!({
                "end": sq(end.end), "movement_ft": end.movement_ft, "path_test": test.id(),
                "squares": end.squares.iter().map(|s| sq(*s)).collect::<Vec<_>>(),
                "obstacle": end.obstacle.as_ref().map(obstacle_json),
            }),
        ),
        ChargeStep::Provokes(o) => opportunity_step(o, lang),
        ChargeStep::Illegal(o) => (
            match lang {
                En => format!("no charge: {}", obstacle_text(o, lang)),
                Fr => format!("pas de charge : {}", obstacle_text(o, lang)),
            },
            json!({"legal": false, "obstacle": obstacle_json(o)}),
        ),
        ChargeStep::Legal { end, movement_ft, attack_bonus, ac_penalty, alternatives } => (
            match lang {
                En => format!(
                    "charge to ({}, {}), {movement_ft} ft: {attack_bonus:+} to the attack, {ac_penalty:+} to AC until the next turn",
                    end.x, end.y
                ),
                Fr => format!(
                    "charge jusqu'en ({}, {}), {movement_ft} pieds : {attack_bonus:+} à l'attaque, {ac_penalty:+} à la CA jusqu'au prochain tour",
                    end.x, end.y
                ),
            },
            json!({
                "legal": true, "end": sq(*end), "movement_ft": movement_ft,
                "attack_bonus": attack_bonus, "ac_penalty": ac_penalty,
                "alternatives": alternatives.iter().map(|s| sq(*s)).collect::<Vec<_>>(),
            }),
        ),
    }
}

/// The data of a push (or of any walk square by square).
fn push_json(p: &Push) -> Value {
    json!({
        "direction": {"x": p.direction.0, "y": p.direction.1},
        "wanted_ft": p.wanted_ft, "moved_ft": p.moved_ft,
        "from": sq(p.from), "to": sq(p.to),
        "path": p.path.iter().map(|s| sq(*s)).collect::<Vec<_>>(),
        "stopped_by": p.stopped.as_ref().map(|s| s.id()),
    })
}

fn secondary_text(r: &SecondaryRush, lang: Lang) -> String {
    use Lang::*;
    let at = format!("({}, {})", r.square.x, r.square.y);
    match (r.illegal, r.success, lang) {
        (Some(why), _, En) => format!(
            "{} on {at} is in the way and cannot be bull rushed ({}): the push stops",
            r.creature,
            why.id()
        ),
        (Some(why), _, Fr) => format!(
            "{} en {at} est sur le chemin et ne peut pas être bousculé ({}) : la poussée s'arrête",
            r.creature,
            why.id()
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
            "{} en {at} est sur le chemin : nouveau test {:+} contre DMD {} → {}, réussite ; tous deux avancent de {} ft",
            r.creature,
            r.bonus,
            r.cmd,
            r.total.unwrap_or(0),
            r.moved.as_ref().map_or(0, |p| p.moved_ft)
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

fn secondary_json(r: &SecondaryRush) -> Value {
    json!({
        "creature": r.creature, "square": sq(r.square), "illegal": r.illegal.map(|i| i.id()),
        "bonus": r.bonus, "cmd": r.cmd, "natural": r.natural, "total": r.total, "margin": r.margin,
        "success": r.success, "earned_ft": r.earned_ft, "moved": r.moved.as_ref().map(push_json),
    })
}

fn opportunity_step(o: &MoveOpportunity, lang: Lang) -> (String, Value) {
    use Lang::*;
    let at = format!("({}, {})", o.square.x, o.square.y);
    (
        match (o.provoked, lang) {
            (true, En) => format!("leaving {at} provokes an attack of opportunity from {}", o.creature),
            (true, Fr) => format!("quitter {at} provoque une attaque d'opportunité de {}", o.creature),
            (false, En) => {
                format!("leaving {at}: no attack of opportunity from {} ({})", o.creature, o.reason)
            }
            (false, Fr) => {
                format!("quitter {at} : pas d'attaque d'opportunité de {} ({})", o.creature, o.reason)
            }
        },
        json!({"creature": o.creature, "step": o.step, "square": sq(o.square), "provoked": o.provoked, "reason": o.reason}),
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
pub(super) fn effect(e: &ManeuverEffect, lang: Lang) -> (String, Value) {
    use Lang::*;
    match e {
        ManeuverEffect::Illegal { kind, why } => (
            match lang {
                En => format!("{} cannot be attempted: {}", kind.id(), why.id()),
                Fr => format!("{} impossible : {}", kind.id(), why.id()),
            },
            json!({"legal": false, "kind": kind.id(), "reason": why.id()}),
        ),
        ManeuverEffect::Modifier(m) => {
            let side = match m.side {
                Side::Check => "check",
                Side::Defence => "defence",
            };
            (
                match (lang, m.side) {
                    (En, Side::Check) => format!("{}: {:+} to the check", m.detail, m.value),
                    (En, Side::Defence) => format!("{}: {:+} to the defence", m.detail, m.value),
                    (Fr, Side::Check) => format!("{} : {:+} au test", m.detail, m.value),
                    (Fr, Side::Defence) => format!("{} : {:+} à la défense", m.detail, m.value),
                },
                json!({"detail": m.detail, "value": m.value, "applies_to": side}),
            )
        }
        ManeuverEffect::Numbers { check, bonus, dc, opposed_bonus } => {
            let text = match (check, lang) {
                (CheckKind::Contest, En) => {
                    format!(
                        "contest: d20 {bonus:+} against d20 {:+}; a tie fails",
                        opposed_bonus.unwrap_or(0)
                    )
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
            };
            (text, json!({"check": check.id(), "bonus": bonus, "dc": dc, "opposed_bonus": opposed_bonus}))
        }
        ManeuverEffect::Automatic { condition } => (
            match lang {
                En => format!("the target is {}: automatic success", condition.id()),
                Fr => format!("la cible est {} : réussite automatique", condition.id()),
            },
            json!({"automatic": true, "condition": condition.id()}),
        ),
        ManeuverEffect::Rolled { natural, total, opposed_total, margin, success } => {
            let verdict = match (success, lang) {
                (true, En) => "success",
                (false, En) => "failure",
                (true, Fr) => "réussite",
                (false, Fr) => "échec",
            };
            let vs = opposed_total.map(|o| format!(" vs {o}")).unwrap_or_default();
            (
                format!("{natural} → {total}{vs}: {verdict} ({margin:+})"),
                json!({"natural": natural, "total": total, "opposed_total": opposed_total, "margin": margin, "success": success}),
            )
        }
        ManeuverEffect::Tie => (
            match lang {
                En => "a tie leaves the situation unchanged: the attempt fails".to_owned(),
                Fr => "l'égalité laisse la situation inchangée : la tentative échoue".to_owned(),
            },
            json!({"tie": true}),
        ),
        ManeuverEffect::Odds { success } => (
            match lang {
                En => format!("chance of success {:.2} %", success.to_f64() * 100.0),
                Fr => format!("chance de réussite {:.2} %", success.to_f64() * 100.0).replace('.', ","),
            },
            json!({"success": success.to_f64(), "exact": success.to_string()}),
        ),
        ManeuverEffect::Outcome { band } => (
            match lang {
                En => format!("outcome: {band}"),
                Fr => format!("résultat : {band}"),
            },
            json!({"band": band}),
        ),
        ManeuverEffect::Pushed(p) => {
            let mut text = match lang {
                En => format!(
                    "pushed {} ft of {} ft, from ({}, {}) to ({}, {})",
                    p.moved_ft, p.wanted_ft, p.from.x, p.from.y, p.to.x, p.to.y
                ),
                Fr => format!(
                    "repoussé de {} ft sur {} ft, de ({}, {}) à ({}, {})",
                    p.moved_ft, p.wanted_ft, p.from.x, p.from.y, p.to.x, p.to.y
                ),
            };
            if let Some(s) = &p.stopped {
                text = format!("{text}; {}", stop_text(s, lang));
            }
            (text, push_json(p))
        }
        ManeuverEffect::Concealment { miss_chance } => (
            match lang {
                En => format!(
                    "the target's concealment applies: {miss_chance} % miss chance after a successful check"
                ),
                Fr => format!(
                    "le camouflage de la cible s'applique : {miss_chance} % de risque d'échec après un test réussi"
                ),
            },
            json!({"miss_chance": miss_chance}),
        ),
        ManeuverEffect::MissRoll { roll, missed } => (
            match (missed, lang) {
                (true, En) => format!("miss chance d100 = {roll}: the maneuver misses"),
                (true, Fr) => format!("risque d'échec d100 = {roll} : la manœuvre rate"),
                (false, En) => format!("miss chance d100 = {roll}: no effect"),
                (false, Fr) => format!("risque d'échec d100 = {roll} : sans effet"),
            },
            json!({"roll": roll, "missed": missed}),
        ),
        ManeuverEffect::Secondary(r) => (secondary_text(r, lang), secondary_json(r)),
        ManeuverEffect::AttackerMoves(m) => {
            let p = &m.walk;
            let mut text = match (m.kind, lang) {
                (AttackerMoveKind::Follow, En) => format!(
                    "the attacker may follow ({} ft, movement permitting): ({}, {}) to ({}, {})",
                    p.moved_ft, p.from.x, p.from.y, p.to.x, p.to.y
                ),
                (AttackerMoveKind::Follow, Fr) => format!(
                    "l'attaquant peut suivre ({} ft, s'il lui reste du mouvement) : de ({}, {}) à ({}, {})",
                    p.moved_ft, p.from.x, p.from.y, p.to.x, p.to.y
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
                    format!(
                        "the attacker's movement ends in front of the target, on ({}, {})",
                        p.to.x, p.to.y
                    )
                }
                (AttackerMoveKind::Front, Fr) => {
                    format!(
                        "le mouvement de l'attaquant s'arrête devant la cible, en ({}, {})",
                        p.to.x, p.to.y
                    )
                }
            };
            if let Some(s) = &p.stopped {
                text = format!("{text}; {}", stop_text(s, lang));
            }
            let mut v = push_json(p);
            v["attacker_move"] = json!(m.kind.id());
            (text, v)
        }
        ManeuverEffect::Opportunity(o) => (
            match (o.provoked, lang) {
                (true, En) => format!("{} gets an attack of opportunity", o.creature),
                (true, Fr) => format!("{} obtient une attaque d'opportunité", o.creature),
                (false, En) => format!("no attack of opportunity from {} ({})", o.creature, o.reason),
                (false, Fr) => format!("pas d'attaque d'opportunité de {} ({})", o.creature, o.reason),
            },
            json!({"creature": o.creature, "provoked": o.provoked, "reason": o.reason}),
        ),
        ManeuverEffect::TargetAvoids => (
            match lang {
                En => "the target lets the attacker through: no check".to_owned(),
                Fr => "la cible laisse passer l'attaquant : pas de test".to_owned(),
            },
            json!({"target_avoids": true}),
        ),
        ManeuverEffect::PullAdjacent { from, to } => (
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
                    "la cible n'est pas au contact et aucune case adjacente n'est libre : la lutte échoue"
                        .to_owned()
                }
            },
            json!({"from": sq(*from), "to": to.map(sq)}),
        ),
        ManeuverEffect::EscapeDc { dc } => (
            match lang {
                En => format!("escaping the ropes: DC {dc}"),
                Fr => format!("se libérer des liens : DD {dc}"),
            },
            json!({"escape_dc": dc}),
        ),
        ManeuverEffect::Charge(c) => charge_step(c, lang),
    }
}
