//! The walk behind [`Blockers::is_blocked`] and [`Blockers::trace`]: rules 1–7 of
//! `grid.line.blocked` for one segment.
//!
//! The segment walks the half-open squares it meets ([`Walk`]). In each square it checks
//! rule 1 (or rules 2–3 when it lies on a grid line) and rule 4 at the square's north-west
//! corner if the segment passes through it. On entering a wall bucket it tests the walls filed
//! there: rules 5 and 6, and rule 4 at wall end points (all walls ending at a point are filed
//! under the bucket holding that point, so a pinch point is judged once, with every element
//! touching it, when its bucket is entered; lattice points judged there are skipped later).
//! Rule 7 is judged in the bucket holding the junction: the wall run along and the wall crossed
//! by the displaced segment both contain that point, so both are filed there.

use std::ops::{ControlFlow, RangeInclusive};

use super::blockers::{Blockers, Grazing, SquareBlockers, WallBlockers};
use super::geom::{
    Contact, OutOfRange, Xy, between, cell_of, contact, corners, interior, on_segment, overlap_run, square_ok,
};
use super::moved::Moved;
use super::report::{Element, Hit, Meeting, Pinch, Side, SquareCase, SquareSpan, WallCase, WallMeet};
use super::segment::{LineError, Segment};
use super::walk::{Cursor, ExactCursor, LatticeCursor};
use super::wide::{I256, Ratio};
use crate::budget::Budget;
use crate::grid::{FRAC_BITS, ONE, Square};

type Flow = ControlFlow<()>;

/// Where hits go: the boolean path stops at the first, the report keeps them all.
pub(crate) trait Sink {
    /// Records a hit, built only if needed. `wall` is the internal wall position for wall hits
    /// (a wall filed under several buckets is met several times; it is reported once).
    fn hit(&mut self, wall: Option<u32>, make: impl FnOnce() -> Hit) -> Flow;
}

/// Stops at the first hit.
pub(crate) struct FirstHit;

impl Sink for FirstHit {
    fn hit(&mut self, _: Option<u32>, _: impl FnOnce() -> Hit) -> Flow {
        ControlFlow::Break(())
    }
}

/// Stops at the first hit, keeping it.
#[derive(Default)]
pub(crate) struct KeepFirst(pub(crate) Option<Hit>);

impl Sink for KeepFirst {
    fn hit(&mut self, _: Option<u32>, make: impl FnOnce() -> Hit) -> Flow {
        self.0 = Some(make());
        ControlFlow::Break(())
    }
}

/// Keeps every hit, each wall once.
#[derive(Default)]
pub(crate) struct AllHits {
    hits: Vec<Hit>,
    /// (wall, position of its hit) for every wall hit kept so far.
    walls: Vec<(u32, usize)>,
}

/// Up to this many wall hits, a repeated wall is recognised by a linear scan before its hit is
/// built; beyond it, repeats are removed once at the end (sorting), so that no line costs a
/// quadratic number of steps.
const SCAN_LIMIT: usize = 16;

impl Sink for AllHits {
    fn hit(&mut self, wall: Option<u32>, make: impl FnOnce() -> Hit) -> Flow {
        if let Some(w) = wall {
            if self.walls.len() <= SCAN_LIMIT && self.walls.iter().any(|&(seen, _)| seen == w) {
                return ControlFlow::Continue(());
            }
            self.walls.push((w, self.hits.len()));
        }
        self.hits.push(make());
        ControlFlow::Continue(())
    }
}

impl AllHits {
    /// The hits, each wall once (its first hit along the walk).
    pub(crate) fn finish(mut self) -> Vec<Hit> {
        if self.walls.len() <= SCAN_LIMIT {
            return self.hits;
        }
        self.walls.sort_unstable();
        let mut keep = vec![true; self.hits.len()];
        for pair in self.walls.windows(2) {
            if let [(a, _), (b, later)] = pair
                && a == b
                && let Some(k) = keep.get_mut(*later)
            {
                *k = false;
            }
        }
        let mut flags = keep.into_iter();
        self.hits.retain(|_| flags.next().unwrap_or(true));
        self.hits
    }
}

macro_rules! emit {
    ($sink:expr, $wall:expr, $make:expr) => {
        if $sink.hit($wall, $make).is_break() {
            return Ok(ControlFlow::Break(()));
        }
    };
}

