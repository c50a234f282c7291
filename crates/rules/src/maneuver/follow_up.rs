//! The PF1 / hb3d grapple follow-up « Déplacement » / Move (`pf1e.maneuver.grapple`,
//! `hb3d.maneuver.grapple`, seed 003): on a successful grapple check the grappler moves
//! itself and the target up to half its speed, then places the target in any square adjacent
//! to it.
//!
//! Decisions where the sources are silent (named in the README):
//! - the grappler's path is priced and policed as its own movement (`/v1/movement`'s step
//!   costs, walls, corners and creatures), the target moving with it (never in its way);
//! - the grappler's movement provokes attacks of opportunity from the other enemies as its own
//!   movement does (`pf1e.aoo`: leaving threatened squares); the target provokes none (moved,
//!   not its own movement) and makes none (it moves along, and a grappled creature makes no
//!   attack of opportunity, RULES.md `pf1e.maneuver.grapple`);
//! - the target's own route is not asked: only its final square, which must be free, on the
//!   grid and adjacent to the grappler's final space; hazardous squares are not modelled;
//! - everything here happens only when the check succeeds: its probability is the grapple's.

use super::answer::ManeuverAnswer;
use super::numbers::adjacent;
use crate::budget::Budget;
use crate::dice::Ratio;
use crate::encounter::Terrain;
use crate::error::RulesError;
use crate::grid::{Space, Square};
use crate::movement::{Mode, MoveEffect, MoveOptions, Provocation, StepRules, opportunities};
use crate::ruleset::ManeuverRule;
use crate::scene::Scene;
use crate::trace::Effect;
use crate::trace::maneuver::{ManeuverEffect, MoveFollowUp};

/// The follow-up asked: the grappler's path and where it places the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrappleMove {
    /// The grappler's anchor squares entered, in order (the first adjacent to its start).
    pub path: Vec<Square>,
    /// The target's final anchor square.
    pub place: Square,
}

/// Judges `mv` after the grapple `ans` of `attacker` on `target`, and, when the rolled check
/// succeeded, moves both in `ans.effects`.
pub fn follow_up_move(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    mv: &GrappleMove,
    ans: &mut ManeuverAnswer,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    let enc = scene.enc;
    let ManeuverRule::CombatManeuver(r) = enc.ruleset.rules().maneuvers else {
        return Err(RulesError::field(
            "/options/follow_up",
            "only the PF1 family's grapple has a follow-up move; a D&D 5e grappler drags its target with /v1/movement (options.dragging)",
        ));
    };
    let Some(a) = enc.creatures.get(attacker) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    let full = grappler_path(scene, attacker, &mv.path)?;
    let speed = a.speed_ft.unwrap_or(enc.ruleset.rules().default_speed_ft);
    let mut f = MoveFollowUp {
        rule: r.rules.grapple,
        legal: true,
        reason: (!ans.legal).then_some("grapple_illegal"),
        path: full.clone(),
        cost_ft: 0,
        max_ft: speed / 2,
        place: mv.place,
        opportunities: Vec::new(),
        applies: Ratio::ZERO,
        applied: None,
    };
    let passes = walk(scene, attacker, target, &mut f, budget)?;
    let end = Space { anchor: full.last().copied().unwrap_or(enc.space(a).anchor), side: enc.space(a).side };
    if let Some(why) = placement(scene, attacker, target, &end, mv.place) {
        f.reason.get_or_insert(why);
    }
    f.legal = f.reason.is_none();
    if f.legal {
        let how = Provocation { passes, dragged: Some(target), ..Provocation::default() };
        f.opportunities = opportunities(scene, attacker, &full, &how, budget)?;
        f.applies = ans.odds.success;
    }
    f.applied = ans.success.map(|s| s && f.legal);
    if f.applied == Some(true)
        && let Some(e) = ans.effects.as_mut()
    {
        e.grappler_moved_to = Some(end.anchor);
        e.target_moved_to = Some(mv.place);
    }
    ans.trace.push(f.rule, Effect::Maneuver(ManeuverEffect::FollowUpMove(f.clone())));
    for o in &f.opportunities {
        ans.trace.push(o.rule, Effect::Movement(MoveEffect::Opportunity(o.clone())));
    }
    ans.follow_up = Some(f);
    Ok(())
}

/// The grappler's anchors, start first: each square on the grid for its space and a king's
/// move from the previous one (a 422 otherwise, as `/v1/movement` answers).
fn grappler_path(scene: &Scene<'_>, attacker: usize, path: &[Square]) -> Result<Vec<Square>, RulesError> {
    let enc = scene.enc;
    let Some(a) = enc.creatures.get(attacker) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    let start = enc.space(a);
    let mut full = vec![start.anchor];
    for (i, &sq) in path.iter().enumerate() {
        let prev = full.last().copied().unwrap_or(start.anchor);
        if !enc.grid.contains_space(&Space { anchor: sq, side: start.side }) {
            return Err(RulesError::field(
                format!("/options/path/{i}"),
                "the grappler's space is off the grid",
            ));
        }
        let (dx, dy) = (i64::from(sq.x) - i64::from(prev.x), i64::from(sq.y) - i64::from(prev.y));
        if dx.abs().max(dy.abs()) != 1 {
            return Err(RulesError::field(
                format!("/options/path/{i}"),
                "each square must be adjacent to the previous one (the first to the grappler's square)",
            ));
        }
        full.push(sq);
    }
    Ok(full)
}

/// Prices and polices the grappler's steps as its own movement, the target moving with it:
/// the cost, and the first reason it cannot be walked within half its speed. Returns the steps
/// that pass through a creature's space in a way that provokes from it.
fn walk(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    f: &mut MoveFollowUp,
    budget: &mut Budget,
) -> Result<Vec<(usize, usize)>, RulesError> {
    let options = MoveOptions { dragging: Some(target), ..MoveOptions::default() };
    let steps = StepRules::new(scene, attacker, Mode::Walk, &options, false);
    let (mut diagonals, mut passes) = (0u32, Vec::new());
    for i in 1..f.path.len() {
        let (step, provoker) = steps.step(i, f.path[i - 1], f.path[i], &mut diagonals, false, budget)?;
        f.cost_ft = f.cost_ft.saturating_add(step.cost_ft);
        if let Some(c) = provoker {
            passes.push((i, c));
        }
        if !step.legal && f.reason.is_none() {
            f.reason = Some(step.issue.as_ref().map_or("illegal_step", |s| s.id()));
        }
    }
    if f.cost_ft > f.max_ft {
        f.reason.get_or_insert("too_far");
    }
    Ok(passes)
}

/// Why the grappler cannot end on `end` with the target placed on `place`: another creature
/// where it ends, or a target square off the grid, not adjacent, solid or occupied.
fn placement(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    end: &Space,
    place: Square,
) -> Option<&'static str> {
    let enc = scene.enc;
    let t = enc.creatures.get(target)?;
    let others = |space: &Space| {
        enc.creatures
            .iter()
            .enumerate()
            .any(|(i, c)| i != attacker && i != target && enc.space(c).overlaps(space))
    };
    let placed = Space { anchor: place, side: enc.space(t).side };
    if others(end) {
        Some("end_occupied")
    } else if !enc.grid.contains_space(&placed) {
        Some("place_off_grid")
    } else if !adjacent(end, &placed) {
        Some("place_not_adjacent")
    } else if placed.squares().any(|s| scene.terrain(s).has(Terrain::SOLID)) {
        Some("place_blocked")
    } else if others(&placed) {
        Some("place_occupied")
    } else {
        None
    }
}
