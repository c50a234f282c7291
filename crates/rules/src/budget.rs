//! The work budget of one request: a cap on line-traversal steps so that no request can hold
//! a CPU for long (PRODUCT.md "Errors and limits").

/// Steps left for one question. Every square a line crosses, every wall it is tested against
/// and every candidate pair it considers costs one step.
#[derive(Debug, Clone)]
pub struct Budget {
    limit: u64,
    spent: u64,
}

/// The budget ran out before the question was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded {
    /// The budget that was granted.
    pub limit: u64,
}

impl Budget {
    /// A budget of `limit` steps.
    pub fn new(limit: u64) -> Self {
        Budget { limit, spent: 0 }
    }

    /// A budget that never runs out (tests and benchmarks).
    pub fn unlimited() -> Self {
        Budget::new(u64::MAX)
    }

    /// Spends `steps`, failing once the total exceeds the limit.
    #[inline]
    pub fn spend(&mut self, steps: u64) -> Result<(), BudgetExceeded> {
        self.spent = self.spent.saturating_add(steps);
        if self.spent > self.limit { Err(BudgetExceeded { limit: self.limit }) } else { Ok(()) }
    }

    /// Steps spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }
}
