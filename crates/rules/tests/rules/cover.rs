//! RULES.md cover examples (§1 G7–G8, §2.1 M1, M2, M3, M8, §3 M4–M7, §4), written with the
//! document's own map notation and checked in the rules crate.

use arbiter_rules::budget::Budget;
use arbiter_rules::cover::{AttackKind, CoverAnswer, CoverDegree, SaveKind, cover};
use arbiter_rules::encounter::{Creature, Encounter, Environment, Grid, Size, Terrain, Wall, WallKind};
use arbiter_rules::grid::{Coord, Point, Square};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use arbiter_rules::trace::{CoverEffect, Effect};

/// Builds an encounter from RULES.md map rows: `#` solid, `=` low, `A` attacker, `T` target,
/// `o` other creatures (side "others"), `R`/`O` as named letters (medium).
fn map(ruleset: RulesetId, rows: &[&str]) -> Encounter {
    let h = rows.len() as i32;
    let w = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32;
    let mut grid = Grid::open(w, h);
    grid.terrain = vec![Terrain::OPEN; (w * h) as usize];
    let mut creatures = Vec::new();
    let mut others = 0;
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let sq = Square::new(x as i32, y as i32);
            let i = y * w as usize + x;
            match c {
                '#' => grid.terrain[i] = Terrain::SOLID,
                '=' => grid.terrain[i] = Terrain::LOW,
                'A' => creatures.push(Creature::new("A", "attackers", sq, Size::Medium)),
                'T' => creatures.push(Creature::new("T", "targets", sq, Size::Medium)),
                'o' => {
                    others += 1;
                    creatures.push(Creature::new(&format!("o{others}"), "others", sq, Size::Medium));
                }
                _ => {}
            }
        }
    }
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), []),
        grid,
        environment: Environment::default(),
        creatures,
    }
}

fn with_variant(mut e: Encounter, key: &'static str) -> Encounter {
    e.variants = Variants::resolve(e.ruleset.rules(), [(key, true)]);
    e
}

fn pt(x: f64, y: f64) -> Point {
    Point { x: Coord::from_f64(x).unwrap(), y: Coord::from_f64(y).unwrap() }
}

fn wall(e: &mut Encounter, from: (f64, f64), to: (f64, f64), kind: WallKind) {
    e.grid.walls.push(Wall { from: pt(from.0, from.1), to: pt(to.0, to.1), kind });
}

fn ask(e: &Encounter, a: &str, t: &str, attack: AttackKind) -> CoverAnswer {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(e, &mut budget).unwrap();
    cover(&scene, e.find(a).unwrap(), e.find(t).unwrap(), attack, None, &mut budget).unwrap()
}

fn place(e: &mut Encounter, id: &str, x: i32, y: i32) {
    let i = e.find(id).unwrap();
    e.creatures[i].at = Square::new(x, y);
}

const DND: [RulesetId; 2] = [RulesetId::Dnd5e2014, RulesetId::Dnd5e2024];
const PF: [RulesetId; 2] = [RulesetId::Pf1e, RulesetId::Hb3d];

const M1: [&str; 4] = ["........", "........", "A..o..T.", "........"];

#[test]
fn m1_creature_between() {
    for r in DND {
        let a = ask(&map(r, &M1), "A", "T", AttackKind::Ranged);
        assert_eq!((a.degree, a.ac_bonus, a.soft), (CoverDegree::Half, Some(2), true), "{r:?}");
        // Every corner of A has exactly 2 blocked lines.
        assert_eq!(a.lines.iter().filter(|l| l.blocked).count(), 2);
        let mut moved = map(r, &M1);
        place(&mut moved, "o1", 3, 0);
        assert_eq!(ask(&moved, "A", "T", AttackKind::Ranged).degree, CoverDegree::None);
    }
    // PF1: soft cover +4 against the arrow, nothing against a fireball's Reflex save.
    let a = ask(&map(RulesetId::Pf1e, &M1), "A", "T", AttackKind::Ranged);
    assert_eq!(
        (a.degree, a.ac_bonus, a.save_bonus, a.soft, a.allows_stealth),
        (CoverDegree::Cover, Some(4), Some(0), true, false)
    );
    let area = AttackKind::Area { origin: pt(0.0, 2.0), spread: false };
    assert_eq!(ask(&map(RulesetId::Pf1e, &M1), "A", "T", area).degree, CoverDegree::None);
    // hb3d: −4 ATT instead of +4 AC.
    let h = ask(&map(RulesetId::Hb3d, &M1), "A", "T", AttackKind::Ranged);
    assert_eq!((h.degree, h.ac_bonus, h.attack_modifier), (CoverDegree::Cover, Some(0), Some(-4)));
}

