//! Hand-computed damage distributions from the SRD numbers; each comment counts the outcomes.

use arbiter_rules::damage::*;
use arbiter_rules::dice::{GivenDice, OddsOnly, Purpose, Ratio};
use arbiter_rules::encounter::{
    Creature, Encounter, Environment, Grid, Grip, Size, Stats, Weapon, WeaponKind, WeaponProperty,
};
use arbiter_rules::error::RulesError;
use arbiter_rules::grid::Square;
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::trace::{DamageEffect, Effect, Trace};

fn r(n: u128, d: u128) -> Ratio {
    Ratio::new(n, d)
}

fn enc(ruleset: RulesetId, stats: Stats) -> Encounter {
    let mut a = Creature::new("A", "party", Square::new(0, 0), Size::Medium);
    a.stats = stats;
    let t = Creature::new("T", "monsters", Square::new(1, 0), Size::Medium);
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), []),
        grid: Grid::open(4, 2),
        environment: Environment::default(),
        creatures: vec![a, t],
    }
}

fn str_dex(s: i32, d: i32) -> Stats {
    Stats { str_mod: Some(s), dex_mod: Some(d), ..Stats::default() }
}

fn term(e: &str, ty: Option<&str>) -> Term {
    let p = expr::parse(e).unwrap();
    Term { dice: p.dice, bonus: p.bonus, damage_type: ty.map(str::to_owned), extra: false }
}

fn weapon(kind: WeaponKind, terms: Vec<Term>) -> Weapon {
    Weapon {
        kind: Some(kind),
        damage: Some(Damage { source: DamageSource::Terms(terms), ability_included: false }),
        ..Weapon::default()
    }
}

fn ctx(w: &Weapon) -> Context<'_> {
    Context {
        attacker: 0,
        target: 1,
        weapon: w,
        off_hand: false,
        charging: false,
        braced_against_charge: false,
        nonlethal: None,
    }
}

/// Every hit a critical hit, or none.
const ALL_CRIT: Chances = Chances { hit: Ratio::ONE, critical: Ratio::ONE, rolled: None };
const NO_CRIT: Chances = Chances { hit: Ratio::ONE, critical: Ratio::ZERO, rolled: None };

fn run(e: &Encounter, c: &Context<'_>, chances: Chances) -> (DamageAnswer, Trace) {
    let mut trace = Trace::default();
    let a = damage(e, c, chances, &mut OddsOnly, &mut trace).unwrap().unwrap();
    (a, trace)
}

fn p_at_least(d: &DamageDist, k: i64) -> Ratio {
    d.outcomes.iter().filter(|(v, _)| *v >= k).fold(Ratio::ZERO, |s, (_, p)| s.plus(*p))
}

fn p_eq(d: &DamageDist, k: i64) -> Ratio {
    d.outcomes.iter().find(|(v, _)| *v == k).map_or(Ratio::ZERO, |(_, p)| *p)
}

/// 5e longsword 1d8 + Str 3; critical: 2d8 + 3 (SRD: roll all the attack's damage dice twice).
/// P(2d8 + 3 ≥ 12) = P(2d8 ≥ 9): sums 9..16 have 8+7+6+5+4+3+2+1 = 36 of 64 pairs: 9/16.
#[test]
fn dnd5e_critical_doubles_dice_not_the_modifier() {
    let e = enc(RulesetId::Dnd5e2014, str_dex(3, 0));
    let w = weapon(WeaponKind::Melee, vec![term("1d8", Some("slashing"))]);
    let (a, trace) = run(&e, &ctx(&w), ALL_CRIT);
    let crit = a.critical.unwrap();
    assert_eq!(p_at_least(&crit, 12), r(9, 16));
    assert_eq!((crit.outcomes.first().map(|o| o.0), crit.outcomes.last().map(|o| o.0)), (Some(5), Some(19)));
    assert_eq!(crit.mean, r(12, 1));
    assert_eq!(a.hit.mean, r(15, 2));
    assert_eq!(a.expression, "1d8+3 slashing");
    assert!(trace.steps.iter().any(|s| s.rule == "dnd5e.damage.critical"));
    assert!(trace.steps.iter().any(|s| s.rule == "dnd5e.damage.ability"));
}

