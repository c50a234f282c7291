//! Trace effects: attack modifiers, advantage and the outcome (`POST /v1/attack`).

use super::roll::RollMode;
use crate::dice::Ratio;

/// Attack modifiers, advantage and the outcome (`POST /v1/attack`).
#[derive(Debug, Clone, PartialEq)]
pub enum AttackEffect {
    /// Advantage and disadvantage sources combined (`dnd5e.advantage.combine`).
    AdvantageCombined {
        /// Number of advantage sources.
        advantage: usize,
        /// Number of disadvantage sources.
        disadvantage: usize,
        /// The roll that results.
        result: RollMode,
    },
    /// One modifier of an attack.
    AttackModifier {
        /// What it comes from.
        source: &'static str,
        /// A detail.
        detail: Option<String>,
        /// Attack roll modifier.
        attack: i32,
        /// Target number modifier.
        defence: i32,
        /// Advantage.
        advantage: bool,
        /// Disadvantage.
        disadvantage: bool,
    },
    /// The attack's outcome.
    AttackOutcome {
        /// Whether the attack could be made.
        allowed: bool,
        /// Melee or not.
        melee: bool,
        /// The natural roll.
        natural: Option<i64>,
        /// The total.
        total: Option<i64>,
        /// The number to reach.
        target_number: i32,
        /// Hit.
        hit: Option<bool>,
        /// Critical.
        critical: Option<bool>,
        /// Exact probability of a hit.
        p_hit: Ratio,
    },
}
