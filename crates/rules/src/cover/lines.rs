//! Tracing the cover lines once and judging their hits per filter.

use std::collections::HashMap;

use super::context::{AttackKind, Context};
use crate::budget::{Budget, units};
use crate::encounter::{Terrain, WallKind};
use crate::error::RulesError;
use crate::grid::line::{
    Blockers, Element, Endpoint, Grazing, Hit, LineReport, SquareBlockers, SquareSpan, WallMeet,
};
use crate::grid::{Metric, Point, Space, Square};
use crate::hash::BuildFx;
use crate::scene::{OCCUPIED, line_error};

/// Work units per hit a traced line reports or renders: its allocation (kept with the line),
/// the filters of every choice that reads it again, its place in the answer. Calibrated on
/// Colossal creatures across 10,000 low walls (every line crossing all of them).
const HIT: u64 = 32;
/// What a blocking element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementKind {
    /// A solid square.
    Solid,
    /// A low obstacle square.
    Low,
    /// A square occupied by another creature (index into the encounter's creatures).
    Creature(usize),
    /// A thin wall (index into the encounter's walls).
    Wall {
        /// Index.
        index: usize,
        /// Kind.
        kind: WallKind,
    },
}

/// The case of `grid.line.blocked` that applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitCase {
    /// Rule 1: through the square.
    Interior,
    /// Rule 2: along its edge (grazing on).
    Graze,
    /// Rule 3: between two blockers.
    Seam,
    /// Rule 4: through a point with blockers on both sides.
    Pinch,
    /// Rule 5: across a thin wall.
    Cross,
    /// Rule 5: along a thin wall (grazing on).
    Overlap,
    /// Rule 6: an end point lying on the wall.
    EndpointOnWall,
    /// Rule 7: along a wall into a junction (`grid.line.along-wall`).
    AlongWall,
}

impl HitCase {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            HitCase::Interior => "interior",
            HitCase::Graze => "graze",
            HitCase::Seam => "seam",
            HitCase::Pinch => "pinch",
            HitCase::Cross => "cross",
            HitCase::Overlap => "overlap",
            HitCase::EndpointOnWall => "endpoint_on_wall",
            HitCase::AlongWall => "along_wall",
        }
    }
}

/// One blocking element met by a line, and whether the ruleset counted it.
#[derive(Debug, Clone, PartialEq)]
pub struct CountedHit {
    /// How it blocked.
    pub case: HitCase,
    /// The elements involved (two for a seam, both sides for a pinch), with their square.
    pub elements: Vec<(ElementKind, Option<Square>)>,
    /// Whether this hit counts for the ruleset's test.
    pub counted: bool,
    /// Where, approximately (drawing only).
    pub at: Option<(f64, f64)>,
}

/// One traced line of the chosen corner.
#[derive(Debug, Clone, PartialEq)]
pub struct TracedLine {
    /// Start (attacker corner or origin).
    pub from: Point,
    /// End (target corner).
    pub to: Point,
    /// Whether it counts as blocked.
    pub blocked: bool,
    /// What it met.
    pub hits: Vec<CountedHit>,
}

/// A choice of the attacker: a start point and the square it was taken from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Origin {
    pub end: Endpoint,
    pub square: Option<Square>,
}

/// What is known of a segment against the widest blocking set.
#[derive(Default)]
struct Line {
    /// The first hit of its walk; `None` when nothing blocks it.
    first: Option<Hit>,
    /// Every hit, once traced in full.
    full: Option<LineReport>,
}

/// Traces lines against the widest blocking set of a cover question, once each.
pub(crate) struct Tracer<'c, 'a, 'e> {
    pub ctx: &'c Context<'a, 'e>,
    grazing: Grazing,
    creatures: bool,
    /// Every line of the question is known to be clear ([`crate::scene::Scene::eventful_near`]).
    quiet: bool,
    cache: HashMap<(Endpoint, Endpoint), Line, BuildFx>,
    /// The end points of each square of the target's space (row-major), once worked out: each
    /// needs a wall look-up per corner, and every judgement of a square asks for them again.
    target_ends: Vec<Option<[Endpoint; 4]>>,
    /// A blocked line's first hit did not settle a filter, so it was traced in full: the lines
    /// of one question meet the same obstacles, so later lines are traced in full at once
    /// rather than walked twice (the first hit of a trace is the one the yes/no walk finds).
    trace_at_once: bool,
    /// Rendered lines blocked by rule 7 (`grid.line.along-wall`), for the trace.
    along_wall: u32,
}

