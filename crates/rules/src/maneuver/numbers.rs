//! The numbers of one maneuver, by the ruleset's [`ManeuverRule`] (RULES.md §2.2, §2.3, §3, §5).

use super::answer::{Options, ShoveChoice};
use crate::encounter::Terrain;
use crate::encounter::{Condition, Creature, Encounter, WeaponProperty};
use crate::error::RulesError;
use crate::grid::{Space, Square};
use crate::pair::Pair;
use crate::reach::{self, ReachBand};
use crate::ruleset::{
    CheckDice, CombatManeuver, DisarmAction, DisarmModifiers, EscapeDc, FiveEManeuvers, ManeuverDefence,
    ManeuverRule,
};
use crate::trace::maneuver::{CheckKind, Illegal, Kind, Modifier, Side};

/// Everything the numbers decide, before any die.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub rule: &'static str,
    pub base_rule: &'static str,
    pub illegal: Option<Illegal>,
    pub check: CheckKind,
    pub bonus: i32,
    pub dc: Option<i32>,
    pub opposed_bonus: Option<i32>,
    pub automatic: Option<Condition>,
    pub modifiers: Vec<Modifier>,
    pub naturals: bool,
    pub escape_dc: Option<i32>,
    pub kind: Kind,
    pub shove: ShoveChoice,
    pub provokes: bool,
    /// PF1/hb3d grapple of a non-adjacent target: where it is pulled (`Some(None)`: no free
    /// adjacent square, the grapple fails).
    pub pull: Option<Option<Square>>,
    /// Disarm: the attacker may pick the dropped item up, holding this (`numbers::disarm_terms`).
    pub pick_up: Option<DisarmHand>,
    pub action: &'static str,
}

/// A helpless target: PF1 automatic success.
const IMMOBILE: [Condition; 5] = [
    Condition::Unconscious,
    Condition::Helpless,
    Condition::Paralyzed,
    Condition::Petrified,
    Condition::TiedUp,
];

fn stats_pointer(i: usize) -> String {
    format!("/encounter/creatures/{i}/stats")
}

fn missing(i: usize, c: &Creature, stat: &'static str) -> RulesError {
    RulesError::MissingStat { pointer: stats_pointer(i), creature: c.id.clone(), stat }
}

fn unsupported(enc: &Encounter, kind: Kind) -> RulesError {
    RulesError::field(
        "/kind",
        format!(
            "{} has no {} maneuver; it answers {}",
            enc.ruleset.id(),
            kind.id(),
            match enc.ruleset.rules().maneuvers {
                ManeuverRule::Contest(_) | ManeuverRule::Save(_) => "grapple, shove, escape",
                ManeuverRule::CombatManeuver(_) | ManeuverRule::None { .. } =>
                    "grapple, bull_rush, trip, disarm, overrun, escape, pin, tie_up",
            }
        ),
    )
}

fn within(enc: &Encounter, a: &Creature, t: &Creature, band: &ReachBand) -> bool {
    let (m, _) = reach::metric(enc);
    reach::reaches(m, band, &enc.space(a), &enc.space(t))
}

fn grappled(c: &Creature) -> bool {
    c.has(Condition::Grappled) || c.has(Condition::Pinned) || c.has(Condition::TiedUp)
}

fn new_plan(rule: &'static str, base_rule: &'static str, kind: Kind, options: &Options) -> Plan {
    Plan {
        rule,
        base_rule,
        illegal: None,
        check: CheckKind::None,
        bonus: 0,
        dc: None,
        opposed_bonus: None,
        automatic: None,
        modifiers: Vec::new(),
        naturals: false,
        escape_dc: None,
        kind,
        shove: options.shove,
        provokes: false,
        pull: None,
        pick_up: None,
        action: if kind == Kind::Escape { "action" } else { "replaces_one_attack" },
    }
}

/// The numbers of one maneuver.
pub(super) fn plan(pair: &Pair<'_>, kind: Kind, options: &Options) -> Result<Plan, RulesError> {
    match pair.enc.ruleset.rules().maneuvers {
        ManeuverRule::Contest(r) => contest(pair, &r, kind, options),
        ManeuverRule::Save(r) => save(pair, &r, kind, options),
        ManeuverRule::CombatManeuver(r) => combat_maneuver(pair, &r, kind, options),
        ManeuverRule::None { .. } => Err(unsupported(pair.enc, kind)),
    }
}

