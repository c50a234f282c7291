//! `POST /v1/concealment`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;

use crate::AppState;
use crate::api::concealment::{
    CauseOut, ConcealAttackIn, ConcealLineOut, ConcealmentRequest, ConcealmentResponse, ConcealmentResult,
    OverrideOut,
};
use crate::api::cover::{PointOut, SquareOut};
use crate::error::{AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use arbiter_rules::scene::Scene;
use arbiter_rules::vision::{Attack, concealment as resolve};

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
    params(("Accept-Language" = Option<String>, Header, description = "`en` (default) or `fr` for trace texts")),
    responses(
        (status = 200, description = "The concealment answer", body = ConcealmentResponse),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter or the question is invalid, or the work budget ran out", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Overloaded; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn concealment(
    State(state): State<AppState>,
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<ConcealmentRequest>,
) -> Result<Json<ConcealmentResponse>, AppError> {
    let (p, enc) = super::encounter(&state, &req.encounter);
    let (enc, attacker, target) = super::pair(enc, p, &req.attacker, &req.target)?;
    let attack = match req.attack {
        ConcealAttackIn::Melee => Attack::Melee,
        ConcealAttackIn::Ranged => Attack::Ranged,
    };
    let mut budget = work.budget();
    let scene = Scene::new(&enc, &mut budget)?;
    let a = resolve(&scene, attacker, target, attack, &mut budget)?;
    let point = |p: arbiter_rules::grid::Point| PointOut { x: p.x.to_f64(), y: p.y.to_f64() };
    let result = ConcealmentResult {
        degree: a.degree.id(),
        miss_chance: a.miss_chance,
        causes: a.causes.iter().map(|(c, d)| CauseOut { cause: c.id(), degree: d.id() }).collect(),
        overridden_by: a
            .overridden
            .iter()
            .map(|(s, c)| OverrideOut { sense: s.id(), cause: c.id() })
            .collect(),
        line_of_effect: a.line_of_effect,
        line_of_sight: a.line_of_sight,
        attacker_sees_target: a.attacker_sees_target,
        target_sees_attacker: a.target_sees_attacker,
        target_light: a.target_light.id(),
        attacker_light: a.attacker_light.id(),
        roll_mode: a.roll_mode.id(),
        corner: a.corner.map(point),
        target_square: a.target_square.map(|s| SquareOut { x: s.x, y: s.y }),
        lines: a
            .lines
            .iter()
            .map(|l| ConcealLineOut { from: point(l.from), to: point(l.to), concealed: l.concealed })
            .collect(),
    };
    Ok(Json(ConcealmentResponse { result, trace: render::trace(&a.trace, Lang::from_headers(&headers)) }))
}
