//! The DMG grid procedure (RULES.md `dnd5e.cover.grid`, `dnd5e.cover.half-cap`) written out
//! plainly, every choice judged in full, against `cover`, which counts the later choices with
//! yes/no walks and judges one in full only when it could beat the best so far.

use arbiter_rules::budget::Budget;
use arbiter_rules::cover::{AttackKind, CoverDegree, cover};
use arbiter_rules::encounter::{Creature, Encounter, Environment, Grid, Size, Terrain};
use arbiter_rules::grid::line::{Blockers, Element, Endpoint, Grazing, Segment};
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use proptest::prelude::*;

const W: i32 = 9;

#[derive(Debug, Clone)]
struct Setup {
    ruleset: RulesetId,
    half_cap: bool,
    terrain: Vec<u8>,
    attacker: (i32, i32, Size),
    target: (i32, i32, Size),
    others: Vec<(i32, i32)>,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        prop::sample::select(vec![RulesetId::Dnd5e2014, RulesetId::Dnd5e2024]),
        any::<bool>(),
        prop::collection::vec(prop_oneof![5 => Just(0u8), 1 => Just(1u8), 2 => Just(2u8)], (W * W) as usize),
        (0..W - 1, 0..W - 1, prop::sample::select(vec![Size::Medium, Size::Large])),
        (0..W - 1, 0..W - 1, prop::sample::select(vec![Size::Medium, Size::Large])),
        prop::collection::vec((0..W, 0..W), 0..5),
    )
        .prop_map(|(ruleset, half_cap, terrain, attacker, target, others)| Setup {
            ruleset,
            half_cap,
            terrain,
            attacker,
            target,
            others,
        })
}

/// The encounter (no walls, so every corner is a bare point); `None` when the two creatures
/// overlap or leave the map. No terrain under a creature.
fn build(s: &Setup) -> Option<Encounter> {
    let mut grid = Grid::open(W, W);
    grid.terrain =
        s.terrain.iter().map(|t| [Terrain::OPEN, Terrain::SOLID, Terrain::LOW][*t as usize]).collect();
    let mut creatures = vec![
        Creature::new("a", "x", Square::new(s.attacker.0, s.attacker.1), s.attacker.2),
        Creature::new("t", "y", Square::new(s.target.0, s.target.1), s.target.2),
    ];
    for (i, (x, y)) in s.others.iter().enumerate() {
        creatures.push(Creature::new(&format!("o{i}"), "z", Square::new(*x, *y), Size::Medium));
    }
    let rules = s.ruleset.rules();
    let mut enc = crate::common::placed_pair(Encounter {
        ruleset: s.ruleset,
        variants: Variants::resolve(rules, [("dnd5e.cover.half-cap", s.half_cap)]),
        grid,
        environment: Environment::default(),
        creatures,
    })?;
    let spaces: Vec<_> = enc.creatures.iter().map(|c| enc.space(c)).collect();
    for y in 0..W {
        for x in 0..W {
            if spaces.iter().any(|s| s.contains(Square::new(x, y))) {
                enc.grid.terrain[(y * W + x) as usize] = Terrain::OPEN;
            }
        }
    }
    Some(enc)
}

/// What the procedure chose: the degree, the attacker's corner and the target's square.
type Choice = (CoverDegree, Point, Square);

/// Every corner of the attacker, every target square, four lines each: 1–2 blocked lines give
/// half cover, 3–4 three-quarters; with the half cap, a choice blocked only by creatures and
/// low obstacles is capped at half. The least (degree, blocked lines) wins, the first of equals.
fn reference(enc: &Encounter) -> Choice {
    let (sa, st) = (enc.space(&enc.creatures[0]), enc.space(&enc.creatures[1]));
    let occupied = |sq: Square| enc.creatures.iter().skip(2).any(|c| enc.space(c).contains(sq));
    let squares = |sq: Square| {
        let t = enc.grid.terrain(sq);
        let blocks = !sa.contains(sq) && !st.contains(sq) && (t.0 != 0 || occupied(sq));
        blocks.then_some(Grazing::Off)
    };
    let scene = Scene::new(enc, &mut Budget::unlimited()).unwrap();
    let blockers = Blockers::new(&squares, &scene.walls, |_: u32| None);
    let hard = |e: Element| matches!(e, Element::Square(sq) if enc.grid.terrain(sq).has(Terrain::SOLID));
    let cap = enc.variants.is_on("dnd5e.cover.half-cap");
    let mut corners: Vec<Point> = Vec::new();
    for sq in sa.squares() {
        for c in sq.corners() {
            if !corners.contains(&c) {
                corners.push(c);
            }
        }
    }
    let mut best: Option<(CoverDegree, u32, Point, Square)> = None;
    for &c in &corners {
        for t in st.squares() {
            let (mut blocked, mut any_hard) = (0, false);
            for e in t.corners() {
                let seg = Segment::between(Endpoint::point(c), Endpoint::point(e));
                let hits = blockers.trace(&seg, &mut Budget::unlimited()).unwrap().hits;
                if !hits.is_empty() {
                    blocked += 1;
                    any_hard |= hits.iter().any(|h| h.blocks_keeping(hard));
                }
            }
            let counted = match blocked {
                0 => CoverDegree::None,
                1 | 2 => CoverDegree::Half,
                _ => CoverDegree::ThreeQuarters,
            };
            let degree =
                if cap && blocked > 0 && !any_hard { counted.min(CoverDegree::Half) } else { counted };
            if best.is_none_or(|(d, b, _, _)| (degree, blocked) < (d, b)) {
                best = Some((degree, blocked, c, t));
            }
        }
    }
    let (degree, _, corner, square) = best.unwrap();
    (degree, corner, square)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn the_grid_procedure_keeps_the_least_choice(s in setup()) {
        let Some(enc) = build(&s) else { return Ok(()) };
        let mut budget = Budget::unlimited();
        let scene = Scene::new(&enc, &mut budget).unwrap();
        let answer = cover(&scene, 0, 1, AttackKind::Ranged, None, &mut budget).unwrap();
        // Total cover (no line of effect) is decided before any choice.
        prop_assume!(answer.degree != CoverDegree::Total);
        let (degree, corner, square) = reference(&enc);
        prop_assert_eq!(answer.degree, degree);
        prop_assert_eq!(answer.corner, Some(corner));
        prop_assert_eq!(answer.target_square, Some(square));
    }
}
