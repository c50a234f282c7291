//! `POST /v1/maneuvers`: wire types and their mapping both ways.

use arbiter_rules::encounter::Encounter;
use arbiter_rules::maneuver::{
    Ask, Asked, ChargeOptions, Effects, GrappleDamage, GrappleMove, Kind, ManeuverAnswer, Modifier,
    MoveFollowUp, Options, Push, PushStop, ShoveChoice, Side,
};
use arbiter_rules::ruleset::{ManeuverRule, Ruleset};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::bounds::{AOO_DAMAGE, CHARGE_PATH};
use super::charge::{ChargeOut, MoveOpportunityOut, charge_out, move_opportunity_out};
use super::contract::{Check, Contract};
use super::damage::DamageOut;
use super::dice::{DiceEcho, DiceIn, RollOut};
use super::encounter::{EncounterIn, SquareIn};
use super::grid::{SquareOut, squares, squares_in};
use super::question::Draft;
use crate::error::AppError;
use crate::error::Text;
use crate::limits::Limits;
use crate::problems::Problems;
use crate::render::{self, Lang, TraceStep};

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

/// What a successful PF1 / hb3d grapple check also does besides keeping the hold
/// (`pf1e.maneuver.grapple`, `hb3d.maneuver.grapple`: « Déplacement », « Dégâts »).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FollowUpIn {
    /// Move the grappler and the target up to half the grappler's speed along `path`, then
    /// place the target on `place`, adjacent to the grappler (seed 003 « Déplacement »).
    Move,
    /// Deal damage (`options.damage`, default the grappler's unarmed strike): the answer's
    /// `damage` gives its distribution on a success and overall.
    Damage,
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
    /// legal closest square in row order and lists the other legal ones. Grapple with
    /// `follow_up: "move"`: the grappler's anchor squares step by step, likewise.
    #[serde(
        default,
        deserialize_with = "crate::capped::opt_at_most::<{ super::bounds::CHARGE_PATH }, _, _>"
    )]
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
    /// PF1 / hb3d grapple maintained (`maintained: true`): what a successful check also does; `move`
    /// needs `path` and `place`.
    #[serde(default)]
    pub follow_up: Option<FollowUpIn>,
    /// Grapple `follow_up: "move"`: the target's final anchor square, adjacent to the
    /// grappler's final space.
    #[serde(default)]
    pub place: Option<SquareIn>,
    /// `follow_up: "damage"`: the damage dealt (default `"unarmed"`, the grappler's unarmed
    /// strike; or a light or one-handed weapon's damage, PF1).
    #[serde(default)]
    #[schema(value_type = Option<super::damage::DamageIn>)]
    pub damage: Option<super::damage::DamageIn>,
    /// `follow_up: "damage"`: the `damage` already includes the ability modifier.
    #[serde(default)]
    pub ability_in_damage: bool,
    /// `follow_up: "damage"`: the grappler deals nonlethal damage (the seed: « létaux ou
    /// non-létaux »; default lethal).
    #[serde(default)]
    pub nonlethal: bool,
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
    #[schema(value_type = crate::wire::ManeuverKindId)]
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
    #[schema(value_type = crate::wire::AppliesToId)]
    pub applies_to: &'static str,
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
    #[schema(value_type = Option<crate::wire::PushStopId>)]
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
    #[schema(value_type = Vec<crate::wire::ConditionId>)]
    pub target_gains: Vec<&'static str>,
    /// Conditions the attacker gains (`prone`, `grappled`; `charged` for a charger).
    #[schema(value_type = Vec<crate::wire::ConditionId>)]
    pub attacker_gains: Vec<&'static str>,
    /// Conditions the attacker loses (escape).
    #[schema(value_type = Vec<crate::wire::ConditionId>)]
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
    /// PF1/hb3d grapple of a non-adjacent target: the square it is pulled to; with a
    /// follow-up move that happened, the square the target is placed on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_moved_to: Option<SquareOut>,
    /// PF1/hb3d grapple follow-up move that happened: the grappler's final square.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grappler_moved_to: Option<SquareOut>,
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
    #[schema(value_type = crate::wire::AttackerMoveKindId)]
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
    #[schema(value_type = Option<crate::wire::SecondaryIllegalId>)]
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

