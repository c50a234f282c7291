//! Movement along a path of squares (`POST /v1/movement`): the legality and cost of each
//! step, the total against the speed, the attacks of opportunity it provokes, a charge's
//! validity, and what happens when the move ends in an occupied space.
//!
//! The per-ruleset differences come from [`MoveRule`] (one value per ruleset, in
//! `ruleset/`): step costs ([`steps`]), moving through creatures, and the opportunity trigger
//! ([`crate::opportunity`]).
//!
//! Decisions where RULES.md is silent (named in the trace and the README):
//! - a step is difficult when any square of the space it enters is (PF1: "a creature
//!   occupying several terrain types moves at the most difficult one");
//! - deep water costs as difficult terrain for a creature without a swimming speed;
//! - a low obstacle square (`=`) or a low thin wall is a hampering obstacle in the PF1 family
//!   (+2 squares) and ordinary ground in 5e (the 5e rules have no such cost);
//! - PF1 family movement may use both move actions (double move: twice the speed), a
//!   withdraw likewise; 5e uses the speed, twice with `dash`.

pub(crate) mod charge;
mod drag;
mod mode;
mod steps;

pub use mode::{Mode, MoveOptions};

pub use crate::opportunity::{
    MoveOpportunity, Provocation, opportunities, opportunities_along, straight_path,
};
pub use steps::{StepIssue, StepRules};

use crate::budget::Budget;
use crate::encounter::{Condition, Encounter};
use crate::error::RulesError;
use crate::grid::{Space, Square};
use crate::ruleset::{Drag, MoveCosts, MoveRule, ThroughRule};
use crate::scene::Scene;
pub use crate::trace::movement::{EndsOccupied, MoveEffect, Step};
use crate::trace::{Effect, Trace};
use charge::{Charge, ChargeOptions, plan_charge};
use drag::drag_slows;

/// The answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Movement {
    /// The mode.
    pub mode: Mode,
    /// Whether the whole movement is allowed.
    pub legal: bool,
    /// The first reason it is not (a step issue id, `ends_in_occupied`, `charge`, …).
    pub reason: Option<&'static str>,
    /// The anchor at the start.
    pub start: Square,
    /// The anchor at the end of the path.
    pub end: Square,
    /// The last anchor reached by legal steps only (where an illegal move stops).
    pub last_legal: Square,
    /// Every step.
    pub steps: Vec<Step>,
    /// The mover's speed, feet.
    pub speed_ft: u32,
    /// Feet it may spend (speed, twice with Dash or a PF1 double move, less after standing
    /// up or mounting); none for teleport and forced movement.
    pub budget_ft: Option<u32>,
    /// Feet spent on the steps.
    pub total_ft: u32,
    /// Feet spent besides the steps (5e standing up, mounting, dismounting).
    pub extra_ft: u32,
    /// Budget left.
    pub remaining_ft: Option<u32>,
    /// PF1 family: move actions used (standing up is one; 1 = a move, 2 = a double move).
    pub move_actions: Option<u32>,
    /// Attacks of opportunity.
    pub opportunities: Vec<MoveOpportunity>,
    /// The end space is occupied.
    pub ends_in_occupied: Option<EndsOccupied>,
    /// Mode `charge`: the charge.
    pub charge: Option<Charge>,
    /// Mode `forced` (5e): the riders of a mount moved against its will, at risk of falling.
    pub rider_falls: Vec<crate::mounted::RiderFall>,
    /// 5e `options.dragging`: where the creature dragged along ends (its anchor; `None` when
    /// no free space touches the mover's end): it keeps its place beside the mover, else
    /// the nearest free space touching the mover's end.
    pub dragged_to: Option<Square>,
    /// The trace.
    pub trace: Trace,
}

fn push(trace: &mut Trace, rule: &'static str, e: MoveEffect) {
    trace.push(rule, Effect::Movement(e));
}

