//! `POST /v1/maneuvers`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;

use crate::AppState;
use crate::api::dice::RollOut;
use crate::api::maneuver::{
    BandOdds, DroppedOut, ManeuverEffectsOut, ManeuverModifierOut, ManeuverOdds, ManeuverRequest,
    ManeuverResponse, ManeuverResult, OpportunityOut, PushOut, ShoveIn, SquareOut,
};
use crate::api::mapping::{self, Problems};
use crate::error::{AppError, FieldError, Problem};
use crate::extract::AppJson;
use crate::render::{self, Lang};
use arbiter_rules::budget::Budget;
use arbiter_rules::grid::Square;
use arbiter_rules::maneuver::{Effects, Kind, Options, ShoveChoice, Side, maneuver};
use arbiter_rules::scene::Scene;

fn sq(s: Square) -> SquareOut {
    SquareOut { x: s.x, y: s.y }
}

fn effects_out(e: &Effects) -> ManeuverEffectsOut {
    ManeuverEffectsOut {
        target_gains: e.target_gains.iter().map(|c| c.id()).collect(),
        attacker_gains: e.attacker_gains.iter().map(|c| c.id()).collect(),
        attacker_loses: e.attacker_loses.iter().map(|c| c.id()).collect(),
        push: e.push.as_ref().map(|p| PushOut {
            direction: SquareOut { x: p.direction.0, y: p.direction.1 },
            wanted_ft: p.wanted_ft,
            moved_ft: p.moved_ft,
            from: sq(p.from),
            path: p.path.iter().copied().map(sq).collect(),
            to: sq(p.to),
            stopped_by: p.stopped.as_ref().map(|s| s.id()),
            blocked_square: p.stopped.as_ref().and_then(|s| s.square()).map(sq),
            blocked_by: match &p.stopped {
                Some(arbiter_rules::maneuver::PushStop::Creature { creature, .. }) => Some(creature.clone()),
                _ => None,
            },
        }),
        dropped: e
            .dropped
            .iter()
            .map(|d| DroppedOut { creature: d.creature.clone(), item: d.item.clone() })
            .collect(),
        through: e.through,
        attacker_stops_in_front: e.attacker_stops_in_front,
        attacker_may_pick_up: e.attacker_may_pick_up,
        target_moved_to: e.target_moved_to.map(sq),
    }
}

/// Resolves one combat maneuver: legality (size, reach, hands, legs, flying), the check
/// (5e 2014 contest, 5e 2024 save, PF1 CMB vs CMD, hb3d 3d6 + CMB vs DEF), success and margin,
/// the effects on the map (prone, pushed square by square, grappled, pinned, tied up, items
/// dropped, attacker prone), attacks of opportunity, and the exact odds of each outcome band.
///
/// Starfinder has no maneuvers (422). `dice` rolls with a seed (echoed back), takes the VTT's
/// faces (`check`, `opposed`, `save`; three d6 under `check` in hb3d), or only computes the
/// odds. A maneuver that cannot be attempted answers 200 with `legal: false`.
#[utoipa::path(
    post,
    path = "/v1/maneuvers",
    tag = "questions",
    request_body = ManeuverRequest,
    params(("Accept-Language" = Option<String>, Header, description = "`en` (default) or `fr` for trace texts")),
    responses(
        (status = 200, description = "The maneuver answer", body = ManeuverResponse),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter, the kind or the given dice are invalid, a stat is missing, the ruleset has no such maneuver, or the work budget ran out", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Overloaded; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn maneuvers(
    State(state): State<AppState>,
    headers: HeaderMap,
    AppJson(req): AppJson<ManeuverRequest>,
) -> Result<Json<ManeuverResponse>, AppError> {
    let mut p = Problems::default();
    let enc = match mapping::encounter(&req.encounter, &state.config.limits, "/encounter") {
        Ok(e) => Some(e),
        Err(problems) => {
            p.0.extend(problems.0);
            None
        }
    };
    let kind = Kind::from_id(&req.kind);
    if kind.is_none() {
        let known: Vec<&str> = Kind::ALL.iter().map(|k| k.id()).collect();
        p.push("/kind", format!("unknown maneuver {:?}; known: {}", req.kind, known.join(", ")));
    }
    let attacker = super::creature_index(enc.as_ref(), &mut p, "/attacker", &req.attacker);
    let target = super::creature_index(enc.as_ref(), &mut p, "/target", &req.target);
    let (Some(enc), Some(kind), Some(attacker), Some(target), true) =
        (enc, kind, attacker, target, p.is_empty())
    else {
        return Err(AppError::Invalid(p.0));
    };
    let o = &req.options;
    let options = Options {
        improved: o.improved,
        shove: match o.shove {
            ShoveIn::Push => ShoveChoice::Push,
            ShoveIn::Prone => ShoveChoice::Prone,
        },
        target_avoids: o.target_avoids,
        maintained: o.maintained,
        escape_artist: o.escape_artist,
    };
    let (mut source, echo) = req.dice.source();
    let mut budget = Budget::new(state.config.limits.work_budget);
    let scene = Scene::new(&enc, &mut budget)?;
    let m = maneuver(&scene, attacker, target, kind, &options, &mut source, &mut budget)?;
    if let (true, crate::api::dice::Source::Given(g)) = (m.legal, &source) {
        let unused = g.unused();
        if !unused.is_empty() {
            return Err(AppError::Invalid(
                unused
                    .into_iter()
                    .map(|(p, n)| FieldError {
                        pointer: format!("/dice/rolls/{}", p.key()),
                        detail: format!("{n} face(s) not used by this maneuver"),
                    })
                    .collect(),
            ));
        }
    }
    let shove = options.shove;
    let result = ManeuverResult {
        kind: kind.id(),
        legal: m.legal,
        reason: m.illegal.map(|i| i.id()),
        check: m.check.id(),
        bonus: m.bonus,
        dc: m.dc,
        opposed_bonus: m.opposed_bonus,
        automatic: m.automatic,
        modifiers: m
            .modifiers
            .iter()
            .map(|x| ManeuverModifierOut {
                rule: x.rule,
                detail: x.detail.clone(),
                value: x.value,
                applies_to: match x.side {
                    Side::Check => "check",
                    Side::Defence => "defence",
                },
            })
            .collect(),
        natural: m.natural,
        total: m.total,
        opposed_natural: m.opposed_natural,
        opposed_total: m.opposed_total,
        success: m.success,
        margin: m.margin,
        band: m.band.map(|b| b.id(kind, shove)),
        effects: m.effects.as_ref().map(effects_out),
        opportunity_attacks: m
            .opportunity
            .iter()
            .map(|x| OpportunityOut {
                creature: x.creature.clone(),
                provoked: x.provoked,
                reason: x.reason,
                rule: x.rule,
            })
            .collect(),
        escape_dc: m.escape_dc,
        action: m.action,
    };
    let odds = ManeuverOdds {
        success: m.odds.success.to_f64(),
        exact: m.odds.success.to_string(),
        bands: m
            .odds
            .bands
            .iter()
            .map(|(b, r)| BandOdds { band: b.id(kind, shove), p: r.to_f64(), exact: r.to_string() })
            .collect(),
    };
    Ok(Json(ManeuverResponse {
        result,
        odds,
        rolls: m.rolls.iter().map(RollOut::from).collect(),
        dice: echo,
        trace: render::trace(&m.trace, Lang::from_headers(&headers)),
    }))
}