/// The better of two optional bonuses, or the missing stat.
fn better(
    i: usize,
    c: &Creature,
    x: Option<i32>,
    y: Option<i32>,
    stat: &'static str,
) -> Result<i32, RulesError> {
    match (x, y) {
        (Some(x), Some(y)) => Ok(x.max(y)),
        (Some(v), None) | (None, Some(v)) => Ok(v),
        (None, None) => Err(missing(i, c, stat)),
    }
}

fn size_ok(a: &Creature, t: &Creature) -> bool {
    t.size.rank() <= a.size.rank() + 1
}

/// Both 5e editions: at most one size larger, within `band`, and a free hand to grapple.
fn dnd5e_legality(
    enc: &Encounter,
    a: &Creature,
    t: &Creature,
    kind: Kind,
    band: &ReachBand,
) -> Option<Illegal> {
    if !size_ok(a, t) {
        Some(Illegal::Size)
    } else if !within(enc, a, t, band) {
        Some(Illegal::Reach)
    } else if kind == Kind::Grapple && a.hands_free == Some(0) {
        Some(Illegal::Hands)
    } else {
        None
    }
}

/// 5e 2014: Athletics contests.
fn contest(pair: &Pair<'_>, r: &FiveEManeuvers, kind: Kind, options: &Options) -> Result<Plan, RulesError> {
    let Pair { enc, attacker: ai, a, target: ti, t } = *pair;
    let rule = match kind {
        Kind::Grapple => r.grapple,
        Kind::Shove => r.shove,
        Kind::Escape => r.escape,
        _ => return Err(unsupported(enc, kind)),
    };
    let mut p = new_plan(rule, r.base, kind, options);
    p.check = CheckKind::Contest;
    if kind == Kind::Escape {
        // The grappled creature (attacker) uses Athletics or Acrobatics vs the grappler's Athletics.
        p.bonus = better(ai, a, a.stats.athletics, a.stats.acrobatics, "athletics")?;
        p.opposed_bonus = Some(t.stats.athletics.ok_or_else(|| missing(ti, t, "athletics"))?);
        if !grappled(a) {
            p.illegal = Some(Illegal::NotGrappled);
        }
        return Ok(p);
    }
    p.bonus = a.stats.athletics.ok_or_else(|| missing(ai, a, "athletics"))?;
    p.opposed_bonus = Some(better(ti, t, t.stats.athletics, t.stats.acrobatics, "athletics")?);
    p.illegal = dnd5e_legality(enc, a, t, kind, &reach::band(enc, a, None));
    if p.illegal == Some(Illegal::Size) || p.illegal == Some(Illegal::Hands) {
        p.rule = r.size_limit;
    }
    Ok(p)
}

/// 5e 2024: saves against 8 + Str + PB.
fn save(pair: &Pair<'_>, r: &FiveEManeuvers, kind: Kind, options: &Options) -> Result<Plan, RulesError> {
    let Pair { enc, attacker: ai, a, target: ti, t } = *pair;
    let rule = match kind {
        Kind::Grapple => r.grapple,
        Kind::Shove => r.shove,
        Kind::Escape => r.escape,
        _ => return Err(unsupported(enc, kind)),
    };
    let mut p = new_plan(rule, r.base, kind, options);
    // DC 8 + Str mod + PB of the grappler (the target, for an escape).
    let (gi, g) = if kind == Kind::Escape { (ti, t) } else { (ai, a) };
    let str_mod = g.stats.str_mod.ok_or_else(|| missing(gi, g, "str_mod"))?;
    let pb = g.stats.proficiency_bonus.ok_or_else(|| missing(gi, g, "proficiency_bonus"))?;
    p.dc = Some(str_mod.saturating_add(pb).saturating_add(8));
    if kind == Kind::Escape {
        p.check = CheckKind::D20VsDc;
        p.bonus = better(ai, a, a.stats.athletics, a.stats.acrobatics, "athletics")?;
        if !grappled(a) {
            p.illegal = Some(Illegal::NotGrappled);
        }
        return Ok(p);
    }
    p.check = CheckKind::Save;
    p.bonus = better(ti, t, t.stats.saves.str, t.stats.saves.dex, "saves")?;
    let five = ReachBand { max_ft: 5, too_close_ft: None, second_diagonal: false };
    p.illegal = dnd5e_legality(enc, a, t, kind, &five);
    if kind == Kind::Grapple && p.illegal.is_some() {
        p.rule = r.size_limit;
    }
    Ok(p)
}

