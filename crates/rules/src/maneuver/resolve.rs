//! A maneuver other than a charge, from the numbers to the roll and its effects on the map:
//! legality, attacks of opportunity, the concealment miss chance, the exact odds, the roll
//! and what it does.

use super::answer::{Dropped, Effects, ManeuverAnswer, Odds, Options, OutcomeBand, ShoveChoice};
use super::numbers::{self, Plan};
use super::outcome::outcome;
use super::{mounted, push, rush};
use crate::budget::Budget;
use crate::cover::{AttackKind, cover};
use crate::dice::{DiceSource, Purpose, Ratio, Recorder, Rolled};
use crate::encounter::{Condition, Creature, Encounter};
use crate::error::RulesError;
use crate::pair::Pair;
use crate::ruleset::{ManeuverRule, OpportunityRule};
use crate::scene::Scene;
use crate::trace::maneuver::{CheckKind, Kind, ManeuverEffect, Modifier, Opportunity, Side};
use crate::trace::{Effect, Trace};
use crate::vision::{Attack as SightAttack, concealment_for_attack};

/// Answers a maneuver other than a charge (which [`super::maneuver`] sends to
/// [`super::charge()`], and whose bull rush or overrun comes back here).
pub(super) fn resolve(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    kind: Kind,
    options: &Options,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<ManeuverAnswer, RulesError> {
    let enc = scene.enc;
    let Some(pair) = Pair::new(enc, attacker, target) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    if attacker == target {
        return Err(RulesError::field("/target", "the target must be another creature than the attacker"));
    }
    if let ManeuverRule::None { why } = enc.ruleset.rules().maneuvers {
        return Err(RulesError::Unsupported { ruleset: enc.ruleset.id(), what: why.into() });
    }
    let mut plan = numbers::plan(&pair, kind, options)?;
    let mut trace = Trace::default();
    let mut ans = ManeuverAnswer::new(kind, &plan);
    if let Some(why) = plan.illegal {
        trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::Illegal { kind, why }));
        ans.odds.bands.push((OutcomeBand::Failure, Ratio::ONE));
        if pushes(kind, options.shove) {
            ans.odds.moved.push((0, Ratio::ONE));
        }
        ans.trace = trace;
        return Ok(ans);
    }
    ans.opportunity = opportunities(scene, attacker, target, kind, &plan, options, budget)?;
    if options.aoo_damage > 0 {
        aoo_damage(enc.ruleset.rules().maneuvers, kind, &ans.opportunity, options.aoo_damage, &mut plan)?;
        ans.bonus = plan.bonus;
    }
    ans.modifiers = plan.modifiers.clone();
    ans.miss_chance = miss_chance(scene, attacker, target, kind, &plan, budget)?;
    explain_numbers(enc, pair.t, &plan, &ans, &mut trace);
    ans.odds = odds(&plan, ans.miss_chance, budget)?;
    if pushes(kind, options.shove) {
        ans.odds.moved = moved(scene, attacker, target, &ans.odds.bands, options, budget)?;
    }
    trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::Odds { success: ans.odds.success }));
    for o in &ans.opportunity {
        trace.push(o.rule, Effect::Maneuver(ManeuverEffect::Opportunity(o.clone())));
    }
    // The roll.
    let mut rec = Recorder::new(dice);
    if let Some(rolled) = roll(&plan, &mut rec)? {
        let q = Attempt { scene, pair, kind, options };
        let band = q.outcome(&plan, rolled, &mut ans, &mut rec, &mut trace)?;
        let effects = q.effects(&plan, band, &mut rec, &mut trace, budget)?;
        ans.effects = Some(effects);
    }
    let shove = (kind, options.shove);
    ans.rider_falls = mounted::falls(scene, (attacker, target), shove, &ans, &mut rec, &mut trace, budget)?;
    ans.rolls = rec.rolled;
    ans.trace = trace;
    Ok(ans)
}

impl ManeuverAnswer {
    /// The answer before anything is rolled, with the plan's numbers.
    fn new(kind: Kind, plan: &Plan) -> Self {
        ManeuverAnswer {
            legal: plan.illegal.is_none(),
            illegal: plan.illegal,
            check: plan.check,
            bonus: plan.bonus,
            dc: plan.dc,
            opposed_bonus: plan.opposed_bonus,
            automatic: plan.automatic.is_some(),
            escape_dc: plan.escape_dc,
            action: plan.action,
            ..ManeuverAnswer::blank(kind)
        }
    }
}

