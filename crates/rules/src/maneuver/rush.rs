//! PF1's secondary bull rush (`pf1e.maneuver.bull-rush`): when a pushed creature would step
//! into another creature's square, the bull rusher makes an immediate new check against that
//! creature at −4 per creature being pushed beyond the first; on a success both keep moving,
//! the lesser distance, on a failure the push ends there.
//!
//! "The lesser distance" (RULES.md leaves open from where it counts): the group continues for
//! the smaller of what is left of the push and what the new check earns on its own, counted
//! from where the creatures stand when they meet. When the target meets the other creature at
//! once (the common case), both readings agree.
//!
//! The same walk answers the odds: every check outcome is enumerated, so the distribution of
//! the target's final displacement is exact.

use super::answer::{Options, OutcomeBand};
use super::numbers;
use super::numbers::Plan;
use super::outcome::outcome;
use super::push::{Walk, direction};
use crate::budget::Budget;
use crate::dice::{DiceSource, Purpose, Ratio};
use crate::error::RulesError;
use crate::pair::Pair;
use crate::ruleset::{ManeuverRule, RulesetId};
use crate::scene::Scene;
pub use crate::trace::maneuver::SecondaryRush;
use crate::trace::maneuver::{Illegal, Kind, Modifier, Side};

/// The check penalty per creature being pushed beyond the first.
pub const PENALTY_PER_CREATURE: i32 = -4;

/// Whether a ruleset makes a secondary bull rush against a creature in the way (hb3d and 5e
/// stop the push there, RULES.md Q-45).
pub fn has_secondary(ruleset: RulesetId, kind: Kind) -> bool {
    kind == Kind::BullRush
        && matches!(ruleset.rules().maneuvers, ManeuverRule::CombatManeuver(m) if m.secondary_bull_rush)
}

/// The numbers of a secondary bull rush against `other` with `pushed` creatures already moving.
fn plan_against(
    scene: &Scene<'_>,
    attacker: usize,
    other: usize,
    pushed: usize,
    options: &Options,
) -> Result<Plan, RulesError> {
    let Some(pair) = Pair::new(scene.enc, attacker, other) else {
        return Err(RulesError::field("/target", "no such creature"));
    };
    let opts = Options { aoo_damage: 0, ..*options };
    let mut p = numbers::plan(&pair, Kind::BullRush, &opts)?;
    // The creature in the way is reached through the pushed one: reach does not apply.
    if p.illegal == Some(Illegal::Reach) {
        p.illegal = None;
    }
    let penalty = PENALTY_PER_CREATURE.saturating_mul(i32::try_from(pushed).unwrap_or(i32::MAX));
    p.modifiers.insert(
        0,
        Modifier {
            rule: p.rule,
            detail: format!("secondary bull rush: {pushed} creature(s) pushed beyond the first"),
            value: penalty,
            side: Side::Check,
        },
    );
    p.bonus = p.bonus.saturating_add(penalty);
    Ok(p)
}

fn earned(plan: &Plan, natural: i64) -> (bool, i64, Option<u32>) {
    let out = outcome(plan, natural, None);
    let ft = match out.band {
        OutcomeBand::Pushed(ft) => Some(ft),
        _ => None,
    };
    (out.success, out.margin, ft)
}

fn check_odds(plan: &Plan) -> Ratio {
    let wins = (1..=20).filter(|&n| earned(plan, n).0).count();
    Ratio::new(wins as u128, 20)
}

