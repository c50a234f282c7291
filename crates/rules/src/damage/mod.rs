//! Damage (`/v1/attack`, grapple damage in `/v1/maneuvers`): a weapon's damage expression
//! becomes, per the ruleset's [`DamageRule`], the exact distribution of the damage of a hit and
//! of a critical hit, mixed with the attack's odds into the distribution of the attack's damage
//! (misses deal 0), its mean and its chance to drop the target; and, when dice are rolled or
//! given, the damage dealt.
//!
//! Each damage type is worked out on its own: its terms are summed, the ruleset's minimum is
//! applied, then the target's defences against that type; the types add up. In the PF1 family
//! the physical terms (bludgeoning, piercing, slashing, untyped) form one group, against which
//! damage reduction applies once.

pub mod expr;
mod mitigation;

use std::collections::BTreeMap;

use crate::dice::{DiceSource, Dist, Purpose, Ratio};
use crate::encounter::{Creature, Encounter, Grip, Weapon, WeaponKind, WeaponProperty};
use crate::error::RulesError;
use crate::pair::Pair;
use crate::ruleset::{CriticalDamage, DamageRule, UnarmedDamage};
use crate::trace::{DamageEffect, Trace};

// The weapon's damage and the target's defences are encounter values: they live beside
// `encounter` so that the encounter does not depend on this module, and are re-exported here.
pub use crate::defences::{DamageReduction, Defences};
pub use crate::weapon_damage::{Damage, DamageSource, Term};

/// Most terms in a weapon's damage.
pub const MAX_TERMS: usize = 8;
/// Most equally likely outcomes of the largest roll (a critical hit): 2^63, so that every
/// weight is exact.
pub const MAX_OUTCOMES: u128 = 1 << 63;
/// Most damage dice one hit rolls.
pub const MAX_ROLLED_DICE: u32 = 256;

/// An exact distribution of damage, with its mean and the chance to drop the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageDist {
    /// P(damage = k) for every possible k, in increasing order.
    pub outcomes: Vec<(i64, Ratio)>,
    /// The mean.
    pub mean: Ratio,
    /// P(damage ≥ the target's hit points), when they are known.
    pub p_drop: Option<Ratio>,
}

/// The damage rolled for one hit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RolledDamage {
    /// Every damage die, in the order rolled.
    pub faces: Vec<u32>,
    /// Per damage type: the type, the sum rolled, the damage after the minimum and the
    /// target's defences.
    pub by_type: Vec<(Option<String>, i64, i64)>,
    /// The damage dealt.
    pub total: i64,
}

/// The damage part of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageAnswer {
    /// The damage of a hit, as worked out (`"1d8+3 slashing"`).
    pub expression: String,
    /// The damage of a normal hit.
    pub hit: DamageDist,
    /// The damage of a critical hit; `None` where the attack cannot be critical.
    pub critical: Option<DamageDist>,
    /// The damage of the attack (or maneuver): misses deal 0.
    pub overall: DamageDist,
    /// The damage dealt, when the dice were rolled or given and the attack hit.
    pub rolled: Option<RolledDamage>,
    /// The target's hit points, when known.
    pub hp: Option<i32>,
    /// The damage is nonlethal (the PF1 family's unarmed strike).
    pub nonlethal: bool,
}

/// What the damage of one question depends on, besides the encounter.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The attacking creature's index.
    pub attacker: usize,
    /// The target's index.
    pub target: usize,
    /// The weapon (its `damage` is the damage asked).
    pub weapon: &'a Weapon,
    /// 5e: the off-hand attack.
    pub off_hand: bool,
    /// The attacker charged.
    pub charging: bool,
    /// The attacker readied a brace weapon against the target's charge.
    pub braced_against_charge: bool,
    /// Lethal or nonlethal as chosen (a grapple's damage); `None`: as the ruleset says.
    pub nonlethal: Option<bool>,
}

/// The chances of the outcomes the damage follows.
#[derive(Debug, Clone, Copy)]
pub struct Chances {
    /// A hit, critical or not.
    pub hit: Ratio,
    /// A critical hit.
    pub critical: Ratio,
    /// Whether the roll hit and was critical, when it was rolled.
    pub rolled: Option<(bool, bool)>,
}

