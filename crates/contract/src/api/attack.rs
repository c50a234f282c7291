//! `POST /v1/attack`: wire types and their mapping both ways.

use arbiter_rules::attack::{AttackAnswer, Situational};
use arbiter_rules::dice::Ratio;
use arbiter_rules::encounter::{ArmorClass, Encounter, Weapon};
use arbiter_rules::error::RulesError;
use arbiter_rules::range::weapon_problems;
use arbiter_rules::ruleset::Defence;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::contract::{Check, Contract};
use super::damage::DamageOut;
use super::dice::{DiceEcho, DiceIn, RollOut};
use super::encounter::{EncounterIn, WeaponIn};
use super::mapping;
use super::question::Draft;
use crate::error::AppError;
use crate::limits::Limits;
use crate::render::{self, Lang, TraceStep};

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
    /// PF1, hb3d: the attacker readied a `brace` weapon against the target's charge: double
    /// damage.
    #[serde(default)]
    pub braced_against_charge: bool,
}

/// An attack question.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "dnd5e2024",
        "grid": {"width": 10, "height": 3},
        "creatures": [
            {"id": "archer", "side": "party", "at": {"x": 0, "y": 1}, "stats": {"attack_bonus": 5, "dex_mod": 3}},
            {"id": "orc", "side": "monsters", "at": {"x": 6, "y": 1}, "stats": {"ac": 15, "hp": 15}}
        ]
    },
    "attacker": "archer",
    "target": "orc",
    "weapon": {"kind": "ranged", "normal_ft": 150, "long_ft": 600, "damage": "1d8", "damage_type": "piercing"},
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
    #[schema(value_type = crate::wire::ModifierSourceId)]
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
    #[schema(value_type = Option<crate::wire::AttackNotAllowedId>)]
    pub reason: Option<&'static str>,
    /// `normal`, `advantage` or `disadvantage`.
    #[schema(value_type = crate::wire::RollModeId)]
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
    /// The damage, when the weapon has a `damage`: its exact distribution on a hit, on a
    /// critical hit and for the attack (misses deal 0), and what was rolled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<DamageOut>,
    /// The dice rolled or taken.
    pub rolls: Vec<RollOut>,
    /// The dice settings, with the seed used.
    pub dice: DiceEcho,
    /// Every rule applied, in order.
    pub trace: Vec<TraceStep>,
}

/// An attack question in the rules crate's terms (the dice come from `AttackRequest::dice`).
#[derive(Debug)]
pub struct AttackQuestion {
    /// The validated encounter.
    pub encounter: Encounter,
    /// The attacker's index.
    pub attacker: usize,
    /// The target's index.
    pub target: usize,
    /// The weapon used.
    pub weapon: Weapon,
    /// Situational flags.
    pub situational: Situational,
}

impl AttackRequest {
    /// The question in the rules crate's terms, or a 422 listing every problem.
    pub fn question(&self, limits: &Limits) -> Result<AttackQuestion, AppError> {
        let mut d = Draft::new(&self.encounter, limits);
        let weapon = mapping::weapon(&mut d.problems, "/weapon", &self.weapon);
        d.add(weapon_problems(mapping::ruleset_id(self.encounter.ruleset), &weapon));
        let s = &self.situational;
        let other =
            s.other_weapon.as_ref().map(|w| mapping::weapon(&mut d.problems, "/situational/other_weapon", w));
        let pair = d.pair(&self.attacker, &self.target);
        if let (Some(enc), Some((a, t))) = (d.encounter(), pair) {
            let missing = missing_stats(enc, a, t, &weapon);
            d.add(missing);
        }
        let (encounter, (attacker, target)) = d.finish(pair)?;
        let situational = Situational {
            charging: s.charging,
            off_hand: s.off_hand,
            other_weapon: other,
            ignores_half_and_three_quarters_cover: s.ignores_half_and_three_quarters_cover,
            ignores_cover_except_total: s.ignores_cover_except_total,
            braced_against_charge: s.braced_against_charge,
        };
        Ok(AttackQuestion { encounter, attacker, target, weapon, situational })
    }
}

