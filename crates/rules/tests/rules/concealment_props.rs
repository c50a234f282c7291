//! Property tests for concealment: no panic on any encounter, mirroring the whole encounter
//! changes nothing, and adding fog never lowers the degree.

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{
    Condition, Creature, Encounter, Environment, Grid, Light, LightSource, Size, Terrain, Wall, WallKind,
};
use arbiter_rules::grid::{Coord, Point, Square};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use arbiter_rules::vision::{Attack, ConcealmentDegree, concealment};
use proptest::prelude::*;

const W: i32 = 9;

#[derive(Debug, Clone)]
struct Setup {
    ruleset: RulesetId,
    terrain: Vec<u8>,
    light: Vec<u8>,
    walls: Vec<(i32, i32, i32, i32)>,
    lights: Vec<(i32, i32, u32, u32)>,
    a: (i32, i32, Vec<Condition>, u32, bool),
    t: (i32, i32, Vec<Condition>),
    melee: bool,
}

fn conditions() -> impl Strategy<Value = Vec<Condition>> {
    prop::collection::vec(
        prop::sample::select(vec![Condition::Blinded, Condition::Invisible, Condition::Prone]),
        0..2,
    )
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        prop::sample::select(RulesetId::ALL.to_vec()),
        prop::collection::vec(
            prop_oneof![6 => Just(0u8), 1 => Just(1), 1 => Just(2), 1 => Just(3)],
            (W * W) as usize,
        ),
        prop::collection::vec(0u8..4, (W * W) as usize),
        prop::collection::vec((0..=W, 0..=W, 0..=W, 0..=W), 0..3),
        prop::collection::vec((0..W, 0..W, 0u32..40, 0u32..60), 0..3),
        (0..W, 0..W, conditions(), 0u32..80, any::<bool>()),
        (0..W, 0..W, conditions()),
        any::<bool>(),
    )
        .prop_map(|(ruleset, terrain, light, walls, lights, a, t, melee)| Setup {
            ruleset,
            terrain,
            light,
            walls,
            lights,
            a,
            t,
            melee,
        })
}

fn build(s: &Setup, mirror: bool) -> Option<Encounter> {
    let mx = |x: i32| if mirror { W - 1 - x } else { x };
    let px = |x: i32| if mirror { W - x } else { x };
    let mut grid = Grid::open(W, W);
    grid.terrain = vec![Terrain::OPEN; (W * W) as usize];
    grid.light_map = vec![None; (W * W) as usize];
    grid.light = Light::Dim;
    for y in 0..W {
        for x in 0..W {
            let i = (y * W + x) as usize;
            let j = (y * W + mx(x)) as usize;
            grid.terrain[j] =
                [Terrain::OPEN, Terrain::SOLID, Terrain::CONCEALING, Terrain::OPAQUE][s.terrain[i] as usize];
            grid.light_map[j] =
                [None, Some(Light::Bright), Some(Light::Dim), Some(Light::Darkness)][s.light[i] as usize];
        }
    }
    grid.walls = s
        .walls
        .iter()
        .map(|(a, b, c, d)| Wall {
            from: Point::lattice(px(*a), *b),
            to: Point::lattice(px(*c), *d),
            kind: WallKind::Solid,
        })
        .collect();
    let half = Coord::from_f64(0.5).unwrap().0;
    grid.lights = s
        .lights
        .iter()
        .map(|(x, y, b, d)| LightSource {
            at: Point { x: Coord(Coord::from_int(mx(*x)).0 + half), y: Coord(Coord::from_int(*y).0 + half) },
            bright_ft: *b,
            dim_ft: *d,
        })
        .collect();
    let mut a = Creature::new("a", "x", Square::new(mx(s.a.0), s.a.1), Size::Medium);
    a.conditions = s.a.2.clone();
    a.senses.darkvision_ft = s.a.3;
    a.senses.low_light_vision = s.a.4;
    let mut t = Creature::new("t", "y", Square::new(mx(s.t.0), s.t.1), Size::Medium);
    t.conditions = s.t.2.clone();
    if a.at == t.at {
        return None;
    }
    Some(Encounter {
        ruleset: s.ruleset,
        variants: Variants::resolve(s.ruleset.rules(), []),
        grid,
        environment: Environment::default(),
        creatures: vec![a, t],
    })
}

fn ask(enc: &Encounter, melee: bool) -> (ConcealmentDegree, u32, bool, bool) {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(enc, &mut budget).unwrap();
    let attack = if melee { Attack::Melee } else { Attack::Ranged };
    let a = concealment(&scene, 0, 1, attack, &mut budget).unwrap();
    (a.degree, a.miss_chance, a.attacker_sees_target, a.target_sees_attacker)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn mirroring_changes_nothing(s in setup()) {
        let (Some(e), Some(m)) = (build(&s, false), build(&s, true)) else { return Ok(()) };
        prop_assert_eq!(ask(&e, s.melee), ask(&m, s.melee));
    }

    #[test]
    fn fog_never_lowers_concealment(s in setup(), x in 0..W, y in 0..W) {
        let Some(e) = build(&s, false) else { return Ok(()) };
        let before = ask(&e, s.melee).0;
        let mut more = e.clone();
        let i = (y * W + x) as usize;
        if more.grid.terrain[i] != Terrain::SOLID {
            more.grid.terrain[i] = more.grid.terrain[i].with(Terrain::CONCEALING);
        }
        prop_assert!(ask(&more, s.melee).0 >= before);
    }

    /// Anything at all, even creatures off the map: an answer or an error, never a panic.
    #[test]
    fn never_panics(s in setup(), ax in any::<i32>(), ay in -5i32..15) {
        let Some(mut e) = build(&s, false) else { return Ok(()) };
        e.creatures[0].at = Square::new(ax, ay);
        let mut budget = Budget::new(50_000);
        if let Ok(scene) = Scene::new(&e, &mut budget) {
            let _ = concealment(&scene, 0, 1, Attack::Ranged, &mut budget);
            let _ = concealment(&scene, 1, 0, Attack::Melee, &mut budget);
        }
    }
}