/// 5e +5 vs AC 15: hit 11/20 of which a natural 20 (1/20) is critical; misses 9/20 deal 0.
/// Mean = 10/20 × 7.5 + 1/20 × 12 = 87/20. With 10 hp: a hit drops on d8 ≥ 7 (2/8), a critical
/// on 2d8 ≥ 7 (1 − 15/64 = 49/64): 10/20 × 1/4 + 1/20 × 49/64 = 209/1280.
#[test]
fn overall_distribution_holds_the_misses() {
    let mut e = enc(RulesetId::Dnd5e2024, str_dex(3, 0));
    e.creatures[1].stats.hp = Some(10);
    let w = weapon(WeaponKind::Melee, vec![term("1d8", None)]);
    let chances = Chances { hit: r(11, 20), critical: r(1, 20), rolled: None };
    let (a, _) = run(&e, &ctx(&w), chances);
    assert_eq!(p_eq(&a.overall, 0), r(9, 20));
    assert_eq!(a.overall.mean, r(87, 20));
    assert_eq!(a.hit.p_drop, Some(r(1, 4)));
    assert_eq!(a.critical.as_ref().unwrap().p_drop, Some(r(49, 64)));
    assert_eq!(a.overall.p_drop, Some(r(209, 1280)));
    let total = a.overall.outcomes.iter().fold(Ratio::ZERO, |s, (_, p)| s.plus(*p));
    assert_eq!(total, Ratio::ONE);
}

/// PF1 longsword 1d8 + Str 3, ×2: critical 2d8 + 6 (8..22, mean 15); a ×3 weapon: 3d8 + 9
/// (mean 22.5).
#[test]
fn pf1e_critical_multiplier() {
    let e = enc(RulesetId::Pf1e, str_dex(3, 0));
    let mut w = weapon(WeaponKind::Melee, vec![term("1d8", Some("slashing"))]);
    let (a, _) = run(&e, &ctx(&w), ALL_CRIT);
    let crit = a.critical.unwrap();
    assert_eq!((crit.outcomes[0].0, crit.outcomes.last().unwrap().0, crit.mean), (8, 22, r(15, 1)));
    w.crit_multiplier = Some(3);
    let (a, _) = run(&e, &ctx(&w), ALL_CRIT);
    assert_eq!(a.critical.unwrap().mean, r(45, 2));
}

/// PF1: extra dice (a flaming weapon's 1d6 fire) are not multiplied: 1d6+3 slashing ×2 and
/// 1d6 fire → 2d6+6 (mean 13) + 1d6 (3.5) = 16.5.
#[test]
fn pf1e_extra_dice_are_not_multiplied() {
    let e = enc(RulesetId::Pf1e, str_dex(3, 0));
    let mut fire = term("1d6", Some("fire"));
    fire.extra = true;
    let w = weapon(WeaponKind::Melee, vec![term("1d6", Some("slashing")), fire]);
    let (a, _) = run(&e, &ctx(&w), ALL_CRIT);
    assert_eq!(a.critical.unwrap().mean, r(33, 2));
    assert_eq!(a.hit.mean, r(10, 1));
}

/// PF1 Strength: two-handed Str 3 → +4 (4.5 rounded down), off hand → +1, a penalty in full.
#[test]
fn pf1e_strength_by_grip() {
    let e = enc(RulesetId::Pf1e, str_dex(3, 0));
    let mut w = weapon(WeaponKind::Melee, vec![term("2d6", None)]);
    w.properties = vec![WeaponProperty::TwoHanded];
    assert_eq!(run(&e, &ctx(&w), NO_CRIT).0.hit.mean, r(11, 1));
    w.grip = Some(Grip::OffHand);
    assert_eq!(run(&e, &ctx(&w), NO_CRIT).0.hit.mean, r(8, 1));
    let weak = enc(RulesetId::Pf1e, str_dex(-2, 0));
    w.grip = Some(Grip::TwoHanded);
    // 2d6 − 2: mean 5, but the minimum 1 lifts the one 0 (1, 1) to 1: 5 + 1/36 = 181/36.
    assert_eq!(run(&weak, &ctx(&w), NO_CRIT).0.hit.mean, r(181, 36));
    // A longbow (not composite) adds no Strength.
    let bow = weapon(WeaponKind::Ranged, vec![term("1d8", None)]);
    assert_eq!(run(&e, &ctx(&bow), NO_CRIT).0.hit.mean, r(9, 2));
}

