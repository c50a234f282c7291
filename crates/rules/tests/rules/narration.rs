//! Issue 13, "correct, complete narration": each decision narrated once and rightly, every
//! die rolled narrated once with its value and what it decided (attack, concealment,
//! initiative, maneuvers, movement).

use arbiter_rules::attack::{AttackAnswer, Situational, attack};
use arbiter_rules::budget::Budget;
use arbiter_rules::dice::{GivenDice, Purpose};
use arbiter_rules::encounter::{
    Condition, Creature, Encounter, Environment, Grid, Light, Size, Terrain, Weapon, WeaponKind,
};
use arbiter_rules::grid::Square;
use arbiter_rules::initiative::{InitiativeQuestion, initiative};
use arbiter_rules::maneuver::{Kind, Options, maneuver};
use arbiter_rules::movement::{Mode, MoveOptions, Movement, movement};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use arbiter_rules::trace::{
    AttackEffect, Effect, GridEffect, InitiativeEffect, ManeuverEffect, RollMode, VisionEffect,
};
use arbiter_rules::vision::{Attack, Cause, Sense, concealment};

fn enc(ruleset: RulesetId, width: i32, creatures: Vec<Creature>) -> Encounter {
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), []),
        grid: Grid::open(width, 1),
        environment: Environment::default(),
        creatures,
    }
}

fn medium(id: &str, side: &str, x: i32) -> Creature {
    Creature::new(id, side, Square::new(x, 0), Size::Medium)
}

/// RULES.md `dnd5e.vision.light-and-darkvision`: both in darkness without darkvision, each
/// cannot see the other; the trace says so once for each, naming whom the darkness is about
/// (it said "the target is in darkness" twice, the second time of the attacker).
#[test]
fn dnd5e_darkness_names_who_is_unseen() {
    for r in [RulesetId::Dnd5e2014, RulesetId::Dnd5e2024] {
        let mut e = enc(r, 7, vec![medium("A", "a", 0), medium("T", "t", 6)]);
        e.grid.light = Light::Darkness;
        let mut budget = Budget::unlimited();
        let scene = Scene::new(&e, &mut budget).unwrap();
        let c = concealment(&scene, 0, 1, Attack::Ranged, &mut budget).unwrap();
        assert!(!c.attacker_sees_target && !c.target_sees_attacker, "{r:?}");
        let unseen: Vec<_> = c
            .trace
            .steps
            .iter()
            .filter_map(|s| match &s.effect {
                Effect::Vision(VisionEffect::Unseen { observer, subject, cause }) => {
                    Some((observer.as_str(), subject.as_str(), *cause))
                }
                _ => None,
            })
            .collect();
        assert_eq!(unseen, [("A", "T", Cause::Darkness), ("T", "A", Cause::Darkness)], "{r:?}");
        assert!(
            !c.trace.steps.iter().any(|s| matches!(s.effect, Effect::Vision(VisionEffect::Cause { .. }))),
            "{r:?}: a cause that says \"the target\" of either creature"
        );
    }
}

/// A walk east along row 0 from (0,0), `squares` long, by a Medium creature of speed 30 ft.
fn walk_east(ruleset: RulesetId, squares: i32, prone: bool, options: &MoveOptions) -> Movement {
    let mut mover = medium("M", "m", 0);
    mover.speed_ft = Some(30);
    if prone {
        mover.conditions.push(Condition::Prone);
    }
    let e = enc(ruleset, 20, vec![mover]);
    let path: Vec<Square> = (1..=squares).map(|x| Square::new(x, 0)).collect();
    let mut budget = Budget::unlimited();
    let scene = Scene::new(&e, &mut budget).unwrap();
    movement(&scene, 0, &path, Mode::Walk, options, &mut budget).unwrap()
}

/// Issue 13 (`move_actions: 3`): RULES.md `pf1e.grid.distance-and-movement` and
/// `pf1e.prone`: a move action moves up to the speed, a double move is two move actions, and
/// standing up is a move action. A turn has two at most; a path longer than that allowance is
/// illegal and its legal part uses the two it may (it counted one per 30 ft asked for).
#[test]
fn pf1_move_actions_never_exceed_two() {
    for r in [RulesetId::Pf1e, RulesetId::Sf1e, RulesetId::Hb3d] {
        let walk = MoveOptions::default();
        let count = |m: &Movement| (m.legal, m.move_actions);
        // 6 squares = 30 ft: one move action; 12 = 60 ft: a double move.
        assert_eq!(count(&walk_east(r, 6, false, &walk)), (true, Some(1)), "{r:?}");
        assert_eq!(count(&walk_east(r, 7, false, &walk)), (true, Some(2)), "{r:?}");
        assert_eq!(count(&walk_east(r, 12, false, &walk)), (true, Some(2)), "{r:?}");
        // 13 squares = 65 ft: beyond a double move, illegal; it stops on (12,0).
        let far = walk_east(r, 13, false, &walk);
        assert_eq!((count(&far), far.last_legal), ((false, Some(2)), Square::new(12, 0)), "{r:?}");
        // Standing up, then 7 squares = 35 ft: one move action of movement is left (30 ft).
        let stand = MoveOptions { stand_up: true, ..MoveOptions::default() };
        assert_eq!(count(&walk_east(r, 6, true, &stand)), (true, Some(2)), "{r:?}");
        assert_eq!(count(&walk_east(r, 7, true, &stand)), (false, Some(2)), "{r:?}");
        // Crawling: 5 ft per move action, so 3 squares are one too many.
        assert_eq!(count(&walk_east(r, 2, true, &walk)), (true, Some(2)), "{r:?}");
        assert_eq!(count(&walk_east(r, 3, true, &walk)), (false, Some(2)), "{r:?}");
    }
}

