//! `POST /v1/maneuvers` wire types.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dice::{DiceEcho, DiceIn, RollOut};
use super::encounter::{EncounterIn, SquareIn};
use crate::render::TraceStep;

/// 5e shove: push 5 ft away or knock prone.
#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ShoveIn {
    /// Push 5 ft away (`grid.push-direction`).
    #[default]
    Push,
    /// Knock prone.
    Prone,
}

/// The maneuver that ends a charge in place of the attack.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChargeThenIn {
    /// Bull rush (+2 when charging, RULES.md Q-19).
    BullRush,
    /// Overrun (+2 when charging).
    Overrun,
}

/// Maneuver options.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ManeuverOptionsIn {
    /// PF1 Improved feat (+2, no attack of opportunity) / hb3d « Science de … » (+3 ATT, no
    /// attack of opportunity).
    #[serde(default)]
    pub improved: bool,
    /// 5e shove: `push` (default) or `prone`.
    #[serde(default)]
    pub shove: ShoveIn,
    /// Overrun: the target lets the attacker through (no check).
    #[serde(default)]
    pub target_avoids: bool,
    /// PF1 / hb3d grapple, pin, tie up: maintaining a hold on a target that did not break free (+5).
    #[serde(default)]
    pub maintained: bool,
    /// Escape with Escape Artist (`stats.escape_artist`) instead of a maneuver check.
    #[serde(default)]
    pub escape_artist: bool,
    /// Charge: the charger's anchor squares step by step, each adjacent to the previous one
    /// (the first to the start; the last is the end square). Absent: the engine picks the first
    /// legal closest square in row order and lists the other legal ones.
    #[serde(default)]
    #[schema(max_items = 256)]
    pub path: Option<Vec<SquareIn>>,
    /// Charge: a `bull_rush` or `overrun` in place of the attack, with +2 to its check.
    #[serde(default)]
    pub then: Option<ChargeThenIn>,
    /// Charge: the charger can take only a standard action this turn, so it charges up to its
    /// speed instead of double its speed.
    #[serde(default)]
    pub standard_only: bool,
    /// PF1 / hb3d: damage the acting creature took from the attack of opportunity this
    /// maneuver provoked; a penalty on the check (`pf1e.maneuver.cmb-cmd`). A 422 when the
    /// maneuver provokes none.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub aoo_damage: u32,
}

/// A maneuver question.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "pf1e",
        "grid": {"width": 8, "height": 3},
        "creatures": [
            {"id": "fighter", "side": "party", "at": {"x": 1, "y": 1}, "stats": {"cmb": 8}},
            {"id": "orc", "side": "monsters", "at": {"x": 2, "y": 1}, "stats": {"cmd": 14}}
        ]
    },
    "kind": "bull_rush",
    "attacker": "fighter",
    "target": "orc",
    "dice": {"mode": "given", "rolls": {"check": [11]}}
}))]
pub struct ManeuverRequest {
    /// The encounter.
    pub encounter: EncounterIn,
    /// `grapple`, `shove` (5e), `bull_rush`, `trip`, `disarm`, `overrun`, `escape` (the
    /// attacker is the grappled creature, the target its grappler), `pin`, `tie_up`, `charge`
    /// (PF1 and hb3d).
    #[schema(min_length = 1, max_length = 32, example = "bull_rush")]
    pub kind: String,
    /// Id of the acting creature.
    #[schema(min_length = 1, max_length = 64)]
    pub attacker: String,
    /// Id of the target.
    #[schema(min_length = 1, max_length = 64)]
    pub target: String,
    /// Roll (seeded), given faces (`check`, `opposed`, `save`), or odds only.
    pub dice: DiceIn,
    /// Options.
    #[serde(default)]
    pub options: ManeuverOptionsIn,
}

/// A modifier with its rule.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ManeuverModifierOut {
    /// Rule id.
    pub rule: &'static str,
    /// What it is.
    pub detail: String,
    /// Signed value.
    pub value: i32,
    /// `check` or `defence`.
    pub applies_to: &'static str,
}

/// A square.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct SquareOut {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