/// Who may make an attack of opportunity.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OpportunityOut {
    /// Creature id.
    pub creature: String,
    /// Whether it gets the attack.
    pub provoked: bool,
    /// `provokes`, `improved`, `cover`, `does_not_threaten`, `flat_footed`, `grappled`, `no_check`.
    #[schema(value_type = crate::wire::ManeuverOpportunityReasonId)]
    pub reason: &'static str,
    /// Rule id.
    pub rule: &'static str,
}

/// The maneuver answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ManeuverResult {
    /// The kind.
    #[schema(value_type = crate::wire::ManeuverKindId)]
    pub kind: &'static str,
    /// Whether it can be attempted.
    pub legal: bool,
    /// Why not: `size`, `reach`, `hands`, `legs`, `flying`, `not_grappled`; for a charge the
    /// charge's reason (see `charge.reason`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::wire::ManeuverIllegalId>)]
    pub reason: Option<&'static str>,
    /// `contest` (5e 2014), `save` (5e 2024), `d20_vs_dc` (PF1 CMB vs CMD, 5e 2024 escape),
    /// `3d6_vs_dc` (hb3d), `none`.
    #[schema(value_type = crate::wire::CheckKindId)]
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
    /// Effects on the map (when rolled); a legal charge always has them, with `charged` in
    /// `attacker_gains` (the charger's −2 AC / DEF until its next turn).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<ManeuverEffectsOut>,
    /// Attacks of opportunity the maneuver provokes (PF1, hb3d).
    pub opportunity_attacks: Vec<OpportunityOut>,
    /// The action it takes: `replaces_one_attack` (5e), `action` (5e escape), `standard`,
    /// `melee_attack` (in place of a melee attack), `full_round` (hb3d disarm without the power).
    #[schema(value_type = crate::wire::ManeuverActionId)]
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
    /// 5e: the riders a push or a prone puts at risk of falling off their mount (the target's
    /// riders, or the target itself when it rides and is knocked prone); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rider_falls: Vec<super::mounted::RiderFallOut>,
    /// PF1 / hb3d grapple with `follow_up: "move"`: the follow-up judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow_up: Option<FollowUpOut>,
}

/// A grapple's follow-up move (`pf1e.maneuver.grapple`, `hb3d.maneuver.grapple` « Déplacement »).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FollowUpOut {
    /// `move`.
    pub kind: &'static str,
    /// Rule id.
    pub rule: &'static str,
    /// Whether it can be made on a success.
    pub legal: bool,
    /// Why not: a step issue (`solid`, `wall`, `corner`, `creature`), `too_far`,
    /// `end_occupied`, `place_not_adjacent`, `place_off_grid`, `place_blocked`,
    /// `place_occupied`, `grapple_illegal`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::wire::FollowUpIllegalId>)]
    pub reason: Option<&'static str>,
    /// The grappler's square step by step, start first.
    pub path: Vec<SquareOut>,
    /// Feet the path costs (the ruleset's move costs).
    pub cost_ft: u32,
    /// Half the grappler's speed, feet: the most it may move.
    pub max_ft: u32,
    /// The target's final square.
    pub place: SquareOut,
    /// Legal moves: the attacks of opportunity the grappler's movement provokes, if the check
    /// succeeds (the target, moved along, provokes and makes none).
    pub opportunity_attacks: Vec<MoveOpportunityOut>,
    /// Probability that the move happens (the check's success when legal, else 0).
    pub p_applies: f64,
    /// Its exact fraction.
    pub exact: String,
    /// Rolled: whether it happened (then `effects` has both final squares).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied: Option<bool>,
}

