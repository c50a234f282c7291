//! An exact grid walk: the cells a closed segment meets, in order along it.
//!
//! Cells are half-open, `[i·u, (i+1)·u) × [j·u, (j+1)·u)` for a cell side `u = 2^shift` raw
//! units, so every point belongs to exactly one cell. The walk visits exactly the cells that
//! the closed segment meets (including cells it only passes through at one point), which is
//! what makes the wall buckets exact: a wall meeting the segment at a point `m` was filed under
//! the one cell holding `m`, and the walk visits that cell.
//!
//! Events are boundary crossings at parameter `t` along the segment. Moving towards larger
//! coordinates, the boundary belongs to the new cell, so the change happens *at* `t`; moving
//! towards smaller ones, the boundary still belongs to the old cell and the change happens just
//! *after* `t`. Events are ordered by `(t, at-before-after)`, with `t` compared exactly through
//! the integer products `nx·|dy|` and `ny·|dx|`; equal keys step diagonally.

use super::geom::Xy;
use crate::grid::FRAC_BITS;

/// The cells met by a segment, as `(column, row)` in cell units: an iterator, and a
/// step-by-step form ([`Walk::advance`]) for the hot loop of the line tests.
#[derive(Debug, Clone)]
pub(crate) struct Walk {
    /// The current cell.
    pub(crate) cx: i64,
    pub(crate) cy: i64,
    /// Direction of travel on each axis (−1, 0 or 1).
    pub(crate) sx: i64,
    pub(crate) sy: i64,
    left_x: u64,
    left_y: u64,
    /// Event keys: `2·nx·|dy| + (0 if the x event happens at its time, 1 if just after)`, the
    /// time of the next x event scaled by `|dx|·|dy|` with the at/after order in the low bit
    /// (below 2^127, so the doubling is exact); same for y. `u128::MAX` once an axis has no
    /// boundary left to cross.
    kx: u128,
    ky: u128,
    step_x: u128,
    step_y: u128,
    started: bool,
}

impl Walk {
    /// The walk of `[p, q]` over cells of side `2^shift` raw units. Points must be in range
    /// (raw values in `[0, 2^62]`) and `shift` in `52..=62`, which keeps every product below
    /// 2^125.
    pub(crate) fn new(p: Xy, q: Xy, shift: u32) -> Self {
        let unit: i128 = 1 << shift;
        let (cx, cy) = (p.x >> shift, p.y >> shift);
        let (ex, ey) = (q.x >> shift, q.y >> shift);
        let (dx, dy) = (q.x - p.x, q.y - p.y);
        let (adx, ady) = (dx.unsigned_abs(), dy.unsigned_abs());
        // Distance along each axis from p to the first boundary in the direction of travel.
        // Cell starts are `c << shift` (exact: c ≤ 2^10); no multiplication needed.
        let nx = match dx.signum() {
            1 => ((cx + 1) << shift) - p.x,
            -1 => p.x - (cx << shift),
            _ => 0,
        };
        let ny = match dy.signum() {
            1 => ((cy + 1) << shift) - p.y,
            -1 => p.y - (cy << shift),
            _ => 0,
        };
        // Products of two values below 2^63 are below 2^126: wrapping is exact (and avoids
        // the slow checked 128-bit multiply), and so is the doubling.
        let key = |n: i128, a: u128, after: bool| (n.unsigned_abs().wrapping_mul(a) << 1) | u128::from(after);
        Walk {
            cx: cx as i64,
            cy: cy as i64,
            sx: dx.signum() as i64,
            sy: dy.signum() as i64,
            left_x: (ex - cx).unsigned_abs() as u64,
            left_y: (ey - cy).unsigned_abs() as u64,
            kx: if ex == cx { u128::MAX } else { key(nx, ady, dx < 0) },
            ky: if ey == cy { u128::MAX } else { key(ny, adx, dy < 0) },
            step_x: unit.unsigned_abs().wrapping_mul(ady) << 1,
            step_y: unit.unsigned_abs().wrapping_mul(adx) << 1,
            started: false,
        }
    }

