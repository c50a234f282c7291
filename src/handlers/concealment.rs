//! `POST /v1/concealment`.

use axum::extract::State;
use axum::response::Response;

use super::QuestionProblems;
use crate::AppState;
use crate::api::concealment::{ConcealmentRequest, ConcealmentResponse};
use crate::error::{AppError, Problem};
use crate::extract::negotiate::LanguageHeader;
use crate::extract::{AppJson, Negotiated};
use crate::pool::Work;
use arbiter_rules::scene::Scene;
use arbiter_rules::vision::concealment as resolve;

/// Concealment of a target from an attacker: miss chance, causes, and the senses that
/// overrode them.
///
/// PF1, SF and hb3d: concealing squares on the corner lines, heavy obscurement, dim light and
/// darkness where the target stands (light sources blocked by walls; low-light vision and
/// darkvision), invisibility, a blinded observer, line of effect without line of sight; the
/// highest applies (20 % or 50 %). D&D 5e has no miss chance: the answer says who sees whom
/// and the resulting advantage or disadvantage (`dnd5e.unseen`).
#[utoipa::path(
    post,
    path = "/v1/concealment",
    tag = "questions",
    request_body = ConcealmentRequest,
    params(LanguageHeader),
    responses(
        (status = 200, description = "The concealment answer", body = ConcealmentResponse),
        (status = 422, description = "The encounter or the question is invalid, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
    )
)]
pub async fn concealment(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    AppJson(req): AppJson<ConcealmentRequest>,
) -> Result<Response, AppError> {
    let q = req.question(&state.config.limits)?;
    let mut budget = work.budget();
    let scene = Scene::new(&q.encounter, &mut budget)?;
    let answer = resolve(&scene, q.attacker, q.target, q.attack, &mut budget)?;
    Ok(super::json(&ConcealmentResponse::new(&q.encounter, &answer, accept.lang)))
}
