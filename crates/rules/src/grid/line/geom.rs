//! Exact segment predicates (`grid.segment.classify`): a segment against a square and against a
//! thin wall, decided with integer orientation tests on the fixed-point coordinates.
//!
//! Bounds: every point is first checked to lie in `[0, MAX_SQUARES]` squares, i.e. raw values
//! in `[0, 2^62]`. Differences are then below 2^62 in magnitude, products below 2^124 and a
//! cross product (difference of two products) below 2^125, so plain `i128` arithmetic cannot
//! overflow anywhere below.

use super::wide::Ratio;
use crate::grid::{FRAC_BITS, Point, Square};

/// The largest coordinate, in squares, that the line tests accept (the API limit is 1,000).
pub const MAX_SQUARES: i32 = 1024;

/// The largest raw coordinate accepted: `MAX_SQUARES` squares, 2^62.
pub(crate) const MAX_RAW: i128 = (MAX_SQUARES as i128) << FRAC_BITS;

/// An input lies outside the range the exact tests support (coordinates in `[0, 1024]`
/// squares), or an end point lies outside the square it was said to be taken from. Callers
/// should treat the line as unknown (a 422), never as clear.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfRange;

/// A point in raw fixed-point units, for arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub(crate) struct Xy {
    pub(crate) x: i128,
    pub(crate) y: i128,
}

impl Xy {
    /// The raw coordinates of a point, if it lies in the supported range.
    pub(crate) fn checked(p: Point) -> Result<Xy, OutOfRange> {
        let ok = |v: i128| (0..=MAX_RAW).contains(&v);
        if ok(p.x.0) && ok(p.y.0) { Ok(Xy { x: p.x.0, y: p.y.0 }) } else { Err(OutOfRange) }
    }

    /// Back to a [`Point`].
    pub(crate) fn point(self) -> Point {
        Point { x: crate::grid::Coord(self.x), y: crate::grid::Coord(self.y) }
    }

    /// The lattice point `⟨x, y⟩`.
    pub(crate) fn lattice(x: i64, y: i64) -> Xy {
        Xy { x: i128::from(x) << FRAC_BITS, y: i128::from(y) << FRAC_BITS }
    }

    #[inline]
    pub(crate) fn sub(self, o: Xy) -> Xy {
        Xy { x: self.x - o.x, y: self.y - o.y }
    }

    /// `self × o`: positive when `o` points to the right of `self` on the map (y grows south).
    ///
    /// Wrapping operations, because `overflow-checks` turns every checked `i128` product into a
    /// slow library call: callers only pass vectors whose products are bounded (differences of
    /// in-range points, below 2^62 per component, give |result| < 2^125), so the wrapping
    /// result is the exact one.
    #[inline]
    pub(crate) fn cross(self, o: Xy) -> i128 {
        self.x.wrapping_mul(o.y).wrapping_sub(self.y.wrapping_mul(o.x))
    }

    /// `self · o`, with the same bounds and reasons as [`Xy::cross`].
    #[inline]
    pub(crate) fn dot(self, o: Xy) -> i128 {
        self.x.wrapping_mul(o.x).wrapping_add(self.y.wrapping_mul(o.y))
    }

    pub(crate) fn is_zero(self) -> bool {
        self.x == 0 && self.y == 0
    }
}

/// Checks that a square lies in the supported range (its corners are valid points).
pub(crate) fn square_ok(sq: Square) -> Result<(), OutOfRange> {
    let ok = |v: i32| (0..MAX_SQUARES).contains(&v);
    if ok(sq.x) && ok(sq.y) { Ok(()) } else { Err(OutOfRange) }
}

/// The four corners of a square in raw units (any `i32` square: at most 2^84, no overflow).
pub(crate) fn corners(sq: Square) -> [Xy; 4] {
    let (x0, y0) = (i64::from(sq.x), i64::from(sq.y));
    [Xy::lattice(x0, y0), Xy::lattice(x0 + 1, y0), Xy::lattice(x0 + 1, y0 + 1), Xy::lattice(x0, y0 + 1)]
}

/// Whether a point of the line through `p` and `q` (collinear with them) lies between them.
pub(crate) fn between(p: Xy, q: Xy, v: Xy) -> bool {
    p.x.min(q.x) <= v.x && v.x <= p.x.max(q.x) && p.y.min(q.y) <= v.y && v.y <= p.y.max(q.y)
}