/// How many times each term's dice and static bonus count, per term.
type Plan = Vec<(u32, u32)>;

/// The damage of a hit worked out from a weapon: its terms with the ability modifier in, and
/// how many times each term is rolled.
struct Worked {
    terms: Vec<Term>,
    /// Rolls of each term on a hit and on a critical hit: (dice, static).
    hit: Plan,
    critical: Plan,
    nonlethal: bool,
}

/// The damage of an attack (or a maneuver's follow-up: `chances.critical` zero), its steps
/// pushed to `trace`; the damage dice are rolled when the roll hit.
pub fn damage(
    enc: &Encounter,
    ctx: &Context<'_>,
    chances: Chances,
    dice: &mut dyn DiceSource,
    trace: &mut Trace,
) -> Result<Option<DamageAnswer>, RulesError> {
    let Some(damage) = &ctx.weapon.damage else { return Ok(None) };
    let rule = &enc.ruleset.rules().damage;
    let (Some(attacker), Some(target)) = (enc.creatures.get(ctx.attacker), enc.creatures.get(ctx.target))
    else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    let w = work(enc, rule, ctx, attacker, damage, chances, trace)?;
    check_size(&w)?;
    let groups = groups(enc, &w.terms);
    let minimum = rule.minimum.0;
    if groups.iter().any(|g| lowest(&w, g, &w.critical).min(lowest(&w, g, &w.hit)) < minimum) {
        trace.push(rule.minimum.1, DamageEffect::Minimum { minimum });
    }
    let defences = mitigation::for_groups(enc, target, ctx.weapon, &w.terms, &groups, trace);
    let hp = target.stats.hp;
    let final_dist = |plan: &[(u32, u32)]| -> Dist {
        groups.iter().zip(&defences).fold(Dist::constant(0), |acc, (g, d)| {
            acc.plus(&group_dist(&w.terms, g, plan).map(|x| d.apply(x.max(minimum))))
        })
    };
    let hit_dist = exact(&final_dist(&w.hit));
    // No critical can happen (hb3d, a grapple): its plan is the hit's, its distribution too.
    let crit_dist = if w.critical == w.hit { hit_dist.clone() } else { exact(&final_dist(&w.critical)) };
    let normal = chances.hit.minus(chances.critical);
    let miss = chances.hit.complement();
    let overall = mixture(&[(miss, &[(0, Ratio::ONE)]), (normal, &hit_dist), (chances.critical, &crit_dist)]);
    let rolled = match chances.rolled {
        Some((true, crit)) => roll(rule.roll_rule, &w, &groups, &defences, (minimum, crit), dice, trace)?,
        _ => None,
    };
    let answer = DamageAnswer {
        expression: expression(&w.terms),
        hit: summary(hit_dist, hp),
        critical: (chances.critical != Ratio::ZERO || chances.rolled.is_some_and(|r| r.1))
            .then(|| summary(crit_dist, hp)),
        overall: summary(overall, hp),
        rolled,
        hp,
        nonlethal: w.nonlethal,
    };
    trace.push(
        rule.roll_rule,
        DamageEffect::Distribution {
            expression: answer.expression.clone(),
            mean: answer.overall.mean,
            hp,
            p_drop: answer.overall.p_drop,
        },
    );
    Ok(Some(answer))
}

