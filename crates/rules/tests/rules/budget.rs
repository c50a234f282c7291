//! The work budget: cancellation and what each question is charged.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arbiter_rules::analyze::{AnalyzeQuestion, analyze};
use arbiter_rules::budget::{Budget, BudgetExceeded};
use arbiter_rules::encounter::{Creature, Encounter, Environment, Grid, Size};
use arbiter_rules::error::RulesError;
use arbiter_rules::grid::Square;
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;

fn encounter(ruleset: RulesetId, side: i32, creatures: Vec<Creature>) -> Encounter {
    Encounter {
        ruleset,
        variants: Variants::resolve(ruleset.rules(), []),
        grid: Grid::open(side, side),
        environment: Environment::default(),
        creatures,
    }
}

/// Two sides of `n` Medium creatures in two rows.
fn two_sides(n: i32) -> Vec<Creature> {
    (0..2 * n)
        .map(|i| {
            Creature::new(
                &format!("c{i}"),
                if i % 2 == 0 { "a" } else { "b" },
                Square::new(i, i % 7),
                Size::Medium,
            )
        })
        .collect()
}

#[test]
fn a_cancelled_budget_stops_an_analysis() {
    let enc = encounter(RulesetId::Pf1e, 200, two_sides(40));
    let flag = Arc::new(AtomicBool::new(false));
    let mut budget = Budget::with_cancel(u64::MAX, flag.clone());
    let scene = Scene::new(&enc, &mut budget).unwrap();
    flag.store(true, Ordering::Relaxed);
    let got = analyze(&scene, &AnalyzeQuestion::default(), &mut budget);
    assert_eq!(got.unwrap_err(), RulesError::Budget(BudgetExceeded { limit: u64::MAX, cancelled: true }));
    // The same question without the flag is answered: 40 × 40 pairs each way.
    let mut budget = Budget::with_cancel(u64::MAX, Arc::new(AtomicBool::new(false)));
    let scene = Scene::new(&enc, &mut budget).unwrap();
    assert_eq!(analyze(&scene, &AnalyzeQuestion::default(), &mut budget).unwrap().pairs.len(), 2 * 40 * 40);
}

#[test]
fn running_out_is_not_a_cancel() {
    let enc = encounter(RulesetId::Pf1e, 200, two_sides(40));
    let mut budget = Budget::new(10_000);
    let got =
        Scene::new(&enc, &mut budget).and_then(|s| analyze(&s, &AnalyzeQuestion::default(), &mut budget));
    assert_eq!(got.unwrap_err(), RulesError::Budget(BudgetExceeded { limit: 10_000, cancelled: false }));
}

// What the questions are charged, from the counting rule of `budget.rs`.

use arbiter_rules::dice::OddsOnly;
use arbiter_rules::initiative::{InitiativeQuestion, initiative};

/// `n` PF1 creatures with the same initiative bonus: every pair ties on every total.
fn identical(n: i32) -> Encounter {
    let cs = (0..n)
        .map(|i| {
            let mut c = Creature::new(&format!("g{i}"), "m", Square::new(i % 50, i / 50), Size::Medium);
            c.stats.initiative_bonus = Some(2);
            c
        })
        .collect();
    encounter(RulesetId::Pf1e, 50, cs)
}

/// The odds of acting first visit, for each of the n rollers and each of its 20 totals, every
/// other roller, at `2 + 20 / 4` = 7 units at least each: 7·20·n·(n − 1).
fn odds_floor(n: u64) -> u64 {
    7 * 20 * n * (n - 1)
}

#[test]
fn initiative_is_charged_for_the_odds_of_every_roller() {
    let enc = identical(40);
    let q = InitiativeQuestion::default();
    let mut budget = Budget::unlimited();
    initiative(&enc, &q, &mut OddsOnly, &mut budget).unwrap();
    assert!(budget.spent() >= odds_floor(40), "{} < {}", budget.spent(), odds_floor(40));
    let mut small = Budget::new(odds_floor(40));
    assert!(matches!(
        initiative(&enc, &q, &mut OddsOnly, &mut small),
        Err(RulesError::Budget(BudgetExceeded { cancelled: false, .. }))
    ));
}

