#![allow(missing_docs)] // criterion_group! generates undocumented items.
//! Rules-crate benchmarks for the PRODUCT.md / issue targets:
//! - one cover query, two Medium creatures 30 squares apart, 100×100 map, 200 walls: ≤ 5 µs
//!   (and issue 11: ≤ 1.5 µs), also with low obstacles beside the line so that it is walked;
//! - Large against Gargantuan on the same map: ≤ 50 µs;
//! - a range question.
//!
//! `cargo bench -p arbiter-rules --bench rules`

use std::hint::black_box;

use arbiter_rules::analyze::{AnalyzeQuestion, analyze};
use arbiter_rules::attack::{Situational, attack};
use arbiter_rules::budget::Budget;
use arbiter_rules::cover::{AttackKind, cover};
use arbiter_rules::dice::OddsOnly;
use arbiter_rules::encounter::{
    Creature, Encounter, Environment, Grid, Size, Terrain, Wall, WallKind, Weapon, WeaponKind,
};
use arbiter_rules::grid::{Coord, Point, Square};
use arbiter_rules::range::range;
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use criterion::{Criterion, criterion_group, criterion_main};

/// A deterministic pseudo-random generator (no dependency, same map every run).
mod common;

use common::{Lcg, analyze_scene};

/// 100×100 map, 200 short walls scattered away from the row the creatures stand on, a few
/// solid and low squares, and the two creatures 30 squares apart.
fn encounter(ruleset: RulesetId, a: Size, t: Size) -> Encounter {
    let mut rng = Lcg(7);
    let mut grid = Grid::open(100, 100);
    grid.terrain = vec![Terrain::OPEN; 100 * 100];
    for _ in 0..300 {
        let (x, y) = (rng.next(100) as usize, rng.next(100) as usize);
        if !(44..=56).contains(&y) {
            grid.terrain[y * 100 + x] = if rng.next(2) == 0 { Terrain::SOLID } else { Terrain::LOW };
        }
    }
    for _ in 0..200 {
        let (x, y) = (rng.next(98) as f64, rng.next(100) as f64);
        let y = if (40.0..60.0).contains(&y) { y - 20.0 } else { y };
        let len = 1.0 + rng.next(4) as f64;
        let horizontal = rng.next(2) == 0;
        let p = |x: f64, y: f64| Point { x: Coord::from_f64(x).unwrap(), y: Coord::from_f64(y).unwrap() };
        let to = if horizontal { p((x + len).min(100.0), y) } else { p(x, (y + len).min(100.0)) };
        grid.walls.push(Wall { from: p(x, y), to, kind: WallKind::Solid });
    }
    let creatures = vec![
        Creature::new("a", "party", Square::new(20, 48), a),
        Creature::new("t", "monsters", Square::new(50, 48), t),
        Creature::new("o", "monsters", Square::new(35, 52), Size::Medium),
    ];
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), []),
        grid,
        environment: Environment::default(),
        creatures,
    }
}

/// One ranged cover question, creature 0 against creature 1, on a scene built once (the
/// remembered sight answers forgotten before each, so every one is asked cold).
fn cover_query(c: &mut Criterion, name: &str, enc: &Encounter) {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(enc, &mut budget).unwrap();
    c.bench_function(name, |b| {
        b.iter(|| {
            scene.forget_sight();
            let mut budget = Budget::unlimited();
            black_box(cover(&scene, 0, 1, AttackKind::Ranged, None, &mut budget).unwrap())
        })
    });
}

fn bench(c: &mut Criterion) {
    for ruleset in RulesetId::ALL {
        let enc = encounter(ruleset, Size::Medium, Size::Medium);
        cover_query(c, &format!("cover/{}/medium-medium-30sq/query", ruleset.id()), &enc);
        c.bench_function(&format!("cover/{}/medium-medium-30sq/with-scene", ruleset.id()), |b| {
            b.iter(|| {
                let mut budget = Budget::unlimited();
                let scene = Scene::new(black_box(&enc), &mut budget).unwrap();
                black_box(cover(&scene, 0, 1, AttackKind::Ranged, None, &mut budget).unwrap())
            })
        });
        // The same question with low obstacles beside the line (touching no line, blocking
        // nothing): the census no longer proves the lines clear, so every line is walked.
        let mut walked = encounter(ruleset, Size::Medium, Size::Medium);
        for x in [25, 30, 35, 40, 45] {
            walked.grid.terrain[47 * 100 + x] = Terrain::LOW;
        }
        cover_query(c, &format!("cover/{}/medium-medium-30sq-walked/query", ruleset.id()), &walked);
        let big = encounter(ruleset, Size::Large, Size::Gargantuan);
        cover_query(c, &format!("cover/{}/large-gargantuan/query", ruleset.id()), &big);
    }
    // One full attack (range, cover, concealment, flanking) among 20 creatures: ≤ 20 µs.
    for ruleset in [RulesetId::Dnd5e2024, RulesetId::Pf1e] {
        let mut enc = encounter(ruleset, Size::Medium, Size::Medium);
        enc.creatures[0].stats.attack_bonus = Some(5);
        enc.creatures[1].stats.ac = Some(15);
        for i in 0..17 {
            enc.creatures.push(Creature::new(
                &format!("c{i}"),
                if i % 2 == 0 { "party" } else { "monsters" },
                Square::new(10 + i * 4, 44 + (i % 3)),
                Size::Medium,
            ));
        }
        let mut budget = Budget::unlimited();
        let scene = Scene::new(&enc, &mut budget).unwrap();
        let bow = Weapon {
            kind: Some(WeaponKind::Ranged),
            normal_ft: Some(150),
            long_ft: Some(600),
            increment_ft: Some(100),
            ..Weapon::default()
        };
        c.bench_function(&format!("attack/{}/20-creatures/odds", ruleset.id()), |b| {
            b.iter(|| {
                scene.forget_sight();
                let mut budget = Budget::unlimited();
                black_box(
                    attack(&scene, 0, 1, &bow, &Situational::default(), &mut OddsOnly, &mut budget).unwrap(),
                )
            })
        });
    }
    let enc = encounter(RulesetId::Pf1e, Size::Medium, Size::Medium);
    let bow = Weapon { kind: Some(WeaponKind::Ranged), increment_ft: Some(100), ..Weapon::default() };
    let mut budget = Budget::unlimited();
    let scene = Scene::new(&enc, &mut budget).unwrap();
    c.bench_function("range/pf1e/longbow", |b| {
        b.iter(|| black_box(range(&scene, 0, 1, &bow, &mut Budget::unlimited()).unwrap()))
    });
}

/// PRODUCT.md target: `/v1/analyze` for 50 creatures on a 200×200 map with 1,000 walls ≤ 10 ms
/// on one core. Two sides of 25 spread over the map (1,250 ordered pairs), walls and terrain
/// scattered as in [`encounter`]; the scene (wall index) is built inside the measurement, as
/// the endpoint does.
fn bench_analyze(c: &mut Criterion) {
    for ruleset in [RulesetId::Dnd5e2024, RulesetId::Pf1e] {
        let enc = analyze_scene(ruleset, 50);
        c.bench_function(&format!("analyze/{}/50-creatures-200x200-1000-walls", ruleset.id()), |b| {
            b.iter(|| {
                let mut budget = Budget::unlimited();
                let scene = Scene::new(black_box(&enc), &mut budget).unwrap();
                black_box(analyze(&scene, &AnalyzeQuestion::default(), &mut budget).unwrap())
            })
        });
    }
}

criterion_group!(benches, bench, bench_analyze);
criterion_main!(benches);