    /// Moves to the next cell; returns which coordinates changed (`(x, y)`), or `None` at the
    /// end. The current cell is then `(cx, cy)`.
    #[inline]
    pub(crate) fn advance(&mut self) -> Option<(bool, bool)> {
        // The earlier event goes first; equal keys step diagonally. A finished axis (no
        // boundary left) has the key `u128::MAX`, larger than any real key; real keys stay
        // below 2^127, so adding a step never wraps.
        if self.left_x == 0 && self.left_y == 0 {
            return None;
        }
        let (x, y) = (self.kx <= self.ky, self.ky <= self.kx);
        if x {
            self.cx += self.sx;
            self.left_x = self.left_x.saturating_sub(1);
            self.kx = if self.left_x == 0 { u128::MAX } else { self.kx.wrapping_add(self.step_x) };
        }
        if y {
            self.cy += self.sy;
            self.left_y = self.left_y.saturating_sub(1);
            self.ky = if self.left_y == 0 { u128::MAX } else { self.ky.wrapping_add(self.step_y) };
        }
        Some((x, y))
    }
}

impl Iterator for Walk {
    type Item = (i64, i64);

    fn next(&mut self) -> Option<(i64, i64)> {
        if self.started {
            self.advance()?;
        }
        self.started = true;
        Some((self.cx, self.cy))
    }
}

/// Where the line tests' walk stands: the current cell, whether the segment's line passes
/// through its north-west corner, and the next cell.
pub(crate) trait Cursor {
    /// The current cell, `(column, row)`.
    fn cell(&self) -> (i64, i64);
    /// Whether the segment's line passes through the current cell's north-west corner.
    fn through_corner(&self) -> bool;
    /// Moves to the next cell; `false` at the end.
    fn step(&mut self) -> bool;
}

/// The exact walk of any segment, with `d × (corner − p)` for the current cell's north-west
/// corner kept up to date by additions (a column east subtracts `dy·ONE`, a row south adds
/// `dx·ONE`; the value stays below 2^125).
pub(crate) struct ExactCursor {
    walk: Walk,
    corner_side: i128,
    step_x: i128,
    step_y: i128,
}

impl ExactCursor {
    /// The walk of `[p, q]` over unit squares (raw points, in range).
    pub(crate) fn new(p: Xy, q: Xy) -> Self {
        let walk = Walk::new(p, q, FRAC_BITS);
        let d = q.sub(p);
        let corner_side = d.cross(Xy::lattice(walk.cx, walk.cy).sub(p));
        let step_x = if walk.sx > 0 { -(d.y << FRAC_BITS) } else { d.y << FRAC_BITS };
        let step_y = if walk.sy > 0 { d.x << FRAC_BITS } else { -(d.x << FRAC_BITS) };
        ExactCursor { walk, corner_side, step_x, step_y }
    }
}

impl Cursor for ExactCursor {
    #[inline(always)]
    fn cell(&self) -> (i64, i64) {
        (self.walk.cx, self.walk.cy)
    }

    #[inline(always)]
    fn through_corner(&self) -> bool {
        self.corner_side == 0
    }

    #[inline(always)]
    fn step(&mut self) -> bool {
        match self.walk.advance() {
            None => false,
            Some((x, y)) => {
                if x {
                    self.corner_side += self.step_x;
                }
                if y {
                    self.corner_side += self.step_y;
                }
                true
            }
        }
    }
}

/// The same walk for a segment between two lattice points (every corner-to-corner line),
/// in whole squares: the events and corner tests scale by a common positive factor, so the
/// cells and corners are those of [`ExactCursor`], with 64-bit arithmetic (coordinates are at
/// most 1,024 squares, every product below 2^22).
pub(crate) struct LatticeCursor {
    cx: i64,
    cy: i64,
    sx: i64,
    sy: i64,
    left_x: u64,
    left_y: u64,
    kx: u64,
    ky: u64,
    step_kx: u64,
    step_ky: u64,
    corner_side: i64,
    step_x: i64,
    step_y: i64,
}

impl LatticeCursor {
    /// The walk from square corner `(px, py)` to `(qx, qy)`, if both are lattice points of
    /// the supported range.
    pub(crate) fn new(p: Xy, q: Xy) -> Option<Self> {
        let whole = |v: i128| v & ((1 << FRAC_BITS) - 1) == 0;
        if !(whole(p.x) && whole(p.y) && whole(q.x) && whole(q.y)) {
            return None;
        }
        // In range: raw values in [0, 2^62], so whole squares in [0, 1024].
        let sq = |v: i128| (v >> FRAC_BITS) as i64;
        let (px, py, qx, qy) = (sq(p.x), sq(p.y), sq(q.x), sq(q.y));
        let (dx, dy) = (qx - px, qy - py);
        let (adx, ady) = (dx.unsigned_abs(), dy.unsigned_abs());
        // From a lattice point the first boundary is one square ahead when moving towards
        // larger coordinates, and the point itself (just after it) when moving back.
        let key = |ahead: bool, a: u64| if ahead { a << 1 } else { 1 };
        Some(LatticeCursor {
            cx: px,
            cy: py,
            sx: dx.signum(),
            sy: dy.signum(),
            left_x: adx,
            left_y: ady,
            kx: if dx == 0 { u64::MAX } else { key(dx > 0, ady) },
            ky: if dy == 0 { u64::MAX } else { key(dy > 0, adx) },
            step_kx: ady << 1,
            step_ky: adx << 1,
            corner_side: 0,
            step_x: -dx.signum() * dy,
            step_y: dy.signum() * dx,
        })
    }
}

