//! `POST /v1/range`.

use axum::extract::State;
use axum::response::Response;

use super::QuestionProblems;
use crate::error::HttpError;
use crate::extract::AppJson;
use crate::negotiate::LanguageHeader;
use crate::negotiate::Negotiated;
use crate::questions::Work;
use crate::state::AppState;
use arbiter_contract::api::range::{RangeRequest, RangeResponse};
use arbiter_contract::error::Problem;
use arbiter_rules::range::range as resolve;
use arbiter_rules::scene::Scene;

/// Distance, range band and range modifiers between two creatures.
///
/// Measures the distance between the two spaces (feet, squares, metres) with the ruleset's
/// diagonal rule, places the target in a band (`reach`, `normal`, `long`, `increment`,
/// `out_of_range`) and adds the modifiers that depend on position: the range increment
/// penalty, 5e disadvantage at long range or next to a hostile creature, and PF1's −4 for
/// shooting into melee.
#[utoipa::path(
    post,
    path = "/v1/range",
    tag = "questions",
    request_body = RangeRequest,
    params(LanguageHeader),
    responses(
        (status = 200, description = "The range answer", body = RangeResponse),
        (status = 422, description = "The encounter or the question is invalid, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
        super::JsonOnly,
    )
)]
pub async fn range(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    AppJson(req): AppJson<RangeRequest>,
) -> Result<Response, HttpError> {
    let q = req.question(&state.config.limits)?;
    let mut budget = work.budget();
    let scene = Scene::new(&q.encounter, &mut budget)?;
    let answer = resolve(&scene, q.attacker, q.target, &q.weapon, &mut budget)?;
    Ok(super::json(&RangeResponse::new(&q, &answer, accept.lang)))
}
