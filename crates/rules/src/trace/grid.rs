//! Trace effects: geometry facts any question states: spaces, distances, elevation.

use crate::grid::Metric;

/// Geometry facts any question states: spaces, distances, elevation.
#[derive(Debug, Clone, PartialEq)]
pub enum GridEffect {
    /// A creature's space follows from its size.
    Space {
        /// Creature id.
        creature: String,
        /// Squares per side.
        side: i32,
    },
    /// The distance between two spaces.
    Distance {
        /// Squares.
        squares: i64,
        /// Feet.
        feet: i64,
        /// How diagonals were counted.
        metric: Metric,
    },
    /// Elevation is not part of the 2-D geometry yet.
    ElevationIgnored {
        /// Creatures with a non-zero elevation.
        creatures: Vec<String>,
    },
}
