//! What keeps a space out of the squares of one step (`grid.move.corner-cutting`, thin walls,
//! solid squares): shared by pushes and walks ([`crate::maneuver::push`]), a mover's steps
//! (`/v1/movement`), the charge's path test and a falling rider's landing.
//!
//! [`Obstruction`] is the one answer of these tests. A push reports it as a
//! [`PushStop`] and a step as a [`StepIssue`]: those two stay apart on the wire because a push
//! also stops at the grid edge or for want of a direction and a step also runs out of
//! movement, and they see other creatures differently, so each keeps its own creature test.

use crate::budget::Budget;
use crate::encounter::{Terrain, WallKind};
use crate::error::RulesError;
use crate::grid::{Point, Space, Square};
use crate::scene::Scene;
use crate::trace::maneuver::PushStop;
use crate::trace::movement::StepIssue;

/// What keeps a space from making one step: the part a push and a step test alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Obstruction {
    /// A solid square entered.
    Solid(Square),
    /// A thin wall that blocks movement (a wall ending at a crossed corner included); the
    /// square beyond it.
    Wall(Square),
    /// A diagonal step past a solid square (`grid.move.corner-cutting`); the square entered.
    Corner(Square),
}

impl From<Obstruction> for PushStop {
    fn from(o: Obstruction) -> PushStop {
        match o {
            Obstruction::Solid(square) => PushStop::Solid { square },
            Obstruction::Wall(square) => PushStop::Wall { square },
            Obstruction::Corner(square) => PushStop::Corner { square },
        }
    }
}

impl From<Obstruction> for StepIssue {
    fn from(o: Obstruction) -> StepIssue {
        match o {
            Obstruction::Solid(square) => StepIssue::Solid { square },
            Obstruction::Wall(square) => StepIssue::Wall { square },
            Obstruction::Corner(square) => StepIssue::Corner { square },
        }
    }
}

/// A solid square keeps every space out of it.
pub(crate) fn solid(scene: &Scene<'_>, sq: Square) -> Option<Obstruction> {
    scene.terrain(sq).has(Terrain::SOLID).then_some(Obstruction::Solid(sq))
}

/// Whether a thin wall of kind `k` (`None`: a plain wall) keeps creatures from moving across it
/// (a low wall or an open door does not).
pub(crate) fn blocks_movement(k: Option<WallKind>) -> bool {
    !matches!(k, Some(WallKind::Low | WallKind::DoorOpen))
}

fn cross(o: (i128, i128), a: (i128, i128), b: (i128, i128)) -> Option<i128> {
    let l = (a.0.checked_sub(o.0)?).checked_mul(b.1.checked_sub(o.1)?)?;
    let r = (a.1.checked_sub(o.1)?).checked_mul(b.0.checked_sub(o.0)?)?;
    l.checked_sub(r)
}

fn on_box(p: (i128, i128), a: (i128, i128), b: (i128, i128)) -> bool {
    p.0 >= a.0.min(b.0) && p.0 <= a.0.max(b.0) && p.1 >= a.1.min(b.1) && p.1 <= a.1.max(b.1)
}

/// Whether the closed segments p1p2 and q1q2 meet (overflow counts as meeting: blocking is
/// the safe answer).
pub(crate) fn meet(p1: Point, p2: Point, q1: Point, q2: Point) -> bool {
    // Segments whose bounding boxes are apart cannot meet: most walls of a map are far from
    // one step, and this test is much cheaper than the four cross products.
    let apart = |a: i128, b: i128, c: i128, d: i128| a.max(b) < c.min(d) || c.max(d) < a.min(b);
    if apart(p1.x.0, p2.x.0, q1.x.0, q2.x.0) || apart(p1.y.0, p2.y.0, q1.y.0, q2.y.0) {
        return false;
    }
    let v = |p: Point| (p.x.0, p.y.0);
    let (p1, p2, q1, q2) = (v(p1), v(p2), v(q1), v(q2));
    let (Some(d1), Some(d2), Some(d3), Some(d4)) =
        (cross(q1, q2, p1), cross(q1, q2, p2), cross(p1, p2, q1), cross(p1, p2, q2))
    else {
        return true;
    };
    if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
        return true;
    }
    (d1 == 0 && on_box(p1, q1, q2))
        || (d2 == 0 && on_box(p2, q1, q2))
        || (d3 == 0 && on_box(q1, p1, p2))
        || (d4 == 0 && on_box(q2, p1, p2))
}

/// Walls tested against one step per work unit (most are rejected by their bounding box).
pub(crate) const WALLS_PER_UNIT: usize = 2;

/// Whether a blocking thin wall separates two neighbouring squares (crosses or touches the
/// centre-to-centre segment; for a diagonal step that includes a wall ending at the corner).
pub(crate) fn wall_between(
    scene: &Scene<'_>,
    from: Square,
    to: Square,
    budget: &mut Budget,
) -> Result<bool, RulesError> {
    let (a, b) = (Point::centre(from), Point::centre(to));
    for (i, w) in scene.enc.grid.walls.iter().enumerate() {
        if i % WALLS_PER_UNIT == 0 {
            budget.spend(1)?;
        }
        if blocks_movement(scene.wall_kind(u32::try_from(i).unwrap_or(u32::MAX))) && meet(a, b, w.from, w.to)
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The corner and wall test of one step of a space by `dir` (pushes, walks and
/// `/v1/movement`), besides the squares it enters: a diagonal step past a solid square
/// ([`Obstruction::Corner`]), else a thin wall that blocks movement ([`Obstruction::Wall`]).
pub(crate) fn barrier(
    scene: &Scene<'_>,
    old: &Space,
    dir: (i32, i32),
    budget: &mut Budget,
) -> Result<Option<Obstruction>, RulesError> {
    for sq in old.squares() {
        let to = Square::new(sq.x.saturating_add(dir.0), sq.y.saturating_add(dir.1));
        if old.contains(to) {
            continue;
        }
        if dir.0 != 0 && dir.1 != 0 {
            let solid = |s: Square| !old.contains(s) && scene.terrain(s).has(Terrain::SOLID);
            if solid(Square::new(to.x, sq.y)) || solid(Square::new(sq.x, to.y)) {
                return Ok(Some(Obstruction::Corner(to)));
            }
        }
        if wall_between(scene, sq, to, budget)? {
            return Ok(Some(Obstruction::Wall(to)));
        }
    }
    Ok(None)
}
