//! Movement: a property test over arbitrary encounters, paths, modes and options — no panic,
//! the total is the sum of the step costs, a legal move fits its budget, the last legal
//! square is where the legal prefix of the path ends, and every attack of opportunity is
//! provoked on a square of that prefix.

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{
    Condition, Creature, Encounter, Environment, Grid, Size, Terrain, Wall, WallKind,
};
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::movement::{Mode, MoveOptions, movement};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use proptest::prelude::*;

fn arb_creature(id: &'static str, side: &'static str) -> impl Strategy<Value = Creature> {
    (
        (0i32..8, 0i32..8, prop::sample::select(Size::ALL.to_vec())),
        prop::option::of(0u32..45),
        prop::collection::vec(prop::sample::select(Condition::ALL.to_vec()), 0..3),
    )
        .prop_map(move |((x, y, size), speed, conditions)| {
            let mut c = Creature::new(id, side, Square::new(x, y), size);
            c.speed_ft = speed;
            c.conditions = conditions;
            c
        })
}

const TERRAIN: [Terrain; 6] =
    [Terrain::OPEN, Terrain::SOLID, Terrain::LOW, Terrain::DIFFICULT, Terrain::WATER, Terrain::OPAQUE];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn movement_is_consistent(
        rs in prop::sample::select(RulesetId::ALL.to_vec()),
        mode in prop::sample::select(Mode::ALL.to_vec()),
        mover in arb_creature("m", "a"),
        ally in arb_creature("f", "a"),
        foe in arb_creature("e", "b"),
        terrain in prop::collection::vec(prop::sample::select(TERRAIN.to_vec()), 64),
        walls in prop::collection::vec((0i32..9, 0i32..9, 0i32..9, 0i32..9), 0..3),
        moves in prop::collection::vec((-1i32..=1, -1i32..=1), 0..10),
        (stand_up, dash, short_step, drag, variant) in (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
    ) {
        let mut grid = Grid::open(8, 8);
        grid.terrain = terrain;
        for (x1, y1, x2, y2) in walls {
            grid.walls.push(Wall { from: Point::lattice(x1, y1), to: Point::lattice(x2, y2), kind: WallKind::Solid });
        }
        let at = mover.at;
        let side = rs.rules().size(mover.size).side.max(1);
        let five_e = rs.is_dnd5e();
        let mode = match mode {
            Mode::Mount | Mode::Dismount if !five_e => Mode::Walk,
            Mode::Charge if !matches!(rs, RulesetId::Pf1e | RulesetId::Hb3d) => Mode::Walk,
            m => m,
        };
        let enc = Encounter {
            ruleset: rs,
            variants: Variants::resolve(rs.rules(), [("dnd5e.grid.variant-diagonals", variant)]),
            grid,
            environment: Environment::default(),
            creatures: vec![mover, ally, foe],
        };
        let mut path = Vec::new();
        let mut here = at;
        // Keep the path on the grid so that most cases reach the rules.
        for (dx, dy) in moves {
            let next = Square::new((here.x + dx).clamp(0, 8 - side), (here.y + dy).clamp(0, 8 - side));
            if next != here && (next.x - here.x).abs() <= 1 && (next.y - here.y).abs() <= 1 {
                here = next;
                path.push(here);
            }
        }
        let options = MoveOptions {
            stand_up,
            dash: dash && five_e,
            short_step: short_step && !five_e,
            dragging: (drag && five_e).then_some(2),
            target: (mode == Mode::Charge).then_some(2),
            mount: (mode == Mode::Mount).then_some(1),
        };
        let mut budget = Budget::new(2_000_000);
        let Ok(scene) = Scene::new(&enc, &mut budget) else { return Ok(()) };
        let answer = movement(&scene, 0, &path, mode, &options, &mut budget);
        // Off-grid starts, unmounted dismounts and empty charges are 422s; nothing else here is.
        let off_grid = !enc.grid.contains_space(&enc.space(&enc.creatures[0]));
        let empty_charge = mode == Mode::Charge && path.is_empty();
        prop_assert!(answer.is_ok() || off_grid || empty_charge || mode == Mode::Dismount, "{:?}", answer.err());
        let Ok(m) = answer else { return Ok(()) };
        if mode != Mode::Teleport {
            let sum: u32 = m.steps.iter().map(|s| s.cost_ft).sum();
            prop_assert_eq!(sum, m.total_ft);
            for w in m.steps.windows(2) {
                prop_assert!(w[0].total_ft <= w[1].total_ft);
            }
        }
        if m.legal {
            prop_assert!(m.steps.iter().all(|s| s.legal));
            if let Some(b) = m.budget_ft {
                prop_assert!(m.total_ft + m.extra_ft <= b, "{} + {} > {}", m.total_ft, m.extra_ft, b);
            }
            prop_assert_eq!(m.last_legal, m.end);
        }
        let prefix = m.steps.iter().take_while(|s| s.legal).count();
        if mode != Mode::Dismount && mode != Mode::Teleport {
            let expected = m.steps.get(prefix.wrapping_sub(1)).map_or(m.start, |s| s.to);
            prop_assert_eq!(m.last_legal, expected);
        }
        for o in &m.opportunities {
            prop_assert!(o.step <= prefix, "AoO at step {} beyond the legal prefix {}", o.step, prefix);
        }
    }
}
