//! `POST /v1/analyze`: wire types and their mapping both ways.

use arbiter_rules::analyze::{Analysis, AnalyzeQuestion, AttackChoice, Pair};
use arbiter_rules::encounter::Encounter;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::bounds::CreatureId;
use super::contract::{Check, Contract};
use super::encounter::EncounterIn;
use super::question::{Draft, creature_id};
use crate::error::{AnswerSize, AppError};
use crate::limits::Limits;
use crate::render::{self, Lang, TraceStep};

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
    #[serde(default, deserialize_with = "crate::capped::opt_creatures")]
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
    #[schema(value_type = crate::wire::CoverDegreeId)]
    pub degree: &'static str,
    /// Given by creatures only.
    pub soft: bool,
    /// AC bonus; absent under total cover, which has none (the target cannot be targeted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ac_bonus: Option<i32>,
    /// Save bonus (Dex save or Reflex); absent under total cover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save_bonus: Option<i32>,
    /// hb3d: the ATT modifier instead; absent under total cover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack_modifier: Option<i32>,
    /// Whether the target can be attacked (no total cover).
    pub can_be_targeted: bool,
    /// Whether it denies attacks of opportunity.
    pub denies_opportunity_attacks: bool,
}

/// Concealment of one pair.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairConcealmentOut {
    /// `none`, `concealment`, `total`.
    #[schema(value_type = crate::wire::ConcealmentDegreeId)]
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
    #[schema(value_type = crate::wire::AttackKindId)]
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

impl AnalyzeRequest {
    /// The encounter and the question in the rules crate's terms, or a 422 listing every
    /// problem.
    pub fn question(&self, limits: &Limits) -> Result<(Encounter, AnalyzeQuestion), AppError> {
        let mut d = Draft::new(&self.encounter, limits);
        let attackers = self.attackers.as_ref().map(|ids| d.creatures("/attackers", ids));
        let encounter = d.done()?;
        let attack = match self.attack {
            AnalyzeAttackIn::Auto => AttackChoice::Auto,
            AnalyzeAttackIn::Melee => AttackChoice::Melee,
            AnalyzeAttackIn::Ranged => AttackChoice::Ranged,
        };
        Ok((encounter, AnalyzeQuestion { attackers, attack, traces: self.traces }))
    }
}

/// Serialises the answer pair by pair, stopping as soon as it passes `limit`: a scene with
/// every pair's trace is the largest answer the service makes, so it is never built whole
/// beside its bytes. The output is exactly `AnalyzeResponse`'s serialisation (`result.pairs`,
/// then `trace`); the tests read it back as that type.
pub fn write_answer(
    enc: &Encounter,
    a: Analysis,
    traces: bool,
    lang: Lang,
    limit: usize,
) -> Result<Vec<u8>, AppError> {
    let too_large = |size: usize| AppError::AnswerTooLarge {
        size: AnswerSize::AtLeast(size as u64),
        limit,
        hint: crate::error::Hint::Analyze,
    };
    let internal = |e: serde_json::Error| AppError::Internal(format!("serialising an analysis: {e}"));
    let mut out = Vec::with_capacity(4096);
    out.extend_from_slice(br#"{"result":{"pairs":["#);
    for (i, x) in a.pairs.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, &pair(enc, &x, traces, lang)).map_err(internal)?;
        if out.len() > limit {
            return Err(too_large(out.len()));
        }
    }
    out.extend_from_slice(br#"]},"trace":"#);
    serde_json::to_writer(&mut out, &render::trace(&a.trace, lang, enc.ruleset)).map_err(internal)?;
    out.push(b'}');
    if out.len() > limit {
        return Err(too_large(out.len()));
    }
    Ok(out)
}

