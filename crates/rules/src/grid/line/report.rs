//! What a blocked line met: every blocking element, with the case of `grid.line.blocked` that
//! applied and where, so that callers can filter elements per test (low obstacles within 30 ft
//! of the meeting point, RULES.md `pf1e.cover.low-obstacles` and Q-40) and say in the trace
//! which case decided.

use super::geom::Xy;
use super::wide::Ratio;
use crate::grid::{FRAC_BITS, ONE, Point, Square};

/// A side of the segment, looking from its `from` end towards its `to` end on the map
/// (x east, y south): walking east, south is on the right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// To the left of the direction of travel.
    Left,
    /// To the right of the direction of travel.
    Right,
}

impl Side {
    /// The side of a point from the sign of `d × (v − from)` (positive is right).
    pub(crate) fn of(cross: i128) -> Option<Side> {
        match cross.signum() {
            1 => Some(Side::Right),
            -1 => Some(Side::Left),
            _ => None,
        }
    }
}

/// The inclusive range of squares whose closed region contains a point: one square, the two
/// squares sharing an edge, or the four squares around a lattice point. Squares just outside
/// the grid may appear (a point on the map's border); they are never nearer to anything on the
/// map than the square inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquareSpan {
    /// The north-west-most square.
    pub min: Square,
    /// The south-east-most square (equal to `min`, or one further on either axis).
    pub max: Square,
}

impl SquareSpan {
    /// The squares whose closed region contains an exact point.
    pub fn around(p: Point) -> SquareSpan {
        let axis = |raw: i128| {
            let c = (raw >> FRAC_BITS) as i32;
            if raw & (ONE - 1) == 0 { (c.saturating_sub(1), c) } else { (c, c) }
        };
        let (x0, x1) = axis(p.x.0);
        let (y0, y1) = axis(p.y.0);
        SquareSpan { min: Square::new(x0, y0), max: Square::new(x1, y1) }
    }

    /// Whether a square is one of them.
    pub fn contains(&self, sq: Square) -> bool {
        (self.min.x..=self.max.x).contains(&sq.x) && (self.min.y..=self.max.y).contains(&sq.y)
    }

    /// The squares, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        let s = *self;
        (s.min.y..=s.max.y).flat_map(move |y| (s.min.x..=s.max.x).map(move |x| Square::new(x, y)))
    }
}

/// A point where the segment meets a blocking element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Meeting {
    /// Where along the segment, exactly: 0 at `from`, 1 at `to`.
    pub along: Ratio,
    /// The squares whose closed region contains the point (RULES.md Q-40 measures a low wall's
    /// distance to these).
    pub squares: SquareSpan,
    /// The exact point, when it is one of the given points (a segment or wall end point, a
    /// lattice point). A crossing in the middle of a wall is a general rational point: `None`.
    pub point: Option<Point>,
    /// The point in squares, approximately (for display and drawing only).
    pub approx: (f64, f64),
}

impl Meeting {
    /// A meeting at an exact point `v` that lies on the segment `[p, q]`.
    pub(crate) fn exact(p: Xy, q: Xy, v: Xy) -> Meeting {
        let point = v.point();
        Meeting {
            along: super::geom::along(p, q, v),
            squares: SquareSpan::around(point),
            point: Some(point),
            approx: (point.x.to_f64(), point.y.to_f64()),
        }
    }
}

/// Where a wall was met.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WallMeet {
    /// At one point.
    At(Meeting),
    /// Along a piece of the wall, between two points ordered from `from` to `to` (so the second
    /// is the one nearer to the segment's `to` end).
    Along(Meeting, Meeting),
}

/// How a square of B blocks (rules 1 and 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SquareCase {
    /// Rule 1: the segment enters the open square.
    Interior,
    /// Rule 2: the segment runs along the square's edge and the square counts grazing.
    Graze,
}

/// How a wall of B blocks (rules 5 and 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WallCase {
    /// Rule 5: the segment crosses the wall.
    Cross,
    /// Rule 5: the segment runs along the wall and the wall counts grazing.
    Overlap,
    /// Rule 6 (`grid.line.endpoint-inside`): an end point of the segment lies on the wall and,
    /// moved infinitesimally towards the centre of the square it was taken from, the segment
    /// crosses the wall (or runs along it, grazing).
    EndpointOnWall,
}

/// An element of B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Element {
    /// A square.
    Square(Square),
    /// A thin wall, by the caller's id.
    Wall(u32),
}

