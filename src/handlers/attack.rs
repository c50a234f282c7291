//! `POST /v1/attack`.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;

use crate::AppState;
use crate::api::attack::{
    AttackOdds, AttackOddsExact, AttackRequest, AttackResponse, AttackResult, ConcealmentRollOut, ConfirmOut,
    ModifierOut,
};
use crate::api::dice::RollOut;
use crate::api::mapping;
use crate::error::{AppError, Problem};
use crate::extract::AppJson;
use crate::pool::Work;
use crate::render::{self, Lang};
use arbiter_rules::attack::{Situational, attack as resolve};
use arbiter_rules::scene::Scene;

/// Resolves one attack: every modifier from the snapshot, advantage and disadvantage, the
/// roll, hit / miss / critical, the concealment miss roll, and the exact odds.
///
/// Gathers range (increments, long range, close combat, shooting into melee), cover,
/// concealment and sight, flanking, prone attacker and target, conditions, squeezing, charge,
/// underwater combat and off-hand attacks, each with its rule. `dice` rolls with a seed (echoed
/// back), takes the VTT's faces (`given`), or only computes the odds (`odds`). An attack that
/// cannot be made (total cover, out of range) answers 200 with `allowed: false`.
#[utoipa::path(
    post,
    path = "/v1/attack",
    tag = "questions",
    request_body = AttackRequest,
    params(("Accept-Language" = Option<String>, Header, description = "`en` (default) or `fr` for trace texts")),
    responses(
        (status = 200, description = "The attack answer", body = AttackResponse),
        (status = 400, description = "The body is not JSON", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is too large", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The encounter, the question or the given dice are invalid, a stat is missing, or the work budget ran out", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Overloaded; retry", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn attack(
    State(state): State<AppState>,
    work: Work,
    headers: HeaderMap,
    AppJson(req): AppJson<AttackRequest>,
) -> Result<Json<AttackResponse>, AppError> {
    let (mut p, enc) = super::encounter(&state, &req.encounter);
    let weapon = mapping::weapon(&mut p, "/weapon", &req.weapon);
    for e in arbiter_rules::range::weapon_problems(mapping::ruleset_id(req.encounter.ruleset), &weapon) {
        if let AppError::Invalid(fields) = AppError::from(e) {
            p.0.extend(fields);
        }
    }
    let other = req
        .situational
        .other_weapon
        .as_ref()
        .map(|w| mapping::weapon(&mut p, "/situational/other_weapon", w));
    let (enc, attacker, target) = super::pair(enc, p, &req.attacker, &req.target)?;
    let situational = Situational {
        charging: req.situational.charging,
        off_hand: req.situational.off_hand,
        other_weapon: other,
        ignores_half_and_three_quarters_cover: req.situational.ignores_half_and_three_quarters_cover,
        ignores_cover_except_total: req.situational.ignores_cover_except_total,
    };
    let (mut source, echo) = req.dice.source();
    let mut budget = work.budget();
    let scene = Scene::new(&enc, &mut budget)?;
    let a = resolve(&scene, attacker, target, &weapon, &situational, &mut source, &mut budget)?;
    // An attack that cannot be made rolls nothing; otherwise every given face must be used.
    if a.allowed {
        crate::api::dice::check_all_used(&source, "attack")?;
    }
    let frac = |r: arbiter_rules::dice::Ratio| r.to_string();
    let result = AttackResult {
        allowed: a.allowed,
        reason: a.not_allowed.map(|n| n.id()),
        roll_mode: a.roll_mode.id(),
        advantage_sources: a.modifiers.iter().filter(|m| m.advantage).map(|m| m.rule).collect(),
        disadvantage_sources: a.modifiers.iter().filter(|m| m.disadvantage).map(|m| m.rule).collect(),
        modifiers: a
            .modifiers
            .iter()
            .map(|m| ModifierOut {
                rule: m.rule,
                source: m.source,
                detail: m.detail.clone(),
                attack: m.attack,
                defence: m.defence,
                advantage: m.advantage,
                disadvantage: m.disadvantage,
            })
            .collect(),
        attack_bonus: a.attack_bonus,
        target_number: a.target_number,
        miss_chance: a.miss_chance,
        automatic_miss: a.automatic_miss,
        kept: a.kept.clone(),
        discarded: a.discarded.clone(),
        natural: a.natural,
        total: a.total,
        hit: a.hit,
        critical: a.critical,
        threat: a.threat,
        confirm: a.confirm.map(|(natural, total)| ConfirmOut { natural, total }),
        concealment_miss: a.concealment_roll.map(|(roll, missed)| ConcealmentRollOut {
            roll,
            miss_chance: a.miss_chance,
            missed,
        }),
    };
    let o = a.odds;
    let odds = AttackOdds {
        hit: o.hit.to_f64(),
        critical: o.critical.to_f64(),
        miss: o.miss.to_f64(),
        threat: o.threat.map(|t| t.to_f64()),
        concealment_miss: o.concealment_miss.to_f64(),
        exact: AttackOddsExact {
            hit: frac(o.hit),
            critical: frac(o.critical),
            miss: frac(o.miss),
            threat: o.threat.map(frac),
            concealment_miss: frac(o.concealment_miss),
        },
    };
    Ok(Json(AttackResponse {
        result,
        odds,
        rolls: a.rolls.iter().map(RollOut::from).collect(),
        dice: echo,
        trace: render::trace(&a.trace, Lang::from_headers(&headers)),
    }))
}
