//! Issue 13, "correct, complete narration": each decision narrated once and rightly, every
//! die rolled narrated once with its value and what it decided (attack, concealment,
//! initiative, maneuvers, movement).

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{Condition, Creature, Encounter, Environment, Grid, Light, Size};
use arbiter_rules::grid::Square;
use arbiter_rules::movement::{Mode, MoveOptions, Movement, movement};
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use arbiter_rules::trace::{Effect, VisionEffect};
use arbiter_rules::vision::{Attack, Cause, concealment};

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
