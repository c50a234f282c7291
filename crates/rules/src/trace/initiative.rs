//! Trace effects of initiative (`POST /v1/initiative`).

use super::roll::RollMode;

/// Trace steps of initiative.
#[derive(Debug, Clone, PartialEq)]
pub enum InitiativeEffect {
    /// A creature's bonus and roll mode.
    Bonus {
        /// Creature id.
        creature: String,
        /// Bonus.
        bonus: i32,
        /// Roll mode.
        mode: RollMode,
        /// Why.
        causes: Vec<&'static str>,
    },
    /// A roll.
    Rolled {
        /// Creature id (a group's first member).
        creature: String,
        /// The group's other members.
        shared_with: Vec<String>,
        /// Faces.
        faces: Vec<i64>,
        /// Natural.
        natural: i64,
        /// Total.
        total: i64,
    },
    /// A tie and how it was broken.
    Tie {
        /// The tied creatures, in the order decided.
        creatures: Vec<String>,
        /// `dex_mod`, `modifier`, `roll_off`, `group`, `input_order`.
        by: &'static str,
    },
    /// Surprise.
    Surprised {
        /// Creature id.
        creature: String,
        /// What surprise does to it.
        effect: SurpriseEffect,
    },
    /// The final order.
    Order {
        /// Ids, first to last.
        creatures: Vec<String>,
    },
    /// One roll of a roll-off between creatures tied on total and tie key.
    RollOff {
        /// The roller's id (a group's first member).
        creature: String,
        /// The round of the roll-off, from 1 (another round when it ties again).
        round: u32,
        /// Faces.
        faces: Vec<i64>,
        /// Their sum.
        natural: i64,
    },
}

/// What surprise does to a surprised creature, by ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SurpriseEffect {
    /// 5e 2014: no move, action or reaction on its first turn.
    LosesFirstTurn,
    /// 5e 2024: disadvantage on the initiative roll.
    Disadvantage,
    /// PF1 family: it does not act in the surprise round and is flat-footed.
    NoSurpriseRoundAction,
}

impl SurpriseEffect {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            SurpriseEffect::LosesFirstTurn => "loses_first_turn",
            SurpriseEffect::Disadvantage => "disadvantage",
            SurpriseEffect::NoSurpriseRoundAction => "no_surprise_round_action",
        }
    }
}
