//! `POST /v1/cover` wire types.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::encounter::{EncounterIn, PointIn, WeaponIn};
use crate::render::TraceStep;

/// What the cover is for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AttackIn {
    /// A melee attack (reach from `weapon`, the attacker's `wielding`, or natural reach).
    Melee,
    /// A ranged attack.
    #[default]
    Ranged,
    /// An area effect from `origin`.
    Area,
}

/// A cover question.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "dnd5e2024",
        "grid": {"width": 7, "height": 5, "map": ["...#...", "...#...", "...#...", ".......", "......."]},
        "creatures": [
            {"id": "archer", "side": "party", "at": {"x": 0, "y": 0}},
            {"id": "orc", "side": "monsters", "at": {"x": 4, "y": 3}}
        ]
    },
    "attacker": "archer",
    "target": "orc",
    "attack": "ranged"
}))]
pub struct CoverRequest {
    /// The encounter.
    pub encounter: EncounterIn,
    /// Id of the attacker (or the caster of an area effect).
    #[schema(min_length = 1, max_length = 64)]
    pub attacker: String,
    /// Id of the target.
    #[schema(min_length = 1, max_length = 64)]
    pub target: String,
    /// `melee`, `ranged` (default) or `area`.
    #[serde(default)]
    pub attack: AttackIn,
    /// Point of origin of an area effect (required with `area`).
    #[serde(default)]
    pub origin: Option<PointIn>,
    /// The area effect is a spread (goes around corners: no Reflex bonus in PF1/SF).
    #[serde(default)]
    pub spread: bool,
    /// The melee weapon, for reach (default: the attacker's `wielding`, else natural reach).
    #[serde(default)]
    pub weapon: Option<WeaponIn>,
}

/// A point in square units.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct PointOut {
    /// East.
    pub x: f64,
    /// South.
    pub y: f64,
}

/// A square.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct SquareOut {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

/// An element that blocked a line.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BlockerOut {
    /// `solid`, `low`, `creature` or `wall`.
    pub kind: &'static str,
    /// The square, for square elements.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<SquareOut>,
    /// The creature's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creature: Option<String>,
    /// The wall's index in `grid.walls`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall: Option<usize>,
    /// The wall's kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_kind: Option<&'static str>,
}

/// One way a line met a blocker (`grid.line.blocked` case).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HitOut {
    /// `interior`, `graze`, `seam`, `pinch`, `cross`, `overlap` or `endpoint_on_wall`.
    pub case: &'static str,
    /// Whether the ruleset counts it (a low obstacle too far away, a creature in melee… do not).
    pub counted: bool,
    /// The elements involved.
    pub by: Vec<BlockerOut>,
    /// Where, approximately (for drawing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<PointOut>,
}

/// One traced line.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LineOut {
    /// Start.
    pub from: PointOut,
    /// End.
    pub to: PointOut,
    /// Whether it counts as blocked.
    pub blocked: bool,
    /// What it met.
    pub hits: Vec<HitOut>,
}

/// The answer's `result`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CoverResult {
    /// `none`, `partial`, `cover`, `improved`, `total` (PF1, SF, hb3d) or `none`, `half`,
    /// `three_quarters`, `total` (5e).
    pub degree: &'static str,
    /// The cover comes from creatures only (PF1/SF soft cover).
    pub soft: bool,
    /// Bonus to AC (0 in hb3d, where cover is an ATT modifier).
    pub ac_bonus: i32,
    /// Bonus to the saving throw named by `save`.
    pub save_bonus: i32,
    /// `dex` (5e) or `reflex` (PF1, SF, hb3d).
    pub save: &'static str,
    /// PF1/SF/hb3d: Reflex bonus against effects from the far side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reflex_bonus: Option<i32>,
    /// 5e: Dexterity saving throw bonus.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dex_save_bonus: Option<i32>,
    /// hb3d: modifier to the attacker's ATT.
    pub attack_modifier: i32,
    /// Whether the target can be attacked directly.
    pub can_be_targeted: bool,
    /// Whether the cover denies attacks of opportunity against the target.
    pub denies_opportunity_attacks: bool,
    /// Whether the cover lets the target hide (Stealth).
    pub allows_stealth: bool,
    /// Stealth bonus (PF1 improved cover: +10).
    pub stealth_bonus: i32,
    /// PF1 improved cover: improved evasion against Reflex saves.
    pub improved_evasion: bool,
    /// Melee: whether some target square is within reach (RULES.md Q-37).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_reach: Option<bool>,
    /// The attacker corner used (the origin for an area effect).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corner: Option<PointOut>,
    /// The attacker square that corner belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attacker_square: Option<SquareOut>,
    /// The target square aimed at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_square: Option<SquareOut>,
    /// The rule id of the procedure that decided.
    pub procedure: &'static str,
    /// The lines of the chosen corner and square.
    pub lines: Vec<LineOut>,
}

/// The answer to a cover question.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CoverResponse {
    /// The resolved answer.
    pub result: CoverResult,
    /// Every rule applied, in order.
    pub trace: Vec<TraceStep>,
}
