//! An encounter prepared for line tests: the wall index and who stands where, built once per
//! request (and reused by every pair of `/v1/analyze`). Also `grid.line-of-effect` and
//! `grid.line-of-sight`, which every positional rule reuses.

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;

use crate::budget::Budget;
use crate::encounter::{Encounter, Terrain, WallKind};
use crate::error::RulesError;
use crate::grid::census::{Census, around};
use crate::grid::line::{Blockers, Endpoint, Grazing, LineError, Segment, Wall as IndexedWall, WallIndex};
use crate::grid::{FRAC_BITS, ONE, Point, Space, Square};
use crate::hash::BuildFx;

/// An encounter ready for line tests.
#[derive(Debug)]
pub struct Scene<'e> {
    /// The encounter.
    pub enc: &'e Encounter,
    /// Every wall, id = its index in `enc.grid.walls`.
    pub walls: WallIndex,
    /// Per square (row-major): index + 1 of the first creature standing there, 0 if none;
    /// filled on first use.
    occupants: OnceCell<Vec<u32>>,
    /// Per square (row-major): the terrain bits, plus [`OCCUPIED`] and [`WALLED`] — one lookup
    /// for the line tests' hot path.
    cells: Vec<u8>,
    /// Line of effect and line of sight already answered in this request (several questions
    /// of one request ask the same pair: an attack asks cover and concealment; `/v1/analyze`
    /// asks thousands of pairs, hence a map).
    sight_cache: RefCell<SightCache>,
    /// Squares that conceal (concealing or opaque terrain), counted by rectangle: built on
    /// first use.
    concealing: Lazy,
    /// Some wall is a window (which blocks effect but not sight).
    has_windows: bool,
    /// Some wall is an arrow slit.
    has_arrow_slits: bool,
    /// The lines the walls lie on (rule 7 needs the squares of end points on them).
    wall_lines: WallLines,
    /// Squares where a line may meet something: solid, low or opaque terrain, a creature, or
    /// a wall bucket holding a wall. Built on first use.
    eventful: Lazy,
    /// Squares where a line of effect may be blocked: solid terrain, or a wall bucket holding
    /// a wall. Built on first use.
    obstructed: Lazy,
}

/// A census built once enough squares have been looked at one by one.
#[derive(Debug, Default)]
struct Lazy {
    built: OnceCell<Census>,
    /// Squares looked at one by one so far.
    looked: Cell<u64>,
}

/// A cached line-of-effect (false) or line-of-sight (true) question.
type SightKey = (bool, From, Space);

/// The answers: the first clear segment, if any.
type SightCache = HashMap<SightKey, Option<(Point, Point)>, BuildFx>;

/// Squares a scene looks at one by one before it builds a census: this share of the map's,
/// plus [`SCAN_FREE`] (so that a question about one pair never builds one).
const SCAN_SHARE: u64 = 8;

/// See [`SCAN_SHARE`].
const SCAN_FREE: u64 = 4096;

/// Squares of a census built per work unit.
const CENSUS_CELLS_PER_UNIT: u64 = 4;

/// Squares of the cell arrays filled per work unit (a store and a terrain lookup each).
const CELLS_PER_UNIT: u64 = 8;

/// Bit set in [`Scene::cell`] for a square some creature stands on (terrain bits use 0–5).
pub const OCCUPIED: u8 = 1 << 7;

