//! Property tests for the range question: it answers (never panics) whatever it is handed, and
//! distances behave like distances.

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{
    Condition, Creature, Encounter, Environment, Grid, Size, Weapon, WeaponKind, WeaponProperty,
};
use arbiter_rules::error::RulesError;
use arbiter_rules::grid::Square;
use arbiter_rules::range::{RangeAnswer, range as range_scene};
use arbiter_rules::scene::Scene;

/// The range question on a freshly prepared scene.
fn range(enc: &Encounter, a: usize, t: usize, w: &Weapon) -> Result<RangeAnswer, RulesError> {
    let mut budget = Budget::new(1_000_000);
    let scene = Scene::new(enc, &mut budget)?;
    range_scene(&scene, a, t, w, &mut budget)
}
use arbiter_rules::ruleset::{RulesetId, Variants};
use proptest::prelude::*;

fn ruleset() -> impl Strategy<Value = RulesetId> {
    prop::sample::select(RulesetId::ALL.to_vec())
}

fn creature(i: usize) -> impl Strategy<Value = Creature> {
    (
        prop_oneof![4 => -5i32..60, 1 => any::<i32>()],
        prop_oneof![4 => -5i32..60, 1 => any::<i32>()],
        prop::sample::select(Size::ALL.to_vec()),
        prop::option::of(0u32..40),
        prop::collection::vec(prop::sample::select(Condition::ALL.to_vec()), 0..3),
        0u8..4,
        any::<bool>(),
        prop::option::of(weapon()),
    )
        .prop_map(move |(x, y, size, reach, conditions, side, unarmed, wielding)| {
            let mut c = Creature::new(&format!("c{i}"), &format!("s{side}"), Square::new(x, y), size);
            c.reach_ft = reach.map(|r| r * 5);
            c.conditions = conditions;
            c.unarmed = unarmed;
            c.wielding = wielding;
            c
        })
}

fn weapon() -> impl Strategy<Value = Weapon> {
    (
        prop::option::of(prop::sample::select(vec![
            WeaponKind::Melee,
            WeaponKind::Ranged,
            WeaponKind::Thrown,
        ])),
        prop::option::of(0u32..100),
        prop::option::of(0u32..1000),
        prop::option::of(0u32..1000),
        prop::option::of(0u32..200),
        prop::option::of(0u32..20),
        prop::collection::vec(prop::sample::select(WeaponProperty::ALL.to_vec()), 0..3),
    )
        .prop_map(|(kind, reach_ft, normal_ft, long_ft, increment_ft, max_increments, properties)| {
            Weapon {
                kind,
                reach_ft,
                normal_ft,
                long_ft,
                increment_ft,
                max_increments,
                properties,
                ..Weapon::default()
            }
        })
}

fn encounter() -> impl Strategy<Value = Encounter> {
    (ruleset(), 1i32..60, 1i32..60, prop::collection::vec(any::<bool>(), 4), 0usize..6).prop_flat_map(
        |(ruleset, w, h, switches, n)| {
            let creatures: Vec<_> = (0..n).map(creature).collect();
            creatures.prop_map(move |creatures| {
                let rules = ruleset.rules();
                let variants = Variants::resolve(
                    rules,
                    rules.variants.iter().zip(&switches).map(|(v, on)| (v.key, *on)),
                );
                Encounter {
                    ruleset,
                    variants,
                    grid: Grid::open(w, h),
                    environment: Environment::default(),
                    creatures,
                }
            })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Any encounter, any indices (even out of bounds), any weapon: an answer or an error.
    #[test]
    fn range_never_panics(enc in encounter(), a in 0usize..8, t in 0usize..8, w in weapon()) {
        let _ = range(&enc, a, t, &w);
    }

    /// Distance is symmetric and does not change when the whole encounter moves.
    #[test]
    fn distance_symmetric_and_translation_invariant(
        rs in ruleset(), ax in 0i32..30, ay in 0i32..30, tx in 0i32..30, ty in 0i32..30,
        asz in prop::sample::select(vec![Size::Medium, Size::Large, Size::Huge]),
        dx in 0i32..10, dy in 0i32..10,
    ) {
        let build = |off: (i32, i32)| Encounter {
            ruleset: rs,
            variants: Variants::resolve(rs.rules(), []),
            grid: Grid::open(60, 60),
            environment: Environment::default(),
            creatures: vec![
                Creature::new("a", "x", Square::new(ax + off.0, ay + off.1), asz),
                Creature::new("t", "y", Square::new(tx + off.0, ty + off.1), Size::Medium),
            ],
        };
        let w = Weapon { kind: Some(WeaponKind::Ranged), normal_ft: Some(100), long_ft: Some(400), increment_ft: Some(100), ..Weapon::default() };
        let e = build((0, 0));
        let there = range(&e, 0, 1, &w).unwrap();
        let back = range(&e, 1, 0, &w).unwrap();
        prop_assert_eq!(there.distance_ft, back.distance_ft);
        let moved = range(&build((dx, dy)), 0, 1, &w).unwrap();
        prop_assert_eq!(there.distance_ft, moved.distance_ft);
        prop_assert_eq!(there.band, moved.band);
    }

    /// Moving the target one square farther along a row never improves the range modifier.
    #[test]
    fn range_penalty_monotone(rs in prop::sample::select(vec![RulesetId::Pf1e, RulesetId::Sf1e, RulesetId::Hb3d]), x in 1i32..250, inc in 1u32..120) {
        let at = |tx: i32| Encounter {
            ruleset: rs,
            variants: Variants::resolve(rs.rules(), []),
            grid: Grid::open(300, 1),
            environment: Environment::default(),
            creatures: vec![Creature::new("a", "x", Square::new(0, 0), Size::Medium), Creature::new("t", "y", Square::new(tx, 0), Size::Medium)],
        };
        let w = Weapon { kind: Some(WeaponKind::Ranged), increment_ft: Some(inc), ..Weapon::default() };
        let near = range(&at(x), 0, 1, &w).unwrap();
        let far = range(&at(x + 1), 0, 1, &w).unwrap();
        prop_assert!(far.range_modifier <= near.range_modifier || !far.allowed);
        prop_assert!(near.allowed || !far.allowed);
    }
}
