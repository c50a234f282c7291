//! Property tests for `grid.line.blocked` (RULES.md §1): agreement with a brute-force oracle on
//! small grids, no panic on any input, monotonicity, symmetry, and wall-splitting invariance.

use std::collections::HashSet;

use arbiter_rules::budget::Budget;
use arbiter_rules::grid::line::{
    AllWalls, Blockers, Endpoint, Grazing, Hit, LineError, NoSquares, Segment, SquareContact, Wall, WallCase,
    WallIndex, WallMeet, classify_square,
};
use arbiter_rules::grid::{Coord, ONE, Point, Square};
use proptest::prelude::*;

/// A point in half squares.
type Half = (i32, i32);

/// A wall in half squares, with its membership in B (`None`: not in B).
type HalfWall = (Half, Half, Option<Grazing>);

/// An end point in half squares, with the square it was taken from.
type HalfEnd = (Half, Option<(i32, i32)>);

/// A scene on a small grid, in half squares so that walls can end mid-square.
#[derive(Debug, Clone)]
struct Case {
    /// Squares of B with their grazing flag (the grid is unbounded for the oracle; the engine
    /// gets the same set through a closure).
    squares: Vec<((i32, i32), Grazing)>,
    /// Walls (half-square coordinates) and whether they are in B.
    walls: Vec<HalfWall>,
    /// End points (half squares) and the square each was taken from.
    from: HalfEnd,
    to: HalfEnd,
}

fn half_point((x2, y2): (i32, i32)) -> Point {
    Point { x: Coord(i128::from(x2) * ONE / 2), y: Coord(i128::from(y2) * ONE / 2) }
}

impl Case {
    fn segment(&self) -> Segment {
        let end = |(p, sq): ((i32, i32), Option<(i32, i32)>)| Endpoint {
            at: half_point(p),
            square: sq.map(|(x, y)| Square::new(x, y)),
        };
        Segment::between(end(self.from), end(self.to))
    }

    /// The engine's verdict, checking that the boolean path and the report agree.
    fn engine(&self) -> Result<bool, LineError> {
        let walls = self.walls.iter().enumerate().map(|(i, &(a, b, _))| Wall {
            id: i as u32,
            from: half_point(a),
            to: half_point(b),
        });
        let index = WallIndex::new(walls, &mut Budget::unlimited())?;
        let squares = |sq: Square| self.squares.iter().find(|(s, _)| *s == (sq.x, sq.y)).map(|&(_, g)| g);
        let filter = |id: u32| self.walls.get(id as usize).and_then(|w| w.2);
        let b = Blockers::new(&squares, &index, filter);
        let seg = self.segment();
        let fast = b.is_blocked(&seg, &mut Budget::unlimited())?;
        let report = b.trace(&seg, &mut Budget::unlimited())?;
        assert_eq!(fast, report.is_blocked(), "fast path and report disagree: {report:?}");
        Ok(fast)
    }

