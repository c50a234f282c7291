//! `POST /v1/movement`.

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
use arbiter_contract::api::movement::{MovementRequest, MovementResponse};
use arbiter_contract::drawing::DrawQuery;
use arbiter_contract::error::Problem;
use arbiter_draw as svg;
use arbiter_rules::movement::movement as resolve;
use arbiter_rules::scene::Scene;

/// Checks a movement along a path: the legality and cost of each step (solid squares, thin
/// walls, corners, other creatures by the ruleset's rules; difficult terrain, diagonals,
/// crawling, dragging), the total against the speed, the attacks of opportunity it provokes
/// (by whom, at which step, or why not), the consequence of ending in an occupied space, and
/// for a charge (PF1, hb3d) the charge's validity.
///
/// D&D 5e: 5 ft a square (difficult +5, crawling +5), Dash doubles the speed, standing up and
/// mounting cost half the speed; leaving the reach of a creature that sees the mover provokes
/// (2024: allies are offered the reaction, never automated). PF1, Starfinder, hb3d: alternating
/// diagonals over the whole move, difficult terrain doubles (a diagonal costs a flat 15 ft), a
/// low obstacle adds 10 ft, a double move reaches twice the speed; leaving a threatened square
/// provokes, once per enemy, except on a five-foot / guarded step (`short_step`), from a
/// flat-footed enemy or through cover. Teleport and forced movement provoke nothing.
///
/// Send `Accept: image/svg+xml` for a drawing: the path (green legal steps, red dashed illegal
/// ones, grey dotted after an illegal step) with each step's cost, the reach of the creatures
/// the move passes, and for each attack of opportunity a ring, an arrow from the attacker and
/// its name (`?scale=` sets the pixels per square).
#[utoipa::path(
    post,
    path = "/v1/movement",
    tag = "questions",
    request_body = MovementRequest,
    params(LanguageHeader, DrawQuery),
    responses(
        (status = 200, description = "The movement answer (JSON, or an SVG drawing with `Accept: image/svg+xml`)", content(
            (MovementResponse = "application/json"),
            (arbiter_contract::wire::SvgDrawing = "image/svg+xml")
        )),
        (status = 422, description = "The encounter, the path or the options are invalid, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
    )
)]
pub async fn movement(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    Draw(draw): Draw,
    AppJson(req): AppJson<MovementRequest>,
) -> Result<Response, HttpError> {
    let q = req.question(&state.config.limits)?;
    if accept.svg {
        let extra = svg::movement_extra(&q.encounter, q.mover, q.path.len());
        svg::fits(&q.encounter, extra, state.config.max_answer_bytes)?;
    }
    let mut budget = work.budget();
    let scene = Scene::new(&q.encounter, &mut budget)?;
    let answer = resolve(&scene, q.mover, &q.path, q.mode, &q.options, &mut budget)?;
    if accept.svg {
        return Ok(super::svg(svg::movement(
            svg::Ctx { scene: &scene, budget: &mut budget, draw, lang: accept.lang },
            q.mover,
            &answer,
        )?));
    }
    Ok(super::json(&MovementResponse::new(&q.encounter, &answer, accept.lang)))
}