/// Whether `v` lies on the closed segment `[a, b]`.
pub(crate) fn on_segment(a: Xy, b: Xy, v: Xy) -> bool {
    // The box test first: it rejects most walls without the i128 products.
    between(a, b, v) && b.sub(a).cross(v.sub(a)) == 0
}

/// Whether the closed segment `[p, q]` meets the *open* square: `grid.segment.classify`
/// "interior". Separating axes: the open square and the segment are disjoint iff their x or y
/// ranges do not overlap as open intervals, or all four corners lie on one closed side of the
/// segment's line (the axes of the two shapes' edges; complete for convex polygons).
pub(crate) fn interior(p: Xy, q: Xy, sq: Square) -> bool {
    if p == q {
        return false;
    }
    let c = corners(sq);
    let (x0, y0, x1, y1) = (c[0].x, c[0].y, c[2].x, c[2].y);
    if p.x.max(q.x) <= x0 || p.x.min(q.x) >= x1 || p.y.max(q.y) <= y0 || p.y.min(q.y) >= y1 {
        return false;
    }
    let d = q.sub(p);
    let (mut pos, mut neg) = (false, false);
    for corner in c {
        let o = d.cross(corner.sub(p));
        pos |= o > 0;
        neg |= o < 0;
    }
    pos && neg
}

/// Whether `[p, q]` runs along an edge of the square for a positive length
/// (`grid.segment.classify` "graze"): it lies on one of the square's edge lines and shares a
/// piece of positive length with that edge.
pub(crate) fn grazes(p: Xy, q: Xy, sq: Square) -> bool {
    if p == q {
        return false;
    }
    let c = corners(sq);
    let (x0, y0, x1, y1) = (c[0].x, c[0].y, c[2].x, c[2].y);
    let overlap = |a: i128, b: i128, lo: i128, hi: i128| a.min(b).max(lo) < a.max(b).min(hi);
    (p.y == q.y && (p.y == y0 || p.y == y1) && overlap(p.x, q.x, x0, x1))
        || (p.x == q.x && (p.x == x0 || p.x == x1) && overlap(p.y, q.y, y0, y1))
}

/// Whether `[p, q]` meets the closed square at all (closed separating axes).
pub(crate) fn meets_closed(p: Xy, q: Xy, sq: Square) -> bool {
    let c = corners(sq);
    let (x0, y0, x1, y1) = (c[0].x, c[0].y, c[2].x, c[2].y);
    if p.x.max(q.x) < x0 || p.x.min(q.x) > x1 || p.y.max(q.y) < y0 || p.y.min(q.y) > y1 {
        return false;
    }
    let d = q.sub(p);
    let (mut pos, mut neg) = (false, false);
    for corner in c {
        let o = d.cross(corner.sub(p));
        pos |= o >= 0;
        neg |= o <= 0;
    }
    pos && neg
}

/// How a segment meets a square (`grid.segment.classify`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SquareContact {
    /// A piece of positive length lies inside the open square.
    Interior,
    /// The common part has positive length but lies on the square's border (the segment runs
    /// along one of its edges).
    Graze,
    /// The common part is a single point (a corner, or the segment ends on the border). A
    /// zero-length segment lying in the square also counts as touching it.
    Touch,
    /// No common point.
    Disjoint,
}

/// Classifies the segment `[from, to]` against the closed square `square`
/// (`grid.segment.classify`). Exact; fails only for inputs outside the supported range.
pub fn classify_square(from: Point, to: Point, square: Square) -> Result<SquareContact, OutOfRange> {
    let (p, q) = (Xy::checked(from)?, Xy::checked(to)?);
    square_ok(square)?;
    Ok(if interior(p, q, square) {
        SquareContact::Interior
    } else if grazes(p, q, square) {
        SquareContact::Graze
    } else if meets_closed(p, q, square) {
        SquareContact::Touch
    } else {
        SquareContact::Disjoint
    })
}

/// How a segment meets a thin wall (`grid.segment.classify`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WallContact {
    /// The segment passes from one side of the wall to the other through a point of the wall's
    /// relative interior (both meet at one point, inside both).
    Cross,
    /// Collinear, with a common part of positive length.
    Overlap,
    /// A single common point that is an end point of the wall or of the segment (the segment
    /// stops on the wall without passing through it).
    Touch(Point),
    /// No common point.
    Disjoint,
}

