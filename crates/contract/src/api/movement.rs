//! `POST /v1/movement`: wire types and their mapping both ways.

use arbiter_rules::encounter::Encounter;
use arbiter_rules::grid::Square;
use arbiter_rules::movement::{Mode, MoveOptions, Movement, StepIssue};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::charge::{ChargeOut, MoveOpportunityOut, charge_out, move_opportunity_out};
use super::contract::{Check, Contract};
use super::encounter::{EncounterIn, SquareIn};
use super::grid::{SquareOut, squares_in};
use super::question::Draft;
use crate::error::AppError;
use crate::limits::Limits;
use crate::render::{self, Lang, TraceStep};

/// How the creature moves.
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoveModeIn {
    /// Its own movement.
    #[default]
    Walk,
    /// 5e Disengage (provokes nothing); PF1 family: withdraw (the first square provokes
    /// nothing from enemies the mover sees).
    Disengage,
    /// Teleportation: only the last square matters; provokes nothing.
    Teleport,
    /// Moved by something else: no cost against the speed, provokes nothing.
    Forced,
    /// A charge toward `target` (PF1, hb3d): the path must be a legal charge.
    Charge,
    /// Walk, then mount `mount` within 5 ft for half the speed (5e).
    Mount,
    /// Dismount onto the first square of the path for half the speed, then walk on (5e).
    Dismount,
}

/// Movement options.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveOptionsIn {
    /// A prone mover stands up first (5e: half its speed; PF1 family: a move action that
    /// provokes). Otherwise a prone mover crawls.
    #[serde(default)]
    pub stand_up: bool,
    /// 5e Dash: twice the speed.
    #[serde(default)]
    pub dash: bool,
    /// PF1 / hb3d five-foot step, SF guarded step: one 5 ft step, not into difficult
    /// terrain, that provokes nothing.
    #[serde(default)]
    pub short_step: bool,
    /// 5e: id of the grappled creature dragged along (`dnd5e2014.grapple.move`,
    /// `dnd5e2024.grapple.move`).
    #[serde(default)]
    #[schema(min_length = 1, max_length = 64)]
    pub dragging: Option<String>,
}

/// A movement question.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "dnd5e2014",
        "grid": {"width": 10, "height": 10},
        "creatures": [
            {"id": "pc", "side": "party", "at": {"x": 6, "y": 5}},
            {"id": "goblin", "side": "monsters", "at": {"x": 5, "y": 5}}
        ]
    },
    "creature": "pc",
    "path": [{"x": 6, "y": 6}, {"x": 6, "y": 7}],
    "mode": "walk"
}))]
pub struct MovementRequest {
    /// The encounter.
    pub encounter: EncounterIn,
    /// Id of the creature that moves.
    #[schema(min_length = 1, max_length = 64)]
    pub creature: String,
    /// The anchor squares entered, in order, each a king's move from the previous one (the
    /// first from the creature's square; a first square equal to it is ignored). Teleport:
    /// the last square is the destination.
    #[serde(deserialize_with = "crate::capped::path_steps")]
    #[schema(max_items = 1000)]
    pub path: Vec<SquareIn>,
    /// `walk` (default), `disengage`, `teleport`, `forced`, `charge`, `mount`, `dismount`.
    #[serde(default)]
    pub mode: MoveModeIn,
    /// Charge: id of the target.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 64)]
    pub target: Option<String>,
    /// Mount: id of the creature mounted.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 64)]
    pub mount: Option<String>,
    /// Options.
    #[serde(default)]
    pub options: MoveOptionsIn,
}

/// One step.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StepOut {
    /// Index in the path of the square entered (1 = the first step).
    pub index: usize,
    /// The anchor square left.
    pub from: SquareOut,
    /// The anchor square entered.
    pub to: SquareOut,
    /// Cost, feet.
    pub cost_ft: u32,
    /// Feet spent so far (standing up and mounting included).
    pub total_ft: u32,
    /// A diagonal step.
    pub diagonal: bool,
    /// Difficult terrain (terrain, water without a swimming speed, or a creature's space).
    pub difficult: bool,
    /// PF1 family: a hampering (low) obstacle crossed (+10 ft).
    pub hampered: bool,
    /// The creature whose space it passes through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub through: Option<String>,
    /// Whether the step is allowed.
    pub legal: bool,
    /// Why not: `solid`, `wall`, `corner`, `creature`, `no_movement_left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::wire::StepIssueId>)]
    pub reason: Option<&'static str>,
    /// The square at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_square: Option<SquareOut>,
    /// The creature in the way and why it cannot be passed (`hostile`, `opponent`,
    /// `charging_through_ally`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_by: Option<String>,
    /// Why that creature cannot be passed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::wire::BlockedBecauseId>)]
    pub blocked_because: Option<&'static str>,
}

