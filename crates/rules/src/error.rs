//! Why a question cannot be answered. The server turns each into a 422 problem pointing at
//! the offending field.

use crate::budget::BudgetExceeded;
use crate::dice::DiceError;

/// A question the rules cannot answer as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// A field of the question is missing or unusable. `pointer` is a JSON pointer relative to
    /// the question body (`/weapon/increment_ft`).
    Field {
        /// Where.
        pointer: String,
        /// What is wrong.
        detail: String,
    },
    /// An operation needs a stat the creature lacks.
    MissingStat {
        /// JSON pointer of the creature's stats (`/encounter/creatures/1/stats`).
        pointer: String,
        /// Creature id.
        creature: String,
        /// Stat name.
        stat: &'static str,
    },
    /// The ruleset does not answer this question.
    Unsupported {
        /// Ruleset id.
        ruleset: &'static str,
        /// What was asked.
        what: String,
    },
    /// The work budget ran out.
    Budget(BudgetExceeded),
    /// A die could not be had.
    Dice(DiceError),
}

impl RulesError {
    /// A field error.
    pub fn field(pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        RulesError::Field { pointer: pointer.into(), detail: detail.into() }
    }
}

impl From<BudgetExceeded> for RulesError {
    fn from(b: BudgetExceeded) -> Self {
        RulesError::Budget(b)
    }
}

impl From<DiceError> for RulesError {
    fn from(d: DiceError) -> Self {
        RulesError::Dice(d)
    }
}
