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
    /// The attack dice when more than one is rolled: two d20 with advantage or disadvantage,
    /// or the three d6 of hb3d.
    AttackDice {
        /// Every face, in the order rolled.
        faces: Vec<u32>,
        /// Sides of each die.
        sides: u32,
        /// How they were combined.
        mode: RollMode,
        /// The natural result kept (the higher or lower d20, or the sum of the d6).
        natural: i64,
    },
    /// PF1 critical confirmation roll after a critical threat.
    Confirmation {
        /// The natural d20.
        natural: i64,
        /// Plus the attack bonus.
        total: i64,
        /// The number it must reach (the target's defence).
        target_number: i32,
        /// The threat is confirmed: a critical hit.
        confirmed: bool,
    },
    /// The concealment miss chance roll (d%) after a hit.
    MissChanceRoll {
        /// The d% face (1–100).
        roll: u32,
        /// The miss chance, percent: a roll at or below it misses.
        miss_chance: u32,
        /// The hit is lost.
        missed: bool,
    },
}
