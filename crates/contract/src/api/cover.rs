//! `POST /v1/cover`: wire types and their mapping both ways.

use arbiter_rules::cover::{AttackKind, CoverAnswer, ElementKind, SaveKind, TracedLine};
use arbiter_rules::encounter::{Encounter, Weapon};
use arbiter_rules::grid::Square;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::contract::{Check, Contract};
use super::encounter::{EncounterIn, PointIn, WeaponIn};
use super::grid::{PointOut, SquareOut};
use super::mapping;
use super::question::{Draft, Pair};
use crate::error::AppError;
use crate::limits::Limits;
use crate::render::{self, Lang, TraceStep};

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

/// An element that blocked a line.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BlockerOut {
    /// `solid`, `low`, `creature` or `wall`.
    #[schema(value_type = crate::wire::BlockerKindId)]
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
    #[schema(value_type = Option<crate::wire::WallKindId>)]
    pub wall_kind: Option<&'static str>,
}

/// One way a line met a blocker (`grid.line.blocked` case).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HitOut {
    /// `interior`, `graze`, `seam`, `pinch`, `cross`, `overlap` or `endpoint_on_wall`.
    #[schema(value_type = crate::wire::HitCaseId)]
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
    #[schema(value_type = crate::wire::CoverDegreeId)]
    pub degree: &'static str,
    /// The cover comes from creatures only (PF1/SF soft cover).
    pub soft: bool,
    /// Bonus to AC (0 in hb3d, where cover is an ATT modifier). Absent under total cover,
    /// which has no AC bonus: the target cannot be targeted (`can_be_targeted: false`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ac_bonus: Option<i32>,
    /// Bonus to the saving throw named by `save`; absent under total cover (the effect does
    /// not reach the target).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save_bonus: Option<i32>,
    /// `dex` (5e) or `reflex` (PF1, SF, hb3d).
    #[schema(value_type = crate::wire::SaveId)]
    pub save: &'static str,
    /// PF1/SF/hb3d: Reflex bonus against effects from the far side (absent under total
    /// cover).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reflex_bonus: Option<i32>,
    /// 5e: Dexterity saving throw bonus (absent under total cover).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dex_save_bonus: Option<i32>,
    /// hb3d: modifier to the attacker's ATT (0 in the other rulesets); absent under total
    /// cover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack_modifier: Option<i32>,
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

/// A cover question in the rules crate's terms.
#[derive(Debug)]
pub struct CoverQuestion {
    /// The validated encounter.
    pub encounter: Encounter,
    /// The attacker's index.
    pub attacker: usize,
    /// The target's index.
    pub target: usize,
    /// Melee, ranged, or an area from its origin.
    pub attack: AttackKind,
    /// The weapon given, if any.
    pub weapon: Option<Weapon>,
}

impl CoverRequest {
    /// The question in the rules crate's terms, or a 422 listing every problem.
    pub fn question(&self, limits: &Limits) -> Result<CoverQuestion, AppError> {
        let mut d = Draft::new(&self.encounter, limits);
        let weapon = self.weapon.as_ref().map(|w| mapping::weapon(&mut d.problems, "/weapon", w));
        let attack = match (self.attack, &self.origin) {
            (AttackIn::Melee, _) => AttackKind::Melee,
            (AttackIn::Ranged, _) => AttackKind::Ranged,
            (AttackIn::Area, Some(o)) => {
                let (w, h) = (self.encounter.grid.width, self.encounter.grid.height);
                AttackKind::Area {
                    origin: mapping::point(&mut d.problems, "/origin", o, w, h),
                    spread: self.spread,
                }
            }
            (AttackIn::Area, None) => {
                // Recorded: the placeholder never reaches the rules.
                d.problems.push(
                    "/origin",
                    crate::error::Text::new(
                        "an area effect needs its point of origin",
                        "un effet de zone a besoin de son point d'origine",
                    ),
                );
                AttackKind::Ranged
            }
        };
        let Pair { encounter, attacker, target } = d.into_pair(&self.attacker, &self.target)?;
        Ok(CoverQuestion { encounter, attacker, target, attack, weapon })
    }
}

impl CoverResponse {
    /// The wire answer, its trace in `lang`.
    pub fn new(enc: &Encounter, a: &CoverAnswer, lang: Lang) -> CoverResponse {
        CoverResponse { result: result(enc, a), trace: render::trace(&a.trace, lang, enc.ruleset) }
    }
}

fn result(enc: &Encounter, a: &CoverAnswer) -> CoverResult {
    let reflex = a.save == SaveKind::Reflex;
    CoverResult {
        degree: a.degree.id(),
        soft: a.soft,
        ac_bonus: a.ac_bonus,
        save_bonus: a.save_bonus,
        save: if reflex { "reflex" } else { "dex" },
        reflex_bonus: a.save_bonus.filter(|_| reflex),
        dex_save_bonus: a.save_bonus.filter(|_| !reflex),
        attack_modifier: a.attack_modifier,
        can_be_targeted: a.can_be_targeted,
        denies_opportunity_attacks: a.denies_opportunity_attacks,
        allows_stealth: a.allows_stealth,
        stealth_bonus: a.stealth_bonus,
        improved_evasion: a.improved_evasion,
        in_reach: a.in_reach,
        corner: a.corner.map(PointOut::from),
        attacker_square: a.attacker_square.map(SquareOut::from),
        target_square: a.target_square.map(SquareOut::from),
        procedure: a.procedure,
        lines: lines(enc, &a.lines),
    }
}

/// The wire form of traced lines.
fn lines(enc: &Encounter, lines: &[TracedLine]) -> Vec<LineOut> {
    lines
        .iter()
        .map(|l| LineOut {
            from: l.from.into(),
            to: l.to.into(),
            blocked: l.blocked,
            hits: l
                .hits
                .iter()
                .map(|h| HitOut {
                    case: h.case.id(),
                    counted: h.counted,
                    at: h.at.map(|(x, y)| PointOut { x, y }),
                    by: h.elements.iter().map(|(k, sq)| blocker(enc, k, *sq)).collect(),
                })
                .collect(),
        })
        .collect()
}

fn blocker(enc: &Encounter, k: &ElementKind, square: Option<Square>) -> BlockerOut {
    let mut b = BlockerOut {
        kind: "solid",
        square: square.map(SquareOut::from),
        creature: None,
        wall: None,
        wall_kind: None,
    };
    match k {
        ElementKind::Solid => {}
        ElementKind::Low => b.kind = "low",
        ElementKind::Creature(i) => {
            b.kind = "creature";
            b.creature = enc.creatures.get(*i).map(|c| c.id.clone());
        }
        ElementKind::Wall { index, kind } => {
            b.kind = "wall";
            b.wall = Some(*index);
            b.wall_kind = Some(kind.id());
        }
    }
    b
}

/// The bounds of the request, checked before any other work.
impl Contract for CoverRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.question(&self.encounter, &self.attacker, &self.target);
        if let Some(o) = &self.origin {
            c.point("origin", o);
        }
        if let Some(w) = &self.weapon {
            c.at("weapon", |c| c.weapon(w));
        }
    }
}
