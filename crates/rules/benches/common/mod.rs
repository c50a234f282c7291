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
    let mut rng = Lcg(11);
    let mut grid = Grid::open(200, 200);
    grid.terrain = vec![Terrain::OPEN; 200 * 200];
    for _ in 0..1200 {
        let (x, y) = (rng.next(200) as usize, rng.next(200) as usize);
        grid.terrain[y * 200 + x] = if rng.next(2) == 0 { Terrain::SOLID } else { Terrain::LOW };
    }
    for _ in 0..1000 {
        let (x, y) = (rng.next(196) as f64, rng.next(200) as f64);
        let len = 1.0 + rng.next(4) as f64;
        let to = if rng.next(2) == 0 { pt((x + len).min(200.0), y) } else { pt(x, (y + len).min(200.0)) };
        grid.walls.push(Wall { from: pt(x, y), to, kind: WallKind::Solid });
    }
    let mut creatures = Vec::new();
    for i in 0..n {
        let (x, y) = (20 + rng.next(160) as i32, 20 + rng.next(160) as i32);
        grid.terrain[y as usize * 200 + x as usize] = Terrain::OPEN;
        let side = if i % 2 == 0 { "party" } else { "monsters" };
        creatures.push(Creature::new(&format!("c{i}"), side, Square::new(x, y), Size::Medium));
    }
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), []),
        grid,
        environment: Environment::default(),
        creatures,
    }
}
