//! Wire forms of grid values that several questions share, both ways.

use arbiter_rules::grid::{Point, Square};
use serde::Serialize;
use utoipa::ToSchema;

use super::encounter::SquareIn;
use super::mapping::Problems;

/// A point in square units.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct PointOut {
    /// East.
    pub x: f64,
    /// South.
    pub y: f64,
}

/// A square.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct SquareOut {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl From<Point> for PointOut {
    fn from(p: Point) -> PointOut {
        PointOut { x: p.x.to_f64(), y: p.y.to_f64() }
    }
}

impl From<Square> for SquareOut {
    fn from(s: Square) -> SquareOut {
        SquareOut { x: s.x, y: s.y }
    }
}

/// The squares of a list, in order.
pub fn squares(list: &[Square]) -> Vec<SquareOut> {
    list.iter().copied().map(SquareOut::from).collect()
}

/// The squares of a path given at `base` (`{base}/{i}`); one out of the grid's range is a
/// problem.
pub fn squares_in(p: &mut Problems, base: &str, given: &[SquareIn]) -> Vec<Square> {
    let mut out = Vec::with_capacity(given.len());
    for (i, s) in given.iter().enumerate() {
        match (i32::try_from(s.x), i32::try_from(s.y)) {
            (Ok(x), Ok(y)) => out.push(Square::new(x, y)),
            _ => p.push(format!("{base}/{i}"), "square out of range".to_owned()),
        }
    }
    out
}