/// Pushes `target` away from `attacker` by `wanted_ft`, rolling a secondary bull rush against
/// each creature in the way when the ruleset has one.
pub(super) fn rush(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    wanted_ft: u32,
    options: &Options,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<(Walk, Vec<SecondaryRush>), RulesError> {
    let enc = scene.enc;
    let mut walk = start(scene, attacker, target, wanted_ft);
    let mut secondary = Vec::new();
    while let Some(other) = walk.advance(scene, budget)? {
        if !has_secondary(enc.ruleset, Kind::BullRush) {
            break;
        }
        let plan = plan_against(scene, attacker, other, walk.len(), options)?;
        let mut s = record(scene, &walk, other, &plan);
        if s.illegal.is_some() {
            walk.halt();
            secondary.push(s);
            break;
        }
        let Some(face) = dice.roll(&Purpose::Check, 20)? else {
            walk.halt();
            secondary.push(s);
            break;
        };
        let n = i64::from(face);
        let (success, margin, ft) = earned(&plan, n);
        s.natural = Some(n);
        s.total = Some(n.saturating_add(i64::from(plan.bonus)));
        s.margin = Some(margin);
        s.success = Some(success);
        s.earned_ft = ft;
        match ft {
            Some(ft) if success => walk.join(scene, other, ft),
            _ => walk.halt(),
        }
        secondary.push(s);
        if !success {
            break;
        }
    }
    let joined = walk.along.clone();
    for (s, p) in secondary.iter_mut().filter(|s| s.success == Some(true)).zip(joined) {
        s.moved = Some(p);
    }
    Ok((walk, secondary))
}

fn start(scene: &Scene<'_>, attacker: usize, target: usize, wanted_ft: u32) -> Walk {
    let enc = scene.enc;
    let dir = match (enc.creatures.get(attacker), enc.creatures.get(target)) {
        (Some(a), Some(t)) => direction(&enc.space(a), &enc.space(t)),
        _ => (0, 0),
    };
    Walk::new(scene, target, dir, wanted_ft, &[])
}

fn record(scene: &Scene<'_>, walk: &Walk, other: usize, plan: &Plan) -> SecondaryRush {
    let enc = scene.enc;
    SecondaryRush {
        creature: enc.creatures.get(other).map(|c| c.id.clone()).unwrap_or_default(),
        square: walk.push.stopped.as_ref().and_then(|s| s.square()).unwrap_or(walk.push.to),
        illegal: plan.illegal,
        bonus: plan.bonus,
        cmd: plan.dc.unwrap_or(0),
        modifiers: plan.modifiers.clone(),
        automatic: plan.automatic.is_some(),
        natural: None,
        total: None,
        margin: None,
        success: None,
        earned_ft: None,
        odds: if plan.illegal.is_some() { Ratio::ZERO } else { check_odds(plan) },
        moved: None,
    }
}

/// The distribution of the target's final displacement (feet) for a push of `wanted_ft` that
/// happens with probability `weight`.
pub(super) fn moved_odds(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    wanted_ft: u32,
    weight: Ratio,
    options: &Options,
    budget: &mut Budget,
) -> Result<Vec<(u32, Ratio)>, RulesError> {
    let walk = start(scene, attacker, target, wanted_ft);
    let mut out = Vec::new();
    branch(scene, attacker, walk, weight, options, &mut out, budget)?;
    Ok(out)
}

fn branch(
    scene: &Scene<'_>,
    attacker: usize,
    mut walk: Walk,
    weight: Ratio,
    options: &Options,
    out: &mut Vec<(u32, Ratio)>,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    budget.spend(1)?;
    let blocker = walk.advance(scene, budget)?;
    let other = match blocker {
        Some(o) if has_secondary(scene.enc.ruleset, Kind::BullRush) => o,
        _ => {
            add(out, walk.push.moved_ft, weight);
            return Ok(());
        }
    };
    let plan = plan_against(scene, attacker, other, walk.len(), options)?;
    if plan.illegal.is_some() {
        add(out, walk.push.moved_ft, weight);
        return Ok(());
    }
    // Group the twenty faces by what they earn: failure, or a distance.
    let mut by_ft: Vec<(Option<u32>, u128)> = Vec::new();
    for n in 1..=20 {
        budget.spend(1)?;
        let (success, _, ft) = earned(&plan, n);
        let key = if success { ft } else { None };
        match by_ft.iter_mut().find(|(k, _)| *k == key) {
            Some((_, c)) => *c += 1,
            None => by_ft.push((key, 1)),
        }
    }
    for (key, count) in by_ft {
        let w = weight.times(Ratio::new(count, 20));
        match key {
            Some(ft) => {
                let mut next = walk.clone();
                next.join(scene, other, ft);
                branch(scene, attacker, next, w, options, out, budget)?;
            }
            None => add(out, walk.push.moved_ft, w),
        }
    }
    Ok(())
}

/// Adds `w` to the entry for `ft`, keeping `out` sorted by feet.
pub(super) fn add(out: &mut Vec<(u32, Ratio)>, ft: u32, w: Ratio) {
    if w == Ratio::ZERO {
        return;
    }
    match out.binary_search_by_key(&ft, |(f, _)| *f) {
        Ok(i) => {
            if let Some((_, r)) = out.get_mut(i) {
                *r = r.plus(w);
            }
        }
        Err(i) => out.insert(i, (ft, w)),
    }
}
