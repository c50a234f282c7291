//! Pushes square by square (`grid.push-direction`, RULES.md Q-45): the target's space moves by
//! (sx, sy) per 5 ft and stops at the grid edge, a solid square, an occupied square, a thin
//! wall that blocks movement, or a diagonal step that would cut a corner
//! (`grid.move.corner-cutting`); the square, wall and corner tests are
//! the crate's `obstruction` module's, shared with a mover's steps.

use crate::budget::Budget;
use crate::error::RulesError;
use crate::grid::{Space, Square};
use crate::obstruction::{barrier, solid};
use crate::scene::Scene;
pub use crate::trace::maneuver::{AttackerMove, AttackerMoveKind, Push, PushStop};

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

/// Pushes `target` away from `pusher` by `wanted_ft` (multiples of 5 ft), square by square,
/// stopping at the first creature in the way (see [`Walk`] for PF1's secondary bull rush).
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
    let dir = direction(&enc.space(p), &enc.space(t));
    let mut walk = Walk::new(scene, target, dir, wanted_ft, &[]);
    walk.advance(scene, budget)?;
    Ok(walk.push)
}

/// Creatures moving together one square at a time in a fixed direction: a push, PF1's
/// secondary bull rush (the creature in the way joins the group), or the attacker following,
/// passing through or stopping in front of its target.
#[derive(Debug, Clone)]
pub struct Walk {
    /// The moving creatures and their spaces now; the first is the one [`Walk::push`] records.
    group: Vec<(usize, Space)>,
    /// Creatures that never block the walk (the pushed creatures, for a follower).
    ignore: Vec<usize>,
    /// Steps still allowed.
    remaining: u32,
    /// The first creature's movement.
    pub push: Push,
    /// The movement of each creature that joined the group, in joining order.
    pub along: Vec<Push>,
}

impl Walk {
    /// A walk of `mover` by `dir`, `wanted_ft` long, through the creatures in `ignore`.
    pub fn new(scene: &Scene<'_>, mover: usize, dir: (i32, i32), wanted_ft: u32, ignore: &[usize]) -> Walk {
        let space = space_of(scene, mover);
        let mut push = Push {
            direction: dir,
            wanted_ft,
            moved_ft: 0,
            from: space.anchor,
            path: Vec::new(),
            to: space.anchor,
            stopped: None,
        };
        if dir == (0, 0) {
            push.stopped = Some(PushStop::NoDirection);
        }
        Walk {
            group: vec![(mover, space)],
            ignore: ignore.to_vec(),
            remaining: if dir == (0, 0) { 0 } else { (wanted_ft / 5).min(1024) },
            push,
            along: Vec::new(),
        }
    }

    /// The first creature's space now.
    pub fn space(&self) -> Space {
        self.group.first().map_or(Space { anchor: self.push.from, side: 1 }, |g| g.1)
    }

    /// The moving creatures, first the one [`Walk::push`] records.
    pub fn members(&self) -> Vec<usize> {
        self.group.iter().map(|g| g.0).collect()
    }

    /// The number of creatures moving.
    pub fn len(&self) -> usize {
        self.group.len()
    }

    /// Whether nobody moves (never: the walk has its mover).
    pub fn is_empty(&self) -> bool {
        self.group.is_empty()
    }

    /// Steps still allowed.
    pub fn remaining_ft(&self) -> u32 {
        self.remaining.saturating_mul(5)
    }

    /// Moves the group as far as it may go. Returns the creature in the way when that is what
    /// stopped it (the stop is recorded; [`Walk::join`] lifts it).
    pub fn advance(&mut self, scene: &Scene<'_>, budget: &mut Budget) -> Result<Option<usize>, RulesError> {
        while self.remaining > 0 {
            if let Some(stop) = self.step(scene, budget)? {
                let blocker = match &stop {
                    PushStop::Creature { index, .. } => Some(*index),
                    _ => None,
                };
                self.push.stopped = Some(stop);
                if blocker.is_none() {
                    self.remaining = 0;
                }
                return Ok(blocker);
            }
        }
        Ok(None)
    }

    /// Moves one step, or says what stops it.
    pub fn step(&mut self, scene: &Scene<'_>, budget: &mut Budget) -> Result<Option<PushStop>, RulesError> {
        budget.spend(1)?;
        let dir = self.push.direction;
        let mut moving: Vec<usize> = self.group.iter().map(|g| g.0).collect();
        moving.extend_from_slice(&self.ignore);
        let mut nexts = Vec::with_capacity(self.group.len());
        for (_, old) in &self.group {
            let next = Space {
                anchor: Square::new(old.anchor.x.saturating_add(dir.0), old.anchor.y.saturating_add(dir.1)),
                side: old.side,
            };
            if let Some(stop) = step_stop(scene, &moving, old, &next, dir, budget)? {
                return Ok(Some(stop));
            }
            nexts.push(next);
        }
        for (i, ((_, space), next)) in self.group.iter_mut().zip(nexts).enumerate() {
            *space = next;
            let record = if i == 0 { Some(&mut self.push) } else { self.along.get_mut(i - 1) };
            if let Some(p) = record {
                p.moved_ft += 5;
                p.path.push(next.anchor);
                p.to = next.anchor;
            }
        }
        self.remaining = self.remaining.saturating_sub(1);
        Ok(None)
    }

