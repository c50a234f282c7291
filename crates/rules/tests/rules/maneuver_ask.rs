//! `maneuver::ask`, the whole maneuver question, where it decides: a charge goes through the
//! charge, a grapple's follow-up damage comes after the check and rolls nothing on a failure
//! or an illegal maneuver. The numbers are the fixtures' (`tests/fixtures/damage/grapple.json`,
//! `tests/fixtures/maneuver/charge.json`), worked out by hand there.

use arbiter_rules::budget::Budget;
use arbiter_rules::dice::{GivenDice, Purpose, Ratio};
use arbiter_rules::encounter::{Condition, Creature, Encounter, Environment, Grid, Size};
use arbiter_rules::grid::Square;
use arbiter_rules::maneuver::{
    Ask, Asked, ChargeOptions, GrappleDamage, Illegal, Kind, Options, OutcomeBand, ask,
};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use arbiter_rules::weapon_damage::{Damage, DamageSource};

fn r(n: u128, d: u128) -> Ratio {
    Ratio::new(n, d)
}

/// A pf1e grid `w` × `h` with A (CMB 8, Str +3) at `a` and T (CMD `cmd`) at `t`.
fn pf1e(w: i32, h: i32, a: Square, t: Square, cmd: i32, grappled: bool) -> Encounter {
    let mut ca = Creature::new("A", "party", a, Size::Medium);
    ca.stats.cmb = Some(8);
    ca.stats.str_mod = Some(3);
    let mut ct = Creature::new("T", "monsters", t, Size::Medium);
    ct.stats.cmd = Some(cmd);
    ct.stats.hp = Some(5);
    if grappled {
        ca.conditions.push(Condition::Grappled);
        ct.conditions.push(Condition::Grappled);
    }
    let ruleset = RulesetId::Pf1e;
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), []),
        grid: Grid::open(w, h),
        environment: Environment::default(),
        creatures: vec![ca, ct],
    }
}

/// A maintained grapple of T by A dealing A's unarmed strike.
fn maintained_grapple() -> Ask {
    Ask {
        attacker: 0,
        target: 1,
        kind: Kind::Grapple,
        options: Options { maintained: true, ..Options::default() },
        charge: ChargeOptions::default(),
        grapple_move: None,
        damage: Some(GrappleDamage {
            damage: Damage { source: DamageSource::Unarmed, ability_included: false },
            nonlethal: false,
        }),
    }
}

fn asked(enc: &Encounter, q: &Ask, dice: &mut GivenDice) -> Asked {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(enc, &mut budget).unwrap();
    ask(&scene, q, dice, &mut budget).unwrap()
}

fn given(check: &[i64], damage: &[i64]) -> GivenDice {
    GivenDice::new([(Purpose::Check, check.to_vec()), (Purpose::Damage, damage.to_vec())])
}

fn keys(a: &Asked) -> Vec<(&str, u32)> {
    a.maneuver.rolls.iter().map(|x| (x.purpose.key(), x.face)).collect()
}

/// grapple.json, first case: CMB 8 + 5 (maintained) vs CMD 18 succeeds on d20 ≥ 5 (4/5);
/// unarmed 1d3 + Str 3 = 4, 5, 6, mean 5, overall mean 4/5 × 5 = 4; d20 10 then d3 2 deal 5.
#[test]
fn a_successful_maintained_grapple_deals_its_damage_after_the_check() {
    let enc = pf1e(4, 1, Square::new(0, 0), Square::new(1, 0), 18, true);
    let mut dice = given(&[10], &[2]);
    let a = asked(&enc, &maintained_grapple(), &mut dice);
    assert!(a.maneuver.legal);
    assert_eq!(a.maneuver.odds.success, r(4, 5));
    assert_eq!(a.maneuver.success, Some(true));
    let d = a.damage.as_ref().expect("the follow-up damage");
    assert_eq!(d.expression, "1d3+3 bludgeoning");
    assert_eq!(d.hit.mean, r(5, 1));
    assert_eq!(d.overall.mean, r(4, 1));
    assert_eq!(d.overall.p_drop, Some(r(8, 15)));
    assert_eq!(d.rolled.as_ref().map(|x| (x.faces.clone(), x.total)), Some((vec![2], 5)));
    assert_eq!(keys(&a), [("check", 10), ("damage", 2)]);
    assert!(dice.unused().is_empty());
}

/// The same grapple with d20 4: 4 + 13 = 17 < CMD 18 fails, so no damage die is rolled (the
/// given one stays unused); the distributions still answer (overall mean 4).
#[test]
fn a_failed_check_rolls_no_damage_dice() {
    let enc = pf1e(4, 1, Square::new(0, 0), Square::new(1, 0), 18, true);
    let mut dice = given(&[4], &[2]);
    let a = asked(&enc, &maintained_grapple(), &mut dice);
    assert_eq!(a.maneuver.success, Some(false));
    let d = a.damage.as_ref().expect("the distributions");
    assert_eq!(d.rolled, None);
    assert_eq!(d.overall.mean, r(4, 1));
    assert_eq!(keys(&a), [("check", 4)]);
    assert_eq!(dice.unused(), [(Purpose::Damage, 1)]);
}

/// A target out of reach (2 squares away, PF1 reach 5 ft): the grapple is illegal, so no
/// damage is asked of the dice at all.
#[test]
fn an_illegal_grapple_deals_no_damage() {
    let enc = pf1e(4, 1, Square::new(0, 0), Square::new(3, 0), 18, false);
    let mut dice = given(&[10], &[2]);
    let a = asked(&enc, &maintained_grapple(), &mut dice);
    assert!(!a.maneuver.legal);
    assert_eq!(a.maneuver.illegal, Some(Illegal::Reach));
    assert_eq!(a.damage, None);
    assert!(a.maneuver.rolls.is_empty());
}

/// charge.json « charge then bull rush »: A at (0,2) charges T at (6,2) along row 2, ending
/// on (5,2); the bull rush takes +2 once (CMB 8 + 2 = 10 vs CMD 14, 17/20), d20 9 → 19,
/// margin 5 → pushed 10 ft. `Kind::Charge` must go through the charge, not the resolution.
#[test]
fn a_charge_goes_through_the_charge() {
    let enc = pf1e(8, 5, Square::new(0, 2), Square::new(6, 2), 14, false);
    let path = (1..=5).map(|x| Square::new(x, 2)).collect();
    let q = Ask {
        kind: Kind::Charge,
        options: Options::default(),
        charge: ChargeOptions { path: Some(path), then: Some(Kind::BullRush), ..ChargeOptions::default() },
        damage: None,
        ..maintained_grapple()
    };
    let mut dice = given(&[9], &[]);
    let a = asked(&enc, &q, &mut dice);
    let m = &a.maneuver;
    let c = m.charge.as_ref().expect("a charge answer");
    assert!(c.legal && m.legal);
    assert_eq!((c.then, c.end), (Some(Kind::BullRush), Some(Square::new(5, 2))));
    assert_eq!((m.bonus, m.dc, m.total, m.margin), (10, Some(14), Some(19), Some(5)));
    assert_eq!(m.band, Some(OutcomeBand::Pushed(10)));
    assert_eq!(m.odds.success, r(17, 20));
    assert_eq!(a.damage, None);
    assert_eq!(keys(&a), [("check", 9)]);
}
