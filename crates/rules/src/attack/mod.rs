//! Attack resolution (`/v1/attack`): gather every modifier from the snapshot (range, cover,
//! concealment, flanking, prone, conditions, underwater, charge, squeezing, off-hand), combine
//! advantage and disadvantage, roll (or take the VTT's faces), and compute the exact odds.

mod gather;
mod odds;

use crate::budget::Budget;
use crate::damage;
use crate::dice::{DiceSource, Purpose, Recorder, Rolled};
use crate::encounter::{ArmorClass, Encounter, Weapon, WeaponKind};
use crate::error::RulesError;
use crate::ruleset::{AttackDice, ConcealmentBy, Critical, Defence};
use crate::scene::Scene;
use crate::trace::{AttackEffect, RollMode, Trace};

use gather::Gathered;
pub use gather::{Modifier, NotAllowed, Situational};
pub use odds::Odds;

/// The answer to an attack question.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackAnswer {
    /// Whether the attack can be made at all.
    pub allowed: bool,
    /// Why not.
    pub not_allowed: Option<NotAllowed>,
    /// The roll after combining advantage and disadvantage.
    pub roll_mode: RollMode,
    /// Every modifier gathered.
    pub modifiers: Vec<Modifier>,
    /// Total attack bonus (the creature's or weapon's plus every modifier).
    pub attack_bonus: i32,
    /// The number to reach: AC / EAC / KAC / DEF with every modifier.
    pub target_number: i32,
    /// Miss chance in percent (PF1, SF, hb3d concealment).
    pub miss_chance: u32,
    /// The attack misses automatically (5e underwater beyond normal range).
    pub automatic_miss: bool,
    /// A hit is a critical hit automatically (5e: paralyzed or unconscious target within 5 ft).
    pub automatic_critical: bool,
    /// The faces kept (one d20 or three d6); empty in odds mode.
    pub kept: Vec<u32>,
    /// The faces discarded (the other d20 of advantage or disadvantage).
    pub discarded: Vec<u32>,
    /// The natural roll (d20 face or 3d6 sum).
    pub natural: Option<i64>,
    /// Natural roll plus attack bonus.
    pub total: Option<i64>,
    /// The outcome, when dice were rolled.
    pub hit: Option<bool>,
    /// Critical hit, when dice were rolled.
    pub critical: Option<bool>,
    /// PF1: a critical threat.
    pub threat: Option<bool>,
    /// PF1: the confirmation roll's natural face and total.
    pub confirm: Option<(i64, i64)>,
    /// The concealment miss roll (d100) and whether it made the attack miss.
    pub concealment_roll: Option<(u32, bool)>,
    /// Exact odds.
    pub odds: Odds,
    /// The dice rolled or taken.
    pub rolls: Vec<Rolled>,
    /// The damage, when the weapon has one.
    pub damage: Option<damage::DamageAnswer>,
    /// The steps applied.
    pub trace: Trace,
}