/// Classifies the segment `[from, to]` against the thin wall `[wall_from, wall_to]`
/// (`grid.segment.classify`). Exact orientation tests; walls may be any straight segment.
pub fn classify_wall(
    from: Point,
    to: Point,
    wall_from: Point,
    wall_to: Point,
) -> Result<WallContact, OutOfRange> {
    let (p, q) = (Xy::checked(from)?, Xy::checked(to)?);
    let (a, b) = (Xy::checked(wall_from)?, Xy::checked(wall_to)?);
    Ok(match contact(p, q, a, b) {
        Contact::Cross => WallContact::Cross,
        Contact::Overlap => WallContact::Overlap,
        Contact::WallEnd { at, .. } | Contact::SegEnd(at) => WallContact::Touch(at.point()),
        Contact::Disjoint => WallContact::Disjoint,
    })
}

/// The internal form of [`WallContact`], keeping what the blocking rules need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Contact {
    Cross,
    Overlap,
    /// The single common point `at` is an end point of the wall lying strictly inside the
    /// segment (a rule-4 pinch candidate); `other` is the wall's other end point.
    WallEnd {
        at: Xy,
        other: Xy,
    },
    /// The single common point is an end point of the segment (rule 6 territory).
    SegEnd(Xy),
    Disjoint,
}

/// Exact contact between the segment `[p, q]` and the wall `[a, b]` (points already checked).
pub(crate) fn contact(p: Xy, q: Xy, a: Xy, b: Xy) -> Contact {
    if p == q {
        return if on_segment(a, b, p) { Contact::SegEnd(p) } else { Contact::Disjoint };
    }
    let (d, e) = (q.sub(p), b.sub(a));
    if a == b {
        // A point wall: it can only be touched, and it lies on no side.
        return if a == p || a == q {
            Contact::SegEnd(a)
        } else if on_segment(p, q, a) {
            Contact::WallEnd { at: a, other: a }
        } else {
            Contact::Disjoint
        };
    }
    // The wall's end points against the segment's line first: in the common case (a wall near
    // the line but not touching it) both lie strictly on one side and nothing else is needed.
    let oa = d.cross(a.sub(p));
    let ob = d.cross(b.sub(p));
    if (oa > 0 && ob > 0) || (oa < 0 && ob < 0) {
        return Contact::Disjoint;
    }
    let op = e.cross(p.sub(a));
    let oq = e.cross(q.sub(a));
    if op == 0 && oq == 0 {
        return collinear(p, q, a, b);
    }
    if opposite(op, oq) && opposite(oa, ob) {
        return Contact::Cross;
    }
    // Not collinear, so at most one common point; find which end point it is.
    for (v, other, o) in [(a, b, oa), (b, a, ob)] {
        if o == 0 && between(p, q, v) {
            return if v == p || v == q { Contact::SegEnd(v) } else { Contact::WallEnd { at: v, other } };
        }
    }
    for (v, o) in [(p, op), (q, oq)] {
        if o == 0 && between(a, b, v) {
            return Contact::SegEnd(v);
        }
    }
    Contact::Disjoint
}

/// Whether two values have strictly opposite signs (without multiplying them).
#[inline]
pub(crate) fn opposite(a: i128, b: i128) -> bool {
    (a > 0 && b < 0) || (a < 0 && b > 0)
}

/// Contact of two collinear segments (neither of zero length).
fn collinear(p: Xy, q: Xy, a: Xy, b: Xy) -> Contact {
    let d = q.sub(p);
    // Positions along the segment's direction: p at 0, q at |d|².
    let (pa, pb, pq) = (a.sub(p).dot(d), b.sub(p).dot(d), d.dot(d));
    let lo = pa.min(pb).max(0);
    let hi = pa.max(pb).min(pq);
    match lo.cmp(&hi) {
        std::cmp::Ordering::Less => Contact::Overlap,
        std::cmp::Ordering::Greater => Contact::Disjoint,
        std::cmp::Ordering::Equal => {
            // One common point: an end point of both.
            let at = if lo == 0 {
                p
            } else if lo == pq {
                q
            } else if lo == pa {
                a
            } else {
                b
            };
            if at == p || at == q {
                Contact::SegEnd(at)
            } else {
                let other = if at == a { b } else { a };
                Contact::WallEnd { at, other }
            }
        }
    }
}