    /// The creature that stopped the walk joins it (a successful secondary bull rush): the
    /// group may then move at most `allowed_ft` more.
    pub fn join(&mut self, scene: &Scene<'_>, creature: usize, allowed_ft: u32) {
        let space = space_of(scene, creature);
        self.push.stopped = None;
        self.remaining = self.remaining.min(allowed_ft / 5);
        self.group.push((creature, space));
        self.along.push(Push {
            direction: self.push.direction,
            wanted_ft: self.remaining.saturating_mul(5),
            moved_ft: 0,
            from: space.anchor,
            path: Vec::new(),
            to: space.anchor,
            stopped: None,
        });
    }

    /// Ends the walk where it stands (the secondary bull rush failed or was not allowed).
    pub fn halt(&mut self) {
        self.remaining = 0;
    }
}

/// A creature's space (a 1×1 space at the origin for an index that names nobody).
fn space_of(scene: &Scene<'_>, i: usize) -> Space {
    scene.enc.creatures.get(i).map_or(Space { anchor: Square::new(0, 0), side: 1 }, |c| scene.enc.space(c))
}

fn step_stop(
    scene: &Scene<'_>,
    moving: &[usize],
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
        if let Some(o) = solid(scene, sq) {
            return Ok(Some(o.into()));
        }
    }
    for &sq in &entered {
        if let Some(index) = enc
            .creatures
            .iter()
            .enumerate()
            .position(|(i, c)| !moving.contains(&i) && enc.space(c).contains(sq))
        {
            let creature = enc.creatures.get(index).map(|c| c.id.clone()).unwrap_or_default();
            return Ok(Some(PushStop::Creature { square: sq, creature, index }));
        }
    }
    Ok(barrier(scene, old, dir, budget)?.map(PushStop::from))
}

/// Chebyshev gap in squares between two spaces (0 when they touch or overlap).
fn gap(a: &Space, b: &Space) -> i64 {
    let axis = |amin: i32, amax: i32, bmin: i32, bmax: i32| {
        (i64::from(bmin) - i64::from(amax) - 1).max(i64::from(amin) - i64::from(bmax) - 1).max(0)
    };
    axis(a.min_x(), a.max_x(), b.min_x(), b.max_x()).max(axis(a.min_y(), a.max_y(), b.min_y(), b.max_y()))
}

fn shifted(s: &Space, dir: (i32, i32), k: i32) -> Space {
    Space {
        anchor: Square::new(
            s.anchor.x.saturating_add(dir.0.saturating_mul(k)),
            s.anchor.y.saturating_add(dir.1.saturating_mul(k)),
        ),
        side: s.side,
    }
}

/// The attacker follows the pushed creatures by the distance they moved (they never block it).
pub fn follow(
    scene: &Scene<'_>,
    attacker: usize,
    dir: (i32, i32),
    moved_ft: u32,
    pushed: &[usize],
    budget: &mut Budget,
) -> Result<AttackerMove, RulesError> {
    let mut walk = Walk::new(scene, attacker, dir, moved_ft, pushed);
    walk.advance(scene, budget)?;
    Ok(AttackerMove { kind: AttackerMoveKind::Follow, walk: walk.push })
}

/// Overrun success: the attacker moves in the direction of the target through its space to
/// the first space beyond it, stopping at anything else in the way.
pub fn through(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    budget: &mut Budget,
) -> Result<AttackerMove, RulesError> {
    let (sa, st) = (space_of(scene, attacker), space_of(scene, target));
    let dir = direction(&sa, &st);
    // The first shift that has entered the target's space and left it again.
    let cap =
        i32::try_from(gap(&sa, &st)).unwrap_or(i32::MAX).saturating_add(sa.side).saturating_add(st.side);
    let mut entered = false;
    let mut steps = None;
    for k in 1..=cap.min(4096) {
        budget.spend(1)?;
        let over = shifted(&sa, dir, k).overlaps(&st);
        entered |= over;
        if entered && !over {
            steps = Some(k);
            break;
        }
    }
    let Some(k) = steps.filter(|_| dir != (0, 0)) else {
        let mut walk = Walk::new(scene, attacker, (0, 0), 0, &[target]);
        walk.push.direction = dir;
        return Ok(AttackerMove { kind: AttackerMoveKind::Through, walk: walk.push });
    };
    let mut walk =
        Walk::new(scene, attacker, dir, u32::try_from(k).unwrap_or(0).saturating_mul(5), &[target]);
    walk.advance(scene, budget)?;
    Ok(AttackerMove { kind: AttackerMoveKind::Through, walk: walk.push })
}

/// Bull rush or overrun failure: the attacker's movement ends in front of the target. An
/// adjacent attacker stays where it is; a farther one (an overrun declared on the way) steps
/// toward the target, one king's move at a time, until it is adjacent or something stops it.
pub fn front(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    budget: &mut Budget,
) -> Result<AttackerMove, RulesError> {
    let (sa, st) = (space_of(scene, attacker), space_of(scene, target));
    let needed = gap(&sa, &st);
    let mut walk = Push {
        direction: direction(&sa, &st),
        wanted_ft: u32::try_from(needed.saturating_mul(5)).unwrap_or(u32::MAX),
        moved_ft: 0,
        from: sa.anchor,
        path: Vec::new(),
        to: sa.anchor,
        stopped: None,
    };
    let mut now = sa;
    for _ in 0..needed.min(4096) {
        budget.spend(1)?;
        let dir = direction(&now, &st);
        let next = shifted(&now, dir, 1);
        if dir == (0, 0) || next.overlaps(&st) {
            break;
        }
        if let Some(stop) = step_stop(scene, &[attacker], &now, &next, dir, budget)? {
            walk.stopped = Some(stop);
            break;
        }
        now = next;
        walk.moved_ft += 5;
        walk.path.push(now.anchor);
        walk.to = now.anchor;
    }
    Ok(AttackerMove { kind: AttackerMoveKind::Front, walk })
}