/// An attack by the first creature (attack bonus `bonus`) on the second (AC `ac`), with the
/// given faces, every one of them used.
fn attack_with(
    mut e: Encounter,
    bonus: i32,
    ac: i32,
    kind: WeaponKind,
    faces: Vec<(Purpose, Vec<i64>)>,
) -> AttackAnswer {
    e.creatures[0].stats.attack_bonus = Some(bonus);
    e.creatures[1].stats.ac = Some(ac);
    let weapon = Weapon {
        kind: Some(kind),
        normal_ft: Some(100),
        long_ft: Some(400),
        increment_ft: Some(100),
        ..Weapon::default()
    };
    let mut dice = GivenDice::new(faces);
    let mut budget = Budget::unlimited();
    let scene = Scene::new(&e, &mut budget).unwrap();
    let a = attack(&scene, 0, 1, &weapon, &Situational::default(), &mut dice, &mut budget).unwrap();
    assert!(dice.unused().is_empty(), "{:?}", dice.unused());
    a
}

fn attack_steps(a: &AttackAnswer) -> Vec<AttackEffect> {
    a.trace
        .steps
        .iter()
        .filter_map(|s| match &s.effect {
            Effect::Attack(e) => Some(e.clone()),
            _ => None,
        })
        .collect()
}

/// RULES.md `pf1e.attack.hit-and-natural-rolls`: a natural 20 threatens; the confirmation
/// roll (9 + 4 = 13 against AC 18) fails, so a normal hit. The confirmation die is a step.
#[test]
fn pf1_confirmation_roll_is_narrated() {
    let e = enc(RulesetId::Pf1e, 4, vec![medium("A", "a", 0), medium("T", "t", 1)]);
    let a = attack_with(
        e,
        4,
        18,
        WeaponKind::Melee,
        vec![(Purpose::Attack, vec![20]), (Purpose::Confirm, vec![9])],
    );
    assert_eq!((a.hit, a.critical), (Some(true), Some(false)));
    let confirmation =
        AttackEffect::Confirmation { natural: 9, total: 13, target_number: 18, confirmed: false };
    assert_eq!(attack_steps(&a).iter().filter(|s| **s == confirmation).count(), 1, "{:?}", attack_steps(&a));
}

/// RULES.md `pf1e.concealment.miss-chance`: through fog (20 %), a hit loses to d% 1–20 and
/// stands on 21–100. The d% is a step with its face and what it decided.
#[test]
fn pf1_miss_chance_roll_is_narrated() {
    for (roll, missed) in [(17, true), (20, true), (21, false)] {
        let mut e = enc(RulesetId::Pf1e, 6, vec![medium("A", "a", 0), medium("T", "t", 5)]);
        e.grid.terrain = vec![Terrain::OPEN; 6];
        e.grid.terrain[2] = Terrain::CONCEALING;
        let a = attack_with(
            e,
            5,
            15,
            WeaponKind::Ranged,
            vec![(Purpose::Attack, vec![15]), (Purpose::MissChance, vec![i64::from(roll)])],
        );
        assert_eq!((a.miss_chance, a.hit), (20, Some(!missed)), "d% {roll}");
        let step = AttackEffect::MissChanceRoll { roll, miss_chance: 20, missed };
        assert_eq!(
            attack_steps(&a).iter().filter(|s| **s == step).count(),
            1,
            "d% {roll}: {:?}",
            attack_steps(&a)
        );
    }
}

/// RULES.md `dnd5e.prone.attacks` and `dnd5e.advantage.combine`: a melee attack on a prone
/// target within 5 ft has advantage: both d20 are narrated, the higher kept.
#[test]
fn dnd5e_both_dice_of_advantage_are_narrated() {
    let mut e = enc(RulesetId::Dnd5e2014, 4, vec![medium("A", "a", 0), medium("T", "t", 1)]);
    e.creatures[1].conditions.push(Condition::Prone);
    let a = attack_with(e, 5, 15, WeaponKind::Melee, vec![(Purpose::Attack, vec![7, 15])]);
    assert_eq!((a.roll_mode, a.natural), (RollMode::Advantage, Some(15)));
    let dice =
        AttackEffect::AttackDice { faces: vec![7, 15], sides: 20, mode: RollMode::Advantage, natural: 15 };
    assert!(attack_steps(&a).contains(&dice), "{:?}", attack_steps(&a));
}

