//! Pushes square by square (`grid.push-direction`, RULES.md Q-45): the target's space moves by
//! (sx, sy) per 5 ft and stops at the grid edge, a solid square, an occupied square, a thin
//! wall that blocks movement, or a diagonal step that would cut a corner
//! (`grid.move.corner-cutting`).

use crate::budget::Budget;
use crate::encounter::{Terrain, WallKind};
use crate::error::RulesError;
use crate::grid::{Point, Space, Square};
use crate::scene::Scene;

/// Why a push stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushStop {
    /// The next square is off the grid.
    Edge {
        /// The square that would have been entered.
        square: Square,
    },
    /// The next square is solid.
    Solid {
        /// The solid square.
        square: Square,
    },
    /// A thin wall that blocks movement lies between the squares.
    Wall {
        /// The square that would have been entered.
        square: Square,
    },
    /// A diagonal step would cut the corner of a solid square or a wall end.
    Corner {
        /// The square that would have been entered.
        square: Square,
    },
    /// Another creature stands on the next square.
    Creature {
        /// The occupied square.
        square: Square,
        /// Its id.
        creature: String,
    },
    /// The spaces overlap: there is no "away" direction.
    NoDirection,
}

impl PushStop {
    /// The wire id.
    pub fn id(&self) -> &'static str {
        match self {
            PushStop::Edge { .. } => "grid_edge",
            PushStop::Solid { .. } => "solid",
            PushStop::Wall { .. } => "wall",
            PushStop::Corner { .. } => "corner",
            PushStop::Creature { .. } => "creature",
            PushStop::NoDirection => "no_direction",
        }
    }

    /// The square that could not be entered.
    pub fn square(&self) -> Option<Square> {
        match self {
            PushStop::Edge { square }
            | PushStop::Solid { square }
            | PushStop::Wall { square }
            | PushStop::Corner { square }
            | PushStop::Creature { square, .. } => Some(*square),
            PushStop::NoDirection => None,
        }
    }
}

/// A push, as resolved on the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Push {
    /// (sx, sy).
    pub direction: (i32, i32),
    /// Feet the rule pushes.
    pub wanted_ft: u32,
    /// Feet actually moved.
    pub moved_ft: u32,
    /// The target's anchor square before the push.
    pub from: Square,
    /// The anchor square after each step.
    pub path: Vec<Square>,
    /// The anchor square at the end.
    pub to: Square,
    /// Why it stopped early.
    pub stopped: Option<PushStop>,
}

/// `grid.push-direction`: +1 when the target lies entirely east (south), −1 entirely west
/// (north), 0 when the ranges overlap.
pub fn direction(pusher: &Space, target: &Space) -> (i32, i32) {
    let axis = |tmin: i32, tmax: i32, pmin: i32, pmax: i32| {
        if tmin > pmax {
            1
        } else if tmax < pmin {
            -1
        } else {
            0
        }
    };
    (
        axis(target.min_x(), target.max_x(), pusher.min_x(), pusher.max_x()),
        axis(target.min_y(), target.max_y(), pusher.min_y(), pusher.max_y()),
    )
}

pub(super) fn blocks_movement(k: Option<WallKind>) -> bool {
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
pub(super) fn meet(p1: Point, p2: Point, q1: Point, q2: Point) -> bool {
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

/// Whether a blocking thin wall separates two neighbouring squares (crosses or touches the
/// centre-to-centre segment; for a diagonal step that includes a wall ending at the corner).
fn wall_between(
    scene: &Scene<'_>,
    from: Square,
    to: Square,
    budget: &mut Budget,
) -> Result<bool, RulesError> {
    let (a, b) = (Point::centre(from), Point::centre(to));
    for (i, w) in scene.enc.grid.walls.iter().enumerate() {
        budget.spend(1)?;
        if blocks_movement(scene.wall_kind(u32::try_from(i).unwrap_or(u32::MAX))) && meet(a, b, w.from, w.to)
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Pushes `target` away from `pusher` by `wanted_ft` (multiples of 5 ft), square by square.
pub fn push(
    scene: &Scene<'_>,
    pusher: usize,
    target: usize,
    wanted_ft: u32,
    budget: &mut Budget,
) -> Result<Push, RulesError> {
    let enc = scene.enc;
    let (Some(p), Some(t)) = (enc.creatures.get(pusher), enc.creatures.get(target)) else {
        return Err(RulesError::field("/target", "no such creature"));
    };
    let mut space = enc.space(t);
    let from = space.anchor;
    let dir = direction(&enc.space(p), &space);
    let mut out =
        Push { direction: dir, wanted_ft, moved_ft: 0, from, path: Vec::new(), to: from, stopped: None };
    if dir == (0, 0) {
        out.stopped = Some(PushStop::NoDirection);
        return Ok(out);
    }
    let steps = wanted_ft / 5;
    for _ in 0..steps.min(1024) {
        budget.spend(1)?;
        let next = Space {
            anchor: Square::new(space.anchor.x.saturating_add(dir.0), space.anchor.y.saturating_add(dir.1)),
            side: space.side,
        };
        if let Some(stop) = step_stop(scene, target, &space, &next, dir, budget)? {
            out.stopped = Some(stop);
            break;
        }
        space = next;
        out.moved_ft += 5;
        out.path.push(space.anchor);
    }
    out.to = space.anchor;
    Ok(out)
}

fn step_stop(
    scene: &Scene<'_>,
    target: usize,
    old: &Space,
    next: &Space,
    dir: (i32, i32),
    budget: &mut Budget,
) -> Result<Option<PushStop>, RulesError> {
    let enc = scene.enc;
    let entered: Vec<Square> = next.squares().filter(|s| !old.contains(*s)).collect();
    for &sq in &entered {
        budget.spend(1)?;
        if !enc.grid.contains(sq) {
            return Ok(Some(PushStop::Edge { square: sq }));
        }
        if scene.terrain(sq).has(Terrain::SOLID) {
            return Ok(Some(PushStop::Solid { square: sq }));
        }
    }
    for &sq in &entered {
        if let Some(i) =
            enc.creatures.iter().enumerate().position(|(i, c)| i != target && enc.space(c).contains(sq))
        {
            let creature = enc.creatures.get(i).map(|c| c.id.clone()).unwrap_or_default();
            return Ok(Some(PushStop::Creature { square: sq, creature }));
        }
    }
    for sq in old.squares() {
        let to = Square::new(sq.x.saturating_add(dir.0), sq.y.saturating_add(dir.1));
        if old.contains(to) {
            continue;
        }
        if dir.0 != 0 && dir.1 != 0 {
            let side_a = Square::new(to.x, sq.y);
            let side_b = Square::new(sq.x, to.y);
            let solid = |s: Square| !old.contains(s) && scene.terrain(s).has(Terrain::SOLID);
            if solid(side_a) || solid(side_b) {
                return Ok(Some(PushStop::Corner { square: to }));
            }
        }
        if wall_between(scene, sq, to, budget)? {
            return Ok(Some(PushStop::Wall { square: to }));
        }
    }
    Ok(None)
}
