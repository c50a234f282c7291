//! Property tests for reach (issue #14): for a Large or Huge creature, with or without a
//! reach weapon, wherever the target stands, the melee cover answer's `in_reach`, the
//! flanking answer's threat, the melee range answer's `allowed` and RULES.md's own numbers
//! (`pf1e.size.table`, `pf1e.reach.threatened`, Q-09, Q-47), counted here by hand, agree.

use arbiter_rules::budget::Budget;
use arbiter_rules::cover::{AttackKind, cover};
use arbiter_rules::encounter::{
    Creature, Encounter, Environment, Grid, Size, Weapon, WeaponKind, WeaponProperty,
};
use arbiter_rules::flanking::flanking;
use arbiter_rules::grid::Square;
use arbiter_rules::range::range;
use arbiter_rules::ruleset::{RulesetId, Variants};
use arbiter_rules::scene::Scene;
use proptest::prelude::*;

const W: i32 = 16;

#[derive(Debug, Clone)]
struct Setup {
    ruleset: RulesetId,
    q09: bool,
    attacker: (i32, i32, Size),
    reach_weapon: bool,
    /// The target's offset from the attacker's anchor, and its size.
    target: (i32, i32, Size),
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        prop::sample::select(vec![RulesetId::Pf1e, RulesetId::Hb3d, RulesetId::Sf1e]),
        any::<bool>(),
        (0..W - 3, 0..W - 3, prop::sample::select(vec![Size::Large, Size::Huge])),
        prop::bool::weighted(0.8),
        // Near enough that the dead zone and the band's far edge are both common.
        (-8..=8i32, -8..=8i32, prop::sample::select(vec![Size::Medium, Size::Medium, Size::Large])),
    )
        .prop_map(|(ruleset, q09, attacker, reach_weapon, target)| Setup {
            ruleset,
            q09,
            attacker,
            reach_weapon,
            target,
        })
}

fn melee_weapon(reach: bool) -> Weapon {
    let properties = if reach { vec![WeaponProperty::Reach] } else { Vec::new() };
    Weapon { kind: Some(WeaponKind::Melee), properties, ..Weapon::default() }
}

/// The encounter, or `None` when the target overlaps the attacker or leaves the map.
fn build(s: &Setup) -> Option<Encounter> {
    let (ax, ay, size) = s.attacker;
    let mut a = Creature::new("a", "x", Square::new(ax, ay), size);
    a.wielding = Some(melee_weapon(s.reach_weapon));
    let t = Creature::new("t", "y", Square::new(ax + s.target.0, ay + s.target.1), s.target.2);
    let enc = Encounter {
        ruleset: s.ruleset,
        variants: Variants::resolve(s.ruleset.rules(), [("pf1e.reach.tenFootDiagonal", s.q09)]),
        grid: Grid::open(W, W),
        environment: Environment::default(),
        creatures: vec![a, t],
    };
    crate::common::placed_pair(enc)
}

/// RULES.md by hand: `grid.distance.alternating` from the attacker's space to each target
/// square; natural reach (tall) 10 ft Large, 15 ft Huge; a reach weapon doubles it, and in PF1
/// and hb3d cannot hit at natural reach or less (SF can, Q-47); 10 ft reach takes the second
/// diagonal in SF and with Q-09.
fn by_hand(s: &Setup, enc: &Encounter) -> bool {
    let natural = match s.attacker.2 {
        Size::Large => 10,
        _ => 15,
    };
    let (lo, hi) = match (s.reach_weapon, s.ruleset) {
        (false, _) => (0, natural),
        (true, RulesetId::Sf1e) => (0, 2 * natural),
        (true, _) => (natural, 2 * natural),
    };
    let second_diagonal = s.ruleset == RulesetId::Sf1e || s.q09;
    let a = enc.space(&enc.creatures[0]);
    enc.space(&enc.creatures[1]).squares().any(|t| {
        let gap = |min: i32, max: i32, v: i32| (min - v).max(v - max).max(0);
        let (gx, gy) = (gap(a.min_x(), a.max_x(), t.x), gap(a.min_y(), a.max_y(), t.y));
        let feet = 5 * (gx.max(gy) + gx.min(gy) / 2);
        (lo < feet && feet <= hi) || (second_diagonal && hi == 10 && lo < 15 && gx == 2 && gy == 2)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn cover_in_reach_is_the_flanking_threat_and_the_attack_range(s in setup()) {
        let Some(enc) = build(&s) else { return Ok(()) };
        let mut budget = Budget::unlimited();
        let scene = Scene::new(&enc, &mut budget).unwrap();
        let c = cover(&scene, 0, 1, AttackKind::Melee, None, &mut budget).unwrap();
        let f = flanking(&scene, 0, 1, &mut budget).unwrap();
        let threat = f.threatened.iter().find(|t| t.creature == 0).map(|t| t.threatens_target);
        prop_assert_eq!(c.in_reach, threat, "cover in_reach vs flanking threat");
        let r = range(&scene, 0, 1, &melee_weapon(s.reach_weapon), &mut budget).unwrap();
        prop_assert_eq!(Some(r.allowed), threat, "attack range vs flanking threat");
        prop_assert_eq!(threat, Some(by_hand(&s, &enc)), "RULES.md by hand");
    }
}