fn follow_up_out(f: &MoveFollowUp) -> FollowUpOut {
    FollowUpOut {
        kind: "move",
        rule: f.rule,
        legal: f.legal,
        reason: f.reason,
        path: squares(&f.path),
        cost_ft: f.cost_ft,
        max_ft: f.max_ft,
        place: SquareOut::from(f.place),
        opportunity_attacks: f.opportunities.iter().map(move_opportunity_out).collect(),
        p_applies: f.applies.to_f64(),
        exact: f.applies.to_string(),
        applied: f.applied,
    }
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
    /// `follow_up: "damage"`: the damage, its exact distribution on a success (`hit`) and
    /// for the maneuver (`overall`, failures deal 0), and what was rolled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<super::damage::DamageOut>,
    /// Dice rolled or taken.
    pub rolls: Vec<RollOut>,
    /// The dice settings.
    pub dice: DiceEcho,
    /// The rules applied.
    pub trace: Vec<TraceStep>,
}

/// A maneuver question in the rules crate's terms (the dice come from `dice`).
#[derive(Debug)]
pub struct ManeuverQuestion {
    /// The validated encounter.
    pub encounter: Encounter,
    /// The question in the rules' terms, for [`arbiter_rules::maneuver::ask`].
    pub ask: Ask,
}

impl ManeuverRequest {
    /// The question in the rules crate's terms, or a 422 listing every problem.
    pub fn question(&self, limits: &Limits) -> Result<ManeuverQuestion, AppError> {
        let mut d = Draft::new(&self.encounter, limits);
        let kind = Kind::from_id(&self.kind);
        if kind.is_none() {
            let known: Vec<&str> = Kind::ALL.iter().map(|k| k.id()).collect();
            let known = crate::problems::names(&known);
            d.problems.push(
                "/kind",
                Text::new(
                    format!("{:?} is not a maneuver; one of: {known}", self.kind),
                    format!("« {} » n'est pas une manœuvre ; l'une de : {known}", self.kind),
                ),
            );
        }
        let o = &self.options;
        let path = o.path.as_ref().map(|given| squares_in(&mut d.problems, "/options/path", given));
        let place = o
            .place
            .as_ref()
            .and_then(|p| squares_in(&mut d.problems, "/options", std::slice::from_ref(p)).first().copied());
        charge_only(&mut d.problems, kind, o);
        follow_up_only(&mut d.problems, kind, self.encounter.ruleset.0.rules(), o);
        let damage = follow_up(&mut d.problems, kind, self.encounter.ruleset.0.rules(), o);
        let pair = d.pair(&self.attacker, &self.target);
        let (encounter, ((attacker, target), kind)) = d.finish(pair.zip(kind))?;
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
        let grapple_move = match (o.follow_up, &path, place) {
            (Some(FollowUpIn::Move), Some(p), Some(place)) => Some(GrappleMove { path: p.clone(), place }),
            _ => None,
        };
        let charge = ChargeOptions {
            path,
            then: o.then.map(|t| match t {
                ChargeThenIn::BullRush => Kind::BullRush,
                ChargeThenIn::Overrun => Kind::Overrun,
            }),
            standard_only: o.standard_only,
        };
        let ask = Ask { attacker, target, kind, options, charge, grapple_move, damage };
        Ok(ManeuverQuestion { encounter, ask })
    }
}

