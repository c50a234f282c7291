//! `POST /v1/analyze`.

use axum::extract::State;
use axum::response::Response;

use super::QuestionProblems;
use crate::error::HttpError;
use crate::extract::AppJson;
use crate::negotiate::Draw;
use crate::negotiate::LanguageHeader;
use crate::negotiate::Negotiated;
use crate::questions::Work;
use crate::state::AppState;
use arbiter_contract::api::analyze::{AnalyzeRequest, AnalyzeResponse, write_answer};
use arbiter_contract::drawing::DrawQuery;
use arbiter_contract::error::Problem;
use arbiter_draw as svg;
use arbiter_rules::analyze::analyze as resolve;
use arbiter_rules::scene::Scene;

/// The whole scene at once, for a VTT to call on every scene update: for every ordered
/// attacker → target pair of opposing sides (a different `side`), the distance, whether the
/// target is in reach, cover, concealment, and flanking for pairs in reach — each exactly as
/// `/v1/cover`, `/v1/concealment` and `/v1/flanking` answer it, on one prepared scene.
///
/// The attack judged is melee within reach and ranged beyond (`attack` fixes it). The trace
/// counts the pairs each rule was applied to; `traces: true` also returns every pair's trace.
/// Send `Accept: image/svg+xml` for a drawing of the scene with a matrix of every pair's cover.
#[utoipa::path(
    post,
    path = "/v1/analyze",
    tag = "questions",
    request_body = AnalyzeRequest,
    params(LanguageHeader, DrawQuery),
    responses(
        (status = 200, description = "Every pair, or the drawing of the scene with every pair's cover", content(
            (AnalyzeResponse = "application/json"),
            (arbiter_contract::wire::SvgDrawing = "image/svg+xml")
        )),
        (status = 422, description = "The encounter or an attacker id is invalid, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
    )
)]
pub async fn analyze(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    Draw(draw): Draw,
    AppJson(req): AppJson<AnalyzeRequest>,
) -> Result<Response, HttpError> {
    let (encounter, q) = req.question(&state.config.limits)?;
    if accept.svg {
        svg::fits(&encounter, svg::analyze_extra(&encounter), state.config.max_answer_bytes)?;
    }
    let mut budget = work.budget();
    let scene = Scene::new(&encounter, &mut budget)?;
    let a = resolve(&scene, &q, &mut budget)?;
    if accept.svg {
        return Ok(super::svg(svg::analyze(
            svg::Ctx { scene: &scene, budget: &mut budget, draw, lang: accept.lang },
            &a,
        )?));
    }
    let body = write_answer(&encounter, a, q.traces, accept.lang, state.config.max_answer_bytes)?;
    Ok(super::json_bytes(body))
}
