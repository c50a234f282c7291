//! What a line test is given and how it can fail: the segment, its end points and the
//! [`LineError`].

use crate::budget::BudgetExceeded;
use crate::grid::{Point, Square};

/// An end point of a segment, with the square it was taken from (a corner of a creature's
/// square), which rule 6 needs. A corner shared by several squares of one space is a separate
/// end point per square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// The point.
    pub at: Point,
    /// The square it was taken from; it must contain the point (its closed region). `None`
    /// when the point belongs to no square (rule 6 then never moves it).
    pub square: Option<Square>,
}

impl Endpoint {
    /// A bare point, taken from no square.
    pub const fn point(at: Point) -> Self {
        Endpoint { at, square: None }
    }

    /// A point taken from a square (usually one of its corners).
    pub const fn of_square(at: Point, square: Square) -> Self {
        Endpoint { at, square: Some(square) }
    }
}

/// A segment `[from, to]` to test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Segment {
    /// The start (for cover, a corner of the attacker's square).
    pub from: Endpoint,
    /// The end (for cover, a corner of the target's square).
    pub to: Endpoint,
}

impl Segment {
    /// A segment between two bare points.
    pub const fn new(from: Point, to: Point) -> Self {
        Segment { from: Endpoint::point(from), to: Endpoint::point(to) }
    }

    /// A segment between two end points.
    pub const fn between(from: Endpoint, to: Endpoint) -> Self {
        Segment { from, to }
    }
}

/// Why a line test gave no answer. Callers should never read either as "clear".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineError {
    /// A point, square or wall lies outside `[0, 1024]` squares, or an end point lies outside
    /// the square it was taken from.
    OutOfRange,
    /// The request's work budget ran out.
    Budget(BudgetExceeded),
}

impl From<BudgetExceeded> for LineError {
    fn from(e: BudgetExceeded) -> Self {
        LineError::Budget(e)
    }
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::OutOfRange => {
                f.write_str("a point of the line test lies outside the supported grid range")
            }
            LineError::Budget(e) => write!(f, "work budget of {} line steps exceeded", e.limit),
        }
    }
}

impl std::error::Error for LineError {}