/// PF1 lance on a mounted charge: double damage, 1d8 + 3 → 2d8 + 6 (mean 15); with a ×3
/// critical the multipliers add (×2 and ×3 → ×4): 4d8 + 12, mean 30.
#[test]
fn pf1e_lance_on_a_mounted_charge() {
    let mut e = enc(RulesetId::Pf1e, str_dex(3, 0));
    e.creatures.push(Creature::new("horse", "party", Square::new(2, 1), Size::Large));
    e.creatures[0].mounted_on = Some(2);
    let mut w = weapon(WeaponKind::Melee, vec![term("1d8", Some("piercing"))]);
    w.properties = vec![WeaponProperty::Lance];
    w.crit_multiplier = Some(3);
    let mut c = ctx(&w);
    c.charging = true;
    let (a, trace) = run(&e, &c, ALL_CRIT);
    assert_eq!(a.hit.mean, r(15, 1));
    assert_eq!(a.critical.unwrap().mean, r(30, 1));
    assert!(trace.steps.iter().any(|s| s.rule == "pf1e.charge"));
    // Not mounted: no doubling.
    e.creatures[0].mounted_on = None;
    assert_eq!(run(&e, &c, NO_CRIT).0.hit.mean, r(15, 2));
}

/// PF1 minimum damage: 1d4 − 3 deals 1 on every face (−2, −1, 0, 1 → 1).
#[test]
fn pf1e_minimum_one() {
    let e = enc(RulesetId::Pf1e, str_dex(0, 0));
    let mut w = weapon(WeaponKind::Melee, vec![term("1d4-3", None)]);
    w.damage.as_mut().unwrap().ability_included = true;
    let (a, trace) = run(&e, &ctx(&w), NO_CRIT);
    assert_eq!(a.hit.outcomes, vec![(1, Ratio::ONE)]);
    assert!(trace.steps.iter().any(|s| s.rule == "pf1e.damage.minimum"));
    // 5e never goes below 0: 1d4 − 3 → 0 (3 faces of 4), 1.
    let e5 = enc(RulesetId::Dnd5e2014, str_dex(0, 0));
    let a = run(&e5, &ctx(&w), NO_CRIT).0;
    assert_eq!(a.hit.outcomes, vec![(0, r(3, 4)), (1, r(1, 4))]);
}

/// SF: a critical hit rolls the damage twice: 1d6 + Str 2 → 2d6 + 4 (mean 11).
#[test]
fn sf1e_rolls_the_damage_twice() {
    let e = enc(RulesetId::Sf1e, str_dex(2, 0));
    let w = weapon(WeaponKind::Melee, vec![term("1d6", None)]);
    assert_eq!(run(&e, &ctx(&w), ALL_CRIT).0.critical.unwrap().mean, r(11, 1));
}

/// hb3d: no critical hit, so the answer has no critical distribution.
#[test]
fn hb3d_has_no_critical() {
    let e = enc(RulesetId::Hb3d, str_dex(2, 0));
    let w = weapon(WeaponKind::Melee, vec![term("1d8", None)]);
    let (a, trace) = run(&e, &ctx(&w), NO_CRIT);
    assert!(a.critical.is_none());
    assert_eq!(a.hit.mean, r(13, 2));
    assert!(!trace.steps.iter().any(|s| matches!(s.effect, Effect::Damage(DamageEffect::Critical { .. }))));
}