const M2: [&str; 5] = ["A..#...", "...#...", "...#...", ".......", "....T.."];

#[test]
fn m2_wall_corner() {
    for r in DND {
        let a = ask(&map(r, &M2), "A", "T", AttackKind::Ranged);
        assert_eq!((a.degree, a.ac_bonus), (CoverDegree::Half, Some(2)), "{r:?} T (4,4)");
        let mut e = map(r, &M2);
        place(&mut e, "T", 4, 3);
        let a = ask(&e, "A", "T", AttackKind::Ranged);
        assert_eq!((a.degree, a.ac_bonus), (CoverDegree::ThreeQuarters, Some(5)), "{r:?} T (4,3)");
        assert_eq!(a.corner, Some(pt(0.0, 0.0)));
        place(&mut e, "T", 5, 3);
        let a = ask(&e, "A", "T", AttackKind::Ranged);
        assert_eq!((a.degree, a.can_be_targeted), (CoverDegree::Total, false), "{r:?} T (5,3)");
    }
    for r in PF {
        let a = ask(&map(r, &M2), "A", "T", AttackKind::Ranged);
        assert_eq!(a.degree, CoverDegree::Cover, "{r:?}");
    }
    assert_eq!(ask(&map(RulesetId::Pf1e, &M2), "A", "T", AttackKind::Ranged).ac_bonus, Some(4));
    // Partial cover variant: exactly one blocked line from the best corner.
    let a = ask(&with_variant(map(RulesetId::Pf1e, &M2), "pf1e.cover.partial"), "A", "T", AttackKind::Ranged);
    assert_eq!((a.degree, a.ac_bonus, a.save_bonus), (CoverDegree::Partial, Some(2), Some(1)));
}

const M3: [&str; 5] = ["...#...", "...#...", "..A#...", ".......", ".....T."];

#[test]
fn m3_around_a_corner_is_asymmetric() {
    for r in DND {
        let a = ask(&map(r, &M3), "A", "T", AttackKind::Ranged);
        assert_eq!(a.degree, CoverDegree::None, "{r:?}");
        // RULES.md names ⟨2,3⟩; any corner whose four lines pass under the wall is as good.
        assert!(a.lines.iter().all(|l| !l.blocked));
        let back = ask(&map(r, &M3), "T", "A", AttackKind::Ranged);
        assert_eq!((back.degree, back.ac_bonus), (CoverDegree::Half, Some(2)), "{r:?}");
    }
    for r in PF {
        assert_eq!(ask(&map(r, &M3), "A", "T", AttackKind::Ranged).degree, CoverDegree::None);
        assert_eq!(ask(&map(r, &M3), "T", "A", AttackKind::Ranged).degree, CoverDegree::Cover);
    }
}

const M4: [&str; 4] = ["", "", "..A#.", "...T."];

#[test]
fn m4_adjacent_melee_diagonal_past_a_wall() {
    for r in [RulesetId::Pf1e, RulesetId::Hb3d, RulesetId::Sf1e] {
        let a = ask(&map(r, &M4), "A", "T", AttackKind::Melee);
        assert_eq!(a.degree, CoverDegree::Cover, "{r:?}");
        assert!(a.denies_opportunity_attacks, "{r:?}: pf1e.cover.aoo");
        assert_eq!(
            ask(&map(r, &M4), "T", "A", AttackKind::Melee).degree,
            CoverDegree::Cover,
            "{r:?} symmetric"
        );
        let open = map(r, &["", "", "..A..", "...T."]);
        assert_eq!(ask(&open, "A", "T", AttackKind::Melee).degree, CoverDegree::None, "{r:?} no wall");
    }
    let a = ask(&map(RulesetId::Pf1e, &M4), "A", "T", AttackKind::Melee);
    assert_eq!(a.procedure, "pf1e.cover.melee-adjacent");
    let mut ortho = map(RulesetId::Pf1e, &M4);
    place(&mut ortho, "A", 2, 3);
    assert_eq!(ask(&ortho, "A", "T", AttackKind::Melee).degree, CoverDegree::None, "orthogonally adjacent");
    let sf_ortho = map(RulesetId::Sf1e, &["", "", ".....", "..AT."]);
    assert_eq!(ask(&sf_ortho, "A", "T", AttackKind::Melee).degree, CoverDegree::None, "SF open, orthogonal");
}

const M5: [&str; 3] = ["#######", "A...T..", "#######"];