/// The squares of the widest blocking set: solid and low terrain (with the ruleset's grazing),
/// and squares some creature stands on when creatures count (never grazing), except the
/// attacker's and the target's own. A named type rather than a closure so that the per-square
/// test of the line walk is inlined into it.
struct CoverSquares<'c, 'a, 'e> {
    ctx: &'c Context<'a, 'e>,
    grazing: Grazing,
    /// [`OCCUPIED`] when creatures block, else 0.
    creature_bits: u8,
}

impl SquareBlockers for CoverSquares<'_, '_, '_> {
    #[inline]
    fn square(&self, sq: Square) -> Option<Grazing> {
        const WALL_BITS: u8 = Terrain::SOLID.0 | Terrain::LOW.0;
        let c = self.ctx.scene.cell(sq);
        if c & (WALL_BITS | self.creature_bits) == 0 || self.ctx.own(sq) {
            None
        } else if c & WALL_BITS != 0 {
            Some(self.grazing)
        } else {
            Some(Grazing::Off)
        }
    }

    #[inline]
    fn may_hold_walls(&self, sq: Square) -> bool {
        self.ctx.scene.may_hold_walls(sq)
    }
}

impl<'c, 'a, 'e> Tracer<'c, 'a, 'e> {
    /// `grazing` applies to terrain squares and walls; creature squares never graze-block.
    pub fn new(
        ctx: &'c Context<'a, 'e>,
        grazing: Grazing,
        creatures: bool,
        budget: &mut Budget,
    ) -> Result<Self, RulesError> {
        // Room for every line from the attacker's corners to the target's squares (16 between
        // two Medium creatures), up to 64: growing the table moves every line known so far.
        let corners = (ctx.a_space.side.max(1) as usize + 1).pow(2);
        let ends = 4 * (ctx.t_space.side.max(1) as usize).pow(2);
        let cache = HashMap::with_capacity_and_hasher(corners.saturating_mul(ends).min(64), BuildFx);
        let side = ctx.t_space.side.max(1) as usize;
        // Nothing a line could meet near the two spaces: every line between them is clear.
        let quiet = !matches!(ctx.attack, AttackKind::Area { .. })
            && ctx.scene.eventful_near(&ctx.a_space, &ctx.t_space, budget)? == 0;
        Ok(Tracer {
            ctx,
            grazing,
            creatures,
            quiet,
            cache,
            target_ends: vec![None; side * side],
            trace_at_once: false,
            along_wall: 0,
        })
    }

    /// Traces a segment in full (cached).
    pub fn trace(
        &mut self,
        from: Endpoint,
        to: Endpoint,
        budget: &mut Budget,
    ) -> Result<&LineReport, RulesError> {
        // The cache look-up.
        budget.spend(1)?;
        let blocked = self.walk(from, to, budget)?;
        let untraced = blocked && self.cache.get(&(from, to)).is_some_and(|l| l.full.is_none());
        let report = if untraced {
            let report = self.blockers_trace(from, to, budget)?;
            // Each hit of the report is a small allocation.
            budget.spend(units(report.hits.len()).saturating_mul(HIT))?;
            Some(report)
        } else {
            None
        };
        let line = self.cache.entry((from, to)).or_default();
        if report.is_some() {
            line.full = report;
        }
        // A clear line's report is empty.
        Ok(line.full.get_or_insert_with(LineReport::default))
    }

    /// Walks the lines not yet known with the yes/no walk again, until a filter needs more
    /// than a first hit: for counting the blocked lines of a choice that may not need filters.
    pub fn walk_first_hits(&mut self) {
        self.trace_at_once = false;
    }

    /// Whether the first line every procedure judges (the attacker's first corner, or the
    /// area's origin, to the first corner of the target's first square) is blocked against
    /// the widest set (cached, as [`Tracer::blocked`] would walk it).
    pub fn first_line_blocked(&mut self, budget: &mut Budget) -> Result<bool, RulesError> {
        let (Some(a), Some(target)) = (self.ctx.a_space.squares().next(), self.ctx.t_space.squares().next())
        else {
            return Ok(false);
        };
        let Some(origin) = self.origins(&[a]).first().copied() else { return Ok(false) };
        let end = self.target_ends(target)[0];
        self.walk(origin.end, end, budget)
    }

