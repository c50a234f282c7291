//! The outcome of one roll of a maneuver's check: its totals, margin and band. The roll and
//! the odds (which go through every natural) share it, as does PF1's secondary bull rush.

use super::answer::{OutcomeBand, ShoveChoice};
use super::numbers::Plan;
use crate::trace::maneuver::{CheckKind, Kind};

/// What one roll gives: the totals, the margin and the band.
pub(super) struct Outcome {
    pub total: i64,
    pub opposed_total: Option<i64>,
    pub margin: i64,
    pub success: bool,
    pub band: OutcomeBand,
}

/// The outcome of the natural roll `n` (and the other side's `o` in a contest) under the plan.
pub(super) fn outcome(plan: &Plan, n: i64, o: Option<i64>) -> Outcome {
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