/// The follow-up damage of a maintained PF1 / hb3d grapple, or the problems of the options
/// that ask for it where it does not apply.
fn follow_up(
    p: &mut Problems,
    kind: Option<Kind>,
    rules: &Ruleset,
    o: &ManeuverOptionsIn,
) -> Option<GrappleDamage> {
    if o.follow_up != Some(FollowUpIn::Damage) {
        for (field, given) in [
            ("damage", o.damage.is_some()),
            ("ability_in_damage", o.ability_in_damage),
            ("nonlethal", o.nonlethal),
        ] {
            if given {
                p.push(
                    format!("/options/{field}"),
                    Text::new("only with follow_up: damage", "seulement avec follow_up: damage"),
                );
            }
        }
        return None;
    }
    let why = if !matches!(rules.maneuvers, ManeuverRule::CombatManeuver(_)) {
        Some((
            format!(
                "{} grapples deal no damage; an unarmed strike is an attack (/v1/attack, damage \"unarmed\")",
                rules.id
            ),
            format!(
                "une lutte de {} n'inflige pas de dégâts ; une attaque à mains nues est une attaque (/v1/attack)",
                rules.id
            ),
        ))
    } else if kind.is_some_and(|k| k != Kind::Grapple) {
        // `follow_up_only` refuses a follow-up on another maneuver.
        return None;
    } else if rules.damage.grapple_unarmed_only && o.damage.as_ref().is_some_and(|d| !d.is_unarmed()) {
        p.push(
            "/options/damage",
            Text::new(
                format!("a {} grapple deals the grappler's unarmed damage only", rules.id),
                format!("une lutte de {} n'inflige que les dégâts à mains nues", rules.id),
            ),
        );
        return None;
    } else if !o.maintained {
        Some((
            "the damage comes with a check to maintain the grapple (maintained: true)".to_owned(),
            "les dégâts accompagnent un test pour maintenir la lutte (maintained: true)".to_owned(),
        ))
    } else {
        None
    };
    if let Some((en, fr)) = why {
        p.push("/options/follow_up", Text::new(en, fr));
        return None;
    }
    let given = o.damage.clone().unwrap_or(super::damage::DamageIn::Expression("unarmed".into()));
    super::damage::weapon_damage(p, "/options", &given, None, o.ability_in_damage)
        .map(|damage| GrappleDamage { damage, nonlethal: o.nonlethal })
}

/// The options only a charge takes, refused on another (known) maneuver (a grapple's
/// follow-up move takes a path too).
fn charge_only(p: &mut Problems, kind: Option<Kind>, o: &ManeuverOptionsIn) {
    if kind.is_some() && kind != Some(Kind::Charge) {
        let moving = kind == Some(Kind::Grapple) && o.follow_up == Some(FollowUpIn::Move);
        if o.path.is_some() && !moving {
            p.push(
                "/options/path",
                Text::new("only a charge takes a path", "seule une charge prend un chemin"),
            );
        }
        if o.then.is_some() {
            p.push(
                "/options/then",
                Text::new(
                    "only a charge takes a follow-up maneuver",
                    "seule une charge prend une manœuvre de suite",
                ),
            );
        }
        if o.standard_only {
            p.push(
                "/options/standard_only",
                Text::new("only a charge takes standard_only", "seule une charge prend standard_only"),
            );
        }
    }
    if kind == Some(Kind::Charge) && o.then.is_none() && o.aoo_damage > 0 {
        p.push(
            "/options/aoo_damage",
            Text::new(
                "a charge without then makes no maneuver check",
                "une charge sans then ne fait aucun test de manœuvre",
            ),
        );
    }
}

/// The options of a grapple's follow-up: only a grapple takes one, a move comes with a check
/// to maintain the hold (as the damage does: PF1 « once you are grappling », seed 003 « chaque
/// test réussi » of the hold) and needs its path and the target's square.
fn follow_up_only(p: &mut Problems, kind: Option<Kind>, rules: &Ruleset, o: &ManeuverOptionsIn) {
    if kind.is_some() && kind != Some(Kind::Grapple) && o.follow_up.is_some() {
        p.push(
            "/options/follow_up",
            Text::new("only a grapple takes a follow-up", "seule une lutte prend une action de suite"),
        );
    }
    if o.follow_up == Some(FollowUpIn::Move) {
        let combat_maneuver = matches!(rules.maneuvers, ManeuverRule::CombatManeuver(_));
        if combat_maneuver && kind == Some(Kind::Grapple) && !o.maintained {
            p.push(
                "/options/follow_up",
                Text::new(
                    "the move comes with a check to maintain the grapple (maintained: true)",
                    "le déplacement accompagne un test pour maintenir la lutte (maintained: true)",
                ),
            );
        }
        if o.path.is_none() {
            p.push(
                "/options/path",
                Text::new(
                    "a follow-up move needs the grappler's path",
                    "un déplacement de lutte a besoin du chemin de l'agrippeur",
                ),
            );
        }
        if o.place.is_none() {
            p.push(
                "/options/place",
                Text::new(
                    "a follow-up move needs the target's final square",
                    "un déplacement de lutte a besoin de la case finale de la cible",
                ),
            );
        }
    } else if o.place.is_some() {
        p.push(
            "/options/place",
            Text::new("only a follow-up move takes place", "seul un déplacement de lutte prend place"),
        );
    }
}

