//! The answer to a maneuver and the options asked: what every part of a maneuver fills in.

use super::push::{AttackerMove, Push};
use crate::dice::{Ratio, Rolled};
use crate::encounter::Condition;
use crate::grid::Square;
use crate::movement::charge::Charge;
use crate::trace::Trace;
use crate::trace::maneuver::{CheckKind, Illegal, Kind, Modifier, MoveFollowUp, Opportunity, SecondaryRush};

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

impl ManeuverAnswer {
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
