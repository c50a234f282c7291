//! `POST /v1/analyze`.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::api::analyze::{
    AnalyzeAttackIn, AnalyzeRequest, AnalyzeResponse, PairConcealmentOut, PairCoverOut, PairFlankingOut,
    PairOut,
};
use crate::error::{AnswerSize, AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use arbiter_rules::analyze::{Analysis, AnalyzeQuestion, AttackChoice, Pair, analyze as resolve};
use arbiter_rules::encounter::Encounter;
use arbiter_rules::scene::Scene;

/// The whole scene at once, for a VTT to call on every scene update: for every ordered
/// attacker → target pair of opposing sides (a different `side`), the distance, whether the
/// target is in reach, cover, concealment, and flanking for pairs in reach — each exactly as
/// `/v1/cover`, `/v1/concealment` and `/v1/flanking` answer it, on one prepared scene.
///
/// The attack judged is melee within reach and ranged beyond (`attack` fixes it). The trace
/// counts the pairs each rule was applied to; `traces: true` also returns every pair's trace.
#[utoipa::path(
    post,
    path = "/v1/analyze",
    tag = "questions",
    request_body = AnalyzeRequest,
    params(("Accept-Language" = Option<String>, Header, description = "`en` (default) or `fr` for trace texts")),
    responses(
        (status = 200, description = "Every pair", body = AnalyzeResponse),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body read timeout", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter or an attacker id is invalid, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every rules worker is busy and the queue is full, the request timed out, or the replica is shutting down; retry (`Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn analyze(
    State(state): State<AppState>,
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<AnalyzeRequest>,
) -> Result<Response, AppError> {
    let (mut p, enc) = super::encounter(&state, &req.encounter);
    let attackers = req.attackers.as_ref().map(|ids| {
        ids.iter()
            .enumerate()
            .filter_map(|(i, id)| super::creature_index(enc.as_ref(), &mut p, &format!("/attackers/{i}"), id))
            .collect::<Vec<usize>>()
    });
    let (Some(enc), true) = (enc, p.is_empty()) else {
        return Err(AppError::Invalid(p.0));
    };
    let q = AnalyzeQuestion {
        attackers,
        attack: match req.attack {
            AnalyzeAttackIn::Auto => AttackChoice::Auto,
            AnalyzeAttackIn::Melee => AttackChoice::Melee,
            AnalyzeAttackIn::Ranged => AttackChoice::Ranged,
        },
        traces: req.traces,
    };
    let mut budget = work.budget();
    let scene = Scene::new(&enc, &mut budget)?;
    let a = resolve(&scene, &q, &mut budget)?;
    let lang = Lang::from_headers(&headers);
    let body = write_answer(&enc, a, req.traces, lang, state.config.max_answer_bytes)?;
    Ok(([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], body).into_response())
}

/// Serialises the answer pair by pair, stopping as soon as it passes `limit`: a scene with
/// every pair's trace is the largest answer the service makes, so it is never built whole
/// beside its bytes. The output is exactly `AnalyzeResponse`'s serialisation (`result.pairs`,
/// then `trace`); the tests read it back as that type.
fn write_answer(
    enc: &Encounter,
    a: Analysis,
    traces: bool,
    lang: Lang,
    limit: usize,
) -> Result<Vec<u8>, AppError> {
    let too_large = |size: usize| AppError::AnswerTooLarge {
        size: AnswerSize::AtLeast(size as u64),
        limit,
        hint: crate::pool::ANALYZE_HINT,
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
    serde_json::to_writer(&mut out, &render::trace(&a.trace, lang)).map_err(internal)?;
    out.push(b'}');
    if out.len() > limit {
        return Err(too_large(out.len()));
    }
    Ok(out)
}

fn id(enc: &Encounter, i: usize) -> String {
    enc.creatures.get(i).map(|c| c.id.clone()).unwrap_or_default()
}

fn pair(enc: &Encounter, x: &Pair, traces: bool, lang: Lang) -> PairOut {
    let (c, v) = (&x.cover, &x.concealment);
    PairOut {
        attacker: id(enc, x.attacker),
        target: id(enc, x.target),
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
            flankers: f.flankers.iter().map(|k| id(enc, k.creature)).collect(),
            attack_bonus: f.attack_bonus,
            advantage: f.advantage,
        }),
        trace: traces.then(|| {
            let mut steps = render::trace(&c.trace, lang);
            steps.extend(render::trace(&v.trace, lang));
            if let Some(f) = &x.flanking {
                steps.extend(render::trace(&f.trace, lang));
            }
            steps
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::analyze::AnalyzeResult;
    use crate::config::Limits;

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
                trace: render::trace(&a.trace, Lang::Fr),
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
