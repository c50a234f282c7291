//! `POST /v1/maneuvers`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;

use crate::AppState;
use crate::api::dice::RollOut;
use crate::api::maneuver::{
    AttackerMoveOut, BandOdds, ChargeEndOut, ChargeObstacleOut, ChargeOut, ChargeThenIn, DroppedOut,
    ManeuverEffectsOut, ManeuverModifierOut, ManeuverOdds, ManeuverRequest, ManeuverResponse, ManeuverResult,
    MissRollOut, MoveOpportunityOut, MovedOdds, OpportunityOut, PushOut, SecondaryRushOut, ShoveIn,
    SquareOut,
};
use crate::error::{AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use arbiter_rules::grid::Square;
use arbiter_rules::maneuver::{
    Charge, ChargeOptions, Effects, Kind, Modifier, Obstacle, Options, Push, PushStop, ShoveChoice, Side,
    charge, maneuver,
};
use arbiter_rules::movement::MoveOpportunity;
use arbiter_rules::scene::Scene;

fn sq(s: Square) -> SquareOut {
    SquareOut { x: s.x, y: s.y }
}

fn obstacle_out(o: &Obstacle) -> ChargeObstacleOut {
    ChargeObstacleOut { reason: o.why.id(), square: o.square.map(sq), creature: o.creature.clone() }
}

pub(crate) fn charge_out(c: &Charge) -> ChargeOut {
    ChargeOut {
        rule: c.rule,
        legal: c.legal,
        reason: c.obstacle.as_ref().map(|o| o.why.id()),
        blocked_square: c.obstacle.as_ref().and_then(|o| o.square).map(sq),
        blocked_by: c.obstacle.as_ref().and_then(|o| o.creature.clone()),
        start: sq(c.start),
        end: c.end.map(sq),
        movement_ft: c.movement_ft,
        max_ft: c.max_ft,
        closest: c.closest.iter().copied().map(sq).collect(),
        closest_ft: c.closest_ft,
        alternatives: c.alternatives.iter().copied().map(sq).collect(),
        path_test: c.path_test.id(),
        path_squares: c.path_squares.iter().copied().map(sq).collect(),
        tested: c
            .tested
            .iter()
            .map(|e| ChargeEndOut {
                end: sq(e.end),
                movement_ft: e.movement_ft,
                squares: e.squares.iter().copied().map(sq).collect(),
                obstacle: e.obstacle.as_ref().map(obstacle_out),
            })
            .collect(),
        line_of_sight: c.line_of_sight,
        then: c.then.map(|k| k.id()),
        attack_bonus: c.attack_bonus,
        ac_penalty: c.ac_penalty,
        path: c.path.iter().copied().map(sq).collect(),
        opportunity_attacks: c.opportunities.iter().map(move_opportunity_out).collect(),
    }
}

pub(crate) fn move_opportunity_out(o: &MoveOpportunity) -> MoveOpportunityOut {
    MoveOpportunityOut {
        creature: o.creature.clone(),
        step: o.step,
        square: sq(o.square),
        provoked: o.provoked,
        reason: o.reason,
        rule: o.rule,
    }
}

fn push_out(p: &Push) -> PushOut {
    PushOut {
        direction: SquareOut { x: p.direction.0, y: p.direction.1 },
        wanted_ft: p.wanted_ft,
        moved_ft: p.moved_ft,
        from: sq(p.from),
        path: p.path.iter().copied().map(sq).collect(),
        to: sq(p.to),
        stopped_by: p.stopped.as_ref().map(|s| s.id()),
        blocked_square: p.stopped.as_ref().and_then(|s| s.square()).map(sq),
        blocked_by: match &p.stopped {
            Some(PushStop::Creature { creature, .. }) => Some(creature.clone()),
            _ => None,
        },
    }
}

fn modifier_out(x: &Modifier) -> ManeuverModifierOut {
    ManeuverModifierOut {
        rule: x.rule,
        detail: x.detail.clone(),
        value: x.value,
        applies_to: match x.side {
            Side::Check => "check",
            Side::Defence => "defence",
        },
    }
}

fn effects_out(e: &Effects) -> ManeuverEffectsOut {
    ManeuverEffectsOut {
        target_gains: e.target_gains.iter().map(|c| c.id()).collect(),
        attacker_gains: e.attacker_gains.iter().map(|c| c.id()).collect(),
        attacker_loses: e.attacker_loses.iter().map(|c| c.id()).collect(),
        push: e.push.as_ref().map(push_out),
        dropped: e
            .dropped
            .iter()
            .map(|d| DroppedOut { creature: d.creature.clone(), item: d.item.clone() })
            .collect(),
        through: e.through,
        attacker_stops_in_front: e.attacker_stops_in_front,
        attacker_may_pick_up: e.attacker_may_pick_up,
        target_moved_to: e.target_moved_to.map(sq),
        attacker_move: e
            .attacker_move
            .as_ref()
            .map(|m| AttackerMoveOut { kind: m.kind.id(), walk: push_out(&m.walk) }),
        secondary_bull_rushes: e
            .secondary
            .iter()
            .map(|r| SecondaryRushOut {
                creature: r.creature.clone(),
                square: sq(r.square),
                reason: r.illegal.map(|i| i.id()),
                bonus: r.bonus,
                cmd: r.cmd,
                modifiers: r.modifiers.iter().map(modifier_out).collect(),
                automatic: r.automatic,
                natural: r.natural,
                total: r.total,
                margin: r.margin,
                success: r.success,
                earned_ft: r.earned_ft,
                p_success: r.odds.to_f64(),
                moved: r.moved.as_ref().map(push_out),
            })
            .collect(),
    }
}

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
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<ManeuverRequest>,
) -> Result<Json<ManeuverResponse>, AppError> {
    let (mut p, enc) = super::encounter(&state, &req.encounter);
    let kind = Kind::from_id(&req.kind);
    if kind.is_none() {
        let known: Vec<&str> = Kind::ALL.iter().map(|k| k.id()).collect();
        p.push("/kind", format!("unknown maneuver {:?}; known: {}", req.kind, known.join(", ")));
    }
    let mut path = None;
    if let Some(given) = &req.options.path {
        let mut v = Vec::new();
        for (i, s) in given.iter().enumerate() {
            match (i32::try_from(s.x), i32::try_from(s.y)) {
                (Ok(x), Ok(y)) => v.push(Square::new(x, y)),
                _ => p.push(format!("/options/path/{i}"), "square out of range".to_owned()),
            }
        }
        path = Some(v);
    }
    if kind.is_some() && kind != Some(Kind::Charge) {
        if req.options.path.is_some() {
            p.push("/options/path", "only a charge takes a path".to_owned());
        }
        if req.options.then.is_some() {
            p.push("/options/then", "only a charge takes a follow-up maneuver".to_owned());
        }
        if req.options.standard_only {
            p.push("/options/standard_only", "only a charge takes standard_only".to_owned());
        }
    }
    if kind == Some(Kind::Charge) && req.options.then.is_none() && req.options.aoo_damage > 0 {
        p.push("/options/aoo_damage", "a charge without `then` makes no maneuver check".to_owned());
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
        charging: false,
        aoo_damage: o.aoo_damage,
    };
    let charge_options = ChargeOptions {
        path,
        then: o.then.map(|t| match t {
            ChargeThenIn::BullRush => Kind::BullRush,
            ChargeThenIn::Overrun => Kind::Overrun,
        }),
        standard_only: o.standard_only,
    };
    let (mut source, echo) = req.dice.source();
    let mut budget = work.budget();
    let scene = Scene::new(&enc, &mut budget)?;
    let m = if kind == Kind::Charge {
        charge(&scene, attacker, target, &charge_options, &options, &mut source, &mut budget)?
    } else {
        maneuver(&scene, attacker, target, kind, &options, &mut source, &mut budget)?
    };
    // Band ids follow the maneuver that was rolled (a charge's bull rush or overrun).
    let band_kind = m.charge.as_ref().filter(|c| c.legal).and_then(|c| c.then).unwrap_or(kind);
    if m.legal {
        crate::api::dice::check_all_used(&source, "maneuver")?;
    }
    let shove = options.shove;
    let result = ManeuverResult {
        kind: kind.id(),
        legal: m.legal,
        reason: m
            .illegal
            .map(|i| i.id())
            .or_else(|| m.charge.as_ref().and_then(|c| c.obstacle.as_ref()).map(|o| o.why.id())),
        check: m.check.id(),
        bonus: m.bonus,
        dc: m.dc,
        opposed_bonus: m.opposed_bonus,
        automatic: m.automatic,
        modifiers: m.modifiers.iter().map(modifier_out).collect(),
        natural: m.natural,
        total: m.total,
        opposed_natural: m.opposed_natural,
        opposed_total: m.opposed_total,
        success: m.success,
        margin: m.margin,
        band: m.band.map(|b| b.id(band_kind, shove)),
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
        charge: m.charge.as_ref().map(charge_out),
        miss_chance: m.miss_chance,
        miss_roll: m.miss_roll.map(|(roll, missed)| MissRollOut { roll, missed }),
    };
    let odds = ManeuverOdds {
        success: m.odds.success.to_f64(),
        exact: m.odds.success.to_string(),
        bands: m
            .odds
            .bands
            .iter()
            .map(|(b, r)| BandOdds { band: b.id(band_kind, shove), p: r.to_f64(), exact: r.to_string() })
            .collect(),
        moved: m
            .odds
            .moved
            .iter()
            .map(|(feet, r)| MovedOdds { feet: *feet, p: r.to_f64(), exact: r.to_string() })
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
