//! `POST /v1/initiative`.

use axum::extract::State;
use axum::response::Response;

use super::QuestionProblems;
use crate::error::HttpError;
use crate::extract::AppJson;
use crate::negotiate::LanguageHeader;
use crate::negotiate::Negotiated;
use crate::questions::Work;
use crate::state::AppState;
use arbiter_contract::api::dice::check_all_used;
use arbiter_contract::api::initiative::{InitiativeRequest, InitiativeResponse};
use arbiter_contract::error::Problem;
use arbiter_rules::initiative::initiative as resolve;

/// Rolls initiative and orders the creatures: each roll (5e 2024: advantage or disadvantage
/// from surprise, Invisible, Incapacitated), the total, ties (5e: higher Dex modifier, PF1
/// family: higher modifier, then a roll-off), surprise (5e 2014: the first turn is lost; PF1
/// family: a surprise round for the aware, flat-footed until the first turn), and the exact
/// chance of each creature acting first.
///
/// `dice` rolls with a seed (echoed back), takes the VTT's faces (`initiative`, keyed by
/// creature id: the roll, then any roll-off), or only computes the odds (the order is then
/// the input order, unrolled).
#[utoipa::path(
    post,
    path = "/v1/initiative",
    tag = "questions",
    request_body = InitiativeRequest,
    params(LanguageHeader),
    responses(
        (status = 200, description = "The initiative order", body = InitiativeResponse),
        (status = 422, description = "The encounter, an id, a group or the given dice are invalid, a bonus is missing, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
        super::JsonOnly,
    )
)]
pub async fn initiative(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    AppJson(req): AppJson<InitiativeRequest>,
) -> Result<Response, HttpError> {
    let (encounter, q) = req.question(&state.config.limits)?;
    let (mut source, echo) = req.dice.source();
    let mut budget = work.budget();
    let a = resolve(&encounter, &q, &mut source, &mut budget)?;
    check_all_used(&source, "roll")?;
    Ok(super::json(&InitiativeResponse::new(&encounter, &a, echo, accept.lang)))
}