/// The plan's steps: its modifiers, the check's numbers, automatic success, a pull, the
/// escape DC and the concealment miss chance.
fn explain_numbers(enc: &Encounter, t: &Creature, plan: &Plan, ans: &ManeuverAnswer, trace: &mut Trace) {
    for m in &plan.modifiers {
        trace.push(m.rule, Effect::Maneuver(ManeuverEffect::Modifier(m.clone())));
    }
    if plan.check == CheckKind::None {
        trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::TargetAvoids));
    } else {
        trace.push(
            plan.rule,
            Effect::Maneuver(ManeuverEffect::Numbers {
                check: plan.check,
                bonus: plan.bonus,
                dc: plan.dc,
                opposed_bonus: plan.opposed_bonus,
            }),
        );
    }
    if let Some(c) = plan.automatic {
        trace.push(plan.base_rule, Effect::Maneuver(ManeuverEffect::Automatic { condition: c }));
    }
    if let Some(to) = plan.pull {
        trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::PullAdjacent { from: t.at, to }));
    }
    if let Some(dc) = plan.escape_dc {
        trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::EscapeDc { dc }));
    }
    if let Some(hand) = plan.pick_up {
        let whip = hand == numbers::DisarmHand::Whip;
        trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::PickUp { whip }));
    }
    if ans.miss_chance > 0
        && let Some(rule) = concealment_rule(enc.ruleset.rules().maneuvers)
    {
        trace.push(rule, Effect::Maneuver(ManeuverEffect::Concealment { miss_chance: ans.miss_chance }));
    }
}

/// A maneuver being attempted, once its dice are rolled.
struct Attempt<'q, 's> {
    scene: &'q Scene<'s>,
    pair: Pair<'q>,
    kind: Kind,
    options: &'q Options,
}

impl Attempt<'_, '_> {
    /// The rolled check (`(n, o)`: the natural rolls of the check and of the opposed check) and
    /// the miss chance: the answer's numbers, success and band.
    fn outcome(
        &self,
        plan: &Plan,
        (n, o): (i64, Option<i64>),
        ans: &mut ManeuverAnswer,
        rec: &mut Recorder<'_, dyn DiceSource + '_>,
        trace: &mut Trace,
    ) -> Result<OutcomeBand, RulesError> {
        let (enc, kind, options) = (self.scene.enc, self.kind, self.options);
        let mut out = outcome(plan, n, o);
        ans.natural = (plan.check != CheckKind::None).then_some(n);
        ans.total = (plan.check != CheckKind::None).then_some(out.total);
        ans.opposed_natural = o;
        ans.opposed_total = out.opposed_total;
        ans.margin = (plan.check != CheckKind::None).then_some(out.margin);
        narrate_dice(plan, (n, o, out.opposed_total), &rec.rolled, trace);
        if plan.check != CheckKind::None {
            trace.push(
                plan.rule,
                Effect::Maneuver(ManeuverEffect::Rolled {
                    natural: n,
                    total: out.total,
                    opposed_total: out.opposed_total,
                    margin: out.margin,
                    success: out.success,
                }),
            );
        }
        if plan.check == CheckKind::Contest && out.margin == 0 {
            trace.push(plan.base_rule, Effect::Maneuver(ManeuverEffect::Tie));
        }
        if out.success
            && ans.miss_chance > 0
            && let Some(d) = rec.roll(&Purpose::MissChance, 100)?
        {
            let missed = d <= ans.miss_chance;
            ans.miss_roll = Some((i64::from(d), missed));
            if let Some(rule) = concealment_rule(enc.ruleset.rules().maneuvers) {
                trace.push(rule, Effect::Maneuver(ManeuverEffect::MissRoll { roll: i64::from(d), missed }));
            }
            if missed {
                out.success = false;
                out.band = OutcomeBand::Missed;
            }
        }
        ans.success = Some(out.success);
        ans.band = Some(out.band);
        trace.push(
            plan.rule,
            Effect::Maneuver(ManeuverEffect::Outcome { band: out.band.id(kind, options.shove) }),
        );
        Ok(out.band)
    }

    /// What the outcome band does on the map, with its steps.
    fn effects(
        &self,
        plan: &Plan,
        band: OutcomeBand,
        rec: &mut Recorder<'_, dyn DiceSource + '_>,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<Effects, RulesError> {
        let effects = effects(self, band, plan, rec, budget)?;
        // The secondary checks happen during the push; the push step then tells where it ended.
        for s in &effects.secondary {
            trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::Secondary(s.clone())));
        }
        if let Some(p) = &effects.push {
            trace.push("grid.push-direction", Effect::Maneuver(ManeuverEffect::Pushed(p.clone())));
        }
        if let Some(m) = &effects.attacker_move {
            trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::AttackerMoves(m.clone())));
        }
        Ok(effects)
    }
}

