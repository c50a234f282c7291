//! Combat maneuvers (`POST /v1/maneuvers`): 5e 2014 contests (`dnd5e2014.grapple.*`,
//! `dnd5e2014.shove`, `dnd5e2014.contest.tie`), 5e 2024 saves (`dnd5e2024.grapple.*`,
//! `dnd5e2024.shove`), PF1 CMB vs CMD (`pf1e.maneuver.*`) and hb3d 3d6 + CMB vs DEF
//! (`hb3d.maneuver.*`). Starfinder has none (RULES.md Q-32).
//!
//! The numbers come from the ruleset's [`ManeuverRule`] knob, applied in [`numbers`]. The odds
//! are exact: every natural roll (d20, 3d6, or a pair of d20s for a contest)
//! goes through the same outcome function as the roll itself.

pub mod charge;
pub mod follow_up;
mod mounted;
mod numbers;
pub mod push;
pub mod rush;

use crate::budget::Budget;
use crate::cover::{AttackKind, cover};
use crate::dice::{DiceSource, Purpose, Ratio, Recorder, Rolled};
use crate::encounter::{Condition, Creature, Encounter};
use crate::error::RulesError;
use crate::grid::Square;
use crate::ruleset::{ManeuverRule, OpportunityRule};
use crate::scene::Scene;
use crate::trace::{Effect, Trace};
use crate::vision::{Attack as SightAttack, concealment_for_attack};

pub use crate::trace::maneuver::{
    CheckKind, Illegal, Kind, ManeuverEffect, Modifier, MoveFollowUp, Opportunity, Side,
};
pub use charge::{Charge, ChargeIllegal, ChargeOptions, ChargeStep, EndTest, Obstacle, PathTest, charge};
pub use follow_up::{GrappleMove, follow_up_move};
pub use push::{AttackerMove, AttackerMoveKind, Push, PushStop};
pub use rush::SecondaryRush;

/// 5e shove: push or knock prone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ShoveChoice {
    /// Push 5 ft away.
    #[default]
    Push,
    /// Knock prone.
    Prone,
}

/// Options of a maneuver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// PF1 Improved feat / hb3d « Science de … »: no attack of opportunity, +2 (PF1) / +3 ATT
    /// (hb3d, D-25).
    pub improved: bool,
    /// 5e shove: push (default) or prone.
    pub shove: ShoveChoice,
    /// Overrun: the target lets the attacker through (no check).
    pub target_avoids: bool,
    /// PF1 / hb3d: a grapple check to maintain a hold on a target that did not break free (+5).
    pub maintained: bool,
    /// Escape with Escape Artist (PF1 vs CMD, hb3d DC 10 + CMB) instead of a maneuver check.
    pub escape_artist: bool,
    /// The bull rush or overrun ends a charge: +2 to the check (`pf1e.charge` / `hb3d.charge`,
    /// a single +2 per RULES.md Q-19).
    pub charging: bool,
    /// PF1 / hb3d: damage the acting creature took from the attack of opportunity this
    /// maneuver provoked, a penalty on the check (`pf1e.maneuver.cmb-cmd`).
    pub aoo_damage: u32,
}

/// An outcome band: the effect changes from one band to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OutcomeBand {
    /// The check succeeded but the concealment miss chance made the maneuver miss.
    Missed,
    /// Fails, and the attacker drops its weapon (disarm, fail by 10+).
    AttackerDrops,
    /// Fails, and the attacker falls prone (trip, fail by 10+).
    AttackerProne,
    /// Fails with no further effect.
    Failure,
    /// Succeeds (the kind's basic effect).
    Success,
    /// Pushed this many feet.
    Pushed(u32),
    /// Disarm by 10+: both hands empty.
    BothHands,
    /// Overrun by 5+: through and prone.
    ThroughAndProne,
}

impl OutcomeBand {
    /// The wire id (`pushed_10_ft`).
    pub fn id(self, kind: Kind, shove: ShoveChoice) -> String {
        match self {
            OutcomeBand::Missed => "concealment_miss".into(),
            OutcomeBand::AttackerDrops => "attacker_drops_weapon".into(),
            OutcomeBand::AttackerProne => "attacker_prone".into(),
            OutcomeBand::Failure => "failure".into(),
            OutcomeBand::Pushed(ft) => format!("pushed_{ft}_ft"),
            OutcomeBand::BothHands => "both_hands".into(),
            OutcomeBand::ThroughAndProne => "through_and_prone".into(),
            OutcomeBand::Success => match (kind, shove) {
                (Kind::Grapple, _) => "grappled".into(),
                (Kind::Shove, ShoveChoice::Prone) | (Kind::Trip, _) => "target_prone".into(),
                (Kind::Shove, ShoveChoice::Push) | (Kind::BullRush, _) => "pushed_5_ft".into(),
                (Kind::Disarm, _) => "disarmed".into(),
                (Kind::Overrun, _) => "through".into(),
                (Kind::Escape, _) => "escaped".into(),
                (Kind::Pin, _) => "pinned".into(),
                (Kind::TieUp, _) => "tied_up".into(),
                (Kind::Charge, _) => "charged".into(),
            },
        }
    }

