//! `POST /v1/cover`.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::api::cover::{
    AttackIn, BlockerOut, CoverRequest, CoverResponse, CoverResult, HitOut, LineOut, PointOut, SquareOut,
};
use crate::api::mapping;
use crate::error::{AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use crate::svg;
use arbiter_rules::cover::{AttackKind, CoverAnswer, ElementKind, SaveKind, TracedLine, cover as resolve};
use arbiter_rules::encounter::Encounter;
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::scene::Scene;

/// Cover between an attacker and a target, with every line traced.
///
/// Follows each ruleset's procedure: D&D 5e counts the blocked corner-to-corner lines (half,
/// three-quarters, total; creatures and low obstacles alone give at most half), Pathfinder 1e,
/// Starfinder and hb3d need one blocked line from the attacker's best corner (cover, partial,
/// improved, soft cover from creatures against ranged attacks, low obstacles within 30 ft, the
/// adjacent-melee wall test). Send `Accept: image/svg+xml` for a drawing of the grid with the
/// chosen corner's lines (green clear, red blocked).
#[utoipa::path(
    post,
    path = "/v1/cover",
    tag = "questions",
    request_body = CoverRequest,
    params(
        ("Accept-Language" = Option<String>, Header, description = "`en` (default) or `fr` for trace texts"),
        ("Accept" = Option<String>, Header, description = "`application/json` (default) or `image/svg+xml` for a drawing")
    ),
    responses(
        (status = 200, description = "The cover answer, or its drawing", content(
            (CoverResponse = "application/json"),
            (String = "image/svg+xml")
        )),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the body read timeout", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter or the question is invalid, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every rules worker is busy and the queue is full, the request timed out, or the replica is shutting down; retry (`Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn cover(
    State(state): State<AppState>,
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<CoverRequest>,
) -> Result<Response, AppError> {
    let (mut p, enc) = super::encounter(&state, &req.encounter);
    let weapon = req.weapon.as_ref().map(|w| mapping::weapon(&mut p, "/weapon", w));
    let attack = match (req.attack, req.origin) {
        (AttackIn::Melee, _) => AttackKind::Melee,
        (AttackIn::Ranged, _) => AttackKind::Ranged,
        (AttackIn::Area, Some(o)) => {
            let (w, h) = (req.encounter.grid.width, req.encounter.grid.height);
            AttackKind::Area { origin: mapping::point(&mut p, "/origin", &o, w, h), spread: req.spread }
        }
        (AttackIn::Area, None) => {
            p.push("/origin", "an area effect needs its point of origin");
            AttackKind::Ranged
        }
    };
    let (enc, attacker, target) = super::pair(enc, p, &req.attacker, &req.target)?;
    let svg = wants_svg(&headers);
    if svg {
        svg::fits(&enc, state.config.max_answer_bytes)?;
    }
    let mut budget = work.budget();
    let scene = Scene::new(&enc, &mut budget)?;
    let answer = resolve(&scene, attacker, target, attack, weapon.as_ref(), &mut budget)?;
    if svg {
        let body = svg::cover(&enc, attacker, target, &answer);
        let mut res = body.into_response();
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("image/svg+xml"));
        return Ok(res);
    }
    let lang = Lang::from_headers(&headers);
    Ok(super::json(&CoverResponse {
        result: result(&enc, &answer),
        trace: render::trace(&answer.trace, lang),
    }))
}

/// Whether the client prefers an SVG drawing.
pub fn wants_svg(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|part| part.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("image/svg+xml")))
}

fn point(p: Point) -> PointOut {
    PointOut { x: p.x.to_f64(), y: p.y.to_f64() }
}

fn square(s: Square) -> SquareOut {
    SquareOut { x: s.x, y: s.y }
}

/// The wire form of traced lines (shared with the SVG).
pub fn lines(enc: &Encounter, lines: &[TracedLine]) -> Vec<LineOut> {
    lines
        .iter()
        .map(|l| LineOut {
            from: point(l.from),
            to: point(l.to),
            blocked: l.blocked,
            hits: l
                .hits
                .iter()
                .map(|h| HitOut {
                    case: h.case.id(),
                    counted: h.counted,
                    at: h.at.map(|(x, y)| PointOut { x, y }),
                    by: h
                        .elements
                        .iter()
                        .map(|(k, sq)| {
                            let mut b = BlockerOut {
                                kind: "solid",
                                square: sq.map(square),
                                creature: None,
                                wall: None,
                                wall_kind: None,
                            };
                            match k {
                                ElementKind::Solid => {}
                                ElementKind::Low => b.kind = "low",
                                ElementKind::Creature(i) => {
                                    b.kind = "creature";
                                    b.creature = enc.creatures.get(*i).map(|c| c.id.clone());
                                }
                                ElementKind::Wall { index, kind } => {
                                    b.kind = "wall";
                                    b.wall = Some(*index);
                                    b.wall_kind = Some(kind.id());
                                }
                            }
                            b
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect()
}

fn result(enc: &Encounter, a: &CoverAnswer) -> CoverResult {
    let reflex = a.save == SaveKind::Reflex;
    CoverResult {
        degree: a.degree.id(),
        soft: a.soft,
        ac_bonus: a.ac_bonus,
        save_bonus: a.save_bonus,
        save: if reflex { "reflex" } else { "dex" },
        reflex_bonus: reflex.then_some(a.save_bonus),
        dex_save_bonus: (!reflex).then_some(a.save_bonus),
        attack_modifier: a.attack_modifier,
        can_be_targeted: a.can_be_targeted,
        denies_opportunity_attacks: a.denies_opportunity_attacks,
        allows_stealth: a.allows_stealth,
        stealth_bonus: a.stealth_bonus,
        improved_evasion: a.improved_evasion,
        in_reach: a.in_reach,
        corner: a.corner.map(point),
        attacker_square: a.attacker_square.map(square),
        target_square: a.target_square.map(square),
        procedure: a.procedure,
        lines: lines(enc, &a.lines),
    }
}