/// Whether the kind pushes the target (bull rush, 5e shove to push).
fn pushes(kind: Kind, shove: ShoveChoice) -> bool {
    kind == Kind::BullRush || (kind == Kind::Shove && shove == ShoveChoice::Push)
}

/// The rule id of concealment applying to a maneuver: only combat maneuvers have a miss chance.
fn concealment_rule(maneuvers: ManeuverRule) -> Option<&'static str> {
    match maneuvers {
        ManeuverRule::CombatManeuver(m) => Some(m.concealment_rule),
        ManeuverRule::Contest(_) | ManeuverRule::Save(_) | ManeuverRule::None { .. } => None,
    }
}

/// `pf1e.maneuver.cmb-cmd`: the target's concealment miss chance applies to a maneuver made
/// against it (PF1, and hb3d by `hb3d.inherit-pf1e`); not to an escape, which targets nobody,
/// nor to an overrun the target lets through.
fn miss_chance(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    kind: Kind,
    plan: &Plan,
    budget: &mut Budget,
) -> Result<u32, RulesError> {
    if !matches!(scene.enc.ruleset.rules().maneuvers, ManeuverRule::CombatManeuver(_))
        || kind == Kind::Escape
        || plan.check == CheckKind::None
    {
        return Ok(0);
    }
    let v = concealment_for_attack(scene, attacker, target, SightAttack::Melee, budget)?;
    Ok(v.miss_chance)
}

/// `pf1e.maneuver.cmb-cmd`: damage taken from the provoked attack of opportunity is a penalty
/// on the check. Damage with no attack of opportunity is a contradiction, reported as such.
fn aoo_damage(
    maneuvers: ManeuverRule,
    kind: Kind,
    opportunity: &[Opportunity],
    damage: u32,
    plan: &mut Plan,
) -> Result<(), RulesError> {
    if matches!(maneuvers, ManeuverRule::Contest(_) | ManeuverRule::Save(_)) {
        return Err(RulesError::field(
            "/options/aoo_damage",
            "D&D 5e maneuvers provoke no attack of opportunity",
        ));
    }
    if !opportunity.iter().any(|o| o.provoked) {
        let why = opportunity.first().map_or("it does not provoke", |o| o.reason);
        return Err(RulesError::field(
            "/options/aoo_damage",
            format!("this {} provokes no attack of opportunity ({why})", kind.id()),
        ));
    }
    let value = -i32::try_from(damage).unwrap_or(i32::MAX).min(1_000_000);
    plan.modifiers.push(Modifier {
        rule: plan.base_rule,
        detail: "damage taken from the attack of opportunity".into(),
        value,
        side: Side::Check,
    });
    plan.bonus = plan.bonus.saturating_add(value);
    Ok(())
}

/// The distribution of the target's displacement over the outcome bands.
fn moved(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    bands: &[(OutcomeBand, Ratio)],
    options: &Options,
    budget: &mut Budget,
) -> Result<Vec<(u32, Ratio)>, RulesError> {
    let mut out = Vec::new();
    for &(band, p) in bands {
        match band {
            OutcomeBand::Pushed(ft) => {
                for (moved, w) in rush::moved_odds(scene, attacker, target, ft, p, options, budget)? {
                    rush::add(&mut out, moved, w);
                }
            }
            _ => rush::add(&mut out, 0, p),
        }
    }
    Ok(out)
}

/// Naturals and their weights: d20 → 20 × 1; 3d6 → sums with their counts out of 216.
fn naturals(check: CheckKind) -> Vec<(i64, u128)> {
    match check {
        CheckKind::ThreeD6VsDc => {
            let mut w = [0u128; 19];
            for a in 1..=6usize {
                for b in 1..=6usize {
                    for c in 1..=6usize {
                        w[a + b + c] += 1;
                    }
                }
            }
            (3..=18).map(|s| (s as i64, w[s])).collect()
        }
        CheckKind::None => vec![(0, 1)],
        _ => (1..=20).map(|n| (n, 1)).collect(),
    }
}

