//! `POST /v1/concealment`: wire types and their mapping both ways.

use arbiter_rules::encounter::Encounter;
use arbiter_rules::vision::{Attack, ConcealmentAnswer};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::contract::{Check, Contract};
use super::encounter::EncounterIn;
use super::grid::{PointOut, SquareOut};
use super::question::{Draft, Pair};
use crate::error::AppError;
use crate::limits::Limits;
use crate::render::{self, Lang, TraceStep};

/// Melee or ranged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ConcealAttackIn {
    /// Melee (adjacent: concealment only when the target's whole space is concealing).
    Melee,
    /// Ranged (default).
    #[default]
    Ranged,
}

/// A concealment question: how concealed `target` is from `attacker`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "pf1e",
        "grid": {"width": 8, "height": 5, "map": ["........", "...~....", "...~....", "...~....", "........"]},
        "creatures": [
            {"id": "archer", "side": "party", "at": {"x": 0, "y": 2}},
            {"id": "orc", "side": "monsters", "at": {"x": 6, "y": 2}}
        ]
    },
    "attacker": "archer",
    "target": "orc"
}))]
pub struct ConcealmentRequest {
    /// The encounter.
    pub encounter: EncounterIn,
    /// Id of the attacker (the observer).
    #[schema(min_length = 1, max_length = 64)]
    pub attacker: String,
    /// Id of the target.
    #[schema(min_length = 1, max_length = 64)]
    pub target: String,
    /// `melee` or `ranged` (default).
    #[serde(default)]
    pub attack: ConcealAttackIn,
}

/// A cause of concealment.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CauseOut {
    /// `concealing_squares`, `heavy_obscurement`, `dim_light`, `darkness`,
    /// `observer_in_darkness`, `invisible`, `hidden`, `blinded` or `no_line_of_sight`.
    #[schema(value_type = crate::wire::ConcealmentCauseId)]
    pub cause: &'static str,
    /// The degree it gives on its own.
    #[schema(value_type = crate::wire::ConcealmentDegreeId)]
    pub degree: &'static str,
}

/// A sense that overrode a cause.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OverrideOut {
    /// `darkvision`, `low_light_vision`, `blindsight`, `truesight` or `see_invisibility`.
    #[schema(value_type = crate::wire::SenseId)]
    pub sense: &'static str,
    /// The cause it overrode.
    #[schema(value_type = crate::wire::ConcealmentCauseId)]
    pub cause: &'static str,
}

/// One line of the concealing-squares test.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConcealLineOut {
    /// Start (attacker corner).
    pub from: PointOut,
    /// End (target corner).
    pub to: PointOut,
    /// Whether it passes through a concealing square.
    pub concealed: bool,
}

/// The answer's `result`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConcealmentResult {
    /// `none`, `concealment` or `total` (5e: `total` when the attacker cannot see the target,
    /// `concealment` when it is only lightly obscured, which has no effect on attacks).
    #[schema(value_type = crate::wire::ConcealmentDegreeId)]
    pub degree: &'static str,
    /// Miss chance in percent (20 or 50; always 0 in 5e).
    pub miss_chance: u32,
    /// Every cause found (they never stack: the highest applies).
    pub causes: Vec<CauseOut>,
    /// Senses that overrode a cause.
    pub overridden_by: Vec<OverrideOut>,
    /// Line of effect between the two.
    pub line_of_effect: bool,
    /// Line of sight between the two.
    pub line_of_sight: bool,
    /// Whether the attacker can see the target.
    pub attacker_sees_target: bool,
    /// Whether the target can see the attacker.
    pub target_sees_attacker: bool,
    /// The light the target stands in (for this attacker's eyes).
    #[schema(value_type = crate::wire::LightId)]
    pub target_light: &'static str,
    /// The light the attacker stands in.
    #[schema(value_type = crate::wire::LightId)]
    pub attacker_light: &'static str,
    /// 5e: `normal`, `advantage` or `disadvantage` from `dnd5e.unseen`.
    #[schema(value_type = crate::wire::RollModeId)]
    pub roll_mode: &'static str,
    /// The attacker corner used by the concealing-squares test.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corner: Option<PointOut>,
    /// The target square used by that test.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_square: Option<SquareOut>,
    /// That corner's lines.
    pub lines: Vec<ConcealLineOut>,
}

/// The answer to a concealment question.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConcealmentResponse {
    /// The resolved answer.
    pub result: ConcealmentResult,
    /// Every rule applied, in order.
    pub trace: Vec<TraceStep>,
}

/// A concealment question in the rules crate's terms.
#[derive(Debug)]
pub struct ConcealmentQuestion {
    /// The validated encounter.
    pub encounter: Encounter,
    /// The attacker's (observer's) index.
    pub attacker: usize,
    /// The target's index.
    pub target: usize,
    /// Melee or ranged.
    pub attack: Attack,
}

impl ConcealmentRequest {
    /// The question in the rules crate's terms, or a 422 listing every problem.
    pub fn question(&self, limits: &Limits) -> Result<ConcealmentQuestion, AppError> {
        let Pair { encounter, attacker, target } =
            Draft::new(&self.encounter, limits).into_pair(&self.attacker, &self.target)?;
        let attack = match self.attack {
            ConcealAttackIn::Melee => Attack::Melee,
            ConcealAttackIn::Ranged => Attack::Ranged,
        };
        Ok(ConcealmentQuestion { encounter, attacker, target, attack })
    }
}

impl ConcealmentResponse {
    /// The wire answer, its trace in `lang`.
    pub fn new(enc: &Encounter, a: &ConcealmentAnswer, lang: Lang) -> ConcealmentResponse {
        ConcealmentResponse { result: result(a), trace: render::trace(&a.trace, lang, enc.ruleset) }
    }
}

fn result(a: &ConcealmentAnswer) -> ConcealmentResult {
    ConcealmentResult {
        degree: a.degree.id(),
        miss_chance: a.miss_chance,
        causes: a.causes.iter().map(|(c, d)| CauseOut { cause: c.id(), degree: d.id() }).collect(),
        overridden_by: a
            .overridden
            .iter()
            .map(|(s, c)| OverrideOut { sense: s.id(), cause: c.id() })
            .collect(),
        line_of_effect: a.line_of_effect,
        line_of_sight: a.line_of_sight,
        attacker_sees_target: a.attacker_sees_target,
        target_sees_attacker: a.target_sees_attacker,
        target_light: a.target_light.id(),
        attacker_light: a.attacker_light.id(),
        roll_mode: a.roll_mode.id(),
        corner: a.corner.map(PointOut::from),
        target_square: a.target_square.map(SquareOut::from),
        lines: a
            .lines
            .iter()
            .map(|l| ConcealLineOut { from: l.from.into(), to: l.to.into(), concealed: l.concealed })
            .collect(),
    }
}

/// The bounds of the request, checked before any other work.
impl Contract for ConcealmentRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.question(&self.encounter, &self.attacker, &self.target);
    }
}
