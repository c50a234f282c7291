//! `dnd5e.cover.grid`, `dnd5e.cover.half-cap`, `dnd5e.cover.degrees`.

use super::lines::{ElementKind, Tracer};
use super::{Context, CoverAnswer, Degree};
use crate::budget::Budget;
use crate::encounter::WallKind;
use crate::error::RulesError;
use crate::grid::line::{Element, Grazing, Hit};
use crate::trace::{CoverEffect, Trace};

fn all(_: &Hit, _: Element, _: ElementKind) -> bool {
    true
}

/// Blockers that are neither creatures nor low obstacles.
fn hard(_: &Hit, _: Element, k: ElementKind) -> bool {
    !matches!(k, ElementKind::Creature(_) | ElementKind::Low | ElementKind::Wall { kind: WallKind::Low, .. })
}

fn not_creature(_: &Hit, _: Element, k: ElementKind) -> bool {
    !matches!(k, ElementKind::Creature(_))
}

fn arrow_slit(_: &Hit, _: Element, k: ElementKind) -> bool {
    matches!(k, ElementKind::Wall { kind: WallKind::ArrowSlit, .. })
}

/// The DMG grid procedure: every corner of the attacker (or the origin), every target square,
/// four lines each; 1–2 blocked → half, 3–4 → three-quarters; cap each choice, keep the least.
/// The widest blocking set of the grid procedure: nothing grazes, creatures block.
pub(super) const WIDEST: (Grazing, bool) = (Grazing::Off, true);

pub(super) fn resolve(
    ctx: &Context<'_, '_>,
    tracer: &mut Tracer<'_, '_, '_>,
    ans: &mut CoverAnswer,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    let cap = ctx.enc.variants.is_on("dnd5e.cover.half-cap");
    // Only an arrow slit raises a choice to three-quarters by itself.
    let slits = ctx.scene.has_arrow_slits();
    let a_squares: Vec<_> = ctx.a_space.squares().collect();
    let origins = tracer.origins(&a_squares);
    let t_squares: Vec<_> = ctx.t_space.squares().collect();
    struct Best {
        degree: Degree,
        blocked: u32,
        capped: bool,
        slit: bool,
        soft: bool,
        origin: usize,
        target: usize,
    }
    let mut best: Option<Best> = None;
    'search: for (oi, o) in origins.iter().enumerate() {
        'choice: for (ti, t) in t_squares.iter().enumerate() {
            let ends = tracer.target_ends(*t);
            let mut lines = [false; 4];
            if let Some(b) = &best {
                // Counted first, with the yes/no walks only: a choice that cannot beat the best
                // even at its least (capped to half, no arrow slit) needs no other filter.
                // The least grows with the lines found blocked: stop once it cannot win.
                tracer.walk_first_hits();
                let least = |blocked: u32| match blocked {
                    0 => Degree::None,
                    _ if cap => Degree::Half,
                    1 | 2 => Degree::Half,
                    _ => Degree::ThreeQuarters,
                };
                let mut blocked = 0;
                for (line, end) in lines.iter_mut().zip(ends) {
                    *line = tracer.blocked(o.end, end, &all, budget)?;
                    blocked += u32::from(*line);
                    if (least(blocked), blocked) >= (b.degree, b.blocked) {
                        continue 'choice;
                    }
                }
            } else {
                for (line, end) in lines.iter_mut().zip(ends) {
                    *line = tracer.blocked(o.end, end, &all, budget)?;
                }
            }
            let (mut blocked, mut any_hard, mut slit, mut any_solid) = (0u32, false, false, false);
            for (_, end) in lines.iter().zip(ends).filter(|(l, _)| **l) {
                blocked += 1;
                any_hard = any_hard || tracer.blocked(o.end, end, &hard, budget)?;
                slit = slit || (slits && tracer.blocked(o.end, end, &arrow_slit, budget)?);
                any_solid = any_solid || tracer.blocked(o.end, end, &not_creature, budget)?;
            }
            let counted = match blocked {
                0 => Degree::None,
                1 | 2 => Degree::Half,
                _ => Degree::ThreeQuarters,
            };
            let counted = if slit { counted.max(Degree::ThreeQuarters) } else { counted };
            let capped = cap && blocked > 0 && !any_hard && counted > Degree::Half;
            let degree = if capped { Degree::Half } else { counted };
            let better = best.as_ref().is_none_or(|b| (degree, blocked) < (b.degree, b.blocked));
            if better {
                best = Some(Best {
                    degree,
                    blocked,
                    capped,
                    slit,
                    soft: blocked > 0 && !any_solid,
                    origin: oi,
                    target: ti,
                });
                if degree == Degree::None {
                    break 'search;
                }
            }
        }
    }
    let Some(b) = best else { return Ok(()) };
    let (Some(o), Some(t)) = (origins.get(b.origin), t_squares.get(b.target)) else { return Ok(()) };
    if ctx.total(b.degree, budget)? {
        return Ok(());
    }
    ans.degree = b.degree;
    ans.soft = b.soft && b.degree > Degree::None;
    ans.corner = Some(o.end.at);
    ans.attacker_square = o.square;
    ans.target_square = Some(*t);
    for end in tracer.target_ends(*t) {
        ans.lines.push(tracer.render(o.end, end, &all, budget)?);
    }
    trace.push(
        "dnd5e.cover.grid",
        CoverEffect::CoverChoice {
            corner: Some(o.end.at),
            target_square: Some(*t),
            blocked: b.blocked,
            lines: 4,
            degree: b.degree,
            adjacent_test: false,
        },
    );
    if b.slit {
        trace.push("dnd5e.cover.degrees", CoverEffect::ArrowSlit);
    }
    if cap && b.blocked > 0 {
        trace.push_variant(
            "dnd5e.cover.half-cap",
            "dnd5e.cover.half-cap",
            CoverEffect::HalfCap { capped: b.capped },
        );
    }
    Ok(())
}

/// The numbers of the degree (`dnd5e.cover.degrees`).
pub(super) fn degrees(ans: &mut CoverAnswer, half: i32, three_quarters: i32, trace: &mut Trace) {
    let bonus = match ans.degree {
        Degree::Half => half,
        Degree::ThreeQuarters => three_quarters,
        _ => 0,
    };
    ans.ac_bonus = bonus;
    ans.save_bonus = bonus;
    ans.can_be_targeted = ans.degree != Degree::Total;
    // Cover never stops a 5e opportunity attack; a target that cannot be targeted is safe.
    ans.denies_opportunity_attacks = ans.degree == Degree::Total;
    // SRD 5.2 Hide: heavily obscured or behind three-quarters or total cover.
    ans.allows_stealth = ans.degree >= Degree::ThreeQuarters;
    if ans.soft {
        trace.push("dnd5e.cover.degrees", CoverEffect::SoftCover);
    }
    trace.push(
        "dnd5e.cover.degrees",
        CoverEffect::CoverResult {
            degree: ans.degree,
            soft: ans.soft,
            ac_bonus: ans.ac_bonus,
            save_bonus: ans.save_bonus,
            attack_modifier: 0,
            can_be_targeted: ans.can_be_targeted,
        },
    );
}