    /// The yes/no walk of a segment against the widest set, keeping its first hit (cached):
    /// whether it is blocked.
    fn walk(&mut self, from: Endpoint, to: Endpoint, budget: &mut Budget) -> Result<bool, RulesError> {
        if let Some(line) = self.cache.get(&(from, to)) {
            return Ok(line.first.is_some());
        }
        if self.quiet {
            self.cache.insert((from, to), Line::default());
            return Ok(false);
        }
        if self.trace_at_once {
            let report = self.blockers_trace(from, to, budget)?;
            budget.spend(units(report.hits.len()).saturating_mul(HIT))?;
            let first = report.hits.first().cloned();
            let blocked = first.is_some();
            self.cache.insert((from, to), Line { first, full: Some(report) });
            return Ok(blocked);
        }
        let squares = self.squares();
        let blockers = Blockers::new(&squares, &self.ctx.scene.walls, self.walls());
        let seg = crate::grid::line::Segment::between(from, to);
        let first = blockers.first_hit(&seg, budget).map_err(line_error)?;
        let blocked = first.is_some();
        self.cache.insert((from, to), Line { first, full: None });
        Ok(blocked)
    }

    fn squares(&self) -> CoverSquares<'c, 'a, 'e> {
        let creature_bits = if self.creatures { OCCUPIED } else { 0 };
        CoverSquares { ctx: self.ctx, grazing: self.grazing, creature_bits }
    }

    /// The widest set's walls: every kind that blocks some cover question.
    fn walls(&self) -> impl Fn(u32) -> Option<Grazing> + use<'c, 'a, 'e> {
        let (ctx, g) = (self.ctx, self.grazing);
        move |id: u32| match ctx.scene.wall_kind(id) {
            Some(
                WallKind::Solid
                | WallKind::Low
                | WallKind::Window
                | WallKind::ArrowSlit
                | WallKind::DoorClosed,
            ) => Some(g),
            _ => None,
        }
    }

    fn blockers_trace(
        &self,
        from: Endpoint,
        to: Endpoint,
        budget: &mut Budget,
    ) -> Result<LineReport, RulesError> {
        let squares = self.squares();
        let blockers = Blockers::new(&squares, &self.ctx.scene.walls, self.walls());
        let seg = crate::grid::line::Segment::between(from, to);
        blockers.trace(&seg, budget).map_err(line_error)
    }

    /// The attacker's corners (or the area origin), each with a square it was taken from.
    pub fn origins(&self, squares: &[Square]) -> Vec<Origin> {
        if let AttackKind::Area { origin, .. } = self.ctx.attack {
            return vec![Origin { end: Endpoint::point(origin), square: None }];
        }
        let mut out: Vec<Origin> = Vec::new();
        for &sq in squares {
            for c in sq.corners() {
                let end = self.ctx.scene.endpoint(c, sq);
                if !out.iter().any(|o| o.end == end) {
                    out.push(Origin { end, square: Some(sq) });
                }
            }
        }
        out
    }

    /// The four end points of a target square.
    pub fn target_ends(&mut self, t: Square) -> [Endpoint; 4] {
        let space = self.ctx.t_space;
        let (i, j) = (i64::from(t.x) - i64::from(space.anchor.x), i64::from(t.y) - i64::from(space.anchor.y));
        let side = i64::from(space.side.max(1));
        let slot = if (0..side).contains(&i) && (0..side).contains(&j) {
            usize::try_from(j * side + i).ok().and_then(|k| self.target_ends.get_mut(k))
        } else {
            None
        };
        if let Some(Some(ends)) = slot {
            return *ends;
        }
        let ends = t.corners().map(|c| self.ctx.scene.endpoint(c, t));
        if let Some(slot) = slot {
            *slot = Some(ends);
        }
        ends
    }

    /// Renders a traced segment with a filter (without its hits when the question does not
    /// explain its lines).
    pub fn render(
        &mut self,
        from: Endpoint,
        to: Endpoint,
        keep: &dyn Fn(&Hit, Element, ElementKind) -> bool,
        budget: &mut Budget,
    ) -> Result<TracedLine, RulesError> {
        let ctx = self.ctx;
        if !ctx.explain {
            let blocked = self.blocked(from, to, keep, budget)?;
            // Whether rule 7 blocked it, for the trace: only a line lying on a wall's line can
            // run along a wall, so only such a line is traced in full to tell.
            if blocked && ctx.scene.on_a_wall_line(from.at, to.at) {
                let report = self.trace(from, to, budget)?;
                let along = report
                    .hits
                    .iter()
                    .any(|h| is_along_wall(h) && h.blocks_keeping(|e| kept(ctx, h, e, &keep)));
                self.along_wall += u32::from(along);
            }
            return Ok(TracedLine { from: from.at, to: to.at, blocked, hits: Vec::new() });
        }
        let report = self.trace(from, to, budget)?;
        budget.spend(units(report.hits.len()).saturating_mul(HIT))?;
        let mut hits = Vec::with_capacity(report.hits.len());
        let mut blocked = false;
        for h in &report.hits {
            let counted = h.blocks_keeping(|e| kept(ctx, h, e, &keep));
            blocked |= counted;
            let (case, elements, at) = describe(h);
            let elements = elements
                .into_iter()
                .filter_map(|e| {
                    let sq = match e {
                        Element::Square(s) => Some(s),
                        Element::Wall(_) => None,
                    };
                    kind_of(ctx, e).map(|k| (k, sq))
                })
                .collect();
            hits.push(CountedHit { case, elements, counted, at });
        }
        self.along_wall += u32::from(hits.iter().any(|h| h.counted && h.case == HitCase::AlongWall));
        Ok(TracedLine { from: from.at, to: to.at, blocked, hits })
    }

    /// How many rendered lines rule 7 (`grid.line.along-wall`) blocked.
    pub fn along_wall_lines(&self) -> u32 {
        self.along_wall
    }

    /// Whether a traced segment is blocked under a filter. Most blocked lines are settled by
    /// their first hit (a solid square or wall counts under every filter that asks): only
    /// when the filter drops it is the line traced in full.
    pub fn blocked(
        &mut self,
        from: Endpoint,
        to: Endpoint,
        keep: &dyn Fn(&Hit, Element, ElementKind) -> bool,
        budget: &mut Budget,
    ) -> Result<bool, RulesError> {
        let ctx = self.ctx;
        // The cache look-up.
        budget.spend(1)?;
        if !self.walk(from, to, budget)? {
            return Ok(false);
        }
        let keeps = |h: &Hit| h.blocks_keeping(|e| kept(ctx, h, e, &keep));
        if let Some(Line { first: Some(h), .. }) = self.cache.get(&(from, to))
            && keeps(h)
        {
            budget.spend(1)?;
            return Ok(true);
        }
        self.trace_at_once = true;
        let report = self.trace(from, to, budget)?;
        budget.spend(units(report.hits.len()))?;
        Ok(report.hits.iter().any(keeps))
    }
}

