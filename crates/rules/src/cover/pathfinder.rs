//! PF1-style cover (PF1, SF, hb3d): `pf1e.cover.ranged-corner-lines`,
//! `pf1e.cover.melee-adjacent`, `pf1e.cover.big-creatures`, `pf1e.cover.low-obstacles`,
//! `pf1e.cover.soft`, `pf1e.cover.degrees`, `pf1e.cover.aoo`, `sf1e.cover.corner-lines`,
//! `sf1e.cover.variants`, `hb3d.mod.cover`.

use super::answer::CoverAnswer;
use super::context::{AttackKind, Context};
use super::lines::{ElementKind, Origin, Tracer, kind_of, meeting_spans, rectangle, span_distance};
use crate::budget::Budget;
use crate::encounter::WallKind;
use crate::error::RulesError;
use crate::grid::line::{Element, Grazing, Hit, SquareSpan};
use crate::grid::{FEET_PER_SQUARE, Metric, Space, Square};
use crate::reach;
use crate::ruleset::PathfinderCover;
use crate::trace::cover::CoverDegree;
use crate::trace::{CoverEffect, Trace};

/// RULES.md Q-02: SF terrain does not graze (two creatures in a corridor do not cover each other).
const CORRIDOR_EXEMPTION: &str = "sf1e.cover.corridorExemption";

/// Low obstacles give cover only within 30 ft (6 squares) of the target.
const LOW_OBSTACLE_REACH_SQUARES: i64 = 6;

/// One way the attacker can take its shot.
#[derive(Debug, Clone, Copy)]
enum Choice {
    /// Corner lines from one corner to one target square.
    CornerLines { origin: Origin, target: Square },
    /// The adjacent-melee test between one attacker square and one target square.
    Adjacent { from: Square, target: Square },
}

struct Judge<'s> {
    metric: Metric,
    /// The attacker's squares that count for distances to low obstacles (RULES.md Q-42: an
    /// area's origin square(s)).
    attacker: &'s [Square],
    target: &'s [Square],
    /// `attacker` and `target` as rectangles, when they are (see `span_distance`).
    rects: (Option<SquareSpan>, Option<SquareSpan>),
    creatures: bool,
}

impl Judge<'_> {
    /// Whether a low element (met at `spans`) gives cover: within 30 ft of the target, and the
    /// attacker not strictly closer to it than the target.
    fn low_counts(&self, spans: &[SquareSpan]) -> (bool, i64, i64) {
        let dt = span_distance(self.metric, self.target, self.rects.1, spans);
        let da = span_distance(self.metric, self.attacker, self.rects.0, spans);
        (dt <= LOW_OBSTACLE_REACH_SQUARES && da >= dt, dt, da)
    }

    fn keep(&self, h: &Hit, e: Element, k: ElementKind, creatures: bool) -> bool {
        match k {
            ElementKind::Solid => true,
            ElementKind::Creature(_) => creatures,
            ElementKind::Low | ElementKind::Wall { kind: WallKind::Low, .. } => {
                self.low_counts(&meeting_spans(h, e)).0
            }
            ElementKind::Wall { .. } => true,
        }
    }
}

/// The widest blocking set of the procedure: terrain grazing as the ruleset (and SF's
/// corridor variant) says, creatures against ranged attacks only.
pub(super) fn widest(ctx: &Context<'_, '_>) -> (Grazing, bool) {
    let corridor_exemption = ctx.enc.variants.is_on(CORRIDOR_EXEMPTION);
    let grazing = if ctx.enc.ruleset.rules().grazing_terrain && !corridor_exemption {
        Grazing::On
    } else {
        Grazing::Off
    };
    (grazing, ctx.attack == AttackKind::Ranged)
}

/// The shot the procedure settled on: its degree, how many of its lines are blocked, and the
/// least degree any choice has once creatures are left out (soft cover's test).
struct Best {
    degree: CoverDegree,
    blocked: u32,
    choice: Choice,
    hard_min: CoverDegree,
}