/// The common part of `[p, q]` and a collinear wall `[a, b]` overlapping it, as parameters
/// along the segment and exact end points, ordered from `p` to `q`.
pub(crate) fn overlap_run(p: Xy, q: Xy, a: Xy, b: Xy) -> ((Ratio, Xy), (Ratio, Xy)) {
    let d = q.sub(p);
    let (pa, pb, pq) = (a.sub(p).dot(d), b.sub(p).dot(d), d.dot(d));
    let (first, last) = if pa <= pb { ((pa, a), (pb, b)) } else { ((pb, b), (pa, a)) };
    let start = if first.0 >= 0 { first } else { (0, p) };
    let end = if last.0 <= pq { last } else { (pq, q) };
    ((Ratio::new(start.0, pq), start.1), (Ratio::new(end.0, pq), end.1))
}

/// Where an exact point `v` of the segment `[p, q]` lies along it.
pub(crate) fn along(p: Xy, q: Xy, v: Xy) -> Ratio {
    let d = q.sub(p);
    let dd = d.dot(d);
    if dd == 0 { Ratio::ZERO } else { Ratio::new(v.sub(p).dot(d), dd) }
}

/// The square holding a point in the half-open sense (`[x, x+1) × [y, y+1)`).
pub(crate) fn cell_of(v: Xy) -> (i64, i64) {
    ((v.x >> FRAC_BITS) as i64, (v.y >> FRAC_BITS) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: f64, y: f64) -> Point {
        Point { x: crate::grid::Coord::from_f64(x).unwrap(), y: crate::grid::Coord::from_f64(y).unwrap() }
    }

    #[test]
    fn square_cases() {
        let sq = Square::new(3, 2);
        let c = |a: (f64, f64), b: (f64, f64)| classify_square(pt(a.0, a.1), pt(b.0, b.1), sq).unwrap();
        assert_eq!(c((1.0, 2.0), (6.0, 3.0)), SquareContact::Interior);
        assert_eq!(c((1.0, 2.0), (6.0, 2.0)), SquareContact::Graze);
        assert_eq!(c((1.0, 3.0), (6.0, 3.0)), SquareContact::Graze);
        assert_eq!(c((3.0, 0.0), (3.0, 2.5)), SquareContact::Graze);
        assert_eq!(c((2.0, 1.0), (3.0, 2.0)), SquareContact::Touch);
        assert_eq!(c((0.0, 2.5), (3.0, 2.5)), SquareContact::Touch);
        assert_eq!(c((0.0, 0.0), (2.0, 2.0)), SquareContact::Disjoint);
        assert_eq!(c((3.5, 2.5), (3.5, 2.5)), SquareContact::Touch);
        assert_eq!(c((4.0, 1.0), (5.0, 2.0)), SquareContact::Disjoint);
        assert_eq!(c((2.0, 1.0), (5.0, 4.0)), SquareContact::Interior);
    }

    #[test]
    fn wall_cases() {
        let (a, b) = (pt(3.0, 2.0), pt(3.0, 3.0));
        let c = |p: (f64, f64), q: (f64, f64)| classify_wall(pt(p.0, p.1), pt(q.0, q.1), a, b).unwrap();
        assert_eq!(c((1.0, 2.0), (6.0, 3.0)), WallContact::Cross);
        assert_eq!(c((1.0, 2.0), (6.0, 2.0)), WallContact::Touch(a));
        assert_eq!(c((3.0, 1.0), (3.0, 4.0)), WallContact::Overlap);
        assert_eq!(c((3.0, 0.0), (3.0, 2.0)), WallContact::Touch(a));
        assert_eq!(c((1.0, 2.5), (3.0, 2.5)), WallContact::Touch(pt(3.0, 2.5)));
        assert_eq!(c((1.0, 0.0), (6.0, 1.0)), WallContact::Disjoint);
        assert_eq!(c((3.0, 4.0), (3.0, 5.0)), WallContact::Disjoint);
    }

    #[test]
    fn out_of_range_is_an_error() {
        let bad = Point { x: crate::grid::Coord(-1), y: crate::grid::Coord(0) };
        assert_eq!(classify_square(bad, bad, Square::new(0, 0)), Err(OutOfRange));
        assert_eq!(classify_square(pt(0.0, 0.0), pt(1.0, 1.0), Square::new(-1, 0)), Err(OutOfRange));
        let huge = Point { x: crate::grid::Coord(i128::MAX), y: crate::grid::Coord(i128::MIN) };
        assert_eq!(classify_wall(huge, huge, huge, huge), Err(OutOfRange));
    }
}
