//! Rule 6 of `grid.line.blocked` (`grid.line.endpoint-inside`), exactly: an end point lying on a
//! wall is moved *infinitesimally* towards the centre of the square it was taken from.
//!
//! The moved end points are `P + ε·Dp` and `Q + ε·Dq` for one infinitesimal `ε > 0`, where `D`
//! is the vector from the end point to its square's centre (zero for an end point that does not
//! move). Every predicate the rule needs is a polynomial of degree ≤ 2 in `ε`, and its sign for
//! an infinitesimal `ε` is the sign of its first non-zero coefficient. No epsilon is ever
//! chosen, so the answer does not depend on the scale of the map.
//!
//! Bounds: an end point lies in the closed square it was taken from (checked on entry), so each
//! `D` component is at most half a square (2^51 raw), and every coefficient below stays far
//! inside `i128` (at most about 2^125 for the constant terms, 2^116 for the others).

use super::geom::{Xy, opposite};

/// `c0 + c1·ε + c2·ε²`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Eps([i128; 3]);

impl Eps {
    /// The sign for an infinitesimal positive `ε`.
    fn sign(self) -> i128 {
        self.0.iter().copied().find(|c| *c != 0).map_or(0, i128::signum)
    }
}

/// The segment `[P + ε·Dp, Q + ε·Dq]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Moved {
    pub(crate) p: Xy,
    pub(crate) dp: Xy,
    pub(crate) q: Xy,
    pub(crate) dq: Xy,
}

impl Moved {
    /// `(Q' − P') × (x − P')` for a fixed point `x`: its side of the moved segment.
    fn orient(&self, x: Xy) -> Eps {
        let d = self.q.sub(self.p);
        let g = self.dq.sub(self.dp);
        let u = x.sub(self.p);
        Eps([d.cross(u), g.cross(u) - d.cross(self.dp), -g.cross(self.dp)])
    }

    /// The side of the fixed point `x` relative to the moved segment, as a sign.
    pub(crate) fn side(&self, x: Xy) -> i128 {
        self.orient(x).sign()
    }

    /// `e × (X' − a)` for the moved end point `X + ε·D`: its side of the wall line.
    fn wall_side(a: Xy, e: Xy, x: Xy, dx: Xy) -> Eps {
        Eps([e.cross(x.sub(a)), e.cross(dx), 0])
    }

    /// Rule 5 "cross" for the moved segment: both moved end points strictly on opposite sides of
    /// the wall's line, and both wall end points strictly on opposite sides of the moved line.
    pub(crate) fn crosses(&self, a: Xy, b: Xy) -> bool {
        let e = b.sub(a);
        if e.is_zero() {
            return false;
        }
        let sp = Self::wall_side(a, e, self.p, self.dp).sign();
        let sq = Self::wall_side(a, e, self.q, self.dq).sign();
        opposite(sp, sq) && opposite(self.orient(a).sign(), self.orient(b).sign())
    }

    /// Rule 5 "overlap" for the moved segment: it lies on the wall's line (identically in ε)
    /// and shares a piece of positive length with the wall.
    pub(crate) fn overlaps(&self, a: Xy, b: Xy) -> bool {
        let e = b.sub(a);
        if e.is_zero() {
            return false;
        }
        let on_line = |x: Xy, dx: Xy| Self::wall_side(a, e, x, dx).0 == [0, 0, 0];
        if !on_line(self.p, self.dp) || !on_line(self.q, self.dq) {
            return false;
        }
        // Positions along the wall, as (constant, ε) pairs compared lexicographically.
        let pos = |x: Xy, dx: Xy| (x.sub(a).dot(e), dx.dot(e));
        let (pp, pq) = (pos(self.p, self.dp), pos(self.q, self.dq));
        let lo = pp.min(pq).max((0, 0));
        let hi = pp.max(pq).min((e.dot(e), 0));
        lo < hi
    }

    /// Whether the fixed point `v` lies strictly inside the moved segment (on its line for
    /// every small ε, and strictly between its ends): then rule 4 applies at `v` on the moved
    /// segment.
    pub(crate) fn inside(&self, v: Xy) -> bool {
        // (v − P')·(Q' − v) = (v−P)·(Q−v) + ε·[(v−P)·Dq − Dp·(Q−v)] − ε²·Dp·Dq.
        let (vp, qv) = (v.sub(self.p), self.q.sub(v));
        self.orient(v).0 == [0, 0, 0]
            && Eps([vp.dot(qv), vp.dot(self.dq) - self.dp.dot(qv), -self.dp.dot(self.dq)]).sign() > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(x: i128, y: i128) -> Xy {
        // Half-square units.
        let half = crate::grid::ONE / 2;
        Xy { x: x * half, y: y * half }
    }

    #[test]
    fn corner_on_a_wall_crosses_it_when_moved() {
        // Wall x = 3 from y = 0 to 5; P = ⟨3,2⟩ taken from (2,2) (centre ⟨2.5,2.5⟩); Q = ⟨5,3⟩.
        let m = Moved { p: h(6, 4), dp: h(-1, 1), q: h(10, 6), dq: h(0, 0) };
        assert!(m.crosses(h(6, 0), h(6, 10)));
        // Taken from (3,1) instead (east of the wall): no crossing.
        let m = Moved { dp: h(1, -1), ..m };
        assert!(!m.crosses(h(6, 0), h(6, 10)));
    }

    #[test]
    fn moved_segment_along_a_wall_crosses_its_line_halfway() {
        // ⟨3,2⟩ from (2,2) to ⟨3,3⟩ from (3,2): crosses x = 3 at ⟨3, 2.5⟩ for every ε.
        let m = Moved { p: h(6, 4), dp: h(-1, 1), q: h(6, 6), dq: h(1, -1) };
        assert!(m.inside(h(6, 5)));
        assert!(m.crosses(h(6, 0), h(6, 10)));
        assert!(!m.crosses(h(6, 0), h(6, 5)));
    }

    #[test]
    fn zero_length_segment_through_a_shared_corner() {
        // A (2,2) and T (3,2) share ⟨3,2⟩ across the wall x = 3.
        let m = Moved { p: h(6, 4), dp: h(-1, 1), q: h(6, 4), dq: h(1, 1) };
        assert!(m.crosses(h(6, 0), h(6, 10)));
        // Both from the same square: the moved segment is a point.
        let m = Moved { dq: h(-1, 1), ..m };
        assert!(!m.crosses(h(6, 0), h(6, 10)));
    }

    #[test]
    fn moved_end_slides_through_its_own_point() {
        // P = ⟨3,2⟩ from (2,2), Q = ⟨5,0⟩: the move is along the line, backwards.
        let m = Moved { p: h(6, 4), dp: h(-1, 1), q: h(10, 0), dq: h(0, 0) };
        assert!(m.inside(m.p));
        assert!(!m.inside(m.q));
        assert!(m.inside(h(8, 2)));
    }
}