/// PF1 family: CMB against a defence.
fn combat_maneuver(
    pair: &Pair<'_>,
    r: &CombatManeuver,
    kind: Kind,
    options: &Options,
) -> Result<Plan, RulesError> {
    let Pair { enc, attacker: ai, a, target: ti, t } = *pair;
    let rule = match kind {
        Kind::Shove | Kind::Charge => return Err(unsupported(enc, kind)),
        Kind::BullRush => r.rules.bull_rush,
        Kind::Trip => r.rules.trip,
        Kind::Disarm => r.rules.disarm,
        Kind::Overrun => r.rules.overrun,
        Kind::Grapple => r.rules.grapple,
        Kind::Pin => r.rules.pin,
        Kind::Escape => r.rules.escape,
        Kind::TieUp => r.rules.tie_up,
    };
    let base = r.base_rule;
    let mut p = new_plan(rule, base, kind, options);
    p.action = match (kind, r.disarm_action) {
        (Kind::Trip, _) | (Kind::Disarm, DisarmAction::MeleeAttack) => "melee_attack",
        (Kind::Disarm, DisarmAction::FullRoundUnlessImproved) if !options.improved => "full_round",
        _ => "standard",
    };
    p.check = match r.dice {
        CheckDice::D20 => CheckKind::D20VsDc,
        CheckDice::ThreeD6 => CheckKind::ThreeD6VsDc,
    };
    p.naturals = !(kind == Kind::Escape && options.escape_artist);
    p.provokes = matches!(kind, Kind::Grapple | Kind::BullRush | Kind::Trip | Kind::Disarm | Kind::Overrun);
    let cmb = |i: usize, c: &Creature| c.stats.cmb.ok_or_else(|| missing(i, c, "cmb"));
    if kind == Kind::Escape {
        escape(enc, r, (ai, a), (ti, t), options, &mut p)?;
        return Ok(p);
    }
    let mut bonus = cmb(ai, a)?;
    let mut dc = match r.defence {
        ManeuverDefence::Cmd => t.stats.cmd.ok_or_else(|| missing(ti, t, "cmd"))?,
        ManeuverDefence::Def => t.stats.def.ok_or_else(|| missing(ti, t, "def"))?,
    };
    if kind == Kind::Overrun && options.target_avoids {
        p.check = CheckKind::None;
        p.dc = Some(dc);
        p.bonus = bonus;
        return Ok(p);
    }
    p.illegal = combat_maneuver_legality(enc, a, t, kind);
    let modifiers = combat_maneuver_modifiers(enc, r, rule, a, t, kind, options);
    for m in &modifiers {
        match m.side {
            Side::Check => bonus = bonus.saturating_add(m.value),
            Side::Defence => dc = dc.saturating_add(m.value),
        }
    }
    p.modifiers = modifiers;
    p.bonus = bonus;
    p.dc = Some(dc);
    p.automatic = IMMOBILE.iter().copied().find(|c| t.has(*c) && kind != Kind::Escape);
    let hand = disarm_hand(a);
    p.pick_up = (kind == Kind::Disarm && disarm_terms(r.disarm, hand).1).then_some(hand);
    if kind == Kind::Grapple && p.illegal.is_none() && !adjacent(&enc.space(a), &enc.space(t)) {
        p.pull = Some(pull_square(enc, ai, ti));
    }
    if kind == Kind::TieUp {
        let c = cmb(ai, a)?;
        let literal = r.tie_up_literal_variant.is_some_and(|v| enc.variants.is_on(v));
        p.escape_dc = Some(c.saturating_add(if literal { 5 } else { 20 }));
    }
    Ok(p)
}

/// The grappled creature (attacker) escapes its grappler (target): its CMB or Escape Artist
/// against the escape DC.
fn escape(
    enc: &Encounter,
    r: &CombatManeuver,
    (ai, a): (usize, &Creature),
    (ti, t): (usize, &Creature),
    options: &Options,
    p: &mut Plan,
) -> Result<(), RulesError> {
    let cmb = |i: usize, c: &Creature| c.stats.cmb.ok_or_else(|| missing(i, c, "cmb"));
    if options.escape_artist {
        p.bonus = a.stats.escape_artist.ok_or_else(|| missing(ai, a, "escape_artist"))?;
    } else {
        p.bonus = cmb(ai, a)?;
    }
    p.dc = Some(match r.escape_dc {
        EscapeDc::Cmd => t.stats.cmd.ok_or_else(|| missing(ti, t, "cmd"))?,
        EscapeDc::CmbPlus { escape_artist, otherwise } => {
            cmb(ti, t)?.saturating_add(if options.escape_artist { escape_artist } else { otherwise })
        }
    });
    // PF1: the escape DC is the grappler's CMD, lowered by its charge's AC penalty.
    if r.escape_dc == EscapeDc::Cmd
        && let Some(m) = charged_defence(enc, t)
    {
        p.dc = p.dc.map(|dc| dc.saturating_add(m.value));
        p.modifiers.push(m);
    }
    if !grappled(a) {
        p.illegal = Some(Illegal::NotGrappled);
    }
    Ok(())
}

