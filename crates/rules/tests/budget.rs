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
