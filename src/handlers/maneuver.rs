//! `POST /v1/maneuvers`.

use axum::extract::State;
use axum::response::Response;

use super::QuestionProblems;
use crate::error::HttpError;
use crate::extract::AppJson;
use crate::negotiate::LanguageHeader;
use crate::negotiate::Negotiated;
use crate::questions::Work;
use crate::state::AppState;
use arbiter_contract::api::dice::check_all_used;
use arbiter_contract::api::maneuver::{ManeuverRequest, ManeuverResponse};
use arbiter_contract::error::Problem;
use arbiter_rules::maneuver::ask;
use arbiter_rules::scene::Scene;

/// Resolves one combat maneuver: legality (size, reach, hands, legs, flying), the check
/// (5e 2014 contest, 5e 2024 save, PF1 CMB vs CMD, hb3d 3d6 + CMB vs DEF), success and margin,
/// the effects on the map (prone, pushed square by square, grappled, pinned, tied up, items
/// dropped, attacker prone), attacks of opportunity, and the exact odds of each outcome band.
///
/// `charge` (PF1, hb3d; 422 in 5e and Starfinder): the closest squares from which the charger
/// can attack, the path test (PF1 convex hull, hb3d centre line), length, sight and blockers,
/// the +2 attack / −2 AC, and optionally a bull rush or overrun at the end with +2 (`then`).
///
/// PF1 and hb3d also answer the target's concealment miss chance (a `miss_chance` d100 after a
/// successful check), the check penalty of the damage taken from the provoked attack of
/// opportunity (`options.aoo_damage`), where the attacker ends (following a bull rush, through
/// an overrun, or in front of the target on a failure), PF1's secondary bull rush against a
/// creature in the way (the next `check` face, −4 per creature pushed beyond the first; both
/// move the lesser distance), the distribution of the push distance (`odds.moved`), and for a
/// charge the attacks of opportunity its movement provokes.
///
/// Starfinder has no maneuvers (422). `dice` rolls with a seed (echoed back), takes the VTT's
/// faces (`check`, `opposed`, `save`, `miss_chance`; three d6 under `check` in hb3d), or only
/// computes the odds. A maneuver that cannot be attempted answers 200 with `legal: false`.
#[utoipa::path(
    post,
    path = "/v1/maneuvers",
    tag = "questions",
    request_body = ManeuverRequest,
    params(LanguageHeader),
    responses(
        (status = 200, description = "The maneuver answer", body = ManeuverResponse),
        (status = 422, description = "The encounter, the kind or the given dice are invalid, a stat is missing, the ruleset has no such maneuver, the work budget ran out, or the answer would exceed the answer limit", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
        super::JsonOnly,
    )
)]
pub async fn maneuvers(
    State(state): State<AppState>,
    work: Work,
    accept: Negotiated,
    AppJson(req): AppJson<ManeuverRequest>,
) -> Result<Response, HttpError> {
    let q = req.question(&state.config.limits)?;
    let (mut source, echo) = req.dice.source();
    let mut budget = work.budget();
    let scene = Scene::new(&q.encounter, &mut budget)?;
    let asked = ask(&scene, &q.ask, &mut source, &mut budget)?;
    // An illegal maneuver rolls nothing; otherwise every given face must be used.
    if asked.maneuver.legal {
        check_all_used(&source, "maneuver")?;
    }
    Ok(super::json(&ManeuverResponse::new(&q, &asked, echo, accept.lang)))
}
