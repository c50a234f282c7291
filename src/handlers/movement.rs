//! `POST /v1/movement`.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::api::maneuver::SquareOut;
use crate::api::movement::{
    EndsOccupiedOut, MoveModeIn, MovementRequest, MovementResponse, MovementResult, StepOut,
};
use crate::error::{AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use crate::svg;
use arbiter_rules::grid::Square;
use arbiter_rules::movement::{Mode, MoveOptions, Movement, StepIssue, movement as resolve};
use arbiter_rules::scene::Scene;

fn sq(s: Square) -> SquareOut {
    SquareOut { x: s.x, y: s.y }
}

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
/// Send `Accept: image/svg+xml` for a drawing of the grid with the path (green legal steps,
/// red illegal ones) and the squares where attacks of opportunity are provoked.
#[utoipa::path(
    post,
    path = "/v1/movement",
    tag = "questions",
    request_body = MovementRequest,
    params(
        ("Accept-Language" = Option<String>, Header, description = "`en` (default) or `fr` for trace texts"),
        ("Accept" = Option<String>, Header, description = "`application/json` (default) or `image/svg+xml` for a drawing")
    ),
    responses(
        (status = 200, description = "The movement answer (JSON, or an SVG drawing with `Accept: image/svg+xml`)", content(
            (MovementResponse = "application/json"),
            (String = "image/svg+xml")
        )),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter, the path or the options are invalid, or the work budget ran out", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Overloaded; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn movement(
    State(state): State<AppState>,
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<MovementRequest>,
) -> Result<Response, AppError> {
    let (mut p, enc) = super::encounter(&state, &req.encounter);
    let limit = state.config.limits.max_path_steps as usize;
    if req.path.len() > limit {
        p.push("/path", format!("at most {limit} steps (ARBITER_MAX_PATH_STEPS)"));
    }
    let mut path = Vec::with_capacity(req.path.len().min(limit));
    for (i, s) in req.path.iter().enumerate().take(limit) {
        match (i32::try_from(s.x), i32::try_from(s.y)) {
            (Ok(x), Ok(y)) => path.push(Square::new(x, y)),
            _ => p.push(format!("/path/{i}"), "square out of range".to_owned()),
        }
    }
    let mover = super::creature_index(enc.as_ref(), &mut p, "/creature", &req.creature);
    let target =
        req.target.as_deref().and_then(|t| super::creature_index(enc.as_ref(), &mut p, "/target", t));
    let mount = req.mount.as_deref().and_then(|t| super::creature_index(enc.as_ref(), &mut p, "/mount", t));
    let dragging = req
        .options
        .dragging
        .as_deref()
        .and_then(|t| super::creature_index(enc.as_ref(), &mut p, "/options/dragging", t));
    let (Some(enc), Some(mover), true) = (enc, mover, p.is_empty()) else {
        return Err(AppError::Invalid(p.0));
    };
    let mode = match req.mode {
        MoveModeIn::Walk => Mode::Walk,
        MoveModeIn::Disengage => Mode::Disengage,
        MoveModeIn::Teleport => Mode::Teleport,
        MoveModeIn::Forced => Mode::Forced,
        MoveModeIn::Charge => Mode::Charge,
        MoveModeIn::Mount => Mode::Mount,
        MoveModeIn::Dismount => Mode::Dismount,
    };
    let o = &req.options;
    let options =
        MoveOptions { stand_up: o.stand_up, dash: o.dash, short_step: o.short_step, dragging, target, mount };
    let svg = super::cover::wants_svg(&headers);
    if svg {
        svg::fits(&enc, state.config.max_answer_bytes)?;
    }
    let mut budget = work.budget();
    let scene = Scene::new(&enc, &mut budget)?;
    let answer = resolve(&scene, mover, &path, mode, &options, &mut budget)?;
    if svg {
        let mut res = svg::movement(&enc, mover, &answer).into_response();
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
        return Ok(res);
    }
    let lang = Lang::from_headers(&headers);
    Ok(Json(MovementResponse { result: result(&answer), trace: render::trace(&answer.trace, lang) })
        .into_response())
}

fn result(m: &Movement) -> MovementResult {
    MovementResult {
        mode: m.mode.id(),
        legal: m.legal,
        reason: m.reason,
        start: sq(m.start),
        end: sq(m.end),
        last_legal: sq(m.last_legal),
        steps: m
            .steps
            .iter()
            .map(|s| StepOut {
                index: s.index,
                from: sq(s.from),
                to: sq(s.to),
                cost_ft: s.cost_ft,
                total_ft: s.total_ft,
                diagonal: s.diagonal,
                difficult: s.difficult,
                hampered: s.hampered,
                through: s.through.clone(),
                legal: s.legal,
                reason: s.issue.as_ref().map(StepIssue::id),
                blocked_square: s.issue.as_ref().and_then(StepIssue::square).map(sq),
                blocked_by: match &s.issue {
                    Some(StepIssue::Creature { creature, .. }) => Some(creature.clone()),
                    _ => None,
                },
                blocked_because: match &s.issue {
                    Some(StepIssue::Creature { why, .. }) => Some(*why),
                    _ => None,
                },
            })
            .collect(),
        speed_ft: m.speed_ft,
        budget_ft: m.budget_ft,
        total_ft: m.total_ft,
        extra_ft: m.extra_ft,
        remaining_ft: m.remaining_ft,
        move_actions: m.move_actions,
        opportunity_attacks: m.opportunities.iter().map(super::maneuver::move_opportunity_out).collect(),
        ends_in_occupied: m.ends_in_occupied.as_ref().map(|e| EndsOccupiedOut {
            creature: e.creature.clone(),
            consequence: e.consequence,
            rule: e.rule,
        }),
        charge: m.charge.as_ref().map(super::maneuver::charge_out),
    }
}