/// A push on the map.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PushOut {
    /// (sx, sy) of `grid.push-direction`.
    pub direction: SquareOut,
    /// Feet the rule pushes.
    pub wanted_ft: u32,
    /// Feet actually moved.
    pub moved_ft: u32,
    /// The target's square before.
    pub from: SquareOut,
    /// The square after each step.
    pub path: Vec<SquareOut>,
    /// The target's square after the push.
    pub to: SquareOut,
    /// Why it stopped early: `grid_edge`, `solid`, `wall`, `corner`, `creature`, `no_direction`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<&'static str>,
    /// The square that could not be entered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_square: Option<SquareOut>,
    /// The creature in the way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_by: Option<String>,
}

/// An item dropped.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DroppedOut {
    /// Who drops it.
    pub creature: String,
    /// The wielded weapon's name, `weapon`, or `both_hands`.
    pub item: String,
}

/// What the maneuver does to the map.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ManeuverEffectsOut {
    /// Conditions the target gains (`prone`, `grappled`, `pinned`, `tied_up`).
    pub target_gains: Vec<&'static str>,
    /// Conditions the attacker gains (`prone`, `grappled`).
    pub attacker_gains: Vec<&'static str>,
    /// Conditions the attacker loses (escape).
    pub attacker_loses: Vec<&'static str>,
    /// The push.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub push: Option<PushOut>,
    /// Items dropped.
    pub dropped: Vec<DroppedOut>,
    /// Overrun: the attacker moves through the target's space.
    pub through: bool,
    /// Bull rush / overrun failure: the attacker's movement ends in front of the target.
    pub attacker_stops_in_front: bool,
    /// Disarm without a weapon: the attacker may pick the item up.
    pub attacker_may_pick_up: bool,
    /// PF1/hb3d grapple of a non-adjacent target: the square it is pulled to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_moved_to: Option<SquareOut>,
    /// Bull rush and overrun: how the acting creature moves (follows the push, passes through
    /// the target's space, or stops in front of it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attacker_move: Option<AttackerMoveOut>,
    /// PF1 bull rush: the secondary bull rushes against creatures in the way, in order.
    pub secondary_bull_rushes: Vec<SecondaryRushOut>,
}

/// The acting creature's movement after a bull rush or an overrun.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AttackerMoveOut {
    /// `follow` (bull rush success: it may follow the pushed creatures if it has movement
    /// left), `through` (overrun success: through the target's space to the first space
    /// beyond), `front` (failure: its movement ends in front of the target).
    pub kind: &'static str,
    /// The movement square by square; `wanted_ft` is the distance the rule asks for and
    /// `stopped_by` what cut it short.
    pub walk: PushOut,
}

/// A secondary bull rush (`pf1e.maneuver.bull-rush`): a creature stood in the way of the push.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SecondaryRushOut {
    /// The creature in the way.
    pub creature: String,
    /// The square where the pushed creatures met it.
    pub square: SquareOut,
    /// Why it could not be bull rushed (`size`): the push stops.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// Check bonus, −4 per creature pushed beyond the first included.
    pub bonus: i32,
    /// Its CMD.
    pub cmd: i32,
    /// The modifiers of this check.
    pub modifiers: Vec<ManeuverModifierOut>,
    /// Automatic success (immobilized or unconscious creature).
    pub automatic: bool,
    /// Natural d20 (the next `check` face).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub natural: Option<i64>,
    /// Total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// Total − CMD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
    /// Whether it succeeded (both then move on the lesser distance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    /// The push this check earns on its own, feet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earned_ft: Option<u32>,
    /// Probability that this check succeeds.
    pub p_success: f64,
    /// The creature's own movement once it joined the push.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved: Option<PushOut>,
}

/// The concealment miss roll of a maneuver.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MissRollOut {
    /// The d100.
    pub roll: i64,
    /// Whether the maneuver missed.
    pub missed: bool,
}

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
    pub reason: &'static str,
    /// Rule id.
    pub rule: &'static str,
}

/// Who may make an attack of opportunity.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OpportunityOut {
    /// Creature id.
    pub creature: String,
    /// Whether it gets the attack.
    pub provoked: bool,
    /// `provokes`, `improved`, `cover`, `does_not_threaten`, `flat_footed`, `grappled`, `no_check`.
    pub reason: &'static str,
    /// Rule id.
    pub rule: &'static str,
}

