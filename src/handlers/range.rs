//! `POST /v1/range`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;

use crate::AppState;
use crate::api::mapping;
use crate::api::range::{CloseCombatOut, IntoMeleeOut, RangeRequest, RangeResponse, RangeResult};
use crate::error::{AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use arbiter_rules::grid::METRES_PER_SQUARE;
use arbiter_rules::ruleset::RangedInMeleeRule;
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
    params(("Accept-Language" = Option<String>, Header, description = "`en` (default) or `fr` for trace texts")),
    responses(
        (status = 200, description = "The range answer", body = RangeResponse),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter or the question is invalid", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Overloaded; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn range(
    State(state): State<AppState>,
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<RangeRequest>,
) -> Result<Json<RangeResponse>, AppError> {
    let (mut p, enc) = super::encounter(&state, &req.encounter);
    let weapon = mapping::weapon(&mut p, "/weapon", &req.weapon);
    for e in arbiter_rules::range::weapon_problems(mapping::ruleset_id(req.encounter.ruleset), &weapon) {
        if let AppError::Invalid(fields) = AppError::from(e) {
            p.0.extend(fields);
        }
    }
    let (enc, attacker, target) = super::pair(enc, p, &req.attacker, &req.target)?;
    let mut budget = work.budget();
    let scene = Scene::new(&enc, &mut budget)?;
    let answer = arbiter_rules::range::range(&scene, attacker, target, &weapon, &mut budget)?;
    let lang = Lang::from_headers(&headers);
    let ranged_in_melee = enc.ruleset.rules().ranged_in_melee;
    let ranged = answer.band != arbiter_rules::trace::Band::Reach
        && weapon.kind != Some(arbiter_rules::encounter::WeaponKind::Melee);
    let result = RangeResult {
        distance_ft: answer.distance_ft,
        distance_squares: answer.distance_squares,
        distance_m: answer.distance_squares as f64 * METRES_PER_SQUARE,
        band: answer.band.id(),
        increment: answer.increment,
        allowed: answer.allowed,
        max_ft: answer.max_ft,
        modifier: answer.modifier,
        range_modifier: answer.range_modifier,
        roll_mode: answer.roll_mode.id(),
        disadvantage_sources: answer.disadvantage_sources.clone(),
        close_combat: match ranged_in_melee {
            RangedInMeleeRule::CloseCombatDisadvantage { .. } if ranged => Some(CloseCombatOut {
                disadvantage: !answer.close_combat_by.is_empty(),
                by: answer.close_combat_by.clone(),
            }),
            _ => None,
        },
        into_melee: match ranged_in_melee {
            RangedInMeleeRule::IntoMelee { .. } if ranged => Some(IntoMeleeOut {
                modifier: answer.into_melee_modifier,
                engaged_with: answer.engaged_with.clone(),
            }),
            _ => None,
        },
    };
    Ok(Json(RangeResponse { result, trace: render::trace(&answer.trace, lang) }))
}
