//! `POST /v1/flanking`: wire types and their mapping both ways.

use arbiter_rules::encounter::Encounter;
use arbiter_rules::flanking::FlankAnswer;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::contract::{Check, Contract};
use super::encounter::EncounterIn;
use super::grid::{SquareOut, squares};
use super::question::{Draft, Pair, creature_id};
use crate::error::AppError;
use crate::limits::Limits;
use crate::render::{self, Lang, TraceStep};

/// A flanking question: does `attacker` flank `target` in melee, and with whom?
///
/// Who threatens comes from each creature's size, `reach_ft`, `wielding` (a `reach` weapon,
/// or its own `reach_ft`), `unarmed`, `feats` (`improved_unarmed_strike`) and `conditions`.
/// D&D 5e flanking is an optional rule: switch it on with
/// `"variants": {"dnd5e.flanking.optional": true}` in the encounter.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "pf1e",
        "grid": {"width": 8, "height": 8},
        "creatures": [
            {"id": "rogue", "side": "party", "at": {"x": 4, "y": 5}},
            {"id": "orc", "side": "monsters", "at": {"x": 5, "y": 5}},
            {"id": "fighter", "side": "party", "at": {"x": 6, "y": 5}},
            {"id": "cleric", "side": "party", "at": {"x": 6, "y": 6}}
        ]
    },
    "attacker": "rogue",
    "target": "orc"
}))]
pub struct FlankingRequest {
    /// The encounter.
    pub encounter: EncounterIn,
    /// Id of the creature making the melee attack.
    #[schema(min_length = 1, max_length = 64)]
    pub attacker: String,
    /// Id of the creature attacked.
    #[schema(min_length = 1, max_length = 64)]
    pub target: String,
}

/// A creature that flanks the target with the attacker.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FlankerOut {
    /// The helper's id.
    pub creature: String,
    /// The attacker's square whose centre starts the line (the nearest qualifying pair of
    /// squares is reported for creatures of several squares).
    pub attacker_square: SquareOut,
    /// The helper's square whose centre ends the line.
    pub helper_square: SquareOut,
    /// The opposite edges of the target's space the line meets: `west_east`, `north_south`,
    /// or `both` (through opposite corners).
    #[schema(example = "west_east")]
    #[schema(value_type = crate::wire::EdgesId)]
    pub edges: &'static str,
}

/// The squares one enemy of the target threatens (for drawing).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ThreatenedOut {
    /// The creature's id.
    pub creature: String,
    /// Whether it threatens some square of the target (D&D 5e: the target is within its reach).
    pub threatens_target: bool,
    /// Every square inside the grid within its reach band, its own space excluded, row by
    /// row; empty when it threatens nothing (a condition, 0 ft reach, unarmed in PF1/hb3d).
    pub squares: Vec<SquareOut>,
}

/// The answer's `result`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FlankingResult {
    /// Whether the attacker flanks the target.
    pub flanked: bool,
    /// Whether flanking applies at all: `false` only in D&D 5e without the variant
    /// `dnd5e.flanking.optional`.
    pub in_force: bool,
    /// Every creature that makes the flank with the attacker, in encounter order, with the
    /// squares whose centres make the line.
    pub flankers: Vec<FlankerOut>,
    /// Bonus to the attacker's melee attack rolls: +2 when flanked in PF1, SF and hb3d
    /// (never more), 0 in D&D 5e.
    pub attack_bonus: i32,
    /// D&D 5e: advantage on the attacker's melee attack rolls.
    pub advantage: bool,
    /// The flanking rule id that decided (`pf1e.flanking.geometry`, `sf1e.flanking`,
    /// `dnd5e.flanking.optional`).
    pub rule: &'static str,
    /// For each enemy of the target (every creature of another side, the attacker included),
    /// in encounter order, the squares it threatens.
    pub threatened: Vec<ThreatenedOut>,
}

/// The answer to a flanking question.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FlankingResponse {
    /// The resolved answer.
    pub result: FlankingResult,
    /// Every rule applied, in order.
    pub trace: Vec<TraceStep>,
}

impl FlankingRequest {
    /// The question in the rules crate's terms, or a 422 listing every problem.
    pub fn question(&self, limits: &Limits) -> Result<Pair, AppError> {
        Draft::new(&self.encounter, limits).into_pair(&self.attacker, &self.target)
    }
}

impl FlankingResponse {
    /// The wire answer, its trace in `lang`.
    pub fn new(enc: &Encounter, a: &FlankAnswer, lang: Lang) -> FlankingResponse {
        FlankingResponse { result: result(enc, a), trace: render::trace(&a.trace, lang, enc.ruleset) }
    }
}

fn result(enc: &Encounter, a: &FlankAnswer) -> FlankingResult {
    FlankingResult {
        flanked: a.flanked,
        in_force: a.in_force,
        flankers: a
            .flankers
            .iter()
            .map(|f| FlankerOut {
                creature: creature_id(enc, f.creature),
                attacker_square: f.attacker_square.into(),
                helper_square: f.helper_square.into(),
                edges: f.edges.id(),
            })
            .collect(),
        attack_bonus: a.attack_bonus,
        advantage: a.advantage,
        rule: a.rule,
        threatened: a
            .threatened
            .iter()
            .map(|t| ThreatenedOut {
                creature: creature_id(enc, t.creature),
                threatens_target: t.threatens_target,
                squares: squares(&t.squares),
            })
            .collect(),
    }
}

/// The bounds of the request, checked before any other work.
impl Contract for FlankingRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.question(&self.encounter, &self.attacker, &self.target);
    }
}
