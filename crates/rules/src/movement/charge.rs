//! A charge's movement (`pf1e.charge`, `hb3d.charge`): the closest attack squares, the path
//! test (PF1: every square whose interior meets the convex hull of the start and end spaces;
//! hb3d: every square whose interior the centre-to-centre segment crosses, RULES.md Q-18 /
//! Q-44) and the movement (`grid.distance.alternating` displacement of the anchor). The
//! maneuver at its end is [`crate::maneuver::charge`]'s; `/v1/movement` checks a charge's path
//! here without it.
//!
//! Everything is exact: the hull has lattice corners and is tested with integer orientation
//! tests; the centre line uses [`classify_square`].

use crate::budget::{Budget, units};
use crate::encounter::{Condition, Creature, Encounter, Terrain};
use crate::error::RulesError;
use crate::grid::line::{SquareContact, classify_square};
use crate::grid::{Coord, FRAC_BITS, Metric, Point, Space, Square};
use crate::obstruction::{WALLS_PER_UNIT, blocks_movement, meet};
use crate::opportunity::{MoveOpportunity, opportunities_along, straight_path};
use crate::reach;
pub use crate::ruleset::PathTest;
use crate::ruleset::{ChargeRule, RulesetId};
use crate::scene::{From, OCCUPIED, Scene};
use crate::trace::{Effect, Trace};

pub use crate::trace::maneuver::{ChargeIllegal, ChargeStep, EndTest, Obstacle};
use crate::trace::maneuver::{Kind, ManeuverEffect};

/// The shortest charge, feet.
pub const MIN_FT: u32 = 10;

/// Conditions that make a creature on the path not count (`pf1e.charge`: helpless creatures).
const HELPLESS: [Condition; 4] =
    [Condition::Unconscious, Condition::Paralyzed, Condition::Helpless, Condition::Dead];

/// Charge options.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChargeOptions {
    /// The charger's anchor squares, step by step (the last one is the end square). `None`:
    /// the engine picks the first legal closest square in row order.
    pub path: Option<Vec<Square>>,
    /// A bull rush or overrun in place of the attack.
    pub then: Option<Kind>,
    /// The charger can take only a standard action this turn: it charges up to its speed
    /// instead of double its speed.
    pub standard_only: bool,
}

/// The charge part of the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charge {
    /// `pf1e.charge` or `hb3d.charge`.
    pub rule: &'static str,
    /// Whether the charge is possible.
    pub legal: bool,
    /// Why not.
    pub obstacle: Option<Obstacle>,
    /// The charger's anchor at the start.
    pub start: Square,
    /// The end square chosen (or the first one tested when none is legal).
    pub end: Option<Square>,
    /// Movement to the end square, feet.
    pub movement_ft: Option<u32>,
    /// The longest charge, feet: double speed, or speed when only a standard action is left.
    pub max_ft: u32,
    /// The closest squares from which the charger can attack, row order.
    pub closest: Vec<Square>,
    /// Their distance, feet.
    pub closest_ft: Option<u32>,
    /// The other equally close squares that are also legal (the charger's choice, Q-29).
    pub alternatives: Vec<Square>,
    /// The path test.
    pub path_test: PathTest,
    /// The squares the path test covers for the end square.
    pub path_squares: Vec<Square>,
    /// Every end square tested.
    pub tested: Vec<EndTest>,
    /// Line of sight at the start.
    pub line_of_sight: bool,
    /// The maneuver made at the end.
    pub then: Option<Kind>,
    /// +2 to the attack.
    pub attack_bonus: i32,
    /// −2 to AC (PF1) / DEF (hb3d).
    pub ac_penalty: i32,
    /// The charger's anchor square by square, start first (the given path, or a straight one
    /// to the end square).
    pub path: Vec<Square>,
    /// Attacks of opportunity the movement provokes (legal charges only).
    pub opportunities: Vec<MoveOpportunity>,
    /// What the VTT sets on the charger when it charges (legal charges): `charged`, the AC /
    /// DEF penalty until the start of its next turn, which `/v1/attack` and the maneuvers
    /// then apply to it as a target.
    pub charger_gains: Vec<Condition>,
}