/// Whether a line element counts for the adjacent-melee test: any wall, solid or low, square
/// or thin; creatures never.
fn adjacent_blocker(_: &Hit, _: Element, k: ElementKind) -> bool {
    !matches!(k, ElementKind::Creature(_))
}

/// Whether a line element is an arrow slit (the only thing that makes a line improved cover).
fn slit_blocker(_: &Hit, _: Element, k: ElementKind) -> bool {
    matches!(k, ElementKind::Wall { kind: WallKind::ArrowSlit, .. })
}

/// One cover question under the PF1-family procedure: the question, the ruleset's knobs and
/// the judge of line elements, shared by the procedure's steps.
struct Procedure<'p, 'c, 's> {
    ctx: &'p Context<'c, 's>,
    pc: &'p PathfinderCover,
    judge: Judge<'p>,
    partial: bool,
    /// Only an arrow slit makes a line improved cover: without one, no line need be asked.
    slits: bool,
}

pub(super) fn resolve(
    ctx: &Context<'_, '_>,
    pc: &PathfinderCover,
    tracer: &mut Tracer<'_, '_, '_>,
    ans: &mut CoverAnswer,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    let ranged = ctx.attack == AttackKind::Ranged;
    let (metric, _) = reach::metric(ctx.enc);
    let t_squares: Vec<Square> = ctx.t_space.squares().collect();
    let a_squares: Vec<Square> = ctx.a_space.squares().collect();
    let area_squares: Vec<Square>;
    let attacker: &[Square] = match ctx.attack {
        AttackKind::Area { origin, .. } => {
            area_squares = SquareSpan::around(origin).squares().collect();
            &area_squares
        }
        _ => &a_squares,
    };
    let p = Procedure {
        ctx,
        pc,
        judge: Judge {
            metric,
            attacker,
            target: &t_squares,
            rects: (rectangle(attacker), rectangle(&t_squares)),
            creatures: ranged,
        },
        partial: ctx.enc.variants.is_on(pc.partial_variant),
        slits: ctx.scene.has_arrow_slits(),
    };
    let melee = p.melee_choices(tracer, &a_squares, ans, trace);
    let Some(best) = p.best_choice(tracer, &a_squares, &melee, budget)? else { return Ok(()) };
    p.settle(tracer, &best, ans, trace, budget)
}

