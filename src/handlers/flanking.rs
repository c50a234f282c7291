//! `POST /v1/flanking`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;

use crate::AppState;
use crate::api::cover::SquareOut;
use crate::api::flanking::{FlankerOut, FlankingRequest, FlankingResponse, FlankingResult, ThreatenedOut};
use crate::error::{AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use arbiter_rules::encounter::Encounter;
use arbiter_rules::flanking::{FlankAnswer, flanking as resolve};
use arbiter_rules::grid::Square;
use arbiter_rules::scene::Scene;

/// Whether the attacker flanks the target, with whom, and what each enemy threatens.
///
/// Pathfinder 1e, Starfinder and hb3d: the attacker and a helper (any creature of a side
/// other than the target's) must both threaten the target, and the line between the centres
/// of one of their squares must meet two opposite edges (west and east, or north and south)
/// of the target's space: +2 to melee attacks, never more. D&D 5e: only with the variant
/// `dnd5e.flanking.optional`; the attacker and an ally must be adjacent to the target, see it
/// and not be incapacitated: advantage on melee attacks. The answer also lists, for each enemy
/// of the target, the squares it threatens (for drawing).
#[utoipa::path(
    post,
    path = "/v1/flanking",
    tag = "questions",
    request_body = FlankingRequest,
    params(("Accept-Language" = Option<String>, Header, description = "`en` (default) or `fr` for trace texts")),
    responses(
        (status = 200, description = "The flanking answer", body = FlankingResponse),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter or the question is invalid, or the work budget ran out", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Overloaded; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn flanking(
    State(state): State<AppState>,
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<FlankingRequest>,
) -> Result<Json<FlankingResponse>, AppError> {
    let (p, enc) = super::encounter(&state, &req.encounter);
    let (enc, attacker, target) = super::pair(enc, p, &req.attacker, &req.target)?;
    let mut budget = work.budget();
    let scene = Scene::new(&enc, &mut budget)?;
    let answer = resolve(&scene, attacker, target, &mut budget)?;
    let lang = Lang::from_headers(&headers);
    Ok(Json(FlankingResponse { result: result(&enc, &answer), trace: render::trace(&answer.trace, lang) }))
}

fn square(s: Square) -> SquareOut {
    SquareOut { x: s.x, y: s.y }
}

fn id(enc: &Encounter, i: usize) -> String {
    enc.creatures.get(i).map(|c| c.id.clone()).unwrap_or_default()
}

fn result(enc: &Encounter, a: &FlankAnswer) -> FlankingResult {
    FlankingResult {
        flanked: a.flanked,
        in_force: a.in_force,
        flankers: a
            .flankers
            .iter()
            .map(|f| FlankerOut {
                creature: id(enc, f.creature),
                attacker_square: square(f.attacker_square),
                helper_square: square(f.helper_square),
                edges: f.edges.id(),
            })
            .collect(),
        attack_bonus: a.attack_bonus,
        advantage: a.advantage,
        rule: a.rule,
        threatened: a
            .threatened
            .iter()
            .map(|t| ThreatenedOut {
                creature: id(enc, t.creature),
                threatens_target: t.threatens_target,
                squares: t.squares.iter().copied().map(square).collect(),
            })
            .collect(),
    }
}