/// Resolves one attack.
pub fn attack(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    weapon: &Weapon,
    situational: &Situational,
    dice: &mut dyn DiceSource,
    budget: &mut Budget,
) -> Result<AttackAnswer, RulesError> {
    let enc = scene.enc;
    let ar = enc.ruleset.rules().attack;
    let (base_bonus, base_defence) = base_numbers(enc, attacker, target, weapon)?;
    let mut trace = Trace::default();
    let g = gather::gather(scene, attacker, target, weapon, situational, &mut trace, budget)?;
    let attack_bonus = base_bonus.saturating_add(g.attack_modifier);
    let target_number = base_defence.saturating_add(g.defence_modifier);
    let roll_mode = match ar.dice {
        AttackDice::D20 { advantage: true } => RollMode::combine(g.advantage.len(), g.disadvantage.len()),
        _ => RollMode::Normal,
    };
    if !g.advantage.is_empty() || !g.disadvantage.is_empty() {
        trace.push(
            "dnd5e.advantage.combine",
            AttackEffect::AdvantageCombined {
                advantage: g.advantage.len(),
                disadvantage: g.disadvantage.len(),
                result: roll_mode,
            },
        );
    }
    let critical = ar.critical;
    let crit_from = match critical {
        Critical::ThreatConfirm => i64::from(weapon.crit_range.unwrap_or(20).clamp(2, 20)),
        _ => 20,
    };
    let setup = odds::Setup {
        dice: ar.dice,
        roll_mode,
        bonus: i64::from(attack_bonus),
        target: i64::from(target_number),
        natural_miss: ar.natural_miss,
        natural_hit: ar.natural_hit,
        critical,
        crit_from,
        miss_chance: g.miss_chance,
        automatic_miss: g.automatic_miss || g.not_allowed.is_some(),
        automatic_critical: g.automatic_critical,
    };
    let odds = odds::odds(&setup);
    let mut ans = AttackAnswer::new(g, roll_mode, attack_bonus, target_number, odds);
    let mut rec = Recorder::new(dice);
    if ans.allowed {
        roll(&setup, &mut rec, &mut ans)?;
        ans.rolls.clone_from(&rec.rolled);
        narrate_rolls(enc, &setup, &ans, &mut trace);
    }
    let mut damage_trace = Trace::default();
    let ctx = damage::Context {
        attacker,
        target,
        weapon,
        off_hand: situational.off_hand,
        charging: situational.charging,
        braced_against_charge: situational.braced_against_charge,
        nonlethal: None,
    };
    let chances =
        damage::Chances { hit: odds.hit, critical: odds.critical, rolled: ans.hit.zip(ans.critical) };
    ans.damage = damage::damage(enc, &ctx, chances, &mut rec, &mut damage_trace)?;
    ans.rolls = rec.rolled;
    let kind = weapon.kind.unwrap_or(WeaponKind::Melee);
    trace.push(
        ar.rule,
        AttackEffect::AttackOutcome {
            allowed: ans.allowed,
            melee: kind == WeaponKind::Melee,
            natural: ans.natural,
            total: ans.total,
            target_number,
            hit: ans.hit,
            critical: ans.critical,
            p_hit: odds.hit,
        },
    );
    trace.steps.extend(damage_trace.steps);
    ans.trace = trace;
    Ok(ans)
}

/// The attacker's attack bonus and the target's defence (AC, DEF, EAC or KAC) before any
/// modifier; the two creatures must exist and differ, and the weapon have a kind.
fn base_numbers(
    enc: &Encounter,
    attacker: usize,
    target: usize,
    weapon: &Weapon,
) -> Result<(i32, i32), RulesError> {
    let ar = enc.ruleset.rules().attack;
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    if attacker == target {
        return Err(RulesError::field("/target", "the target must be another creature than the attacker"));
    }
    let base_bonus = weapon.attack_bonus.or(a.stats.attack_bonus).ok_or_else(|| RulesError::MissingStat {
        pointer: format!("/encounter/creatures/{attacker}/stats"),
        creature: a.id.clone(),
        stat: "attack_bonus",
    })?;
    let defence_stat = match ar.defence {
        Defence::Ac => ("ac", t.stats.ac),
        Defence::Def => ("def", t.stats.def),
        Defence::EacKac => match weapon.targets.unwrap_or(ArmorClass::Kac) {
            ArmorClass::Eac => ("eac", t.stats.eac),
            ArmorClass::Kac => ("kac", t.stats.kac),
        },
    };
    let base_defence = defence_stat.1.ok_or_else(|| RulesError::MissingStat {
        pointer: format!("/encounter/creatures/{target}/stats"),
        creature: t.id.clone(),
        stat: defence_stat.0,
    })?;
    if weapon.kind.is_none() {
        return Err(RulesError::field("/weapon/kind", "the weapon needs a kind"));
    }
    Ok((base_bonus, base_defence))
}

impl AttackAnswer {
    /// The answer before any roll: the gathered modifiers and the numbers they make.
    fn new(g: Gathered, roll_mode: RollMode, attack_bonus: i32, target_number: i32, odds: Odds) -> Self {
        AttackAnswer {
            allowed: g.not_allowed.is_none(),
            not_allowed: g.not_allowed,
            roll_mode,
            modifiers: g.modifiers,
            attack_bonus,
            target_number,
            miss_chance: g.miss_chance,
            automatic_miss: g.automatic_miss,
            automatic_critical: g.automatic_critical,
            kept: Vec::new(),
            discarded: Vec::new(),
            natural: None,
            total: None,
            hit: None,
            critical: None,
            threat: None,
            confirm: None,
            concealment_roll: None,
            odds,
            rolls: Vec::new(),
            damage: None,
            trace: Trace::default(),
        }
    }
}

