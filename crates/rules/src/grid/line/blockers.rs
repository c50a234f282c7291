//! The blocking set B of `grid.line.blocked`, as the caller describes it per test.
//!
//! B is not a fixed map property: line of effect, line of sight, cover and concealment each put
//! different squares and walls in it (creatures, low obstacles, doors…), and each element says
//! whether a line running along its border counts (`grazing`, RULES.md Q-01: Starfinder terrain
//! yes, creatures no). So B is two small lookups the caller implements or composes: squares by
//! position, walls by id (the walls themselves live in a [`WallIndex`](super::WallIndex) built
//! once per encounter).

use super::geom::{MAX_SQUARES, OutOfRange};
use super::index::WallIndex;
use crate::grid::Square;

/// The blocking set B of one test (`grid.line.blocked(s, B, grazing)`, with the grazing flag
/// carried by each element).
#[derive(Debug, Clone, Copy)]
pub struct Blockers<'a, S: ?Sized, W> {
    /// The squares of B.
    pub squares: &'a S,
    /// Every wall of the encounter, indexed.
    pub walls: &'a WallIndex,
    /// Which of those walls are in B for this test.
    pub wall_filter: W,
}

impl<'a, S: SquareBlockers + ?Sized, W: WallBlockers> Blockers<'a, S, W> {
    /// Groups the parts of B.
    pub fn new(squares: &'a S, walls: &'a WallIndex, wall_filter: W) -> Self {
        Blockers { squares, walls, wall_filter }
    }
}

/// Whether a line running along a blocking element (a square's edge, a wall's length) is
/// blocked by it: the `grazing` flag of `grid.line.blocked`, per element (RULES.md,
///
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grazing {
    /// Running along it does not block (pf1e, dnd5e, creatures in sf1e, every wall for line of
    /// sight and line of effect). Seams and pinches still block.
    Off,
    /// Running along it blocks (sf1e terrain and effects).
    On,
}

/// The squares of B: `Some(grazing)` for a blocking square, `None` for a square not in B.
///
/// Squares outside the grid must answer `None` (RULES.md Q-36); the line code may ask about
/// squares just outside the map (for example column −1 when a line runs along its west edge).
/// Closures `Fn(Square) -> Option<Grazing>` implement it, so a caller can combine terrain and
/// creatures on the fly.
pub trait SquareBlockers {
    /// Whether `square` is in B, and how it treats grazing.
    fn square(&self, square: Square) -> Option<Grazing>;

    /// Whether the wall bucket holding `square` may hold a wall: `false` lets the walk skip the
    /// bucket's look-up (callers that keep a per-square mark of walled buckets answer it).
    #[inline]
    fn may_hold_walls(&self, _square: Square) -> bool {
        true
    }
}

impl<F: Fn(Square) -> Option<Grazing>> SquareBlockers for F {
    #[inline]
    fn square(&self, square: Square) -> Option<Grazing> {
        self(square)
    }
}

/// The walls of B, by the id given to [`WallIndex::new`](super::WallIndex::new): `Some` for a
/// wall in B, `None` for a wall that does not count in this test (an open door, a window for
/// line of sight, a low wall the caller filters out). Closures `Fn(u32) -> Option<Grazing>`
/// implement it.
pub trait WallBlockers {
    /// Whether wall `id` is in B, and how it treats a line running along it.
    fn wall(&self, id: u32) -> Option<Grazing>;
}

impl<F: Fn(u32) -> Option<Grazing>> WallBlockers for F {
    #[inline]
    fn wall(&self, id: u32) -> Option<Grazing> {
        self(id)
    }
}

/// No square blocks.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoSquares;

impl SquareBlockers for NoSquares {
    fn square(&self, _: Square) -> Option<Grazing> {
        None
    }
}

/// No wall blocks.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoWalls;

impl WallBlockers for NoWalls {
    fn wall(&self, _: u32) -> Option<Grazing> {
        None
    }
}

/// Every wall of the index blocks, with the same grazing flag.
#[derive(Debug, Clone, Copy)]
pub struct AllWalls(pub Grazing);

impl WallBlockers for AllWalls {
    fn wall(&self, _: u32) -> Option<Grazing> {
        Some(self.0)
    }
}

/// A flat `width × height` array of square classes (open, blocking, blocking with grazing):
/// the usual way to hand the terrain part of B to the line tests. Squares outside it never
/// block (RULES.md Q-36).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockerGrid {
    width: i32,
    height: i32,
    /// Row-major: 0 = not in B, 1 = blocks without grazing, 2 = blocks with grazing.
    cells: Vec<u8>,
}

impl BlockerGrid {
    /// An all-open grid; fails beyond 1024 squares a side.
    pub fn new(width: i32, height: i32) -> Result<Self, OutOfRange> {
        if !(0..=MAX_SQUARES).contains(&width) || !(0..=MAX_SQUARES).contains(&height) {
            return Err(OutOfRange);
        }
        // Both factors are at most 1024, so the product fits.
        let len = width as usize * height as usize;
        Ok(BlockerGrid { width, height, cells: vec![0; len] })
    }

    /// Width in squares.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in squares.
    pub fn height(&self) -> i32 {
        self.height
    }

    #[inline]
    fn slot(&self, sq: Square) -> Option<usize> {
        // Negative coordinates become huge unsigned values and fail the same comparison. Both
        // factors are at most 1024 here, so the wrapping product is exact.
        let (x, y) = (sq.x as u32, sq.y as u32);
        if x < self.width as u32 && y < self.height as u32 {
            Some((y as usize).wrapping_mul(self.width as usize).wrapping_add(x as usize))
        } else {
            None
        }
    }

    /// Puts a square in B (or takes it out with `None`). Returns false, changing nothing, for a
    /// square outside the grid.
    pub fn set(&mut self, square: Square, class: Option<Grazing>) -> bool {
        let code = match class {
            None => 0,
            Some(Grazing::Off) => 1,
            Some(Grazing::On) => 2,
        };
        match self.slot(square).and_then(|i| self.cells.get_mut(i)) {
            Some(cell) => {
                *cell = code;
                true
            }
            None => false,
        }
    }

    /// The class of a square; `None` outside the grid.
    #[inline]
    pub fn get(&self, square: Square) -> Option<Grazing> {
        match self.slot(square).and_then(|i| self.cells.get(i)) {
            Some(1) => Some(Grazing::Off),
            Some(2) => Some(Grazing::On),
            _ => None,
        }
    }
}

impl SquareBlockers for BlockerGrid {
    #[inline]
    fn square(&self, square: Square) -> Option<Grazing> {
        self.get(square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_lookup_and_outside() {
        let mut g = BlockerGrid::new(3, 2).unwrap();
        assert!(g.set(Square::new(2, 1), Some(Grazing::On)));
        assert!(!g.set(Square::new(3, 1), Some(Grazing::On)));
        assert_eq!(g.get(Square::new(2, 1)), Some(Grazing::On));
        assert_eq!(g.get(Square::new(-1, 0)), None);
        assert_eq!(g.get(Square::new(0, 2)), None);
        assert!(BlockerGrid::new(2000, 1).is_err());
    }
}
