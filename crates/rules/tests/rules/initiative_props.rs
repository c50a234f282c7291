//! Initiative: a property test — no panic on arbitrary bonuses, conditions, surprise and
//! groups; the chances of acting first sum to exactly one; a rolled order never puts a lower
//! total before a higher one.

use crate::common::{XorShift, repeated_step};
use arbiter_rules::trace::narration::rolls_narrated;

use arbiter_rules::budget::Budget;
use arbiter_rules::dice::{OddsOnly, Ratio};
use arbiter_rules::encounter::{Condition, Creature, Encounter, Environment, Grid, Size};
use arbiter_rules::grid::Square;
use arbiter_rules::initiative::{InitiativeQuestion, initiative};
use arbiter_rules::ruleset::{RulesetId, Variants};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn initiative_orders_and_odds(
        rs in prop::sample::select(RulesetId::ALL.to_vec()),
        stats in prop::collection::vec((prop::option::of(-3i32..8), prop::option::of(-2i32..5), any::<bool>(), any::<bool>(), any::<bool>()), 1..9),
        group in any::<bool>(),
        seed in 1u64..u64::MAX,
    ) {
        let creatures: Vec<Creature> = stats
            .iter()
            .enumerate()
            .map(|(i, (bonus, dex, invisible, stunned, _))| {
                let mut c = Creature::new(&format!("c{i}"), if i % 2 == 0 { "a" } else { "b" }, Square::new(i as i32, 0), Size::Medium);
                c.stats.initiative_bonus = *bonus;
                c.stats.dex_mod = dex.or(Some(0));
                if *invisible { c.conditions.push(Condition::Invisible); }
                if *stunned { c.conditions.push(Condition::Stunned); }
                c
            })
            .collect();
        let n = creatures.len();
        let enc = Encounter {
            ruleset: rs,
            variants: Variants::resolve(rs.rules(), []),
            grid: Grid::open(10, 2),
            environment: Environment::default(),
            creatures,
        };
        let q = InitiativeQuestion {
            creatures: None,
            surprised: stats.iter().enumerate().filter(|(_, s)| s.4).map(|(i, _)| i).collect(),
            groups: if group && rs.is_dnd5e() && n >= 2 { vec![vec![0, 1]] } else { Vec::new() },
        };
        let odds = initiative(&enc, &q, &mut OddsOnly, &mut Budget::new(2_000_000)).unwrap();
        let p: f64 = odds.first.iter().map(|f| f.p).sum();
        prop_assert!((p - 1.0).abs() < 1e-9, "{}", p);
        if odds.first.iter().all(|f| f.exact.is_some()) {
            let exact = odds.first.iter().fold(Ratio::ZERO, |s, f| s.plus(f.exact.unwrap_or(Ratio::ZERO)));
            prop_assert_eq!(exact, Ratio::ONE);
        }
        let rolled = initiative(&enc, &q, &mut XorShift(seed), &mut Budget::new(2_000_000)).unwrap();
        prop_assert!(rolled.rolled);
        // Issue 13: every die rolled (roll-offs included) is narrated once, with its face.
        prop_assert_eq!(rolls_narrated(&rolled.trace, &rolled.rolls), Ok(()));
        prop_assert_eq!(repeated_step(&rolled.trace), None);
        prop_assert_eq!(rolled.order.len(), n);
        for w in rolled.order.windows(2) {
            prop_assert!(w[0].total >= w[1].total);
        }
    }
}