/// The dice the outcome step does not show itself, each once: several attack dice, the
/// confirmation roll and the miss chance roll.
fn narrate_rolls(enc: &Encounter, setup: &odds::Setup, ans: &AttackAnswer, trace: &mut Trace) {
    let ar = enc.ruleset.rules().attack;
    let attack_dice: Vec<&Rolled> = ans.rolls.iter().filter(|r| r.purpose == Purpose::Attack).collect();
    if let (Some(natural), [first, _, ..]) = (ans.natural, attack_dice.as_slice()) {
        let faces = attack_dice.iter().map(|r| r.face).collect();
        trace.push(
            ar.rule,
            AttackEffect::AttackDice { faces, sides: first.sides, mode: setup.roll_mode, natural },
        );
    }
    if let Some((natural, total)) = ans.confirm {
        let confirmed = hits(setup, natural, total);
        let target_number = i32::try_from(setup.target).unwrap_or(i32::MAX);
        trace.push(ar.rule, AttackEffect::Confirmation { natural, total, target_number, confirmed });
    }
    if let (Some((roll, missed)), ConcealmentBy::MissChance(m)) =
        (ans.concealment_roll, enc.ruleset.rules().concealment.by)
    {
        trace.push(
            m.miss_chance,
            AttackEffect::MissChanceRoll { roll, miss_chance: setup.miss_chance, missed },
        );
    }
}

/// Whether a natural roll and its total hit (or confirm a threat): never on an automatic miss
/// or a natural miss, always on a natural hit, else at the target number.
fn hits(setup: &odds::Setup, natural: i64, total: i64) -> bool {
    if setup.automatic_miss || natural <= setup.natural_miss {
        false
    } else {
        natural >= setup.natural_hit || total >= setup.target
    }
}

fn roll(setup: &odds::Setup, dice: &mut dyn DiceSource, ans: &mut AttackAnswer) -> Result<(), RulesError> {
    let natural = match setup.dice {
        AttackDice::ThreeD6 => {
            let mut faces = Vec::with_capacity(3);
            for _ in 0..3 {
                match dice.roll(&Purpose::Attack, 6)? {
                    Some(f) => faces.push(f),
                    None => return Ok(()),
                }
            }
            let sum = faces.iter().map(|f| i64::from(*f)).sum();
            ans.kept = faces;
            sum
        }
        AttackDice::D20 { .. } => {
            let Some(first) = dice.roll(&Purpose::Attack, 20)? else { return Ok(()) };
            if setup.roll_mode == RollMode::Normal {
                ans.kept = vec![first];
                i64::from(first)
            } else {
                let second = dice.roll(&Purpose::Attack, 20)?.unwrap_or(first);
                let keep_high = setup.roll_mode == RollMode::Advantage;
                let (k, d) = if (first >= second) == keep_high { (first, second) } else { (second, first) };
                ans.kept = vec![k];
                ans.discarded = vec![d];
                i64::from(k)
            }
        }
    };
    let total = natural.saturating_add(setup.bonus);
    ans.natural = Some(natural);
    ans.total = Some(total);
    let hits = |nat: i64, tot: i64| hits(setup, nat, tot);
    let mut hit = hits(natural, total);
    let mut crit = false;
    match setup.critical {
        Critical::Natural20 => crit = hit && (natural >= 20 || setup.automatic_critical),
        Critical::Natural20IfTotalHits => crit = hit && natural >= 20 && total >= setup.target,
        Critical::None => {}
        Critical::ThreatConfirm => {
            let threat = hit && natural >= setup.crit_from;
            ans.threat = Some(threat);
            if threat && let Some(c) = dice.roll(&Purpose::Confirm, 20)? {
                let c = i64::from(c);
                let ct = c.saturating_add(setup.bonus);
                ans.confirm = Some((c, ct));
                crit = hits(c, ct);
            }
        }
    }
    if hit
        && setup.miss_chance > 0
        && let Some(d) = dice.roll(&Purpose::MissChance, 100)?
    {
        let missed = d <= setup.miss_chance;
        ans.concealment_roll = Some((d, missed));
        if missed {
            hit = false;
            crit = false;
        }
    }
    ans.hit = Some(hit);
    ans.critical = Some(crit);
    Ok(())
}
