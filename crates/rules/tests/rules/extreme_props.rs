//! No question panics on extreme numbers: every stat of every creature, and every range,
//! speed, reach, elevation and light radius, drawn from `i32::MIN`, `i32::MAX`, ±1000, 0 and
//! arbitrary values (the same for the unsigned fields), asked of every question of the crate
//! in every ruleset. `Ok` or `Err` are both fine; an overflow panic (release builds check
//! overflow) is not.

use crate::common::XorShift;

use arbiter_rules::analyze::{AnalyzeQuestion, AttackChoice, analyze};
use arbiter_rules::attack::{Situational, attack};
use arbiter_rules::budget::Budget;
use arbiter_rules::cover::{AttackKind, cover};
use arbiter_rules::damage::{Damage, DamageSource, Term};
use arbiter_rules::dice::OddsOnly;
use arbiter_rules::encounter::{
    ArmorClass, Condition, Creature, Encounter, Environment, Grid, Light, LightSource, Saves, Senses, Size,
    Stats, Terrain, Wall, WallKind, Weapon, WeaponKind, WeaponProperty,
};
use arbiter_rules::flanking::flanking;
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::initiative::{InitiativeQuestion, initiative};
use arbiter_rules::maneuver::charge::{ChargeOptions, charge};
use arbiter_rules::maneuver::{Kind, Options, ShoveChoice, maneuver};
use arbiter_rules::movement::{Mode, MoveOptions, movement};
use arbiter_rules::range::range;
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use arbiter_rules::vision::{Attack, concealment, concealment_for_attack};
use proptest::prelude::*;

fn int() -> impl Strategy<Value = i32> {
    prop_oneof![
        3 => Just(i32::MIN),
        3 => Just(i32::MAX),
        2 => Just(1000),
        2 => Just(-1000),
        1 => Just(0),
        2 => any::<i32>(),
        2 => -30i32..30,
    ]
}

fn nat() -> impl Strategy<Value = u32> {
    prop_oneof![3 => Just(u32::MAX), 2 => Just(1000), 1 => Just(0), 2 => any::<u32>(), 2 => 0u32..60]
}

/// Mostly on the small map, sometimes far off it.
fn coord() -> impl Strategy<Value = i32> {
    prop_oneof![8 => 0i32..8, 1 => int()]
}

fn stat() -> impl Strategy<Value = Option<i32>> {
    prop_oneof![1 => Just(None), 6 => int().prop_map(Some)]
}

// Strategies are boxed: the nested tuples' value trees otherwise overflow a debug test
// thread's stack.
fn stats() -> BoxedStrategy<Stats> {
    (prop::collection::vec(stat(), 20), prop::collection::vec(stat(), 9))
        .prop_map(|(s, v)| Stats {
            ac: s[0],
            eac: s[1],
            kac: s[2],
            def: s[3],
            attack_bonus: s[4],
            str_mod: s[5],
            dex_mod: s[6],
            con_mod: s[7],
            int_mod: s[8],
            wis_mod: s[9],
            cha_mod: s[10],
            proficiency_bonus: s[11],
            athletics: s[12],
            acrobatics: s[13],
            escape_artist: s[14],
            cmb: s[15],
            hp: s[16],
            cmd: s[16],
            bab: s[17],
            initiative_bonus: s[18],
            saves: Saves {
                str: v[0],
                dex: v[1],
                con: v[2],
                int: v[3],
                wis: v[4],
                cha: v[5],
                fort: v[6],
                reflex: v[7],
                will: v[8],
            },
        })
        .boxed()
}

fn weapon() -> BoxedStrategy<Weapon> {
    (
        prop::option::of(prop::sample::select(vec![
            WeaponKind::Melee,
            WeaponKind::Ranged,
            WeaponKind::Thrown,
        ])),
        prop::collection::vec(prop::option::of(nat()), 6),
        prop::collection::vec(prop::sample::select(WeaponProperty::ALL.to_vec()), 0..4),
        stat(),
        prop::option::of(prop::sample::select(vec![ArmorClass::Eac, ArmorClass::Kac])),
    )
        .prop_map(|(kind, n, properties, attack_bonus, targets)| Weapon {
            kind,
            reach_ft: n[0],
            normal_ft: n[1],
            long_ft: n[2],
            increment_ft: n[3],
            max_increments: n[4],
            properties,
            damage_type: None,
            attack_bonus,
            name: None,
            crit_range: n[5],
            targets,
            // A damage drawn from the same numbers, so that every question also works out
            // damage (never a panic, whatever the dice).
            damage: n[0].map(|x| Damage {
                source: if x % 7 == 0 {
                    DamageSource::Unarmed
                } else {
                    DamageSource::Terms(vec![Term {
                        dice: vec![(x % 6 + 1, x % 13 + 1)],
                        bonus: i64::from(x % 9) - 4,
                        damage_type: Some(["fire", "slashing"][(x % 2) as usize].to_owned()),
                        extra: x % 3 == 0,
                    }])
                },
                ability_included: x % 5 == 0,
            }),
            crit_multiplier: n[1].filter(|x| x % 4 == 0).map(|x| x % 3 + 2),
            ..Weapon::default()
        })
        .boxed()
}