fn is_along_wall(h: &Hit) -> bool {
    matches!(h, Hit::AlongWall { .. })
}

/// Whether element `e` of hit `h` blocks under `keep`. A square is judged by its terrain and,
/// where a low obstacle does not block, by the creature standing on it: a creature on a low
/// obstacle that does not count still blocks as a creature (adding a blocker never lowers
/// cover).
fn kept(
    ctx: &Context<'_, '_>,
    h: &Hit,
    e: Element,
    keep: &impl Fn(&Hit, Element, ElementKind) -> bool,
) -> bool {
    match kind_of(ctx, e) {
        None => false,
        Some(k) if keep(h, e, k) => true,
        Some(ElementKind::Low) => match e {
            Element::Square(sq) => {
                ctx.scene.occupant(sq).is_some_and(|c| keep(h, e, ElementKind::Creature(c)))
            }
            Element::Wall(_) => false,
        },
        Some(_) => false,
    }
}

/// The kind of an element (the first that applies: solid, low, creature).
pub(crate) fn kind_of(ctx: &Context<'_, '_>, e: Element) -> Option<ElementKind> {
    match e {
        Element::Square(sq) => {
            let t = ctx.scene.terrain(sq);
            if t.has(Terrain::SOLID) {
                Some(ElementKind::Solid)
            } else if t.has(Terrain::LOW) {
                Some(ElementKind::Low)
            } else {
                ctx.scene.occupant(sq).map(ElementKind::Creature)
            }
        }
        Element::Wall(id) => {
            ctx.scene.wall_kind(id).map(|kind| ElementKind::Wall { index: id as usize, kind })
        }
    }
}

fn describe(h: &Hit) -> (HitCase, Vec<Element>, Option<(f64, f64)>) {
    use crate::grid::line::{SquareCase, WallCase};
    match h {
        Hit::Square { square, case } => (
            match case {
                SquareCase::Interior => HitCase::Interior,
                SquareCase::Graze => HitCase::Graze,
            },
            vec![Element::Square(*square)],
            None,
        ),
        Hit::Seam { squares } => (HitCase::Seam, squares.iter().map(|s| Element::Square(*s)).collect(), None),
        Hit::Pinch(p) => {
            (HitCase::Pinch, p.left.iter().chain(p.right.iter()).copied().collect(), Some(p.at.approx))
        }
        Hit::Wall { id, case, meet } => (
            match case {
                WallCase::Cross => HitCase::Cross,
                WallCase::Overlap => HitCase::Overlap,
                WallCase::EndpointOnWall => HitCase::EndpointOnWall,
            },
            vec![Element::Wall(*id)],
            Some(match meet {
                WallMeet::At(m) | WallMeet::Along(m, _) => m.approx,
            }),
        ),
        Hit::AlongWall { wall, along, at } => (
            HitCase::AlongWall,
            std::iter::once(*wall).chain(along.iter().copied()).map(Element::Wall).collect(),
            Some(at.approx),
        ),
    }
}

