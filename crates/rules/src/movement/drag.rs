//! Where a creature dragged along ends (5e, `options.dragging`: `dnd5e2014.grapple.move`,
//! `dnd5e2024.grapple.move`).
//!
//! RULES.md says the grappler drags or carries the target when it moves, and nothing of
//! where the target ends. Decision (a GM's reading, as VTT modules move a grappled token):
//! the target keeps its place beside the grappler, moved as the grappler moved (its start to
//! the last square its legal steps reach); where that space is not free (off the grid, a
//! solid square, another creature, or a wall that blocks movement between it and the
//! grappler), the free space touching the grappler's final space nearest to it, ties in row
//! order; none: `None`, the GM's to say.

use crate::budget::Budget;
use crate::encounter::{Encounter, Size, Terrain};
use crate::error::RulesError;
use crate::grid::{Space, Square};
use crate::ruleset::Drag;
use crate::scene::Scene;

/// The dragged creature's anchor after the move of `mover` from `start` to `end`.
pub(super) fn dragged_end(
    scene: &Scene<'_>,
    mover: usize,
    dragged: usize,
    (start, end): (Square, Square),
    budget: &mut Budget,
) -> Result<Option<Square>, RulesError> {
    let enc = scene.enc;
    let (Some(m), Some(d)) = (enc.creatures.get(mover), enc.creatures.get(dragged)) else { return Ok(None) };
    let grappler = Space { anchor: end, side: enc.space(m).side };
    let side = enc.space(d).side;
    let kept = Square::new(
        d.at.x.saturating_add(end.x.saturating_sub(start.x)),
        d.at.y.saturating_add(end.y.saturating_sub(start.y)),
    );
    let free = |anchor: Square, budget: &mut Budget| -> Result<bool, RulesError> {
        let space = Space { anchor, side };
        budget.spend(1 + crate::budget::units(enc.creatures.len()) / 4)?;
        if space.overlaps(&grappler)
            || space.squares().any(|sq| !enc.grid.contains(sq) || scene.terrain(sq).has(Terrain::SOLID))
            || enc
                .creatures
                .iter()
                .enumerate()
                .any(|(i, c)| i != mover && i != dragged && enc.space(c).overlaps(&space))
        {
            return Ok(false);
        }
        Ok(!crate::mounted::beyond_wall(scene, &space, &grappler, budget)?)
    };
    if free(kept, budget)? {
        return Ok(Some(kept));
    }
    // Centres in half squares, to compare distances exactly.
    let centre = |a: Square| (i64::from(a.x) * 2 + i64::from(side), i64::from(a.y) * 2 + i64::from(side));
    let (kx, ky) = centre(kept);
    let mut best: Option<(i64, Square)> = None;
    for y in grappler.min_y().saturating_sub(side)..=grappler.max_y().saturating_add(1) {
        for x in grappler.min_x().saturating_sub(side)..=grappler.max_x().saturating_add(1) {
            let anchor = Square::new(x, y);
            if !free(anchor, budget)? {
                continue;
            }
            let (cx, cy) = centre(anchor);
            let d2 = (cx - kx).pow(2) + (cy - ky).pow(2);
            // Row order on ties: the first found stays.
            if best.is_none_or(|(b, _)| d2 < b) {
                best = Some((d2, anchor));
            }
        }
    }
    Ok(best.map(|(_, sq)| sq))
}

/// 5e dragging: whether the grappled creature slows the grappler (not when it is Tiny (2024)
/// or two or more sizes smaller).
pub(super) fn drag_slows(enc: &Encounter, mover: usize, dragged: usize, drag: Drag) -> bool {
    let (Some(m), Some(d)) = (enc.creatures.get(mover), enc.creatures.get(dragged)) else { return false };
    let much_smaller = m.size.rank() - d.size.rank() >= 2;
    match drag {
        Drag::HalfSpeed(_) => !much_smaller,
        Drag::ExtraFoot(_) => !much_smaller && d.size != Size::Tiny,
        Drag::None => false,
    }
}
