//! An encounter prepared for line tests: the wall index and who stands where, built once per
//! request (and reused by every pair of `/v1/analyze`). Also `grid.line-of-effect` and
//! `grid.line-of-sight`, which every positional rule reuses.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::budget::Budget;
use crate::encounter::{Encounter, Terrain, WallKind};
use crate::error::RulesError;
use crate::grid::line::{Blockers, Endpoint, Grazing, LineError, Segment, Wall as IndexedWall, WallIndex};
use crate::grid::{Point, Space, Square};
use crate::hash::BuildFx;

/// An encounter ready for line tests.
#[derive(Debug)]
pub struct Scene<'e> {
    /// The encounter.
    pub enc: &'e Encounter,
    /// Every wall, id = its index in `enc.grid.walls`.
    pub walls: WallIndex,
    /// Per square (row-major): index + 1 of the first creature standing there, 0 if none.
    occupants: Vec<u32>,
    /// Per square (row-major): the terrain bits, plus [`OCCUPIED`] — one lookup for the
    /// line tests' hot path.
    cells: Vec<u8>,
    /// Line of effect and line of sight already answered in this request (several questions
    /// of one request ask the same pair: an attack asks cover and concealment; `/v1/analyze`
    /// asks thousands of pairs, hence a map).
    sight_cache: RefCell<SightCache>,
}

/// A cached line-of-effect (false) or line-of-sight (true) question.
type SightKey = (bool, From, Space);

/// The answers: the first clear segment, if any.
type SightCache = HashMap<SightKey, Option<(Point, Point)>, BuildFx>;

/// Squares of the cell arrays filled per work unit (a store and a terrain lookup each).
const CELLS_PER_UNIT: u64 = 8;

/// Bit set in [`Scene::cell`] for a square some creature stands on (terrain bits use 0–5).
pub const OCCUPIED: u8 = 1 << 7;

/// Maps a line-test error to the rules error the server reports.
pub fn line_error(e: LineError) -> RulesError {
    match e {
        LineError::Budget(b) => RulesError::Budget(b),
        LineError::OutOfRange => RulesError::field(
            "/encounter/grid",
            "a point of the encounter lies outside the supported 1024×1024 range",
        ),
    }
}

impl<'e> Scene<'e> {
    /// Prepares an encounter.
    pub fn new(enc: &'e Encounter, budget: &mut Budget) -> Result<Scene<'e>, RulesError> {
        let walls = enc.grid.walls.iter().enumerate().map(|(i, w)| IndexedWall {
            id: u32::try_from(i).unwrap_or(u32::MAX),
            from: w.from,
            to: w.to,
        });
        let walls = WallIndex::new(walls, budget).map_err(line_error)?;
        let (w, h) = (enc.grid.width.max(0) as usize, enc.grid.height.max(0) as usize);
        // Two arrays of one entry per square, filled once: refused before they are allocated
        // when the budget cannot pay for them.
        let cells = u64::try_from(w.saturating_mul(h)).unwrap_or(u64::MAX) / CELLS_PER_UNIT;
        budget.afford(cells)?;
        budget.spend(cells)?;
        let mut occupants = vec![0u32; w.saturating_mul(h)];
        for (i, c) in enc.creatures.iter().enumerate() {
            let side = u64::from(enc.space(c).side.unsigned_abs());
            budget.spend(1 + side.saturating_mul(side))?;
            for sq in enc.space(c).squares() {
                if let Some(slot) = Self::slot_in(enc, sq).and_then(|s| occupants.get_mut(s))
                    && *slot == 0
                {
                    *slot = u32::try_from(i + 1).unwrap_or(0);
                }
            }
        }
        let mut cells = vec![0u8; w.saturating_mul(h)];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = enc.grid.terrain.get(i).map_or(0, |t| t.0) | if occupants[i] > 0 { OCCUPIED } else { 0 };
        }
        Ok(Scene { enc, walls, occupants, cells, sight_cache: RefCell::new(HashMap::default()) })
    }

    fn slot_in(enc: &Encounter, sq: Square) -> Option<usize> {
        enc.grid.contains(sq).then(|| sq.y as usize * enc.grid.width as usize + sq.x as usize)
    }

    /// The first creature standing on a square.
    pub fn occupant(&self, sq: Square) -> Option<usize> {
        let v = *Self::slot_in(self.enc, sq).and_then(|s| self.occupants.get(s))?;
        (v > 0).then(|| v as usize - 1)
    }

    /// The terrain of a square (open off the map).
    pub fn terrain(&self, sq: Square) -> Terrain {
        Terrain(self.cell(sq) & !OCCUPIED)
    }

    /// Terrain bits and [`OCCUPIED`] of a square; 0 off the map.
    #[inline(always)]
    pub fn cell(&self, sq: Square) -> u8 {
        let g = &self.enc.grid;
        if sq.x < 0 || sq.y < 0 || sq.x >= g.width || sq.y >= g.height {
            return 0;
        }
        self.cells.get(sq.y as usize * g.width as usize + sq.x as usize).copied().unwrap_or(0)
    }

    /// The kind of a wall by id.
    pub fn wall_kind(&self, id: u32) -> Option<WallKind> {
        self.enc.grid.walls.get(id as usize).map(|w| w.kind)
    }

    /// Whether some wall passes through a point (then rule 6 needs to know which square an end
    /// point was taken from).
    pub fn wall_at(&self, p: Point) -> bool {
        self.walls.walls_at(p).next().is_some()
    }

