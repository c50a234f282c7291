//! Exact line tests: `grid.segment.classify` and `grid.line.blocked` (RULES.md §1).
//!
//! Every decision is made with integer arithmetic on the fixed-point coordinates (orientation
//! tests, an exact grid walk, a symbolic infinitesimal for rule 6); floats appear only in the
//! approximate coordinates reported for drawing.
//!
//! - [`classify_square`] and [`classify_wall`] classify one segment against one square or one
//!   wall.
//! - [`Blockers`] is the blocking set B of one test: squares through [`SquareBlockers`] (for
//!   example a [`BlockerGrid`]), walls through a [`WallIndex`] built once per encounter and a
//!   [`WallBlockers`] filter saying which walls are in B for this test. Each element carries its
//!   own [`Grazing`] flag.
//! - [`Blockers::is_blocked`] answers yes/no and stops at the first blocker;
//!   [`Blockers::trace`] reports every blocking element with its case and meeting point so that
//!   callers can filter (low obstacles, RULES.md Q-40) and explain.
//!
//! A line walks only the squares it meets and tests only the walls filed under them, charging
//! the [`Budget`] one step per square and per wall looked at.
//!
//! Readings of RULES.md that the text leaves open (see also `tests.rs`):
//! - Rule 4 counts, as elements "touching v", the squares of B whose closed region contains v
//!   (for a lattice point: the four squares with corner v) and the walls of B ending at v. An
//!   element lies strictly on a side when its open square, or its other end point, does. So a
//!   wall whose foot stands in the middle of a square's edge pinches a line running along that
//!   edge, as it would standing on the square's corner.
//! - Rule 6 tests with the moved segment the walls through a moved end point and the walls the
//!   segment runs along (when the segment lies on a wall line and its moved ends fall on
//!   opposite sides, where it crosses that line must not depend on how the wall is cut). A wall
//!   blocks if it blocks the unmoved segment (a grazing run), the segment with only the end
//!   points lying on that wall moved, or the literal one with every end point lying on a wall of
//!   B moved. In the ordinary cases these agree; in degenerate ones the union keeps the two
//!   invariants RULES.md states: adding a wall never removes blocking, rule 6 only adds it.
//! - Rule 6 on the moved segment includes rule 4 at every end point of those walls that the
//!   moved segment passes through exactly (a joint), counting those walls only.
//! - Rule 7 (`grid.line.along-wall`): a square lies on one side of the wall's line when none of
//!   its corners lies strictly on the other; an end point without a square (an area's origin)
//!   leaves the side to the other end's square, and with no square at all the rule does not
//!   apply. "Meets w at a point of the part s runs along" is read as: the two closed walls share
//!   a point; the displaced segment can only cross the wall next to the segment, so that point
//!   lies on the segment. A wall crossing the segment itself is left to rule 5.

mod blockers;
mod engine;
mod geom;
mod index;
mod moved;
mod report;
mod segment;
mod walk;
mod wide;

#[cfg(test)]
mod tests;

pub use blockers::{
    AllWalls, BlockerGrid, Blockers, Grazing, NoSquares, NoWalls, SquareBlockers, WallBlockers,
};
pub use geom::{MAX_SQUARES, OutOfRange, SquareContact, WallContact, classify_square, classify_wall};
pub use index::{Wall, WallIndex};
pub use report::{
    Element, Hit, LineReport, Meeting, Pinch, Side, SquareCase, SquareSpan, WallCase, WallMeet,
};
pub use segment::{Endpoint, LineError, Segment};
pub use wide::Ratio;

use crate::budget::Budget;

// The queries live here, above the engine they run; the type itself is in `blockers`, which
// the engine reads.
impl<S: SquareBlockers + ?Sized, W: WallBlockers> Blockers<'_, S, W> {
    /// Whether the segment is blocked (`grid.line.blocked`); stops at the first blocker.
    pub fn is_blocked(&self, segment: &Segment, budget: &mut Budget) -> Result<bool, LineError> {
        let mut sink = engine::FirstHit;
        Ok(engine::run(self, segment, budget, &mut sink)?.is_break())
    }

    /// The first blocking element the walk meets (the first hit of [`Blockers::trace`]), or
    /// `None` when the segment is clear; stops there.
    pub fn first_hit(&self, segment: &Segment, budget: &mut Budget) -> Result<Option<Hit>, LineError> {
        let mut sink = engine::KeepFirst::default();
        let _ = engine::run(self, segment, budget, &mut sink)?;
        Ok(sink.0)
    }

    /// Every blocking element the segment meets, with the rule that applied and where.
    pub fn trace(&self, segment: &Segment, budget: &mut Budget) -> Result<LineReport, LineError> {
        let mut sink = engine::AllHits::default();
        // The collecting sink never stops early.
        let _ = engine::run(self, segment, budget, &mut sink)?;
        Ok(LineReport { hits: sink.finish() })
    }
}
