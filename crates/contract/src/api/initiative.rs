//! `POST /v1/initiative`: wire types and their mapping both ways.

use arbiter_rules::encounter::Encounter;
use arbiter_rules::error::RulesError;
use arbiter_rules::initiative::{Initiative, InitiativeQuestion};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::bounds::{CreatureId, Group};
use super::contract::{Check, Contract};
use super::dice::{DiceEcho, DiceIn, RollOut};
use super::encounter::EncounterIn;
use super::question::Draft;
use crate::error::AppError;
use crate::limits::Limits;
use crate::render::{self, Lang, TraceStep};

/// An initiative question.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "encounter": {
        "ruleset": "pf1e",
        "grid": {"width": 10, "height": 10},
        "creatures": [
            {"id": "fighter", "side": "party", "at": {"x": 1, "y": 1}, "stats": {"initiative_bonus": 1}},
            {"id": "goblin", "side": "monsters", "at": {"x": 6, "y": 1}, "stats": {"initiative_bonus": 6}}
        ]
    },
    "dice": {"mode": "given", "rolls": {"initiative": {"fighter": [14], "goblin": [9]}}}
}))]
pub struct InitiativeRequest {
    /// The encounter.
    pub encounter: EncounterIn,
    /// Roll (seeded), given faces (`initiative`: a list per creature id — the roll, two d20
    /// with advantage or disadvantage, three d6 in hb3d — then any roll-off dice), or odds only.
    pub dice: DiceIn,
    /// Ids of the creatures that roll, each at most once (default: all).
    #[serde(default, deserialize_with = "crate::capped::opt_creatures")]
    #[schema(max_items = 500, value_type = Option<Vec<CreatureId>>)]
    pub creatures: Option<Vec<String>>,
    /// Ids of the surprised creatures, each at most once.
    #[serde(default, deserialize_with = "crate::capped::creatures")]
    #[schema(max_items = 500, value_type = Vec<CreatureId>)]
    pub surprised: Vec<String>,
    /// D&D 5e: groups of identical creatures that share one roll (the first id's faces).
    #[serde(default, deserialize_with = "crate::capped::groups")]
    #[schema(max_items = 500, value_type = Vec<Group>)]
    pub groups: Vec<Vec<String>>,
}

/// One creature in the order.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InitiativeEntryOut {
    /// Creature id.
    pub creature: String,
    /// 1-based place (input order in odds mode).
    pub position: usize,
    /// Index of the group whose roll it shares.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
    /// Initiative bonus (`initiative_bonus`, else `dex_mod`).
    pub bonus: i32,
    /// What breaks a tie of totals: the Dex modifier (5e) or the bonus (PF1 family).
    pub tie_key: i32,
    /// `normal`, `advantage`, `disadvantage` (5e 2024).
    #[schema(value_type = crate::wire::RollModeId)]
    pub roll_mode: &'static str,
    /// Why: `surprised`, `invisible`, `incapacitated`.
    #[schema(value_type = Vec<crate::wire::RollModeCauseId>)]
    pub roll_mode_causes: Vec<&'static str>,
    /// The dice of the roll.
    pub faces: Vec<i64>,
    /// Natural result (kept d20, or the 3d6 sum).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub natural: Option<i64>,
    /// Total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// Roll-off dice, in order.
    pub roll_off: Vec<i64>,
    /// Creatures with the same total.
    pub tied_with: Vec<String>,
    /// What put it before the next one: `total`, `dex_mod`, `modifier`, `roll_off`, `group`,
    /// `input_order`, `controlled_mount` (5e: its controlled mount acts right after it).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::wire::DecidedById>)]
    pub decided_by: Option<&'static str>,
    /// Surprised.
    pub surprised: bool,
    /// PF1 family, when there is a surprise round: whether it acts in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acts_in_surprise_round: Option<bool>,
    /// 5e 2014: surprised, it cannot move or act on its first turn (nor react until then).
    pub loses_first_turn: bool,
    /// PF1 family: flat-footed until its first turn.
    pub flat_footed_until_first_turn: bool,
    /// 5e controlled mount: the rider whose initiative it takes (it rolls nothing, shares the
    /// rider's total and comes right after it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follows_rider: Option<String>,
}