fn creature(i: usize) -> BoxedStrategy<Creature> {
    (
        (coord(), coord(), prop::sample::select(Size::ALL.to_vec()), 0usize..3),
        prop::collection::vec(prop::option::of(nat()), 5),
        (any::<bool>(), int(), any::<bool>()),
        prop::collection::vec(
            prop::sample::select(vec!["combat_reflexes", "improved_unarmed_strike", "precise_shot"]),
            0..2,
        ),
        prop::option::of(weapon()),
        (prop::collection::vec(nat(), 4), any::<bool>(), any::<bool>()),
        prop::collection::vec(prop::sample::select(Condition::ALL.to_vec()), 0..4),
        stats(),
    )
        .prop_map(
            move |(
                (x, y, size, side),
                n,
                (flying, elevation_ft, unarmed),
                feats,
                wielding,
                (s, lowlight, seeinv),
                conditions,
                stats,
            )| {
                let mut c = Creature::new(&format!("c{i}"), ["a", "b", "c"][side], Square::new(x, y), size);
                c.reach_ft = n[0];
                c.speed_ft = n[1];
                c.swim_speed_ft = n[2];
                c.legs = n[3];
                c.hands_free = n[4];
                c.flying = flying;
                c.elevation_ft = elevation_ft;
                c.unarmed = unarmed;
                c.feats = feats.into_iter().map(str::to_owned).collect();
                c.wielding = wielding;
                c.senses = Senses {
                    darkvision_ft: s[0],
                    low_light_vision: lowlight,
                    blindsight_ft: s[1],
                    tremorsense_ft: s[2],
                    truesight_ft: s[3],
                    see_invisibility: seeinv,
                };
                c.conditions = conditions;
                c.stats = stats;
                c
            },
        )
        .boxed()
}

fn encounter() -> BoxedStrategy<Encounter> {
    (
        prop::sample::select(RulesetId::ALL.to_vec()),
        prop::collection::vec(any::<bool>(), 8),
        (4i32..10, 4i32..10),
        prop::collection::vec(
            (
                0usize..100,
                prop::sample::select(vec![
                    Terrain::SOLID,
                    Terrain::LOW,
                    Terrain::CONCEALING,
                    Terrain::OPAQUE,
                    Terrain::DIFFICULT,
                    Terrain::WATER,
                ]),
            ),
            0..6,
        ),
        prop::collection::vec(
            (0i32..10, 0i32..10, 0i32..10, 0i32..10, prop::sample::select(WallKind::ALL.to_vec())),
            0..3,
        ),
        (
            prop::sample::select(vec![Light::Bright, Light::Dim, Light::Darkness]),
            prop::collection::vec((0i32..10, 0i32..10, nat(), nat()), 0..3),
        ),
        (creature(0), creature(1), creature(2), creature(3)),
        prop::option::of(0usize..6),
    )
        .prop_map(|(ruleset, switches, (w, h), terrain, walls, (light, lights), (a, b, c, d), mounted)| {
            let keys: Vec<&str> = ruleset.rules().variants.iter().map(|v| v.key).collect();
            let variants =
                Variants::resolve(ruleset.rules(), keys.iter().zip(&switches).map(|(k, on)| (*k, *on)));
            let mut grid = Grid::open(w, h);
            grid.light = light;
            grid.terrain = vec![Terrain::OPEN; (w * h) as usize];
            for (i, t) in terrain {
                if let Some(slot) = grid.terrain.get_mut(i) {
                    *slot = t;
                }
            }
            for (x1, y1, x2, y2, kind) in walls {
                grid.walls.push(Wall { from: Point::lattice(x1, y1), to: Point::lattice(x2, y2), kind });
            }
            for (x, y, bright_ft, dim_ft) in lights {
                grid.lights.push(LightSource { at: Point::lattice(x, y), bright_ft, dim_ft });
            }
            let mut creatures = vec![a, b, c, d];
            creatures[0].mounted_on = mounted.filter(|m| *m != 0);
            Encounter { ruleset, variants, grid, environment: Environment::default(), creatures }
        })
        .boxed()
}

fn budget() -> Budget {
    Budget::new(2_000_000)
}

