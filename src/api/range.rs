//! `POST /v1/range` wire types.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::encounter::{EncounterIn, WeaponIn};
use crate::render::TraceStep;

/// A range question.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "pf1e",
        "grid": {"width": 40, "height": 10},
        "creatures": [
            {"id": "archer", "side": "party", "at": {"x": 0, "y": 0}},
            {"id": "orc", "side": "monsters", "at": {"x": 21, "y": 0}}
        ]
    },
    "attacker": "archer",
    "target": "orc",
    "weapon": {"kind": "ranged", "increment_ft": 100}
}))]
pub struct RangeRequest {
    /// The encounter.
    pub encounter: EncounterIn,
    /// Id of the attacking creature.
    #[schema(min_length = 1, max_length = 64)]
    pub attacker: String,
    /// Id of the target.
    #[schema(min_length = 1, max_length = 64)]
    pub target: String,
    /// The weapon used.
    pub weapon: WeaponIn,
}

/// The 5e close-combat check.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CloseCombatOut {
    /// Whether the ranged attack has disadvantage.
    pub disadvantage: bool,
    /// The hostile creatures within 5 ft that impose it.
    pub by: Vec<String>,
}

/// The PF1 shooting-into-melee check.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct IntoMeleeOut {
    /// The penalty (−4, −2 or 0).
    pub modifier: i32,
    /// The attacker's friends engaged in melee with the target.
    pub engaged_with: Vec<String>,
}

/// The answer's `result`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RangeResult {
    /// Distance between the two spaces, feet.
    pub distance_ft: i64,
    /// Distance in squares.
    pub distance_squares: i64,
    /// Distance in metres (1 square = 1.5 m).
    pub distance_m: f64,
    /// `reach`, `normal`, `long`, `increment` or `out_of_range`.
    #[schema(example = "increment")]
    pub band: &'static str,
    /// The range increment the target is in (PF1, SF, hb3d ranged weapons).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub increment: Option<u32>,
    /// Whether the weapon can reach the target.
    pub allowed: bool,
    /// The farthest the weapon reaches, feet (melee: reach).
    pub max_ft: i64,
    /// Total attack modifier from range and shooting into melee.
    pub modifier: i32,
    /// Attack modifier from the range increment.
    pub range_modifier: i32,
    /// `normal`, `advantage` or `disadvantage` after combining every source.
    pub roll_mode: &'static str,
    /// Rule ids that impose disadvantage.
    pub disadvantage_sources: Vec<&'static str>,
    /// 5e: ranged attack within 5 ft of a hostile creature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub close_combat: Option<CloseCombatOut>,
    /// PF1, hb3d: ranged attack into melee.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub into_melee: Option<IntoMeleeOut>,
}

/// The answer to a range question.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RangeResponse {
    /// The resolved answer.
    pub result: RangeResult,
    /// Every rule applied, in order.
    pub trace: Vec<TraceStep>,
}
