//! Initiative (`POST /v1/initiative`): each creature's roll, the order with its tie-breaks,
//! surprise, and the exact chance of each roller acting first.
//!
//! - D&D 5e: a Dexterity check (`initiative_bonus`, else `dex_mod`); one roll per group of
//!   identical creatures; ties: higher Dex modifier first, then a roll-off (RULES.md Q-23).
//!   2014: a surprised creature loses its first turn; 2024: surprise gives disadvantage on the
//!   roll, Invisible advantage, Incapacitated disadvantage (they cancel, `dnd5e.advantage.combine`).
//! - PF1, SF, hb3d: d20 (hb3d 3d6) + initiative modifier; ties: higher modifier, then a
//!   roll-off; a surprise round for the aware when someone is surprised; everyone is
//!   flat-footed until its first turn.
//!
//! Dice: `initiative` faces keyed by the creature (a group's first member) — the roll, then
//! any roll-off dice in order.

use crate::budget::{Budget, units};
use crate::dice::{DiceSource, Dist, Purpose, Ratio, Recorder, Rolled};
use crate::encounter::{Condition, Creature, Encounter};
use crate::error::RulesError;
use crate::ruleset::{INCAPACITATED, InitiativeRule, InitiativeTie, Surprise};
pub use crate::trace::initiative::{InitiativeEffect, SurpriseEffect};
use crate::trace::{Effect, RollMode, Trace};

/// The question.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InitiativeQuestion {
    /// The creatures that roll (default: every creature of the encounter).
    pub creatures: Option<Vec<usize>>,
    /// The surprised ones.
    pub surprised: Vec<usize>,
    /// 5e: groups of identical creatures sharing one roll.
    pub groups: Vec<Vec<usize>>,
}

/// One creature in the order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Creature index.
    pub creature: usize,
    /// Its id.
    pub id: String,
    /// 1-based place in the order (input order in odds mode).
    pub position: usize,
    /// The group whose roll it shares (index in the question's groups).
    pub group: Option<usize>,
    /// Initiative bonus.
    pub bonus: i32,
    /// What breaks a tie of totals (5e: Dex modifier; PF1 family: the bonus).
    pub tie_key: i32,
    /// Advantage or disadvantage (5e 2024).
    pub roll_mode: RollMode,
    /// Why the roll mode (`surprised`, `invisible`, `incapacitated`).
    pub roll_mode_causes: Vec<&'static str>,
    /// The dice of the roll (two d20 with advantage or disadvantage, three d6 in hb3d).
    pub faces: Vec<i64>,
    /// The natural result (kept d20 or sum).
    pub natural: Option<i64>,
    /// Natural + bonus.
    pub total: Option<i64>,
    /// Roll-off dice, in order.
    pub roll_off: Vec<i64>,
    /// Who it tied with on the total.
    pub tied_with: Vec<String>,
    /// What placed it before the next creature: `total`, `dex_mod`, `modifier`, `roll_off`,
    /// `group`, `input_order`; `None` for the last one.
    pub decided_by: Option<&'static str>,
    /// It was surprised.
    pub surprised: bool,
    /// PF1 family with a surprise round: whether it acts in it.
    pub acts_in_surprise_round: Option<bool>,
    /// 5e 2014: a surprised creature cannot move or act on its first turn.
    pub loses_first_turn: bool,
    /// PF1 family: flat-footed until its first turn (and through the surprise round when
    /// surprised).
    pub flat_footed_until_first_turn: bool,
    /// 5e controlled mount: the rider whose initiative it takes (it acts on the rider's
    /// count, placed right after it).
    pub follows: Option<String>,
}

/// The chance that one roller acts first.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstOdds {
    /// The creatures of the roller (one, or a 5e group).
    pub creatures: Vec<String>,
    /// Probability.
    pub p: f64,
    /// Exact, when the fraction fits (up to 12 rollers).
    pub exact: Option<Ratio>,
}