/// A segment lying on a grid line, where rules 2–3 replace rule 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Axis {
    Horizontal,
    Vertical,
    Neither,
}

/// One test in progress.
struct Ctx<'c, 'a, S: ?Sized, W> {
    b: &'c Blockers<'a, S, W>,
    p: Xy,
    q: Xy,
    d: Xy,
    /// Vector from each end point to the centre of its square (rule 6), if it has one.
    cp: Option<Xy>,
    cq: Option<Xy>,
    /// The squares the end points were taken from (rule 7 needs their side of a wall line).
    sq_p: Option<Square>,
    sq_q: Option<Square>,
    /// Whether each end point moves: it has a square and lies on a wall of B.
    move_p: bool,
    move_q: bool,
    axis: Axis,
    /// For a segment on a grid line (`axis` is not `Neither`), where it lies along that line.
    along: Option<Along>,
}

/// Positions along the grid line a segment lies on (columns of a horizontal segment, rows of a
/// vertical one), worked out once so that each square of the walk only compares integers.
struct Along {
    /// The unit edges `[c, c + 1]` the segment runs along for a positive length.
    edges: RangeInclusive<i64>,
    /// The lattice points `c` strictly inside the segment.
    points: RangeInclusive<i64>,
}

/// Checks an end point and returns the vector to its square's centre.
fn towards_centre(v: Xy, square: Option<Square>) -> Result<Option<Xy>, LineError> {
    let Some(sq) = square else { return Ok(None) };
    square_ok(sq)?;
    let [nw, _, se, _] = corners(sq);
    if v.x < nw.x || v.x > se.x || v.y < nw.y || v.y > se.y {
        return Err(OutOfRange.into());
    }
    let centre = Xy { x: nw.x + ONE / 2, y: nw.y + ONE / 2 };
    Ok(Some(centre.sub(v)))
}

/// Squares a line crosses per work unit (the walk's step and the per-square blocker lookup
/// are the cheapest work of the crate: the unit is two of them).
pub(crate) const SQUARES_PER_UNIT: u64 = 2;

/// Work units charged per line before its first square.
pub(crate) const LINE_SETUP: u64 = 2;

/// Work units charged per wall a line is tested against.
pub(crate) const WALL_TEST: u64 = 1;

/// Runs the test, feeding hits to `sink`; `Break` when the sink asked to stop.
pub(crate) fn run<S: SquareBlockers + ?Sized, W: WallBlockers, K: Sink>(
    b: &Blockers<'_, S, W>,
    seg: &Segment,
    budget: &mut Budget,
    sink: &mut K,
) -> Result<Flow, LineError> {
    // A line's set-up (end points, rule 6 tests, the walk) costs about as much as crossing a
    // few squares, however short the line.
    budget.spend(LINE_SETUP)?;
    let (p, q) = (Xy::checked(seg.from.at)?, Xy::checked(seg.to.at)?);
    let (cp, cq) = (towards_centre(p, seg.from.square)?, towards_centre(q, seg.to.square)?);
    let d = q.sub(p);
    let on_grid_line = |v: i128| v & (ONE - 1) == 0;
    let axis = if d.is_zero() {
        Axis::Neither
    } else if d.y == 0 && on_grid_line(p.y) {
        Axis::Horizontal
    } else if d.x == 0 && on_grid_line(p.x) {
        Axis::Vertical
    } else {
        Axis::Neither
    };
    // Along a grid line, edge `c` is `[c, c + 1]` and lattice point `c` is `c` (in squares):
    // the edge meets `[lo, hi]` for a positive length iff `c < hi` and `c + 1 > lo`, and the
    // point lies strictly inside iff `lo < c < hi` (`lo < hi` here).
    let along = match axis {
        Axis::Neither => None,
        Axis::Horizontal | Axis::Vertical => {
            let (a, b) = if axis == Axis::Horizontal { (p.x, q.x) } else { (p.y, q.y) };
            let (lo, hi) = (a.min(b), a.max(b));
            // In range: both lie in [0, 1024] squares, and hi > lo ≥ 0.
            let (floor_lo, last) = ((lo >> FRAC_BITS) as i64, ((hi - 1) >> FRAC_BITS) as i64);
            Some(Along { edges: floor_lo..=last, points: floor_lo + 1..=last })
        }
    };
    let (sq_p, sq_q) = (seg.from.square, seg.to.square);
    let mut ctx = Ctx { b, p, q, d, cp, cq, sq_p, sq_q, move_p: false, move_q: false, axis, along };
    // Rule 6: an end point moves iff it has a square and lies on some wall of B.
    ctx.move_p = cp.is_some() && ctx.on_some_wall(p, budget)?;
    ctx.move_q = cq.is_some() && ctx.on_some_wall(q, budget)?;

    // Corner-to-corner lines (most of them) walk in whole squares with 64-bit arithmetic.
    match LatticeCursor::new(p, q) {
        Some(cursor) => ctx.walk(cursor, budget, sink),
        None => ctx.walk(ExactCursor::new(p, q), budget, sink),
    }
}