/// The terms with the ability modifier in, and the rolls of each.
fn work(
    enc: &Encounter,
    rule: &DamageRule,
    ctx: &Context<'_>,
    attacker: &Creature,
    damage: &Damage,
    chances: Chances,
    trace: &mut Trace,
) -> Result<Worked, RulesError> {
    let (mut terms, unarmed) = match &damage.source {
        DamageSource::Terms(t) => (t.clone(), false),
        DamageSource::Unarmed => (vec![unarmed_term(&rule.unarmed, attacker)], true),
    };
    let nonlethal = ctx.nonlethal.unwrap_or(unarmed && rule.unarmed.nonlethal);
    if unarmed {
        let untyped: Vec<Term> = terms.iter().map(|t| Term { damage_type: None, ..t.clone() }).collect();
        trace.push(rule.unarmed.rule, DamageEffect::Unarmed { dice: expression(&untyped), nonlethal });
    }
    if terms.is_empty() || terms.len() > MAX_TERMS {
        // MAX_TERMS, written out so that the server finds the sentence to translate.
        return Err(RulesError::field("/weapon/damage", "from 1 to 8 damage terms"));
    }
    if !damage.ability_included {
        let applied = ability(rule, ctx, attacker, trace)?;
        if let Some(first) = terms.first_mut() {
            first.bonus = first.bonus.saturating_add(i64::from(applied));
        }
    } else {
        trace.push(
            rule.ability.rule,
            DamageEffect::Ability { stat: None, modifier: 0, applied: 0, why: "included" },
        );
    }
    let base = multiplier(enc, ctx, attacker, trace)?;
    let (hit, critical) = rolls(enc, rule, ctx.weapon, &terms, base, chances, trace)?;
    Ok(Worked { terms, hit, critical, nonlethal })
}

/// The unarmed strike of the striker's size: the listed size, else the nearest smaller one,
/// else the first.
fn unarmed_term(u: &UnarmedDamage, striker: &Creature) -> Term {
    let pick = u
        .by_size
        .iter()
        .filter(|(s, _)| s.rank() <= striker.size.rank())
        .max_by_key(|(s, _)| s.rank())
        .or(u.by_size.first())
        .map_or((0, 0, 1), |(_, d)| *d);
    let (count, sides, bonus) = pick;
    Term {
        dice: if count > 0 { vec![(count, sides)] } else { Vec::new() },
        bonus: i64::from(bonus),
        damage_type: Some(u.damage_type.to_owned()),
        extra: false,
    }
}

/// The ability modifier the damage gets, its step pushed.
fn ability(
    rule: &DamageRule,
    ctx: &Context<'_>,
    attacker: &Creature,
    trace: &mut Trace,
) -> Result<i32, RulesError> {
    let a = rule.ability;
    let w = ctx.weapon;
    let kind = if matches!(w.damage.as_ref().map(|d| &d.source), Some(DamageSource::Unarmed)) {
        WeaponKind::Melee
    } else {
        w.kind.unwrap_or(WeaponKind::Melee)
    };
    let grip =
        w.grip.unwrap_or(if w.has(WeaponProperty::TwoHanded) { Grip::TwoHanded } else { Grip::OneHanded });
    if grip == Grip::OffHand && !a.grip {
        return Err(if a.off_hand_only_negative {
            RulesError::field("/weapon/grip", "in 5e the off-hand attack is situational.off_hand")
        } else {
            RulesError::field("/weapon/grip", "this ruleset has no off-hand damage rule")
        });
    }
    let missing = |stat| RulesError::MissingStat {
        pointer: format!("/encounter/creatures/{}/stats", ctx.attacker),
        creature: attacker.id.clone(),
        stat,
    };
    let (stat, modifier, mut why) = match kind {
        WeaponKind::Ranged if !a.ranged_dex => {
            trace.push(
                a.rule,
                DamageEffect::Ability { stat: None, modifier: 0, applied: 0, why: "ranged_none" },
            );
            return Ok(0);
        }
        WeaponKind::Ranged => {
            ("dex_mod", attacker.stats.dex_mod.ok_or_else(|| missing("dex_mod"))?, "ranged")
        }
        WeaponKind::Melee | WeaponKind::Thrown if a.finesse_best && w.has(WeaponProperty::Finesse) => {
            let (s, d) = (attacker.stats.str_mod, attacker.stats.dex_mod);
            match (s, d) {
                (Some(s), Some(d)) if d > s => ("dex_mod", d, "finesse"),
                (Some(s), _) => ("str_mod", s, "finesse"),
                (None, Some(d)) => ("dex_mod", d, "finesse"),
                (None, None) => return Err(missing("str_mod")),
            }
        }
        WeaponKind::Melee => ("str_mod", attacker.stats.str_mod.ok_or_else(|| missing("str_mod"))?, "melee"),
        WeaponKind::Thrown => {
            ("str_mod", attacker.stats.str_mod.ok_or_else(|| missing("str_mod"))?, "thrown")
        }
    };
    let mut applied = modifier;
    if ctx.off_hand && a.off_hand_only_negative {
        applied = modifier.min(0);
        why = "off_hand_negative_only";
    } else if a.grip && modifier > 0 && stat == "str_mod" {
        match grip {
            Grip::TwoHanded => (applied, why) = (modifier.saturating_mul(3) / 2, "two_handed"),
            Grip::OffHand => (applied, why) = (modifier / 2, "off_hand_half"),
            Grip::OneHanded => {}
        }
    }
    trace.push(a.rule, DamageEffect::Ability { stat: Some(stat), modifier, applied, why });
    Ok(applied)
}

