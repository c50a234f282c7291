//! Wire forms of grid values that several questions share, both ways.

use arbiter_rules::grid::Square;

use super::encounter::SquareIn;
use crate::error::Text;
use crate::problems::Problems;

pub use crate::wire::{PointOut, SquareOut, squares};

/// The squares of a path given at `base` (`{base}/{i}`); one out of the grid's range is a
/// problem.
pub fn squares_in(p: &mut Problems, base: &str, given: &[SquareIn]) -> Vec<Square> {
    let mut out = Vec::with_capacity(given.len());
    for (i, s) in given.iter().enumerate() {
        match (i32::try_from(s.x), i32::try_from(s.y)) {
            (Ok(x), Ok(y)) => out.push(Square::new(x, y)),
            _ => p.push(
                format!("{base}/{i}"),
                Text::new("the square is out of range", "la case est hors de l'étendue permise"),
            ),
        }
    }
    out
}
