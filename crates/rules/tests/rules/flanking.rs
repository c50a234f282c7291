//! RULES.md flanking examples (`pf1e.flanking.geometry` M9, M10 and the multi-square helper,
//! `sf1e.flanking`, `dnd5e.flanking.optional`, Q-33) checked in the rules crate.

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{Condition, Creature, Encounter, Environment, Grid, Size};
use arbiter_rules::error::RulesError;
use arbiter_rules::flanking::{Edges, FlankAnswer, FlankEffect, NotFlankedWhy, flanking};
use arbiter_rules::grid::Square;
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;

fn creature(id: &str, side: &str, x: i32, y: i32, size: Size) -> Creature {
    Creature::new(id, side, Square::new(x, y), size)
}

fn enc(ruleset: RulesetId, variants: &[(&str, bool)], creatures: Vec<Creature>) -> Encounter {
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), variants.iter().copied()),
        grid: Grid::open(10, 10),
        environment: Environment::default(),
        creatures,
    }
}

fn ask(e: &Encounter, attacker: &str, target: &str) -> Result<FlankAnswer, RulesError> {
    let mut budget = Budget::unlimited();
    let scene = Scene::new(e, &mut budget)?;
    flanking(&scene, e.find(attacker).unwrap(), e.find(target).unwrap(), &mut budget)
}

fn flankers(e: &Encounter, a: &FlankAnswer) -> Vec<String> {
    a.flankers.iter().map(|f| e.creatures[f.creature].id.clone()).collect()
}

/// Map M9: D (4,4), A (4,5), T (5,5), B (6,5), C (6,6).
fn m9(ruleset: RulesetId, variants: &[(&str, bool)]) -> Encounter {
    enc(
        ruleset,
        variants,
        vec![
            creature("D", "heroes", 4, 4, Size::Medium),
            creature("A", "heroes", 4, 5, Size::Medium),
            creature("T", "foes", 5, 5, Size::Medium),
            creature("B", "heroes", 6, 5, Size::Medium),
            creature("C", "heroes", 6, 6, Size::Medium),
        ],
    )
}

#[test]
fn m9_pathfinder_family() {
    for r in [RulesetId::Pf1e, RulesetId::Sf1e, RulesetId::Hb3d] {
        let e = m9(r, &[]);
        let a = ask(&e, "A", "T").unwrap();
        assert_eq!(flankers(&e, &a), ["B"], "{r:?}: A + B flanked, A + C not");
        assert_eq!((a.flanked, a.attack_bonus, a.advantage), (true, 2, false));
        assert_eq!(a.flankers[0].edges, Edges::WestEast);
        let d = ask(&e, "D", "T").unwrap();
        assert_eq!(flankers(&e, &d), ["C"], "{r:?}: D + C through corners");
        assert_eq!(d.flankers[0].edges, Edges::Both);
    }
}

#[test]
fn m10_large_target() {
    for r in [RulesetId::Pf1e, RulesetId::Sf1e] {
        let pair =
            |a: Creature, b: Creature| enc(r, &[], vec![a, creature("T", "foes", 5, 5, Size::Large), b]);
        let ab =
            pair(creature("A", "heroes", 4, 5, Size::Medium), creature("B", "heroes", 7, 6, Size::Medium));
        assert!(ask(&ab, "A", "T").unwrap().flanked, "{r:?}: A + B flanked");
        let cd =
            pair(creature("C", "heroes", 4, 4, Size::Medium), creature("D", "heroes", 7, 5, Size::Medium));
        assert!(!ask(&cd, "C", "T").unwrap().flanked, "{r:?}: C + D not");
    }
}

#[test]
fn multi_square_helper_and_unarmed_ally() {
    let build = |r: RulesetId, unarmed: bool| {
        let mut ally = creature("ally", "heroes", 6, 5, Size::Medium);
        ally.unarmed = unarmed;
        enc(
            r,
            &[],
            vec![
                creature("ogre", "heroes", 3, 5, Size::Large),
                creature("T", "foes", 5, 5, Size::Medium),
                ally,
            ],
        )
    };
    let e = build(RulesetId::Pf1e, false);
    let a = ask(&e, "ally", "T").unwrap();
    assert_eq!(flankers(&e, &a), ["ogre"]);
    assert_eq!(a.flankers[0].helper_square, Square::new(4, 5), "via ogre square (4,5)");
    assert!(
        !ask(&build(RulesetId::Pf1e, true), "ogre", "T").unwrap().flanked,
        "PF1: unarmed ally threatens nothing"
    );
    assert!(
        ask(&build(RulesetId::Sf1e, true), "ogre", "T").unwrap().flanked,
        "SF: the unarmed ally threatens"
    );
}