/// The damage multiplier of a lance on a mounted charge or a braced weapon against a charger
/// (PF1, hb3d), its step pushed; 1 otherwise.
fn multiplier(
    enc: &Encounter,
    ctx: &Context<'_>,
    attacker: &Creature,
    trace: &mut Trace,
) -> Result<u32, RulesError> {
    let charge = enc.ruleset.rules().charge;
    let w = ctx.weapon;
    let mut m = 1;
    if ctx.braced_against_charge {
        let Some(c) = charge else {
            return Err(RulesError::field(
                "/situational/braced_against_charge",
                "only the rulesets with a charge rule (PF1, hb3d) double a braced weapon's damage",
            ));
        };
        if !w.has(WeaponProperty::Brace) {
            return Err(RulesError::field(
                "/situational/braced_against_charge",
                "the weapon has no brace property",
            ));
        }
        m += 1;
        trace.push(c.rule, DamageEffect::Multiplier { multiplier: 2, why: "braced_against_charge" });
    }
    if let Some(c) = charge
        && ctx.charging
        && attacker.mounted_on.is_some()
        && w.has(WeaponProperty::Lance)
    {
        m += 1;
        trace.push(c.rule, DamageEffect::Multiplier { multiplier: 2, why: "lance_mounted_charge" });
    }
    Ok(m)
}

/// Rolls of each term on a hit and on a critical hit, `(dice, static)`; the critical step
/// pushed when a critical hit can happen.
fn rolls(
    enc: &Encounter,
    rule: &DamageRule,
    w: &Weapon,
    terms: &[Term],
    base: u32,
    chances: Chances,
    trace: &mut Trace,
) -> Result<(Plan, Plan), RulesError> {
    let multiplier_rule = matches!(rule.critical, CriticalDamage::Multiplier { .. });
    if w.crit_multiplier.is_some() && !multiplier_rule {
        return Err(RulesError::field(
            "/weapon/crit_multiplier",
            format!("{} has no critical multiplier (the PF1 family has)", enc.ruleset.id()),
        ));
    }
    let m = w.crit_multiplier.unwrap_or(2).clamp(2, 4);
    let hit: Plan = terms.iter().map(|t| if t.extra { (1, 1) } else { (base, base) }).collect();
    let (critical, kind, shown, rule_id) = match rule.critical {
        CriticalDamage::DiceTwice { rule } => (terms.iter().map(|_| (2, 1)).collect(), "dice_twice", 2, rule),
        CriticalDamage::Multiplier { rule } => {
            // Multipliers add: ×2 and ×3 make ×4 (1 + (2 − 1) + (3 − 1)).
            let r = base + m - 1;
            (terms.iter().map(|t| if t.extra { (1, 1) } else { (r, r) }).collect(), "multiplier", r, rule)
        }
        CriticalDamage::RollTwice { rule } => {
            (terms.iter().map(|_| (2 * base, 2 * base)).collect(), "roll_twice", 2 * base, rule)
        }
    };
    if chances.critical == Ratio::ZERO && !chances.rolled.is_some_and(|r| r.1) {
        // No critical hit can happen (hb3d, a grapple): its plan is the hit's, so that a
        // critical roll that cannot be made is neither bounded nor floored.
        return Ok((hit.clone(), hit));
    }
    trace.push(rule_id, DamageEffect::Critical { kind, rolls: shown, p_critical: chances.critical });
    Ok((hit, critical))
}