/// Issue 13: an answer narrates each decision once (no two steps with the same effect).
macro_rules! narrated_once {
    ($answer:expr) => {
        if let Ok(answer) = &$answer {
            prop_assert_eq!(crate::common::repeated_step(&answer.trace), None);
        }
    };
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn no_question_panics_on_extreme_numbers(
        enc in encounter(),
        w in weapon(),
        kind in prop::sample::select(Kind::ALL.to_vec()),
        mode in prop::sample::select(Mode::ALL.to_vec()),
        flags in prop::collection::vec(any::<bool>(), 12),
        aoo_damage in nat(),
        path in prop::collection::vec((coord(), coord()), 1..5),
        seed in 1u64..u64::MAX,
    ) {
        let mut b = budget();
        let Ok(scene) = Scene::new(&enc, &mut b) else { return Ok(()) };
        let (a, t) = (0, 1);
        narrated_once!(range(&scene, a, t, &w, &mut budget()));
        for kind in [AttackKind::Melee, AttackKind::Ranged, AttackKind::Area { origin: Point::lattice(2, 2), spread: flags[0] }] {
            narrated_once!(cover(&scene, a, t, kind, Some(&w), &mut budget()));
            narrated_once!(cover(&scene, a, t, kind, None, &mut budget()));
        }
        for sight in [Attack::Melee, Attack::Ranged] {
            narrated_once!(concealment(&scene, a, t, sight, &mut budget()));
            narrated_once!(concealment_for_attack(&scene, a, t, sight, &mut budget()));
        }
        narrated_once!(flanking(&scene, a, t, &mut budget()));
        let situational = Situational {
            charging: flags[1],
            off_hand: flags[2],
            other_weapon: flags[3].then(|| w.clone()),
            ignores_half_and_three_quarters_cover: flags[4],
            ignores_cover_except_total: flags[5],
            braced_against_charge: flags[0],
        };
        narrated_once!(attack(&scene, a, t, &w, &situational, &mut OddsOnly, &mut budget()));
        narrated_once!(attack(&scene, a, t, &w, &situational, &mut XorShift(seed), &mut budget()));
        let options = Options {
            improved: flags[6],
            shove: if flags[7] { ShoveChoice::Prone } else { ShoveChoice::Push },
            target_avoids: flags[8],
            maintained: flags[9],
            escape_artist: flags[10],
            charging: flags[11],
            aoo_damage,
        };
        narrated_once!(maneuver(&scene, a, t, kind, &options, &mut OddsOnly, &mut budget()));
        narrated_once!(maneuver(&scene, a, t, kind, &options, &mut XorShift(seed), &mut budget()));
        let squares: Vec<Square> = path.iter().map(|&(x, y)| Square::new(x, y)).collect();
        for then in [None, Some(Kind::BullRush), Some(Kind::Overrun)] {
            for p in [None, Some(squares.clone())] {
                let q = ChargeOptions { path: p, then, standard_only: flags[0] };
                narrated_once!(charge(&scene, a, t, &q, &options, &mut OddsOnly, &mut budget()));
                narrated_once!(charge(&scene, a, t, &q, &options, &mut XorShift(seed), &mut budget()));
            }
        }
        let mo = MoveOptions {
            stand_up: flags[1],
            dash: flags[2],
            short_step: flags[3],
            dragging: flags[4].then_some(2),
            target: Some(t),
            mount: flags[5].then_some(3),
        };
        narrated_once!(movement(&scene, a, &squares, mode, &mo, &mut budget()));
        let q = InitiativeQuestion {
            creatures: None,
            surprised: if flags[6] { vec![1, 2] } else { Vec::new() },
            groups: if flags[7] { vec![vec![2, 3]] } else { Vec::new() },
        };
        narrated_once!(initiative(&enc, &q, &mut OddsOnly, &mut budget()));
        narrated_once!(initiative(&enc, &q, &mut XorShift(seed), &mut budget()));
        for attack in [AttackChoice::Auto, AttackChoice::Melee, AttackChoice::Ranged] {
            let q = AnalyzeQuestion { attackers: None, attack, traces: flags[8] };
            let analysis = analyze(&scene, &q, &mut budget());
            // The summary is one step per rule, each with its count of pairs: a rule once.
            for a in analysis.iter() {
                let rules: Vec<_> = a.trace.steps.iter().map(|s| (s.rule, s.variant)).collect();
                prop_assert!(rules.iter().enumerate().all(|(i, r)| !rules[..i].contains(r)), "{:?}", rules);
            }
            for pair in analysis.iter().flat_map(|a| &a.pairs) {
                prop_assert_eq!(crate::common::repeated_step(&pair.cover.trace), None);
                prop_assert_eq!(crate::common::repeated_step(&pair.concealment.trace), None);
                if let Some(f) = &pair.flanking {
                    prop_assert_eq!(crate::common::repeated_step(&f.trace), None);
                }
            }
        }
    }
}