/// The answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Initiative {
    /// The order (input order when only the odds were asked).
    pub order: Vec<Entry>,
    /// Whether the order was rolled.
    pub rolled: bool,
    /// PF1 family: a surprise round happens (someone is surprised, someone is not).
    pub surprise_round: bool,
    /// The chance of each roller acting first.
    pub first: Vec<FirstOdds>,
    /// The dice rolled.
    pub rolls: Vec<Rolled>,
    /// The trace.
    pub trace: Trace,
}

fn push(trace: &mut Trace, rule: &'static str, e: InitiativeEffect) {
    trace.push(rule, Effect::Initiative(e));
}

/// Work units of one creature's numbers, trace step or order entry (a few small allocations).
const PER_CREATURE: u64 = 20;

/// Elements of a linear scan (`contains`, a filter) per work unit.
const SCAN: u64 = 4;

/// One roller's natural result: the faces and the kept value; `None` when only odds are asked.
type Natural = Option<(Vec<i64>, i64)>;

/// A creature's bonus, tie key, roll mode and the causes of that mode.
type Numbers = (i32, i32, RollMode, Vec<&'static str>);

/// One roll: a creature, or a 5e group.
#[derive(Debug, Clone)]
struct Roller {
    members: Vec<usize>,
    mode: RollMode,
    dist: Dist,
    bonus: i32,
    key: i32,
}

fn bonus_of(enc: &Encounter, i: usize, c: &Creature) -> Result<(i32, i32), RulesError> {
    let missing = || RulesError::MissingStat {
        pointer: format!("/encounter/creatures/{i}/stats"),
        creature: c.id.clone(),
        stat: "initiative_bonus",
    };
    let bonus = c.stats.initiative_bonus.or(c.stats.dex_mod).ok_or_else(missing)?;
    let key = match enc.ruleset.rules().initiative.tie {
        InitiativeTie::DexThenRollOff => c.stats.dex_mod.unwrap_or(bonus),
        InitiativeTie::ModifierThenRollOff => bonus,
    };
    Ok((bonus, key))
}

fn roll_mode(rule: &InitiativeRule, c: &Creature, surprised: bool) -> (RollMode, Vec<&'static str>) {
    if !rule.conditions_change_roll && rule.surprise != Surprise::Disadvantage {
        return (RollMode::Normal, Vec::new());
    }
    let mut adv = Vec::new();
    let mut dis = Vec::new();
    if surprised && rule.surprise == Surprise::Disadvantage {
        dis.push("surprised");
    }
    if rule.conditions_change_roll {
        if c.has(Condition::Invisible) {
            adv.push("invisible");
        }
        if INCAPACITATED.iter().any(|k| c.has(*k)) {
            dis.push("incapacitated");
        }
    }
    let mode = match (adv.is_empty(), dis.is_empty()) {
        (false, true) => RollMode::Advantage,
        (true, false) => RollMode::Disadvantage,
        _ => RollMode::Normal,
    };
    adv.extend(dis);
    (mode, adv)
}

fn natural_dist(rule: &InitiativeRule, mode: RollMode) -> Dist {
    let (n, sides) = rule.dice;
    let d = Dist::sum_of(n.max(1), sides.max(1));
    match mode {
        RollMode::Normal => d,
        RollMode::Advantage => d.highest_of_two(),
        RollMode::Disadvantage => d.lowest_of_two(),
    }
}

/// Rolls one natural result: the faces and the kept value. `None` when only odds are asked.
fn roll_natural(
    rule: &InitiativeRule,
    mode: RollMode,
    id: &str,
    dice: &mut dyn DiceSource,
) -> Result<Natural, RulesError> {
    let (n, sides) = rule.dice;
    let purpose = Purpose::Initiative(id.to_owned());
    let once = |dice: &mut dyn DiceSource| -> Result<Option<Vec<i64>>, RulesError> {
        let mut faces = Vec::new();
        for _ in 0..n.max(1) {
            match dice.roll(&purpose, sides)? {
                Some(f) => faces.push(i64::from(f)),
                None => return Ok(None),
            }
        }
        Ok(Some(faces))
    };
    let Some(first) = once(dice)? else { return Ok(None) };
    let a: i64 = first.iter().sum();
    if mode == RollMode::Normal {
        return Ok(Some((first, a)));
    }
    let Some(second) = once(dice)? else { return Ok(None) };
    let b: i64 = second.iter().sum();
    let kept = if mode == RollMode::Advantage { a.max(b) } else { a.min(b) };
    Ok(Some((first.into_iter().chain(second).collect(), kept)))
}

/// Answers an initiative question.
pub fn initiative(
    enc: &Encounter,
    q: &InitiativeQuestion,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<Initiative, RulesError> {
    let rule = enc.ruleset.rules().initiative;
    let who: Vec<usize> = q.creatures.clone().unwrap_or_else(|| (0..enc.creatures.len()).collect());
    if !rule.groups && !q.groups.is_empty() {
        return Err(RulesError::field(
            "/groups",
            format!("{} rolls initiative creature by creature; groups are a D&D 5e rule", enc.ruleset.id()),
        ));
    }
    let mut trace = Trace::default();
    // Controlled mounts take their riders' initiative: they do not roll.
    let mounts = crate::mounted::initiative_mounts(enc, &who, &mut trace, budget)?;
    let rolling: Vec<usize> = who.iter().copied().filter(|i| !mounts.iter().any(|(m, _)| m == i)).collect();
    let group_of = groups(enc, q, &rolling, budget)?;
    let rollers = Rollers::new(enc, q, &rolling, group_of, &mut trace, budget)?;
    let surprise_round = surprise(enc, q, &who, &mut trace, budget)?;

    // The odds of acting first.
    let first = first_odds(enc, &rollers.rollers, budget)?;

    // The rolls.
    let mut rec = Recorder::new(dice);
    let mut naturals: Vec<Natural> = Vec::new();
    for r in &rollers.rollers {
        budget.spend(PER_CREATURE)?;
        let id = r.members.first().and_then(|m| enc.creatures.get(*m)).map_or("", |c| c.id.as_str());
        naturals.push(roll_natural(&rule, r.mode, id, &mut rec)?);
    }
    let rolled = naturals.iter().all(Option::is_some) && !naturals.is_empty();
    let mut entries =
        rollers.entries(enc, q, &rolling, surprise_round, rolled.then_some(&naturals[..]), budget)?;
    if rolled {
        rollers.order(enc, &naturals, &mut entries, &mut rec, &mut trace, budget)?;
    }
    follow_riders(enc, q, &mounts, &mut entries, budget)?;
    for (k, e) in entries.iter_mut().enumerate() {
        e.position = k + 1;
    }
    if rolled {
        push(
            &mut trace,
            rule.rule,
            InitiativeEffect::Order { creatures: entries.iter().map(|e| e.id.clone()).collect() },
        );
    }
    let rolls = rec.rolled;
    Ok(Initiative { order: entries, rolled, surprise_round, first, rolls, trace })
}

/// Each controlled mount's entry, right after its rider's, with the rider's roll: what
/// placed the rider before the next creature now places the mount.
fn follow_riders(
    enc: &Encounter,
    q: &InitiativeQuestion,
    mounts: &[(usize, usize)],
    entries: &mut Vec<Entry>,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    let surprise = enc.ruleset.rules().initiative.surprise;
    for &(m, r) in mounts {
        budget.spend(PER_CREATURE + units(entries.len()) / SCAN)?;
        let (Some(k), Some(mount)) = (entries.iter().position(|e| e.creature == r), enc.creatures.get(m))
        else {
            continue;
        };
        let rider = &entries[k];
        let surprised = q.surprised.contains(&m);
        let entry = Entry {
            creature: m,
            id: mount.id.clone(),
            group: None,
            roll_mode_causes: Vec::new(),
            roll_off: Vec::new(),
            tied_with: Vec::new(),
            surprised,
            loses_first_turn: surprised && surprise == Surprise::LosesFirstTurn,
            follows: Some(rider.id.clone()),
            ..rider.clone()
        };
        if entries[k].total.is_some() {
            entries[k].decided_by = Some("controlled_mount");
        }
        entries.insert(k + 1, entry);
    }
    Ok(())
}

/// Each creature's group (by index in `q.groups`): a creature belongs to one group at most,
/// and only creatures that roll initiative belong to one.
fn groups(
    enc: &Encounter,
    q: &InitiativeQuestion,
    who: &[usize],
    budget: &mut Budget,
) -> Result<Vec<Option<usize>>, RulesError> {
    let mut group_of: Vec<Option<usize>> = vec![None; enc.creatures.len()];
    let n_who = units(who.len());
    for (g, members) in q.groups.iter().enumerate() {
        for (k, &m) in members.iter().enumerate() {
            // `who.contains` below scans the rollers.
            budget.spend(1 + n_who / SCAN)?;
            match group_of.get_mut(m) {
                Some(slot @ None) => *slot = Some(g),
                Some(Some(_)) => {
                    return Err(RulesError::field(
                        format!("/groups/{g}/{k}"),
                        "a creature belongs to one group only",
                    ));
                }
                None => return Err(RulesError::field(format!("/groups/{g}/{k}"), "no such creature")),
            }
            if !who.contains(&m) {
                return Err(RulesError::field(
                    format!("/groups/{g}/{k}"),
                    "the creature does not roll initiative",
                ));
            }
        }
    }
    Ok(group_of)
}

/// Surprise: each surprised creature's step; whether there is a surprise round.
fn surprise(
    enc: &Encounter,
    q: &InitiativeQuestion,
    who: &[usize],
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<bool, RulesError> {
    let rule = enc.ruleset.rules().initiative;
    let any_aware = who.iter().any(|i| !q.surprised.contains(i));
    let surprise_round = rule.surprise == Surprise::SurpriseRound && !q.surprised.is_empty() && any_aware;
    for &i in &q.surprised {
        budget.spend(1)?;
        let Some(c) = enc.creatures.get(i) else { continue };
        let effect = match rule.surprise {
            Surprise::LosesFirstTurn => SurpriseEffect::LosesFirstTurn,
            Surprise::Disadvantage => SurpriseEffect::Disadvantage,
            Surprise::SurpriseRound => SurpriseEffect::NoSurpriseRoundAction,
        };
        push(trace, rule.rule, InitiativeEffect::Surprised { creature: c.id.clone(), effect });
    }
    Ok(surprise_round)
}

/// Who rolls: groups first take their members, then everyone else alone.
struct Rollers {
    group_of: Vec<Option<usize>>,
    rollers: Vec<Roller>,
    /// Each creature's roller.
    roller_of: Vec<Option<usize>>,
    numbers: Vec<Option<Numbers>>,
}

impl Rollers {
    /// Every roller's numbers, each creature's step.
    fn new(
        enc: &Encounter,
        q: &InitiativeQuestion,
        who: &[usize],
        group_of: Vec<Option<usize>>,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<Rollers, RulesError> {
        let rule = enc.ruleset.rules().initiative;
        let n_surprised = units(q.surprised.len());
        let mut rollers: Vec<Roller> = Vec::new();
        let mut roller_of: Vec<Option<usize>> = vec![None; enc.creatures.len()];
        let mut numbers: Vec<Option<Numbers>> = vec![None; enc.creatures.len()];
        for &i in who {
            // The creature's numbers and trace step, and the scan of the surprised.
            budget.spend(PER_CREATURE + n_surprised / SCAN)?;
            let Some(c) = enc.creatures.get(i) else {
                return Err(RulesError::field("/creatures", "no such creature"));
            };
            let (bonus, key) = bonus_of(enc, i, c)?;
            let surprised = q.surprised.contains(&i);
            let (mode, causes) = roll_mode(&rule, c, surprised);
            if let Some(slot) = numbers.get_mut(i) {
                *slot = Some((bonus, key, mode, causes.clone()));
            }
            push(trace, rule.rule, InitiativeEffect::Bonus { creature: c.id.clone(), bonus, mode, causes });
            let joined = group_of[i].and_then(|g| {
                q.groups
                    .get(g)
                    .and_then(|ms| ms.first())
                    .and_then(|first| roller_of.get(*first).copied().flatten())
            });
            match joined {
                Some(r) => {
                    if let Some(ro) = rollers.get_mut(r) {
                        ro.members.push(i);
                        ro.bonus = ro.bonus.max(bonus);
                        ro.key = ro.key.max(key);
                    }
                    roller_of[i] = Some(r);
                }
                None => {
                    roller_of[i] = Some(rollers.len());
                    rollers.push(Roller {
                        members: vec![i],
                        mode,
                        dist: natural_dist(&rule, mode),
                        bonus,
                        key,
                    });
                }
            }
        }
        Ok(Rollers { group_of, rollers, roller_of, numbers })
    }

    /// One entry per creature, in input order, with its roller's roll when every roller rolled.
    fn entries(
        &self,
        enc: &Encounter,
        q: &InitiativeQuestion,
        who: &[usize],
        surprise_round: bool,
        naturals: Option<&[Natural]>,
        budget: &mut Budget,
    ) -> Result<Vec<Entry>, RulesError> {
        let rule = enc.ruleset.rules().initiative;
        let n_surprised = units(q.surprised.len());
        let mut entries: Vec<Entry> = Vec::new();
        for &i in who {
            budget.spend(PER_CREATURE + n_surprised / SCAN)?;
            let Some(c) = enc.creatures.get(i) else { continue };
            let r = self.roller_of[i].unwrap_or(0);
            let Some((bonus, key, mode, causes)) = self.numbers.get(i).cloned().flatten() else { continue };
            let surprised = q.surprised.contains(&i);
            let nat = naturals.and_then(|n| n.get(r).cloned().flatten());
            entries.push(Entry {
                creature: i,
                id: c.id.clone(),
                position: 0,
                group: self.group_of[i],
                bonus,
                tie_key: key,
                roll_mode: self.rollers.get(r).map_or(mode, |ro| ro.mode),
                roll_mode_causes: causes,
                faces: nat.as_ref().map(|n| n.0.clone()).unwrap_or_default(),
                natural: nat.as_ref().map(|n| n.1),
                total: nat.as_ref().map(|n| n.1.saturating_add(i64::from(bonus))),
                roll_off: Vec::new(),
                tied_with: Vec::new(),
                decided_by: None,
                surprised,
                acts_in_surprise_round: surprise_round.then_some(!surprised),
                loses_first_turn: surprised && rule.surprise == Surprise::LosesFirstTurn,
                flat_footed_until_first_turn: rule.surprise == Surprise::SurpriseRound,
                follows: None,
            });
        }
        Ok(entries)
    }

    /// Every roller's roll, traced, then the entries sorted (with roll-offs where needed).
    fn order(
        &self,
        enc: &Encounter,
        naturals: &[Natural],
        entries: &mut [Entry],
        dice: &mut dyn DiceSource,
        trace: &mut Trace,
        budget: &mut Budget,
    ) -> Result<(), RulesError> {
        let rule = enc.ruleset.rules().initiative;
        for (r, n) in self.rollers.iter().zip(naturals) {
            let Some((faces, natural)) = n else { continue };
            let mut ids = r.members.iter().filter_map(|m| enc.creatures.get(*m)).map(|c| c.id.clone());
            let creature = ids.next().unwrap_or_default();
            let total = natural.saturating_add(i64::from(r.bonus));
            push(
                trace,
                rule.rule,
                InitiativeEffect::Rolled {
                    creature,
                    shared_with: ids.collect(),
                    faces: faces.clone(),
                    natural: *natural,
                    total,
                },
            );
        }
        let roller_ids: Vec<String> = self
            .rollers
            .iter()
            .map(|r| {
                r.members
                    .first()
                    .and_then(|m| enc.creatures.get(*m))
                    .map(|c| c.id.clone())
                    .unwrap_or_default()
            })
            .collect();
        order(&rule, entries, &self.roller_of, &roller_ids, dice, trace, budget)
    }
}

/// Sorts the entries: total, then the tie key, then roll-offs between different rollers
/// (members of one group keep their input order).
fn order(
    rule: &InitiativeRule,
    entries: &mut [Entry],
    roller_of: &[Option<usize>],
    roller_ids: &[String],
    dice: &mut dyn DiceSource,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    let key_name = match rule.tie {
        InitiativeTie::DexThenRollOff => "dex_mod",
        InitiativeTie::ModifierThenRollOff => "modifier",
    };
    // Stable: equal entries keep input order.
    entries.sort_by(|a, b| b.total.cmp(&a.total).then(b.tie_key.cmp(&a.tie_key)));
    // Who tied on the total.
    let snapshot: Vec<(Option<i64>, String)> = entries.iter().map(|e| (e.total, e.id.clone())).collect();
    let n = units(entries.len());
    // The sort, then one scan of the snapshot per entry.
    budget.spend(n.saturating_mul(u64::from(n.max(2).ilog2())))?;
    for e in entries.iter_mut() {
        budget.spend(PER_CREATURE + n / SCAN)?;
        e.tied_with = snapshot
            .iter()
            .filter(|(t, id)| *t == e.total && *id != e.id)
            .map(|(_, id)| id.clone())
            .collect();
    }
    // Roll-offs within each run of equal (total, key).
    let mut start = 0;
    while start < entries.len() {
        budget.spend(1)?;
        let mut end = start + 1;
        while end < entries.len()
            && entries[end].total == entries[start].total
            && entries[end].tie_key == entries[start].tie_key
        {
            end += 1;
        }
        roll_off(rule, &mut entries[start..end], (roller_of, roller_ids), dice, trace, budget)?;
        start = end;
    }
    // What decided each place, and the tie steps.
    for k in 0..entries.len() {
        let next = entries.get(k + 1).cloned();
        let Some(n) = next else { break };
        let e = &entries[k];
        let by = if e.total != n.total {
            "total"
        } else if e.tie_key != n.tie_key {
            key_name
        } else if roller_of.get(e.creature) == roller_of.get(n.creature) {
            "group"
        } else if e.roll_off != n.roll_off {
            "roll_off"
        } else {
            "input_order"
        };
        entries[k].decided_by = Some(by);
        if by != "total" {
            push(
                trace,
                rule.rule,
                InitiativeEffect::Tie { creatures: vec![entries[k].id.clone(), n.id.clone()], by },
            );
        }
    }
    Ok(())
}

/// Orders a run of entries tied on total and key: each roller still tied rolls off (the
/// ruleset's dice, under its first member's id), again while ties remain, at most 20 rounds;
/// a group's members share their roller's roll-off. Each roll is a trace step.
fn roll_off(
    rule: &InitiativeRule,
    run: &mut [Entry],
    (roller_of, roller_ids): (&[Option<usize>], &[String]),
    dice: &mut dyn DiceSource,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    let roller = |e: &Entry| roller_of.get(e.creature).copied().flatten();
    let n = units(run.len());
    for round in 1..=20 {
        // The tie test compares every pair of the run, then each entry is looked up among the
        // tied sequences: about n² comparisons of short sequences, and the sort.
        budget.spend(1 + n.saturating_mul(n) / SCAN + n.saturating_mul(u64::from(n.max(2).ilog2())))?;
        // Sequences shared by two different rollers are still tied.
        let tied: Vec<Vec<i64>> = run
            .iter()
            .filter(|e| run.iter().any(|o| o.roll_off == e.roll_off && roller(o) != roller(e)))
            .map(|e| e.roll_off.clone())
            .collect();
        if tied.is_empty() {
            return Ok(());
        }
        let mut faces: Vec<(Option<usize>, i64)> = Vec::new();
        for e in run.iter_mut().filter(|e| tied.contains(&e.roll_off)) {
            let r = roller(e);
            let face = match faces.iter().find(|(x, _)| *x == r) {
                Some((_, f)) => *f,
                None => {
                    let id = r.and_then(|r| roller_ids.get(r)).map_or(e.id.as_str(), String::as_str);
                    let Some((rolled, f)) = roll_natural(rule, RollMode::Normal, id, dice)? else {
                        return Ok(());
                    };
                    let step = InitiativeEffect::RollOff {
                        creature: id.to_owned(),
                        round,
                        faces: rolled,
                        natural: f,
                    };
                    push(trace, rule.rule, step);
                    faces.push((r, f));
                    f
                }
            };
            e.roll_off.push(face);
        }
        run.sort_by(|a, b| b.roll_off.cmp(&a.roll_off));
    }
    Ok(())
}

/// The chance that each roller acts first: its total beats every other, ties going to the
/// higher key, then a fair roll-off.
fn first_odds(
    enc: &Encounter,
    rollers: &[Roller],
    budget: &mut Budget,
) -> Result<Vec<FirstOdds>, RulesError> {
    let exact = rollers.len() <= 12;
    // The number of outcomes of each roller: `p_where` and `p_eq` walk them.
    let span =
        |d: &Dist| u64::try_from(d.max().saturating_sub(d.min())).unwrap_or(u64::MAX).saturating_add(1);
    // An exact product costs about as much as a few float ones (u128 fractions).
    let cell = if exact { 4 } else { 1 };
    let mut out = Vec::new();
    for (i, ri) in rollers.iter().enumerate() {
        let mut p = 0.0f64;
        let mut pr = Ratio::ZERO;
        for t in ri.dist.min()..=ri.dist.max() {
            budget.spend(1)?;
            let w = ri.dist.p_eq(t);
            if w == Ratio::ZERO {
                continue;
            }
            let target = t.saturating_add(i64::from(ri.bonus));
            // Product over the others; `poly[k]` = probability that exactly k equal-key
            // rollers tie and every other roller is beaten.
            let mut scalar = (1.0f64, Ratio::ONE);
            let mut poly: Vec<(f64, Ratio)> = vec![(1.0, Ratio::ONE)];
            for (j, rj) in rollers.iter().enumerate() {
                if j == i {
                    continue;
                }
                // Two walks of the other roller's outcomes, and one product per tie count.
                let tie_cells = if rj.key == ri.key { units(poly.len()).saturating_mul(cell) } else { cell };
                budget.spend(2 + span(&rj.dist) / 4 + tie_cells.saturating_mul(3) / 8)?;
                let need = target.saturating_sub(i64::from(rj.bonus));
                let less = rj.dist.p_where(|x| x < need);
                let eq = rj.dist.p_eq(need);
                if rj.key == ri.key {
                    let mut next = vec![(0.0, Ratio::ZERO); poly.len() + 1];
                    for (k, (f, r)) in poly.iter().enumerate() {
                        next[k].0 += f * less.to_f64();
                        next[k + 1].0 += f * eq.to_f64();
                        if exact {
                            next[k].1 = next[k].1.plus(r.times(less));
                            next[k + 1].1 = next[k + 1].1.plus(r.times(eq));
                        }
                    }
                    poly = next;
                } else {
                    let beat = if rj.key < ri.key { less.plus(eq) } else { less };
                    scalar.0 *= beat.to_f64();
                    if exact {
                        scalar.1 = scalar.1.times(beat);
                    }
                }
            }
            let mut sum = (0.0f64, Ratio::ZERO);
            budget.spend(units(poly.len()).saturating_mul(cell) / 2)?;
            for (k, (f, r)) in poly.iter().enumerate() {
                let share = 1.0 / (k as f64 + 1.0);
                sum.0 += f * share;
                if exact {
                    sum.1 = sum.1.plus(r.times(Ratio::new(1, k as u128 + 1)));
                }
            }
            p += w.to_f64() * scalar.0 * sum.0;
            if exact {
                pr = pr.plus(w.times(scalar.1).times(sum.1));
            }
        }
        out.push(FirstOdds {
            creatures: ri
                .members
                .iter()
                .filter_map(|m| enc.creatures.get(*m))
                .map(|c| c.id.clone())
                .collect(),
            // The exact fraction, when there is one, gives the closest float.
            p: if exact { pr.to_f64() } else { p },
            exact: exact.then_some(pr),
        });
    }
    Ok(out)
}