fn pair(enc: &Encounter, x: &Pair, traces: bool, lang: Lang) -> PairOut {
    let (c, v) = (&x.cover, &x.concealment);
    PairOut {
        attacker: creature_id(enc, x.attacker),
        target: creature_id(enc, x.target),
        distance_ft: x.distance_ft,
        distance_squares: x.distance_squares,
        in_reach: x.in_reach,
        attack: if x.melee { "melee" } else { "ranged" },
        cover: PairCoverOut {
            degree: c.degree.id(),
            soft: c.soft,
            ac_bonus: c.ac_bonus,
            save_bonus: c.save_bonus,
            attack_modifier: c.attack_modifier,
            can_be_targeted: c.can_be_targeted,
            denies_opportunity_attacks: c.denies_opportunity_attacks,
        },
        concealment: PairConcealmentOut {
            degree: v.degree.id(),
            miss_chance: v.miss_chance,
            line_of_effect: v.line_of_effect,
            line_of_sight: v.line_of_sight,
            attacker_sees_target: v.attacker_sees_target,
            target_sees_attacker: v.target_sees_attacker,
        },
        flanking: x.flanking.as_ref().map(|f| PairFlankingOut {
            flanked: f.flanked,
            flankers: f.flankers.iter().map(|k| creature_id(enc, k.creature)).collect(),
            attack_bonus: f.attack_bonus,
            advantage: f.advantage,
        }),
        trace: traces.then(|| {
            let mut steps = render::trace(&c.trace, lang, enc.ruleset);
            steps.extend(render::trace(&v.trace, lang, enc.ruleset));
            if let Some(f) = &x.flanking {
                steps.extend(render::trace(&f.trace, lang, enc.ruleset));
            }
            steps
        }),
    }
}

/// The bounds of the request, checked before any other work.
impl Contract for AnalyzeRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.encounter(&self.encounter);
        if let Some(ids) = &self.attackers {
            let max = c.limits.max_creatures as usize;
            c.ids("attackers", ids, max);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use arbiter_rules::analyze::analyze as resolve;
    use arbiter_rules::scene::Scene;

    fn analysis(traces: bool) -> (Encounter, Analysis) {
        let req: AnalyzeRequest = serde_json::from_value(serde_json::json!({
            "encounter": {"ruleset": "pf1e", "grid": {"width": 8, "height": 6, "map": [
                "........", "...#....", "...#....", "........", "........", "........"]},
            "creatures": [
                {"id": "a", "side": "x", "at": {"x": 1, "y": 1}},
                {"id": "b", "side": "y", "at": {"x": 5, "y": 1}},
                {"id": "c", "side": "y", "at": {"x": 2, "y": 2}}]},
            "traces": traces
        }))
        .unwrap();
        let enc = crate::api::mapping::encounter(&req.encounter, &Limits::default(), "/encounter").unwrap();
        let q = AnalyzeQuestion { attackers: None, attack: AttackChoice::Auto, traces };
        let mut budget = arbiter_rules::budget::Budget::unlimited();
        let a = resolve(&Scene::new(&enc, &mut budget).unwrap(), &q, &mut budget).unwrap();
        (enc, a)
    }

    #[test]
    fn the_streamed_answer_is_the_typed_answer() {
        for traces in [false, true] {
            let (enc, a) = analysis(traces);
            let typed = AnalyzeResponse {
                result: AnalyzeResult {
                    pairs: a.pairs.iter().map(|x| pair(&enc, x, traces, Lang::Fr)).collect(),
                },
                trace: render::trace(&a.trace, Lang::Fr, enc.ruleset),
            };
            let streamed = write_answer(&enc, a, traces, Lang::Fr, usize::MAX).unwrap();
            assert_eq!(String::from_utf8(streamed).unwrap(), serde_json::to_string(&typed).unwrap());
        }
    }

    #[test]
    fn writing_stops_past_the_limit() {
        let (enc, a) = analysis(true);
        let Err(AppError::AnswerTooLarge { size: AnswerSize::AtLeast(n), limit: 100, .. }) =
            write_answer(&enc, a, true, Lang::En, 100)
        else {
            panic!("expected answer-too-large")
        };
        assert!(n > 100);
    }
}