/// RULES.md `hb3d.attack.roll`: 3d6 + ATT; the three faces are narrated, and their sum.
#[test]
fn hb3d_three_attack_dice_are_narrated() {
    let mut e = enc(RulesetId::Hb3d, 4, vec![medium("A", "a", 0), medium("T", "t", 1)]);
    e.creatures[1].stats.def = Some(15);
    let a = attack_with(e, 5, 15, WeaponKind::Melee, vec![(Purpose::Attack, vec![4, 4, 3])]);
    assert_eq!((a.natural, a.total, a.hit), (Some(11), Some(16), Some(true)));
    let dice =
        AttackEffect::AttackDice { faces: vec![4, 4, 3], sides: 6, mode: RollMode::Normal, natural: 11 };
    assert!(attack_steps(&a).contains(&dice), "{:?}", attack_steps(&a));
}

/// RULES.md `pf1e.initiative`: equal totals (12) and modifiers (+2) roll off: a 8, b 15 →
/// b first. Each roll-off die is a step (they were not narrated at all).
#[test]
fn pf1_initiative_roll_offs_are_narrated() {
    let mut e = enc(RulesetId::Pf1e, 10, vec![medium("a", "party", 0), medium("b", "monsters", 5)]);
    e.creatures.iter_mut().for_each(|c| c.stats.initiative_bonus = Some(2));
    let faces =
        vec![(Purpose::Initiative("a".into()), vec![10, 8]), (Purpose::Initiative("b".into()), vec![10, 15])];
    let q = InitiativeQuestion { creatures: None, surprised: Vec::new(), groups: Vec::new() };
    let i = initiative(&e, &q, &mut GivenDice::new(faces), &mut Budget::unlimited()).unwrap();
    let roll_offs: Vec<_> = i
        .trace
        .steps
        .iter()
        .filter_map(|s| match &s.effect {
            Effect::Initiative(InitiativeEffect::RollOff { creature, round, faces, .. }) => {
                Some((creature.as_str(), *round, faces.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(roll_offs, [("a", 1, vec![8]), ("b", 1, vec![15])]);
}

/// RULES.md `dnd5e2014.grapple.check`: A's Athletics +5 rolls 12 (17) against T's
/// Acrobatics +6 rolling 11 (17); the opposing die is a step of its own.
#[test]
fn dnd5e2014_opposed_roll_is_narrated() {
    let mut e = enc(RulesetId::Dnd5e2014, 8, vec![medium("A", "party", 2), medium("T", "monsters", 3)]);
    e.creatures[0].stats.athletics = Some(5);
    e.creatures[1].size = Size::Small;
    (e.creatures[1].stats.athletics, e.creatures[1].stats.acrobatics) = (Some(-1), Some(6));
    let mut dice = GivenDice::new([(Purpose::Check, vec![12]), (Purpose::Opposed, vec![11])]);
    let mut budget = Budget::unlimited();
    let scene = Scene::new(&e, &mut budget).unwrap();
    let m = maneuver(&scene, 0, 1, Kind::Grapple, &Options::default(), &mut dice, &mut budget).unwrap();
    let opposed = Effect::Maneuver(ManeuverEffect::OpposedRoll { natural: 11, total: 17 });
    assert_eq!(m.trace.steps.iter().filter(|s| s.effect == opposed).count(), 1);
}

/// An attack asks range and cover, which both say that elevation is ignored: the attack says
/// it once (RULES.md §1: elevation is not modelled).
#[test]
fn an_attack_says_once_that_elevation_is_ignored() {
    let mut e = enc(RulesetId::Dnd5e2014, 4, vec![medium("A", "a", 0), medium("T", "t", 1)]);
    e.creatures[1].elevation_ft = 10;
    let a = attack_with(e, 5, 15, WeaponKind::Melee, vec![(Purpose::Attack, vec![12])]);
    let elevation = a
        .trace
        .steps
        .iter()
        .filter(|s| matches!(s.effect, Effect::Grid(GridEffect::ElevationIgnored { .. })));
    assert_eq!(elevation.count(), 1, "{:?}", a.trace.steps);
}

/// 5e blindsight: each creature perceives the other by its own blindsight; the two steps
/// name their observer (they were the same "blindsight overrides" step twice).
#[test]
fn dnd5e_each_blindsight_names_its_observer() {
    let mut e = enc(RulesetId::Dnd5e2014, 7, vec![medium("A", "a", 0), medium("T", "t", 6)]);
    e.creatures.iter_mut().for_each(|c| c.senses.blindsight_ft = 60);
    let mut budget = Budget::unlimited();
    let scene = Scene::new(&e, &mut budget).unwrap();
    let c = concealment(&scene, 0, 1, Attack::Ranged, &mut budget).unwrap();
    let senses: Vec<_> = c
        .trace
        .steps
        .iter()
        .filter_map(|s| match &s.effect {
            Effect::Vision(VisionEffect::SenseFor {
                observer, subject, sense: Sense::Blindsight, ..
            }) => Some((observer.as_str(), subject.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(senses, [("A", "T"), ("T", "A")]);
}