/// Validates a path: on the grid, each square a king's move from the previous one (the first
/// from the start; a first square equal to the start is dropped). Teleport paths and a
/// dismount's landing square only need to be on the grid.
fn check_path(
    enc: &Encounter,
    start: &Space,
    path: &[Square],
    mode: Mode,
) -> Result<Vec<Square>, RulesError> {
    let mut out = vec![start.anchor];
    for (i, &sq) in path.iter().enumerate() {
        if i == 0 && sq == start.anchor {
            continue;
        }
        let space = Space { anchor: sq, side: start.side };
        if !enc.grid.contains_space(&space) {
            return Err(RulesError::field(format!("/path/{i}"), "the mover's space is off the grid"));
        }
        let prev = out.last().copied().unwrap_or(start.anchor);
        let (dx, dy) =
            ((i64::from(sq.x) - i64::from(prev.x)).abs(), (i64::from(sq.y) - i64::from(prev.y)).abs());
        // A teleport jumps; a dismount lands within 5 ft of the mount (checked there).
        let jumps = mode == Mode::Teleport || (mode == Mode::Dismount && out.len() == 1);
        if !jumps && dx.max(dy) != 1 {
            return Err(RulesError::field(
                format!("/path/{i}"),
                "each square must be adjacent to the previous one (the first to the mover's square)",
            ));
        }
        out.push(sq);
    }
    Ok(out)
}

/// Answers a movement question. `path` lists the anchor squares entered, in order.
pub fn movement(
    scene: &Scene<'_>,
    mover: usize,
    path: &[Square],
    mode: Mode,
    options: &MoveOptions,
    budget: &mut Budget,
) -> Result<Movement, RulesError> {
    let enc = scene.enc;
    let Some(m) = enc.creatures.get(mover) else {
        return Err(RulesError::field("/creature", "no such creature"));
    };
    let rules = enc.ruleset.rules().movement;
    let pf = rules.costs == MoveCosts::Pathfinder;
    let start = enc.space(m);
    let mut full = check_path(enc, &start, path, mode)?;
    if mode == Mode::Teleport && full.len() > 2 {
        // Only where it arrives matters.
        full = vec![start.anchor, full.last().copied().unwrap_or(start.anchor)];
    }
    let mut trace = Trace::default();
    let speed = m.speed_ft.unwrap_or(enc.ruleset.rules().default_speed_ft);
    let mut ans = Movement::new(mode, start.anchor, full.last().copied().unwrap_or(start.anchor), speed);
    validate_options(enc, mover, mode, options, pf)?;
    if mode == Mode::Charge && full.len() < 2 {
        return Err(RulesError::field("/path", "a charge needs at least its end square"));
    }
    let prone = m.has(Condition::Prone) && !matches!(mode, Mode::Teleport | Mode::Forced);
    let q =
        Move { scene, mover, mode, options, rules, pf, speed, prone, crawling: prone && !options.stand_up };
    let budget_ft = q.allowance(&mut ans, &mut trace);

    // Dismounting puts the rider on the first square of the path.
    let mut walk_from = 0usize;
    if mode == Mode::Dismount {
        walk_from = 1;
        dismount(scene, mover, &full, &mut ans, &mut trace, speed)?;
    }
    let passes = q.steps(&full, walk_from, budget_ft, &mut ans, &mut trace, budget)?;
    q.tally(budget_ft, &mut ans, &mut trace);

    // Mounting at the end of the path.
    if mode == Mode::Mount {
        mount(scene, mover, options, &mut ans, &mut trace, speed)?;
    }

    // Where it ends.
    if mode != Mode::Mount {
        ends_in_occupied(scene, mover, mode, &mut ans, &mut trace);
    }

    // A charge.
    if mode == Mode::Charge {
        let target = options.target.ok_or_else(|| RulesError::field("/target", "a charge needs a target"))?;
        let opts = ChargeOptions { path: Some(full[1..].to_vec()), then: None, standard_only: false };
        let c = plan_charge(scene, mover, target, &opts, &mut trace, budget)?;
        if !c.legal {
            fail(&mut ans, "charge");
        }
        ans.charge = Some(c);
    }
    q.opportunities(&full, walk_from, passes, &mut ans, &mut trace, budget)?;
    if mode == Mode::Forced {
        ans.rider_falls = crate::mounted::forced_move(scene, mover, ans.end, &mut trace, budget)?;
    }
    if let Some(d) = options.dragging {
        ans.dragged_to = drag::dragged_end(scene, mover, d, (ans.start, ans.last_legal), budget)?;
    }
    if ans.ends_in_occupied.as_ref().is_some_and(|e| e.consequence == "illegal") {
        fail(&mut ans, "ends_in_occupied");
    }
    ans.trace = trace;
    Ok(ans)
}

