//! Property tests for flanking: symmetric in the two flankers, unchanged by mirroring the
//! encounter, no panic on arbitrary encounters (creatures anywhere, any size or condition).

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{
    Condition, Creature, Encounter, Environment, Grid, Size, Wall, WallKind, Weapon, WeaponProperty,
};
use arbiter_rules::flanking::{FlankAnswer, flanking, opposite};
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use proptest::prelude::*;

const W: i32 = 10;

/// One generated creature: position, size, side, and what changes its threat.
#[derive(Debug, Clone)]
struct Gen {
    x: i32,
    y: i32,
    size: Size,
    side: u8,
    condition: Option<Condition>,
    unarmed: bool,
    feat: bool,
    reach_weapon: bool,
    reach_ft: Option<u32>,
}

fn gen_creature(coord: impl Strategy<Value = i32> + Clone) -> impl Strategy<Value = Gen> {
    (
        (coord.clone(), coord),
        prop::sample::select(vec![
            Size::Tiny,
            Size::Small,
            Size::Medium,
            Size::Medium,
            Size::Large,
            Size::Huge,
        ]),
        0u8..3,
        prop_oneof![
            6 => Just(None),
            1 => prop::sample::select(Condition::ALL.to_vec()).prop_map(Some),
        ],
        (prop::bool::weighted(0.2), any::<bool>(), prop::bool::weighted(0.2)),
        prop_oneof![6 => Just(None), 1 => prop::sample::select(vec![0u32, 5, 10, 15, 20]).prop_map(Some)],
    )
        .prop_map(|((x, y), size, side, condition, (unarmed, feat, reach_weapon), reach_ft)| Gen {
            x,
            y,
            size,
            side,
            condition,
            unarmed,
            feat,
            reach_weapon,
            reach_ft,
        })
}

fn build(ruleset: RulesetId, switches: (bool, bool), width: i32, height: i32, gens: &[Gen]) -> Encounter {
    let creatures = gens
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let mut c = Creature::new(
                &format!("c{i}"),
                ["red", "blue", "green"][g.side as usize % 3],
                Square::new(g.x, g.y),
                g.size,
            );
            c.conditions.extend(g.condition);
            c.unarmed = g.unarmed;
            if g.feat {
                c.feats.push("improved_unarmed_strike".into());
            }
            if g.reach_weapon {
                c.wielding = Some(Weapon { properties: vec![WeaponProperty::Reach], ..Weapon::default() });
            }
            c.reach_ft = g.reach_ft;
            c
        })
        .collect();
    let variants = Variants::resolve(
        ruleset.rules(),
        [("dnd5e.flanking.optional", switches.0), ("pf1e.reach.tenFootDiagonal", switches.1)],
    );
    Encounter {
        ruleset,
        variants,
        grid: Grid::open(width, height),
        environment: Environment::default(),
        creatures,
    }
}

fn answer(enc: &Encounter, attacker: usize, target: usize) -> FlankAnswer {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(enc, &mut budget).unwrap();
    flanking(&scene, attacker, target, &mut budget).unwrap()
}

/// The encounter mirrored east–west (`flip_x`) and/or north–south.
fn mirror(enc: &Encounter, flip_x: bool, flip_y: bool) -> Encounter {
    let mut m = enc.clone();
    for c in &mut m.creatures {
        let side = enc.space(c).side;
        if flip_x {
            c.at.x = enc.grid.width - c.at.x - side;
        }
        if flip_y {
            c.at.y = enc.grid.height - c.at.y - side;
        }
    }
    m
}

fn mirror_sq(enc: &Encounter, s: Square, flip_x: bool, flip_y: bool) -> Square {
    Square::new(
        if flip_x { enc.grid.width - 1 - s.x } else { s.x },
        if flip_y { enc.grid.height - 1 - s.y } else { s.y },
    )
}

