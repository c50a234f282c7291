//! Trace effects of mounted combat (RULES.md `dnd5e2014.mounted`, `dnd5e2024.mounted`): a
//! rider's fall when a push, a shove or a prone effect hits it or its mount, and a mount's
//! initiative.

use crate::dice::Ratio;
use crate::grid::Square;

/// What puts a rider at risk of falling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FallCause {
    /// An effect moves its mount against its will.
    MountMoved,
    /// The rider is knocked prone while mounted.
    RiderProne,
    /// Its mount is knocked prone.
    MountProne,
    /// The rider itself is pushed while mounted: it keeps its seat or falls off (it moves
    /// only with its mount).
    RiderMoved,
}

impl FallCause {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            FallCause::MountMoved => "mount_moved",
            FallCause::RiderProne => "rider_prone",
            FallCause::MountProne => "mount_prone",
            FallCause::RiderMoved => "rider_moved",
        }
    }
}

/// Trace steps of mounted combat.
#[derive(Debug, Clone, PartialEq)]
pub enum MountedEffect {
    /// A rider at risk of falling, with its save (or its Reaction) and the exact odds.
    Fall {
        /// The rider's id.
        rider: String,
        /// The mount's id.
        mount: String,
        /// Why.
        cause: FallCause,
        /// The Dexterity save's DC (none: SRD 5.1, mount knocked prone).
        dc: Option<i32>,
        /// The rider's Dexterity save bonus, with a save.
        bonus: Option<i32>,
        /// Chance that the rider stays mounted once the effect happens.
        stays: Ratio,
        /// SRD 5.1, mount knocked prone: its Reaction lands it on its feet.
        reaction: bool,
        /// Chance that the rider falls, the effect's own odds included.
        falls: Ratio,
    },
    /// The rider's save, rolled.
    SaveRolled {
        /// The rider's id.
        rider: String,
        /// The d20.
        natural: i64,
        /// Natural + bonus.
        total: i64,
        /// The DC.
        dc: i32,
        /// It stays mounted.
        success: bool,
    },
    /// Where a falling rider lands.
    Lands {
        /// The rider's id.
        rider: String,
        /// The square (its space's anchor); none when no free space is within 5 ft.
        square: Option<Square>,
        /// Surely prone (otherwise prone unless its Reaction lands it on its feet).
        prone: bool,
        /// How many other free spaces within 5 ft of the mount it could land in.
        alternatives: usize,
    },
    /// A controlled mount takes its rider's initiative.
    InitiativeFollows {
        /// The mount's id.
        mount: String,
        /// The rider's id.
        rider: String,
    },
    /// An independent mount keeps its own initiative.
    InitiativeOwn {
        /// The mount's id.
        mount: String,
        /// The rider's id.
        rider: String,
    },
}
