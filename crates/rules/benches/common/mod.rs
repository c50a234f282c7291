//! What the benchmarks and the budget calibration example share: a deterministic generator
//! and the whole-scene benchmark map (PRODUCT.md's target scene), so that the calibration
//! measures the very scene the benchmark times.

use arbiter_rules::encounter::{Creature, Encounter, Environment, Grid, Size, Terrain, Wall, WallKind};
use arbiter_rules::grid::{Coord, Point, Square};
use arbiter_rules::ruleset::{RulesetId, Variants};

/// A linear congruential generator: the same numbers on every machine.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n` (0 when `n` is 0).
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// A point in squares.
pub fn pt(x: f64, y: f64) -> Point {
    Point { x: Coord::from_f64(x).unwrap(), y: Coord::from_f64(y).unwrap() }
}

/// The whole-scene benchmark: a 200×200 map with 1,200 solid or low squares and 1,000 short
/// solid walls, and `n` Medium creatures of two alternating sides spread over its middle.
pub fn analyze_scene(ruleset: RulesetId, n: usize) -> Encounter {
    scene(ruleset, n, 1000, 200)
}

/// A `side`×`side` map with solid or low squares on 3 % of it, `walls` solid walls 1–4 squares
/// long along grid lines, and `creatures` Medium creatures of two alternating sides spread over
/// the middle 80 % of each axis (the same map, square for square, for the same arguments).
pub fn scene(ruleset: RulesetId, creatures: usize, walls: usize, side: i32) -> Encounter {
    let mut rng = Lcg(11);
    let (s, n) = (side.max(5), side.max(5) as usize);
    let mut grid = Grid::open(s, s);
    grid.terrain = vec![Terrain::OPEN; n * n];
    for _ in 0..n * n * 3 / 100 {
        let (x, y) = (rng.next(n as u64) as usize, rng.next(n as u64) as usize);
        grid.terrain[y * n + x] = if rng.next(2) == 0 { Terrain::SOLID } else { Terrain::LOW };
    }
    let edge = f64::from(s);
    for _ in 0..walls {
        let (x, y) = (rng.next(n as u64 - 4) as f64, rng.next(n as u64) as f64);
        let len = 1.0 + rng.next(4) as f64;
        let to = if rng.next(2) == 0 { pt((x + len).min(edge), y) } else { pt(x, (y + len).min(edge)) };
        grid.walls.push(Wall { from: pt(x, y), to, kind: WallKind::Solid });
    }
    let (margin, span) = (s / 10, (s - 2 * (s / 10)) as u64);
    let mut list = Vec::new();
    for i in 0..creatures {
        let (x, y) = (margin + rng.next(span) as i32, margin + rng.next(span) as i32);
        grid.terrain[y as usize * n + x as usize] = Terrain::OPEN;
        let side = if i % 2 == 0 { "party" } else { "monsters" };
        list.push(Creature::new(&format!("c{i}"), side, Square::new(x, y), Size::Medium));
    }
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), []),
        grid,
        environment: Environment::default(),
        creatures: list,
    }
}
