//! `POST /v1/range`: wire types and their mapping both ways.

use arbiter_rules::encounter::{Encounter, Weapon, WeaponKind};
use arbiter_rules::grid::METRES_PER_SQUARE;
use arbiter_rules::range::{RangeAnswer, weapon_problems};
use arbiter_rules::ruleset::RangedInMeleeRule;
use arbiter_rules::trace::RangeBand;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::contract::{Check, Contract};
use super::encounter::{EncounterIn, WeaponIn};
use super::mapping;
use super::question::{Draft, Pair};
use crate::error::AppError;
use crate::limits::Limits;
use crate::render::{self, Lang, TraceStep};

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
    #[schema(value_type = crate::wire::RangeBandId)]
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
    #[schema(value_type = crate::wire::RollModeId)]
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

/// A range question in the rules crate's terms.
#[derive(Debug)]
pub struct RangeQuestion {
    /// The validated encounter.
    pub encounter: Encounter,
    /// The attacker's index.
    pub attacker: usize,
    /// The target's index.
    pub target: usize,
    /// The weapon used.
    pub weapon: Weapon,
}

impl RangeRequest {
    /// The question in the rules crate's terms, or a 422 listing every problem.
    pub fn question(&self, limits: &Limits) -> Result<RangeQuestion, AppError> {
        let mut d = Draft::new(&self.encounter, limits);
        let weapon = mapping::weapon(&mut d.problems, "/weapon", &self.weapon);
        d.add(weapon_problems(mapping::ruleset_id(self.encounter.ruleset), &weapon));
        let Pair { encounter, attacker, target } = d.into_pair(&self.attacker, &self.target)?;
        Ok(RangeQuestion { encounter, attacker, target, weapon })
    }
}

impl RangeResponse {
    /// The wire answer to `q`, its trace in `lang`.
    pub fn new(q: &RangeQuestion, answer: &RangeAnswer, lang: Lang) -> RangeResponse {
        RangeResponse {
            result: result(q, answer),
            trace: render::trace(&answer.trace, lang, q.encounter.ruleset),
        }
    }
}

fn result(q: &RangeQuestion, answer: &RangeAnswer) -> RangeResult {
    let ranged_in_melee = q.encounter.ruleset.rules().ranged_in_melee;
    let ranged = answer.band != RangeBand::Reach && q.weapon.kind != Some(WeaponKind::Melee);
    RangeResult {
        distance_ft: answer.distance_ft,
        distance_squares: answer.distance_squares,
        distance_m: answer.distance_squares as f64 * METRES_PER_SQUARE,
        band: answer.band.id(),
        increment: answer.increment,
        allowed: answer.allowed,
        max_ft: answer.max_ft,
        modifier: answer.modifier,
        range_modifier: answer.range_modifier,
        roll_mode: answer.roll_mode.id(),
        disadvantage_sources: answer.disadvantage_sources.clone(),
        close_combat: match ranged_in_melee {
            RangedInMeleeRule::CloseCombatDisadvantage { .. } if ranged => Some(CloseCombatOut {
                disadvantage: !answer.close_combat_by.is_empty(),
                by: answer.close_combat_by.clone(),
            }),
            _ => None,
        },
        into_melee: match ranged_in_melee {
            RangedInMeleeRule::IntoMelee { .. } if ranged => Some(IntoMeleeOut {
                modifier: answer.into_melee_modifier,
                engaged_with: answer.engaged_with.clone(),
            }),
            _ => None,
        },
    }
}

/// The bounds of the request, checked before any other work.
impl Contract for RangeRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.question(&self.encounter, &self.attacker, &self.target);
        c.at("weapon", |c| c.weapon(&self.weapon));
    }
}
