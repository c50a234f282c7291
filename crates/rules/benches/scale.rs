#![allow(missing_docs)] // criterion_group! generates undocumented items.
//! How `/v1/analyze` grows with the scene (issue 11's scaling table): the default question
//! (every attacker, Auto, no traces) on [`common::scene`] maps (the creatures row on
//! [`common::analyze_scene`], the `rules` bench's scene, which is the same map), the [`Scene`] built inside the
//! measurement as the endpoint does, pf1e, one core. Three rows of scenes:
//! - creatures: 10, 50, 100, 200, 500 on 200×200 with 1,000 walls;
//! - walls: 100, 1,000, 10,000 with 50 creatures on 200×200;
//! - map size: 50², 200², 1000² with 50 creatures, walls and blocking squares at the density of
//!   the 200² map (one wall per 40 squares: 62, 1,000 and 25,000 walls — the last beyond the
//!   server's 10,000-wall cap, the rules crate has none), so that what grows is line length;
//!   and 50², 1000² with a fixed 1,000 walls, to tell line length from the number of walls.
//!
//! Creatures stand on the middle 80 % of each axis, so distances grow with the map.
//!
//! Each benchmark's throughput is its number of ordered pairs, so that criterion's report and
//! `scripts/scale-table.sh` give the cost per pair. Short settings (10 flat samples): the
//! whole group takes a few minutes, most of it the 500-creature scene.
//!
//! `cargo bench -p arbiter-rules --bench scale` (or `scripts/scale-table.sh` for the table)

use std::hint::black_box;
use std::time::Duration;

use arbiter_rules::analyze::{AnalyzeQuestion, analyze};
use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::Encounter;
use arbiter_rules::ruleset::RulesetId;
use arbiter_rules::scene::Scene;
use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};

mod common;

use common::{analyze_scene, scene};

const RULESET: RulesetId = RulesetId::Pf1e;

/// Squares per wall on the 200×200 map with 1,000 walls.
const SQUARES_PER_WALL: i64 = 40;

/// One analysis as the endpoint runs it: scene, then every pair.
fn run(enc: &Encounter) -> usize {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(enc, &mut budget).unwrap();
    analyze(&scene, &AnalyzeQuestion::default(), &mut budget).unwrap().pairs.len()
}

fn bench(c: &mut Criterion) {
    // (row, creatures, walls, side); the creatures row is the `rules` bench's analyze scene.
    let mut rows: Vec<(&str, usize, usize, i32)> = Vec::new();
    for n in [10, 50, 100, 200, 500] {
        rows.push(("creatures", n, 1000, 200));
    }
    for walls in [100, 1000, 10_000] {
        rows.push(("walls", 50, walls, 200));
    }
    for side in [50, 200, 1000] {
        let walls = i64::from(side) * i64::from(side) / SQUARES_PER_WALL;
        rows.push(("map", 50, walls as usize, side));
    }
    // The same maps with a fixed 1,000 walls, to tell line length from the number of walls.
    for side in [50, 1000] {
        rows.push(("map", 50, 1000, side));
    }
    let mut group = c.benchmark_group("scale");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for (row, creatures, walls, side) in rows {
        let enc = if row == "creatures" {
            analyze_scene(RULESET, creatures)
        } else {
            scene(RULESET, creatures, walls, side)
        };
        group.throughput(Throughput::Elements(run(&enc) as u64));
        let id = BenchmarkId::new(row, format!("{creatures} creatures, {side}x{side}, {walls} walls"));
        group.bench_with_input(id, &enc, |b, enc| b.iter(|| black_box(run(black_box(enc)))));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