/// Bit of the cell array for a square whose wall bucket holds a wall (a line through it may
/// meet one).
const WALLED: u8 = 1 << 6;

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
        let area = w.saturating_mul(h);
        let mut cells: Vec<u8> = enc.grid.terrain.iter().take(area).map(|t| t.0).collect();
        cells.resize(area, 0);
        // The occupant of each square is looked up only to name what a line met (rarely
        // needed): its array is filled on first use, and paid for here.
        for c in &enc.creatures {
            let space = enc.space(c);
            let side = u64::from(space.side.unsigned_abs());
            budget.spend(1 + side.saturating_mul(side))?;
            for sq in space.squares() {
                if let Some(cell) = Self::slot_in(enc, sq).and_then(|s| cells.get_mut(s)) {
                    *cell |= OCCUPIED;
                }
            }
        }
        // Buckets do not overlap: at most one more store per square.
        for [x0, y0, x1, y1] in walls.walled_areas() {
            for y in y0.max(0)..=y1.min(h as i64 - 1) {
                for x in x0.max(0)..=x1.min(w as i64 - 1) {
                    if let Some(c) = cells.get_mut(y as usize * w + x as usize) {
                        *c |= WALLED;
                    }
                }
            }
        }

        Ok(Scene {
            enc,
            walls,
            occupants: OnceCell::new(),
            cells,
            sight_cache: RefCell::new(HashMap::default()),
            concealing: Lazy::default(),
            has_windows: enc.grid.walls.iter().any(|w| w.kind == WallKind::Window),
            has_arrow_slits: enc.grid.walls.iter().any(|w| w.kind == WallKind::ArrowSlit),
            wall_lines: WallLines::new(enc),
            eventful: Lazy::default(),
            obstructed: Lazy::default(),
        })
    }

    /// One more than the index of the first creature standing on each square (0: none).
    fn occupants(enc: &Encounter) -> Vec<u32> {
        let (w, h) = (enc.grid.width.max(0) as usize, enc.grid.height.max(0) as usize);
        let mut occupants = vec![0u32; w.saturating_mul(h)];
        for (i, c) in enc.creatures.iter().enumerate() {
            for sq in enc.space(c).squares() {
                if let Some(slot) = Self::slot_in(enc, sq).and_then(|s| occupants.get_mut(s))
                    && *slot == 0
                {
                    *slot = u32::try_from(i + 1).unwrap_or(0);
                }
            }
        }
        occupants
    }

    fn slot_in(enc: &Encounter, sq: Square) -> Option<usize> {
        enc.grid.contains(sq).then(|| sq.y as usize * enc.grid.width as usize + sq.x as usize)
    }

    /// The first creature standing on a square.
    pub fn occupant(&self, sq: Square) -> Option<usize> {
        let occupants = self.occupants.get_or_init(|| Self::occupants(self.enc));
        let v = *Self::slot_in(self.enc, sq).and_then(|s| occupants.get(s))?;
        (v > 0).then(|| v as usize - 1)
    }

    /// The terrain of a square (open off the map).
    pub fn terrain(&self, sq: Square) -> Terrain {
        Terrain(self.cell(sq) & !(OCCUPIED | WALLED))
    }

    /// Terrain bits and [`OCCUPIED`] of a square (and a private bit for squares whose wall
    /// bucket holds a wall); 0 off the map.
    #[inline(always)]
    pub fn cell(&self, sq: Square) -> u8 {
        self.cell_index(sq).and_then(|i| self.cells.get(i)).copied().unwrap_or(0)
    }

    /// Whether the wall bucket of a square may hold a wall: marked per square on the map, and
    /// always possible off it (walls may lie beyond the map's edge).
    #[inline(always)]
    pub(crate) fn may_hold_walls(&self, sq: Square) -> bool {
        self.cell_index(sq).and_then(|i| self.cells.get(i)).is_none_or(|c| c & WALLED != 0)
    }

    /// The position of a square in the cell array; `None` off the map. One unsigned
    /// comparison per axis also rejects negative coordinates.
    #[inline(always)]
    fn cell_index(&self, sq: Square) -> Option<usize> {
        let g = &self.enc.grid;
        let (x, y, w, h) = (sq.x as u32, sq.y as u32, g.width as u32, g.height as u32);
        (x < w && y < h).then(|| y as usize * w as usize + x as usize)
    }

    /// How many squares of a box hold one of `bits`: looked at one by one while the squares
    /// looked at stay fewer than an eighth of the map's plus [`SCAN_FREE`], then by a census
    /// built once (about one look per square), so that a question about one pair never pays
    /// for a census and a whole scene pays for it once. Charged as the cell arrays are.
    fn count(
        &self,
        census: &Lazy,
        [x0, y0, x1, y1]: [i64; 4],
        budget: &mut Budget,
        bits: u8,
    ) -> Result<u32, RulesError> {
        let g = &self.enc.grid;
        let (x0, y0, x1, y1) =
            (x0.max(0), y0.max(0), x1.min(i64::from(g.width) - 1), y1.min(i64::from(g.height) - 1));
        if x0 > x1 || y0 > y1 {
            return Ok(0);
        }
        if let Some(c) = census.built.get() {
            return Ok(c.count(x0, y0, x1, y1));
        }
        let area = ((x1 - x0 + 1) * (y1 - y0 + 1)) as u64;
        let (w, h) = (g.width.max(0) as usize, g.height.max(0) as usize);
        let cells = u64::try_from(w.saturating_mul(h)).unwrap_or(u64::MAX);
        let looked = census.looked.get().saturating_add(area);
        if looked <= cells / SCAN_SHARE + SCAN_FREE {
            census.looked.set(looked);
            budget.spend(area.div_ceil(CELLS_PER_UNIT))?;
            // Clipped to the map: whole rows of the cell array.
            let n: usize = (y0..=y1)
                .map(|y| {
                    let row = (y as usize) * w;
                    let cells = self.cells.get(row + x0 as usize..=row + x1 as usize).unwrap_or(&[]);
                    cells.iter().filter(|&&c| c & bits != 0).count()
                })
                .sum();
            let n = u32::try_from(n).unwrap_or(u32::MAX);
            return Ok(n);
        }
        // Building costs about a quarter unit per square, besides the one-off marking of wall
        // buckets (measured with budget_calibration).
        budget.spend(cells / CENSUS_CELLS_PER_UNIT)?;
        let built = census.built.get_or_init(|| Census::new(w, h, &self.cells, bits));
        Ok(built.count(x0, y0, x1, y1))
    }

    /// How many concealing or opaque squares may touch a line between corners of `a` and `b`,
    /// not counting `a`'s own squares: 0 proves every such line clear of them.
    pub fn concealing_near(&self, a: &Space, b: &Space, budget: &mut Budget) -> Result<u32, RulesError> {
        const BITS: u8 = Terrain::CONCEALING.0 | Terrain::OPAQUE.0;
        let marked = |sq: Square| self.cell(sq) & BITS != 0;
        let all = self.count(&self.concealing, around(a, b), budget, BITS)?;
        let own = a.squares().filter(|&sq| marked(sq)).count();
        Ok(all.saturating_sub(u32::try_from(own).unwrap_or(u32::MAX)))
    }

    /// How many squares near a line between corners of `a` and `b` hold something a line may
    /// meet (terrain, another creature, a wall bucket with walls), besides the two spaces' own
    /// creatures: 0 proves every such line clear for every blocking set.
    pub fn eventful_near(&self, a: &Space, b: &Space, budget: &mut Budget) -> Result<u32, RulesError> {
        const BITS: u8 = Terrain::SOLID.0 | Terrain::LOW.0 | Terrain::OPAQUE.0;
        let all = self.count(&self.eventful, around(a, b), budget, BITS | OCCUPIED | WALLED)?;
        // The two creatures' own squares are occupied: that alone does not count (a
        // question never puts them in its blocking set), their terrain or walls do.
        let bare = |sq: Square| {
            let c = self.cell(sq);
            c & OCCUPIED != 0 && c & (BITS | WALLED) == 0
        };
        let own = a.squares().filter(|&sq| bare(sq)).count()
            + b.squares().filter(|&sq| !a.contains(sq) && bare(sq)).count();
        Ok(all.saturating_sub(u32::try_from(own).unwrap_or(u32::MAX)))
    }

    /// How many squares near a line between corners of `a` and `b` may block a line of
    /// effect (solid terrain, a wall bucket with walls), the two spaces' own included: 0
    /// proves that a line of effect exists.
    pub fn obstructed_near(&self, a: &Space, b: &Space, budget: &mut Budget) -> Result<u32, RulesError> {
        self.count(&self.obstructed, around(a, b), budget, Terrain::SOLID.0 | WALLED)
    }

    /// Whether some wall is an arrow slit (else no line can be blocked by one).
    pub fn has_arrow_slits(&self) -> bool {
        self.has_arrow_slits
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

    /// Whether the segment between two points may run along a wall (rule 7): it lies on the
    /// line of some wall.
    pub fn on_a_wall_line(&self, p: Point, q: Point) -> bool {
        let w = &self.wall_lines;
        w.slanted || (p.y == q.y && w.rows.contains(p.y.0)) || (p.x == q.x && w.columns.contains(p.x.0))
    }

    /// An end point taken from a square, keeping the square only where it may matter, so that
    /// equal segments can be shared: on the line of some wall. A wall through the point needs
    /// it (rule 6); so does a segment running along a wall, whose end points lie on the wall's
    /// line but not always on the wall (rule 7 displaces it towards its squares' side).
    pub fn endpoint(&self, p: Point, sq: Square) -> Endpoint {
        if self.wall_lines.through(p) { Endpoint::of_square(p, sq) } else { Endpoint::point(p) }
    }

    /// Every corner of a space as end points (a corner shared by squares is one end point,
    /// unless it lies on a wall's line: then one per square, RULES.md rules 6 and 7).
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

    /// Whether the line of effect from `from` to `to` is already known (then asking it costs
    /// nothing).
    pub fn knows_line_of_effect(&self, from: &From, to: &Space) -> bool {
        self.sight_cache.borrow().contains_key(&(false, *from, *to))
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
        // Without windows, everything that blocks effect blocks sight (RULES.md: adding
        // blockers never removes blocking), so no line of effect means no line of sight.
        let implied =
            sight && !self.has_windows && self.sight_cache.borrow().get(&(false, *from, *to)) == Some(&None);
        let answer = if implied { None } else { compute(self, budget)? };
        let mut cache = self.sight_cache.borrow_mut();
        cache.insert(key, answer);
        // Reversing a segment keeps its verdict, and the way back walks the same segments
        // against the same blockers: no line one way means no line the other way. (A line
        // found one way is not the one the other way finds first, so that is not shared.)
        if let (None, From::Space(s)) = (answer, from) {
            cache.insert((sight, From::Space(*to), *s), None);
        }
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
        if let (From::Space(s), Some(a), Some(b_end)) = (from, starts.first(), ends.first())
            && self.eventful_near(s, to, budget)? == 0
        {
            // Nothing a line could meet near the two spaces: the first line is clear.
            return Ok(Some((a.at, b_end.at)));
        }
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

/// The lines the walls lie on: the rows of horizontal walls and the columns of vertical ones,
/// and whether some wall is slanted (then every point counts).
#[derive(Debug, Default)]
struct WallLines {
    rows: Coords,
    columns: Coords,
    slanted: bool,
}

/// A set of raw coordinates: a table by whole square for lattice lines (walls snapped to the
/// grid, one look-up per corner of every line test), sorted raw values for the rest.
#[derive(Debug, Default)]
struct Coords {
    lattice: Vec<bool>,
    other: Vec<i128>,
}

impl Coords {
    /// The whole square a raw coordinate lies on, if it is a non-negative lattice value.
    fn lattice_index(v: i128) -> Option<usize> {
        (v >= 0 && v & (ONE - 1) == 0).then(|| usize::try_from(v >> FRAC_BITS).ok()).flatten()
    }

    fn new(mut all: Vec<i128>) -> Self {
        let mut set = Coords::default();
        all.retain(|&v| match Self::lattice_index(v) {
            // Walls lie in [0, 1024] squares once validated; a larger value stays in `other`.
            Some(i) if i <= 1024 => {
                if set.lattice.len() <= i {
                    set.lattice.resize(i + 1, false);
                }
                set.lattice[i] = true;
                false
            }
            _ => true,
        });
        all.sort_unstable();
        all.dedup();
        set.other = all;
        set
    }

    #[inline]
    fn contains(&self, v: i128) -> bool {
        match Self::lattice_index(v).and_then(|i| self.lattice.get(i)) {
            Some(&hit) => hit,
            None => self.other.binary_search(&v).is_ok(),
        }
    }
}

impl WallLines {
    fn new(enc: &Encounter) -> Self {
        let (mut rows, mut columns, mut slanted) = (Vec::new(), Vec::new(), false);
        for w in &enc.grid.walls {
            if w.from == w.to {
                // A point wall (rule 6 needs the squares of an end point on it).
                rows.push(w.from.y.0);
                columns.push(w.from.x.0);
            } else if w.from.y == w.to.y {
                rows.push(w.from.y.0);
            } else if w.from.x == w.to.x {
                columns.push(w.from.x.0);
            } else {
                slanted = true;
            }
        }
        WallLines { rows: Coords::new(rows), columns: Coords::new(columns), slanted }
    }

    /// Whether a point may lie on the line of some wall.
    #[inline]
    fn through(&self, p: Point) -> bool {
        self.slanted || self.rows.contains(p.y.0) || self.columns.contains(p.x.0)
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
