//! Property tests for cover: no panic on any encounter, adding a blocker never lowers the
//! degree, moving or mirroring the whole encounter changes nothing, a wall cut in pieces
//! blocks like the whole wall.

use arbiter_rules::budget::Budget;
use arbiter_rules::cover::{AttackKind, CoverDegree, cover};
use arbiter_rules::encounter::{Creature, Encounter, Environment, Grid, Size, Terrain, Wall, WallKind};
use arbiter_rules::grid::{Coord, Point, Square};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use proptest::prelude::*;

const W: i32 = 9;

#[derive(Debug, Clone)]
struct Setup {
    ruleset: RulesetId,
    terrain: Vec<u8>,
    walls: Vec<(i32, i32, i32, i32, u8)>,
    attacker: (i32, i32, Size),
    target: (i32, i32, Size),
    others: Vec<(i32, i32)>,
    attack: u8,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        prop::sample::select(RulesetId::ALL.to_vec()),
        prop::collection::vec(prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)], (W * W) as usize),
        prop::collection::vec((0..=W, 0..=W, 0..=W, 0..=W, 0u8..6), 0..4),
        (0..W - 1, 0..W - 1, prop::sample::select(vec![Size::Medium, Size::Large])),
        (0..W - 1, 0..W - 1, prop::sample::select(vec![Size::Medium, Size::Large])),
        prop::collection::vec((0..W, 0..W), 0..4),
        0u8..3,
    )
        .prop_map(|(ruleset, terrain, walls, attacker, target, others, attack)| Setup {
            ruleset,
            terrain,
            walls,
            attacker,
            target,
            others,
            attack,
        })
}

fn kind(k: u8) -> WallKind {
    [
        WallKind::Solid,
        WallKind::Low,
        WallKind::Window,
        WallKind::ArrowSlit,
        WallKind::DoorOpen,
        WallKind::DoorClosed,
    ][k as usize % 6]
}

fn pt(x: i32, y: i32) -> Point {
    Point::lattice(x, y)
}

/// Builds the encounter; `None` when the two creatures overlap.
fn build(s: &Setup) -> Option<Encounter> {
    let mut grid = Grid::open(W, W);
    grid.terrain =
        s.terrain.iter().map(|t| [Terrain::OPEN, Terrain::SOLID, Terrain::LOW][*t as usize]).collect();
    grid.walls = s
        .walls
        .iter()
        .map(|(a, b, c, d, k)| Wall { from: pt(*a, *b), to: pt(*c, *d), kind: kind(*k) })
        .collect();
    let a = Creature::new("a", "x", Square::new(s.attacker.0, s.attacker.1), s.attacker.2);
    let t = Creature::new("t", "y", Square::new(s.target.0, s.target.1), s.target.2);
    let mut creatures = vec![a, t];
    for (i, (x, y)) in s.others.iter().enumerate() {
        creatures.push(Creature::new(&format!("o{i}"), "z", Square::new(*x, *y), Size::Medium));
    }
    let enc = Encounter {
        ruleset: s.ruleset,
        variants: Variants::resolve(s.ruleset.rules(), []),
        grid,
        environment: Environment::default(),
        creatures,
    };
    crate::common::placed_pair(enc)
}

fn attack(s: &Setup) -> AttackKind {
    match s.attack {
        0 => AttackKind::Ranged,
        1 => AttackKind::Melee,
        _ => {
            AttackKind::Area { origin: Point::centre(Square::new(s.attacker.0, s.attacker.1)), spread: false }
        }
    }
}