/// 5e resistance halves rounding down (7 fire → 3), vulnerability doubles, immunity cancels;
/// underwater everything resists fire (seed 002 « Résistance au feu »).
#[test]
fn dnd5e_resistance_vulnerability_immunity() {
    let mut e = enc(RulesetId::Dnd5e2014, str_dex(0, 0));
    let mut w = weapon(WeaponKind::Melee, vec![term("7", Some("fire"))]);
    w.damage.as_mut().unwrap().ability_included = true;
    e.creatures[1].defences.resistances = vec!["Fire".into()];
    assert_eq!(run(&e, &ctx(&w), NO_CRIT).0.hit.outcomes, vec![(3, Ratio::ONE)]);
    e.creatures[1].defences.resistances.clear();
    e.environment.underwater = true;
    let (a, trace) = run(&e, &ctx(&w), NO_CRIT);
    assert_eq!(a.hit.outcomes, vec![(3, Ratio::ONE)]);
    assert!(trace.steps.iter().any(|s| s.rule == "dnd5e2014.underwater"));
    e.environment.underwater = false;
    // Vulnerable to fire: 2d6 fire doubled, 4..24, mean 14.
    let mut w2 = weapon(WeaponKind::Melee, vec![term("2d6", Some("fire"))]);
    w2.damage.as_mut().unwrap().ability_included = true;
    e.creatures[1].defences.vulnerabilities = vec!["fire".into()];
    let a = run(&e, &ctx(&w2), NO_CRIT).0;
    assert_eq!((a.hit.outcomes[0].0, a.hit.outcomes.last().unwrap().0, a.hit.mean), (4, 24, r(14, 1)));
    e.creatures[1].defences.immunities = vec!["fire".into()];
    assert_eq!(run(&e, &ctx(&w2), NO_CRIT).0.hit.outcomes, vec![(0, Ratio::ONE)]);
}

/// 5e off-hand (seed 004 « Combat à deux armes »): shortsword + dagger, Dex +3 → the dagger
/// deals 1d4 (not 1d4 + 3); with Str −1 a Str weapon deals 1d4 − 1 (0 on a 1).
#[test]
fn dnd5e_off_hand_adds_only_a_negative_modifier() {
    let e = enc(RulesetId::Dnd5e2014, str_dex(0, 3));
    let mut dagger = weapon(WeaponKind::Melee, vec![term("1d4", Some("piercing"))]);
    dagger.properties = vec![WeaponProperty::Finesse, WeaponProperty::Light];
    let mut c = ctx(&dagger);
    assert_eq!(run(&e, &c, NO_CRIT).0.hit.mean, r(11, 2));
    c.off_hand = true;
    assert_eq!(run(&e, &c, NO_CRIT).0.hit.mean, r(5, 2));
    let weak = enc(RulesetId::Dnd5e2014, str_dex(-1, 0));
    let club = weapon(WeaponKind::Melee, vec![term("1d4", None)]);
    let mut c = ctx(&club);
    c.off_hand = true;
    assert_eq!(
        run(&weak, &c, NO_CRIT).0.hit.outcomes,
        vec![(0, r(1, 4)), (1, r(1, 4)), (2, r(1, 4)), (3, r(1, 4))]
    );
}

/// 5e unarmed strike (RULES.md `dnd5e2014.unarmed-strike`): Str 14 (+2) → 3 damage.
#[test]
fn dnd5e_unarmed_strike() {
    let e = enc(RulesetId::Dnd5e2014, str_dex(2, 0));
    let w = Weapon {
        kind: Some(WeaponKind::Melee),
        damage: Some(Damage { source: DamageSource::Unarmed, ability_included: false }),
        ..Weapon::default()
    };
    let (a, trace) = run(&e, &ctx(&w), NO_CRIT);
    assert_eq!(a.hit.outcomes, vec![(3, Ratio::ONE)]);
    assert!(trace.steps.iter().any(|s| s.rule == "dnd5e2014.unarmed-strike"));
    // PF1 Medium: 1d3 + Str 2, nonlethal.
    let p = enc(RulesetId::Pf1e, str_dex(2, 0));
    let a = run(&p, &ctx(&w), NO_CRIT).0;
    assert_eq!((a.hit.mean, a.nonlethal), (r(4, 1), true));
}