/// The attacker's attack bonus and the target's defence, when missing: both at once (the
/// rules stop at the first).
fn missing_stats(enc: &Encounter, attacker: usize, target: usize, weapon: &Weapon) -> Vec<RulesError> {
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Vec::new();
    };
    let missing = |i: usize, id: &str, stat| RulesError::MissingStat {
        pointer: format!("/encounter/creatures/{i}/stats"),
        creature: id.to_owned(),
        stat,
    };
    let mut out = Vec::new();
    if weapon.attack_bonus.or(a.stats.attack_bonus).is_none() {
        out.push(missing(attacker, &a.id, "attack_bonus"));
    }
    let (stat, value) = match enc.ruleset.rules().attack.defence {
        Defence::Ac => ("ac", t.stats.ac),
        Defence::Def => ("def", t.stats.def),
        Defence::EacKac => match weapon.targets.unwrap_or(ArmorClass::Kac) {
            ArmorClass::Eac => ("eac", t.stats.eac),
            ArmorClass::Kac => ("kac", t.stats.kac),
        },
    };
    if value.is_none() {
        out.push(missing(target, &t.id, stat));
    }
    out
}

impl AttackResponse {
    /// The wire answer, with the dice settings used, its trace in `lang`.
    pub fn new(enc: &Encounter, a: &AttackAnswer, dice: DiceEcho, lang: Lang) -> AttackResponse {
        AttackResponse {
            result: result(a),
            odds: odds(a),
            damage: a.damage.as_ref().map(DamageOut::new),
            rolls: a.rolls.iter().map(RollOut::from).collect(),
            dice,
            trace: render::trace(&a.trace, lang, enc.ruleset),
        }
    }
}

fn result(a: &AttackAnswer) -> AttackResult {
    AttackResult {
        allowed: a.allowed,
        reason: a.not_allowed.map(|n| n.id()),
        roll_mode: a.roll_mode.id(),
        advantage_sources: a.modifiers.iter().filter(|m| m.advantage).map(|m| m.rule).collect(),
        disadvantage_sources: a.modifiers.iter().filter(|m| m.disadvantage).map(|m| m.rule).collect(),
        modifiers: a
            .modifiers
            .iter()
            .map(|m| ModifierOut {
                rule: m.rule,
                source: m.source,
                detail: m.detail.clone(),
                attack: m.attack,
                defence: m.defence,
                advantage: m.advantage,
                disadvantage: m.disadvantage,
            })
            .collect(),
        attack_bonus: a.attack_bonus,
        target_number: a.target_number,
        miss_chance: a.miss_chance,
        automatic_miss: a.automatic_miss,
        kept: a.kept.clone(),
        discarded: a.discarded.clone(),
        natural: a.natural,
        total: a.total,
        hit: a.hit,
        critical: a.critical,
        threat: a.threat,
        confirm: a.confirm.map(|(natural, total)| ConfirmOut { natural, total }),
        concealment_miss: a.concealment_roll.map(|(roll, missed)| ConcealmentRollOut {
            roll,
            miss_chance: a.miss_chance,
            missed,
        }),
    }
}

fn odds(a: &AttackAnswer) -> AttackOdds {
    let o = &a.odds;
    let frac = |r: Ratio| r.to_string();
    AttackOdds {
        hit: o.hit.to_f64(),
        critical: o.critical.to_f64(),
        miss: o.miss.to_f64(),
        threat: o.threat.map(|t| t.to_f64()),
        concealment_miss: o.concealment_miss.to_f64(),
        exact: AttackOddsExact {
            hit: frac(o.hit),
            critical: frac(o.critical),
            miss: frac(o.miss),
            threat: o.threat.map(frac),
            concealment_miss: frac(o.concealment_miss),
        },
    }
}

/// The bounds of the request, checked before any other work.
impl Contract for AttackRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.question(&self.encounter, &self.attacker, &self.target);
        c.at("weapon", |c| c.weapon(&self.weapon));
        c.dice(&self.dice);
        let SituationalIn { other_weapon, .. } = &self.situational;
        if let Some(w) = other_weapon {
            c.at("situational", |c| c.at("other_weapon", |c| c.weapon(w)));
        }
    }
}
