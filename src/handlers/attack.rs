//! `POST /v1/attack`.

use axum::extract::State;
use axum::response::Response;

use super::QuestionProblems;
use crate::error::HttpError;
use crate::extract::AppJson;
use crate::negotiate::LanguageHeader;
use crate::negotiate::Negotiated;
use crate::questions::Work;
use crate::state::AppState;
use arbiter_contract::api::attack::{AttackRequest, AttackResponse};
use arbiter_contract::api::dice::check_all_used;
use arbiter_contract::error::Problem;
use arbiter_rules::attack::attack as resolve;
use arbiter_rules::scene::Scene;

/// Resolves one attack: every modifier from the snapshot, advantage and disadvantage, the
/// roll, hit / miss / critical, the concealment miss roll, and the exact odds.
///
/// Gathers range (increments, long range, close combat, shooting into melee), cover,
/// concealment and sight, flanking, prone attacker and target, conditions, squeezing, charge,
/// underwater combat and off-hand attacks, each with its rule. `dice` rolls with a seed (echoed
/// back), takes the VTT's faces (`given`), or only computes the odds (`odds`). An attack that
/// cannot be made (total cover, out of range) answers 200 with `allowed: false`.
#[utoipa::path(
    post,
    path = "/v1/attack",
    tag = "questions",
    request_body = AttackRequest,
    params(LanguageHeader),
    responses(
        (status = 200, description = "The attack answer", body = AttackResponse),
        (status = 422, description = "The encounter, the question or the given dice are invalid, a stat is missing, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
        super::JsonOnly,
    )
)]
pub async fn attack(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    AppJson(req): AppJson<AttackRequest>,
) -> Result<Response, HttpError> {
    let q = req.question(&state.config.limits)?;
    let (mut source, echo) = req.dice.source();
    let mut budget = work.budget();
    let scene = Scene::new(&q.encounter, &mut budget)?;
    let (weapon, situational) = (&q.weapon, &q.situational);
    let a = resolve(&scene, q.attacker, q.target, weapon, situational, &mut source, &mut budget)?;
    // An attack that cannot be made rolls nothing; otherwise every given face must be used.
    if a.allowed {
        check_all_used(&source, "attack")?;
    }
    Ok(super::json(&AttackResponse::new(&q.encounter, &a, echo, accept.lang)))
}
