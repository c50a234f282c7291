//! `POST /v1/range`: distance, range band and the modifiers that follow from where the
//! attacker and the target stand (`grid.distance.*`, `dnd5e.range.normal-long`, `dnd5e.reach`,
//! `pf1e.range.increment`, `sf1e.range.increment`, `dnd5e2014.ranged.close-combat`,
//! `dnd5e2024.ranged.close-combat`, `pf1e.ranged.into-melee`).

use crate::budget::Budget;
use crate::encounter::{Condition, Creature, Encounter, Weapon, WeaponKind};
use crate::error::RulesError;
use crate::grid::{FEET_PER_SQUARE, Space};
use crate::reach;
use crate::ruleset::{RangeRule, RangedInMeleeRule, RulesetId};
use crate::scene::Scene;
use crate::trace::{AttackEffect, GridEffect, IntoMeleeExemption, RangeBand, RangeEffect, RollMode, Trace};
use crate::vision;

/// The answer to a range question.
#[derive(Debug, Clone, PartialEq)]
pub struct RangeAnswer {
    /// Distance between the two spaces, in squares.
    pub distance_squares: i64,
    /// Distance in feet.
    pub distance_ft: i64,
    /// The band the target falls in.
    pub band: RangeBand,
    /// The range increment number (PF1/SF/hb3d ranged weapons).
    pub increment: Option<u32>,
    /// Whether the weapon can reach the target at all.
    pub allowed: bool,
    /// Sum of the attack modifiers from range and shooting into melee.
    pub modifier: i32,
    /// Attack modifier from range alone.
    pub range_modifier: i32,
    /// Attack modifier from shooting into melee (PF1, hb3d).
    pub into_melee_modifier: i32,
    /// Advantage sources (none from range, kept for symmetry with the attack answer).
    pub advantage_sources: Vec<&'static str>,
    /// Disadvantage sources, by rule id.
    pub disadvantage_sources: Vec<&'static str>,
    /// The d20 roll after combining them.
    pub roll_mode: RollMode,
    /// 5e: the hostile creatures within 5 ft that impose disadvantage on a ranged attack.
    pub close_combat_by: Vec<String>,
    /// PF1: the attacker's friends engaged in melee with the target.
    pub engaged_with: Vec<String>,
    /// The farthest the weapon reaches, feet.
    pub max_ft: i64,
    /// The steps applied.
    pub trace: Trace,
}

/// The problems a weapon has under a ruleset's range rule (missing or inconsistent range
/// fields), each as a field error relative to the question body. Lets the server report them
/// together with the encounter's own problems.
pub fn weapon_problems(ruleset: RulesetId, weapon: &Weapon) -> Vec<RulesError> {
    let rules = ruleset.rules();
    let mut out = Vec::new();
    if !matches!(weapon.kind, Some(WeaponKind::Ranged | WeaponKind::Thrown)) {
        return out;
    }
    match rules.range {
        RangeRule::NormalLong { .. } => match (weapon.normal_ft, weapon.long_ft) {
            (None, _) => out.push(RulesError::field(
                "/weapon/normal_ft",
                format!(
                    "{} ranged weapons need normal_ft (and long_ft when they have a long range)",
                    rules.id
                ),
            )),
            (Some(n), Some(l)) if l < n => {
                out.push(RulesError::field("/weapon/long_ft", "long_ft must not be shorter than normal_ft"))
            }
            _ => {}
        },
        RangeRule::Increment { .. } => {
            if weapon.increment_ft.is_none_or(|i| i == 0) {
                out.push(RulesError::field(
                    "/weapon/increment_ft",
                    format!("{} ranged weapons need a positive increment_ft", rules.id),
                ));
            }
        }
    }
    out
}

