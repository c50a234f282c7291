//! `POST /v1/concealment`.

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
use arbiter_contract::api::concealment::{ConcealmentRequest, ConcealmentResponse};
use arbiter_contract::drawing::DrawQuery;
use arbiter_contract::error::Problem;
use arbiter_draw as svg;
use arbiter_rules::scene::Scene;
use arbiter_rules::vision::concealment as resolve;

/// Concealment of a target from an attacker: miss chance, causes, and the senses that
/// overrode them.
///
/// PF1, SF and hb3d: concealing squares on the corner lines, heavy obscurement, dim light and
/// darkness where the target stands (light sources blocked by walls; low-light vision and
/// darkvision), invisibility, a blinded observer, line of effect without line of sight; the
/// highest applies (20 % or 50 %). D&D 5e has no miss chance: the answer says who sees whom
/// and the resulting advantage or disadvantage (`dnd5e.unseen`). Send `Accept: image/svg+xml`
/// for a drawing: bright, dim and dark squares, light sources, the corner's lines, a badge.
#[utoipa::path(
    post,
    path = "/v1/concealment",
    tag = "questions",
    request_body = ConcealmentRequest,
    params(LanguageHeader, DrawQuery),
    responses(
        (status = 200, description = "The concealment answer, or its drawing", content(
            (ConcealmentResponse = "application/json"),
            (arbiter_contract::wire::SvgDrawing = "image/svg+xml")
        )),
        (status = 422, description = "The encounter or the question is invalid, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
    )
)]
pub async fn concealment(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    Draw(draw): Draw,
    AppJson(req): AppJson<ConcealmentRequest>,
) -> Result<Response, HttpError> {
    let q = req.question(&state.config.limits)?;
    if accept.svg {
        let extra = svg::concealment_extra(&q.encounter, q.target);
        svg::fits(&q.encounter, extra, state.config.max_answer_bytes)?;
    }
    let mut budget = work.budget();
    let scene = Scene::new(&q.encounter, &mut budget)?;
    let answer = resolve(&scene, q.attacker, q.target, q.attack, &mut budget)?;
    if accept.svg {
        let ctx = svg::Ctx { scene: &scene, budget: &mut budget, draw, lang: accept.lang };
        return Ok(super::svg(svg::concealment(ctx, q.attacker, q.target, &answer)?));
    }
    Ok(super::json(&ConcealmentResponse::new(&q.encounter, &answer, accept.lang)))
}
