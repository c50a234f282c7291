//! `POST /v1/initiative`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;

use crate::AppState;
use crate::api::dice::RollOut;
use crate::api::initiative::{
    FirstOddsOut, InitiativeEntryOut, InitiativeOdds, InitiativeRequest, InitiativeResponse, InitiativeResult,
};
use crate::error::{AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use arbiter_rules::initiative::{InitiativeQuestion, initiative as resolve};

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
    params(("Accept-Language" = Option<String>, Header, description = "`en` (default) or `fr` for trace texts")),
    responses(
        (status = 200, description = "The initiative order", body = InitiativeResponse),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter, an id, a group or the given dice are invalid, or a bonus is missing", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Overloaded; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn initiative(
    State(state): State<AppState>,
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<InitiativeRequest>,
) -> Result<Json<InitiativeResponse>, AppError> {
    let (mut p, enc) = super::encounter(&state, &req.encounter);
    let ids = |list: &[String], pointer: &str, p: &mut crate::api::mapping::Problems| -> Vec<usize> {
        list.iter()
            .enumerate()
            .filter_map(|(i, id)| super::creature_index(enc.as_ref(), p, &format!("{pointer}/{i}"), id))
            .collect()
    };
    let creatures = req.creatures.as_ref().map(|c| ids(c, "/creatures", &mut p));
    let surprised = ids(&req.surprised, "/surprised", &mut p);
    let groups: Vec<Vec<usize>> =
        req.groups.iter().enumerate().map(|(g, m)| ids(m, &format!("/groups/{g}"), &mut p)).collect();
    let (Some(enc), true) = (enc, p.is_empty()) else {
        return Err(AppError::Invalid(p.0));
    };
    let q = InitiativeQuestion { creatures, surprised, groups };
    let (mut source, echo) = req.dice.source();
    let mut budget = work.budget();
    let a = resolve(&enc, &q, &mut source, &mut budget)?;
    crate::api::dice::check_all_used(&source, "roll")?;
    let result = InitiativeResult {
        order: a
            .order
            .iter()
            .map(|e| InitiativeEntryOut {
                creature: e.id.clone(),
                position: e.position,
                group: e.group,
                bonus: e.bonus,
                tie_key: e.tie_key,
                roll_mode: e.roll_mode.id(),
                roll_mode_causes: e.roll_mode_causes.clone(),
                faces: e.faces.clone(),
                natural: e.natural,
                total: e.total,
                roll_off: e.roll_off.clone(),
                tied_with: e.tied_with.clone(),
                decided_by: e.decided_by,
                surprised: e.surprised,
                acts_in_surprise_round: e.acts_in_surprise_round,
                loses_first_turn: e.loses_first_turn,
                flat_footed_until_first_turn: e.flat_footed_until_first_turn,
            })
            .collect(),
        rolled: a.rolled,
        surprise_round: a.surprise_round,
    };
    let odds = InitiativeOdds {
        first: a
            .first
            .iter()
            .map(|f| FirstOddsOut {
                creatures: f.creatures.clone(),
                p: f.p,
                exact: f.exact.map(|r| r.to_string()),
            })
            .collect(),
    };
    Ok(Json(InitiativeResponse {
        result,
        odds,
        rolls: a.rolls.iter().map(RollOut::from).collect(),
        dice: echo,
        trace: render::trace(&a.trace, Lang::from_headers(&headers)),
    }))
}
