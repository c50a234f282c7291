//! Issue 13, "correct, complete narration": each decision narrated once and rightly, every
//! die rolled narrated once with its value and what it decided (attack, concealment,
//! initiative, maneuvers, movement).

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{Creature, Encounter, Environment, Grid, Light, Size};
use arbiter_rules::grid::Square;
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