fn odds(plan: &Plan, miss_chance: u32, budget: &mut Budget) -> Result<Odds, RulesError> {
    let ns = naturals(plan.check);
    let os: Vec<(Option<i64>, u128)> = if plan.check == CheckKind::Contest {
        (1..=20).map(|n| (Some(n), 1)).collect()
    } else {
        vec![(None, 1)]
    };
    let mut counts: Vec<(OutcomeBand, u128)> = Vec::new();
    let mut total = 0u128;
    let mut wins = 0u128;
    for &(n, wn) in &ns {
        budget.spend(1)?;
        for &(o, wo) in &os {
            let w = wn * wo;
            let out = outcome(plan, n, o);
            total += w;
            if out.success {
                wins += w;
            }
            match counts.iter_mut().find(|(b, _)| *b == out.band) {
                Some((_, c)) => *c += w,
                None => counts.push((out.band, w)),
            }
        }
    }
    counts.sort_by_key(|(b, _)| *b);
    // The miss chance is rolled after a successful check (as after a hit).
    let (keep, miss) = (Ratio::percent(miss_chance).complement(), Ratio::percent(miss_chance));
    let checked = Ratio::new(wins, total);
    let mut bands: Vec<(OutcomeBand, Ratio)> = Vec::new();
    if miss_chance > 0 && wins > 0 {
        bands.push((OutcomeBand::Missed, checked.times(miss)));
    }
    for (b, c) in counts {
        let p = Ratio::new(c, total);
        bands.push((b, if b.success() { p.times(keep) } else { p }));
    }
    Ok(Odds { success: checked.times(keep), bands, moved: Vec::new() })
}

/// The dice the roll step does not show itself: the three d6 of an hb3d check (the last three
/// rolled for the check), and the other side's d20 of a contest.
fn narrate_dice(
    plan: &Plan,
    (n, o, opposed_total): (i64, Option<i64>, Option<i64>),
    rolled: &[Rolled],
    trace: &mut Trace,
) {
    match (plan.check, o, opposed_total) {
        (CheckKind::ThreeD6VsDc, _, _) => {
            let mut faces: Vec<u32> =
                rolled.iter().rev().filter(|r| r.purpose == Purpose::Check).take(3).map(|r| r.face).collect();
            faces.reverse();
            trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::CheckDice { faces, natural: n }));
        }
        (CheckKind::Contest, Some(natural), Some(total)) => {
            trace.push(plan.rule, Effect::Maneuver(ManeuverEffect::OpposedRoll { natural, total }));
        }
        _ => {}
    }
}

fn roll(plan: &Plan, dice: &mut dyn DiceSource) -> Result<Option<(i64, Option<i64>)>, RulesError> {
    match plan.check {
        CheckKind::None => Ok(Some((0, None))),
        CheckKind::Contest => {
            let Some(a) = dice.roll(&Purpose::Check, 20)? else { return Ok(None) };
            let Some(b) = dice.roll(&Purpose::Opposed, 20)? else { return Ok(None) };
            Ok(Some((i64::from(a), Some(i64::from(b)))))
        }
        CheckKind::Save => Ok(dice.roll(&Purpose::Save, 20)?.map(|f| (i64::from(f), None))),
        CheckKind::D20VsDc => Ok(dice.roll(&Purpose::Check, 20)?.map(|f| (i64::from(f), None))),
        CheckKind::ThreeD6VsDc => {
            let mut sum = 0i64;
            for _ in 0..3 {
                let Some(f) = dice.roll(&Purpose::Check, 6)? else { return Ok(None) };
                sum += i64::from(f);
            }
            Ok(Some((sum, None)))
        }
    }
}

fn opportunities(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    kind: Kind,
    plan: &Plan,
    options: &Options,
    budget: &mut Budget,
) -> Result<Vec<Opportunity>, RulesError> {
    let enc = scene.enc;
    let rules = enc.ruleset.rules();
    let (ManeuverRule::CombatManeuver(_), OpportunityRule::LeavesThreatened { rule: aoo_rule, cover_rule }) =
        (rules.maneuvers, rules.movement.opportunity)
    else {
        return Ok(Vec::new());
    };
    if !plan.provokes {
        return Ok(Vec::new());
    }
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Ok(Vec::new());
    };
    let mk = |provoked, reason, rule| Opportunity { creature: t.id.clone(), provoked, reason, rule };
    if kind == Kind::Overrun && options.target_avoids {
        return Ok(vec![mk(false, "no_check", plan.rule)]);
    }
    if options.improved {
        return Ok(vec![mk(false, "improved", plan.rule)]);
    }
    if t.has(Condition::FlatFooted) {
        return Ok(vec![mk(false, "flat_footed", aoo_rule)]);
    }
    if t.has(Condition::Grappled) || t.has(Condition::Pinned) {
        return Ok(vec![mk(false, "grappled", plan.base_rule)]);
    }
    if !crate::reach::threatens(enc, t, &enc.space(a)) {
        return Ok(vec![mk(false, "does_not_threaten", aoo_rule)]);
    }
    let c = cover(scene, target, attacker, AttackKind::Melee, t.wielding.as_ref(), budget)?;
    if c.denies_opportunity_attacks {
        return Ok(vec![mk(false, "cover", cover_rule)]);
    }
    Ok(vec![mk(true, "provokes", plan.rule)])
}

