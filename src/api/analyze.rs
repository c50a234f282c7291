//! `POST /v1/analyze` wire types.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::contract::CreatureId;
use super::encounter::EncounterIn;
use crate::render::TraceStep;

/// The attack judged for every pair.
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnalyzeAttackIn {
    /// Melee when the target is within the attacker's reach, ranged otherwise.
    #[default]
    Auto,
    /// Melee for every pair.
    Melee,
    /// Ranged for every pair.
    Ranged,
}

/// A whole-scene question.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "pf1e",
        "grid": {"width": 10, "height": 6, "map": ["..........", "....#.....", "..........", "..........", "..........", ".........."]},
        "creatures": [
            {"id": "fighter", "side": "party", "at": {"x": 1, "y": 1}},
            {"id": "rogue", "side": "party", "at": {"x": 3, "y": 3}},
            {"id": "orc", "side": "monsters", "at": {"x": 7, "y": 1}},
            {"id": "goblin", "side": "monsters", "at": {"x": 2, "y": 2}}
        ]
    }
}))]
pub struct AnalyzeRequest {
    /// The encounter.
    pub encounter: EncounterIn,
    /// Ids of the attackers, each at most once (default: every creature).
    #[serde(default)]
    #[schema(max_items = 500, value_type = Option<Vec<CreatureId>>)]
    pub attackers: Option<Vec<String>>,
    /// `auto` (default), `melee` or `ranged`.
    #[serde(default)]
    pub attack: AnalyzeAttackIn,
    /// Keep each pair's full trace (large); by default the answer's trace counts the pairs
    /// each rule was applied to.
    #[serde(default)]
    pub traces: bool,
}

/// Cover of one pair.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairCoverOut {
    /// As `/v1/cover` names it.
    pub degree: &'static str,
    /// Given by creatures only.
    pub soft: bool,
    /// AC bonus.
    pub ac_bonus: i32,
    /// Save bonus (Dex save or Reflex).
    pub save_bonus: i32,
    /// hb3d: the ATT modifier instead.
    pub attack_modifier: i32,
    /// Whether the target can be attacked (no total cover).
    pub can_be_targeted: bool,
    /// Whether it denies attacks of opportunity.
    pub denies_opportunity_attacks: bool,
}

/// Concealment of one pair.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairConcealmentOut {
    /// `none`, `concealment`, `total`.
    pub degree: &'static str,
    /// Percent.
    pub miss_chance: u32,
    /// Line of effect between the spaces.
    pub line_of_effect: bool,
    /// Line of sight between the spaces.
    pub line_of_sight: bool,
    /// 5e: the attacker sees the target.
    pub attacker_sees_target: bool,
    /// 5e: the target sees the attacker.
    pub target_sees_attacker: bool,
}

/// Flanking of one pair in reach.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairFlankingOut {
    /// Whether the target is flanked.
    pub flanked: bool,
    /// Ids of the helpers.
    pub flankers: Vec<String>,
    /// +2 (PF1 family) or 0.
    pub attack_bonus: i32,
    /// 5e optional rule: advantage.
    pub advantage: bool,
}

/// One ordered pair.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairOut {
    /// Attacker id.
    pub attacker: String,
    /// Target id.
    pub target: String,
    /// Distance between the spaces, feet.
    pub distance_ft: i64,
    /// Distance, squares.
    pub distance_squares: i64,
    /// Within the reach of the attacker's weapon (or natural reach).
    pub in_reach: bool,
    /// `melee` or `ranged`: the attack cover and concealment were judged for.
    pub attack: &'static str,
    /// Cover.
    pub cover: PairCoverOut,
    /// Concealment.
    pub concealment: PairConcealmentOut,
    /// Flanking (pairs judged in melee within reach).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flanking: Option<PairFlankingOut>,
    /// The pair's full trace (with `traces: true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<TraceStep>>,
}

/// The analysis.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AnalyzeResult {
    /// Every ordered pair of opposing creatures.
    pub pairs: Vec<PairOut>,
}

/// The answer to `POST /v1/analyze`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AnalyzeResponse {
    /// The pairs.
    pub result: AnalyzeResult,
    /// One step per rule applied, with the number of pairs.
    pub trace: Vec<TraceStep>,
}