/// Marks the move illegal; the first reason found is the one given.
fn fail(ans: &mut Movement, why: &'static str) {
    ans.legal = false;
    ans.reason.get_or_insert(why);
}

impl Movement {
    /// A legal move that has not taken a step yet.
    fn new(mode: Mode, start: Square, end: Square, speed_ft: u32) -> Self {
        Movement {
            mode,
            legal: true,
            reason: None,
            start,
            end,
            last_legal: start,
            steps: Vec::new(),
            speed_ft,
            budget_ft: None,
            total_ft: 0,
            extra_ft: 0,
            remaining_ft: None,
            move_actions: None,
            opportunities: Vec::new(),
            ends_in_occupied: None,
            charge: None,
            rider_falls: Vec::new(),
            dragged_to: None,
            trace: Trace::default(),
        }
    }
}

/// One movement question, as its steps read it.
struct Move<'q, 's> {
    scene: &'q Scene<'s>,
    mover: usize,
    mode: Mode,
    options: &'q MoveOptions,
    rules: MoveRule,
    /// The PF1 family's costs and move actions (otherwise 5e's).
    pf: bool,
    speed: u32,
    /// Prone at the start of a move of its own.
    prone: bool,
    /// Prone and not standing up.
    crawling: bool,
}

impl Move<'_, '_> {
    /// What the mover may spend: `None` for a teleport or forced movement.
    fn allowance(&self, ans: &mut Movement, trace: &mut Trace) -> Option<u32> {
        let (enc, mover, mode, options, rules, pf, speed, prone) = (
            self.scene.enc,
            self.mover,
            self.mode,
            self.options,
            self.rules,
            self.pf,
            self.speed,
            self.prone,
        );
        let mut why: Vec<&'static str> = Vec::new();
        let mut budget_ft = match mode {
            Mode::Teleport | Mode::Forced => None,
            _ if pf && options.short_step => Some(5),
            _ if pf => {
                why.push("double_move");
                Some(speed.saturating_mul(2))
            }
            _ if options.dash => {
                why.push("dash");
                Some(speed.saturating_mul(2))
            }
            _ => Some(speed),
        };
        if prone && budget_ft.is_some() {
            let cost = if pf { 0 } else { speed / 2 };
            push(trace, rules.prone_rule, MoveEffect::Prone { stands_up: options.stand_up, cost_ft: cost });
            if options.stand_up {
                if speed == 0 {
                    fail(ans, "cannot_stand");
                }
                if pf {
                    // Standing up is a move action: one move action of movement is left.
                    why.push("stand_up");
                    budget_ft = Some(speed);
                } else {
                    ans.extra_ft = ans.extra_ft.saturating_add(cost);
                }
            } else if pf {
                // Crawling: 5 ft per move action, two move actions.
                why.push("crawl");
                budget_ft = Some(10);
            }
        }
        if let (Some(d), Some(rule)) = (options.dragging, rules.drag.rule())
            && let Some(c) = enc.creatures.get(d)
        {
            push(trace, rule, MoveEffect::Dragged { creature: c.id.clone() });
        }
        if let (Some(d), Drag::HalfSpeed(_)) = (options.dragging, rules.drag)
            && drag_slows(enc, mover, d, rules.drag)
            && let Some(b) = budget_ft.as_mut()
        {
            why.push("dragging");
            *b /= 2;
        }
        if let Some(b) = budget_ft {
            push(
                trace,
                rules.grid_rule,
                MoveEffect::Budget { speed_ft: speed, budget_ft: b, why: why.clone() },
            );
        }
        budget_ft
    }

