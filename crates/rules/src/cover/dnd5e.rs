//! `dnd5e.cover.grid`, `dnd5e.cover.half-cap`, `dnd5e.cover.degrees`.

use super::answer::CoverAnswer;
use super::context::Context;
use super::lines::{ElementKind, Origin, Tracer};
use crate::budget::Budget;
use crate::encounter::WallKind;
use crate::error::RulesError;
use crate::grid::Square;
use crate::grid::line::{Element, Endpoint, Grazing, Hit};
use crate::trace::cover::CoverDegree;
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
    let a_squares: Vec<_> = ctx.a_space.squares().collect();
    let origins = tracer.origins(&a_squares);
    let t_squares: Vec<_> = ctx.t_space.squares().collect();
    let procedure =
        Procedure { cap: ctx.enc.variants.is_on("dnd5e.cover.half-cap"), slits: ctx.scene.has_arrow_slits() };
    let Some(b) = procedure.search(tracer, &origins, &t_squares, budget)? else { return Ok(()) };
    let (Some(o), Some(t)) = (origins.get(b.origin), t_squares.get(b.target)) else { return Ok(()) };
    if ctx.total(b.degree, budget)? {
        return Ok(());
    }
    procedure.explain(tracer, &b, (o, *t), ans, trace, budget)
}

/// The switches of one run of the grid procedure.
struct Procedure {
    /// `dnd5e.cover.half-cap` is on.
    cap: bool,
    /// Some wall is an arrow slit: only it raises a choice to three-quarters by itself.
    slits: bool,
}

/// A choice judged in full: its degree and what explains it.
struct Judged {
    degree: CoverDegree,
    blocked: u32,
    capped: bool,
    /// Some blocked line stays blocked without creatures and low obstacles.
    hard: bool,
    slit: bool,
    soft: bool,
    origin: usize,
    target: usize,
}

impl Procedure {
    /// Every choice in turn; the least (degree, blocked lines) wins, the first of equals, and a
    /// choice with no blocked line ends the search.
    fn search(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        origins: &[Origin],
        t_squares: &[Square],
        budget: &mut Budget,
    ) -> Result<Option<Judged>, RulesError> {
        let mut best: Option<Judged> = None;
        for (oi, o) in origins.iter().enumerate() {
            for (ti, t) in t_squares.iter().enumerate() {
                let ends = tracer.target_ends(*t);
                let Some(lines) = self.count(tracer, o, ends, best.as_ref(), budget)? else { continue };
                let judged = self.judge(tracer, o, ends, lines, (oi, ti), budget)?;
                if best.as_ref().is_none_or(|b| (judged.degree, judged.blocked) < (b.degree, b.blocked)) {
                    let clear = judged.degree == CoverDegree::None;
                    best = Some(judged);
                    if clear {
                        return Ok(best);
                    }
                }
            }
        }
        Ok(best)
    }

    /// Which of a choice's four lines are blocked, or `None` when it cannot beat `best`. After
    /// the first choice the lines get yes/no walks only, and counting stops once even the
    /// least degree the choice could reach (capped to half, no arrow slit) cannot win.
    fn count(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        o: &Origin,
        ends: [Endpoint; 4],
        best: Option<&Judged>,
        budget: &mut Budget,
    ) -> Result<Option<[bool; 4]>, RulesError> {
        let mut lines = [false; 4];
        if best.is_some() {
            tracer.walk_first_hits();
        }
        let mut blocked = 0;
        for (line, end) in lines.iter_mut().zip(ends) {
            *line = tracer.blocked(o.end, end, &all, budget)?;
            blocked += u32::from(*line);
            if let Some(b) = best
                && (self.least(blocked), blocked) >= (b.degree, b.blocked)
            {
                return Ok(None);
            }
        }
        Ok(Some(lines))
    }

    /// The least degree a choice with `blocked` lines blocked can have.
    fn least(&self, blocked: u32) -> CoverDegree {
        match blocked {
            0 => CoverDegree::None,
            _ if self.cap => CoverDegree::Half,
            n => counted(n),
        }
    }