/// The initiative answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InitiativeResult {
    /// The order, first to last (input order when only the odds were asked).
    pub order: Vec<InitiativeEntryOut>,
    /// Whether the order was rolled.
    pub rolled: bool,
    /// PF1 family: a surprise round happens.
    pub surprise_round: bool,
}

/// The chance that one roller acts first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FirstOddsOut {
    /// The creatures of the roll (one, or a 5e group).
    pub creatures: Vec<String>,
    /// Probability.
    pub p: f64,
    /// Exact fraction (up to 12 rollers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
}

/// Exact odds.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InitiativeOdds {
    /// The chance of each roll coming first (ties broken as the ruleset says).
    pub first: Vec<FirstOddsOut>,
}

/// The answer to `POST /v1/initiative`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InitiativeResponse {
    /// The order.
    pub result: InitiativeResult,
    /// Exact odds.
    pub odds: InitiativeOdds,
    /// Dice rolled or taken.
    pub rolls: Vec<RollOut>,
    /// The dice settings.
    pub dice: DiceEcho,
    /// The rules applied.
    pub trace: Vec<TraceStep>,
}

impl InitiativeRequest {
    /// The encounter and the question in the rules crate's terms, or a 422 listing every
    /// problem (the dice come from `dice`).
    pub fn question(&self, limits: &Limits) -> Result<(Encounter, InitiativeQuestion), AppError> {
        let mut d = Draft::new(&self.encounter, limits);
        let creatures = self.creatures.as_ref().map(|c| d.creatures("/creatures", c));
        let surprised = d.creatures("/surprised", &self.surprised);
        let groups =
            self.groups.iter().enumerate().map(|(g, m)| d.creatures(&format!("/groups/{g}"), m)).collect();
        let missing = missing_bonuses(d.encounter(), creatures.as_deref());
        d.add(missing);
        let encounter = d.done()?;
        Ok((encounter, InitiativeQuestion { creatures, surprised, groups }))
    }
}

/// Every rolling creature (`who`, or all) with neither `initiative_bonus` nor `dex_mod`, each
/// its own problem: the rules stop at the first, a client wants to fill them all in at once.
fn missing_bonuses(enc: Option<&Encounter>, who: Option<&[usize]>) -> Vec<RulesError> {
    let Some(enc) = enc else { return Vec::new() };
    let all: Vec<usize> = (0..enc.creatures.len()).collect();
    who.unwrap_or(&all)
        .iter()
        .filter_map(|&i| {
            let c = enc.creatures.get(i)?;
            c.stats.initiative_bonus.or(c.stats.dex_mod).is_none().then(|| RulesError::MissingStat {
                pointer: format!("/encounter/creatures/{i}/stats"),
                creature: c.id.clone(),
                stat: "initiative_bonus",
            })
        })
        .collect()
}

impl InitiativeResponse {
    /// The wire answer, with the dice settings used, its trace in `lang`.
    pub fn new(enc: &Encounter, a: &Initiative, dice: DiceEcho, lang: Lang) -> InitiativeResponse {
        InitiativeResponse {
            result: result(a),
            odds: InitiativeOdds {
                first: a
                    .first
                    .iter()
                    .map(|f| FirstOddsOut {
                        creatures: f.creatures.clone(),
                        p: f.p,
                        exact: f.exact.map(|r| r.to_string()),
                    })
                    .collect(),
            },
            rolls: a.rolls.iter().map(RollOut::from).collect(),
            dice,
            trace: render::trace(&a.trace, lang, enc.ruleset),
        }
    }
}

fn result(a: &Initiative) -> InitiativeResult {
    InitiativeResult {
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
                follows_rider: e.follows.clone(),
            })
            .collect(),
        rolled: a.rolled,
        surprise_round: a.surprise_round,
    }
}

/// The bounds of the request, checked before any other work.
impl Contract for InitiativeRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.encounter(&self.encounter);
        c.dice(&self.dice);
        let max = c.limits.max_creatures as usize;
        if let Some(ids) = &self.creatures {
            c.ids("creatures", ids, max);
        }
        c.ids("surprised", &self.surprised, max);
        // A creature in two groups (or twice in one) is the rules' check, at the repeat.
        c.list("groups", &self.groups, max, |c, g| c.list_ids(g, max));
    }
}
