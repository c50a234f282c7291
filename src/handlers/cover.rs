//! `POST /v1/cover`.

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
use arbiter_contract::api::cover::{CoverRequest, CoverResponse};
use arbiter_contract::drawing::DrawQuery;
use arbiter_contract::error::Problem;
use arbiter_draw as svg;
use arbiter_rules::cover::cover as resolve;
use arbiter_rules::scene::Scene;

/// Cover between an attacker and a target, with every line traced.
///
/// Follows each ruleset's procedure: D&D 5e counts the blocked corner-to-corner lines (half,
/// three-quarters, total; creatures and low obstacles alone give at most half), Pathfinder 1e,
/// Starfinder and hb3d need one blocked line from the attacker's best corner (cover, partial,
/// improved, soft cover from creatures against ranged attacks, low obstacles within 30 ft, the
/// adjacent-melee wall test). Send `Accept: image/svg+xml` for a drawing: the target's squares,
/// every blocker by its kind, the chosen corner's lines (green clear, red dashed blocked) with a
/// cross at each hit point, every line tried under total cover, and a badge with the degree
/// (`?scale=` sets the pixels per square).
#[utoipa::path(
    post,
    path = "/v1/cover",
    tag = "questions",
    request_body = CoverRequest,
    params(LanguageHeader, DrawQuery),
    responses(
        (status = 200, description = "The cover answer, or its drawing", content(
            (CoverResponse = "application/json"),
            (arbiter_contract::wire::SvgDrawing = "image/svg+xml")
        )),
        (status = 422, description = "The encounter or the question is invalid, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
    )
)]
pub async fn cover(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    Draw(draw): Draw,
    AppJson(req): AppJson<CoverRequest>,
) -> Result<Response, HttpError> {
    let q = req.question(&state.config.limits)?;
    let drawn = svg::CoverQuestion { attacker: q.attacker, target: q.target, attack: q.attack };
    if accept.svg {
        svg::fits(&q.encounter, svg::cover_extra(&q.encounter, &drawn), state.config.max_answer_bytes)?;
    }
    let mut budget = work.budget();
    let scene = Scene::new(&q.encounter, &mut budget)?;
    let answer = resolve(&scene, q.attacker, q.target, q.attack, q.weapon.as_ref(), &mut budget)?;
    if accept.svg {
        return Ok(super::svg(svg::cover(
            svg::Ctx { scene: &scene, budget: &mut budget, draw, lang: accept.lang },
            &drawn,
            &answer,
        )?));
    }
    Ok(super::json(&CoverResponse::new(&q.encounter, &answer, accept.lang)))
}
