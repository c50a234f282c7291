//! Maneuvers: push geometry (`grid.push-direction`, Q-45, `grid.move.corner-cutting`) and a
//! property test — no panic on arbitrary encounters and kinds, success odds in [0, 1], bands
//! summing to exactly one, and a rolled band always one the odds give a chance to.

use crate::common::{XorShift, repeated_step};
use arbiter_rules::trace::narration::rolls_narrated;

use arbiter_rules::budget::Budget;
use arbiter_rules::dice::{OddsOnly, Ratio};
use arbiter_rules::encounter::{
    Condition, Creature, Encounter, Environment, Grid, Size, Terrain, Wall, WallKind,
};
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::maneuver::{CheckKind, Kind, Options, PushStop, ShoveChoice, maneuver, push};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use proptest::prelude::*;

fn encounter(ruleset: RulesetId, w: i32, h: i32, creatures: Vec<Creature>) -> Encounter {
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), []),
        grid: Grid::open(w, h),
        environment: Environment::default(),
        creatures,
    }
}

fn solid(enc: &mut Encounter, sq: Square) {
    let (w, h) = (enc.grid.width as usize, enc.grid.height as usize);
    enc.grid.terrain.resize(w * h, Terrain::OPEN);
    enc.grid.terrain[sq.y as usize * w + sq.x as usize] = Terrain::SOLID;
}

fn pushed(enc: &Encounter, ft: u32) -> push::Push {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(enc, &mut budget).unwrap();
    push::push(&scene, 0, 1, ft, &mut budget).unwrap()
}

fn pair(p: (i32, i32), t: (i32, i32)) -> Vec<Creature> {
    vec![
        Creature::new("p", "a", Square::new(p.0, p.1), Size::Medium),
        Creature::new("t", "b", Square::new(t.0, t.1), Size::Medium),
    ]
}

/// RULES.md `grid.push-direction`: pusher (2,2), target (3,3) → (+1,+1), one step to (4,4).
#[test]
fn diagonal_push() {
    let p = pushed(&encounter(RulesetId::Pf1e, 8, 8, pair((2, 2), (3, 3))), 5);
    assert_eq!(p.direction, (1, 1));
    assert_eq!(p.to, Square::new(4, 4));
    assert_eq!(p.stopped, None);
}

/// Q-45 + `grid.move.corner-cutting`: a diagonal step past a solid square does not happen.
#[test]
fn diagonal_push_does_not_cut_a_corner() {
    let mut enc = encounter(RulesetId::Pf1e, 8, 8, pair((2, 2), (3, 3)));
    solid(&mut enc, Square::new(4, 3));
    let p = pushed(&enc, 10);
    assert_eq!(p.to, Square::new(3, 3));
    assert_eq!(p.stopped, Some(PushStop::Corner { square: Square::new(4, 4) }));
}

/// a thin wall that blocks movement stops the push; an open door does not.
#[test]
fn walls_stop_pushes_but_open_doors_do_not() {
    let mut enc = encounter(RulesetId::Pf1e, 8, 3, pair((0, 1), (1, 1)));
    enc.grid.walls.push(Wall {
        from: Point::lattice(3, 0),
        to: Point::lattice(3, 3),
        kind: WallKind::DoorClosed,
    });
    let p = pushed(&enc, 20);
    assert_eq!((p.moved_ft, p.to), (5, Square::new(2, 1)));
    assert_eq!(p.stopped, Some(PushStop::Wall { square: Square::new(3, 1) }));
    enc.grid.walls[0].kind = WallKind::DoorOpen;
    assert_eq!(pushed(&enc, 20).to, Square::new(5, 1));
}

/// a creature and the grid edge stop a push; a wall ending at a diagonal corner too.
#[test]
fn creatures_edges_and_wall_ends() {
    let mut enc = encounter(RulesetId::Dnd5e2014, 8, 3, pair((0, 1), (1, 1)));
    enc.creatures.push(Creature::new("c", "b", Square::new(4, 1), Size::Medium));
    let p = pushed(&enc, 20);
    assert_eq!(p.to, Square::new(3, 1));
    assert!(matches!(p.stopped, Some(PushStop::Creature { ref creature, .. }) if creature == "c"));
    let enc = encounter(RulesetId::Dnd5e2014, 3, 3, pair((0, 1), (1, 1)));
    let p = pushed(&enc, 20);
    assert_eq!(p.to, Square::new(2, 1));
    assert_eq!(p.stopped, Some(PushStop::Edge { square: Square::new(3, 1) }));
    let mut enc = encounter(RulesetId::Pf1e, 8, 8, pair((2, 2), (3, 3)));
    enc.grid.walls.push(Wall { from: Point::lattice(4, 2), to: Point::lattice(4, 4), kind: WallKind::Solid });
    let p = pushed(&enc, 5);
    assert_eq!(p.to, Square::new(3, 3));
    assert!(matches!(p.stopped, Some(PushStop::Wall { .. })));
}

