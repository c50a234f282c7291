//! Per-ruleset maneuver numbers: a `match` on [`RulesetId`] (RULES.md §2.2, §2.3, §3, §5).

use super::{CheckKind, IMMOBILE, Illegal, Kind, Modifier, Options, Plan, Side, missing};
use crate::encounter::Terrain;
use crate::encounter::{Condition, Creature, Encounter, WeaponProperty};
use crate::error::RulesError;
use crate::grid::{Space, Square};
use crate::reach::{self, ReachBand};
use crate::ruleset::RulesetId;

fn unsupported(enc: &Encounter, kind: Kind) -> RulesError {
    RulesError::field(
        "/kind",
        format!(
            "{} has no {} maneuver; it answers {}",
            enc.ruleset.id(),
            kind.id(),
            match enc.ruleset {
                RulesetId::Dnd5e2014 | RulesetId::Dnd5e2024 => "grapple, shove, escape",
                _ => "grapple, bull_rush, trip, disarm, overrun, escape, pin, tie_up",
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
        action: if kind == Kind::Escape { "action" } else { "replaces_one_attack" },
    }
}

/// The numbers of one maneuver.
pub(super) fn plan(
    enc: &Encounter,
    ai: usize,
    a: &Creature,
    ti: usize,
    t: &Creature,
    kind: Kind,
    options: &Options,
) -> Result<Plan, RulesError> {
    match enc.ruleset {
        RulesetId::Dnd5e2014 => dnd5e2014(enc, ai, a, ti, t, kind, options),
        RulesetId::Dnd5e2024 => dnd5e2024(enc, ai, a, ti, t, kind, options),
        RulesetId::Pf1e | RulesetId::Hb3d => pathfinder(enc, ai, a, ti, t, kind, options),
        RulesetId::Sf1e => Err(unsupported(enc, kind)),
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

fn dnd5e2014(
    enc: &Encounter,
    ai: usize,
    a: &Creature,
    ti: usize,
    t: &Creature,
    kind: Kind,
    options: &Options,
) -> Result<Plan, RulesError> {
    let rule = match kind {
        Kind::Grapple => "dnd5e2014.grapple.check",
        Kind::Shove => "dnd5e2014.shove",
        Kind::Escape => "dnd5e2014.grapple.escape",
        _ => return Err(unsupported(enc, kind)),
    };
    let mut p = new_plan(rule, "dnd5e2014.contest.tie", kind, options);
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
        p.rule = "dnd5e2014.grapple.size-limit";
    }
    Ok(p)
}

fn dnd5e2024(
    enc: &Encounter,
    ai: usize,
    a: &Creature,
    ti: usize,
    t: &Creature,
    kind: Kind,
    options: &Options,
) -> Result<Plan, RulesError> {
    let rule = match kind {
        Kind::Grapple => "dnd5e2024.grapple.save",
        Kind::Shove => "dnd5e2024.shove",
        Kind::Escape => "dnd5e2024.grapple.escape-and-end",
        _ => return Err(unsupported(enc, kind)),
    };
    let mut p = new_plan(rule, "dnd5e2024.unarmed-strike", kind, options);
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
        p.rule = "dnd5e2024.grapple.size-limit";
    }
    Ok(p)
}

fn pathfinder(
    enc: &Encounter,
    ai: usize,
    a: &Creature,
    ti: usize,
    t: &Creature,
    kind: Kind,
    options: &Options,
) -> Result<Plan, RulesError> {
    let pf = enc.ruleset == RulesetId::Pf1e;
    let rule = match (pf, kind) {
        (_, Kind::Shove) => return Err(unsupported(enc, kind)),
        (true, Kind::BullRush) => "pf1e.maneuver.bull-rush",
        (true, Kind::Trip) => "pf1e.maneuver.trip",
        (true, Kind::Disarm) => "pf1e.maneuver.disarm",
        (true, Kind::Overrun) => "pf1e.maneuver.overrun",
        (true, _) => "pf1e.maneuver.grapple",
        (false, Kind::BullRush) => "hb3d.maneuver.bull-rush",
        (false, Kind::Trip) => "hb3d.maneuver.trip",
        (false, Kind::Disarm) => "hb3d.maneuver.disarm",
        (false, Kind::Overrun) => "hb3d.maneuver.overrun",
        (false, Kind::Grapple) => "hb3d.maneuver.grapple",
        (false, Kind::Pin) => "hb3d.maneuver.pin",
        (false, Kind::Escape) => "hb3d.maneuver.grapple-escape",
        (false, Kind::TieUp) => "hb3d.maneuver.tie-up",
        (false, Kind::Charge) => return Err(unsupported(enc, kind)),
    };
    let base = if pf { "pf1e.maneuver.cmb-cmd" } else { "hb3d.inherit-pf1e" };
    let mut p = new_plan(rule, base, kind, options);
    p.action = match kind {
        Kind::Trip => "melee_attack",
        Kind::Disarm if pf => "melee_attack",
        Kind::Disarm if !options.improved => "full_round",
        _ => "standard",
    };
    p.check = if pf { CheckKind::D20VsDc } else { CheckKind::ThreeD6VsDc };
    p.naturals = !(kind == Kind::Escape && options.escape_artist);
    p.provokes = matches!(kind, Kind::Grapple | Kind::BullRush | Kind::Trip | Kind::Disarm | Kind::Overrun);
    let cmb = |i: usize, c: &Creature| c.stats.cmb.ok_or_else(|| missing(i, c, "cmb"));
    let mut modifiers: Vec<Modifier> = Vec::new();
    let mut add = |rule: &'static str, detail: &str, value: i32, side: Side| {
        modifiers.push(Modifier { rule, detail: detail.to_owned(), value, side });
    };
    if kind == Kind::Escape {
        // The grappled creature (attacker) escapes its grappler (target).
        if options.escape_artist {
            p.bonus = a.stats.escape_artist.ok_or_else(|| missing(ai, a, "escape_artist"))?;
        } else {
            p.bonus = cmb(ai, a)?;
        }
        p.dc = Some(if pf {
            t.stats.cmd.ok_or_else(|| missing(ti, t, "cmd"))?
        } else {
            cmb(ti, t)?.saturating_add(if options.escape_artist { 10 } else { 15 })
        });
        if !grappled(a) {
            p.illegal = Some(Illegal::NotGrappled);
        }
        return Ok(p);
    }
    let mut bonus = cmb(ai, a)?;
    let mut dc = if pf {
        t.stats.cmd.ok_or_else(|| missing(ti, t, "cmd"))?
    } else {
        t.stats.def.ok_or_else(|| missing(ti, t, "def"))?
    };
    if kind == Kind::Overrun && options.target_avoids {
        p.check = CheckKind::None;
        p.dc = Some(dc);
        p.bonus = bonus;
        return Ok(p);
    }
    // Legality.
    let weapon = if matches!(kind, Kind::Trip | Kind::Disarm) { a.wielding.as_ref() } else { None };
    let band = reach::band(enc, a, weapon);
    let size_limited = matches!(kind, Kind::BullRush | Kind::Trip | Kind::Overrun);
    p.illegal = if size_limited && !size_ok(a, t) {
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
    };
    // Check modifiers.
    if options.improved {
        add(rule, "improved maneuver power / feat", if pf { 2 } else { 3 }, Side::Check);
    }
    if options.charging && matches!(kind, Kind::BullRush | Kind::Overrun) {
        add(if pf { "pf1e.charge" } else { "hb3d.charge" }, "charging (RULES.md Q-19)", 2, Side::Check);
    }
    if matches!(kind, Kind::Grapple | Kind::Pin | Kind::TieUp) && options.maintained {
        add(rule, "maintaining the grapple on a target that did not break free", 5, Side::Check);
    }
    if kind == Kind::Grapple && a.hands_free.is_some_and(|h| h < 2) {
        add(rule, "without two free hands", -4, Side::Check);
    }
    if pf && a.has(Condition::Grappled) && !matches!(kind, Kind::Grapple | Kind::Pin | Kind::TieUp) {
        add("pf1e.maneuver.grapple", "grappled attacker", -2, Side::Check);
    }
    if kind == Kind::Disarm {
        let whip = a.wielding.as_ref().is_some_and(|w| w.has(WeaponProperty::Disarm));
        if pf {
            if a.unarmed {
                add(rule, "disarm unarmed", -4, Side::Check);
            }
            if whip {
                add(rule, "weapon with the disarm quality", 2, Side::Check);
            }
        } else if a.unarmed || whip {
            add(rule, "disarm unarmed or with a whip", -3, Side::Check);
        }
    }
    if kind == Kind::TieUp && !t.has(Condition::Pinned) && !IMMOBILE.iter().any(|c| t.has(*c)) {
        add(rule, "tying up a target that is only grappled", -10, Side::Check);
    }
    if t.has(Condition::Stunned) {
        add(base, "stunned target", 4, Side::Check);
    }
    // Defence modifiers: legs beyond two.
    if matches!(kind, Kind::Trip | Kind::Overrun) {
        let legs = t.legs.unwrap_or(2);
        if legs > 2 {
            let v = i32::try_from(legs - 2).unwrap_or(i32::MAX / 4).min(1_000_000) * 2;
            add(rule, "legs beyond two", v, Side::Defence);
        }
    }
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
    if kind == Kind::Grapple && p.illegal.is_none() && !adjacent(&enc.space(a), &enc.space(t)) {
        p.pull = Some(pull_square(enc, ai, ti));
    }
    if kind == Kind::TieUp {
        let c = cmb(ai, a)?;
        p.escape_dc = Some(if pf || !enc.variants.is_on("hb3d.maneuver.tie-up.literal") {
            c.saturating_add(20)
        } else {
            c.saturating_add(5)
        });
    }
    Ok(p)
}

/// Whether two spaces touch (share an edge or a corner) without overlapping.
fn adjacent(a: &Space, t: &Space) -> bool {
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