/// Rule 4: the segment passes through a point with blocking elements touching it strictly on
/// both of its sides.
#[derive(Debug, Clone, PartialEq)]
pub struct Pinch {
    /// The pinch point: a lattice point or a wall end point (exact).
    pub at: Meeting,
    /// Elements of B touching the point, lying strictly on the left.
    pub left: Vec<Element>,
    /// Elements of B touching the point, lying strictly on the right.
    pub right: Vec<Element>,
    /// True when this is rule 4 applied to the segment with moved end points (rule 6): only
    /// walls tested with the moved segment count (those through a moved end point, and those
    /// the segment runs along).
    pub moved_end: bool,
}

/// One reason a segment is blocked.
#[derive(Debug, Clone, PartialEq)]
pub enum Hit {
    /// Rules 1–2: a square of B.
    Square {
        /// The square.
        square: Square,
        /// Interior or graze.
        case: SquareCase,
    },
    /// Rule 3: the segment runs along the edge between two squares of B (any grazing flag).
    Seam {
        /// The two squares on either side of the edge (north then south, or west then east).
        squares: [Square; 2],
    },
    /// Rule 4 (also on a moved segment, see [`Pinch::moved_end`]).
    Pinch(Pinch),
    /// Rules 5–6: a wall of B.
    Wall {
        /// The caller's id of the wall.
        id: u32,
        /// Cross, overlap or end point on the wall.
        case: WallCase,
        /// Where: the crossing point, the piece run along, or the end point that lies on the
        /// wall (rule 6; RULES.md Q-40 takes it as the meeting point).
        meet: WallMeet,
    },
    /// Rule 7 (`grid.line.along-wall`): the segment runs along walls of B and, displaced
    /// infinitesimally towards the side its end squares lie on, crosses a wall of B that meets
    /// them at a point of the part it runs along (a closed door at a room's corner, a
    /// T-junction).
    AlongWall {
        /// The caller's id of the wall the displaced segment crosses.
        wall: u32,
        /// The walls of B the segment runs along that this wall meets at the junction (the
        /// hit needs one of them in B, and the crossed wall).
        along: Vec<u32>,
        /// The junction: where the displaced segment crosses the wall, in the limit (RULES.md
        /// Q-40 takes it as the meeting point of every wall of the hit).
        at: Meeting,
    },
}

impl Hit {
    /// The rule of `grid.line.blocked` (1–7) that this hit applies.
    pub fn rule(&self) -> u8 {
        match self {
            Hit::Square { case: SquareCase::Interior, .. } => 1,
            Hit::Square { case: SquareCase::Graze, .. } => 2,
            Hit::Seam { .. } => 3,
            Hit::Pinch(p) if p.moved_end => 6,
            Hit::Pinch(_) => 4,
            Hit::Wall { case: WallCase::EndpointOnWall, .. } => 6,
            Hit::Wall { .. } => 5,
            Hit::AlongWall { .. } => 7,
        }
    }

    /// Whether the hit still blocks when only the elements `keep` accepts are in B: a square or
    /// wall hit needs its element, a seam both squares, a pinch one element on each side, a
    /// rule-7 hit the crossed wall and one wall it runs along.
    pub fn blocks_keeping(&self, mut keep: impl FnMut(Element) -> bool) -> bool {
        match self {
            Hit::Square { square, .. } => keep(Element::Square(*square)),
            Hit::Seam { squares: [a, b] } => keep(Element::Square(*a)) && keep(Element::Square(*b)),
            Hit::Pinch(p) => p.left.iter().any(|e| keep(*e)) && p.right.iter().any(|e| keep(*e)),
            Hit::Wall { id, .. } => keep(Element::Wall(*id)),
            Hit::AlongWall { wall, along, .. } => {
                keep(Element::Wall(*wall)) && along.iter().any(|w| keep(Element::Wall(*w)))
            }
        }
    }
}

/// Everything that blocks a segment (empty when the segment is clear).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineReport {
    /// Every blocking element met, each wall once, roughly in order along the segment (sort by
    /// the meeting points' `along` for a strict order).
    pub hits: Vec<Hit>,
}

impl LineReport {
    /// Whether the segment is blocked.
    pub fn is_blocked(&self) -> bool {
        !self.hits.is_empty()
    }

    /// Whether the segment stays blocked when only some elements count: `keep` receives each
    /// hit and each of its elements (so a low wall can be judged at its meeting point).
    ///
    /// Exact for every rule except one corner case of rule 6: whether an end point moves
    /// depends on *any* wall of B passing through it, so dropping a wall that only moved an
    /// end point can change how other walls through the same point are tested. When a dropped
    /// wall passes through an end point of the segment, re-run the test with the filtered B
    /// for an exact answer.
    pub fn blocked_keeping(&self, mut keep: impl FnMut(&Hit, Element) -> bool) -> bool {
        self.hits.iter().any(|h| h.blocks_keeping(|e| keep(h, e)))
    }
}