    fn map(&self, f: impl Fn((i32, i32)) -> (i32, i32), sq: impl Fn((i32, i32)) -> (i32, i32)) -> Case {
        Case {
            squares: self.squares.iter().map(|&(s, g)| (sq(s), g)).collect(),
            walls: self.walls.iter().map(|&(a, b, g)| (f(a), f(b), g)).collect(),
            from: (f(self.from.0), self.from.1.map(&sq)),
            to: (f(self.to.0), self.to.1.map(&sq)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The oracle: every square and every wall tested directly, in integers of 2^-21 square, with
// rule 6's infinitesimal replaced by a concrete ε = 2^-20 (an end point moves by one unit
// towards its square's centre). With coordinates that are multiples of half a square on a small
// grid, every term of order ε is far smaller than any non-zero term of lower order, so the
// concrete ε decides exactly as the symbolic one.
// ---------------------------------------------------------------------------------------------

const U: i128 = 1 << 21;

type V = (i128, i128);

fn sub(a: V, b: V) -> V {
    (a.0 - b.0, a.1 - b.1)
}
fn cross(a: V, b: V) -> i128 {
    a.0 * b.1 - a.1 * b.0
}
fn dot(a: V, b: V) -> i128 {
    a.0 * b.0 + a.1 * b.1
}
fn units((x2, y2): (i32, i32)) -> V {
    (i128::from(x2) * U / 2, i128::from(y2) * U / 2)
}
fn on_seg(a: V, b: V, v: V) -> bool {
    cross(sub(b, a), sub(v, a)) == 0
        && a.0.min(b.0) <= v.0
        && v.0 <= a.0.max(b.0)
        && a.1.min(b.1) <= v.1
        && v.1 <= a.1.max(b.1)
}
fn strictly_inside(p: V, q: V, v: V) -> bool {
    v != p && v != q && on_seg(p, q, v)
}
fn proper_cross(p: V, q: V, a: V, b: V) -> bool {
    let (d, e) = (sub(q, p), sub(b, a));
    cross(e, sub(p, a)).signum() * cross(e, sub(q, a)).signum() < 0
        && cross(d, sub(a, p)).signum() * cross(d, sub(b, p)).signum() < 0
}
fn overlap(p: V, q: V, a: V, b: V) -> bool {
    let (d, e) = (sub(q, p), sub(b, a));
    if d == (0, 0) || e == (0, 0) || cross(e, sub(p, a)) != 0 || cross(e, sub(q, a)) != 0 {
        return false;
    }
    let (pa, pb, pq) = (dot(sub(a, p), d), dot(sub(b, p), d), dot(d, d));
    pa.min(pb).max(0) < pa.max(pb).min(pq)
}

/// Exact fraction with positive denominator (small numbers only).
#[derive(Clone, Copy, Debug)]
struct F(i128, i128);
impl F {
    fn new(n: i128, d: i128) -> F {
        if d < 0 { F(-n, -d) } else { F(n, d) }
    }
    fn lt(self, o: F) -> bool {
        self.0 * o.1 < o.0 * self.1
    }
    fn max(self, o: F) -> F {
        if self.lt(o) { o } else { self }
    }
    fn min(self, o: F) -> F {
        if o.lt(self) { o } else { self }
    }
}

/// Rules 1–2 by clipping: `Some(true)` interior, `Some(false)` graze, `None` neither.
fn clip(p: V, q: V, (sx, sy): (i32, i32)) -> Option<bool> {
    let d = sub(q, p);
    let lo = (i128::from(sx) * U, i128::from(sy) * U);
    let hi = (lo.0 + U, lo.1 + U);
    let (mut t0, mut t1) = (F(0, 1), F(1, 1));
    for (pc, dc, l, h) in [(p.0, d.0, lo.0, hi.0), (p.1, d.1, lo.1, hi.1)] {
        if dc == 0 {
            if pc < l || pc > h {
                return None;
            }
        } else {
            let (a, b) = (F::new(l - pc, dc), F::new(h - pc, dc));
            let (a, b) = if a.lt(b) { (a, b) } else { (b, a) };
            t0 = t0.max(a);
            t1 = t1.min(b);
        }
    }
    if !t0.lt(t1) {
        return None;
    }
    // Midpoint of the clipped piece, as (num / den) per axis; strictly inside the open square?
    let (mn, md) = (t0.0 * t1.1 + t1.0 * t0.1, 2 * t0.1 * t1.1);
    let inside = |pc: i128, dc: i128, l: i128, h: i128| {
        let x = pc * md + dc * mn; // coordinate × md
        l * md < x && x < h * md
    };
    Some(inside(p.0, d.0, lo.0, hi.0) && inside(p.1, d.1, lo.1, hi.1))
}

fn oracle(c: &Case) -> bool {
    oracle_with(c, true)
}

/// The oracle with or without rule 7 (`grid.line.along-wall`).
fn oracle_with(c: &Case, rule_7: bool) -> bool {
    let (p, q) = (units(c.from.0), units(c.to.0));
    let d = sub(q, p);
    let in_b = |s: (i32, i32)| c.squares.iter().find(|(x, _)| *x == s).map(|&(_, g)| g);
    let walls: Vec<(V, V, Grazing)> =
        c.walls.iter().filter_map(|&(a, b, g)| g.map(|g| (units(a), units(b), g))).collect();

    // Rules 1–2 (a zero-length segment never has a piece of positive length).
    for &(s, g) in c.squares.iter().filter(|_| d != (0, 0)) {
        match clip(p, q, s) {
            Some(true) => return true,
            Some(false) if g == Grazing::On => return true,
            _ => {}
        }
    }
    // Rule 3: unit edges with both neighbours in B.
    if d != (0, 0) {
        for i in -1..=14 {
            for k in -1..=14 {
                let (x0, y0) = (i128::from(i) * U, i128::from(k) * U);
                let horizontal = d.1 == 0
                    && p.1 == y0
                    && p.0.min(q.0).max(x0) < p.0.max(q.0).min(x0 + U)
                    && in_b((i, k - 1)).is_some()
                    && in_b((i, k)).is_some();
                let vertical = d.0 == 0
                    && p.0 == x0
                    && p.1.min(q.1).max(y0) < p.1.max(q.1).min(y0 + U)
                    && in_b((i - 1, k)).is_some()
                    && in_b((i, k)).is_some();
                if horizontal || vertical {
                    return true;
                }
            }
        }
    }
    // Rule 5 (unmoved).
    for &(a, b, g) in &walls {
        if proper_cross(p, q, a, b) || (g == Grazing::On && overlap(p, q, a, b)) {
            return true;
        }
    }
    // Rule 4 (unmoved): lattice points and wall end points strictly inside the segment.
    let mut points: Vec<V> = Vec::new();
    for x in -1..=14 {
        for y in -1..=14 {
            points.push((i128::from(x) * U, i128::from(y) * U));
        }
    }
    for &(a, b, _) in &walls {
        points.extend([a, b]);
    }
    for &v in &points {
        if !strictly_inside(p, q, v) {
            continue;
        }
        let (mut left, mut right) = (false, false);
        let mut mark = |o: i128| {
            left |= o < 0;
            right |= o > 0;
        };
        for &(s, _) in &c.squares {
            let (x0, y0) = (i128::from(s.0) * U, i128::from(s.1) * U);
            let contains = x0 <= v.0 && v.0 <= x0 + U && y0 <= v.1 && v.1 <= y0 + U;
            if contains && clip(p, q, s) != Some(true) {
                mark(cross(d, sub((x0 + U / 2, y0 + U / 2), p)));
            }
        }
        for &(a, b, _) in &walls {
            if a == v {
                mark(cross(d, sub(b, p)));
            } else if b == v {
                mark(cross(d, sub(a, p)));
            }
        }
        if left && right {
            return true;
        }
    }
    if rule_7 && along_wall(c, p, q, &walls) {
        return true;
    }
    // Rule 6 with a concrete ε.
    let towards = |v: V, sq: Option<(i32, i32)>| {
        sq.map(|(x, y)| {
            let centre = (i128::from(x) * U + U / 2, i128::from(y) * U + U / 2);
            let dd = sub(centre, v);
            (dd.0.signum(), dd.1.signum())
        })
    };
    let (dp, dq) = (towards(p, c.from.1), towards(q, c.to.1));
    let move_p = dp.is_some() && walls.iter().any(|&(a, b, _)| on_seg(a, b, p));
    let move_q = dq.is_some() && walls.iter().any(|&(a, b, _)| on_seg(a, b, q));
    if !(move_p || move_q) {
        return false;
    }
    let moved = |mp: bool, mq: bool| {
        let shift = |v: V, dv: Option<V>, m: bool| match (m, dv) {
            (true, Some(dv)) => (v.0 + dv.0, v.1 + dv.1),
            _ => v,
        };
        (shift(p, dp, mp), shift(q, dq, mq))
    };
    let tested: Vec<(V, V, Grazing, bool, bool)> = walls
        .iter()
        .filter_map(|&(a, b, g)| {
            let (on_p, on_q) = (move_p && on_seg(a, b, p), move_q && on_seg(a, b, q));
            (on_p || on_q || overlap(p, q, a, b)).then_some((a, b, g, on_p, on_q))
        })
        .collect();
    for &(a, b, g, on_p, on_q) in &tested {
        for (mp, mq) in [(on_p, on_q), (move_p, move_q)] {
            let (p1, q1) = moved(mp, mq);
            if proper_cross(p1, q1, a, b) || (g == Grazing::On && overlap(p1, q1, a, b)) {
                return true;
            }
        }
    }
    for (mp, mq) in [(move_p, move_q), (move_p, false), (false, move_q)] {
        let (p1, q1) = moved(mp, mq);
        let d1 = sub(q1, p1);
        for &(a, b, _, _, _) in &tested {
            for v in [a, b] {
                if !strictly_inside(p1, q1, v) {
                    continue;
                }
                let (mut left, mut right) = (false, false);
                for &(a2, b2, _, _, _) in &tested {
                    let other = if a2 == v {
                        b2
                    } else if b2 == v {
                        a2
                    } else {
                        continue;
                    };
                    let o = cross(d1, sub(other, p1));
                    left |= o < 0;
                    right |= o > 0;
                }
                if left && right {
                    return true;
                }
            }
        }
    }
    false
}

/// Rule 7 with a concrete ε: the segment displaced by one unit perpendicular to it, towards the
/// side of its line where its end squares lie, properly crosses a wall of B that meets (touches
/// or crosses) a wall of B the segment runs along.
fn along_wall(c: &Case, p: V, q: V, walls: &[(V, V, Grazing)]) -> bool {
    let d = sub(q, p);
    let runs: Vec<(V, V)> = walls.iter().filter(|w| overlap(p, q, w.0, w.1)).map(|w| (w.0, w.1)).collect();
    if runs.is_empty() {
        return false;
    }
    // The side of a square: the sign its corners take, none when the line cuts it.
    let side = |(x, y): (i32, i32)| {
        let (x0, y0) = (i128::from(x) * U, i128::from(y) * U);
        let signs: Vec<i128> = [(x0, y0), (x0 + U, y0), (x0, y0 + U), (x0 + U, y0 + U)]
            .into_iter()
            .map(|k| cross(d, sub(k, p)).signum())
            .collect();
        let (pos, neg) = (signs.contains(&1), signs.contains(&-1));
        if pos && !neg {
            Some(1)
        } else if neg && !pos {
            Some(-1)
        } else {
            None
        }
    };
    let sigma = match (c.from.1, c.to.1) {
        (Some(a), Some(b)) if side(a).is_some() && side(a) == side(b) => side(a),
        (Some(one), None) | (None, Some(one)) => side(one),
        _ => None,
    };
    let Some(sigma) = sigma else { return false };
    // A perpendicular of the segment's direction in lowest terms: far below half a square.
    let g = gcd(d.0.abs(), d.1.abs()).max(1);
    let n = (-sigma * d.1 / g, sigma * d.0 / g);
    let (p1, q1) = ((p.0 + n.0, p.1 + n.1), (q.0 + n.0, q.1 + n.1));
    let meets = |(a, b): (V, V), (wa, wb): (V, V)| {
        on_seg(wa, wb, a)
            || on_seg(wa, wb, b)
            || on_seg(a, b, wa)
            || on_seg(a, b, wb)
            || proper_cross(a, b, wa, wb)
    };
    walls.iter().any(|&(a, b, _)| proper_cross(p1, q1, a, b) && runs.iter().any(|&w| meets((a, b), w)))
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

// ---------------------------------------------------------------------------------------------
// Strategies.
// ---------------------------------------------------------------------------------------------

const N: i32 = 6;

fn grazing() -> impl Strategy<Value = Grazing> {
    prop_oneof![Just(Grazing::Off), Just(Grazing::On)]
}

/// A wall in half squares: mostly unit edges and longer runs on grid lines (the common case and
/// the degenerate one), sometimes anything between half-square points.
fn wall() -> impl Strategy<Value = HalfWall> {
    let member = prop_oneof![3 => grazing().prop_map(Some), 1 => Just(None)];
    let grid_line = (0..=N, 0..=N, 1..=3i32, any::<bool>()).prop_map(|(x, y, len, horizontal)| {
        let a = (2 * x, 2 * y);
        let b = if horizontal { (2 * (x + len).min(N), 2 * y) } else { (2 * x, 2 * (y + len).min(N)) };
        (a, b)
    });
    let diagonal = (0..N, 0..N, any::<bool>()).prop_map(|(x, y, down)| {
        if down { ((2 * x, 2 * y), (2 * x + 2, 2 * y + 2)) } else { ((2 * x, 2 * y + 2), (2 * x + 2, 2 * y)) }
    });
    let free = ((0..=2 * N, 0..=2 * N), (0..=2 * N, 0..=2 * N));
    (prop_oneof![3 => grid_line, 1 => diagonal, 2 => free], member).prop_map(|((a, b), g)| (a, b, g))
}

/// A lattice end point with, usually, one of the grid squares it is a corner of.
fn endpoint() -> impl Strategy<Value = HalfEnd> {
    (0..=N, 0..=N, 0..4usize, any::<bool>()).prop_map(|(x, y, k, has)| {
        let around: Vec<(i32, i32)> = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
            .into_iter()
            .filter(|&(sx, sy)| (0..N).contains(&sx) && (0..N).contains(&sy))
            .collect();
        let square = if has { around.get(k % around.len().max(1)).copied() } else { None };
        ((2 * x, 2 * y), square)
    })
}

/// A wall through a given point (half squares): along a grid line or a diagonal, so that rule 6
/// and the joints of rule 4 come up often.
fn wall_through(p: Half) -> impl Strategy<Value = HalfWall> {
    (0..3i32, 0..=4i32, 0..=4i32, grazing()).prop_map(move |(dir, back, ahead, g)| {
        let (dx, dy) = [(1, 0), (0, 1), (1, 1)][dir as usize];
        let (b, f) = (back.min(4), ahead.min(4));
        ((p.0 - b * dx, p.1 - b * dy), (p.0 + f * dx, p.1 + f * dy), Some(g))
    })
}

/// A segment along a grid line, a wall running along part of it and walls meeting that line
/// (ending on it, crossing it, or along it): the situations of rule 7 (G9, G10), often.
fn along_case() -> impl Strategy<Value = Case> {
    let member = prop_oneof![3 => grazing().prop_map(Some), 1 => Just(None)];
    let junction = (0..=2 * N, -4..=4i32, -2..=2i32, member.clone());
    (
        (0..=N, 0..=N, 0..=N, any::<bool>()),
        (0..=2 * N, 0..=2 * N, member),
        prop::collection::vec(junction, 1..4),
        (0..6usize, 0..6usize),
        prop::collection::vec(((0..N, 0..N), grazing()), 0..3),
        prop::collection::vec(wall(), 0..2),
    )
        .prop_map(
            |((line, a, b, transpose), (r0, r1, run_member), junctions, (ka, kb), squares, walls)| {
                // Horizontal line y = `line` from x = a to x = b, each end taken from one of the
                // squares around it (or none); transposed half the time.
                let end = |x: i32, k: usize| {
                    let around: Vec<(i32, i32)> =
                        [(x - 1, line - 1), (x, line - 1), (x - 1, line), (x, line)]
                            .into_iter()
                            .filter(|&(sx, sy)| (0..N).contains(&sx) && (0..N).contains(&sy))
                            .collect();
                    (
                        (2 * x, 2 * line),
                        if k < 4 { around.get(k % around.len().max(1)).copied() } else { None },
                    )
                };
                let (from, to) = (end(a, ka), end(b, kb));
                let y = 2 * line;
                let mut all: Vec<HalfWall> = vec![((r0, y), (r1, y), run_member)];
                for (x, up, slant, m) in junctions {
                    // A wall from the line (or through it, when it starts on the other side).
                    let end = ((x + slant).clamp(0, 2 * N), (y + up).clamp(0, 2 * N));
                    let start = if up.abs() > 2 && slant == 0 {
                        (x, (y - up.signum()).clamp(0, 2 * N))
                    } else {
                        (x, y)
                    };
                    all.push((start, end, m));
                }
                all.extend(walls);
                let mut seen = HashSet::new();
                let squares = squares.into_iter().filter(|(s, _)| seen.insert(*s)).collect();
                let c = Case { squares, walls: all, from, to };
                if transpose { c.map(|(x, y)| (y, x), |(x, y)| (y, x)) } else { c }
            },
        )
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![3 => base_case(), 1 => along_case()]
}

fn base_case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec(((0..N, 0..N), grazing()), 0..7),
        prop::collection::vec(wall(), 0..5),
        endpoint(),
        endpoint(),
        (0..8u8, 0..4usize),
    )
        .prop_flat_map(|(squares, walls, from, to, (shape, k))| {
            let mut seen = HashSet::new();
            let squares: Vec<_> = squares.into_iter().filter(|(s, _)| seen.insert(*s)).collect();
            // One case in eight: a zero-length segment, each end taken from its own square
            // around the point (two creatures sharing a corner).
            let to = if shape == 0 {
                let (x, y) = (from.0.0 / 2, from.0.1 / 2);
                let around: Vec<(i32, i32)> = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
                    .into_iter()
                    .filter(|&(sx, sy)| (0..N).contains(&sx) && (0..N).contains(&sy))
                    .collect();
                (from.0, around.get(k % around.len().max(1)).copied())
            } else {
                to
            };
            let extra = prop::collection::vec(prop_oneof![wall_through(from.0), wall_through(to.0)], 0..3);
            (Just(Case { squares, walls, from, to }), extra)
        })
        .prop_map(|(mut c, extra)| {
            // Keep the walls inside the small grid so that mirroring stays in range.
            let clamp = |(x, y): (i32, i32)| (x.clamp(0, 2 * N), y.clamp(0, 2 * N));
            c.walls.extend(extra.into_iter().map(|(a, b, g)| (clamp(a), clamp(b), g)));
            c
        })
}

/// 2,000 cases per property by default (a few seconds in a debug build); set `PROPTEST_CASES`
/// for a deeper run (the properties were checked with 40,000 cases each).
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    /// On a small grid the walk + index agree with testing every square and wall directly.
    #[test]
    fn engine_matches_brute_force(c in case()) {
        prop_assert_eq!(c.engine().unwrap(), oracle(&c), "{:?}", c);
    }

    /// Rule 7 only adds blocking: every segment blocked by rules 1–6 alone (the oracle without
    /// rule 7) is blocked by the engine.
    #[test]
    fn rule_7_only_adds_blocking(c in case()) {
        if oracle_with(&c, false) {
            prop_assert!(c.engine().unwrap(), "{:?}", c);
        }
    }

    /// Adding a square or a wall to B never turns a blocked line into a clear one.
    #[test]
    fn adding_a_blocker_never_clears(c in case(), extra_sq in ((0..N, 0..N), grazing()), extra_wall in wall(), pick in any::<bool>()) {
        if c.engine().unwrap() {
            let mut more = c.clone();
            if pick {
                // A new square, or a square already in B now counting grazing too.
                more.squares.retain(|(s, _)| *s != extra_sq.0);
                let was = c.squares.iter().any(|(s, _)| *s == extra_sq.0);
                more.squares.push((extra_sq.0, if was { Grazing::On } else { extra_sq.1 }));
            } else {
                more.walls.push((extra_wall.0, extra_wall.1, Some(extra_wall.2.unwrap_or(Grazing::Off))));
            }
            prop_assert!(more.engine().unwrap(), "{:?}", more);
        }
    }

    /// Translating by whole squares, mirroring, transposing or reversing the segment keeps
    /// the verdict.
    #[test]
    fn symmetries_keep_the_verdict(c in case(), tx in 0..40i32, ty in 0..40i32) {
        let v = c.engine().unwrap();
        let moved = c.map(|(x, y)| (x + 2 * tx, y + 2 * ty), |(x, y)| (x + tx, y + ty));
        prop_assert_eq!(moved.engine().unwrap(), v, "translated {:?}", moved);
        let w = 2 * N;
        let mirrored = c.map(|(x, y)| (w - x, y), |(x, y)| (N - 1 - x, y));
        prop_assert_eq!(mirrored.engine().unwrap(), v, "mirrored {:?}", mirrored);
        let flipped = c.map(|(x, y)| (x, w - y), |(x, y)| (x, N - 1 - y));
        prop_assert_eq!(flipped.engine().unwrap(), v, "flipped {:?}", flipped);
        let transposed = c.map(|(x, y)| (y, x), |(x, y)| (y, x));
        prop_assert_eq!(transposed.engine().unwrap(), v, "transposed {:?}", transposed);
        let reversed = Case { from: c.to, to: c.from, ..c.clone() };
        prop_assert_eq!(reversed.engine().unwrap(), v, "reversed {:?}", reversed);
    }

    /// A straight wall cut into collinear pieces blocks exactly as the wall in one piece.
    #[test]
    fn split_walls_block_as_one(c in case(), which in any::<prop::sample::Index>(), cuts in prop::collection::btree_set(1..8i32, 1..4)) {
        if c.walls.is_empty() {
            return Ok(());
        }
        let chosen = which.index(c.walls.len());
        let Some(&(a, b, Some(_))) = c.walls.get(chosen) else { return Ok(()) };
        if a == b {
            return Ok(());
        }
        // Cut points at eighths of the wall, in sixteenths of a square (exact fixed point).
        let whole = c.engine().unwrap();
        let walls: Vec<Wall> = {
            let at = |k: i32| {
                let (x, y) = (i128::from(a.0) * 8 + i128::from(b.0 - a.0) * i128::from(k), i128::from(a.1) * 8 + i128::from(b.1 - a.1) * i128::from(k));
                Point { x: Coord(x * ONE / 16), y: Coord(y * ONE / 16) }
            };
            let mut ks = vec![0];
            ks.extend(cuts.iter().copied());
            ks.push(8);
            let id = chosen as u32;
            let mut pieces: Vec<Wall> = ks.windows(2).map(|k| Wall { id, from: at(k[0]), to: at(k[1]) }).collect();
            for (i, &(wa, wb, _)) in c.walls.iter().enumerate().filter(|&(i, _)| i != chosen) {
                pieces.push(Wall { id: i as u32, from: half_point(wa), to: half_point(wb) });
            }
            pieces
        };
        let index = WallIndex::new(walls, &mut Budget::unlimited()).unwrap();
        let squares = |sq: Square| c.squares.iter().find(|(s, _)| *s == (sq.x, sq.y)).map(|&(_, gr)| gr);
        let filter = |id: u32| c.walls.get(id as usize).and_then(|w| w.2);
        let blockers = Blockers::new(&squares, &index, filter);
        let split = blockers.is_blocked(&c.segment(), &mut Budget::unlimited()).unwrap();
        prop_assert_eq!(split, whole, "{:?} cut at {:?}", c, cuts);
    }

    /// Arbitrary segments, walls and blockers anywhere in [0, 1000] squares: never a panic,
    /// and both paths agree.
    #[test]
    fn no_panic_anywhere(
        raw in prop::collection::vec(0..=1000i128 * ONE, 4),
        walls in prop::collection::vec(prop::collection::vec(prop_oneof![0..=1000i128 * ONE, (0..=1000i128).prop_map(|v| v * ONE), (0..=2000i128).prop_map(|v| v * ONE / 2)], 4), 0..30),
        snap in any::<bool>(),
        origin in any::<(bool, bool)>(),
        modulus in 2..9i32,
        graze in grazing(),
    ) {
        let pt = |x: i128, y: i128| if snap { Point { x: Coord(x & !(ONE - 1)), y: Coord(y & !(ONE - 1)) } } else { Point { x: Coord(x), y: Coord(y) } };
        let (p, q) = (pt(raw[0], raw[1]), pt(raw[2], raw[3]));
        let cell = |p: Point| Square::new(p.x.floor().min(1023) as i32, p.y.floor().min(1023) as i32);
        let seg = Segment::between(
            Endpoint { at: p, square: origin.0.then(|| cell(p)) },
            Endpoint { at: q, square: origin.1.then(|| cell(q)) },
        );
        let walls: Vec<Wall> = walls.iter().enumerate().map(|(i, w)| Wall { id: i as u32, from: Point { x: Coord(w[0]), y: Coord(w[1]) }, to: Point { x: Coord(w[2]), y: Coord(w[3]) } }).collect();
        let index = WallIndex::new(walls, &mut Budget::unlimited()).unwrap();
        let squares = move |sq: Square| ((sq.x * 7 + sq.y * 13).rem_euclid(modulus) == 0).then_some(graze);
        let b = Blockers::new(&squares, &index, |id: u32| (!id.is_multiple_of(3)).then_some(Grazing::Off));
        let fast = b.is_blocked(&seg, &mut Budget::unlimited()).unwrap();
        let report = b.trace(&seg, &mut Budget::unlimited()).unwrap();
        prop_assert_eq!(fast, report.is_blocked());
        // A small budget fails cleanly or answers the same.
        match b.is_blocked(&seg, &mut Budget::new(50)) {
            Ok(v) => prop_assert_eq!(v, fast),
            Err(e) => prop_assert!(matches!(e, LineError::Budget(_))),
        }
    }

    /// The squares reported around a crossing point are exactly those whose closed region
    /// holds it: each meets both the segment and the wall, and a point off the grid lines has
    /// one square, on one line two, on a lattice point four.
    #[test]
    fn crossing_squares_hold_the_crossing(raw in prop::collection::vec(prop_oneof![0..=200i128 * ONE, (0..=400i128).prop_map(|v| v * ONE / 2)], 8)) {
        let pt = |i: usize| Point { x: Coord(raw[i]), y: Coord(raw[i + 1]) };
        let index = WallIndex::new([Wall { id: 0, from: pt(4), to: pt(6) }], &mut Budget::unlimited()).unwrap();
        let b = Blockers::new(&NoSquares, &index, AllWalls(Grazing::Off));
        let report = b.trace(&Segment::new(pt(0), pt(2)), &mut Budget::unlimited()).unwrap();
        for hit in &report.hits {
            if let Hit::Wall { case: WallCase::Cross, meet: WallMeet::At(m), .. } = hit {
                let span = m.squares;
                let n = (span.max.x - span.min.x + 1) * (span.max.y - span.min.y + 1);
                prop_assert!(matches!(n, 1 | 2 | 4), "{:?}", m);
                for sq in span.squares().filter(|s| s.x >= 0 && s.y >= 0) {
                    prop_assert_ne!(classify_square(pt(0), pt(2), sq).unwrap(), SquareContact::Disjoint, "{:?} {:?}", sq, m);
                    prop_assert_ne!(classify_square(pt(4), pt(6), sq).unwrap(), SquareContact::Disjoint, "{:?} {:?}", sq, m);
                }
                let (x, y) = m.approx;
                prop_assert!(x >= f64::from(span.min.x) - 1e-9 && x <= f64::from(span.max.x + 1) + 1e-9);
                prop_assert!(y >= f64::from(span.min.y) - 1e-9 && y <= f64::from(span.max.y + 1) + 1e-9);
            }
        }
    }

    /// Inputs outside the supported range are refused, never answered and never a panic.
    #[test]
    fn out_of_range_is_refused(x in any::<i128>(), y in any::<i128>(), sx in any::<i32>(), sy in any::<i32>()) {
        let p = Point { x: Coord(x), y: Coord(y) };
        let q = Point::lattice(3, 3);
        let index = WallIndex::empty();
        let squares = |_: Square| Some(Grazing::On);
        let b = Blockers::new(&squares, &index, |_: u32| None);
        let seg = Segment::between(Endpoint { at: p, square: Some(Square::new(sx, sy)) }, Endpoint::point(q));
        let in_range = (0..=1024 * ONE).contains(&x) && (0..=1024 * ONE).contains(&y);
        match b.is_blocked(&seg, &mut Budget::unlimited()) {
            Ok(_) => prop_assert!(in_range),
            Err(e) => prop_assert_eq!(e, LineError::OutOfRange),
        }
        let _ = WallIndex::new([Wall { id: 0, from: p, to: q }], &mut Budget::unlimited());
        let _ = arbiter_rules::grid::line::classify_square(p, q, Square::new(sx, sy));
        let _ = arbiter_rules::grid::line::classify_wall(p, q, q, p);
    }
}