    /// Whether the band is a success.
    pub fn success(self) -> bool {
        !matches!(
            self,
            OutcomeBand::Missed
                | OutcomeBand::AttackerDrops
                | OutcomeBand::AttackerProne
                | OutcomeBand::Failure
        )
    }
}

/// An item dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    /// Who drops it.
    pub creature: String,
    /// What: the wielded weapon's name, `weapon`, or `both_hands`.
    pub item: String,
}

/// What a resolved maneuver does to the map.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Effects {
    /// Conditions the target gains.
    pub target_gains: Vec<Condition>,
    /// Conditions the attacker gains.
    pub attacker_gains: Vec<Condition>,
    /// Conditions the attacker loses (escape).
    pub attacker_loses: Vec<Condition>,
    /// The push, square by square.
    pub push: Option<Push>,
    /// Items dropped.
    pub dropped: Vec<Dropped>,
    /// Overrun: the attacker moves through the target's space.
    pub through: bool,
    /// Bull rush / overrun failure: the attacker's movement ends in front of the target.
    pub attacker_stops_in_front: bool,
    /// Disarm without a weapon: the attacker may pick the item up.
    pub attacker_may_pick_up: bool,
    /// PF1/hb3d grapple of a non-adjacent target: the square it is pulled to; with a
    /// follow-up move, the square the target is placed on.
    pub target_moved_to: Option<Square>,
    /// PF1/hb3d grapple follow-up move: the grappler's final anchor.
    pub grappler_moved_to: Option<Square>,
    /// Bull rush and overrun: the acting creature's movement (following the push, through the
    /// target's space, or ending in front of it).
    pub attacker_move: Option<AttackerMove>,
    /// PF1: the secondary bull rushes against creatures in the way, in order.
    pub secondary: Vec<SecondaryRush>,
}

/// Exact odds of a maneuver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Odds {
    /// Probability of success.
    pub success: Ratio,
    /// Probability of each band that changes the effect, in band order.
    pub bands: Vec<(OutcomeBand, Ratio)>,
    /// Pushes: the distribution of the target's displacement on the map, feet (0 included),
    /// walls, creatures and PF1's secondary bull rushes taken into account.
    pub moved: Vec<(u32, Ratio)>,
}

/// The answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ManeuverAnswer {
    /// The kind.
    pub kind: Kind,
    /// Whether it can be attempted.
    pub legal: bool,
    /// Why not.
    pub illegal: Option<Illegal>,
    /// How it is decided.
    pub check: CheckKind,
    /// The acting creature's total bonus (5e 2024 maneuvers: the target's save bonus).
    pub bonus: i32,
    /// The number to reach: CMD, DEF or DC (5e 2014: none).
    pub dc: Option<i32>,
    /// 5e 2014: the other side's contest bonus.
    pub opposed_bonus: Option<i32>,
    /// PF1/hb3d: automatic success (immobilized or unconscious target).
    pub automatic: bool,
    /// Every modifier with its rule.
    pub modifiers: Vec<Modifier>,
    /// Natural roll (sum of 3d6 in hb3d; the save in 5e 2024).
    pub natural: Option<i64>,
    /// Total of that roll.
    pub total: Option<i64>,
    /// 5e 2014: the other side's natural roll.
    pub opposed_natural: Option<i64>,
    /// 5e 2014: the other side's total.
    pub opposed_total: Option<i64>,
    /// Success.
    pub success: Option<bool>,
    /// Margin: total − DC (5e 2014: total − opposed total; 5e 2024: DC − save total, success
    /// when > 0).
    pub margin: Option<i64>,
    /// The band rolled.
    pub band: Option<OutcomeBand>,
    /// Effects on the map (when rolled; a legal charge's `charged` on the charger always).
    pub effects: Option<Effects>,
    /// Attacks of opportunity.
    pub opportunity: Vec<Opportunity>,
    /// Escape DC of a tie-up (hb3d / PF1).
    pub escape_dc: Option<i32>,
    /// The action it takes: `replaces_one_attack` (5e), `action` (5e escape), `standard`,
    /// `melee_attack` (in place of a melee attack), `full_round` (hb3d disarm without the
    /// power, Q-17).
    pub action: &'static str,
    /// Exact odds.
    pub odds: Odds,
    /// The dice rolled.
    pub rolls: Vec<Rolled>,
    /// The trace.
    pub trace: Trace,
    /// The charge (kind `charge`).
    pub charge: Option<Charge>,
    /// PF1 / hb3d: the target's concealment miss chance, percent (0: none).
    pub miss_chance: u32,
    /// The d100 rolled against it and whether the maneuver missed.
    pub miss_roll: Option<(i64, bool)>,
    /// 5e: the riders the push or prone puts at risk of falling off their mount.
    pub rider_falls: Vec<crate::mounted::RiderFall>,
    /// PF1 / hb3d grapple: the follow-up move asked, judged.
    pub follow_up: Option<MoveFollowUp>,
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

