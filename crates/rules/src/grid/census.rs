//! How many marked squares a rectangle of the map holds, in constant time (a summed-area
//! table). The line tests use it to skip walks exactly: a segment can only be blocked by an
//! element touching it, and every square touching a segment lies in the box of its end
//! points' squares grown by one, so an empty box proves a line clear without walking it.

use super::Space;

/// Counts of marked squares over a `width × height` map.
#[derive(Debug, Clone, Default)]
pub struct Census {
    width: i64,
    height: i64,
    /// `sums[y · (width + 1) + x]`: marked squares with column `< x` and row `< y`.
    sums: Vec<u32>,
}

impl Census {
    /// Counts the squares of a `width × height` map, given row-major as `cells`, whose bits
    /// meet `bits`.
    pub fn new(width: usize, height: usize, cells: &[u8], bits: u8) -> Census {
        let row = width + 1;
        let mut sums = vec![0u32; row * (height + 1)];
        for (y, cells) in cells.chunks_exact(width.max(1)).take(height).enumerate() {
            // This row of sums and the one above it (iterators: no bounds test per square).
            let (above, here) = sums.split_at_mut((y + 1) * row);
            let above = above.get(y * row + 1..).unwrap_or(&[]);
            let mut run = 0u32;
            // Sums never exceed the square count (at most 2^20): wrapping adds are exact.
            for ((sum, up), &c) in here.iter_mut().skip(1).zip(above).zip(cells) {
                run = run.wrapping_add(u32::from(c & bits != 0));
                *sum = up.wrapping_add(run);
            }
        }
        Census { width: width as i64, height: height as i64, sums }
    }

    fn at(&self, x: i64, y: i64) -> u32 {
        // In range by construction: 0 ≤ x ≤ width, 0 ≤ y ≤ height.
        self.sums.get((y * (self.width + 1) + x) as usize).copied().unwrap_or(0)
    }

    /// Marked squares with `x0 ≤ x ≤ x1` and `y0 ≤ y ≤ y1` (off-map squares count 0).
    pub fn count(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> u32 {
        let (x0, y0) = (x0.max(0), y0.max(0));
        let (x1, y1) = ((x1 + 1).min(self.width), (y1 + 1).min(self.height));
        if x0 >= x1 || y0 >= y1 {
            return 0;
        }
        // The table's sums never exceed the square count, so the differences do not wrap.
        (self.at(x1, y1) + self.at(x0, y0)).wrapping_sub(self.at(x0, y1) + self.at(x1, y0))
    }
}

/// The squares that may touch a segment between a corner of `a` and a corner of `b`: the box
/// of both spaces grown by one square, as `[x0, y0, x1, y1]` (inclusive).
pub fn around(a: &Space, b: &Space) -> [i64; 4] {
    let end =
        |s: &Space| (i64::from(s.anchor.x) + i64::from(s.side), i64::from(s.anchor.y) + i64::from(s.side));
    let ((ax, ay), (bx, by)) = (end(a), end(b));
    [
        i64::from(a.anchor.x.min(b.anchor.x)) - 1,
        i64::from(a.anchor.y.min(b.anchor.y)) - 1,
        ax.max(bx),
        ay.max(by),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Square;

    #[test]
    fn counts_rectangles_and_clips_to_the_map() {
        // 4 × 3, marked: (1, 0), (3, 1), (0, 2), (3, 2).
        let marks = [(1, 0), (3, 1), (0, 2), (3, 2)];
        let cells: Vec<u8> = (0..12).map(|i| u8::from(marks.contains(&(i % 4, i / 4)))).collect();
        let c = Census::new(4, 3, &cells, 1);
        assert_eq!(c.count(0, 0, 3, 2), 4);
        assert_eq!(c.count(1, 0, 1, 0), 1);
        assert_eq!(c.count(2, 0, 2, 2), 0);
        assert_eq!(c.count(3, 1, 9, 9), 2);
        assert_eq!(c.count(-5, -5, 0, 1), 0);
        assert_eq!(c.count(-5, -5, 0, 2), 1);
        assert_eq!(c.count(2, 2, 1, 1), 0);
    }

    #[test]
    fn around_grows_the_box_of_both_spaces_by_one() {
        let sq = |x, y| Space { anchor: Square::new(x, y), side: 1 };
        // Squares 1..=2 on both axes, corners 1..=3: the squares touching are 0..=3.
        assert_eq!(around(&sq(1, 1), &sq(2, 2)), [0, 0, 3, 3]);
        assert_eq!(around(&sq(5, 1), &Space { anchor: Square::new(2, 3), side: 2 }), [1, 0, 6, 5]);
    }
}