#[test]
fn m5_corridor() {
    assert_eq!(ask(&map(RulesetId::Pf1e, &M5), "A", "T", AttackKind::Ranged).degree, CoverDegree::None);
    let sf = ask(&map(RulesetId::Sf1e, &M5), "A", "T", AttackKind::Ranged);
    assert_eq!((sf.degree, sf.ac_bonus), (CoverDegree::Cover, Some(4)));
    // Adjacent in the corridor: SF literal gives cover, hence no AoO …
    let mut adj = map(RulesetId::Sf1e, &M5);
    place(&mut adj, "T", 1, 1);
    let a = ask(&adj, "A", "T", AttackKind::Melee);
    assert_eq!(a.degree, CoverDegree::Cover);
    assert!(a.denies_opportunity_attacks);
    // …unless the corridor exemption variant is on.
    let a = ask(&with_variant(adj, "sf1e.cover.corridorExemption"), "A", "T", AttackKind::Melee);
    assert_eq!(a.degree, CoverDegree::None);
    // PF1: a creature standing at (1,1) gives soft cover.
    let mut soft = map(RulesetId::Pf1e, &["#######", "Ao..T..", "#######"]);
    let a = ask(&soft, "A", "T", AttackKind::Ranged);
    assert_eq!((a.degree, a.soft), (CoverDegree::Cover, true));
    place(&mut soft, "o1", 6, 1);
    assert_eq!(ask(&soft, "A", "T", AttackKind::Ranged).degree, CoverDegree::None);
}

const M6: [&str; 4] = ["", ".....=.......", ".....=.......", ".....=......."];

#[test]
fn m6_low_wall_distances() {
    for r in [RulesetId::Pf1e, RulesetId::Sf1e, RulesetId::Hb3d] {
        let case = |ax: i32, tx: i32| {
            let mut e = map(r, &M6);
            e.creatures.push(Creature::new("A", "a", Square::new(ax, 2), Size::Medium));
            e.creatures.push(Creature::new("T", "t", Square::new(tx, 2), Size::Medium));
            ask(&e, "A", "T", AttackKind::Ranged).degree
        };
        assert_eq!(case(0, 6), CoverDegree::Cover, "{r:?}: T 5 ft from the wall, A 25 ft");
        assert_eq!(case(4, 8), CoverDegree::None, "{r:?}: A 5 ft < T 15 ft");
        assert_eq!(case(0, 12), CoverDegree::None, "{r:?}: T 35 ft > 30 ft");
        assert_eq!(case(2, 8), CoverDegree::Cover, "{r:?}: both 15 ft");
    }
    // 5e: the low wall blocks all four lines but alone gives at most half cover.
    for r in DND {
        let mut e = map(r, &M6);
        e.creatures.push(Creature::new("A", "a", Square::new(0, 2), Size::Medium));
        e.creatures.push(Creature::new("T", "t", Square::new(6, 2), Size::Medium));
        let a = ask(&e, "A", "T", AttackKind::Ranged);
        assert_eq!((a.degree, a.ac_bonus), (CoverDegree::Half, Some(2)), "{r:?}");
    }
}

/// Map M7: R rogue at (0,0), solid (1,0), Large ogre O at (1,1)–(2,2) with 10 ft reach.
fn m7() -> Encounter {
    let mut e = map(RulesetId::Pf1e, &["R#..", "....", "...."]);
    e.creatures.push(Creature::new("R", "party", Square::new(0, 0), Size::Medium));
    let mut ogre = Creature::new("O", "monsters", Square::new(1, 1), Size::Large);
    ogre.reach_ft = Some(10);
    e.creatures.push(ogre);
    e
}

#[test]
fn m7_big_creatures_and_reach() {
    let e = m7();
    let a = ask(&e, "R", "O", AttackKind::Melee);
    assert_eq!(a.degree, CoverDegree::Cover, "only (1,1) is in reach; its diagonal crosses the wall");
    assert_eq!(a.target_square, Some(Square::new(1, 1)));
    let back = ask(&e, "O", "R", AttackKind::Melee);
    assert_eq!(back.degree, CoverDegree::None, "from (1,2), reach: corner lines slide along the wall face");
}

const M8: [&str; 4] = ["", "...o..", "A..oT.", "...o.."];

#[test]
fn m8_creatures_capped_at_half() {
    for r in DND {
        let a = ask(&map(r, &M8), "A", "T", AttackKind::Ranged);
        assert_eq!((a.degree, a.ac_bonus), (CoverDegree::Half, Some(2)), "{r:?}");
        let mut off = map(r, &M8);
        off.variants = Variants::resolve(r.rules(), [("dnd5e.cover.half-cap", false)]);
        assert_eq!(
            ask(&off, "A", "T", AttackKind::Ranged).degree,
            CoverDegree::ThreeQuarters,
            "{r:?} DMG count"
        );
    }
}

