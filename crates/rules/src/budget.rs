//! The work budget of one request: a cap on line-traversal steps so that no request can hold
//! a CPU for long (PRODUCT.md "Errors and limits").

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Steps left for one question. Every square a line crosses, every wall it is tested against
/// and every candidate pair it considers costs one step.
#[derive(Debug, Clone)]
pub struct Budget {
    limit: u64,
    spent: u64,
    cancel: Option<Arc<AtomicBool>>,
}

/// The budget ran out before the question was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded {
    /// The budget that was granted.
    pub limit: u64,
    /// The work was cancelled from outside (the caller gave up), not exhausted.
    pub cancelled: bool,
}

impl Budget {
    /// A budget of `limit` steps.
    pub fn new(limit: u64) -> Self {
        Budget { limit, spent: 0, cancel: None }
    }

    /// A budget of `limit` steps that also runs out once `cancel` is set.
    pub fn with_cancel(limit: u64, cancel: Arc<AtomicBool>) -> Self {
        Budget { limit, spent: 0, cancel: Some(cancel) }
    }

    /// A budget that never runs out (tests and benchmarks).
    pub fn unlimited() -> Self {
        Budget::new(u64::MAX)
    }

    /// Spends `steps`, failing once the total exceeds the limit.
    #[inline]
    pub fn spend(&mut self, steps: u64) -> Result<(), BudgetExceeded> {
        self.spent = self.spent.saturating_add(steps);
        if self.spent > self.limit {
            return Err(BudgetExceeded { limit: self.limit, cancelled: false });
        }
        match &self.cancel {
            Some(c) if c.load(Ordering::Relaxed) => {
                Err(BudgetExceeded { limit: self.limit, cancelled: true })
            }
            _ => Ok(()),
        }
    }

    /// Steps spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }
}