fn weapon_name(c: &Creature) -> String {
    c.wielding.as_ref().and_then(|w| w.name.clone()).unwrap_or_else(|| "weapon".to_owned())
}

/// What `band` of the attempt `q` does on the map.
fn effects(
    q: &Attempt<'_, '_>,
    band: OutcomeBand,
    plan: &Plan,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<Effects, RulesError> {
    let (scene, kind, options) = (q.scene, q.kind, q.options);
    let Pair { enc, attacker, a, target, t } = q.pair;
    let mut e = Effects::default();
    // A PF1-style grapple leaves both creatures grappled; a 5e one only the target.
    let grappler_grappled = matches!(enc.ruleset.rules().maneuvers, ManeuverRule::CombatManeuver(_));
    match (kind, band) {
        (Kind::BullRush, OutcomeBand::Pushed(ft)) => {
            let (walk, secondary) = rush::rush(scene, attacker, target, ft, options, dice, budget)?;
            if walk.push.moved_ft > 0 {
                let dir = walk.push.direction;
                e.attacker_move =
                    Some(push::follow(scene, attacker, dir, walk.push.moved_ft, &walk.members(), budget)?);
            }
            e.push = Some(walk.push);
            e.secondary = secondary;
        }
        (_, OutcomeBand::Pushed(ft)) => e.push = Some(push::push(scene, attacker, target, ft, budget)?),
        (Kind::Shove | Kind::Trip, OutcomeBand::Success) => e.target_gains.push(Condition::Prone),
        (_, OutcomeBand::AttackerProne) => e.attacker_gains.push(Condition::Prone),
        (Kind::Grapple, OutcomeBand::Success) => {
            e.target_gains.push(Condition::Grappled);
            if grappler_grappled {
                e.attacker_gains.push(Condition::Grappled);
            }
            e.target_moved_to = plan.pull.flatten();
        }
        (Kind::Pin, OutcomeBand::Success) => e.target_gains.push(Condition::Pinned),
        (Kind::TieUp, OutcomeBand::Success) => e.target_gains.push(Condition::TiedUp),
        (Kind::Escape, OutcomeBand::Success) => {
            e.attacker_loses = a
                .conditions
                .iter()
                .copied()
                .filter(|c| matches!(c, Condition::Grappled | Condition::Pinned))
                .collect();
            if e.attacker_loses.is_empty() {
                e.attacker_loses.push(Condition::Grappled);
            }
        }
        (Kind::Disarm, OutcomeBand::Success) => {
            e.dropped.push(Dropped { creature: t.id.clone(), item: weapon_name(t) });
            e.attacker_may_pick_up = plan.pick_up.is_some();
        }
        (Kind::Disarm, OutcomeBand::BothHands) => {
            e.dropped.push(Dropped { creature: t.id.clone(), item: "both_hands".into() });
            e.attacker_may_pick_up = plan.pick_up.is_some();
        }
        (_, OutcomeBand::AttackerDrops) => {
            e.dropped.push(Dropped { creature: a.id.clone(), item: weapon_name(a) })
        }
        (Kind::Overrun, OutcomeBand::Success) => {
            e.through = true;
            e.attacker_move = Some(push::through(scene, attacker, target, budget)?);
        }
        (Kind::Overrun, OutcomeBand::ThroughAndProne) => {
            e.through = true;
            e.target_gains.push(Condition::Prone);
            e.attacker_move = Some(push::through(scene, attacker, target, budget)?);
        }
        (Kind::BullRush | Kind::Overrun, OutcomeBand::Failure | OutcomeBand::Missed) => {
            e.attacker_stops_in_front = true;
            e.attacker_move = Some(push::front(scene, attacker, target, budget)?);
        }
        _ => {}
    }
    Ok(e)
}