#[test]
fn dnd5e_optional_rule() {
    for r in [RulesetId::Dnd5e2014, RulesetId::Dnd5e2024] {
        let off = ask(&m9(r, &[]), "A", "T").unwrap();
        assert_eq!((off.in_force, off.flanked, off.advantage), (false, false, false));
        assert_eq!(off.trace.steps.len(), 1);
        assert_eq!(off.trace.steps[0].variant, Some("dnd5e.flanking.optional"));
        let on_enc = m9(r, &[("dnd5e.flanking.optional", true)]);
        let on = ask(&on_enc, "A", "T").unwrap();
        assert_eq!((on.in_force, on.flanked, on.advantage, on.attack_bonus), (true, true, true, 0));
        let mut knocked_out = on_enc.clone();
        knocked_out.creatures[3].conditions.push(Condition::Incapacitated);
        assert!(!ask(&knocked_out, "A", "T").unwrap().flanked, "an incapacitated ally does not flank");
    }
}

#[test]
fn q33_sides_and_conditions() {
    let e = enc(
        RulesetId::Pf1e,
        &[],
        vec![
            creature("traitor", "foes", 4, 5, Size::Medium),
            creature("T", "foes", 5, 5, Size::Medium),
            creature("B", "heroes", 6, 5, Size::Medium),
        ],
    );
    assert!(!ask(&e, "traitor", "T").unwrap().flanked, "attacking an ally never flanks");
    let mut third = e.clone();
    third.creatures[0].side = "bandits".into();
    assert!(ask(&third, "traitor", "T").unwrap().flanked, "a third side's helper counts in PF1");
    for k in [
        Condition::Unconscious,
        Condition::Paralyzed,
        Condition::Stunned,
        Condition::Pinned,
        Condition::Dazed,
    ] {
        let mut out = third.clone();
        out.creatures[2].conditions.push(k);
        assert!(!ask(&out, "traitor", "T").unwrap().flanked, "{k:?} helper");
    }
}

#[test]
fn same_creature_is_an_error() {
    let e = m9(RulesetId::Pf1e, &[]);
    assert!(matches!(ask(&e, "A", "A"), Err(RulesError::Field { pointer, .. }) if pointer == "/target"));
}

/// The flanking steps of an answer's trace.
fn flank_steps(a: &FlankAnswer) -> Vec<FlankEffect> {
    a.trace
        .steps
        .iter()
        .filter_map(|s| match &s.effect {
            arbiter_rules::trace::Effect::Flanking(f) => Some(f.clone()),
            _ => None,
        })
        .collect()
}

/// Issue 13: a target that is not flanked gets no bonus and the trace says why, once; a
/// flanked one gets its bonus from the outcome (RULES.md `pf1e.flanking.geometry`, M9: A + C
/// are not opposite, A + B are, +2).
#[test]
fn not_flanked_says_why_and_names_no_bonus() {
    for r in [RulesetId::Pf1e, RulesetId::Sf1e, RulesetId::Hb3d] {
        let mut e = m9(r, &[]);
        e.creatures.retain(|c| c.id != "B" && c.id != "D");
        let a = ask(&e, "A", "T").unwrap();
        assert_eq!((a.flanked, a.attack_bonus), (false, 0), "{r:?}");
        let steps = flank_steps(&a);
        assert_eq!(
            steps.last(),
            Some(&FlankEffect::NotFlanked { why: NotFlankedWhy::NoneOpposite }),
            "{r:?}"
        );
        assert!(!steps.iter().any(|s| matches!(s, FlankEffect::Outcome { .. })), "{r:?}: {steps:?}");
        // No helper at all.
        e.creatures.retain(|c| c.id != "C");
        let steps = flank_steps(&ask(&e, "A", "T").unwrap());
        assert_eq!(steps.last(), Some(&FlankEffect::NotFlanked { why: NotFlankedWhy::NoHelper }), "{r:?}");
        // The attacker is of the target's side.
        let mut same = m9(r, &[]);
        same.creatures.iter_mut().filter(|c| c.id == "A").for_each(|c| c.side = "foes".into());
        let steps = flank_steps(&ask(&same, "A", "T").unwrap());
        assert_eq!(
            steps.last(),
            Some(&FlankEffect::NotFlanked { why: NotFlankedWhy::AttackerOnTargetSide }),
            "{r:?}"
        );
        // Flanked: the outcome carries the +2.
        let steps = flank_steps(&ask(&m9(r, &[]), "A", "T").unwrap());
        assert!(
            matches!(steps.last(), Some(FlankEffect::Outcome { flanked: true, attack_bonus: 2, .. })),
            "{r:?}: {steps:?}"
        );
    }
}

/// The attacker that does not threaten the target cannot flank.
#[test]
fn an_attacker_out_of_reach_does_not_flank() {
    let mut e = m9(RulesetId::Hb3d, &[]);
    e.creatures.iter_mut().filter(|c| c.id == "A").for_each(|c| c.at = Square::new(0, 5));
    let steps = flank_steps(&ask(&e, "A", "T").unwrap());
    assert_eq!(steps.last(), Some(&FlankEffect::NotFlanked { why: NotFlankedWhy::AttackerCannotFlank }));
}