#[test]
fn g7_creature_against_a_wall_on_a_grid_line() {
    for r in RulesetId::ALL {
        for (ax, tx) in [(2, 5), (2, 3), (0, 3), (1, 4)] {
            let mut e = map(r, &["", "", ""]);
            e.grid = Grid::open(8, 5);
            wall(&mut e, (3.0, 0.0), (3.0, 5.0), WallKind::Solid);
            e.creatures.push(Creature::new("A", "a", Square::new(ax, 2), Size::Medium));
            e.creatures.push(Creature::new("T", "t", Square::new(tx, 2), Size::Medium));
            let a = ask(&e, "A", "T", AttackKind::Ranged);
            assert_eq!(a.degree, CoverDegree::Total, "{r:?} A ({ax},2) T ({tx},2)");
            // Total cover has no numbers: the target cannot be targeted (issue #14).
            assert_eq!(
                (a.ac_bonus, a.save_bonus, a.attack_modifier, a.can_be_targeted),
                (None, None, None, false)
            );
        }
    }
}

#[test]
fn g8_polyline_joint_pinch() {
    for r in RulesetId::ALL {
        let mut e = map(r, &["", "", ""]);
        e.grid = Grid::open(6, 5);
        wall(&mut e, (2.5, 0.0), (2.5, 2.5), WallKind::Solid);
        wall(&mut e, (2.5, 2.5), (2.5, 5.0), WallKind::Solid);
        e.creatures.push(Creature::new("A", "a", Square::new(0, 2), Size::Medium));
        e.creatures.push(Creature::new("T", "t", Square::new(5, 2), Size::Medium));
        assert_eq!(ask(&e, "A", "T", AttackKind::Ranged).degree, CoverDegree::Total, "{r:?}");
    }
}

#[test]
fn arrow_slit_gives_improved_or_three_quarters() {
    for (r, expect, ac) in [
        (RulesetId::Pf1e, CoverDegree::Improved, 8),
        (RulesetId::Sf1e, CoverDegree::Improved, 8),
        (RulesetId::Dnd5e2024, CoverDegree::ThreeQuarters, 5),
    ] {
        let mut e = map(r, &["", "", ""]);
        e.grid = Grid::open(8, 5);
        wall(&mut e, (3.0, 0.0), (3.0, 5.0), WallKind::ArrowSlit);
        e.creatures.push(Creature::new("A", "a", Square::new(0, 2), Size::Medium));
        e.creatures.push(Creature::new("T", "t", Square::new(5, 2), Size::Medium));
        let a = ask(&e, "A", "T", AttackKind::Ranged);
        assert_eq!((a.degree, a.ac_bonus, a.can_be_targeted), (expect, Some(ac), true), "{r:?}");
    }
    let mut e = map(RulesetId::Pf1e, &["", "", ""]);
    e.grid = Grid::open(8, 5);
    wall(&mut e, (3.0, 0.0), (3.0, 5.0), WallKind::ArrowSlit);
    e.creatures.push(Creature::new("A", "a", Square::new(0, 2), Size::Medium));
    e.creatures.push(Creature::new("T", "t", Square::new(5, 2), Size::Medium));
    let a = ask(&e, "A", "T", AttackKind::Ranged);
    assert!(a.improved_evasion);
    assert_eq!((a.save_bonus, a.stealth_bonus), (Some(4), 10));
}

/// The cover steps of an answer's trace, with their rules.
fn cover_steps(a: &CoverAnswer) -> Vec<(&'static str, CoverEffect)> {
    a.trace
        .steps
        .iter()
        .filter_map(|s| match &s.effect {
            Effect::Cover(c) => Some((s.rule, c.clone())),
            _ => None,
        })
        .collect()
}

/// Issue 13: M1 in 5e (only a creature blocks, 2 lines): RULES.md `dnd5e.cover.degrees`
/// ("Half: another creature", +2 AC and Dex saves) and `dnd5e.cover.half-cap` (no hard
/// blocker, but half cover has nothing to cap). Not Pathfinder's soft cover (no Reflex bonus)
/// and not "a solid obstacle blocks".
#[test]
fn m1_5e_narrates_creature_cover_not_soft_cover() {
    for r in DND {
        let a = ask(&map(r, &M1), "A", "T", AttackKind::Ranged);
        assert_eq!(
            (a.degree, a.ac_bonus, a.save_bonus, a.save),
            (CoverDegree::Half, Some(2), Some(2), SaveKind::Dex),
            "{r:?}"
        );
        let steps = cover_steps(&a);
        assert!(!steps.iter().any(|(_, e)| *e == CoverEffect::SoftCover), "{r:?}: {steps:?}");
        assert!(!steps.iter().any(|(_, e)| matches!(e, CoverEffect::HalfCap { .. })), "{r:?}: {steps:?}");
        assert!(
            steps.contains(&("dnd5e.cover.half-cap", CoverEffect::HalfCapUnneeded { blocked: 2 })),
            "{r:?}"
        );
        assert!(
            steps.contains(&("dnd5e.cover.degrees", CoverEffect::CreatureCover { capped: true })),
            "{r:?}"
        );
    }
}

