//! Cover (`/v1/cover`): how much a target is covered against an attacker, and why.
//!
//! Every corner-to-corner line is traced once against the widest blocking set (terrain,
//! walls, other creatures); each ruleset then decides which of the elements met count
//! (low obstacles within 30 ft, creatures only against ranged attacks, "hard" blockers for the
//! 5e cap…). [`dnd5e`] counts blocked lines; [`pathfinder`] (PF1, SF, hb3d) needs one.

mod answer;
mod context;
mod dnd5e;
mod lines;
mod pathfinder;

use crate::budget::Budget;
use crate::encounter::Weapon;
use crate::error::RulesError;
use crate::ruleset::CoverRule;
use crate::scene::{From, Scene};
use crate::trace::{CoverEffect, GridEffect, Trace};

pub use crate::trace::cover::CoverDegree;
pub use answer::{CoverAnswer, SaveKind};
pub use context::AttackKind;
use context::Context;
pub use lines::{CountedHit, ElementKind, HitCase, TracedLine};

/// How much of each line a cover answer describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineDetail {
    /// Every line with what it met ([`TracedLine::hits`]).
    Hits,
    /// Whether each line is blocked, with no hits: the same answer otherwise, for callers
    /// that do not show the lines (`/v1/analyze` without traces).
    Verdicts,
}

/// Answers a cover question. `weapon` sets melee reach (else the attacker's wielded weapon or
/// natural reach).
pub fn cover(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    attack: AttackKind,
    weapon: Option<&Weapon>,
    budget: &mut Budget,
) -> Result<CoverAnswer, RulesError> {
    cover_with(scene, attacker, target, attack, weapon, LineDetail::Hits, budget)
}

/// [`cover`], describing the lines as asked.
pub fn cover_with(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    attack: AttackKind,
    weapon: Option<&Weapon>,
    detail: LineDetail,
    budget: &mut Budget,
) -> Result<CoverAnswer, RulesError> {
    let enc = scene.enc;
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    if attacker == target {
        return Err(RulesError::field("/target", "the target must be another creature than the attacker"));
    }
    check_origin(scene, attack)?;
    let rules = enc.ruleset.rules();
    let (a_space, t_space) = (enc.space(a), enc.space(t));
    let from = match attack {
        AttackKind::Area { origin, .. } => From::Point(origin),
        _ => From::Space(a_space),
    };
    let mut trace = Trace::default();
    let elevated: Vec<String> = [a, t].iter().filter(|c| c.elevation_ft != 0).map(|c| c.id.clone()).collect();
    if !elevated.is_empty() {
        trace.push("grid.line-of-effect", GridEffect::ElevationIgnored { creatures: elevated });
    }
    let explain = detail == LineDetail::Hits;
    let ctx = Context { scene, enc, attacker, a_space, t_space, attack, weapon, explain };
    // The procedure's rule, its save and its widest blocking set (grazing, creatures).
    let (empty_procedure, save, (grazing, creatures)) = match rules.cover {
        CoverRule::Dnd5e { .. } => ("dnd5e.cover.grid", SaveKind::Dex, dnd5e::WIDEST),
        CoverRule::Pathfinder(pc) => (pc.corner_lines_rule, SaveKind::Reflex, pathfinder::widest(&ctx)),
    };
    // Usually the procedure runs first: a choice with no blocked line is itself a line of
    // effect (every blocker of effect is in its blocking set), which spares the separate
    // search; its first line is walked first, and clear, it proves a line of effect. But on a
    // crowded map most pairs have no line of effect at all, and the procedure's work would be
    // thrown away; so when something that blocks effect stands near the two spaces and that
    // first line is blocked (or the scene already knows the answer, as it does for the way
    // back of a pair), the search goes first. Both orders give the same answer. (The
    // procedures also ask before explaining a covered choice, see `Context::total`.)
    let mut tracer = lines::Tracer::new(&ctx, grazing, creatures, budget)?;
    let search_first = ctx.may_be_total()
        && (scene.knows_line_of_effect(&from, &t_space)
            || (scene.obstructed_near(&a_space, &t_space, budget)? > 0
                && tracer.first_line_blocked(budget)?));
    let searched = if search_first { Some(scene.line_of_effect(&from, &t_space, budget)?) } else { None };
    let mut answer = CoverAnswer::empty(empty_procedure, save);
    let mut procedure = Trace::default();
    if searched != Some(None) {
        match rules.cover {
            CoverRule::Dnd5e { .. } => {
                dnd5e::resolve(&ctx, &mut tracer, &mut answer, &mut procedure, budget)?
            }
            CoverRule::Pathfinder(pc) => {
                pathfinder::resolve(&ctx, &pc, &mut tracer, &mut answer, &mut procedure, budget)?
            }
        }
    }
    let clear = answer.lines.iter().find(|l| !l.blocked).map(|l| (l.from, l.to));
    let loe = match (answer.degree, clear) {
        (CoverDegree::None, Some(line)) => Some(line),
        _ => scene.line_of_effect(&from, &t_space, budget)?,
    };
    trace.push(
        "grid.line-of-effect",
        CoverEffect::LineOfEffect { exists: loe.is_some(), from: loe.map(|l| l.0), to: loe.map(|l| l.1) },
    );
    if loe.is_some() {
        trace.steps.extend(procedure.steps);
        // Cite rule 7 where it blocked a chosen line.
        let lines = tracer.along_wall_lines();
        if lines > 0 {
            trace.push("grid.line.along-wall", CoverEffect::AlongWall { lines });
        }
    } else {
        let procedure = answer.procedure;
        answer = CoverAnswer::empty(procedure, answer.save);
        answer.degree = CoverDegree::Total;
    }
    match rules.cover {
        CoverRule::Dnd5e { half, three_quarters } => {
            let cap = enc.variants.is_on("dnd5e.cover.half-cap");
            dnd5e::degrees(&mut answer, half, three_quarters, cap, &mut trace)
        }
        CoverRule::Pathfinder(pc) => pathfinder::degrees(&ctx, &pc, &mut answer, &mut trace),
    }
    answer.trace = trace;
    Ok(answer)
}

/// An area's point of origin must not lie on a wall that blocks line of effect (RULES.md
/// it would reach both sides).
fn check_origin(scene: &Scene<'_>, attack: AttackKind) -> Result<(), RulesError> {
    if let AttackKind::Area { origin, .. } = attack {
        let blocking = scene.walls.walls_at(origin).any(|w| {
            matches!(
                scene.wall_kind(w.id),
                Some(
                    crate::encounter::WallKind::Solid
                        | crate::encounter::WallKind::DoorClosed
                        | crate::encounter::WallKind::Window
                )
            )
        });
        if blocking {
            return Err(RulesError::field(
                "/origin",
                "the point of origin lies on a wall that blocks line of effect",
            ));
        }
    }
    Ok(())
}