/// The squares where a hit meets an element, for the low-obstacle distances (RULES.md Q-40):
/// the square itself, or the squares around the point where a line meets a wall.
pub(crate) fn meeting_spans(h: &Hit, e: Element) -> Vec<SquareSpan> {
    match (e, h) {
        (Element::Square(sq), _) => vec![SquareSpan { min: sq, max: sq }],
        (Element::Wall(_), Hit::Wall { meet: WallMeet::At(m), .. }) => vec![m.squares],
        (Element::Wall(_), Hit::Wall { meet: WallMeet::Along(a, b), .. }) => vec![a.squares, b.squares],
        (Element::Wall(_), Hit::Pinch(p)) => vec![p.at.squares],
        (Element::Wall(_), Hit::AlongWall { at, .. }) => vec![at.squares],
        (Element::Wall(_), _) => Vec::new(),
    }
}

/// The squares of a full rectangle (a creature's space, an area's origin squares) as their
/// span; none when `from` is not one.
pub(crate) fn rectangle(from: &[Square]) -> Option<SquareSpan> {
    let first = from.first()?;
    let (mut min, mut max) = (*first, *first);
    for f in from {
        min = Square::new(min.x.min(f.x), min.y.min(f.y));
        max = Square::new(max.x.max(f.x), max.y.max(f.y));
    }
    let area = (i64::from(max.x) - i64::from(min.x) + 1) * (i64::from(max.y) - i64::from(min.y) + 1);
    usize::try_from(area).is_ok_and(|a| a == from.len()).then_some(SquareSpan { min, max })
}

/// The smallest distance, in squares, from a set of squares to any square of the spans.
///
/// A distance grows with each axis' gap, so from a full rectangle of squares (`rect`, see
/// [`rectangle`]) the nearest square is the one of the rectangle nearest on each axis: one
/// distance per span square rather than one per pair of squares (a Colossal creature's 36
/// squares made this the costliest step of a line across many low walls).
pub(crate) fn span_distance(
    metric: Metric,
    from: &[Square],
    rect: Option<SquareSpan>,
    spans: &[SquareSpan],
) -> i64 {
    let one = |anchor: Square| Space { anchor, side: 1 };
    let mut best = i64::MAX;
    for span in spans {
        for sq in span.squares() {
            match rect {
                Some(r) => {
                    let near = Square::new(sq.x.clamp(r.min.x, r.max.x), sq.y.clamp(r.min.y, r.max.y));
                    best = best.min(metric.between(&one(near), &one(sq)));
                }
                None => {
                    for f in from {
                        best = best.min(metric.between(&one(*f), &one(sq)));
                    }
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From a rectangle, the nearest square on each axis gives the distance of every pair of
    /// squares: both metrics, spans on every side of, across and inside the rectangle.
    #[test]
    fn span_distance_from_a_rectangle_is_the_distance_of_every_pair() {
        let space: Vec<Square> = Space { anchor: Square::new(10, 20), side: 6 }.squares().collect();
        let rect = rectangle(&space);
        assert_eq!(rect, Some(SquareSpan { min: Square::new(10, 20), max: Square::new(15, 25) }));
        assert_eq!(rectangle(&[Square::new(0, 0), Square::new(2, 0)]), None, "not a full rectangle");
        for metric in [Metric::Chebyshev, Metric::Alternating] {
            for (x, y) in [(0, 0), (12, 3), (30, 22), (13, 40), (-5, 24), (12, 21), (16, 26), (3, 31)] {
                let spans = [SquareSpan { min: Square::new(x, y), max: Square::new(x + 1, y + 2) }];
                let pairs = span_distance(metric, &space, None, &spans);
                assert_eq!(span_distance(metric, &space, rect, &spans), pairs, "{metric:?} ({x}, {y})");
            }
        }
        // RULES.md's alternating diagonals: 8 columns and 5 rows from the corner (15, 25) is
        // 5 diagonals (5 + 2 squares) and 3 straight steps, 10 squares.
        let far = [SquareSpan { min: Square::new(23, 30), max: Square::new(23, 30) }];
        assert_eq!(span_distance(Metric::Alternating, &space, rect, &far), 10);
    }
}
