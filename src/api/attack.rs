//! `POST /v1/attack` wire types.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dice::{DiceEcho, DiceIn, RollOut};
use super::encounter::{EncounterIn, WeaponIn};
use crate::render::TraceStep;

/// Situational flags.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SituationalIn {
    /// The attacker charged (PF1, hb3d: +2 attack, −2 AC until its next turn).
    #[serde(default)]
    pub charging: bool,
    /// 5e: the bonus-action attack with the other hand.
    #[serde(default)]
    pub off_hand: bool,
    /// 5e: the weapon in the other hand (checked for the Light property).
    #[serde(default)]
    pub other_weapon: Option<WeaponIn>,
    /// 5e: ignores half and three-quarters cover (Sharpshooter, Spell Sniper).
    #[serde(default)]
    pub ignores_half_and_three_quarters_cover: bool,
    /// Ignores every cover but total cover.
    #[serde(default)]
    pub ignores_cover_except_total: bool,
}

/// An attack question.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "dnd5e2024",
        "grid": {"width": 10, "height": 3},
        "creatures": [
            {"id": "archer", "side": "party", "at": {"x": 0, "y": 1}, "stats": {"attack_bonus": 5}},
            {"id": "orc", "side": "monsters", "at": {"x": 6, "y": 1}, "stats": {"ac": 15}}
        ]
    },
    "attacker": "archer",
    "target": "orc",
    "weapon": {"kind": "ranged", "normal_ft": 150, "long_ft": 600},
    "dice": {"mode": "roll", "seed": 7}
}))]
pub struct AttackRequest {
    /// The encounter.
    pub encounter: EncounterIn,
    /// Id of the attacker.
    #[schema(min_length = 1, max_length = 64)]
    pub attacker: String,
    /// Id of the target.
    #[schema(min_length = 1, max_length = 64)]
    pub target: String,
    /// The weapon (`attack_bonus` on it wins over the attacker's).
    pub weapon: WeaponIn,
    /// Roll (seeded), given faces, or odds only.
    pub dice: DiceIn,
    /// Situational flags.
    #[serde(default)]
    pub situational: SituationalIn,
}

/// One modifier gathered.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ModifierOut {
    /// The rule id.
    pub rule: &'static str,
    /// What it comes from: `range`, `long_range`, `ranged_in_close_combat`, `into_melee`,
    /// `cover`, `concealment`, `unseen_target`, `unseen_attacker`, `flanking`,
    /// `prone_attacker`, `prone_target`, `condition`, `squeezing_attacker`,
    /// `squeezing_target`, `charge`, `underwater`, `off_hand`.
    pub source: &'static str,
    /// Detail (the condition, the creatures, the degree…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Modifier to the attack roll.
    pub attack: i32,
    /// Modifier to the target number (AC, EAC/KAC, DEF).
    pub defence: i32,
    /// Grants advantage (5e).
    pub advantage: bool,
    /// Imposes disadvantage (5e).
    pub disadvantage: bool,
}

/// Exact odds, as probabilities.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AttackOdds {
    /// The attack hits (after any concealment miss chance).
    pub hit: f64,
    /// It is a critical hit.
    pub critical: f64,
    /// It misses.
    pub miss: f64,
    /// PF1: a critical threat (before confirmation and miss chance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat: Option<f64>,
    /// A hit lost to concealment.
    pub concealment_miss: f64,
    /// The same as exact fractions (`"319/400"`).
    pub exact: AttackOddsExact,
}

/// Exact fractions.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AttackOddsExact {
    /// Hit.
    pub hit: String,
    /// Critical.
    pub critical: String,
    /// Miss.
    pub miss: String,
    /// Threat (PF1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat: Option<String>,
    /// Concealment miss.
    pub concealment_miss: String,
}

/// The concealment miss roll.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConcealmentRollOut {
    /// The d100.
    pub roll: u32,
    /// Miss chance, percent.
    pub miss_chance: u32,
    /// Whether the hit was lost.
    pub missed: bool,
}

/// The PF1 confirmation roll.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConfirmOut {
    /// The d20.
    pub natural: i64,
    /// Its total.
    pub total: i64,
}

/// The answer's `result`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AttackResult {
    /// Whether the attack can be made.
    pub allowed: bool,
    /// Why not: `out_of_range`, `total_cover`, `prone_ranged`, `off_hand_not_light`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// `normal`, `advantage` or `disadvantage`.
    pub roll_mode: &'static str,
    /// Rule ids granting advantage.
    pub advantage_sources: Vec<&'static str>,
    /// Rule ids imposing disadvantage.
    pub disadvantage_sources: Vec<&'static str>,
    /// Every modifier gathered.
    pub modifiers: Vec<ModifierOut>,
    /// Attack bonus with every modifier.
    pub attack_bonus: i32,
    /// The number to reach (AC, EAC/KAC or DEF with every modifier).
    pub target_number: i32,
    /// Concealment miss chance, percent.
    pub miss_chance: u32,
    /// The attack misses whatever the roll (5e underwater beyond normal range).
    pub automatic_miss: bool,
    /// The faces kept (one d20, or three d6 in hb3d).
    pub kept: Vec<u32>,
    /// The faces discarded (advantage or disadvantage).
    pub discarded: Vec<u32>,
    /// The natural roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub natural: Option<i64>,
    /// Natural roll plus attack bonus.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// Hit (absent in odds mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit: Option<bool>,
    /// Critical hit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical: Option<bool>,
    /// PF1: critical threat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat: Option<bool>,
    /// PF1: the confirmation roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirm: Option<ConfirmOut>,
    /// The concealment miss roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concealment_miss: Option<ConcealmentRollOut>,
}

/// The answer to an attack question.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AttackResponse {
    /// The resolved answer.
    pub result: AttackResult,
    /// Exact odds.
    pub odds: AttackOdds,
    /// The dice rolled or taken.
    pub rolls: Vec<RollOut>,
    /// The dice settings, with the seed used.
    pub dice: DiceEcho,
    /// Every rule applied, in order.
    pub trace: Vec<TraceStep>,
}