    /// An end point taken from a square, keeping the square only where it matters (a wall
    /// through the point), so that equal segments can be shared.
    pub fn endpoint(&self, p: Point, sq: Square) -> Endpoint {
        if self.wall_at(p) { Endpoint::of_square(p, sq) } else { Endpoint::point(p) }
    }

    /// Every corner of a space as end points (a corner shared by squares is one end point,
    /// unless a wall passes through it: then one per square, RULES.md rule 6).
    pub fn corners(&self, space: &Space) -> Vec<Endpoint> {
        let mut out: Vec<Endpoint> = Vec::with_capacity(((space.side + 1) * (space.side + 1)) as usize);
        for sq in space.squares() {
            for c in sq.corners() {
                let e = self.endpoint(c, sq);
                if !out.contains(&e) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// `grid.line-of-effect`: a segment from some corner of `from` (or from the origin point)
    /// to some corner of `to` not blocked by solid squares, solid walls, closed doors or
    /// windows, grazing off. Returns the first clear segment found.
    pub fn line_of_effect(
        &self,
        from: &From,
        to: &Space,
        budget: &mut Budget,
    ) -> Result<Option<(Point, Point)>, RulesError> {
        self.cached(false, from, to, budget, |s, b| s.effect_uncached(from, to, b))
    }

    /// Forgets the remembered sight answers (benchmarks measure cold questions with it).
    pub fn forget_sight(&self) {
        self.sight_cache.borrow_mut().clear();
    }

    /// Looks up or computes and remembers a sight answer.
    fn cached(
        &self,
        sight: bool,
        from: &From,
        to: &Space,
        budget: &mut Budget,
        compute: impl FnOnce(&Self, &mut Budget) -> Result<Option<(Point, Point)>, RulesError>,
    ) -> Result<Option<(Point, Point)>, RulesError> {
        let key = (sight, *from, *to);
        let hit = self.sight_cache.borrow().get(&key).copied();
        if let Some(answer) = hit {
            return Ok(answer);
        }
        let answer = compute(self, budget)?;
        self.sight_cache.borrow_mut().insert(key, answer);
        Ok(answer)
    }

    fn effect_uncached(
        &self,
        from: &From,
        to: &Space,
        budget: &mut Budget,
    ) -> Result<Option<(Point, Point)>, RulesError> {
        let squares = |sq: Square| self.terrain(sq).has(Terrain::SOLID).then_some(Grazing::Off);
        let walls = |id: u32| match self.wall_kind(id) {
            Some(WallKind::Solid | WallKind::DoorClosed | WallKind::Window) => Some(Grazing::Off),
            _ => None,
        };
        self.first_clear(from, to, &Blockers::new(&squares, &self.walls, walls), budget)
    }

    /// `grid.line-of-sight`: as line of effect, but windows let sight through and heavily
    /// obscured `%` squares block it (`grid.obscured.heavy`); the two creatures' own squares
    /// never block.
    pub fn line_of_sight(
        &self,
        from: &From,
        to: &Space,
        budget: &mut Budget,
    ) -> Result<Option<(Point, Point)>, RulesError> {
        self.cached(true, from, to, budget, |s, b| s.sight_uncached(from, to, b))
    }

    fn sight_uncached(
        &self,
        from: &From,
        to: &Space,
        budget: &mut Budget,
    ) -> Result<Option<(Point, Point)>, RulesError> {
        let own = |sq: Square| to.contains(sq) || matches!(from, From::Space(s) if s.contains(sq));
        let squares = |sq: Square| {
            let t = self.terrain(sq);
            (t.has(Terrain::SOLID) || (t.has(Terrain::OPAQUE) && !own(sq))).then_some(Grazing::Off)
        };
        let walls = |id: u32| match self.wall_kind(id) {
            Some(WallKind::Solid | WallKind::DoorClosed) => Some(Grazing::Off),
            _ => None,
        };
        self.first_clear(from, to, &Blockers::new(&squares, &self.walls, walls), budget)
    }

    /// Whether light from a source point reaches a point: line of effect along the segment
    /// (solid squares, solid walls, closed doors and windows block).
    pub fn light_reaches(&self, from: Point, to: Point, budget: &mut Budget) -> Result<bool, RulesError> {
        let squares = |sq: Square| self.terrain(sq).has(Terrain::SOLID).then_some(Grazing::Off);
        let walls = |id: u32| match self.wall_kind(id) {
            Some(WallKind::Solid | WallKind::DoorClosed | WallKind::Window) => Some(Grazing::Off),
            _ => None,
        };
        let seg = Segment::new(from, to);
        Ok(!Blockers::new(&squares, &self.walls, walls).is_blocked(&seg, budget).map_err(line_error)?)
    }

    fn first_clear<S: crate::grid::line::SquareBlockers, W: crate::grid::line::WallBlockers>(
        &self,
        from: &From,
        to: &Space,
        b: &Blockers<'_, S, W>,
        budget: &mut Budget,
    ) -> Result<Option<(Point, Point)>, RulesError> {
        let starts = match from {
            From::Space(s) => self.corners(s),
            From::Point(p) => vec![Endpoint::point(*p)],
        };
        let ends = self.corners(to);
        for a in &starts {
            for b_end in &ends {
                let seg = Segment::between(*a, *b_end);
                if !b.is_blocked(&seg, budget).map_err(line_error)? {
                    return Ok(Some((a.at, b_end.at)));
                }
            }
        }
        Ok(None)
    }
}

/// Where a line starts: a creature's space or a point of origin (an area effect).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum From {
    /// Every corner of a space.
    Space(Space),
    /// One point.
    Point(Point),
}