/// Refuses a damage whose critical roll has more than [`MAX_OUTCOMES`] outcomes or rolls more
/// than [`MAX_ROLLED_DICE`] dice.
fn check_size(w: &Worked) -> Result<(), RulesError> {
    for plan in [&w.hit, &w.critical] {
        let mut outcomes: u128 = 1;
        let mut count: u64 = 0;
        for (t, (copies, _)) in w.terms.iter().zip(plan.iter()) {
            for (n, s) in &t.dice {
                let dice = u64::from(*n) * u64::from(*copies);
                count = count.saturating_add(dice);
                let power = u128::from(*s).checked_pow(u32::try_from(dice).unwrap_or(u32::MAX));
                outcomes = power.map_or(u128::MAX, |p| outcomes.saturating_mul(p));
            }
        }
        if outcomes > MAX_OUTCOMES || count > u64::from(MAX_ROLLED_DICE) {
            // MAX_ROLLED_DICE and MAX_OUTCOMES written out, for the server's translation.
            return Err(RulesError::field(
                "/weapon/damage",
                "too many dice: a hit or critical hit rolls at most 256 damage dice with at most 2^63 outcomes in all",
            ));
        }
    }
    Ok(())
}

/// The groups of terms worked out together: one per damage type (the PF1 family: the
/// physical types together), in the order first written.
fn groups(enc: &Encounter, terms: &[Term]) -> Vec<Vec<usize>> {
    let merge_physical =
        matches!(enc.ruleset.rules().damage.mitigation, crate::ruleset::Mitigation::Pathfinder { .. });
    let key = |t: &Term| -> Option<String> {
        let ty = t.damage_type.as_ref().map(|s| s.to_lowercase());
        if merge_physical && mitigation::physical(ty.as_deref()) { Some("\u{0}physical".into()) } else { ty }
    };
    let mut out: Vec<(Option<String>, Vec<usize>)> = Vec::new();
    for (i, t) in terms.iter().enumerate() {
        let k = key(t);
        match out.iter_mut().find(|(g, _)| *g == k) {
            Some((_, v)) => v.push(i),
            None => out.push((k, vec![i])),
        }
    }
    out.into_iter().map(|(_, v)| v).collect()
}

/// The distribution of one group's sum under a plan.
fn group_dist(terms: &[Term], group: &[usize], plan: &[(u32, u32)]) -> Dist {
    let mut d = Dist::constant(0);
    for &i in group {
        let (copies, statics) = plan[i];
        for _ in 0..copies {
            for (n, s) in &terms[i].dice {
                d = d.plus(&Dist::sum_of(*n, *s));
            }
        }
        d = d.shift(terms[i].bonus.saturating_mul(i64::from(statics)));
    }
    d
}

/// The least sum of a group under a plan.
fn lowest(w: &Worked, group: &[usize], plan: &[(u32, u32)]) -> i64 {
    group
        .iter()
        .map(|&i| {
            let (c, s) = plan[i];
            let dice: i64 = w.terms[i].dice.iter().map(|(n, _)| i64::from(*n)).sum();
            dice * i64::from(c) + w.terms[i].bonus * i64::from(s)
        })
        .sum()
}

/// P(damage = k) as exact fractions.
fn exact(d: &Dist) -> Vec<(i64, Ratio)> {
    let total = u128::from(d.total());
    d.outcomes().map(|(k, w)| (k, Ratio::new(u128::from(w), total))).collect()
}

/// A mixture of distributions, each with its chance.
fn mixture(parts: &[(Ratio, &[(i64, Ratio)])]) -> Vec<(i64, Ratio)> {
    let mut acc: BTreeMap<i64, Ratio> = BTreeMap::new();
    for (p, dist) in parts {
        if *p == Ratio::ZERO {
            continue;
        }
        for (k, q) in dist.iter() {
            let e = acc.entry(*k).or_insert(Ratio::ZERO);
            *e = e.plus(p.times(*q));
        }
    }
    acc.into_iter().filter(|(_, p)| *p != Ratio::ZERO).collect()
}