#[test]
fn identical_creatures_cost_more_than_quadratically() {
    // Ties grow a polynomial of k equal rollers (3k/16 units per step on top): doubling the
    // group multiplies the cost by more than 4 (the pairs alone would give 4).
    let spent = |n| {
        let mut b = Budget::unlimited();
        initiative(&identical(n), &InitiativeQuestion::default(), &mut OddsOnly, &mut b).unwrap();
        b.spent()
    };
    let (a, b) = (spent(40), spent(80));
    assert!(b > 5 * a, "40 creatures: {a}, 80: {b}");
}

#[test]
fn analyze_charges_every_pair() {
    // 10 against 10 on an open map: 200 ordered pairs at 120 units each before any line.
    let enc = encounter(RulesetId::Dnd5e2024, 40, two_sides(10));
    let scene = Scene::new(&enc, &mut Budget::unlimited()).unwrap();
    let mut budget = Budget::unlimited();
    let a = analyze(&scene, &AnalyzeQuestion::default(), &mut budget).unwrap();
    assert_eq!(a.pairs.len(), 200);
    assert!(budget.spent() >= 200 * 120, "{}", budget.spent());
    scene.forget_sight();
    let got = analyze(&scene, &AnalyzeQuestion::default(), &mut Budget::new(200 * 120));
    assert!(matches!(got, Err(RulesError::Budget(_))));
}

#[test]
fn a_scene_too_big_for_the_budget_is_refused_before_its_cells_are_allocated() {
    // 1000 × 1000 squares at 8 per unit: 125,000 units for the cell arrays.
    let enc = encounter(RulesetId::Pf1e, 1000, Vec::new());
    let mut budget = Budget::new(124_999);
    assert!(matches!(Scene::new(&enc, &mut budget), Err(RulesError::Budget(_))));
    assert_eq!(budget.spent(), 0, "refused up front");
    let mut budget = Budget::new(125_000);
    Scene::new(&enc, &mut budget).unwrap();
    assert_eq!(budget.spent(), 125_000);
}

/// `n` Medium creatures of two alternating sides on the first `n` squares of a `side`-wide
/// map, row by row, each with a reach of `reach_ft`: everyone in reach of everyone.
fn packed(ruleset: RulesetId, n: i32, side: i32, reach_ft: u32) -> Encounter {
    let cs = (0..n)
        .map(|i| {
            let mut c = Creature::new(
                &format!("c{i}"),
                if i % 2 == 0 { "a" } else { "b" },
                Square::new(i % side, i / side),
                Size::Medium,
            );
            c.reach_ft = Some(reach_ft);
            c
        })
        .collect();
    encounter(ruleset, side, cs)
}

#[test]
fn a_flanked_pair_is_charged_for_each_helper() {
    // 60 creatures on an 8 × 8 map, reach 1,000 ft: 1,800 ordered pairs, all in reach, and
    // for each the 29 other creatures of the attacker's side are judged as helpers (PF1
    // flanking by threat) at 8 units each, besides the pair's 120.
    let enc = packed(RulesetId::Pf1e, 60, 8, 1000);
    let scene = Scene::new(&enc, &mut Budget::unlimited()).unwrap();
    let mut budget = Budget::unlimited();
    let a = analyze(&scene, &AnalyzeQuestion::default(), &mut budget).unwrap();
    assert_eq!(a.pairs.len(), 1800);
    assert!(a.pairs.iter().all(|p| p.in_reach && p.flanking.is_some()));
    let floor = 1800 * (120 + 29 * 8);
    assert!(budget.spent() >= floor, "{} < {floor}", budget.spent());
}

#[test]
fn the_packed_500_creature_analysis_is_refused_by_the_default_budget() {
    // Issue 25: 500 creatures on 500 of a 25 × 25 map's squares, reach 1,000 ft: 125,000
    // ordered pairs, each in reach with 249 helpers, far beyond the 5,000,000 units; refused
    // once they are spent (the work charged before the refusal counts).
    let enc = packed(RulesetId::Pf1e, 500, 25, 1000);
    let mut budget = Budget::new(5_000_000);
    let got =
        Scene::new(&enc, &mut budget).and_then(|s| analyze(&s, &AnalyzeQuestion::default(), &mut budget));
    assert_eq!(got.unwrap_err(), RulesError::Budget(BudgetExceeded { limit: 5_000_000, cancelled: false }));
    assert!(budget.spent() > 5_000_000, "refused once the work charged passed the limit");
}