/// M8 (three creatures, 4 lines): the cap lowers three-quarters to half; with the cap off the
/// creature cover is counted as any other (three-quarters, +5).
#[test]
fn m8_5e_narrates_the_cap() {
    for r in DND {
        let steps = cover_steps(&ask(&map(r, &M8), "A", "T", AttackKind::Ranged));
        assert!(steps.contains(&("dnd5e.cover.half-cap", CoverEffect::HalfCap { capped: true })), "{r:?}");
        assert!(
            steps.contains(&("dnd5e.cover.degrees", CoverEffect::CreatureCover { capped: true })),
            "{r:?}"
        );
        let mut off = map(r, &M8);
        off.variants = Variants::resolve(r.rules(), [("dnd5e.cover.half-cap", false)]);
        let a = ask(&off, "A", "T", AttackKind::Ranged);
        assert_eq!((a.ac_bonus, a.save_bonus), (Some(5), Some(5)), "{r:?}");
        let steps = cover_steps(&a);
        assert!(
            steps.contains(&("dnd5e.cover.degrees", CoverEffect::CreatureCover { capped: false })),
            "{r:?}"
        );
        assert!(!steps.iter().any(|(rule, _)| *rule == "dnd5e.cover.half-cap"), "{r:?}: the cap is off");
    }
}

/// M2 target (4,3) in 5e: a wall blocks 3 lines, so the cap has a hard blocker: "a solid
/// obstacle blocks: no cap" is the right step there.
#[test]
fn m2_5e_a_wall_is_not_capped() {
    for r in DND {
        let mut e = map(r, &M2);
        place(&mut e, "T", 4, 3);
        let steps = cover_steps(&ask(&e, "A", "T", AttackKind::Ranged));
        assert!(steps.contains(&("dnd5e.cover.half-cap", CoverEffect::HalfCap { capped: false })), "{r:?}");
        assert!(!steps.iter().any(|(_, e)| matches!(e, CoverEffect::CreatureCover { .. })), "{r:?}");
    }
}

/// Issue 13: M7 in PF1: the big-creatures step names the squares chosen (RULES.md
/// `pf1e.cover.big-creatures`: R's (0,0) against the ogre's (1,1), adjacent; the ogre's
/// (1,2) against R's (0,0), reach) instead of repeating the choice step.
#[test]
fn m7_big_creatures_step_names_the_squares_once() {
    let e = m7();
    let cases = [("R", "O", (0, 0), (1, 1), true), ("O", "R", (1, 2), (0, 0), false)];
    for (a, t, (ax, ay), (tx, ty), adjacent_test) in cases {
        let steps = cover_steps(&ask(&e, a, t, AttackKind::Melee));
        let big = CoverEffect::BigCreatures {
            attacker_square: Some(Square::new(ax, ay)),
            target_square: Some(Square::new(tx, ty)),
            adjacent_test,
        };
        assert!(steps.contains(&("pf1e.cover.big-creatures", big)), "{a} → {t}: {steps:?}");
        let choices = steps.iter().filter(|(_, e)| matches!(e, CoverEffect::CoverChoice { .. })).count();
        assert_eq!(choices, 1, "{a} → {t}: {steps:?}");
    }
}

/// Issue 13: the SF corridor variant decides the choice step itself (one step, naming the
/// variant), not a second copy of it.
#[test]
fn m5_corridor_variant_is_named_on_the_one_choice_step() {
    let mut adj = map(RulesetId::Sf1e, &M5);
    place(&mut adj, "T", 1, 1);
    let a = ask(&with_variant(adj, "sf1e.cover.corridorExemption"), "A", "T", AttackKind::Melee);
    let choices: Vec<_> = a
        .trace
        .steps
        .iter()
        .filter(|s| matches!(s.effect, Effect::Cover(CoverEffect::CoverChoice { .. })))
        .collect();
    assert_eq!(choices.len(), 1, "{choices:?}");
    assert_eq!(choices[0].variant, Some("sf1e.cover.corridorExemption"));
}