/// Why a combat maneuver cannot be attempted: size, legs, flight, a target not grappled,
/// reach; the first reason found, in that order.
fn combat_maneuver_legality(enc: &Encounter, a: &Creature, t: &Creature, kind: Kind) -> Option<Illegal> {
    let weapon = if matches!(kind, Kind::Trip | Kind::Disarm) { a.wielding.as_ref() } else { None };
    let band = reach::band(enc, a, weapon);
    let size_limited = matches!(kind, Kind::BullRush | Kind::Trip | Kind::Overrun);
    if size_limited && !size_ok(a, t) {
        Some(Illegal::Size)
    } else if kind == Kind::Trip && t.legs == Some(0) {
        Some(Illegal::Legs)
    } else if kind == Kind::Trip && t.flying {
        Some(Illegal::Flying)
    } else if matches!(kind, Kind::Pin | Kind::TieUp) && !grappled(t) && !IMMOBILE.iter().any(|c| t.has(*c)) {
        Some(Illegal::NotGrappled)
    } else if kind != Kind::Overrun && !within(enc, a, t, &band) {
        Some(Illegal::Reach)
    } else {
        None
    }
}

/// The modifiers of a combat maneuver: to the check, and to the defence (legs beyond two).
fn combat_maneuver_modifiers(
    enc: &Encounter,
    r: &CombatManeuver,
    rule: &'static str,
    a: &Creature,
    t: &Creature,
    kind: Kind,
    options: &Options,
) -> Vec<Modifier> {
    let base = r.base_rule;
    let mut modifiers: Vec<Modifier> = Vec::new();
    let mut add = |rule: &'static str, detail: &str, value: i32, side: Side| {
        modifiers.push(Modifier { rule, detail: detail.to_owned(), value, side });
    };
    // Check modifiers.
    if options.improved {
        add(rule, "improved maneuver power / feat", r.improved_bonus, Side::Check);
    }
    if options.charging
        && matches!(kind, Kind::BullRush | Kind::Overrun)
        && let Some(charge) = enc.ruleset.rules().charge
    {
        add(charge.rule, "charging (RULES.md Q-19)", charge.attack_bonus, Side::Check);
    }
    if matches!(kind, Kind::Grapple | Kind::Pin | Kind::TieUp) && options.maintained {
        add(rule, "maintaining the grapple on a target that did not break free", 5, Side::Check);
    }
    if kind == Kind::Grapple && a.hands_free.is_some_and(|h| h < 2) {
        add(rule, "without two free hands", -4, Side::Check);
    }
    if let Some(penalty) = r.grappled_attacker
        && a.has(Condition::Grappled)
        && !matches!(kind, Kind::Grapple | Kind::Pin | Kind::TieUp)
    {
        add(r.rules.grapple, "grappled attacker", penalty, Side::Check);
    }
    if kind == Kind::Disarm
        && let Some((detail, value)) = disarm_terms(r.disarm, disarm_hand(a)).0
    {
        add(rule, detail, value, Side::Check);
    }
    if kind == Kind::TieUp && !t.has(Condition::Pinned) && !IMMOBILE.iter().any(|c| t.has(*c)) {
        add(rule, "tying up a target that is only grappled", -10, Side::Check);
    }
    if t.has(Condition::Stunned) {
        add(base, "stunned target", 4, Side::Check);
    }
    // A target that charged: its AC penalty lowers the CMD (PF1: CMD "− AC penalties") or
    // the DEF (hb3d) the check is made against.
    if let Some(m) = charged_defence(enc, t) {
        add(m.rule, &m.detail, m.value, m.side);
    }
    // Defence modifiers: legs beyond two.
    if matches!(kind, Kind::Trip | Kind::Overrun) {
        let legs = t.legs.unwrap_or(2);
        if legs > 2 {
            let v = i32::try_from(legs - 2).unwrap_or(i32::MAX / 4).min(1_000_000) * 2;
            add(rule, "legs beyond two", v, Side::Defence);
        }
    }
    modifiers
}

