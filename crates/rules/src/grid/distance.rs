//! Grid distances between spaces (`grid.distance.chebyshev`, `grid.distance.alternating`).

use super::Space;

/// Feet per square.
pub const FEET_PER_SQUARE: i64 = 5;

/// Metres per square, as the French sources state it (1,50 m).
pub const METRES_PER_SQUARE: f64 = 1.5;

/// How diagonal steps are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Every step costs one square (`grid.distance.chebyshev`, D&D 5e default).
    Chebyshev,
    /// Diagonals alternate 1 and 2 squares (`grid.distance.alternating`, PF1, SF, 5e variant).
    Alternating,
}

impl Metric {
    /// The rule id that defines this metric.
    pub fn rule(self) -> &'static str {
        match self {
            Metric::Chebyshev => "grid.distance.chebyshev",
            Metric::Alternating => "grid.distance.alternating",
        }
    }

    /// Squares travelled for a displacement of `gx` columns and `gy` rows (both ≥ 0).
    pub fn squares(self, gx: i64, gy: i64) -> i64 {
        match self {
            Metric::Chebyshev => gx.max(gy),
            Metric::Alternating => {
                let diagonal = gx.min(gy);
                let straight = gx.max(gy) - diagonal;
                straight + diagonal + diagonal / 2
            }
        }
    }

    /// Squares between two spaces: counted from a square adjacent to one to the nearest square
    /// of the other, so that adjacent spaces are 1 square (5 ft) apart and overlapping ones 0.
    pub fn between(self, a: &Space, b: &Space) -> i64 {
        let gap = SpaceGap::between(a, b);
        self.squares(gap.gx, gap.gy)
    }
}

/// The column and row gaps between two spaces, as RULES.md `grid.distance.*` defines them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpaceGap {
    /// Columns from one space to the other (adjacent columns give 1).
    pub gx: i64,
    /// Rows from one space to the other.
    pub gy: i64,
}

impl SpaceGap {
    /// Computes the gaps between two spaces.
    pub fn between(a: &Space, b: &Space) -> Self {
        let axis = |amin: i32, amax: i32, bmin: i32, bmax: i32| -> i64 {
            0i64.max(i64::from(amin) - i64::from(bmax)).max(i64::from(bmin) - i64::from(amax))
        };
        SpaceGap {
            gx: axis(a.min_x(), a.max_x(), b.min_x(), b.max_x()),
            gy: axis(a.min_y(), a.max_y(), b.min_y(), b.max_y()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Square;

    fn at(x: i32, y: i32, side: i32) -> Space {
        Space { anchor: Square::new(x, y), side }
    }

    /// The table of RULES.md `grid.distance.chebyshev` and `grid.distance.alternating`.
    #[test]
    fn rules_md_distance_table() {
        let cases = [
            (at(0, 0, 1), at(1, 1, 1), 5, 5),
            (at(0, 0, 1), at(2, 2, 1), 10, 15),
            (at(0, 0, 1), at(3, 2, 1), 15, 20),
            (at(0, 0, 1), at(4, 4, 1), 20, 30),
            (at(0, 0, 1), at(6, 6, 1), 30, 45),
            (at(0, 0, 2), at(4, 4, 1), 15, 20),
        ];
        for (a, b, cheb, alt) in cases {
            assert_eq!(Metric::Chebyshev.between(&a, &b) * FEET_PER_SQUARE, cheb, "{a:?}->{b:?}");
            assert_eq!(Metric::Alternating.between(&a, &b) * FEET_PER_SQUARE, alt, "{a:?}->{b:?}");
        }
    }

    #[test]
    fn overlapping_spaces_are_zero_apart() {
        assert_eq!(Metric::Alternating.between(&at(0, 0, 2), &at(1, 1, 1)), 0);
    }
}