    /// A choice's degree: the count, raised by an arrow slit, capped when only creatures and
    /// low obstacles block. Each filter stops at the first line that settles it.
    fn judge(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        o: &Origin,
        ends: [Endpoint; 4],
        lines: [bool; 4],
        (origin, target): (usize, usize),
        budget: &mut Budget,
    ) -> Result<Judged, RulesError> {
        let (mut blocked, mut any_hard, mut slit, mut any_solid) = (0u32, false, false, false);
        for (_, end) in lines.iter().zip(ends).filter(|(l, _)| **l) {
            blocked += 1;
            any_hard = any_hard || tracer.blocked(o.end, end, &hard, budget)?;
            slit = slit || (self.slits && tracer.blocked(o.end, end, &arrow_slit, budget)?);
            any_solid = any_solid || tracer.blocked(o.end, end, &not_creature, budget)?;
        }
        let counted = if slit { counted(blocked).max(CoverDegree::ThreeQuarters) } else { counted(blocked) };
        let capped = self.cap && blocked > 0 && !any_hard && counted > CoverDegree::Half;
        let degree = if capped { CoverDegree::Half } else { counted };
        Ok(Judged {
            degree,
            blocked,
            capped,
            hard: any_hard,
            slit,
            soft: blocked > 0 && !any_solid,
            origin,
            target,
        })
    }

    /// The answer and trace of the chosen corner and square.
    fn explain(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        b: &Judged,
        (o, t): (&Origin, Square),
        ans: &mut CoverAnswer,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<(), RulesError> {
        ans.degree = b.degree;
        ans.soft = b.soft && b.degree > CoverDegree::None;
        ans.corner = Some(o.end.at);
        ans.attacker_square = o.square;
        ans.target_square = Some(t);
        for end in tracer.target_ends(t) {
            ans.lines.push(tracer.render(o.end, end, &all, budget)?);
        }
        trace.push(
            "dnd5e.cover.grid",
            CoverEffect::CoverChoice {
                corner: Some(o.end.at),
                target_square: Some(t),
                blocked: b.blocked,
                lines: 4,
                degree: b.degree,
                adjacent_test: false,
            },
        );
        if b.slit {
            trace.push("dnd5e.cover.degrees", CoverEffect::ArrowSlit);
        }
        if self.cap && b.blocked > 0 {
            // Without a hard blocker the cap applies, but half cover or less has nothing to lower.
            let effect = if b.hard || b.capped {
                CoverEffect::HalfCap { capped: b.capped }
            } else {
                CoverEffect::HalfCapUnneeded { blocked: b.blocked }
            };
            trace.push_variant("dnd5e.cover.half-cap", "dnd5e.cover.half-cap", effect);
        }
        Ok(())
    }
}

/// The degree of a count of blocked lines: 1–2 half, 3–4 three-quarters.
fn counted(blocked: u32) -> CoverDegree {
    match blocked {
        0 => CoverDegree::None,
        1 | 2 => CoverDegree::Half,
        _ => CoverDegree::ThreeQuarters,
    }
}

/// The numbers of the degree (`dnd5e.cover.degrees`); `cap`: `dnd5e.cover.half-cap` is on.
pub(super) fn degrees(ans: &mut CoverAnswer, half: i32, three_quarters: i32, cap: bool, trace: &mut Trace) {
    let bonus = match ans.degree {
        CoverDegree::Half => half,
        CoverDegree::ThreeQuarters => three_quarters,
        _ => 0,
    };
    let total = ans.degree == CoverDegree::Total;
    // Total cover has no numbers: the target cannot be targeted, nor reached by the effect.
    let number = (!total).then_some(bonus);
    ans.ac_bonus = number;
    ans.save_bonus = number;
    ans.attack_modifier = (!total).then_some(0);
    ans.can_be_targeted = !total;
    // Cover never stops a 5e opportunity attack; a target that cannot be targeted is safe.
    ans.denies_opportunity_attacks = ans.degree == CoverDegree::Total;
    // SRD 5.2 Hide: heavily obscured or behind three-quarters or total cover.
    ans.allows_stealth = ans.degree >= CoverDegree::ThreeQuarters;
    if ans.soft {
        trace.push("dnd5e.cover.degrees", CoverEffect::CreatureCover { capped: cap });
    }
    trace.push(
        "dnd5e.cover.degrees",
        CoverEffect::CoverResult {
            degree: ans.degree,
            soft: ans.soft,
            ac_bonus: ans.ac_bonus,
            save_bonus: ans.save_bonus,
            attack_modifier: ans.attack_modifier,
            can_be_targeted: ans.can_be_targeted,
        },
    );
}
