//! `POST /v1/analyze`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;

use crate::AppState;
use crate::api::analyze::{
    AnalyzeAttackIn, AnalyzeRequest, AnalyzeResponse, AnalyzeResult, PairConcealmentOut, PairCoverOut,
    PairFlankingOut, PairOut,
};
use crate::error::{AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use arbiter_rules::analyze::{AnalyzeQuestion, AttackChoice, Pair, analyze as resolve};
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
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter or an attacker id is invalid, or the work budget ran out", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Overloaded; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn analyze(
    State(state): State<AppState>,
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<AnalyzeRequest>,
) -> Result<Json<AnalyzeResponse>, AppError> {
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
    let pairs = a.pairs.iter().map(|x| pair(&enc, x, req.traces, lang)).collect();
    Ok(Json(AnalyzeResponse { result: AnalyzeResult { pairs }, trace: render::trace(&a.trace, lang) }))
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