/// PF1 DR 5/silver: 1d8 + 3 (4..11) less 5 → 0 (4, 5), 1..6; a silver weapon bypasses it.
/// Energy resistance fire 5 against 2d6 fire: P(0) = P(2d6 ≤ 5) = 10/36.
#[test]
fn pf1e_damage_reduction_and_energy_resistance() {
    let mut e = enc(RulesetId::Pf1e, str_dex(3, 0));
    e.creatures[1].defences.dr = Some(DamageReduction { amount: 5, bypassed_by: vec!["silver".into()] });
    let mut w = weapon(WeaponKind::Melee, vec![term("1d8", Some("slashing"))]);
    let a = run(&e, &ctx(&w), NO_CRIT).0;
    assert_eq!(p_eq(&a.hit, 0), r(2, 8));
    assert_eq!(a.hit.outcomes.last().unwrap().0, 6);
    w.materials = vec!["silver".into()];
    assert_eq!(run(&e, &ctx(&w), NO_CRIT).0.hit.mean, r(15, 2));
    e.creatures[1].defences.energy_resistance = vec![("fire".into(), 5)];
    let mut fire = weapon(WeaponKind::Melee, vec![term("2d6", Some("fire"))]);
    fire.damage.as_mut().unwrap().ability_included = true;
    assert_eq!(p_eq(&run(&e, &ctx(&fire), NO_CRIT).0.hit, 0), r(10, 36));
}

/// Given faces are consumed in term order; a critical rolls the doubled dice after.
#[test]
fn rolled_damage_uses_given_faces() {
    let e = enc(RulesetId::Dnd5e2014, str_dex(3, 0));
    let w = weapon(WeaponKind::Melee, vec![term("1d8", Some("slashing")), term("1d6", Some("fire"))]);
    let mut dice = GivenDice::new([(Purpose::Damage, vec![5, 8, 2, 6])]);
    let mut trace = Trace::default();
    let chances = Chances { hit: r(11, 20), critical: r(1, 20), rolled: Some((true, true)) };
    let a = damage(&e, &ctx(&w), chances, &mut dice, &mut trace).unwrap().unwrap();
    let rolled = a.rolled.unwrap();
    // 5 + 8 + 3 slashing, 2 + 6 fire.
    assert_eq!(rolled.total, 24);
    assert_eq!(rolled.faces, vec![5, 8, 2, 6]);
}

/// A critical hit's roll is bounded: 5e 10d100 doubled is 20 dice of 100 faces, 10^40 > 2^63.
#[test]
fn too_many_outcomes_are_refused() {
    let e = enc(RulesetId::Dnd5e2014, str_dex(0, 0));
    let w = weapon(WeaponKind::Melee, vec![term("10d100", None)]);
    let mut trace = Trace::default();
    let err = damage(&e, &ctx(&w), ALL_CRIT, &mut OddsOnly, &mut trace).unwrap_err();
    assert!(matches!(err, RulesError::Field { ref pointer, .. } if pointer == "/weapon/damage"));
    // 4d100 doubled: 8 dice, 10^16 outcomes < 2^63 ≈ 9.2 × 10^18: answered.
    let ok = weapon(WeaponKind::Melee, vec![term("4d100", None)]);
    assert!(damage(&e, &ctx(&ok), ALL_CRIT, &mut OddsOnly, &mut trace).is_ok());
}

/// Only a critical hit that can happen is bounded: 5d100 is 10^10 outcomes on a hit, 10^20 > 2^63
/// when a PF1 ×2 critical rolls it twice. An hb3d attack (no critical, RULES.md Q-13) and a
/// grapple's damage answer it; a PF1 attack that may be critical is refused.
#[test]
fn a_critical_that_cannot_happen_is_not_bounded() {
    let w = weapon(WeaponKind::Melee, vec![term("5d100", None)]);
    let no_crit = Chances { hit: r(1, 2), critical: Ratio::ZERO, rolled: None };
    for ruleset in [RulesetId::Hb3d, RulesetId::Pf1e] {
        let e = enc(ruleset, str_dex(0, 0));
        let a = damage(&e, &ctx(&w), no_crit, &mut OddsOnly, &mut Trace::default()).unwrap().unwrap();
        // 5 × 101/2 = 505/2 on a hit, half of it overall.
        assert_eq!(a.hit.mean, r(505, 2), "{ruleset:?}");
        assert_eq!(a.overall.mean, r(505, 4), "{ruleset:?}");
        assert!(a.critical.is_none(), "{ruleset:?}");
    }
    let e = enc(RulesetId::Pf1e, str_dex(0, 0));
    let may_crit = Chances { hit: r(1, 2), critical: r(1, 40), rolled: None };
    assert!(damage(&e, &ctx(&w), may_crit, &mut OddsOnly, &mut Trace::default()).is_err());
}
