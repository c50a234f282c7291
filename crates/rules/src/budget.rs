//! The work budget of one request: a cap on the work a question may do, so that no request can
//! hold a CPU for long (PRODUCT.md "Errors and limits"), and the cancel flag through which the
//! server stops a question whose client went away or whose deadline passed.
//!
//! # The counting rule
//!
//! One unit is about the cost of two squares of a line walk (the crate's cheapest step), and
//! every loop pays in proportion to the work it does, so that a budget bounds CPU time whatever
//! the question. The charges, calibrated with `examples/budget_calibration.rs` so that every
//! question costs about the same time per unit as the `/v1/analyze` benchmark scene:
//!
//! - a line: 2 units of set-up, 1 per 2 squares crossed, 1 per wall of the index tested, 1 per
//!   wall tested for rule 6 end points; a traced line 32 more per hit reported or rendered
//!   (the hit is kept with the line, filtered again by every choice that reads it, and may
//!   be written in the answer);
//! - a scene: 1 per 8 squares of the map (refused before the cell arrays are allocated), 1 per
//!   wall per index bucket it is filed in, `1 + side²` per creature;
//! - `/v1/analyze`: 120 per ordered pair (its answers, traces and place in the answer), plus
//!   its lines;
//! - flanking: 3 per enemy of the target whose threat is judged, 8 per helper judged;
//! - light: 2 per light source considered for a square;
//! - movement, pushes and charges: 1 per square or step visited, 1 per 2 walls tested against
//!   a step, 1 per 4 creatures scanned for an occupied square;
//! - initiative: 20 per creature (numbers, trace, order entry), 1 per 4 elements of each
//!   linear scan (surprised list, groups, ties), a roll-off round `n²/4 + n log n` for a run of
//!   n tied entries, and for the odds of acting first, per roller, total and other roller,
//!   `2 + outcomes/4 + 3·k/8` (k = rollers tied on that total; ×4 for exact fractions);
//! - a refused request body (the server's `extract::parse_within`): half a unit per byte for
//!   each plain reading, one per byte for each reading that tracks its path.
//!
//! Calibrated (issue 25) so that the costliest question at the caps, parse, set-up, rules and
//! answer included, stays under about 100 ms of one core on a loaded 2-core machine: a unit is
//! about 20 ns there. The figures per question are in the calibration example's output.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many units may be spent between two looks at the cancel flag. A power of two so that
/// the check is one comparison per `spend`; at the calibration rate (about 200 units per
/// microsecond) a cancel is seen within a few tens of microseconds.
const CANCEL_CHECK_EVERY: u64 = 1 << 12;

/// Work units left for one question (see the module's counting rule).
#[derive(Debug, Clone)]
pub struct Budget {
    limit: u64,
    spent: u64,
    /// Set by the server to stop the question (client gone, deadline passed).
    cancel: Option<Arc<AtomicBool>>,
    /// The spent total at which the cancel flag is next looked at.
    next_check: u64,
    /// The flag was seen set: every later spend fails too.
    cancelled: bool,
}

/// The budget ran out, or the question was cancelled, before it was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded {
    /// The budget that was granted.
    pub limit: u64,
    /// The question was stopped through the cancel flag, not by running out.
    pub cancelled: bool,
}

impl Budget {
    /// A budget of `limit` units.
    pub fn new(limit: u64) -> Self {
        Budget { limit, spent: 0, cancel: None, next_check: u64::MAX, cancelled: false }
    }

    /// A budget of `limit` units that also stops, with `cancelled: true`, soon after `cancel`
    /// is set (the flag is looked at every few thousand units spent, and on the first spend).
    pub fn with_cancel(limit: u64, cancel: Arc<AtomicBool>) -> Self {
        Budget { limit, spent: 0, cancel: Some(cancel), next_check: 0, cancelled: false }
    }

    /// A budget that never runs out (tests and benchmarks).
    pub fn unlimited() -> Self {
        Budget::new(u64::MAX)
    }

    /// Spends `units`, failing once the total exceeds the limit or the question is cancelled.
    #[inline]
    pub fn spend(&mut self, units: u64) -> Result<(), BudgetExceeded> {
        self.spent = self.spent.saturating_add(units);
        if self.spent >= self.next_check {
            self.check_cancel();
        }
        if self.cancelled {
            Err(BudgetExceeded { limit: self.limit, cancelled: true })
        } else if self.spent > self.limit {
            Err(BudgetExceeded { limit: self.limit, cancelled: false })
        } else {
            Ok(())
        }
    }

    /// Fails, before an allocation or a loop of `units` is started, if it could not be paid
    /// for; spends nothing (the loop itself pays as it goes).
    #[inline]
    pub fn afford(&mut self, units: u64) -> Result<(), BudgetExceeded> {
        if self.spent.saturating_add(units) > self.limit {
            return Err(BudgetExceeded { limit: self.limit, cancelled: false });
        }
        self.spend(0)
    }

    #[cold]
    fn check_cancel(&mut self) {
        self.next_check = (self.spent | (CANCEL_CHECK_EVERY - 1)).saturating_add(1);
        if let Some(flag) = &self.cancel
            && flag.load(Ordering::Relaxed)
        {
            self.cancelled = true;
        }
    }

    /// Units spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Units still available (0 once exceeded).
    pub fn remaining(&self) -> u64 {
        self.limit.saturating_sub(self.spent)
    }

    /// The granted limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }
}

/// A count as work units (saturating: a count that does not fit cannot be paid for anyway).
#[inline]
pub fn units(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_is_inclusive_and_reported() {
        let mut b = Budget::new(10);
        assert_eq!(b.spend(10), Ok(()));
        assert_eq!(b.spend(1), Err(BudgetExceeded { limit: 10, cancelled: false }));
        assert_eq!(b.spent(), 11);
    }

    #[test]
    fn afford_refuses_up_front_without_spending() {
        let mut b = Budget::new(100);
        b.spend(40).unwrap();
        assert_eq!(b.afford(61), Err(BudgetExceeded { limit: 100, cancelled: false }));
        assert_eq!(b.spent(), 40);
        assert_eq!(b.afford(60), Ok(()));
    }

    #[test]
    fn cancel_is_seen_on_first_spend_and_within_the_check_interval() {
        let flag = Arc::new(AtomicBool::new(true));
        let mut b = Budget::with_cancel(u64::MAX, flag);
        assert_eq!(b.spend(1), Err(BudgetExceeded { limit: u64::MAX, cancelled: true }));
        // Set after a first look: seen once the next multiple of the interval is crossed.
        let flag = Arc::new(AtomicBool::new(false));
        let mut b = Budget::with_cancel(u64::MAX, flag.clone());
        b.spend(1).unwrap();
        flag.store(true, Ordering::Relaxed);
        while b.spend(1).is_ok() {}
        assert_eq!(b.spent(), CANCEL_CHECK_EVERY, "seen when the total reaches the next multiple");
        assert_eq!(b.spend(0), Err(BudgetExceeded { limit: u64::MAX, cancelled: true }), "stays cancelled");
    }

    #[test]
    fn cancel_wins_over_exhaustion() {
        let flag = Arc::new(AtomicBool::new(true));
        let mut b = Budget::with_cancel(5, flag);
        assert_eq!(b.spend(100), Err(BudgetExceeded { limit: 5, cancelled: true }));
    }
}