/// The ruleset's charge rule, or the error of a ruleset without one.
pub(crate) fn charge_rule(enc: &Encounter) -> Result<ChargeRule, RulesError> {
    enc.ruleset.rules().charge.ok_or_else(|| {
        let with: Vec<&str> =
            RulesetId::ALL.iter().filter(|r| r.rules().charge.is_some()).map(|r| r.id()).collect();
        RulesError::field(
            "/kind",
            format!("{} has no charge rule; charge is answered for {}", enc.ruleset.id(), with.join(" and ")),
        )
    })
}

fn movement_ft(from: Square, to: Square) -> u32 {
    let dx = (i64::from(to.x) - i64::from(from.x)).abs();
    let dy = (i64::from(to.y) - i64::from(from.y)).abs();
    u32::try_from(Metric::Alternating.squares(dx, dy).saturating_mul(5)).unwrap_or(u32::MAX)
}

/// The anchors from which a charger at `space` could attack `target`, with their movement.
fn attack_squares(
    enc: &Encounter,
    attacker: usize,
    target: usize,
    budget: &mut Budget,
) -> Result<Vec<(u32, Square)>, RulesError> {
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Ok(Vec::new());
    };
    let (m, _) = reach::metric(enc);
    let band = reach::band(enc, a, a.wielding.as_ref());
    let (sa, st) = (enc.space(a), enc.space(t));
    let r = i32::try_from(band.max_ft / 5 + 2).unwrap_or(64).clamp(1, 64);
    let side = sa.side.max(1);
    let mut out = Vec::new();
    let (y0, y1) =
        (st.min_y().saturating_sub(side + r).max(0), st.max_y().saturating_add(r).min(enc.grid.height));
    let (x0, x1) =
        (st.min_x().saturating_sub(side + r).max(0), st.max_x().saturating_add(r).min(enc.grid.width));
    for y in y0..=y1 {
        for x in x0..=x1 {
            budget.spend(1)?;
            let cand = Space { anchor: Square::new(x, y), side: sa.side };
            if !enc.grid.contains_space(&cand) || cand.overlaps(&st) {
                continue;
            }
            if reach::reaches(m, &band, &cand, &st) {
                out.push((movement_ft(sa.anchor, cand.anchor), cand.anchor));
            }
        }
    }
    Ok(out)
}

type Xy = (i128, i128);

fn cross(o: Xy, a: Xy, b: Xy) -> Option<i128> {
    let l = (a.0.checked_sub(o.0)?).checked_mul(b.1.checked_sub(o.1)?)?;
    let r = (a.1.checked_sub(o.1)?).checked_mul(b.0.checked_sub(o.0)?)?;
    l.checked_sub(r)
}