/// Answers a range question between two creatures (indices into `enc.creatures`).
pub fn range(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    weapon: &Weapon,
    budget: &mut Budget,
) -> Result<RangeAnswer, RulesError> {
    let enc = scene.enc;
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    if attacker == target {
        return Err(RulesError::field("/target", "the target must be another creature than the attacker"));
    }
    let kind = weapon.kind.ok_or_else(|| RulesError::field("/weapon/kind", "the weapon needs a kind"))?;
    if let Some(e) = weapon_problems(enc.ruleset, weapon).into_iter().next() {
        return Err(e);
    }
    let mut trace = Trace::default();
    let (a_space, t_space) = (enc.space(a), enc.space(t));
    let elevated: Vec<String> = [a, t].iter().filter(|c| c.elevation_ft != 0).map(|c| c.id.clone()).collect();
    if !elevated.is_empty() {
        trace.push("grid.distance.chebyshev", GridEffect::ElevationIgnored { creatures: elevated });
    }
    let (metric, metric_variant) = reach::metric(enc);
    let squares = metric.between(&a_space, &t_space);
    let feet = squares.saturating_mul(FEET_PER_SQUARE);
    let distance = GridEffect::Distance { squares, feet, metric };
    match metric_variant {
        Some(v) => trace.push_variant(metric.rule(), v, distance),
        None => trace.push(metric.rule(), distance),
    }

    let mut answer = RangeAnswer {
        distance_squares: squares,
        distance_ft: feet,
        band: RangeBand::OutOfRange,
        increment: None,
        allowed: false,
        modifier: 0,
        range_modifier: 0,
        into_melee_modifier: 0,
        advantage_sources: Vec::new(),
        disadvantage_sources: Vec::new(),
        roll_mode: RollMode::Normal,
        close_combat_by: Vec::new(),
        engaged_with: Vec::new(),
        max_ft: 0,
        trace: Trace::default(),
    };
    match kind {
        WeaponKind::Melee => melee(enc, a, &a_space, &t_space, weapon, &mut answer, &mut trace),
        WeaponKind::Ranged | WeaponKind::Thrown => {
            ranged(enc, kind, feet, weapon, &mut answer, &mut trace)?;
            ranged_in_melee(scene, attacker, target, &mut answer, &mut trace, budget)?;
        }
    }
    answer.modifier = answer.range_modifier.saturating_add(answer.into_melee_modifier);
    answer.roll_mode = RollMode::combine(answer.advantage_sources.len(), answer.disadvantage_sources.len());
    if !answer.disadvantage_sources.is_empty() || !answer.advantage_sources.is_empty() {
        trace.push(
            "dnd5e.advantage.combine",
            AttackEffect::AdvantageCombined {
                advantage: answer.advantage_sources.len(),
                disadvantage: answer.disadvantage_sources.len(),
                result: answer.roll_mode,
            },
        );
    }
    answer.trace = trace;
    Ok(answer)
}

fn melee(
    enc: &Encounter,
    a: &Creature,
    a_space: &Space,
    t_space: &Space,
    weapon: &Weapon,
    answer: &mut RangeAnswer,
    trace: &mut Trace,
) {
    let rules = enc.ruleset.rules();
    let band = reach::band(enc, a, Some(weapon));
    let (metric, _) = reach::metric(enc);
    let test = reach::test(metric, &band, a_space, t_space);
    answer.max_ft = band.max_ft;
    answer.allowed = test.within;
    answer.band = if test.within { RangeBand::Reach } else { RangeBand::OutOfRange };
    trace.push(
        rules.reach_rule,
        RangeEffect::Reach {
            reach_ft: band.max_ft,
            too_close_ft: band.too_close_ft,
            within: test.within,
            second_diagonal: test.by_second_diagonal,
        },
    );
}

fn ranged(
    enc: &Encounter,
    kind: WeaponKind,
    feet: i64,
    weapon: &Weapon,
    answer: &mut RangeAnswer,
    trace: &mut Trace,
) -> Result<(), RulesError> {
    let rules = enc.ruleset.rules();
    match rules.range {
        RangeRule::NormalLong { rule } => {
            // Checked by `weapon_problems`; a single listed range means no attack beyond it.
            let normal = weapon.normal_ft.unwrap_or(0);
            let long = weapon.long_ft.unwrap_or(normal).max(normal);
            let (normal, long) = (i64::from(normal), i64::from(long));
            let band = if feet <= normal {
                RangeBand::Normal
            } else if feet <= long {
                RangeBand::Long
            } else {
                RangeBand::OutOfRange
            };
            answer.band = band;
            answer.allowed = band != RangeBand::OutOfRange;
            answer.max_ft = long;
            if band == RangeBand::Long {
                answer.disadvantage_sources.push(rule);
            }
            trace.push(
                rule,
                RangeEffect::RangeBand {
                    band,
                    increment: None,
                    modifier: 0,
                    disadvantage: band == RangeBand::Long,
                    max_ft: long,
                },
            );
        }
        RangeRule::Increment { rule, per_increment, max_projectile, max_thrown } => {
            // Checked by `weapon_problems`; the floor of 1 keeps the division safe regardless.
            let increment = i64::from(weapon.increment_ft.unwrap_or(1).max(1));
            let max = weapon.max_increments.unwrap_or(if kind == WeaponKind::Thrown {
                max_thrown
            } else {
                max_projectile
            });
            // "−2 for each full range increment (or fraction thereof)" past the first.
            let n = ((feet + increment - 1) / increment).max(1);
            let max_ft = increment.saturating_mul(i64::from(max));
            answer.max_ft = max_ft;
            let within = n <= i64::from(max);
            let number = u32::try_from(n).unwrap_or(u32::MAX);
            answer.increment = Some(number);
            answer.allowed = within;
            answer.band = if within { RangeBand::Increment } else { RangeBand::OutOfRange };
            let modifier = if within {
                per_increment.saturating_mul(i32::try_from(n - 1).unwrap_or(i32::MAX))
            } else {
                0
            };
            answer.range_modifier = modifier;
            trace.push(
                rule,
                RangeEffect::RangeBand {
                    band: answer.band,
                    increment: Some(number),
                    modifier,
                    disadvantage: false,
                    max_ft,
                },
            );
        }
    }
    Ok(())
}