fn setup() -> impl Strategy<Value = (RulesetId, (bool, bool), Vec<Gen>)> {
    (
        prop::sample::select(RulesetId::ALL.to_vec()),
        (prop::bool::weighted(0.7), any::<bool>()),
        // Crowded around the middle so that flanks are common; Huge creatures still fit.
        prop::collection::vec(gen_creature(2..W - 3), 3..8),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// If A flanks T with B then B flanks T with A (the line is the same segment).
    #[test]
    fn flanking_is_symmetric((ruleset, switches, gens) in setup()) {
        let enc = build(ruleset, switches, W, W, &gens);
        let n = enc.creatures.len();
        let answers: Vec<Vec<Option<FlankAnswer>>> = (0..n)
            .map(|a| (0..n).map(|t| (a != t).then(|| answer(&enc, a, t))).collect())
            .collect();
        for (a, row) in answers.iter().enumerate() {
            for (t, ans) in row.iter().enumerate() {
                let Some(ans) = ans else { continue };
                prop_assert_eq!(ans.flanked, !ans.flankers.is_empty());
                prop_assert!(ans.attack_bonus == 0 || ans.attack_bonus == 2, "never more than +2");
                for f in &ans.flankers {
                    let back = answers[f.creature][t].as_ref().unwrap();
                    prop_assert!(
                        back.flankers.iter().any(|g| g.creature == a),
                        "{} flanks {} with {} but not the other way round", a, t, f.creature
                    );
                    prop_assert!(opposite(f.helper_square, f.attacker_square, &enc.space(&enc.creatures[t])).is_some());
                }
            }
        }
    }

    /// Mirroring the whole encounter keeps the answer: who flanks, with whom, and the
    /// threatened squares, mirrored.
    #[test]
    fn mirroring_keeps_the_answer((ruleset, switches, gens) in setup(), flip_x in any::<bool>(), flip_y in any::<bool>()) {
        let enc = build(ruleset, switches, W, W, &gens);
        let m = mirror(&enc, flip_x, flip_y);
        let n = enc.creatures.len();
        for a in 0..n {
            for t in 0..n {
                if a == t {
                    continue;
                }
                let (x, y) = (answer(&enc, a, t), answer(&m, a, t));
                prop_assert_eq!(x.flanked, y.flanked);
                prop_assert_eq!((x.attack_bonus, x.advantage, x.in_force), (y.attack_bonus, y.advantage, y.in_force));
                let ids = |ans: &FlankAnswer| ans.flankers.iter().map(|f| f.creature).collect::<Vec<_>>();
                prop_assert_eq!(ids(&x), ids(&y));
                for (f, g) in x.flankers.iter().zip(&y.flankers) {
                    // The mirrored pair of squares qualifies through the same edges; the pick
                    // itself may differ among equally short lines.
                    let (ma, mh) = (mirror_sq(&enc, f.attacker_square, flip_x, flip_y), mirror_sq(&enc, f.helper_square, flip_x, flip_y));
                    prop_assert_eq!(opposite(ma, mh, &m.space(&m.creatures[t])), Some(f.edges));
                    prop_assert!(opposite(g.attacker_square, g.helper_square, &m.space(&m.creatures[t])).is_some());
                }
                prop_assert_eq!(x.threatened.len(), y.threatened.len());
                for (p, q) in x.threatened.iter().zip(&y.threatened) {
                    prop_assert_eq!(p.creature, q.creature);
                    prop_assert_eq!(p.threatens_target, q.threatens_target);
                    let mut mirrored: Vec<Square> = p.squares.iter().map(|s| mirror_sq(&enc, *s, flip_x, flip_y)).collect();
                    mirrored.sort();
                    let mut got = q.squares.clone();
                    got.sort();
                    prop_assert_eq!(mirrored, got);
                }
            }
        }
    }

    /// Any encounter answers (Ok or an error), never panics: creatures anywhere, even off the
    /// map or at the ends of the coordinate range, any size, condition or reach, odd grids.
    #[test]
    fn no_panic_on_arbitrary_encounters(
        ruleset in prop::sample::select(RulesetId::ALL.to_vec()),
        switches in (any::<bool>(), any::<bool>()),
        (width, height) in (-3i32..40, -3i32..40),
        gens in prop::collection::vec(
            prop_oneof![
                3 => gen_creature(-5..45),
                1 => gen_creature(i32::MIN..i32::MAX),
                1 => gen_creature(prop::sample::select(vec![i32::MIN, i32::MIN + 1, -1, i32::MAX - 1, i32::MAX])),
            ],
            2..8,
        ),
        sizes in prop::collection::vec(prop::sample::select(Size::ALL.to_vec()), 8),
        huge_reach in prop::option::of(any::<u32>()),
        walls in prop::collection::vec((-2i32..42, -2i32..42, -2i32..42, -2i32..42), 0..3),
        budget in prop_oneof![Just(u64::MAX), 0u64..400],
        pair in (0usize..8, 0usize..8),
    ) {
        let mut enc = build(ruleset, switches, width, height, &gens);
        for (c, s) in enc.creatures.iter_mut().zip(&sizes) {
            c.size = *s;
        }
        if let Some(r) = huge_reach {
            enc.creatures[0].reach_ft = Some(r % 2000);
            enc.creatures[1].wielding = Some(Weapon { reach_ft: Some(r % 3000), ..Weapon::default() });
        }
        enc.grid.walls = walls
            .iter()
            .map(|(a, b, c, d)| Wall { from: Point::lattice(*a, *b), to: Point::lattice(*c, *d), kind: WallKind::Solid })
            .collect();
        let n = enc.creatures.len();
        let mut budget = Budget::new(budget);
        if let Ok(scene) = Scene::new(&enc, &mut budget) {
            let (a, t) = (pair.0 % (n + 1), pair.1 % (n + 1));
            if let Ok(ans) = flanking(&scene, a, t, &mut budget) {
                prop_assert!(a != t && a < n && t < n);
                prop_assert_eq!(ans.flanked, !ans.flankers.is_empty());
                for th in &ans.threatened {
                    for s in &th.squares {
                        prop_assert!(enc.grid.contains(*s), "threatened squares lie inside the grid");
                        prop_assert!(!enc.space(&enc.creatures[th.creature]).contains(*s));
                    }
                }
            }
        }
    }
}
