//! `POST /v1/flanking`.

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
use arbiter_contract::api::flanking::{FlankingRequest, FlankingResponse};
use arbiter_contract::drawing::DrawQuery;
use arbiter_contract::error::Problem;
use arbiter_draw as svg;
use arbiter_rules::flanking::flanking as resolve;
use arbiter_rules::scene::Scene;

/// Whether the attacker flanks the target, with whom, and what each enemy threatens.
///
/// Pathfinder 1e, Starfinder and hb3d: the attacker and a helper (any creature of a side
/// other than the target's) must both threaten the target, and the line between the centres
/// of one of their squares must meet two opposite edges (west and east, or north and south)
/// of the target's space: +2 to melee attacks, never more. D&D 5e: only with the variant
/// `dnd5e.flanking.optional`; the attacker and an ally must be adjacent to the target, see it
/// and not be incapacitated: advantage on melee attacks. The answer also lists, for each enemy
/// of the target, the squares it threatens (for drawing). Send `Accept: image/svg+xml` for a
/// drawing: each enemy's threatened squares outlined, the flanking lines, a badge on the target.
#[utoipa::path(
    post,
    path = "/v1/flanking",
    tag = "questions",
    request_body = FlankingRequest,
    params(LanguageHeader, DrawQuery),
    responses(
        (status = 200, description = "The flanking answer, or its drawing", content(
            (FlankingResponse = "application/json"),
            (arbiter_contract::wire::SvgDrawing = "image/svg+xml")
        )),
        (status = 422, description = "The encounter or the question is invalid, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
    )
)]
pub async fn flanking(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    Draw(draw): Draw,
    AppJson(req): AppJson<FlankingRequest>,
) -> Result<Response, HttpError> {
    let q = req.question(&state.config.limits)?;
    if accept.svg {
        svg::fits(&q.encounter, svg::flanking_extra(&q.encounter), state.config.max_answer_bytes)?;
    }
    let mut budget = work.budget();
    let scene = Scene::new(&q.encounter, &mut budget)?;
    let answer = resolve(&scene, q.attacker, q.target, &mut budget)?;
    if accept.svg {
        let drawing = svg::flanking(
            svg::Ctx { scene: &scene, budget: &mut budget, draw, lang: accept.lang },
            q.attacker,
            q.target,
            &answer,
        )?;
        return Ok(super::svg(drawing));
    }
    Ok(super::json(&FlankingResponse::new(&q.encounter, &answer, accept.lang)))
}