impl Procedure<'_, '_, '_> {
    /// Melee choices come from the reach test: for every attacker square and target square in
    /// reach, the adjacent-melee test (where the ruleset has one) or the corner lines.
    fn melee_choices(
        &self,
        tracer: &Tracer<'_, '_, '_>,
        a_squares: &[Square],
        ans: &mut CoverAnswer,
        trace: &mut Trace,
    ) -> Vec<Choice> {
        let (ctx, pc, metric) = (self.ctx, self.pc, self.judge.metric);
        let mut melee: Vec<Choice> = Vec::new();
        if ctx.attack != AttackKind::Melee {
            return melee;
        }
        let attacker = &ctx.enc.creatures[ctx.attacker];
        let weapon = ctx.weapon.or(attacker.wielding.as_ref());
        let band = reach::band(ctx.enc, attacker, weapon);
        let one = |sq: Square| Space { anchor: sq, side: 1 };
        // The same decision as flanking's threat and the attack's range: from the whole space.
        let any = reach::reaches(metric, &band, &ctx.a_space, &ctx.t_space);
        for &a in a_squares {
            for &t in self.judge.target {
                if !reach::reaches_from(metric, &band, &ctx.a_space, a, t) {
                    continue;
                }
                let adjacent = Metric::Chebyshev.between(&one(a), &one(t)) <= 1;
                if adjacent && pc.adjacent_melee_test {
                    melee.push(Choice::Adjacent { from: a, target: t });
                } else {
                    for origin in tracer.origins(&[a]) {
                        melee.push(Choice::CornerLines { origin, target: t });
                    }
                }
            }
        }
        ans.in_reach = Some(any);
        if !any {
            trace.push(pc.corner_lines_rule, CoverEffect::OutOfReach);
        }
        melee
    }

    /// The least covered choice: the melee choices, or (when there are none) every corner
    /// against every target square, in that order, generated as they are judged since the
    /// first clear one ends the search.
    fn best_choice(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        a_squares: &[Square],
        melee: &[Choice],
        budget: &mut Budget,
    ) -> Result<Option<Best>, RulesError> {
        let origins = if melee.is_empty() { tracer.origins(a_squares) } else { Vec::new() };
        let t_squares = self.judge.target;
        let corner_lines = origins
            .iter()
            .flat_map(|&origin| t_squares.iter().map(move |&target| Choice::CornerLines { origin, target }));
        let choices = melee.iter().copied().chain(corner_lines);
        let mut best: Option<Best> = None;
        for choice in choices {
            let (degree, blocked, hard_degree) = match choice {
                Choice::CornerLines { origin, target } => {
                    self.corner_lines_degree(tracer, origin, target, budget)?
                }
                Choice::Adjacent { from, target } => self.adjacent_degree(tracer, from, target, budget)?,
            };
            let better = best.as_ref().is_none_or(|b| (degree, blocked) < (b.degree, b.blocked));
            let hard_best = best.as_ref().map_or(hard_degree, |b| b.hard_min.min(hard_degree));
            if better {
                best = Some(Best { degree, blocked, choice, hard_min: hard_best });
            } else if let Some(b) = best.as_mut() {
                b.hard_min = hard_best;
            }
            // A clear choice cannot be beaten.
            if degree == CoverDegree::None {
                break;
            }
        }
        Ok(best)
    }

    /// One corner's lines to one target square: (degree, blocked lines, degree without
    /// creatures).
    fn corner_lines_degree(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        origin: Origin,
        target: Square,
        budget: &mut Budget,
    ) -> Result<(CoverDegree, u32, CoverDegree), RulesError> {
        let judge = &self.judge;
        let keep_full = |h: &Hit, e: Element, k: ElementKind| judge.keep(h, e, k, judge.creatures);
        let keep_hard = |h: &Hit, e: Element, k: ElementKind| judge.keep(h, e, k, false);
        let (mut n, mut n_hard, mut slit) = (0u32, 0u32, false);
        for end in tracer.target_ends(target) {
            if tracer.blocked(origin.end, end, &keep_full, budget)? {
                n += 1;
                if judge.creatures && tracer.blocked(origin.end, end, &keep_hard, budget)? {
                    n_hard += 1;
                }
                slit |= self.slits && tracer.blocked(origin.end, end, &slit_blocker, budget)?;
            }
        }
        if !judge.creatures {
            n_hard = n;
        }
        let grade = |n: u32| match n {
            0 => CoverDegree::None,
            1 if self.partial => CoverDegree::Partial,
            _ => CoverDegree::Cover,
        };
        let (d, dh) =
            if slit { (CoverDegree::Improved, CoverDegree::Improved) } else { (grade(n), grade(n_hard)) };
        Ok((d, n, dh))
    }

    /// The adjacent-melee test's 16 lines from one attacker square to one target square:
    /// (degree, blocked lines, the same degree: creatures never count here).
    fn adjacent_degree(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        from: Square,
        target: Square,
        budget: &mut Budget,
    ) -> Result<(CoverDegree, u32, CoverDegree), RulesError> {
        let mut n = 0u32;
        let mut slit = false;
        for c in from.corners() {
            let start = self.ctx.scene.endpoint(c, from);
            for end in tracer.target_ends(target) {
                if tracer.blocked(start, end, &adjacent_blocker, budget)? {
                    n += 1;
                    slit |= self.slits && tracer.blocked(start, end, &slit_blocker, budget)?;
                }
            }
        }
        // RULES.md Q-39: no partial cover in this test.
        let d = if slit {
            CoverDegree::Improved
        } else if n > 0 {
            CoverDegree::Cover
        } else {
            CoverDegree::None
        };
        Ok((d, n, d))
    }

    /// The answer from the chosen shot (unless there is no line of effect at all) and its
    /// explanation.
    fn settle(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        best: &Best,
        ans: &mut CoverAnswer,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<(), RulesError> {
        let (ctx, pc) = (self.ctx, self.pc);
        let &Best { degree, choice: chosen, hard_min, .. } = best;
        if let Choice::Adjacent { .. } = chosen {
            ans.procedure = "pf1e.cover.melee-adjacent";
        }
        if ctx.total(degree, budget)? {
            return Ok(());
        }
        ans.degree = degree;
        // Soft cover: creatures alone cover the target (no choice is covered without them).
        ans.soft = self.judge.creatures
            && degree > CoverDegree::None
            && degree < CoverDegree::Improved
            && hard_min == CoverDegree::None;
        self.explain_choice(tracer, best, ans, trace, budget)?;
        if let Choice::CornerLines { origin, target } = chosen {
            self.explain_low_obstacles(tracer, origin, target, trace, budget)?;
        }
        if degree == CoverDegree::Improved {
            trace.push(pc.degrees_rule, CoverEffect::ArrowSlit);
        }
        if ans.soft {
            trace.push(pc.soft_rule, CoverEffect::SoftCover);
        }
        Ok(())
    }

    /// The chosen shot's lines, drawn, and the trace step naming it (and, for big creatures,
    /// the step saying which squares were chosen).
    fn explain_choice(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        best: &Best,
        ans: &mut CoverAnswer,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<(), RulesError> {
        let ctx = self.ctx;
        let &Best { degree, blocked, choice: chosen, .. } = best;
        let judge = &self.judge;
        let keep_full = |h: &Hit, e: Element, k: ElementKind| judge.keep(h, e, k, judge.creatures);
        let rule = self.pc.corner_lines_rule;
        match chosen {
            Choice::CornerLines { origin, target } => {
                ans.corner = Some(origin.end.at);
                ans.attacker_square = origin.square;
                ans.target_square = Some(target);
                for end in tracer.target_ends(target) {
                    ans.lines.push(tracer.render(origin.end, end, &keep_full, budget)?);
                }
                let choice = CoverEffect::CoverChoice {
                    corner: Some(origin.end.at),
                    target_square: Some(target),
                    blocked,
                    lines: 4,
                    degree,
                    adjacent_test: false,
                };
                // The corridor variant decided which lines graze: it decided this choice.
                if ctx.enc.variants.is_on(CORRIDOR_EXEMPTION) {
                    trace.push_variant(rule, CORRIDOR_EXEMPTION, choice);
                } else {
                    trace.push(rule, choice);
                }
            }
            Choice::Adjacent { from, target } => {
                ans.attacker_square = Some(from);
                ans.target_square = Some(target);
                let mut first_blocked = None;
                for c in from.corners() {
                    let start = ctx.scene.endpoint(c, from);
                    for end in tracer.target_ends(target) {
                        let line = tracer.render(start, end, &adjacent_blocker, budget)?;
                        if line.blocked && first_blocked.is_none() {
                            first_blocked = Some(c);
                        }
                        ans.lines.push(line);
                    }
                }
                ans.corner = first_blocked.or_else(|| from.corners().first().copied());
                trace.push(
                    "pf1e.cover.melee-adjacent",
                    CoverEffect::CoverChoice {
                        corner: ans.corner,
                        target_square: Some(target),
                        blocked,
                        lines: 16,
                        degree,
                        adjacent_test: true,
                    },
                );
            }
        }
        if ctx.a_space.side > 1 || ctx.t_space.side > 1 {
            trace.push(
                "pf1e.cover.big-creatures",
                CoverEffect::BigCreatures {
                    attacker_square: ans.attacker_square,
                    target_square: ans.target_square,
                    adjacent_test: matches!(chosen, Choice::Adjacent { .. }),
                },
            );
        }
        Ok(())
    }

    /// Low obstacles met by the chosen lines, counted or not, each once.
    fn explain_low_obstacles(
        &self,
        tracer: &mut Tracer<'_, '_, '_>,
        origin: Origin,
        target: Square,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<(), RulesError> {
        let (ctx, judge) = (self.ctx, &self.judge);
        let low_rule = self.pc.low_obstacles_rule;
        let mut seen: Vec<(Option<Square>, Option<usize>)> = Vec::new();
        for end in tracer.target_ends(target) {
            for h in &tracer.trace(origin.end, end, budget)?.hits {
                let e = match h {
                    Hit::Square { square, .. } => Element::Square(*square),
                    Hit::Wall { id, .. } => Element::Wall(*id),
                    _ => continue,
                };
                let key = match (e, kind_of(ctx, e)) {
                    (Element::Square(sq), Some(ElementKind::Low)) => (Some(sq), None),
                    (Element::Wall(id), Some(ElementKind::Wall { kind: WallKind::Low, .. })) => {
                        (None, Some(id as usize))
                    }
                    _ => continue,
                };
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                let (counted, dt, da) = judge.low_counts(&meeting_spans(h, e));
                trace.push(
                    low_rule,
                    CoverEffect::LowObstacle {
                        square: key.0,
                        wall: key.1,
                        target_ft: dt.saturating_mul(FEET_PER_SQUARE),
                        attacker_ft: da.saturating_mul(FEET_PER_SQUARE),
                        counted,
                    },
                );
            }
        }
        Ok(())
    }
}

/// The numbers of the degree (`pf1e.cover.degrees`, `sf1e.cover.variants`, `hb3d.mod.cover`)
/// and what cover denies (`pf1e.cover.aoo`).
pub(super) fn degrees(ctx: &Context<'_, '_>, pc: &PathfinderCover, ans: &mut CoverAnswer, trace: &mut Trace) {
    let (ac, reflex) = match ans.degree {
        CoverDegree::Partial => pc.partial,
        CoverDegree::Cover => pc.cover,
        CoverDegree::Improved => pc.improved,
        _ => (0, 0),
    };
    let spread = matches!(ctx.attack, AttackKind::Area { spread: true, .. });
    let total = ans.degree == CoverDegree::Total;
    ans.can_be_targeted = !total;
    // Total cover has no numbers: the target cannot be attacked, nor reached by the effect.
    let number = |n: i32| (!total).then_some(n);
    ans.save_bonus = number(if ans.soft || spread { 0 } else { reflex });
    ans.improved_evasion = ans.degree == CoverDegree::Improved && pc.improved_evasion;
    ans.stealth_bonus = if ans.degree == CoverDegree::Improved { pc.improved_stealth } else { 0 };
    ans.allows_stealth = ans.degree >= CoverDegree::Cover && !ans.soft;
    ans.denies_opportunity_attacks = ans.degree >= CoverDegree::Cover && !ans.soft;
    let mut variant = None;
    match pc.as_attack_modifier {
        Some(m) => {
            let scaled = ctx.enc.variants.is_on(m.scaled_variant);
            let (c, p, i) = if scaled { m.scaled } else { m.nominal };
            if scaled {
                variant = Some(m.scaled_variant);
            }
            ans.attack_modifier = number(match ans.degree {
                CoverDegree::Partial => p,
                CoverDegree::Cover => c,
                CoverDegree::Improved => i,
                _ => 0,
            });
            ans.ac_bonus = number(0);
        }
        None => {
            ans.ac_bonus = number(ac);
            ans.attack_modifier = number(0);
        }
    }
    let result = CoverEffect::CoverResult {
        degree: ans.degree,
        soft: ans.soft,
        ac_bonus: ans.ac_bonus,
        save_bonus: ans.save_bonus,
        attack_modifier: ans.attack_modifier,
        can_be_targeted: ans.can_be_targeted,
    };
    if ans.degree == CoverDegree::Partial {
        variant = Some(pc.partial_variant);
    }
    match variant {
        Some(v) => trace.push_variant(pc.degrees_rule, v, result),
        None => trace.push(pc.degrees_rule, result),
    }
    trace.push(pc.opportunity_rule, CoverEffect::CoverOpportunity { denies: ans.denies_opportunity_attacks });
}