/// The move ends in another creature's space.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EndsOccupiedOut {
    /// The occupant.
    pub creature: String,
    /// `illegal`, `prone` (5e 2024 when a turn ends there), `none`, `return_to_last_legal`
    /// (PF1 family), `allowed` (a helpless occupant, PF1 family).
    #[schema(value_type = crate::wire::EndsOccupiedId)]
    pub consequence: &'static str,
    /// Rule id.
    pub rule: &'static str,
}

/// The movement answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MovementResult {
    /// The mode.
    #[schema(value_type = crate::wire::MovementModeId)]
    pub mode: &'static str,
    /// Whether the whole movement is allowed.
    pub legal: bool,
    /// The first reason it is not: a step's reason, `ends_in_occupied`, `charge`,
    /// `not_a_short_step`, `cannot_stand`, `mount_too_small`, `mount_out_of_reach`,
    /// `landing_out_of_reach`, `landing_blocked`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::wire::MovementReasonId>)]
    pub reason: Option<&'static str>,
    /// The anchor at the start.
    pub start: SquareOut,
    /// The anchor at the end of the path.
    pub end: SquareOut,
    /// The last anchor reached by legal steps (where an illegal move stops).
    pub last_legal: SquareOut,
    /// Every step.
    pub steps: Vec<StepOut>,
    /// Speed, feet.
    pub speed_ft: u32,
    /// Feet it may spend: the speed (twice with `dash` in 5e; a PF1 double move), less
    /// after standing up (PF1) or when dragging (5e 2014); absent for teleport and forced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_ft: Option<u32>,
    /// Feet spent on the steps.
    pub total_ft: u32,
    /// Feet spent besides the steps (5e standing up, mounting, dismounting).
    pub extra_ft: u32,
    /// Budget left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining_ft: Option<u32>,
    /// PF1 family: move actions used (standing up is one; 2 = a double move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_actions: Option<u32>,
    /// Attacks of opportunity, in path order.
    pub opportunity_attacks: Vec<MoveOpportunityOut>,
    /// The end space is occupied, and what follows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_in_occupied: Option<EndsOccupiedOut>,
    /// Mode `charge`: the charge (closest squares, path test, +2 / −2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charge: Option<ChargeOut>,
    /// Mode `forced` (5e): the riders of a mount moved against its will, at risk of falling
    /// (odds only: the movement rolls no dice); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rider_falls: Vec<super::mounted::RiderFallOut>,
    /// 5e `options.dragging`: where the creature dragged along ends (its top-left square).
    /// It keeps its place beside the mover, moved as the mover moved (to `last_legal`); where
    /// that is not free (off the grid, solid, another creature, a wall between), the free
    /// space touching the mover nearest to it. Absent without `dragging`, or when no free
    /// space touches the mover (the GM's to say).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dragged_to: Option<SquareOut>,
}

/// The answer to `POST /v1/movement`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MovementResponse {
    /// The movement.
    pub result: MovementResult,
    /// The rules applied.
    pub trace: Vec<TraceStep>,
}

/// A movement question in the rules crate's terms.
#[derive(Debug)]
pub struct MovementQuestion {
    /// The validated encounter.
    pub encounter: Encounter,
    /// The mover's index.
    pub mover: usize,
    /// The anchor squares entered.
    pub path: Vec<Square>,
    /// How it moves.
    pub mode: Mode,
    /// Its options (target, mount and dragged creature included).
    pub options: MoveOptions,
}