    /// The steps from `full[walk_from]` on, each judged and costed; the notable ones traced.
    /// Returns the steps that pass through a creature's space (step number, creature), which
    /// matter for attacks of opportunity.
    fn steps(
        &self,
        full: &[Square],
        walk_from: usize,
        budget_ft: Option<u32>,
        ans: &mut Movement,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<Vec<(usize, usize)>, RulesError> {
        let (mode, rules) = (self.mode, self.rules);
        let step_rules = StepRules::new(self.scene, self.mover, mode, self.options, self.crawling);
        let mut passes: Vec<(usize, usize)> = Vec::new();
        let mut legal_so_far = true;
        let mut diagonals = 0u32;
        if mode == Mode::Teleport {
            ans.last_legal = ans.start;
        }
        for i in (walk_from + 1)..full.len() {
            let (from, to) = (full[i - 1], full[i]);
            let (mut step, provoker) =
                step_rules.step(i, from, to, &mut diagonals, mode == Mode::Teleport, budget)?;
            ans.total_ft = ans.total_ft.saturating_add(step.cost_ft);
            step.total_ft = ans.total_ft.saturating_add(ans.extra_ft);
            if step.legal
                && let Some(b) = budget_ft
                && step.total_ft > b
            {
                step.legal = false;
                step.issue = Some(StepIssue::NoMovementLeft);
            }
            if let Some(c) = provoker {
                passes.push((i - walk_from, c));
            }
            if !step.legal {
                fail(ans, step.issue.as_ref().map_or("illegal_step", |s| s.id()));
                legal_so_far = false;
            } else if legal_so_far {
                ans.last_legal = to;
            }
            if !step.legal || step.difficult || step.hampered || step.through.is_some() {
                let rule = match &step.issue {
                    Some(StepIssue::Creature { .. }) => rules.through_rule,
                    Some(StepIssue::Corner { .. }) => "grid.move.corner-cutting",
                    _ if step.through.is_some() => rules.through_rule,
                    _ if step.difficult || step.hampered => rules.difficult_rule,
                    _ => rules.grid_rule,
                };
                push(trace, rule, MoveEffect::Step(step.clone()));
            }
            ans.steps.push(step);
        }
        Ok(passes)
    }

    /// The total against the allowance: what is left, the PF1 family's move actions, and the
    /// five-foot step's own limits.
    fn tally(&self, budget_ft: Option<u32>, ans: &mut Movement, trace: &mut Trace) {
        let (options, rules, pf) = (self.options, self.rules, self.pf);
        if pf
            && options.short_step
            && (ans.steps.len() != 1 || ans.steps.iter().any(|s| s.difficult || s.cost_ft > 5))
        {
            fail(ans, "not_a_short_step");
        }
        if self.mode == Mode::Teleport {
            ans.total_ft = 0;
            if ans.legal {
                ans.last_legal = ans.end;
            }
        }
        ans.budget_ft = budget_ft;
        let spent = ans.total_ft.saturating_add(ans.extra_ft);
        ans.remaining_ft = budget_ft.map(|b| b.saturating_sub(spent));
        if pf && let Some(b) = budget_ft {
            ans.move_actions = Some(self.move_actions(b, ans));
        }
        push(
            trace,
            rules.grid_rule,
            MoveEffect::Total { total_ft: spent, budget_ft, within: budget_ft.is_none_or(|b| spent <= b) },
        );
    }

    /// PF1 family: the move actions used (RULES.md `pf1e.grid.distance-and-movement`: a move
    /// action moves up to the speed, a double move is two), standing up being one. Only the
    /// legal part of the path is moved, so a path longer than the allowance uses the two move
    /// actions it may, not one per speed's worth of squares asked for. The allowance holds two
    /// move actions of movement (one after standing up, one for a five-foot step), each of a
    /// speed's worth of feet, or 5 ft crawling, halved when dragging.
    fn move_actions(&self, budget_ft: u32, ans: &Movement) -> u32 {
        let stand = u32::from(self.prone && self.options.stand_up);
        let in_budget = if stand == 1 || self.options.short_step { 1 } else { 2 };
        let per_action = (budget_ft / in_budget).max(1);
        let legal_ft = ans.steps.iter().take_while(|s| s.legal).last().map_or(0, |s| s.total_ft);
        // Moving nothing without standing up still takes the move action asked for.
        let moving = legal_ft.div_ceil(per_action).clamp(u32::from(stand == 0), in_budget);
        stand + moving
    }

    /// Attacks of opportunity, along the legal part of the path.
    fn opportunities(
        &self,
        full: &[Square],
        walk_from: usize,
        passes: Vec<(usize, usize)>,
        ans: &mut Movement,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<(), RulesError> {
        let (mode, options, rules, pf) = (self.mode, self.options, self.rules, self.pf);
        let exempt = match mode {
            Mode::Teleport => Some("teleport"),
            Mode::Forced => Some("forced"),
            Mode::Disengage if !pf => Some("disengage"),
            _ => None,
        };
        let how = Provocation {
            stands_up: self.prone && options.stand_up && pf,
            withdraw: mode == Mode::Disengage && pf,
            short_step: pf && options.short_step && ans.legal,
            exempt,
            passes,
            dragged: options.dragging,
        };
        if let Some(why) = exempt.or(how.short_step.then_some(rules.short_step.unwrap_or("short_step"))) {
            push(trace, rules.grid_rule, MoveEffect::NoOpportunity { why });
        }
        // Only the legal part of the path is walked.
        let legal_steps = ans.steps.iter().take_while(|s| s.legal).count();
        let walked: Vec<Square> =
            full.get(walk_from..=walk_from + legal_steps).map_or_else(Vec::new, <[Square]>::to_vec);
        ans.opportunities = opportunities(self.scene, self.mover, &walked, &how, budget)?;
        for o in &ans.opportunities {
            push(trace, o.rule, MoveEffect::Opportunity(o.clone()));
        }
        Ok(())
    }
}

fn validate_options(
    enc: &Encounter,
    mover: usize,
    mode: Mode,
    o: &MoveOptions,
    pf: bool,
) -> Result<(), RulesError> {
    let rules = enc.ruleset.rules().movement;
    if o.dash && pf {
        return Err(RulesError::field(
            "/options/dash",
            "Dash is a D&D 5e action; the PF1 family moves twice its speed with a double move",
        ));
    }
    if o.short_step && rules.short_step.is_none() {
        return Err(RulesError::field("/options/short_step", "D&D 5e has no five-foot step"));
    }
    if o.dragging.is_some() && rules.drag == Drag::None {
        return Err(RulesError::field(
            "/options/dragging",
            "in the PF1 family a grappler moves its target with a grapple check (/v1/maneuvers)",
        ));
    }
    if o.dragging == Some(mover) {
        return Err(RulesError::field("/options/dragging", "a creature cannot drag itself"));
    }
    if matches!(mode, Mode::Mount | Mode::Dismount) && rules.mounted_rule.is_none() {
        return Err(RulesError::field(
            "/mode",
            format!("{} mounted combat is outside RULES.md (Q-32)", enc.ruleset.id()),
        ));
    }
    if mode == Mode::Charge && enc.ruleset.rules().charge.is_none() {
        return Err(RulesError::field("/mode", format!("{} has no charge rule", enc.ruleset.id())));
    }
    if mode == Mode::Charge && o.target.is_none() {
        return Err(RulesError::field("/target", "a charge needs a target"));
    }
    if mode != Mode::Charge && o.target.is_some() {
        return Err(RulesError::field("/target", "only a charge takes a target"));
    }
    if mode == Mode::Mount && o.mount.is_none() {
        return Err(RulesError::field("/mount", "mounting needs the creature to mount"));
    }
    if mode != Mode::Mount && o.mount.is_some() {
        return Err(RulesError::field("/mount", "only mode mount takes a mount"));
    }
    if mode == Mode::Dismount && enc.creatures.get(mover).is_some_and(|m| m.mounted_on.is_none()) {
        return Err(RulesError::field("/mode", "the creature is not mounted (`mounted_on`)"));
    }
    Ok(())
}

/// 5e: half the speed (rounded down), once, to mount or dismount.
fn half_speed(speed: u32) -> u32 {
    speed / 2
}

fn mount(
    scene: &Scene<'_>,
    mover: usize,
    options: &MoveOptions,
    ans: &mut Movement,
    trace: &mut Trace,
    speed: u32,
) -> Result<(), RulesError> {
    let enc = scene.enc;
    // Mounting is refused up front where the ruleset has no mounted rule.
    let Some(rule) = enc.ruleset.rules().movement.mounted_rule else { return Ok(()) };
    let Some(mi) = options.mount else { return Ok(()) };
    let (Some(m), Some(steed)) = (enc.creatures.get(mover), enc.creatures.get(mi)) else {
        return Err(RulesError::field("/mount", "no such creature"));
    };
    if mi == mover {
        return Err(RulesError::field("/mount", "a creature cannot mount itself"));
    }
    let cost = half_speed(speed);
    let here = Space { anchor: ans.end, side: enc.space(m).side };
    let issue = if steed.size.rank() <= m.size.rank() {
        Some("mount_too_small")
    } else if crate::grid::Metric::Chebyshev.between(&here, &enc.space(steed)) > 1 {
        Some("mount_out_of_reach")
    } else if speed == 0 || ans.remaining_ft.is_some_and(|r| r < cost) {
        Some("no_movement_left")
    } else {
        None
    };
    ans.extra_ft = ans.extra_ft.saturating_add(cost);
    ans.remaining_ft = ans.remaining_ft.map(|r| r.saturating_sub(cost));
    push(trace, rule, MoveEffect::Mounted { mount: steed.id.clone(), mounting: true, cost_ft: cost, issue });
    if let Some(why) = issue {
        ans.legal = false;
        ans.reason.get_or_insert(why);
    }
    Ok(())
}

fn dismount(
    scene: &Scene<'_>,
    mover: usize,
    full: &[Square],
    ans: &mut Movement,
    trace: &mut Trace,
    speed: u32,
) -> Result<(), RulesError> {
    let enc = scene.enc;
    let Some(rule) = enc.ruleset.rules().movement.mounted_rule else { return Ok(()) };
    let Some(m) = enc.creatures.get(mover) else { return Ok(()) };
    let Some(steed) = m.mounted_on.and_then(|i| enc.creatures.get(i)) else { return Ok(()) };
    let Some(&landing) = full.get(1) else {
        return Err(RulesError::field("/path", "dismounting needs the square to land on"));
    };
    let cost = half_speed(speed);
    let land = Space { anchor: landing, side: enc.space(m).side };
    let occupied = enc.creatures.iter().enumerate().any(|(i, c)| i != mover && enc.space(c).overlaps(&land));
    let issue = if crate::grid::Metric::Chebyshev.between(&land, &enc.space(steed)) > 1 {
        Some("landing_out_of_reach")
    } else if land.squares().any(|s| scene.terrain(s).has(crate::encounter::Terrain::SOLID)) || occupied {
        Some("landing_blocked")
    } else if speed == 0 {
        Some("no_movement_left")
    } else {
        None
    };
    ans.extra_ft = ans.extra_ft.saturating_add(cost);
    ans.last_legal = if issue.is_none() { landing } else { ans.start };
    push(trace, rule, MoveEffect::Mounted { mount: steed.id.clone(), mounting: false, cost_ft: cost, issue });
    if let Some(why) = issue {
        ans.legal = false;
        ans.reason.get_or_insert(why);
    }
    Ok(())
}

/// The consequence of a move ending in another creature's space.
fn ends_in_occupied(scene: &Scene<'_>, mover: usize, mode: Mode, ans: &mut Movement, trace: &mut Trace) {
    let enc = scene.enc;
    let rules = enc.ruleset.rules().movement;
    let Some(m) = enc.creatures.get(mover) else { return };
    let end = Space { anchor: ans.end, side: enc.space(m).side };
    let rider_of = |i: usize| {
        m.mounted_on == Some(i) || enc.creatures.get(i).is_some_and(|c| c.mounted_on == Some(mover))
    };
    let Some((_, other)) = enc
        .creatures
        .iter()
        .enumerate()
        .find(|(i, c)| *i != mover && !rider_of(*i) && enc.space(c).overlaps(&end))
    else {
        return;
    };
    let involuntary = mode == Mode::Forced;
    let consequence = match rules.through {
        ThroughRule::Dnd5e2024 if involuntary => {
            let larger = m.size.rank() > other.size.rank();
            if m.size == crate::encounter::Size::Tiny || larger { "none" } else { "prone" }
        }
        ThroughRule::Dnd5e2014 | ThroughRule::Dnd5e2024 => "illegal",
        ThroughRule::Pathfinder if steps::helpless(other) => "allowed",
        ThroughRule::Pathfinder if involuntary => "return_to_last_legal",
        ThroughRule::Pathfinder => "illegal",
    };
    let e = EndsOccupied { creature: other.id.clone(), consequence, rule: rules.through_rule };
    push(trace, rules.through_rule, MoveEffect::EndsOccupied(e.clone()));
    ans.ends_in_occupied = Some(e);
}