/// The degree, or `None` when the question is invalid (an area origin on a blocking wall).
fn degree(enc: &Encounter, attack: AttackKind) -> Option<CoverDegree> {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(enc, &mut budget).unwrap();
    cover(&scene, 0, 1, attack, None, &mut budget).ok().map(|a| a.degree)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn adding_a_solid_square_never_lowers_cover(s in setup(), x in 0..W, y in 0..W) {
        let Some(enc) = build(&s) else { return Ok(()) };
        let sq = Square::new(x, y);
        let busy = enc.creatures.iter().any(|c| enc.space(c).contains(sq));
        prop_assume!(!busy);
        let before = degree(&enc, attack(&s));
        let mut more = enc.clone();
        more.grid.terrain[(y * W + x) as usize] = Terrain::SOLID;
        let after = degree(&more, attack(&s));
        prop_assert!(after >= before, "{before:?} → {after:?}");
    }

    /// A low obstacle under a bystander: where the obstacle itself does not count (beyond 30 ft
    /// of the target, or the attacker closer to it), the creature standing on it still blocks
    /// as a creature (`pf1e.cover.soft`).
    #[test]
    fn a_low_obstacle_under_a_creature_never_lowers_cover(
        s in setup(),
        pick in 0usize..4,
        near in prop::sample::select(vec![(1, 0), (2, 1), (1, 1), (3, 1)]),
    ) {
        // Half the cases: a ranged shot across the map past a bystander near the attacker,
        // where the obstacle does not count (the attacker is closer to it than the target).
        let mut s = s;
        if pick % 2 == 0 {
            s.attack = 0;
            s.attacker = (0, 3, Size::Medium);
            s.target = (W - 1, 4, Size::Medium);
            s.others = vec![(near.0, 3 + near.1)];
            s.terrain.iter_mut().for_each(|t| *t = 0);
        }
        let Some(enc) = build(&s) else { return Ok(()) };
        prop_assume!(enc.creatures.len() > 2);
        let c = &enc.creatures[2 + pick % (enc.creatures.len() - 2)];
        let sq = c.at;
        prop_assume!(enc.grid.terrain[(sq.y * W + sq.x) as usize] == Terrain::OPEN);
        let before = degree(&enc, attack(&s));
        let mut more = enc.clone();
        more.grid.terrain[(sq.y * W + sq.x) as usize] = Terrain::LOW;
        let after = degree(&more, attack(&s));
        prop_assert!(after >= before, "{before:?} → {after:?}");
    }

    #[test]
    fn adding_a_creature_never_lowers_cover(s in setup(), x in 0..W, y in 0..W) {
        let Some(enc) = build(&s) else { return Ok(()) };
        let sq = Square::new(x, y);
        prop_assume!(!enc.creatures.iter().any(|c| enc.space(c).contains(sq)));
        let before = degree(&enc, attack(&s));
        let mut more = enc.clone();
        more.creatures.push(Creature::new("new", "z", sq, Size::Medium));
        prop_assert!(degree(&more, attack(&s)) >= before);
    }

    #[test]
    fn translation_changes_nothing(s in setup(), dx in 0..5i32, dy in 0..5i32) {
        let Some(enc) = build(&s) else { return Ok(()) };
        let mut moved = enc.clone();
        moved.grid = Grid::open(W + dx, W + dy);
        moved.grid.terrain = vec![Terrain::OPEN; ((W + dx) * (W + dy)) as usize];
        for y in 0..W {
            for x in 0..W {
                moved.grid.terrain[((y + dy) * (W + dx) + x + dx) as usize] = enc.grid.terrain(Square::new(x, y));
            }
        }
        let shift = |p: Point| Point { x: Coord(p.x.0 + Coord::from_int(dx).0), y: Coord(p.y.0 + Coord::from_int(dy).0) };
        moved.grid.walls = enc.grid.walls.iter().map(|w| Wall { from: shift(w.from), to: shift(w.to), kind: w.kind }).collect();
        for c in &mut moved.creatures {
            c.at = Square::new(c.at.x + dx, c.at.y + dy);
        }
        let a = match attack(&s) {
            AttackKind::Area { origin, spread } => AttackKind::Area { origin: shift(origin), spread },
            other => other,
        };
        prop_assert_eq!(degree(&enc, attack(&s)), degree(&moved, a));
    }

    #[test]
    fn mirroring_changes_nothing(s in setup()) {
        let Some(enc) = build(&s) else { return Ok(()) };
        let mut m = enc.clone();
        for y in 0..W {
            for x in 0..W {
                m.grid.terrain[(y * W + x) as usize] = enc.grid.terrain(Square::new(W - 1 - x, y));
            }
        }
        let flip = |p: Point| Point { x: Coord(Coord::from_int(W).0 - p.x.0), y: p.y };
        m.grid.walls = enc.grid.walls.iter().map(|w| Wall { from: flip(w.from), to: flip(w.to), kind: w.kind }).collect();
        for (c, orig) in m.creatures.iter_mut().zip(&enc.creatures) {
            let side = enc.space(orig).side;
            c.at = Square::new(W - orig.at.x - side, orig.at.y);
        }
        let a = match attack(&s) {
            AttackKind::Area { origin, spread } => AttackKind::Area { origin: flip(origin), spread },
            other => other,
        };
        prop_assert_eq!(degree(&enc, attack(&s)), degree(&m, a));
    }

    #[test]
    fn a_wall_in_pieces_covers_like_the_whole_wall(s in setup(), x in 1..W, y0 in 0..3i32, cut in 1..6i32) {
        let Some(mut enc) = build(&s) else { return Ok(()) };
        enc.grid.walls.clear();
        let (y1, y2) = (y0, y0 + 6);
        let mut whole = enc.clone();
        whole.grid.walls.push(Wall { from: pt(x, y1), to: pt(x, y2), kind: WallKind::Solid });
        let mut pieces = enc.clone();
        let mid = Point { x: Coord::from_int(x), y: Coord(Coord::from_int(y1).0 + Coord::from_int(cut).0 / 2 * 2 / 2) };
        pieces.grid.walls.push(Wall { from: pt(x, y1), to: mid, kind: WallKind::Solid });
        pieces.grid.walls.push(Wall { from: mid, to: pt(x, y2), kind: WallKind::Solid });
        prop_assert_eq!(degree(&whole, attack(&s)), degree(&pieces, attack(&s)));
    }

    /// Any coordinates at all, even off the map: an answer or an error, never a panic.
    #[test]
    fn never_panics(s in setup(), ax in any::<i32>(), ay in -3i32..12, wx in -2.0f64..12.0, wy in -2.0f64..12.0) {
        let Some(mut enc) = build(&s) else { return Ok(()) };
        enc.creatures[0].at = Square::new(ax, ay);
        enc.grid.walls.push(Wall {
            from: Point { x: Coord::from_f64(wx).unwrap(), y: Coord::from_f64(wy).unwrap() },
            to: pt(3, 3),
            kind: WallKind::Solid,
        });
        let mut budget = Budget::new(100_000);
        if let Ok(scene) = Scene::new(&enc, &mut budget) {
            let _ = cover(&scene, 0, 1, attack(&s), None, &mut budget);
            let _ = cover(&scene, 1, 0, AttackKind::Area { origin: pt(ax.clamp(-5, 20), ay), spread: true }, None, &mut budget);
        }
    }
}
