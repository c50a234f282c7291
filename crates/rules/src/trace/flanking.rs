//! Trace effects of the flanking rules (`POST /v1/flanking`).

use crate::encounter::Condition;
use crate::grid::Square;

/// Which pair of opposite edges of the target's space the centre line meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Edges {
    /// Both the west and the east closed edges.
    WestEast,
    /// Both the north and the south closed edges.
    NorthSouth,
    /// All four (a line through opposite corners).
    Both,
}

impl Edges {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            Edges::WestEast => "west_east",
            Edges::NorthSouth => "north_south",
            Edges::Both => "both",
        }
    }
}

/// Why a creature does not flank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoFlank {
    /// A condition stops it from threatening and flanking (Q-33; 5e: incapacitated).
    Condition(Condition),
    /// Unarmed without Improved Unarmed Strike: threatens nothing (PF1, hb3d; Q-34).
    Unarmed,
    /// Its reach is 0 ft: it threatens nothing and cannot flank.
    ReachZero,
    /// No square of the target is within its reach band.
    OutOfReach {
        /// Farthest reach, feet.
        reach_ft: i64,
        /// A reach weapon that cannot hit this close.
        too_close_ft: Option<i64>,
    },
    /// 5e: not adjacent to the target (more than 5 ft away, Q-49).
    NotAdjacent,
    /// 5e: cannot see the target.
    CannotSee,
}

/// Trace effects of the flanking rules.
#[derive(Debug, Clone, PartialEq)]
pub enum FlankEffect {
    /// hb3d takes flanking from PF1 (`hb3d.inherit-pf1e`); the bonus, if flanked, is the
    /// outcome's.
    InheritedFromPf1e,
    /// 5e optional flanking is off: nobody flanks.
    OptionalRuleOff,
    /// The attacker is of the target's own side: attacking an ally never flanks.
    AttackerOnTargetSide {
        /// Attacker id.
        attacker: String,
    },
    /// A creature threatens the target (PF1, SF, hb3d).
    Threatens {
        /// Creature id.
        creature: String,
        /// Farthest reach, feet.
        reach_ft: i64,
        /// A reach weapon that cannot hit this close.
        too_close_ft: Option<i64>,
        /// Only the 10 ft reach second-diagonal exception reaches the target.
        second_diagonal: bool,
    },
    /// A creature is adjacent to the target, sees it and is not incapacitated (5e).
    Adjacent {
        /// Creature id.
        creature: String,
    },
    /// A creature cannot flank (the attacker, or a would-be helper).
    CannotFlank {
        /// Creature id.
        creature: String,
        /// Whether it is the attacker.
        attacker: bool,
        /// Why.
        why: NoFlank,
    },
    /// Would-be helpers whose reach does not include the target (PF1, SF, hb3d).
    OutOfReach {
        /// Their ids.
        creatures: Vec<String>,
    },
    /// Would-be helpers that are not adjacent to the target (5e).
    NotAdjacent {
        /// Their ids.
        creatures: Vec<String>,
    },
    /// A helper flanks with the attacker: the centre line between the two squares meets two
    /// opposite edges of the target's space.
    Pair {
        /// Helper id.
        helper: String,
        /// The attacker's square used.
        attacker_square: Square,
        /// The helper's square used.
        helper_square: Square,
        /// The opposite edges met.
        edges: Edges,
    },
    /// A helper that could flank is not on the opposite border or corner.
    NotOpposite {
        /// Helper id.
        helper: String,
    },
    /// The answer.
    Outcome {
        /// Whether the target is flanked by the attacker.
        flanked: bool,
        /// Helpers that flank with the attacker.
        flankers: Vec<String>,
        /// Bonus to melee attack rolls (PF1, SF, hb3d).
        attack_bonus: i32,
        /// Advantage on melee attack rolls (5e).
        advantage: bool,
    },
    /// The answer when the target is not flanked, and why (no bonus is given).
    NotFlanked {
        /// Why not.
        why: NotFlankedWhy,
    },
}

/// Why a target is not flanked by the attacker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotFlankedWhy {
    /// The attacker is of the target's side.
    AttackerOnTargetSide,
    /// The attacker itself cannot flank (it does not threaten the target, or in 5e is not
    /// adjacent, able and seeing).
    AttackerCannotFlank,
    /// No other creature can flank with the attacker.
    NoHelper,
    /// Helpers can, but none stands on the opposite border or corner.
    NoneOpposite,
}

impl NotFlankedWhy {
    /// Every reason, in declaration order.
    pub const ALL: [NotFlankedWhy; 4] = [
        NotFlankedWhy::AttackerOnTargetSide,
        NotFlankedWhy::AttackerCannotFlank,
        NotFlankedWhy::NoHelper,
        NotFlankedWhy::NoneOpposite,
    ];

    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            NotFlankedWhy::AttackerOnTargetSide => "attacker_on_target_side",
            NotFlankedWhy::AttackerCannotFlank => "attacker_cannot_flank",
            NotFlankedWhy::NoHelper => "no_helper",
            NotFlankedWhy::NoneOpposite => "none_opposite",
        }
    }
}