impl Cursor for LatticeCursor {
    #[inline(always)]
    fn cell(&self) -> (i64, i64) {
        (self.cx, self.cy)
    }

    #[inline(always)]
    fn through_corner(&self) -> bool {
        self.corner_side == 0
    }

    #[inline(always)]
    fn step(&mut self) -> bool {
        if self.left_x == 0 && self.left_y == 0 {
            return false;
        }
        let (x, y) = (self.kx <= self.ky, self.ky <= self.kx);
        if x {
            self.cx += self.sx;
            self.left_x -= 1;
            self.kx = if self.left_x == 0 { u64::MAX } else { self.kx + self.step_kx };
            self.corner_side += self.step_x;
        }
        if y {
            self.cy += self.sy;
            self.left_y -= 1;
            self.ky = if self.left_y == 0 { u64::MAX } else { self.ky + self.step_ky };
            self.corner_side += self.step_y;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lat(x: i64, y: i64) -> Xy {
        Xy::lattice(x, y)
    }

    fn cells(p: Xy, q: Xy) -> Vec<(i64, i64)> {
        Walk::new(p, q, FRAC_BITS).collect()
    }

    #[test]
    fn diagonal_through_lattice_points() {
        assert_eq!(cells(lat(0, 0), lat(2, 2)), vec![(0, 0), (1, 1), (2, 2)]);
        // Going up-right through ⟨1,1⟩: the lattice point's own cell is visited in between,
        // and the start ⟨0,2⟩ belongs to the cell below the line it starts on.
        assert_eq!(cells(lat(0, 2), lat(2, 0)), vec![(0, 2), (0, 1), (1, 1), (1, 0), (2, 0)]);
        assert_eq!(cells(lat(2, 2), lat(0, 0)), vec![(2, 2), (1, 1), (0, 0)]);
        assert_eq!(cells(lat(2, 0), lat(0, 2)), vec![(2, 0), (1, 0), (1, 1), (0, 1), (0, 2)]);
    }

    /// The lattice cursor visits the cells and corners of the exact one, for every segment
    /// between lattice points of a small grid.
    #[test]
    fn lattice_cursor_is_the_exact_walk() {
        let mut checked = 0;
        for (px, py, qx, qy) in (0..5).flat_map(|a| {
            (0..5).flat_map(move |b| (0..5).flat_map(move |c| (0..5).map(move |d| (a, b, c, d))))
        }) {
            let (p, q) = (lat(px, py), lat(qx, qy));
            let mut exact = ExactCursor::new(p, q);
            let Some(mut fast) = LatticeCursor::new(p, q) else { panic!("lattice points") };
            loop {
                assert_eq!(fast.cell(), exact.cell(), "{p:?} → {q:?}");
                assert_eq!(
                    fast.through_corner(),
                    exact.through_corner(),
                    "{p:?} → {q:?} at {:?}",
                    exact.cell()
                );
                let (a, b) = (fast.step(), exact.step());
                assert_eq!(a, b, "{p:?} → {q:?}");
                if !a {
                    break;
                }
            }
            checked += 1;
        }
        assert_eq!(checked, 625);
        // A point off the lattice has no lattice cursor.
        assert!(LatticeCursor::new(Xy { x: 1, y: 0 }, lat(2, 2)).is_none());
    }

    #[test]
    fn axis_and_general() {
        assert_eq!(cells(lat(1, 2), lat(4, 2)), vec![(1, 2), (2, 2), (3, 2), (4, 2)]);
        assert_eq!(cells(lat(4, 2), lat(1, 2)), vec![(4, 2), (3, 2), (2, 2), (1, 2)]);
        assert_eq!(cells(lat(1, 2), lat(6, 3)), vec![(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 3)]);
        assert_eq!(cells(lat(3, 3), lat(3, 3)), vec![(3, 3)]);
    }
}
