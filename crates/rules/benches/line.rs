//! Micro-benchmarks of the exact line tests (PRODUCT.md "Targets": one cover query between two
//! medium creatures 30 squares apart with 200 walls ≤ 5 µs in the rules crate).
//!
//! Run with `cargo bench -p arbiter-rules --bench line`.

use std::hint::black_box;

use arbiter_rules::budget::Budget;
use arbiter_rules::grid::line::{
    AllWalls, BlockerGrid, Blockers, Endpoint, Grazing, NoWalls, Segment, Wall, WallIndex,
};
use arbiter_rules::grid::{Point, Square};
use criterion::{Criterion, criterion_main};

/// A deterministic pseudo-random generator (xorshift), so every run measures the same map.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// `count` unit walls on grid lines and `solid` solid squares scattered over a `side²` map.
fn map(side: i32, count: u32, solid: u32) -> (BlockerGrid, WallIndex) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let n = side as u64;
    let walls: Vec<Wall> = (0..count)
        .map(|id| {
            let (x, y) = (rng.below(n) as i32, rng.below(n) as i32);
            let to = if rng.below(2) == 0 { Point::lattice(x + 1, y) } else { Point::lattice(x, y + 1) };
            Wall { id, from: Point::lattice(x, y), to }
        })
        .collect();
    let index = WallIndex::new(walls, &mut Budget::unlimited()).expect("walls in range");
    let mut grid = BlockerGrid::new(side, side).expect("grid in range");
    for _ in 0..solid {
        grid.set(Square::new(rng.below(n) as i32, rng.below(n) as i32), Some(Grazing::Off));
    }
    (grid, index)
}

/// The 16 corner-to-corner segments of one cover test between two squares.
fn corner_lines(a: Square, t: Square) -> Vec<Segment> {
    a.corners()
        .iter()
        .flat_map(|&c| {
            t.corners().map(|k| Segment::between(Endpoint::of_square(c, a), Endpoint::of_square(k, t)))
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let (grid, index) = map(60, 200, 40);
    let (a, t) = (Square::new(5, 20), Square::new(35, 24));
    let lines = corner_lines(a, t);

    let solid = Blockers::new(&grid, &index, AllWalls(Grazing::Off));
    c.bench_function("cover query: 16 lines, 30 squares, 200 walls", |b| {
        b.iter(|| {
            let mut budget = Budget::unlimited();
            let blocked = lines.iter().filter(|s| solid.is_blocked(s, &mut budget).unwrap_or(true)).count();
            black_box(blocked)
        })
    });

    let open = BlockerGrid::new(60, 60).expect("grid in range");
    let clear = Blockers::new(&open, &index, NoWalls);
    c.bench_function("clear line, 34 squares", |b| {
        b.iter(|| black_box(clear.is_blocked(black_box(&lines[5]), &mut Budget::unlimited())))
    });

    c.bench_function("trace: every blocker of 16 lines", |b| {
        b.iter(|| {
            let mut budget = Budget::unlimited();
            let hits: usize =
                lines.iter().filter_map(|s| solid.trace(s, &mut budget).ok()).map(|r| r.hits.len()).sum();
            black_box(hits)
        })
    });

    let mut rng = Rng(7);
    let walls: Vec<Wall> = (0..1000)
        .map(|id| {
            let (x, y) = (rng.below(200) as i32, rng.below(200) as i32);
            Wall { id, from: Point::lattice(x, y), to: Point::lattice(x + 1, y) }
        })
        .collect();
    c.bench_function("wall index: 1,000 walls on 200×200", |b| {
        b.iter(|| black_box(WallIndex::new(walls.iter().copied(), &mut Budget::unlimited()).map(|i| i.len())))
    });
}

/// `criterion_group!` makes a public, undocumented function; kept in a private module.
mod group {
    use criterion::{Criterion, criterion_group};

    criterion_group! {
        name = line;
        config = Criterion::default();
        targets = super::benches
    }
}

criterion_main!(group::line);
