//! The wire form of a charge and of the attacks of opportunity a movement provokes: what
//! `/v1/maneuvers` (a charge) and `/v1/movement` (a move, or a charge along a path) share.

use arbiter_rules::maneuver::{Charge, Obstacle};
use arbiter_rules::movement::MoveOpportunity;
use serde::Serialize;
use utoipa::ToSchema;

use super::grid::{SquareOut, squares};

/// An attack of opportunity provoked by a movement (a charge's, or `/v1/movement`'s).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MoveOpportunityOut {
    /// The creature that may attack.
    pub creature: String,
    /// Index in the path of the square the mover stands on when it provokes (0: the start).
    pub step: usize,
    /// That square.
    pub square: SquareOut,
    /// Whether it gets the attack (false: listed with why not, or only offered).
    pub provoked: bool,
    /// `leaves_threatened_square`, `leaves_reach`, `stands_up`, `moves_through_space`,
    /// `offered_to_ally`, `flat_footed`, `cover`, `total_cover`, `total_concealment`,
    /// `withdraw`.
    #[schema(value_type = crate::wire::MoveOpportunityReasonId)]
    pub reason: &'static str,
    /// Rule id.
    pub rule: &'static str,
}

/// What stops a charge.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChargeObstacleOut {
    /// `no_attack_square`, `too_short`, `too_long`, `no_line_of_sight`, `not_closest`,
    /// `end_occupied`, `end_blocked`, `path_blocked` (solid square, wall, or a solid corner the
    /// line cuts), `difficult_terrain` (difficult, deep water or low obstacle), `path_creature`.
    #[schema(value_type = crate::wire::ChargeIllegalId)]
    pub reason: &'static str,
    /// The square at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<SquareOut>,
    /// The creature there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creature: Option<String>,
}

/// One end square tested.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChargeEndOut {
    /// The end square (the charger's anchor).
    pub end: SquareOut,
    /// Movement, feet (`grid.distance.alternating` displacement of the anchor).
    pub movement_ft: u32,
    /// The squares the path test covers, row order (start and end spaces excluded).
    pub squares: Vec<SquareOut>,
    /// What stops it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub obstacle: Option<ChargeObstacleOut>,
}

/// A charge (`pf1e.charge`, `hb3d.charge`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChargeOut {
    /// Rule id.
    pub rule: &'static str,
    /// Whether the charge is possible.
    pub legal: bool,
    /// Why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::wire::ChargeIllegalId>)]
    pub reason: Option<&'static str>,
    /// The square at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_square: Option<SquareOut>,
    /// The creature at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_by: Option<String>,
    /// The charger's square at the start.
    pub start: SquareOut,
    /// The end square (when illegal: the first one tested).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<SquareOut>,
    /// Movement to the end square, feet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub movement_ft: Option<u32>,
    /// The longest charge, feet: double speed, or speed with `standard_only`.
    pub max_ft: u32,
    /// The closest squares from which the charger can attack, row order.
    pub closest: Vec<SquareOut>,
    /// Their movement, feet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest_ft: Option<u32>,
    /// The other equally close legal squares (the charger may pick one instead, Q-29).
    pub alternatives: Vec<SquareOut>,
    /// `convex_hull` (PF1) or `centre_line` (hb3d).
    #[schema(value_type = crate::wire::PathTestId)]
    pub path_test: &'static str,
    /// The squares the path test covers for the end square.
    pub path_squares: Vec<SquareOut>,
    /// Every end square tested.
    pub tested: Vec<ChargeEndOut>,
    /// Line of sight to the target at the start.
    pub line_of_sight: bool,
    /// `bull_rush` or `overrun` in place of the attack.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::wire::ChargeThenId>)]
    pub then: Option<&'static str>,
    /// +2 to the attack.
    pub attack_bonus: i32,
    /// −2 to AC (PF1) / DEF (hb3d) until the charger's next turn.
    pub ac_penalty: i32,
    /// The charger's square step by step, start first: the given path, or a straight line of
    /// king's moves to the end square.
    pub path: Vec<SquareOut>,
    /// Legal charges: the attacks of opportunity the movement provokes, once per enemy, at the
    /// first threatened square it leaves (`pf1e.aoo`).
    pub opportunity_attacks: Vec<MoveOpportunityOut>,
    /// Conditions to set on the charger when the charge is made (legal charges): `charged`
    /// (−2 AC / DEF until the start of its next turn), to clear then; `/v1/attack` and
    /// `/v1/maneuvers` apply it to the charger as a target.
    #[schema(value_type = Vec<crate::wire::ConditionId>)]
    pub charger_gains: Vec<&'static str>,
}

fn obstacle_out(o: &Obstacle) -> ChargeObstacleOut {
    ChargeObstacleOut {
        reason: o.why.id(),
        square: o.square.map(SquareOut::from),
        creature: o.creature.clone(),
    }
}

/// The wire form of a charge.
pub fn charge_out(c: &Charge) -> ChargeOut {
    ChargeOut {
        rule: c.rule,
        legal: c.legal,
        reason: c.obstacle.as_ref().map(|o| o.why.id()),
        blocked_square: c.obstacle.as_ref().and_then(|o| o.square).map(SquareOut::from),
        blocked_by: c.obstacle.as_ref().and_then(|o| o.creature.clone()),
        start: SquareOut::from(c.start),
        end: c.end.map(SquareOut::from),
        movement_ft: c.movement_ft,
        max_ft: c.max_ft,
        closest: squares(&c.closest),
        closest_ft: c.closest_ft,
        alternatives: squares(&c.alternatives),
        path_test: c.path_test.id(),
        path_squares: squares(&c.path_squares),
        tested: c
            .tested
            .iter()
            .map(|e| ChargeEndOut {
                end: SquareOut::from(e.end),
                movement_ft: e.movement_ft,
                squares: squares(&e.squares),
                obstacle: e.obstacle.as_ref().map(obstacle_out),
            })
            .collect(),
        line_of_sight: c.line_of_sight,
        then: c.then.map(|k| k.id()),
        attack_bonus: c.attack_bonus,
        ac_penalty: c.ac_penalty,
        path: squares(&c.path),
        opportunity_attacks: c.opportunities.iter().map(move_opportunity_out).collect(),
        charger_gains: c.charger_gains.iter().map(|k| k.id()).collect(),
    }
}

/// The wire form of an attack of opportunity a movement provokes.
pub fn move_opportunity_out(o: &MoveOpportunity) -> MoveOpportunityOut {
    MoveOpportunityOut {
        creature: o.creature.clone(),
        step: o.step,
        square: SquareOut::from(o.square),
        provoked: o.provoked,
        reason: o.reason.id(),
        rule: o.rule,
    }
}
