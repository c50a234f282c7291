//! Grid coordinates, exact points, spaces and distances (RULES.md §0.4 and §1).
//!
//! Squares are integer cells; points (corners, wall ends, light and area origins) are exact
//! fixed-point numbers so that every line and wall test is decided without floating error.

pub mod census;
pub mod distance;
pub mod line;

pub use distance::{FEET_PER_SQUARE, METRES_PER_SQUARE, Metric, SpaceGap};

/// Number of fractional bits of a [`Coord`].
///
/// 52 bits make every `f64` in `[1, 2^10)` convert exactly (its unit in the last place is at
/// least 2^-52), and keep the cross products of the line tests inside `i128` for grids up to
/// 1,000 squares: coordinates stay below 2^62, products below 2^124.
pub const FRAC_BITS: u32 = 52;

/// One grid unit (one square, 5 ft) as a raw [`Coord`] value.
pub const ONE: i128 = 1 << FRAC_BITS;

/// 2^63 as `f64`: integer-valued `f64`s below it in magnitude convert to `i64` exactly.
const I64_LIMIT: f64 = 9_223_372_036_854_775_808.0;

/// An exact coordinate in square units, stored as a fixed-point integer (`raw / 2^52`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Coord(pub i128);

impl Coord {
    /// The coordinate of an integer grid line.
    pub const fn from_int(v: i32) -> Self {
        Coord((v as i128) << FRAC_BITS)
    }

    /// Converts a finite `f64`, exactly when it has at most 52 fractional bits (every value
    /// ≥ 1, and every multiple of 2^-52 below that); smaller fractions are rounded to the
    /// nearest 2^-52, far below anything a grid can show. `None` for non-finite values or
    /// magnitudes of 2^40 squares and more.
    pub fn from_f64(v: f64) -> Option<Self> {
        if !v.is_finite() || v.abs() >= (1u64 << 40) as f64 {
            return None;
        }
        // Scaling by a power of two is exact in f64 unless the result needs more than 53
        // significant bits, which only happens for the sub-2^-52 part that we round.
        let scaled = (v * (ONE as f64)).round();
        // Through i64 when it fits (every grid coordinate does): the same integer, without
        // the library call that converts to i128.
        Some(Coord(if scaled.abs() < I64_LIMIT { scaled as i64 as i128 } else { scaled as i128 }))
    }

    /// The value as `f64` (for output and drawing only, never for decisions).
    pub fn to_f64(self) -> f64 {
        // The same rounding either way; through i64 it is one instruction.
        let raw = i64::try_from(self.0).map_or(self.0 as f64, |v| v as f64);
        raw / ONE as f64
    }

    /// The largest integer ≤ self.
    pub fn floor(self) -> i64 {
        (self.0 >> FRAC_BITS) as i64
    }
}

/// An exact point in square units: the corner `{x, y}` is the top-left corner of square `{x, y}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Point {
    /// East coordinate.
    pub x: Coord,
    /// South coordinate.
    pub y: Coord,
}

impl Point {
    /// The lattice point (square corner) `⟨x, y⟩`.
    pub const fn lattice(x: i32, y: i32) -> Self {
        Point { x: Coord::from_int(x), y: Coord::from_int(y) }
    }

    /// The centre of a square.
    pub const fn centre(sq: Square) -> Self {
        Point {
            x: Coord(((sq.x as i128) << FRAC_BITS) + (ONE >> 1)),
            y: Coord(((sq.y as i128) << FRAC_BITS) + (ONE >> 1)),
        }
    }
}

/// A grid square `{x, y}`: the region `[x, x+1] × [y, y+1]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing south.
    pub y: i32,
}

impl Square {
    /// Builds a square from its column and row.
    pub const fn new(x: i32, y: i32) -> Self {
        Square { x, y }
    }

    /// The four corners, clockwise from north-west.
    pub const fn corners(self) -> [Point; 4] {
        [
            Point::lattice(self.x, self.y),
            Point::lattice(self.x.saturating_add(1), self.y),
            Point::lattice(self.x.saturating_add(1), self.y.saturating_add(1)),
            Point::lattice(self.x, self.y.saturating_add(1)),
        ]
    }
}

/// A creature's space: an axis-aligned block of `side × side` squares anchored at its
/// top-left square (RULES.md §0.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Space {
    /// Top-left occupied square.
    pub anchor: Square,
    /// Width and height in squares (at least 1).
    pub side: i32,
}

impl Space {
    /// Smallest occupied column.
    pub fn min_x(&self) -> i32 {
        self.anchor.x
    }
    /// Largest occupied column.
    pub fn max_x(&self) -> i32 {
        self.anchor.x.saturating_add(self.side.max(1) - 1)
    }
    /// Smallest occupied row.
    pub fn min_y(&self) -> i32 {
        self.anchor.y
    }
    /// Largest occupied row.
    pub fn max_y(&self) -> i32 {
        self.anchor.y.saturating_add(self.side.max(1) - 1)
    }

    /// Every occupied square, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        let a = self.anchor;
        // Squares past i32::MAX do not exist: a space is cut there rather than wrapping.
        let (w, h) = (self.max_x() - a.x + 1, self.max_y() - a.y + 1);
        (0..h).flat_map(move |j| (0..w).map(move |i| Square::new(a.x + i, a.y + j)))
    }

    /// Whether the space contains a square.
    pub fn contains(&self, sq: Square) -> bool {
        (self.min_x()..=self.max_x()).contains(&sq.x) && (self.min_y()..=self.max_y()).contains(&sq.y)
    }

    /// Whether two spaces share at least one square.
    pub fn overlaps(&self, other: &Space) -> bool {
        self.min_x() <= other.max_x()
            && other.min_x() <= self.max_x()
            && self.min_y() <= other.max_y()
            && other.min_y() <= self.max_y()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both conversion paths (through i64, and through i128 beyond it) give the exact values:
    /// a square is 2^52 raw units, and 2^20 squares (2^72 raw) is past i64.
    #[test]
    fn coordinates_convert_exactly_on_both_sides_of_i64() {
        assert_eq!(Coord::from_f64(2.5), Some(Coord(5 << 51)));
        assert_eq!(Coord::from_f64(-0.25), Some(Coord(-(1 << 50))));
        assert_eq!(Coord::from_f64(1_048_576.0), Some(Coord(1 << 72)));
        assert_eq!(Coord::from_f64(-1_048_576.5), Some(Coord(-((1 << 72) + (1 << 51)))));
        assert_eq!(Coord::from_f64((1u64 << 40) as f64), None);
        assert_eq!(Coord(5 << 51).to_f64(), 2.5);
        assert_eq!(Coord((1 << 72) + (1 << 51)).to_f64(), 1_048_576.5);
        assert_eq!(Coord(-(1 << 50)).to_f64(), -0.25);
    }
}