impl ManeuverResponse {
    /// The wire answer to `q`, with the dice settings used, its trace in `lang`.
    pub fn new(q: &ManeuverQuestion, asked: &Asked, dice: DiceEcho, lang: Lang) -> ManeuverResponse {
        let (m, kind) = (&asked.maneuver, q.ask.kind);
        // Band ids follow the maneuver that was rolled (a charge's bull rush or overrun).
        let band_kind = m.charge.as_ref().filter(|c| c.legal).and_then(|c| c.then).unwrap_or(kind);
        let shove = q.ask.options.shove;
        ManeuverResponse {
            result: result(kind, m, band_kind, shove),
            odds: ManeuverOdds {
                success: m.odds.success.to_f64(),
                exact: m.odds.success.to_string(),
                bands: m
                    .odds
                    .bands
                    .iter()
                    .map(|(b, r)| BandOdds {
                        band: b.id(band_kind, shove),
                        p: r.to_f64(),
                        exact: r.to_string(),
                    })
                    .collect(),
                moved: m
                    .odds
                    .moved
                    .iter()
                    .map(|(feet, r)| MovedOdds { feet: *feet, p: r.to_f64(), exact: r.to_string() })
                    .collect(),
            },
            damage: asked.damage.as_ref().map(DamageOut::new),
            rolls: m.rolls.iter().map(RollOut::from).collect(),
            dice,
            trace: render::trace(&m.trace, lang, q.encounter.ruleset),
        }
    }
}

fn result(kind: Kind, m: &ManeuverAnswer, band_kind: Kind, shove: ShoveChoice) -> ManeuverResult {
    ManeuverResult {
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
        rider_falls: super::mounted::rider_falls_out(&m.rider_falls),
        follow_up: m.follow_up.as_ref().map(follow_up_out),
    }
}

fn push_out(p: &Push) -> PushOut {
    PushOut {
        direction: SquareOut { x: p.direction.0, y: p.direction.1 },
        wanted_ft: p.wanted_ft,
        moved_ft: p.moved_ft,
        from: SquareOut::from(p.from),
        path: squares(&p.path),
        to: SquareOut::from(p.to),
        stopped_by: p.stopped.as_ref().map(|s| s.id()),
        blocked_square: p.stopped.as_ref().and_then(|s| s.square()).map(SquareOut::from),
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
        target_moved_to: e.target_moved_to.map(SquareOut::from),
        grappler_moved_to: e.grappler_moved_to.map(SquareOut::from),
        attacker_move: e
            .attacker_move
            .as_ref()
            .map(|m| AttackerMoveOut { kind: m.kind.id(), walk: push_out(&m.walk) }),
        secondary_bull_rushes: e
            .secondary
            .iter()
            .map(|r| SecondaryRushOut {
                creature: r.creature.clone(),
                square: SquareOut::from(r.square),
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

/// The bounds of the request, checked before any other work.
impl Contract for ManeuverRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.encounter(&self.encounter);
        c.chars(Some("kind"), &self.kind, 1, 32);
        c.pair(&self.attacker, &self.target);
        c.dice(&self.dice);
        let o = &self.options;
        c.at("options", |c| {
            if let Some(path) = &o.path {
                c.list("path", path, CHARGE_PATH, Check::square);
            }
            c.int("aoo_damage", i64::from(o.aoo_damage), 0, AOO_DAMAGE);
            if let Some(place) = &o.place {
                c.at("place", |c| c.square(place));
            }
            if let Some(d) = &o.damage {
                c.damage(d);
            }
        });
    }
}