/// The mean and the chance to drop a target with `hp` hit points.
fn summary(outcomes: Vec<(i64, Ratio)>, hp: Option<i32>) -> DamageDist {
    let mean = outcomes
        .iter()
        .fold(Ratio::ZERO, |m, (k, p)| m.plus(Ratio::new(u128::try_from(*k).unwrap_or(0), 1).times(*p)));
    let p_drop = hp.map(|hp| {
        outcomes.iter().filter(|(k, _)| *k >= i64::from(hp)).fold(Ratio::ZERO, |s, (_, p)| s.plus(*p))
    });
    DamageDist { outcomes, mean, p_drop }
}

/// Rolls the damage of a hit, its step pushed; `None` when no die is rolled (odds only).
fn roll(
    rule: &'static str,
    w: &Worked,
    groups: &[Vec<usize>],
    defences: &[mitigation::Applied],
    (minimum, critical): (i64, bool),
    dice: &mut dyn DiceSource,
    trace: &mut Trace,
) -> Result<Option<RolledDamage>, RulesError> {
    let plan = if critical { &w.critical } else { &w.hit };
    let mut faces = Vec::new();
    let mut sums = vec![0i64; w.terms.len()];
    for (i, t) in w.terms.iter().enumerate() {
        let (copies, statics) = plan[i];
        for _ in 0..copies {
            for (n, s) in &t.dice {
                for _ in 0..*n {
                    let Some(f) = dice.roll(&Purpose::Damage, *s)? else { return Ok(None) };
                    faces.push(f);
                    sums[i] += i64::from(f);
                }
            }
        }
        sums[i] = sums[i].saturating_add(t.bonus.saturating_mul(i64::from(statics)));
    }
    let mut by_type = Vec::new();
    for (g, d) in groups.iter().zip(defences) {
        let raw: i64 = g.iter().map(|&i| sums[i]).sum();
        by_type.push((w.terms[g[0]].damage_type.clone(), raw, d.apply(raw.max(minimum))));
    }
    let total = by_type.iter().map(|b| b.2).sum();
    trace.push(rule, DamageEffect::Rolled { faces: faces.clone(), total, critical });
    Ok(Some(RolledDamage { faces, by_type, total }))
}

/// A damage written out: `"1d8+3 slashing + 2d6 fire"`.
pub fn expression(terms: &[Term]) -> String {
    terms
        .iter()
        .map(|t| {
            let dice: Vec<String> = t.dice.iter().map(|(n, d)| format!("{n}d{d}")).collect();
            let text = match (dice.is_empty(), t.bonus) {
                (true, b) => b.to_string(),
                (false, 0) => dice.join("+"),
                (false, b) => format!("{}{b:+}", dice.join("+")),
            };
            match &t.damage_type {
                Some(ty) => format!("{text} {ty}"),
                None => text,
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The damage a successful maneuver check deals (PF1 / hb3d grapple « Dégâts »: your unarmed
/// damage, or the damage given; lethal or nonlethal at the grappler's choice), its steps
/// pushed to `trace`. No critical hit: there is no attack roll.
pub fn follow_up(
    pair: &Pair<'_>,
    damage: &Damage,
    success: Ratio,
    succeeded: Option<bool>,
    nonlethal: bool,
    dice: &mut dyn DiceSource,
    trace: &mut Trace,
) -> Result<Option<DamageAnswer>, RulesError> {
    let weapon = Weapon { kind: Some(WeaponKind::Melee), damage: Some(damage.clone()), ..Weapon::default() };
    let ctx = Context {
        attacker: pair.attacker,
        target: pair.target,
        weapon: &weapon,
        off_hand: false,
        charging: false,
        braced_against_charge: false,
        nonlethal: Some(nonlethal),
    };
    let chances = Chances { hit: success, critical: Ratio::ZERO, rolled: succeeded.map(|s| (s, false)) };
    self::damage(pair.enc, &ctx, chances, dice, trace)
}