/// Answers a maneuver.
pub fn maneuver(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    kind: Kind,
    options: &Options,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<ManeuverAnswer, RulesError> {
    let enc = scene.enc;
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    if attacker == target {
        return Err(RulesError::field("/target", "the target must be another creature than the attacker"));
    }
    if kind == Kind::Charge {
        return charge(scene, attacker, target, &ChargeOptions::default(), options, dice, budget);
    }
    if let ManeuverRule::None { why } = enc.ruleset.rules().maneuvers {
        return Err(RulesError::Unsupported { ruleset: enc.ruleset.id(), what: why.into() });
    }
    let mut plan = numbers::plan(enc, attacker, a, target, t, kind, options)?;
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
    explain_numbers(enc, t, &plan, &ans, &mut trace);
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
        let q = Attempt { scene, attacker, target, kind, options };
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

    /// An answer with no check, nothing rolled and no odds yet (not legal).
    pub(crate) fn blank(kind: Kind) -> Self {
        ManeuverAnswer {
            kind,
            legal: false,
            illegal: None,
            check: CheckKind::None,
            bonus: 0,
            dc: None,
            opposed_bonus: None,
            automatic: false,
            modifiers: Vec::new(),
            natural: None,
            total: None,
            opposed_natural: None,
            opposed_total: None,
            success: None,
            margin: None,
            band: None,
            effects: None,
            opportunity: Vec::new(),
            escape_dc: None,
            action: "standard",
            odds: Odds { success: Ratio::ZERO, bands: Vec::new(), moved: Vec::new() },
            rolls: Vec::new(),
            trace: Trace::default(),
            charge: None,
            miss_chance: 0,
            miss_roll: None,
            rider_falls: Vec::new(),
            follow_up: None,
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
    attacker: usize,
    target: usize,
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
        let (scene, attacker, target, kind, options) =
            (self.scene, self.attacker, self.target, self.kind, self.options);
        let effects = effects(scene, attacker, target, kind, band, plan, options, rec, budget)?;
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
    pub pick_up: Option<numbers::DisarmHand>,
    pub action: &'static str,
}

struct Outcome {
    total: i64,
    opposed_total: Option<i64>,
    margin: i64,
    success: bool,
    band: OutcomeBand,
}

fn outcome(plan: &Plan, n: i64, o: Option<i64>) -> Outcome {
    let bonus = i64::from(plan.bonus);
    let (total, opposed_total, margin, success) = match plan.check {
        CheckKind::None => (0, None, 0, true),
        CheckKind::Contest => {
            let t = o.unwrap_or(0) + i64::from(plan.opposed_bonus.unwrap_or(0));
            let total = n + bonus;
            (total, Some(t), total - t, total > t)
        }
        CheckKind::Save => {
            let total = n + bonus;
            let m = i64::from(plan.dc.unwrap_or(0)) - total;
            (total, None, m, m > 0)
        }
        CheckKind::D20VsDc | CheckKind::ThreeD6VsDc => {
            let total = n + bonus;
            let m = total - i64::from(plan.dc.unwrap_or(0));
            let (lo, hi) = if plan.check == CheckKind::D20VsDc { (1, 20) } else { (3, 18) };
            let success = if plan.pull == Some(None) {
                false
            } else if plan.automatic.is_some() || (plan.naturals && n == hi) {
                true
            } else if plan.naturals && n == lo {
                false
            } else {
                m >= 0
            };
            (total, None, m, success)
        }
    };
    Outcome { total, opposed_total, margin, success, band: outcome_band(plan, success, margin) }
}

fn outcome_band(plan: &Plan, success: bool, m: i64) -> OutcomeBand {
    let pf = matches!(plan.check, CheckKind::D20VsDc | CheckKind::ThreeD6VsDc);
    match (plan.kind, success) {
        (Kind::BullRush, true) => {
            let extra = u32::try_from(m.max(0) / 5).unwrap_or(0).min(1000);
            OutcomeBand::Pushed(5 + 5 * extra)
        }
        (Kind::Shove, true) if plan.shove == ShoveChoice::Push => OutcomeBand::Pushed(5),
        (Kind::Trip, false) if pf && m <= -10 => OutcomeBand::AttackerProne,
        (Kind::Disarm, false) if pf && m <= -10 => OutcomeBand::AttackerDrops,
        (Kind::Disarm, true) if pf && m >= 10 => OutcomeBand::BothHands,
        (Kind::Overrun, true) if plan.check != CheckKind::None && m >= 5 => OutcomeBand::ThroughAndProne,
        (_, true) => OutcomeBand::Success,
        (_, false) => OutcomeBand::Failure,
    }
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

#[allow(clippy::too_many_arguments)] // The maneuver's whole context; a struct would only rename it.
fn effects(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    kind: Kind,
    band: OutcomeBand,
    plan: &Plan,
    options: &Options,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<Effects, RulesError> {
    let enc: &Encounter = scene.enc;
    let mut e = Effects::default();
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Ok(e);
    };
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