/// What a disarming attacker holds (`pf1e.maneuver.disarm`, `hb3d.maneuver.disarm`). With no
/// `wielding` and no `unarmed` it holds an unnamed ordinary weapon: armed for the check and
/// for the pick-up alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DisarmHand {
    /// `unarmed` (it wins over a `wielding` also given).
    Unarmed,
    /// A whip ([`Weapon::is_whip`](crate::encounter::Weapon::is_whip)).
    Whip,
    /// A weapon with the `disarm` property that is not a whip (a sickle).
    DisarmQuality,
    /// Any other weapon, or none said.
    Weapon,
}

/// What `a` disarms with.
pub(super) fn disarm_hand(a: &Creature) -> DisarmHand {
    match &a.wielding {
        _ if a.unarmed => DisarmHand::Unarmed,
        Some(w) if w.is_whip() => DisarmHand::Whip,
        Some(w) if w.has(WeaponProperty::Disarm) => DisarmHand::DisarmQuality,
        _ => DisarmHand::Weapon,
    }
}

/// The disarm modifier (its detail and value) and whether the attacker may pick the dropped
/// item up, which go together per the ruleset's knob: PF1 −4 and the pick-up unarmed, +2 and
/// no pick-up with a weapon of the disarm quality (a whip has it); hb3d −3 and the pick-up
/// unarmed or with a whip, nothing with another weapon (a sickle included).
pub(super) fn disarm_terms(knob: DisarmModifiers, hand: DisarmHand) -> (Option<(&'static str, i32)>, bool) {
    match (knob, hand) {
        (DisarmModifiers::Separate { unarmed, .. }, DisarmHand::Unarmed) => {
            (Some(("disarm unarmed", unarmed)), true)
        }
        (DisarmModifiers::Separate { disarm_weapon, .. }, DisarmHand::Whip | DisarmHand::DisarmQuality) => {
            (Some(("weapon with the disarm quality", disarm_weapon)), false)
        }
        (DisarmModifiers::Either(v), DisarmHand::Unarmed | DisarmHand::Whip) => {
            (Some(("disarm unarmed or with a whip", v)), true)
        }
        _ => (None, false),
    }
}

/// `pf1e.charge` / `hb3d.charge`: a creature that charged (`charged`) has the charge's AC
/// penalty on the defence a maneuver is checked against (its CMD or DEF).
pub(super) fn charged_defence(enc: &Encounter, t: &Creature) -> Option<Modifier> {
    let c = enc.ruleset.rules().charge?;
    t.has(Condition::Charged).then(|| Modifier {
        rule: c.rule,
        detail: "charged target".to_owned(),
        value: c.ac_penalty,
        side: Side::Defence,
    })
}

/// Whether two spaces touch (share an edge or a corner) without overlapping.
pub(super) fn adjacent(a: &Space, t: &Space) -> bool {
    !a.overlaps(t)
        && i64::from(t.min_x()) <= i64::from(a.max_x()) + 1
        && i64::from(t.max_x()) >= i64::from(a.min_x()) - 1
        && i64::from(t.min_y()) <= i64::from(a.max_y()) + 1
        && i64::from(t.max_y()) >= i64::from(a.min_y()) - 1
}

/// `pf1e.maneuver.grapple`: the free square adjacent to the grappler nearest to where the target
/// stands (squared centre distance; ties: first in row order), or none. Free: on the grid, not solid, nobody else there.
fn pull_square(enc: &Encounter, ai: usize, ti: usize) -> Option<Square> {
    let (a, t) = (enc.creatures.get(ai)?, enc.creatures.get(ti)?);
    let (sa, st) = (enc.space(a), enc.space(t));
    let side = st.side.max(1);
    let mut best: Option<(i64, Square)> = None;
    for y in sa.min_y().saturating_sub(side)..=sa.max_y().saturating_add(1) {
        for x in sa.min_x().saturating_sub(side)..=sa.max_x().saturating_add(1) {
            let cand = Space { anchor: Square::new(x, y), side: st.side };
            if !adjacent(&sa, &cand) || !enc.grid.contains_space(&cand) {
                continue;
            }
            let free = cand.squares().all(|sq| {
                !enc.grid.terrain(sq).has(Terrain::SOLID)
                    && !enc.creatures.iter().enumerate().any(|(i, c)| i != ti && enc.space(c).contains(sq))
            });
            if !free {
                continue;
            }
            let (dx, dy) = (i64::from(x) - i64::from(st.anchor.x), i64::from(y) - i64::from(st.anchor.y));
            let d = dx.saturating_mul(dx).saturating_add(dy.saturating_mul(dy));
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, cand.anchor));
            }
        }
    }
    best.map(|(_, s)| s)
}