/// The convex hull of the corners of two spaces, counter-clockwise in (x east, y south) with a
/// positive signed area (monotone chain, collinear points dropped). Lattice units.
fn hull(a: &Space, b: &Space) -> Vec<Xy> {
    let corners = |s: &Space| {
        let (x0, y0) = (i128::from(s.min_x()), i128::from(s.min_y()));
        let (x1, y1) = (i128::from(s.max_x()) + 1, i128::from(s.max_y()) + 1);
        [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    };
    let mut pts: Vec<Xy> = corners(a).into_iter().chain(corners(b)).collect();
    pts.sort_unstable();
    pts.dedup();
    let mut lower: Vec<Xy> = Vec::new();
    for &p in &pts {
        while lower.len() >= 2
            && cross(lower[lower.len() - 2], lower[lower.len() - 1], p).is_none_or(|c| c <= 0)
        {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<Xy> = Vec::new();
    for &p in pts.iter().rev() {
        while upper.len() >= 2
            && cross(upper[upper.len() - 2], upper[upper.len() - 1], p).is_none_or(|c| c <= 0)
        {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// Whether the open square meets the interior of the convex polygon `h` (positive orientation,
/// lattice units): no edge of either separates them (separating axis theorem).
fn square_meets_hull(h: &[Xy], sq: Square) -> bool {
    if h.len() < 3 {
        return false;
    }
    let (x0, y0) = (i128::from(sq.x), i128::from(sq.y));
    let c = [(x0, y0), (x0 + 1, y0), (x0 + 1, y0 + 1), (x0, y0 + 1)];
    let (hx0, hx1) = (h.iter().map(|p| p.0).min().unwrap_or(0), h.iter().map(|p| p.0).max().unwrap_or(0));
    let (hy0, hy1) = (h.iter().map(|p| p.1).min().unwrap_or(0), h.iter().map(|p| p.1).max().unwrap_or(0));
    if hx0 > x0 || hx1 <= x0 || hy0 > y0 || hy1 <= y0 {
        return false;
    }
    (0..h.len()).all(|i| {
        let (a, b) = (h[i], h[(i + 1) % h.len()]);
        c.iter().any(|&v| cross(a, b, v).is_none_or(|o| o > 0))
    })
}

/// Whether the closed segment `[p, q]` (fixed-point) meets the interior of the hull `h`
/// (lattice units). Overflow counts as meeting.
fn segment_meets_hull(h: &[Xy], p: Point, q: Point) -> bool {
    if h.len() < 3 {
        return false;
    }
    let fp = |v: Xy| (v.0 << FRAC_BITS, v.1 << FRAC_BITS);
    let (p, q) = ((p.x.0, p.y.0), (q.x.0, q.y.0));
    // A segment whose bounding box is apart from the hull's cannot meet its interior.
    let (hx0, hx1) = (h.iter().map(|v| v.0).min().unwrap_or(0), h.iter().map(|v| v.0).max().unwrap_or(0));
    let (hy0, hy1) = (h.iter().map(|v| v.1).min().unwrap_or(0), h.iter().map(|v| v.1).max().unwrap_or(0));
    let (lo, hi) = (fp((hx0, hy0)), fp((hx1, hy1)));
    if p.0.max(q.0) < lo.0 || p.0.min(q.0) > hi.0 || p.1.max(q.1) < lo.1 || p.1.min(q.1) > hi.1 {
        return false;
    }
    let edges_ok = (0..h.len()).all(|i| {
        let (a, b) = (fp(h[i]), fp(h[(i + 1) % h.len()]));
        [p, q].iter().any(|&v| cross(a, b, v).is_none_or(|o| o > 0))
    });
    if !edges_ok {
        return false;
    }
    let (mut pos, mut neg) = (false, false);
    for &v in h {
        match cross(p, q, fp(v)) {
            None => return true,
            Some(o) if o > 0 => pos = true,
            Some(o) if o < 0 => neg = true,
            _ => {}
        }
    }
    pos && neg
}

fn centre(s: &Space) -> Point {
    let c = |lo: i32, hi: i32| Coord((i128::from(lo) + i128::from(hi) + 1) << (FRAC_BITS - 1));
    Point { x: c(s.min_x(), s.max_x()), y: c(s.min_y(), s.max_y()) }
}

fn bbox(a: &Space, b: &Space) -> (i32, i32, i32, i32) {
    (a.min_x().min(b.min_x()), a.min_y().min(b.min_y()), a.max_x().max(b.max_x()), a.max_y().max(b.max_y()))
}

fn slows(t: Terrain) -> bool {
    t.has(Terrain::DIFFICULT) || t.has(Terrain::WATER) || t.has(Terrain::LOW)
}

/// Tests one end square.
fn test_end(
    scene: &Scene<'_>,
    attacker: usize,
    end: Square,
    extra: &[Square],
    max_ft: u32,
    path_test: PathTest,
    budget: &mut Budget,
) -> Result<EndTest, RulesError> {
    let enc = scene.enc;
    let Some(a) = enc.creatures.get(attacker) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    let start = enc.space(a);
    let stop = Space { anchor: end, side: start.side };
    let feet = movement_ft(start.anchor, end);
    let mut out = EndTest { end, movement_ft: feet, squares: Vec::new(), obstacle: None };
    if feet > max_ft {
        // Too long: the path squares are not listed (they could span the whole map).
        out.obstacle = Some(Obstacle { why: ChargeIllegal::TooLong, square: None, creature: None });
        return Ok(out);
    }
    let line = ChargeLine::new(start, stop, path_test);
    let corner;
    (out.squares, corner) = line.squares(scene, budget)?;
    // The given path's squares, each once (sorted then deduplicated: the squares found above
    // are distinct, so this is the same set as a `contains` test per square, in n log n).
    budget.spend(units(extra.len()).saturating_mul(2))?;
    out.squares.extend(extra.iter().copied().filter(|sq| !start.contains(*sq) && !stop.contains(*sq)));
    out.squares.sort_by_key(|s| (s.y, s.x));
    out.squares.dedup();
    out.obstacle = line.obstacle(scene, attacker, feet, &out.squares, corner, budget)?;
    Ok(out)
}

/// The way from one space to an end space, as the ruleset's path test sees it: the convex
/// hull of the two spaces (PF1 family), or the line between their centres.
struct ChargeLine {
    start: Space,
    stop: Space,
    /// The convex hull test (otherwise the centre line).
    pf: bool,
    hull: Vec<Xy>,
    from: Point,
    to: Point,
}

impl ChargeLine {
    fn new(start: Space, stop: Space, path_test: PathTest) -> Self {
        let pf = path_test == PathTest::ConvexHull;
        let hull = if pf { hull(&start, &stop) } else { Vec::new() };
        let (from, to) = (centre(&start), centre(&stop));
        ChargeLine { start, stop, pf, hull, from, to }
    }

    /// The squares the way passes through (neither space's own), row by row, and the first
    /// solid square whose corner the centre line only touches.
    fn squares(
        &self,
        scene: &Scene<'_>,
        budget: &mut Budget,
    ) -> Result<(Vec<Square>, Option<Square>), RulesError> {
        let (start, stop, from, to) = (&self.start, &self.stop, self.from, self.to);
        let mut squares = Vec::new();
        let (x0, y0, x1, y1) = bbox(start, stop);
        let mut corner: Option<Square> = None;
        for y in y0..=y1 {
            for x in x0..=x1 {
                budget.spend(1)?;
                let sq = Square::new(x, y);
                if start.contains(sq) || stop.contains(sq) {
                    continue;
                }
                let inside = if self.pf {
                    square_meets_hull(&self.hull, sq)
                } else {
                    match classify_square(from, to, sq) {
                        Ok(SquareContact::Interior) | Err(_) => true,
                        Ok(SquareContact::Touch) => {
                            if corner.is_none() && scene.terrain(sq).has(Terrain::SOLID) {
                                corner = Some(sq);
                            }
                            false
                        }
                        Ok(_) => false,
                    }
                };
                if inside {
                    squares.push(sq);
                }
            }
        }
        Ok((squares, corner))
    }

    /// What stops the charge on this way, the first found: its length, the end square, the
    /// path squares in row order, a solid corner, a thin wall.
    fn obstacle(
        &self,
        scene: &Scene<'_>,
        attacker: usize,
        feet: u32,
        squares: &[Square],
        corner: Option<Square>,
        budget: &mut Budget,
    ) -> Result<Option<Obstacle>, RulesError> {
        let enc = scene.enc;
        let mk =
            |why, square: Option<Square>, creature: Option<String>| Some(Obstacle { why, square, creature });
        // Length.
        if feet < MIN_FT {
            return Ok(mk(ChargeIllegal::TooShort, None, None));
        }
        // The end square.
        for sq in self.stop.squares() {
            budget.spend(1)?;
            if let Some((_, c)) = creature_on(scene, attacker, sq, true, budget)? {
                return Ok(mk(ChargeIllegal::EndOccupied, Some(sq), Some(c.id.clone())));
            }
            if scene.terrain(sq).has(Terrain::SOLID) {
                return Ok(mk(ChargeIllegal::EndBlocked, Some(sq), None));
            }
            if slows(scene.terrain(sq)) {
                return Ok(mk(ChargeIllegal::DifficultTerrain, Some(sq), None));
            }
        }
        // The path squares, row order.
        for &sq in squares {
            budget.spend(1)?;
            let t = scene.terrain(sq);
            if t.has(Terrain::SOLID) {
                return Ok(mk(ChargeIllegal::PathBlocked, Some(sq), None));
            }
            if slows(t) {
                return Ok(mk(ChargeIllegal::DifficultTerrain, Some(sq), None));
            }
            if let Some((_, c)) = creature_on(scene, attacker, sq, false, budget)? {
                return Ok(mk(ChargeIllegal::PathCreature, Some(sq), Some(c.id.clone())));
            }
        }
        // A solid corner the centre line passes through (`grid.move.corner-cutting`).
        if let Some(sq) = corner {
            return Ok(mk(ChargeIllegal::PathBlocked, Some(sq), None));
        }
        // Thin walls that block movement.
        for (i, w) in enc.grid.walls.iter().enumerate() {
            if i % WALLS_PER_UNIT == 0 {
                budget.spend(1)?;
            }
            if !blocks_movement(scene.wall_kind(u32::try_from(i).unwrap_or(u32::MAX))) {
                continue;
            }
            let hit = if self.pf {
                segment_meets_hull(&self.hull, w.from, w.to)
            } else {
                meet(self.from, self.to, w.from, w.to)
            };
            if hit {
                return Ok(mk(ChargeIllegal::PathBlocked, None, None));
            }
        }
        Ok(None)
    }
}

/// The creature other than the charger standing on `sq` (helpless ones only when
/// `helpless_count`). A square nobody stands on needs no scan of the creatures (the scene marks
/// every square of the map a creature stands on); a scan costs one unit per few creatures.
fn creature_on<'e>(
    scene: &Scene<'e>,
    attacker: usize,
    sq: Square,
    helpless_count: bool,
    budget: &mut Budget,
) -> Result<Option<(usize, &'e Creature)>, RulesError> {
    let enc = scene.enc;
    if scene.cell(sq) & OCCUPIED == 0 && enc.grid.contains(sq) {
        return Ok(None);
    }
    budget.spend(units(enc.creatures.len()) / 4)?;
    Ok(enc.creatures.iter().enumerate().find(|(i, c)| {
        *i != attacker && enc.space(c).contains(sq) && (helpless_count || !HELPLESS.iter().any(|k| c.has(*k)))
    }))
}

/// Validates a given path: on the grid, each square adjacent to the previous one (the first to
/// the start; a first square equal to the start is skipped).
fn check_path(enc: &Encounter, start: &Space, path: &[Square]) -> Result<Vec<Square>, RulesError> {
    if path.is_empty() {
        return Err(RulesError::field("/options/path", "the path needs at least the end square"));
    }
    let mut prev = start.anchor;
    let mut out = Vec::new();
    for (i, &sq) in path.iter().enumerate() {
        if i == 0 && sq == start.anchor && path.len() > 1 {
            continue;
        }
        let space = Space { anchor: sq, side: start.side };
        if !enc.grid.contains_space(&space) {
            return Err(RulesError::field(
                format!("/options/path/{i}"),
                "the charger's space is off the grid",
            ));
        }
        let (dx, dy) =
            ((i64::from(sq.x) - i64::from(prev.x)).abs(), (i64::from(sq.y) - i64::from(prev.y)).abs());
        if dx.max(dy) != 1 {
            return Err(RulesError::field(
                format!("/options/path/{i}"),
                "each square must be adjacent to the previous one (the first to the charger's square)",
            ));
        }
        out.push(sq);
        prev = sq;
    }
    Ok(out)
}

/// The charge geometry alone (no dice).
pub fn plan_charge(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    options: &ChargeOptions,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<Charge, RulesError> {
    let enc = scene.enc;
    let charge_rule = charge_rule(enc)?;
    let rule = charge_rule.rule;
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    let start = enc.space(a);
    let speed = a.speed_ft.unwrap_or(enc.ruleset.rules().default_speed_ft);
    let path = match &options.path {
        Some(p) => Some(check_path(enc, &start, p)?),
        None => None,
    };
    let max_ft = if options.standard_only { speed } else { speed.saturating_mul(2) };
    let mut c = Charge::new(&charge_rule, start.anchor, max_ft, options);
    let push =
        |trace: &mut Trace, s: ChargeStep| trace.push(rule, Effect::Maneuver(ManeuverEffect::Charge(s)));
    let cands = attack_squares(enc, attacker, target, budget)?;
    let Some(best) = cands.iter().map(|(d, _)| *d).min() else {
        let o = Obstacle { why: ChargeIllegal::NoSquare, square: None, creature: None };
        push(trace, ChargeStep::Illegal(o.clone()));
        c.obstacle = Some(o);
        return Ok(c);
    };
    c.closest = cands.iter().filter(|(d, _)| *d == best).map(|(_, s)| *s).collect();
    c.closest.sort_by_key(|s| (s.y, s.x));
    c.closest_ft = Some(best);
    push(trace, ChargeStep::Closest { squares: c.closest.clone(), feet: best });
    c.line_of_sight = scene.line_of_sight(&From::Space(start), &enc.space(t), budget)?.is_some();
    push(trace, ChargeStep::Sight { clear: c.line_of_sight });
    // The end squares to test.
    let (ends, extra): (Vec<Square>, Vec<Square>) = match &path {
        Some(p) => {
            let end = p.last().copied().unwrap_or(start.anchor);
            let extra: Vec<Square> = p
                .iter()
                .flat_map(|&s| Space { anchor: s, side: start.side }.squares().collect::<Vec<_>>())
                .collect();
            (vec![end], extra)
        }
        None => (c.closest.clone(), Vec::new()),
    };
    for &end in &ends {
        let e = test_end(scene, attacker, end, &extra, c.max_ft, c.path_test, budget)?;
        push(trace, ChargeStep::Tested { test: c.path_test, end: e.clone() });
        c.tested.push(e);
    }
    c.choose(path.as_deref());
    if c.legal {
        c.opportunities = opportunities_along(scene, attacker, &c.path, budget)?;
    }
    c.explain_verdict(trace);
    Ok(c)
}

impl Charge {
    /// A charge not yet tested (and so not legal).
    fn new(r: &ChargeRule, start: Square, max_ft: u32, options: &ChargeOptions) -> Self {
        let &ChargeRule { rule, attack_bonus, ac_penalty, path: path_test } = r;
        Charge {
            rule,
            legal: false,
            obstacle: None,
            start,
            end: None,
            movement_ft: None,
            max_ft,
            closest: Vec::new(),
            closest_ft: None,
            alternatives: Vec::new(),
            path_test,
            path_squares: Vec::new(),
            tested: Vec::new(),
            line_of_sight: false,
            then: options.then,
            attack_bonus,
            ac_penalty,
            path: Vec::new(),
            opportunities: Vec::new(),
            charger_gains: Vec::new(),
        }
    }

    /// The end chosen among the tested ones (the first clear one, else the first), and
    /// whether the charge is legal: a given path must end on a closest square, and the
    /// charger must see the target.
    fn choose(&mut self, path: Option<&[Square]>) {
        let c = self;
        let start = c.start;
        let chosen = c.tested.iter().find(|e| e.obstacle.is_none()).or(c.tested.first()).cloned();
        if let Some(e) = &chosen {
            c.end = Some(e.end);
            c.movement_ft = Some(e.movement_ft);
            c.path_squares = e.squares.clone();
            c.obstacle = e.obstacle.clone();
            c.alternatives =
                c.tested.iter().filter(|o| o.obstacle.is_none() && o.end != e.end).map(|o| o.end).collect();
        }
        if let Some(end) = c.end
            && path.is_some()
            && !c.closest.contains(&end)
        {
            c.obstacle = Some(Obstacle { why: ChargeIllegal::NotClosest, square: Some(end), creature: None });
        }
        if !c.line_of_sight {
            c.obstacle = Some(Obstacle { why: ChargeIllegal::NoLineOfSight, square: None, creature: None });
        }
        c.legal = c.obstacle.is_none();
        if c.legal {
            c.charger_gains = vec![Condition::Charged];
        }
        if let Some(end) = c.end {
            c.path = match path {
                Some(p) => std::iter::once(start).chain(p.iter().copied()).collect(),
                None => straight_path(start, end),
            };
        }
    }

    /// The verdict's step, and the attacks of opportunity the charge provokes.
    fn explain_verdict(&self, trace: &mut Trace) {
        let c = self;
        let (rule, attack_bonus, ac_penalty) = (c.rule, c.attack_bonus, c.ac_penalty);
        let push =
            |trace: &mut Trace, s: ChargeStep| trace.push(rule, Effect::Maneuver(ManeuverEffect::Charge(s)));
        match (&c.obstacle, c.end, c.movement_ft) {
            (Some(o), _, _) => push(trace, ChargeStep::Illegal(o.clone())),
            (None, Some(end), Some(ft)) => push(
                trace,
                ChargeStep::Legal {
                    end,
                    movement_ft: ft,
                    attack_bonus,
                    ac_penalty,
                    alternatives: c.alternatives.clone(),
                },
            ),
            _ => {}
        }
        for o in &c.opportunities {
            trace.push(o.rule, Effect::Maneuver(ManeuverEffect::Charge(ChargeStep::Provokes(o.clone()))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encounter::{Creature, Grid, Size};
    use crate::ruleset::Variants;

    fn sq(x: i32, y: i32) -> Square {
        Square::new(x, y)
    }

    fn enc(ruleset: RulesetId, creatures: &[(&str, &str, Square)]) -> Encounter {
        Encounter {
            ruleset,
            variants: Variants::resolve(ruleset.rules(), []),
            grid: Grid::open(10, 5),
            environment: Default::default(),
            creatures: creatures
                .iter()
                .map(|(id, side, at)| Creature::new(id, side, *at, Size::Medium))
                .collect(),
        }
    }

    fn run(e: &Encounter, path: Option<Vec<Square>>) -> Charge {
        let mut b = Budget::unlimited();
        let scene = Scene::new(e, &mut b).unwrap();
        let opts = ChargeOptions { path, then: None, standard_only: false };
        plan_charge(&scene, 0, 1, &opts, &mut Trace::default(), &mut b).unwrap()
    }

    /// 5e and SF have no charge rule (RULES.md defines `pf1e.charge` and `hb3d.charge` only):
    /// the charge geometry is refused instead of citing another ruleset's rule.
    #[test]
    fn no_charge_rule_no_charge() {
        for r in [RulesetId::Dnd5e2014, RulesetId::Dnd5e2024, RulesetId::Sf1e] {
            let e = enc(r, &[("A", "party", sq(0, 2)), ("T", "monsters", sq(6, 2))]);
            let mut b = Budget::unlimited();
            let scene = Scene::new(&e, &mut b).unwrap();
            let opts = ChargeOptions { path: None, then: None, standard_only: false };
            let err = plan_charge(&scene, 0, 1, &opts, &mut Trace::default(), &mut b).unwrap_err();
            let RulesError::Field { pointer, detail } = err else { panic!("{err:?}") };
            assert_eq!(pointer, "/kind");
            assert!(detail.ends_with("charge is answered for pf1e and hb3d"), "{detail}");
        }
    }

    #[test]
    fn m12_closest_squares_tie_at_25_ft() {
        // RULES.md pf1e.charge, map M12.
        let e = enc(RulesetId::Pf1e, &[("A", "party", sq(0, 2)), ("T", "monsters", sq(6, 2))]);
        let c = run(&e, None);
        assert_eq!(c.closest, vec![sq(5, 1), sq(5, 2), sq(5, 3)]);
        assert_eq!(c.closest_ft, Some(25));
        assert!(c.legal);
    }

    #[test]
    fn m12_end_5_2_hull_is_the_row() {
        let e = enc(RulesetId::Pf1e, &[("A", "party", sq(0, 2)), ("T", "monsters", sq(6, 2))]);
        let c = run(&e, Some(vec![sq(1, 2), sq(2, 2), sq(3, 2), sq(4, 2), sq(5, 2)]));
        assert!(c.legal, "{c:?}");
        assert_eq!(c.path_squares, vec![sq(1, 2), sq(2, 2), sq(3, 2), sq(4, 2)]);
        assert_eq!(c.movement_ft, Some(25));
    }

    #[test]
    fn m12_hull_of_5_1() {
        let h = hull(&Space { anchor: sq(0, 2), side: 1 }, &Space { anchor: sq(5, 1), side: 1 });
        let mut got = Vec::new();
        for y in 0..5 {
            for x in 0..7 {
                let s = sq(x, y);
                if s != sq(0, 2) && s != sq(5, 1) && square_meets_hull(&h, s) {
                    got.push(s);
                }
            }
        }
        got.sort_by_key(|s| (s.x, s.y));
        let mut want = vec![
            sq(0, 1),
            sq(1, 1),
            sq(2, 1),
            sq(3, 1),
            sq(4, 1),
            sq(1, 2),
            sq(2, 2),
            sq(3, 2),
            sq(4, 2),
            sq(5, 2),
        ];
        want.sort_by_key(|s| (s.x, s.y));
        assert_eq!(got, want);
    }

    #[test]
    fn m12_ally_blocks_pf1_but_not_hb3d() {
        let cs = [("A", "party", sq(0, 2)), ("T", "monsters", sq(6, 2)), ("B", "party", sq(3, 2))];
        let c = run(&enc(RulesetId::Pf1e, &cs), None);
        assert!(!c.legal);
        assert!(
            c.tested
                .iter()
                .all(|t| t.obstacle.as_ref().is_some_and(|o| o.why == ChargeIllegal::PathCreature))
        );
        let c = run(&enc(RulesetId::Hb3d, &cs), None);
        assert!(c.legal, "{c:?}");
        assert_eq!(c.end, Some(sq(5, 1)));
        assert_eq!(c.path_squares, vec![sq(3, 1), sq(4, 1), sq(1, 2), sq(2, 2)]);
    }

    #[test]
    fn helpless_ally_does_not_count() {
        let mut e = enc(
            RulesetId::Pf1e,
            &[("A", "party", sq(0, 2)), ("T", "monsters", sq(6, 2)), ("B", "party", sq(3, 2))],
        );
        e.creatures[2].conditions.push(Condition::Unconscious);
        assert!(run(&e, None).legal);
    }

    #[test]
    fn too_short_and_too_long() {
        let c = run(&enc(RulesetId::Pf1e, &[("A", "party", sq(4, 2)), ("T", "monsters", sq(6, 2))]), None);
        assert_eq!(c.obstacle.map(|o| o.why), Some(ChargeIllegal::TooShort));
        let mut e = enc(RulesetId::Pf1e, &[("A", "party", sq(0, 2)), ("T", "monsters", sq(6, 2))]);
        e.creatures[0].speed_ft = Some(10);
        assert_eq!(run(&e, None).obstacle.map(|o| o.why), Some(ChargeIllegal::TooLong));
    }

    #[test]
    fn difficult_terrain_on_the_row() {
        let mut e = enc(RulesetId::Pf1e, &[("A", "party", sq(0, 2)), ("T", "monsters", sq(6, 2))]);
        e.grid.terrain = vec![Terrain::OPEN; 50];
        e.grid.terrain[2 * 10 + 3] = Terrain::DIFFICULT;
        let c = run(&e, Some(vec![sq(1, 2), sq(2, 2), sq(3, 2), sq(4, 2), sq(5, 2)]));
        assert_eq!(
            c.obstacle.map(|o| (o.why, o.square)),
            Some((ChargeIllegal::DifficultTerrain, Some(sq(3, 2))))
        );
    }

    #[test]
    fn thin_walls_on_and_off_the_hull() {
        use crate::encounter::{Wall, WallKind};
        let row = vec![sq(1, 2), sq(2, 2), sq(3, 2), sq(4, 2), sq(5, 2)];
        let mut e = enc(RulesetId::Pf1e, &[("A", "party", sq(0, 2)), ("T", "monsters", sq(6, 2))]);
        e.grid.walls.push(Wall {
            from: Point::lattice(3, 0),
            to: Point::lattice(3, 1),
            kind: WallKind::Solid,
        });
        assert!(run(&e, Some(row.clone())).legal);
        assert!(run(&e, None).legal, "the hull of (5,1) passes below ⟨3,1⟩");
        e.grid.walls.push(Wall {
            from: Point::lattice(3, 2),
            to: Point::lattice(3, 3),
            kind: WallKind::Solid,
        });
        let c = run(&e, Some(row));
        assert_eq!(c.obstacle.map(|o| o.why), Some(ChargeIllegal::PathBlocked));
    }

    #[test]
    fn a_path_must_end_on_a_closest_square() {
        let e = enc(RulesetId::Pf1e, &[("A", "party", sq(0, 2)), ("T", "monsters", sq(6, 2))]);
        let c = run(&e, Some(vec![sq(1, 2), sq(2, 2), sq(3, 2), sq(4, 2), sq(5, 2), sq(5, 1), sq(4, 1)]));
        assert_eq!(c.obstacle.map(|o| o.why), Some(ChargeIllegal::NotClosest));
    }

    #[test]
    fn hb3d_line_through_a_solid_corner_is_blocked() {
        // A (0,0) → end (3,3) next to T (4,4): the centre line passes the corners ⟨1,1⟩, ⟨2,2⟩, ⟨3,3⟩;
        // a solid (1,0) beside the first one forbids the diagonal step (`grid.move.corner-cutting`).
        let mut e = enc(RulesetId::Hb3d, &[("A", "party", sq(0, 0)), ("T", "monsters", sq(4, 4))]);
        let c = run(&e, Some(vec![sq(1, 1), sq(2, 2), sq(3, 3)]));
        assert!(c.legal, "{c:?}");
        e.grid.terrain = vec![Terrain::OPEN; 50];
        e.grid.terrain[1] = Terrain::SOLID;
        let c = run(&e, Some(vec![sq(1, 1), sq(2, 2), sq(3, 3)]));
        assert_eq!(c.obstacle.map(|o| (o.why, o.square)), Some((ChargeIllegal::PathBlocked, Some(sq(1, 0)))));
    }
}