impl MovementRequest {
    /// The question in the rules crate's terms, or a 422 listing every problem.
    pub fn question(&self, limits: &Limits) -> Result<MovementQuestion, AppError> {
        let mut d = Draft::new(&self.encounter, limits);
        let limit = limits.max_path_steps as usize;
        if self.path.len() > limit {
            d.problems.push(
                "/path",
                crate::error::Text::new(
                    format!("at most {limit} steps (ARBITER_MAX_PATH_STEPS)"),
                    format!("au plus {limit} pas (ARBITER_MAX_PATH_STEPS)"),
                ),
            );
        }
        let path = squares_in(&mut d.problems, "/path", self.path.get(..limit).unwrap_or(&self.path));
        let mover = d.creature("/creature", &self.creature);
        let target = self.target.as_deref().and_then(|t| d.creature("/target", t));
        let mount = self.mount.as_deref().and_then(|t| d.creature("/mount", t));
        let dragging = self.options.dragging.as_deref().and_then(|t| d.creature("/options/dragging", t));
        let (encounter, mover) = d.finish(mover)?;
        let mode = match self.mode {
            MoveModeIn::Walk => Mode::Walk,
            MoveModeIn::Disengage => Mode::Disengage,
            MoveModeIn::Teleport => Mode::Teleport,
            MoveModeIn::Forced => Mode::Forced,
            MoveModeIn::Charge => Mode::Charge,
            MoveModeIn::Mount => Mode::Mount,
            MoveModeIn::Dismount => Mode::Dismount,
        };
        let o = &self.options;
        let options = MoveOptions {
            stand_up: o.stand_up,
            dash: o.dash,
            short_step: o.short_step,
            dragging,
            target,
            mount,
        };
        Ok(MovementQuestion { encounter, mover, path, mode, options })
    }
}

impl MovementResponse {
    /// The wire answer, its trace in `lang`.
    pub fn new(enc: &Encounter, m: &Movement, lang: Lang) -> MovementResponse {
        MovementResponse { result: result(m), trace: render::trace(&m.trace, lang, enc.ruleset) }
    }
}

fn result(m: &Movement) -> MovementResult {
    MovementResult {
        mode: m.mode.id(),
        legal: m.legal,
        reason: m.reason,
        start: SquareOut::from(m.start),
        end: SquareOut::from(m.end),
        last_legal: SquareOut::from(m.last_legal),
        steps: m
            .steps
            .iter()
            .map(|s| StepOut {
                index: s.index,
                from: SquareOut::from(s.from),
                to: SquareOut::from(s.to),
                cost_ft: s.cost_ft,
                total_ft: s.total_ft,
                diagonal: s.diagonal,
                difficult: s.difficult,
                hampered: s.hampered,
                through: s.through.clone(),
                legal: s.legal,
                reason: s.issue.as_ref().map(StepIssue::id),
                blocked_square: s.issue.as_ref().and_then(StepIssue::square).map(SquareOut::from),
                blocked_by: match &s.issue {
                    Some(StepIssue::Creature { creature, .. }) => Some(creature.clone()),
                    _ => None,
                },
                blocked_because: match &s.issue {
                    Some(StepIssue::Creature { why, .. }) => Some(*why),
                    _ => None,
                },
            })
            .collect(),
        speed_ft: m.speed_ft,
        budget_ft: m.budget_ft,
        total_ft: m.total_ft,
        extra_ft: m.extra_ft,
        remaining_ft: m.remaining_ft,
        move_actions: m.move_actions,
        opportunity_attacks: m.opportunities.iter().map(move_opportunity_out).collect(),
        ends_in_occupied: m.ends_in_occupied.as_ref().map(|e| EndsOccupiedOut {
            creature: e.creature.clone(),
            consequence: e.consequence,
            rule: e.rule,
        }),
        charge: m.charge.as_ref().map(charge_out),
        rider_falls: super::mounted::rider_falls_out(&m.rider_falls),
        dragged_to: m.dragged_to.map(SquareOut::from),
    }
}

/// The bounds of the request, checked before any other work.
impl Contract for MovementRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.encounter(&self.encounter);
        c.id(Some("creature"), &self.creature);
        let steps = c.limits.max_path_steps as usize;
        c.list("path", &self.path, steps, Check::square);
        c.opt_id("target", self.target.as_deref());
        c.opt_id("mount", self.mount.as_deref());
        c.at("options", |c| c.opt_id("dragging", self.options.dragging.as_deref()));
        // Every other question refuses attacker = target; a charge at oneself too.
        if self.target.as_deref() == Some(self.creature.as_str()) {
            c.at("target", |c| {
                c.push(crate::error::Text::new(
                    "the target must be another creature than the mover",
                    "la cible doit être une autre créature que celle qui se déplace",
                ))
            });
        }
    }
}