impl<S: SquareBlockers + ?Sized, W: WallBlockers> Ctx<'_, '_, S, W> {
    /// Walks the squares of the segment, testing each square and each wall bucket entered.
    fn walk<C: Cursor, K: Sink>(
        &self,
        mut cursor: C,
        budget: &mut Budget,
        sink: &mut K,
    ) -> Result<Flow, LineError> {
        let mut resolved: Vec<Xy> = Vec::new();
        let index = self.b.walls;
        let log_k = index.log_k();
        // The bucket coordinates last entered (none yet: cells are never negative).
        let mut bucket_at: (i64, i64) = (-1, -1);
        let has_walls = !index.is_empty();
        // Squares are charged to the budget in small batches (at most 32 squares late), and
        // what is still owed is paid however the walk ends.
        let mut unpaid: u64 = 0;
        let flow = 'walk: loop {
            let (cx, cy) = cursor.cell();
            unpaid += 1;
            if unpaid == 32 {
                budget.spend(32 / SQUARES_PER_UNIT)?;
                unpaid = 0;
            }
            let bucket_here = (cx >> log_k, cy >> log_k);
            if has_walls && bucket_at != bucket_here {
                bucket_at = bucket_here;
                resolved.clear();
                // Cells come from in-range points, so they fit in i32 (at most 1025).
                if self.b.squares.may_hold_walls(Square::new(cx as i32, cy as i32))
                    && let Some(bi) = index.walled_bucket(bucket_here.0, bucket_here.1)
                    && self.bucket(bi, budget, sink, &mut resolved)?.is_break()
                {
                    break 'walk ControlFlow::Break(());
                }
            }
            if self.cell(cx, cy, cursor.through_corner(), sink, &resolved)?.is_break() {
                break 'walk ControlFlow::Break(());
            }
            if !cursor.step() {
                break 'walk ControlFlow::Continue(());
            }
        };
        budget.spend(unpaid.div_ceil(SQUARES_PER_UNIT))?;
        Ok(flow)
    }

    /// Whether `v` lies on a wall of B.
    fn on_some_wall(&self, v: Xy, budget: &mut Budget) -> Result<bool, LineError> {
        let (cx, cy) = cell_of(v);
        let index = self.b.walls;
        for &wi in index.bucket(index.bucket_of_cell(cx, cy)) {
            budget.spend(1)?;
            // Geometry first: few walls of a bucket pass through the point.
            if let Some((a, b)) = index.ends_of(wi)
                && on_segment(a, b, v)
                && self.b.wall_filter.wall(index.id_of(wi)).is_some()
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn square_in_b(&self, x: i64, y: i64) -> Option<(Square, Grazing)> {
        // Cells come from in-range points, so they fit in i32 (at most 1025).
        let sq = Square::new(x as i32, y as i32);
        self.b.squares.square(sq).map(|g| (sq, g))
    }

    /// The squares on both sides of the segment at position `at` along its grid line, for the
    /// walk at cell `(cx, cy)` (the other coordinate is the line's).
    #[inline]
    fn sides_at(&self, cx: i64, cy: i64, at: i64) -> [Square; 2] {
        // Cells come from in-range points, so they fit in i32 (at most 1025).
        let sq = |x: i64, y: i64| Square::new(x as i32, y as i32);
        if self.axis == Axis::Horizontal {
            [sq(at, cy - 1), sq(at, cy)]
        } else {
            [sq(cx - 1, at), sq(cx, at)]
        }
    }

    /// Rules 1–3 for one square of the walk, and rule 4 at its north-west corner. Inlined into
    /// the walk for the common case (a square not in B, no corner on the line); the rest is
    /// kept out of the loop.
    #[inline(always)]
    fn cell<K: Sink>(
        &self,
        cx: i64,
        cy: i64,
        on_line: bool,
        sink: &mut K,
        resolved: &[Xy],
    ) -> Result<Flow, LineError> {
        if let Some(along) = &self.along {
            return self.cell_on_grid_line(along, cx, cy, sink, resolved);
        }
        let in_b = self.square_in_b(cx, cy);
        if in_b.is_none() && !on_line {
            return Ok(ControlFlow::Continue(()));
        }
        self.cell_met(cx, cy, in_b, on_line, sink, resolved)
    }

    /// [`Ctx::cell`] for a square in B or a corner on the line.
    #[inline(never)]
    fn cell_met<K: Sink>(
        &self,
        cx: i64,
        cy: i64,
        in_b: Option<(Square, Grazing)>,
        on_line: bool,
        sink: &mut K,
        resolved: &[Xy],
    ) -> Result<Flow, LineError> {
        if let Some((sq, _)) = in_b
            && interior(self.p, self.q, sq)
        {
            emit!(sink, None, || Hit::Square { square: sq, case: SquareCase::Interior });
        }
        if !on_line {
            return Ok(ControlFlow::Continue(()));
        }
        let v = Xy::lattice(cx, cy);
        if v != self.p && v != self.q && between(self.p, self.q, v) && !resolved.contains(&v) {
            return self.pinch(v, &[], sink);
        }
        Ok(ControlFlow::Continue(()))
    }

    /// [`Ctx::cell`] for a segment lying on a grid line: rules 2–3 replace rule 1, and every
    /// lattice point strictly inside the segment is the north-west corner of a square of the
    /// walk. Inlined: every square of such a segment comes here.
    #[inline(always)]
    fn cell_on_grid_line<K: Sink>(
        &self,
        along: &Along,
        cx: i64,
        cy: i64,
        sink: &mut K,
        resolved: &[Xy],
    ) -> Result<Flow, LineError> {
        let at = if self.axis == Axis::Horizontal { cx } else { cy };
        // The unit edge of this square on the line, if the segment runs along it for a
        // positive length, has a neighbour on each side.
        let edge = along.edges.contains(&at);
        let point = along.points.contains(&at);
        if !edge && !point {
            return Ok(ControlFlow::Continue(()));
        }
        let squares = self.sides_at(cx, cy, at);
        let here = [self.b.squares.square(squares[0]), self.b.squares.square(squares[1])];
        if edge {
            for (sq, g) in squares.into_iter().zip(here) {
                if g == Some(Grazing::On) {
                    emit!(sink, None, || Hit::Square { square: sq, case: SquareCase::Graze });
                }
            }
            if here[0].is_some() && here[1].is_some() {
                emit!(sink, None, || Hit::Seam { squares });
            }
        }
        if point {
            let v = Xy::lattice(cx, cy);
            if resolved.contains(&v) {
                return Ok(ControlFlow::Continue(()));
            }
            // The four squares touching v are the neighbours of the edges on both sides of it,
            // each strictly on its side of the line: rule 4 needs one in B on each side (the
            // walls ending at v were judged with their bucket, which resolved v).
            let before = self.sides_at(cx, cy, at - 1);
            let side = |i: usize| here[i].is_some() || self.b.squares.square(before[i]).is_some();
            if side(0) && side(1) {
                return self.pinch(v, &[], sink);
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// The side of a square touching a point `v` of the segment: `None` when the segment
    /// enters it (then the square is not strictly on one side).
    fn square_side(&self, sq: Square) -> Option<Side> {
        let (mut pos, mut neg) = (false, false);
        for c in corners(sq) {
            let o = self.d.cross(c.sub(self.p));
            pos |= o > 0;
            neg |= o < 0;
        }
        match (pos, neg) {
            (true, false) => Some(Side::Right),
            (false, true) => Some(Side::Left),
            _ => None,
        }
    }

    /// Rule 4 at `v` (strictly inside the segment), with the walls of B ending at `v` and their
    /// sides, plus the squares of B whose closed region contains `v`.
    fn pinch<K: Sink>(&self, v: Xy, walls: &[(u32, Side)], sink: &mut K) -> Result<Flow, LineError> {
        let span = SquareSpan::around(v.point());
        let mut squares: Vec<(Square, Side)> = Vec::new();
        let (mut left, mut right) = (false, false);
        for &(_, side) in walls {
            left |= side == Side::Left;
            right |= side == Side::Right;
        }
        for sq in span.squares() {
            if self.b.squares.square(sq).is_some()
                && let Some(side) = self.square_side(sq)
            {
                left |= side == Side::Left;
                right |= side == Side::Right;
                squares.push((sq, side));
            }
        }
        if left && right {
            let elements = squares
                .iter()
                .map(|&(sq, side)| (Element::Square(sq), side))
                .chain(walls.iter().map(|&(id, side)| (Element::Wall(id), side)));
            let (l, r) = split(elements);
            let at = Meeting::exact(self.p, self.q, v);
            emit!(sink, None, || Hit::Pinch(Pinch { at, left: l, right: r, moved_end: false }));
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Rules 4–6 for the walls filed under one bucket. Kept out of the walk's loop: most
    /// buckets a line enters hold no wall, and the loop runs faster without this body inlined.
    #[inline(never)]
    fn bucket<K: Sink>(
        &self,
        bi: usize,
        budget: &mut Budget,
        sink: &mut K,
        resolved: &mut Vec<Xy>,
    ) -> Result<Flow, LineError> {
        let index = self.b.walls;
        let items = index.bucket(Some(bi));
        if items.is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        let (p, q) = (self.p, self.q);
        let any_move = self.move_p || self.move_q;
        // Rule 4 candidates: wall end points strictly inside the segment, in this bucket.
        let mut candidates: Vec<(Xy, u32, Side)> = Vec::new();
        // Walls tested with moved end points (rule 6), for rule 4 on the moved segment.
        let mut moved_walls: Vec<(u32, Xy, Xy)> = Vec::new();
        // Rule 7 needs a wall of B the segment runs along (rare: nothing is collected before).
        let mut runs_along = false;
        for &wi in items {
            // Exact wall geometry (i128 cross products, rule 4 and 6 candidates).
            budget.spend(WALL_TEST)?;
            let id = index.id_of(wi);
            let (Some(g), Some((a, b))) = (self.b.wall_filter.wall(id), index.ends_of(wi)) else {
                continue;
            };
            let on_p = self.move_p && on_segment(a, b, p);
            let on_q = self.move_q && on_segment(a, b, q);
            let c = contact(p, q, a, b);
            runs_along |= c == Contact::Overlap;
            // Rule 6 tests the walls through a moved end point with the moved segment. Walls
            // lying along the segment join them: when the segment runs along a wall line and
            // its moved ends fall on opposite sides, the moved segment crosses that line
            // between them, and which piece it crosses there must not depend on how the wall
            // was cut (RULES.md Q-40, G8).
            if on_p || on_q || (any_move && c == Contact::Overlap) {
                moved_walls.push((id, a, b));
                if let Some((case, meet)) = self.moved_verdict(a, b, g, on_p, on_q) {
                    emit!(sink, Some(wi), || Hit::Wall { id, case, meet });
                }
                continue;
            }
            match c {
                Contact::Cross => {
                    emit!(sink, Some(wi), || Hit::Wall {
                        id,
                        case: WallCase::Cross,
                        meet: WallMeet::At(crossing(p, q, a, b)),
                    });
                }
                Contact::Overlap if g == Grazing::On => {
                    emit!(sink, Some(wi), || Hit::Wall {
                        id,
                        case: WallCase::Overlap,
                        meet: self.run_along(a, b)
                    });
                }
                Contact::WallEnd { at, other } if index.point_in_bucket(at, bi) => {
                    if let Some(side) = Side::of(self.d.cross(other.sub(p))) {
                        candidates.push((at, id, side));
                    }
                }
                _ => {}
            }
        }
        if runs_along && self.along_wall(bi, budget, sink)?.is_break() {
            return Ok(ControlFlow::Break(()));
        }
        if candidates.is_empty() && moved_walls.is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        // Rule 4 at wall end points, each point once with every element touching it.
        candidates.sort_unstable_by_key(|c| c.0);
        let mut rest = candidates.as_slice();
        while let Some(&(v, _, _)) = rest.first() {
            let n = rest.iter().take_while(|c| c.0 == v).count();
            let (group, tail) = rest.split_at(n);
            rest = tail;
            let walls: Vec<(u32, Side)> = group.iter().map(|&(_, id, side)| (id, side)).collect();
            resolved.push(v);
            if self.pinch(v, &walls, sink)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        // Rule 6 with rule 4: the moved segment passing through an end point of the walls it
        // is tested against, with such walls on both sides.
        let mut points: Vec<Xy> = moved_walls.iter().flat_map(|&(_, a, b)| [a, b]).collect();
        points.retain(|&v| index.point_in_bucket(v, bi));
        points.sort_unstable();
        points.dedup();
        for v in points {
            if self.moved_pinch(v, &moved_walls, sink)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Rule 7 for the walls of one bucket, where the segment runs along some wall of B: the
    /// run walls (all on the segment's line) and the junction walls (walls of B meeting the
    /// segment at one point without crossing it; one that crosses it blocks by rule 5 alone).
    /// A junction wall blocks when the segment displaced towards its end squares' side crosses
    /// it and it meets a run wall (at a point of the segment, then). Each junction is judged in
    /// the bucket holding it, where every wall through it is filed.
    #[inline(never)]
    fn along_wall<K: Sink>(&self, bi: usize, budget: &mut Budget, sink: &mut K) -> Result<Flow, LineError> {
        let Some(n) = self.displacement() else { return Ok(ControlFlow::Continue(())) };
        let index = self.b.walls;
        let (mut runs, mut junctions) = (Vec::new(), Vec::new());
        for &wi in index.bucket(Some(bi)) {
            // The contact again, for this rare bucket only.
            budget.spend(WALL_TEST)?;
            let id = index.id_of(wi);
            let (Some(_), Some((a, b))) = (self.b.wall_filter.wall(id), index.ends_of(wi)) else {
                continue;
            };
            match contact(self.p, self.q, a, b) {
                Contact::Overlap => runs.push((id, a, b)),
                Contact::WallEnd { .. } | Contact::SegEnd(_) => junctions.push((id, a, b)),
                Contact::Cross | Contact::Disjoint => {}
            }
        }
        let displaced = Moved { p: self.p, dp: n, q: self.q, dq: n };
        for &(id, a, b) in &junctions {
            // A crossing test with the displaced segment, and one meeting test per run wall.
            budget.spend(WALL_TEST.saturating_mul(1 + runs.len() as u64))?;
            if !displaced.crosses(a, b) {
                continue;
            }
            let along: Vec<u32> =
                runs.iter().filter(|&&(_, wa, wb)| segments_meet(a, b, wa, wb)).map(|r| r.0).collect();
            if along.is_empty() {
                continue;
            }
            // The displaced segment crosses the wall next to where the wall meets the
            // segment's line (it is not parallel to it, being crossed): usually its end point.
            let on_line = |v: Xy| self.d.cross(v.sub(self.p)) == 0;
            let at = match [a, b].into_iter().find(|&v| on_line(v)) {
                Some(end) => Meeting::exact(self.p, self.q, end),
                None => crossing(self.p, self.q, a, b),
            };
            let cell = (i64::from(at.squares.max.x), i64::from(at.squares.max.y));
            if self.b.walls.bucket_of_cell(cell.0, cell.1) != Some(bi) {
                continue;
            }
            emit!(sink, None, || Hit::AlongWall { wall: id, along, at });
        }
        Ok(ControlFlow::Continue(()))
    }

    /// The infinitesimal displacement of rule 7: perpendicular to the segment, towards the side
    /// of its line where the squares of its end points lie (the one square when only one end
    /// point has a square). `None` when a square is cut by the line, the two lie on opposite
    /// sides (rule 6 decides), or neither end point has a square.
    fn displacement(&self) -> Option<Xy> {
        // Right of the direction of travel is the positive side of `d × (v − p)`.
        let side = |sq: Square| self.square_side(sq).map(|s| if s == Side::Right { 1 } else { -1 });
        let sigma: i128 = match (self.sq_p, self.sq_q) {
            (Some(a), Some(b)) => side(a).filter(|&s| side(b) == Some(s))?,
            (Some(one), None) | (None, Some(one)) => side(one)?,
            (None, None) => return None,
        };
        // d × n = σ·|d|², so p + ε·n lies on side σ. Components below 2^62 in magnitude.
        Some(Xy { x: -sigma * self.d.y, y: sigma * self.d.x })
    }

    /// The piece of the segment run along a collinear wall.
    fn run_along(&self, a: Xy, b: Xy) -> WallMeet {
        let ((_, s), (_, e)) = overlap_run(self.p, self.q, a, b);
        WallMeet::Along(Meeting::exact(self.p, self.q, s), Meeting::exact(self.p, self.q, e))
    }

    /// The moved segments rule 6 tests a wall through a moved end point against: with the end
    /// points lying on this wall moved, and with every end point lying on a wall of B moved (the
    /// literal rule). Taking either, and keeping the unmoved overlap, makes sure that adding a
    /// wall never removes blocking and that rule 6 only adds blocking, as RULES.md states.
    fn options(&self, own_p: bool, own_q: bool) -> impl Iterator<Item = Moved> + '_ {
        let zero = Xy::default();
        let own = (own_p, own_q);
        let all = (self.move_p, self.move_q);
        let second = if all == own { None } else { Some(all) };
        std::iter::once(own).chain(second).map(move |(mp, mq)| Moved {
            p: self.p,
            dp: if mp { self.cp.unwrap_or(zero) } else { zero },
            q: self.q,
            dq: if mq { self.cq.unwrap_or(zero) } else { zero },
        })
    }

    /// Rules 5–6 for a wall of B through a moved end point.
    fn moved_verdict(
        &self,
        a: Xy,
        b: Xy,
        g: Grazing,
        on_p: bool,
        on_q: bool,
    ) -> Option<(WallCase, WallMeet)> {
        let (p, q) = (self.p, self.q);
        if g == Grazing::On && contact(p, q, a, b) == Contact::Overlap {
            return Some((WallCase::Overlap, self.run_along(a, b)));
        }
        let blocks =
            self.options(on_p, on_q).any(|m| m.crosses(a, b) || (g == Grazing::On && m.overlaps(a, b)));
        if !blocks {
            return None;
        }
        let meet = match (on_p, on_q) {
            (true, true) if p != q => WallMeet::Along(Meeting::exact(p, q, p), Meeting::exact(p, q, q)),
            (true, _) => WallMeet::At(Meeting::exact(p, q, p)),
            (false, true) => WallMeet::At(Meeting::exact(p, q, q)),
            (false, false) => {
                // A wall the segment runs along, crossed by the moved segment: where its line is
                // crossed does not depend on ε (the offsets of both moved ends from the line are
                // first-order), at t = σp / (σp − σq) along the segment.
                let e = b.sub(a);
                let zero = Xy::default();
                let sp = e.cross(if self.move_p { self.cp.unwrap_or(zero) } else { zero });
                let sq = e.cross(if self.move_q { self.cq.unwrap_or(zero) } else { zero });
                if sp != sq && sp.signum() * sq.signum() < 0 {
                    WallMeet::At(meeting_at(p, q.sub(p), Ratio::new(sp, sp - sq)))
                } else {
                    self.run_along(a, b)
                }
            }
        };
        Some((WallCase::EndpointOnWall, meet))
    }

    /// Rule 4 (walls only) on the moved segment at `v`, an end point of walls tested with it.
    /// The moved segments tried: the literal one (every end point lying on a wall of B moved)
    /// and each moved end point alone, so that adding a wall at the other end never removes
    /// this blocking.
    fn moved_pinch<K: Sink>(&self, v: Xy, walls: &[(u32, Xy, Xy)], sink: &mut K) -> Result<Flow, LineError> {
        let zero = Xy::default();
        let all = (self.move_p, self.move_q);
        let mut options = vec![all];
        for one in [(self.move_p, false), (false, self.move_q)] {
            if one != (false, false) && one != all {
                options.push(one);
            }
        }
        for (mp, mq) in options {
            let m = Moved {
                p: self.p,
                dp: if mp { self.cp.unwrap_or(zero) } else { zero },
                q: self.q,
                dq: if mq { self.cq.unwrap_or(zero) } else { zero },
            };
            if !m.inside(v) {
                continue;
            }
            let (mut l, mut r) = (Vec::new(), Vec::new());
            for &(id, a, b) in walls {
                let other = if a == v {
                    b
                } else if b == v {
                    a
                } else {
                    continue;
                };
                match m.side(other) {
                    1 => r.push(Element::Wall(id)),
                    -1 => l.push(Element::Wall(id)),
                    _ => {}
                }
            }
            if !l.is_empty() && !r.is_empty() {
                let at = Meeting::exact(self.p, self.q, v);
                emit!(sink, None, || Hit::Pinch(Pinch { at, left: l, right: r, moved_end: true }));
                break;
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// Whether two closed segments that are not collinear share a point: each one's end points
/// are not both strictly on one side of the other's line.
fn segments_meet(a: Xy, b: Xy, c: Xy, d: Xy) -> bool {
    let straddles = |p: Xy, q: Xy, u: Xy, v: Xy| {
        let e = q.sub(p);
        let (ou, ov) = (e.cross(u.sub(p)), e.cross(v.sub(p)));
        // Not both strictly on one side, and not both on the line (collinear).
        let same_side = ou.signum() * ov.signum() > 0;
        !same_side && (ou != 0 || ov != 0)
    };
    straddles(a, b, c, d) && straddles(c, d, a, b)
}

/// Splits elements by side.
fn split(elements: impl Iterator<Item = (Element, Side)>) -> (Vec<Element>, Vec<Element>) {
    let (mut l, mut r) = (Vec::new(), Vec::new());
    for (e, side) in elements {
        match side {
            Side::Left => l.push(e),
            Side::Right => r.push(e),
        }
    }
    (l, r)
}

/// The meeting point of a segment crossing a wall: exact parameter, the squares holding it
/// (exact, with 256-bit products), and an approximation for drawing.
fn crossing(p: Xy, q: Xy, a: Xy, b: Xy) -> Meeting {
    let (d, e) = (q.sub(p), b.sub(a));
    meeting_at(p, d, Ratio::new(a.sub(p).cross(e), d.cross(e)))
}

/// The meeting at `p + t·d`, a point of the segment given by its exact parameter.
fn meeting_at(p: Xy, d: Xy, t: Ratio) -> Meeting {
    let (x0, x1) = locate(p.x, d.x, t);
    let (y0, y1) = locate(p.y, d.y, t);
    let f = t.to_f64();
    let unit = ONE as f64;
    Meeting {
        along: t,
        squares: SquareSpan { min: Square::new(x0, y0), max: Square::new(x1, y1) },
        point: None,
        approx: ((p.x as f64 + d.x as f64 * f) / unit, (p.y as f64 + d.y as f64 * f) / unit),
    }
}

/// The columns (or rows) whose closed range holds the coordinate `c0 + dc·t`, which lies in
/// `[0, 1024]` squares: the floor `k`, and `k − 1` too when it is exactly on the grid line `k`.
fn locate(c0: i128, dc: i128, t: Ratio) -> (i32, i32) {
    // The coordinate times the (positive) denominator, exactly.
    let total = I256::mul(c0, t.den()).add(I256::mul(dc, t.num()));
    let at = |k: i128| I256::mul(k << FRAC_BITS, t.den());
    let max = i128::from(super::geom::MAX_SQUARES);
    // Is `k` the floor: at(k) ≤ total < at(k + 1)?
    let is_floor = |k: i128| at(k) <= total && (k == max || at(k + 1) > total);
    // A float estimate only chooses where to look; the answer is checked exactly, with a
    // binary search when the estimate is off by more than one.
    let guess = ((c0 as f64 + dc as f64 * t.to_f64()) / ONE as f64).floor();
    let guess = if guess.is_finite() { (guess as i128).clamp(0, max) } else { 0 };
    let k =
        [guess, guess - 1, guess + 1].into_iter().filter(|k| (0..=max).contains(k)).find(|&k| is_floor(k));
    let k = k.unwrap_or_else(|| {
        let (mut lo, mut hi) = (0i128, max);
        while lo < hi {
            let mid = (lo + hi + 1) / 2;
            if at(mid) <= total { lo = mid } else { hi = mid - 1 }
        }
        lo
    });
    let exact = at(k) == total;
    let k = k as i32;
    if exact { (k - 1, k) } else { (k, k) }
}