/// The maneuver answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ManeuverResult {
    /// The kind.
    pub kind: &'static str,
    /// Whether it can be attempted.
    pub legal: bool,
    /// Why not: `size`, `reach`, `hands`, `legs`, `flying`, `not_grappled`; for a charge the
    /// charge's reason (see `charge.reason`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    /// `contest` (5e 2014), `save` (5e 2024), `d20_vs_dc` (PF1 CMB vs CMD, 5e 2024 escape),
    /// `3d6_vs_dc` (hb3d), `none`.
    pub check: &'static str,
    /// The acting creature's total bonus (5e 2024 grapple/shove: the target's save bonus).
    pub bonus: i32,
    /// CMD, DEF or DC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dc: Option<i32>,
    /// 5e 2014: the other side's contest bonus.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opposed_bonus: Option<i32>,
    /// Automatic success (PF1/hb3d: helpless target).
    pub automatic: bool,
    /// Every modifier with its rule.
    pub modifiers: Vec<ManeuverModifierOut>,
    /// Natural roll (3d6 sum in hb3d; the target's save in 5e 2024).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub natural: Option<i64>,
    /// Total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// 5e 2014: the other side's natural roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opposed_natural: Option<i64>,
    /// 5e 2014: the other side's total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opposed_total: Option<i64>,
    /// Success (absent in odds mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    /// total − DC (5e 2014: total − opposed total; 5e 2024: DC − save total, success when > 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
    /// The outcome band (`pushed_10_ft`, `attacker_prone`, `both_hands`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<String>,
    /// Effects on the map (when rolled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<ManeuverEffectsOut>,
    /// Attacks of opportunity the maneuver provokes (PF1, hb3d).
    pub opportunity_attacks: Vec<OpportunityOut>,
    /// The action it takes: `replaces_one_attack` (5e), `action` (5e escape), `standard`,
    /// `melee_attack` (in place of a melee attack), `full_round` (hb3d disarm without the power).
    pub action: &'static str,
    /// Tie up: the DC to escape the ropes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub escape_dc: Option<i32>,
    /// Kind `charge`: the charge itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charge: Option<ChargeOut>,
    /// PF1 / hb3d: the target's concealment miss chance against the maneuver, percent, rolled
    /// (`miss_chance` die) after a successful check.
    pub miss_chance: u32,
    /// The miss roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub miss_roll: Option<MissRollOut>,
}

/// What stops a charge.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChargeObstacleOut {
    /// `no_attack_square`, `too_short`, `too_long`, `no_line_of_sight`, `not_closest`,
    /// `end_occupied`, `end_blocked`, `path_blocked` (solid square, wall, or a solid corner the
    /// line cuts), `difficult_terrain` (difficult, deep water or low obstacle), `path_creature`.
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
    pub path_test: &'static str,
    /// The squares the path test covers for the end square.
    pub path_squares: Vec<SquareOut>,
    /// Every end square tested.
    pub tested: Vec<ChargeEndOut>,
    /// Line of sight to the target at the start.
    pub line_of_sight: bool,
    /// `bull_rush` or `overrun` in place of the attack.
    #[serde(skip_serializing_if = "Option::is_none")]
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
}

/// Probability of one outcome band.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BandOdds {
    /// Band id.
    pub band: String,
    /// Probability.
    pub p: f64,
    /// Exact fraction.
    pub exact: String,
}

/// Exact odds.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ManeuverOdds {
    /// Probability of success.
    pub success: f64,
    /// Exact fraction.
    pub exact: String,
    /// Each band that changes the effect (they sum to 1).
    pub bands: Vec<BandOdds>,
    /// Pushes: the distribution of the target's displacement on the map (walls, creatures and
    /// PF1's secondary bull rushes included), feet, 0 included; sums to 1.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<MovedOdds>,
}

/// Probability that a push moves the target this far.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MovedOdds {
    /// Feet.
    pub feet: u32,
    /// Probability.
    pub p: f64,
    /// Exact fraction.
    pub exact: String,
}

/// The answer to `POST /v1/maneuvers`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ManeuverResponse {
    /// The maneuver.
    pub result: ManeuverResult,
    /// Exact odds.
    pub odds: ManeuverOdds,
    /// Dice rolled or taken.
    pub rolls: Vec<RollOut>,
    /// The dice settings.
    pub dice: DiceEcho,
    /// The rules applied.
    pub trace: Vec<TraceStep>,
}