fn ranged_in_melee(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    answer: &mut RangeAnswer,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<(), RulesError> {
    let enc = scene.enc;
    let rules = enc.ruleset.rules();
    let (Some(a), Some(t)) = (enc.creatures.get(attacker), enc.creatures.get(target)) else { return Ok(()) };
    let a_space = enc.space(a);
    match rules.ranged_in_melee {
        RangedInMeleeRule::None => {}
        RangedInMeleeRule::CloseCombatDisadvantage { rule } => {
            let mut by = Vec::new();
            let mut ignored = Vec::new();
            for (i, c) in enc.creatures.iter().enumerate() {
                // within 5 ft means at most one square between the spaces.
                if i == attacker
                    || c.side == a.side
                    || crate::grid::Metric::Chebyshev.between(&a_space, &enc.space(c)) > 1
                {
                    continue;
                }
                let active = !c.conditions.iter().any(|k| rules.no_threat_conditions.contains(k));
                if active && vision::can_see(scene, i, attacker, budget)? {
                    by.push(c.id.clone())
                } else {
                    ignored.push(c.id.clone())
                }
            }
            if by.is_empty() && ignored.is_empty() {
                return Ok(());
            }
            if !by.is_empty() {
                answer.disadvantage_sources.push(rule);
            }
            answer.close_combat_by = by.clone();
            trace.push(rule, RangeEffect::CloseCombat { by, ignored });
        }
        RangedInMeleeRule::IntoMelee { rule, penalty, two_sizes_larger, removed_by_feat } => {
            let t_space = enc.space(t);
            // Unconscious or immobilized friends are not engaged (the target, being attacked, is).
            let out_of_fight = [
                Condition::Unconscious,
                Condition::Helpless,
                Condition::Paralyzed,
                Condition::Pinned,
                Condition::TiedUp,
                Condition::Petrified,
                Condition::Dead,
                Condition::Dying,
            ];
            let friends: Vec<&Creature> = enc
                .creatures
                .iter()
                .enumerate()
                .filter(|(i, c)| *i != attacker && *i != target && c.side == a.side)
                .map(|(_, c)| c)
                .collect();
            let engaged: Vec<&Creature> = friends
                .iter()
                .copied()
                .filter(|f| t.side != f.side && !out_of_fight.iter().any(|k| f.has(*k)))
                .filter(|f| reach::threatens(enc, f, &t_space) || reach::threatens(enc, t, &enc.space(f)))
                .collect();
            if engaged.is_empty() {
                return Ok(());
            }
            let engaged_with: Vec<String> = engaged.iter().map(|f| f.id.clone()).collect();
            let (metric, _) = reach::metric(enc);
            // "≥ 10 ft from every friendly character": some part of the target is far enough.
            let far_part = t_space.squares().any(|sq| {
                let part = Space { anchor: sq, side: 1 };
                friends.iter().all(|f| metric.between(&enc.space(f), &part) >= 2)
            });
            let largest = engaged.iter().map(|f| f.size.rank()).max().unwrap_or(t.size.rank());
            let larger_by = t.size.rank() - largest;
            let (applied, exemption) = if a.has_feat(removed_by_feat) {
                (0, Some(IntoMeleeExemption::PreciseShot))
            } else if far_part {
                (0, Some(IntoMeleeExemption::TenFeetFromFriends))
            } else if larger_by >= 3 {
                (0, Some(IntoMeleeExemption::ThreeSizesLarger))
            } else if larger_by == 2 {
                (two_sizes_larger, None)
            } else {
                (penalty, None)
            };
            answer.into_melee_modifier = applied;
            answer.engaged_with = engaged_with.clone();
            trace.push(rule, RangeEffect::IntoMelee { engaged_with, penalty: applied, exemption });
        }
    }
    Ok(())
}