/// A Large target is pushed as a whole space.
#[test]
fn large_target_moves_as_a_block() {
    let mut c = pair((0, 1), (1, 0));
    c[1].size = Size::Large;
    let mut enc = encounter(RulesetId::Pf1e, 8, 3, c);
    assert_eq!(pushed(&enc, 10).to, Square::new(3, 0));
    solid(&mut enc, Square::new(4, 1));
    let p = pushed(&enc, 15);
    assert_eq!(p.to, Square::new(2, 0));
    assert_eq!(p.stopped, Some(PushStop::Solid { square: Square::new(4, 1) }));
}

fn arb_creature(id: &'static str) -> impl Strategy<Value = Creature> {
    (
        (-2i32..10, -2i32..10, prop::sample::select(Size::ALL.to_vec())),
        (
            prop::option::of(-5i32..30),
            prop::option::of(-5i32..40),
            prop::option::of(-5i32..30),
            prop::option::of(-5i32..15),
            prop::option::of(0i32..7),
        ),
        (prop::option::of(0u32..6), any::<bool>(), any::<bool>(), prop::option::of(0u32..3)),
        prop::collection::vec(prop::sample::select(Condition::ALL.to_vec()), 0..3),
    )
        .prop_map(
            move |((x, y, size), (cmb, cmd, def, ath, pb), (legs, flying, unarmed, hands), conditions)| {
                let mut c = Creature::new(id, id, Square::new(x, y), size);
                c.stats.cmb = cmb;
                c.stats.cmd = cmd;
                c.stats.def = def;
                c.stats.athletics = ath;
                c.stats.acrobatics = ath.map(|a| a - 1);
                c.stats.str_mod = pb.map(|p| p - 2);
                c.stats.proficiency_bonus = pb;
                c.stats.saves.str = ath;
                c.stats.escape_artist = cmb;
                c.legs = legs;
                c.flying = flying;
                c.unarmed = unarmed;
                c.hands_free = hands;
                c.conditions = conditions;
                c
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn maneuvers_never_panic_and_odds_are_distributions(
        rs in prop::sample::select(RulesetId::ALL.to_vec()),
        kind in prop::sample::select(Kind::ALL.to_vec()),
        (w, h) in (0i32..10, 0i32..10),
        a in arb_creature("a"), t in arb_creature("t"), b in arb_creature("b"),
        solids in prop::collection::vec((0i32..10, 0i32..10), 0..6),
        walls in prop::collection::vec((0i32..10, 0i32..10, 0i32..10, 0i32..10), 0..3),
        (improved, prone, avoids, maintained, artist) in (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        seed in 1u64..u64::MAX,
    ) {
        let mut enc = encounter(rs, w, h, vec![a, t, b]);
        for (x, y) in solids {
            if x < w && y < h {
                solid(&mut enc, Square::new(x, y));
            }
        }
        for (x1, y1, x2, y2) in walls {
            enc.grid.walls.push(Wall { from: Point::lattice(x1, y1), to: Point::lattice(x2, y2), kind: WallKind::Solid });
        }
        let options = Options {
            improved,
            shove: if prone { ShoveChoice::Prone } else { ShoveChoice::Push },
            target_avoids: avoids,
            maintained,
            escape_artist: artist,
            charging: maintained,
            aoo_damage: 0,
        };
        let mut budget = Budget::new(2_000_000);
        let Ok(scene) = Scene::new(&enc, &mut budget) else { return Ok(()) };
        if let Ok(ans) = maneuver(&scene, 0, 1, kind, &options, &mut OddsOnly, &mut budget) {
            prop_assert!(ans.odds.success.to_f64() >= 0.0 && ans.odds.success.to_f64() <= 1.0);
            let total = ans.odds.bands.iter().fold(Ratio::ZERO, |s, (_, p)| s.plus(*p));
            prop_assert_eq!(total, Ratio::ONE);
            let wins = ans.odds.bands.iter().filter(|(b, _)| b.success()).fold(Ratio::ZERO, |s, (_, p)| s.plus(*p));
            prop_assert_eq!(wins, ans.odds.success);
            // Pushes: the displacement distribution is a distribution, and never beyond the rule's push.
            if !ans.odds.moved.is_empty() {
                let moved = ans.odds.moved.iter().fold(Ratio::ZERO, |s, (_, p)| s.plus(*p));
                prop_assert_eq!(moved, Ratio::ONE);
            }
            // Only a maneuver with no check (overrun the target avoids) is settled without dice.
            prop_assert!(ans.success.is_none() || ans.check == CheckKind::None);
            let mut budget = Budget::new(2_000_000);
            let rolled = maneuver(&scene, 0, 1, kind, &options, &mut XorShift(seed), &mut budget);
            if let Ok(r) = &rolled {
                // Issue 13: every die rolled is narrated once, with its face.
                prop_assert_eq!(rolls_narrated(&r.trace, &r.rolls), Ok(()));
                prop_assert_eq!(repeated_step(&r.trace), None);
            }
            if let Ok(r) = rolled
                && let Some(band) = r.band
            {
                prop_assert!(ans.odds.bands.iter().any(|(b, p)| *b == band && *p != Ratio::ZERO));
                prop_assert_eq!(Some(band.success()), r.success);
                // The displacement rolled is one the odds give a chance to.
                if let Some(p) = r.effects.as_ref().and_then(|e| e.push.as_ref()) {
                    prop_assert!(ans.odds.moved.iter().any(|(ft, w)| *ft == p.moved_ft && *w != Ratio::ZERO));
                    prop_assert!(p.moved_ft <= p.wanted_ft);
                }
            }
        }
    }
}

fn scene_of(enc: &Encounter) -> Scene<'_> {
    Scene::new(enc, &mut Budget::unlimited()).unwrap()
}

/// `pf1e.maneuver.overrun`: through a Large target's 2×2 space to the first square beyond.
#[test]
fn overrun_passes_through_a_large_space() {
    let mut cs = pair((0, 1), (1, 0));
    cs[1].size = Size::Large;
    let enc = encounter(RulesetId::Pf1e, 6, 4, cs);
    let m = push::through(&scene_of(&enc), 0, 1, &mut Budget::unlimited()).unwrap();
    assert_eq!(m.walk.direction, (1, 0));
    assert_eq!(m.walk.path, vec![Square::new(1, 1), Square::new(2, 1), Square::new(3, 1)]);
    assert_eq!((m.walk.moved_ft, m.walk.stopped.clone()), (15, None));
}

/// An overrun cannot end on another creature beyond the target: the walk stops there.
#[test]
fn overrun_through_stops_at_a_creature_beyond() {
    let mut cs = pair((1, 1), (2, 1));
    cs.push(Creature::new("o", "b", Square::new(3, 1), Size::Medium));
    let enc = encounter(RulesetId::Pf1e, 6, 3, cs);
    let m = push::through(&scene_of(&enc), 0, 1, &mut Budget::unlimited()).unwrap();
    assert_eq!(m.walk.to, Square::new(2, 1));
    assert!(matches!(m.walk.stopped, Some(PushStop::Creature { ref creature, .. }) if creature == "o"));
}

/// A failed overrun declared from afar: king's moves toward the target until adjacent.
#[test]
fn front_walks_until_adjacent() {
    let enc = encounter(RulesetId::Pf1e, 8, 4, pair((0, 0), (4, 1)));
    let m = push::front(&scene_of(&enc), 0, 1, &mut Budget::unlimited()).unwrap();
    assert_eq!(m.walk.path, vec![Square::new(1, 1), Square::new(2, 1), Square::new(3, 1)]);
    assert_eq!(m.walk.wanted_ft, 15);
    // Adjacent already: no movement.
    let enc = encounter(RulesetId::Pf1e, 8, 4, pair((3, 2), (4, 1)));
    let m = push::front(&scene_of(&enc), 0, 1, &mut Budget::unlimited()).unwrap();
    assert!(m.walk.path.is_empty() && m.walk.to == Square::new(3, 2));
}
