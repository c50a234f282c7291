//! Flanking and threatened squares (`pf1e.flanking.geometry`, `sf1e.flanking`,
//! `dnd5e.flanking.optional`, with `pf1e.reach.threatened`, `sf1e.grid.movement-and-reach`,
//! `dnd5e.reach` and RULES.md ).
//!
//! Who may flank:
//! - PF1, SF, hb3d: the attacker must be of a side different from the target's and threaten
//!   it; a helper is any other creature of a side different from the target's (with three or
//!   more sides it need not be the attacker's ally) that threatens the target. Threatening
//!   follows [`crate::reach`] (conditions, unarmed without Improved Unarmed Strike, reach 0,
//!   reach weapons that cannot hit adjacent squares, the SF second diagonal).
//! - D&D 5e, only with the variant `dnd5e.flanking.optional`: the attacker and a helper of
//!   the attacker's side must both be adjacent to the target (within 5 ft, Q-49), not
//!   incapacitated, and able to see it ([`crate::vision::can_see`]).
//!
//! The geometry is the centre-line test of `pf1e.flanking.geometry`, decided with integers:
//! every coordinate is doubled so that square centres (half-integers) become odd integers.

use crate::budget::Budget;
use crate::encounter::{Creature, Encounter};
use crate::error::RulesError;
use crate::grid::{FEET_PER_SQUARE, Space, Square};
use crate::reach::{self, NoThreat, ReachBand};
use crate::ruleset::{FlankBenefit, FlankBy};
use crate::scene::Scene;
pub use crate::trace::flanking::{Edges, FlankEffect, NoFlank, NotFlankedWhy};
use crate::trace::{Effect, GridEffect, Trace};
use crate::vision;

/// One creature that flanks the target with the attacker, and the squares whose centres
/// make the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flanker {
    /// Index into `enc.creatures`.
    pub creature: usize,
    /// The attacker's square used.
    pub attacker_square: Square,
    /// The helper's square used.
    pub helper_square: Square,
    /// Opposite edges met by the line.
    pub edges: Edges,
}

/// The squares one enemy of the target threatens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Threat {
    /// Index into `enc.creatures`.
    pub creature: usize,
    /// Whether it threatens some square of the target.
    pub threatens_target: bool,
    /// Every square inside the grid within its reach band, its own space excluded, row by row.
    pub squares: Vec<Square>,
}

/// The answer to a flanking question.
#[derive(Debug, Clone, PartialEq)]
pub struct FlankAnswer {
    /// Whether flanking applies in this ruleset (false only for 5e without the variant).
    pub in_force: bool,
    /// Whether the attacker flanks the target.
    pub flanked: bool,
    /// Every creature that makes the flank with the attacker, in encounter order.
    pub flankers: Vec<Flanker>,
    /// Bonus to the attacker's melee attack rolls (+2 in PF1, SF, hb3d; 0 in 5e).
    pub attack_bonus: i32,
    /// Advantage on the attacker's melee attack rolls (5e).
    pub advantage: bool,
    /// The flanking rule id of the ruleset.
    pub rule: &'static str,
    /// For each enemy of the target (side different from the target's), in encounter order,
    /// the squares it threatens.
    pub threatened: Vec<Threat>,
    /// The steps applied.
    pub trace: Trace,
}

/// The doubled centre of a square: odd integers.
fn centre2(sq: Square) -> (i128, i128) {
    (i128::from(sq.x) * 2 + 1, i128::from(sq.y) * 2 + 1)
}

/// Whether the segment p–q meets the closed segment `{x} × [y0, y1]` (all doubled integers).
fn meets_vertical(p: (i128, i128), q: (i128, i128), x: i128, y0: i128, y1: i128) -> bool {
    if x < p.0.min(q.0) || x > p.0.max(q.0) {
        return false;
    }
    let dx = q.0 - p.0;
    if dx == 0 {
        // The segment lies on the line: it meets the edge where the y-ranges overlap.
        return p.1.min(q.1) <= y1 && y0 <= p.1.max(q.1);
    }
    // The crossing is at y = p.y + (x − p.x)(q.y − p.y)/dx; compare y·dx without dividing.
    let y_dx = p.1 * dx + (x - p.0) * (q.1 - p.1);
    if dx > 0 { y0 * dx <= y_dx && y_dx <= y1 * dx } else { y1 * dx <= y_dx && y_dx <= y0 * dx }
}

/// The centre-line test of `pf1e.flanking.geometry`: the segment between the centres of
/// `a` and `b` meets both the west and east closed edges, or both the north and south closed
/// edges, of `target` (a corner belongs to both edges that meet there). Exact integers.
pub fn opposite(a: Square, b: Square, target: &Space) -> Option<Edges> {
    let (p, q) = (centre2(a), centre2(b));
    let west = i128::from(target.min_x()) * 2;
    let east = (i128::from(target.max_x()) + 1) * 2;
    let north = i128::from(target.min_y()) * 2;
    let south = (i128::from(target.max_y()) + 1) * 2;
    let swap = |(x, y): (i128, i128)| (y, x);
    let we = meets_vertical(p, q, west, north, south) && meets_vertical(p, q, east, north, south);
    let ns = meets_vertical(swap(p), swap(q), north, west, east)
        && meets_vertical(swap(p), swap(q), south, west, east);
    match (we, ns) {
        (true, true) => Some(Edges::Both),
        (true, false) => Some(Edges::WestEast),
        (false, true) => Some(Edges::NorthSouth),
        (false, false) => None,
    }
}

/// The best pair of squares (attacker square, helper square) whose centre line flanks the
/// target: the shortest such line, the first in row order on ties. One budget step per pair.
fn best_pair(
    a_space: &Space,
    h_space: &Space,
    t_space: &Space,
    budget: &mut Budget,
) -> Result<Option<(Square, Square, Edges)>, RulesError> {
    let mut best: Option<(i128, Square, Square, Edges)> = None;
    for sa in a_space.squares() {
        for sh in h_space.squares() {
            budget.spend(1)?;
            if let Some(edges) = opposite(sa, sh, t_space) {
                let (p, q) = (centre2(sa), centre2(sh));
                let d = (p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1);
                if best.is_none_or(|(bd, ..)| d < bd) {
                    best = Some((d, sa, sh, edges));
                }
            }
        }
    }
    Ok(best.map(|(_, sa, sh, e)| (sa, sh, e)))
}

/// How a creature threatens the target (PF1, SF, hb3d).
struct Threatening {
    band: ReachBand,
    second_diagonal: bool,
}

/// Whether `c` threatens some square of `t_space`, and why not. Agrees with
/// [`reach::threatens`], with reach 0 threatening nothing (`pf1e.size.table`).
fn threat(enc: &Encounter, c: &Creature, t_space: &Space) -> Result<Threatening, NoFlank> {
    if let Some(why) = reach::why_no_threat(enc, c) {
        return Err(match why {
            NoThreat::Condition(k) => NoFlank::Condition(k),
            NoThreat::Unarmed => NoFlank::Unarmed,
            NoThreat::ReachZero => NoFlank::ReachZero,
        });
    }
    let band = reach::band(enc, c, c.wielding.as_ref());
    if band.max_ft <= 0 {
        return Err(NoFlank::ReachZero);
    }
    let (metric, _) = reach::metric(enc);
    let t = reach::test(metric, &band, &enc.space(c), t_space);
    if t.within {
        Ok(Threatening { band, second_diagonal: t.by_second_diagonal })
    } else {
        Err(NoFlank::OutOfReach { reach_ft: band.max_ft, too_close_ft: band.too_close_ft })
    }
}

/// Whether `c` (index `i`) can flank the target in 5e: not incapacitated, adjacent,
/// able to see it.
fn dnd5e_ready(
    scene: &Scene<'_>,
    i: usize,
    target: usize,
    t_space: &Space,
    budget: &mut Budget,
) -> Result<Result<(), NoFlank>, RulesError> {
    let enc = scene.enc;
    let Some(c) = enc.creatures.get(i) else { return Ok(Err(NoFlank::NotAdjacent)) };
    let rules = enc.ruleset.rules();
    if let Some(k) = c.conditions.iter().find(|k| rules.no_threat_conditions.contains(k)) {
        return Ok(Err(NoFlank::Condition(*k)));
    }
    let (metric, _) = reach::metric(enc);
    let feet = metric.between(&enc.space(c), t_space).saturating_mul(FEET_PER_SQUARE);
    if feet > FEET_PER_SQUARE {
        return Ok(Err(NoFlank::NotAdjacent));
    }
    if !vision::can_see(scene, i, target, budget)? {
        return Ok(Err(NoFlank::CannotSee));
    }
    Ok(Ok(()))
}

/// The rule a reason not to flank comes from.
fn why_rule(why: NoFlank, flank_rule: &'static str, reach_rule: &'static str) -> &'static str {
    match why {
        NoFlank::Unarmed | NoFlank::ReachZero | NoFlank::OutOfReach { .. } => reach_rule,
        NoFlank::Condition(_) | NoFlank::NotAdjacent | NoFlank::CannotSee => flank_rule,
    }
}

/// Every square inside the grid within `c`'s reach band (its own space excluded), row by row;
/// empty when it threatens nothing. One budget step per square examined.
pub fn threatened_squares(
    enc: &Encounter,
    c: &Creature,
    budget: &mut Budget,
) -> Result<Vec<Square>, RulesError> {
    let mut out = Vec::new();
    let band = reach::band(enc, c, c.wielding.as_ref());
    // Conditions, unarmed (PF1, hb3d) and 0 ft reach threaten nothing.
    if !reach::can_threaten(enc, c) || band.max_ft <= 0 {
        return Ok(out);
    }
    let (metric, _) = reach::metric(enc);
    let from = enc.space(c);
    // No metric counts fewer squares than the larger of the two gaps: the band fits in a box.
    let r = band.max_ft / FEET_PER_SQUARE;
    let x0 = (i64::from(from.min_x()) - r).max(0);
    let x1 = (i64::from(from.max_x()) + r).min(i64::from(enc.grid.width) - 1);
    let y0 = (i64::from(from.min_y()) - r).max(0);
    let y1 = (i64::from(from.max_y()) + r).min(i64::from(enc.grid.height) - 1);
    if x1 < x0 || y1 < y0 {
        return Ok(out);
    }
    for y in y0..=y1 {
        budget.spend(u64::try_from(x1 - x0 + 1).unwrap_or(u64::MAX))?;
        for x in x0..=x1 {
            // Inside the grid, so both fit in i32.
            let (Ok(x), Ok(y)) = (i32::try_from(x), i32::try_from(y)) else { continue };
            let sq = Square::new(x, y);
            if from.contains(sq) {
                continue;
            }
            if reach::test(metric, &band, &from, &Space { anchor: sq, side: 1 }).within {
                out.push(sq);
            }
        }
    }
    Ok(out)
}

/// Answers a flanking question: does `attacker` flank `target` (indices into
/// `scene.enc.creatures`), with whom, and what squares does each enemy of the target threaten.
pub fn flanking(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    budget: &mut Budget,
) -> Result<FlankAnswer, RulesError> {
    answer(scene, attacker, target, true, budget)
}

/// The flanking answer without the `threatened` squares (an attack needs only the flank).
pub fn flanks(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    budget: &mut Budget,
) -> Result<FlankAnswer, RulesError> {
    answer(scene, attacker, target, false, budget)
}

fn answer(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    with_threatened: bool,
    budget: &mut Budget,
) -> Result<FlankAnswer, RulesError> {
    let enc = scene.enc;
    let Some(a) = enc.creatures.get(attacker) else {
        return Err(RulesError::field("/attacker", "no such creature"));
    };
    let Some(t) = enc.creatures.get(target) else {
        return Err(RulesError::field("/target", "no such creature"));
    };
    if attacker == target {
        return Err(RulesError::field("/target", "the target must be another creature than the attacker"));
    }
    let flanking = enc.ruleset.rules().flanking;
    let rule = flanking.rule;
    let t_space = enc.space(t);
    let mut trace = Trace::default();
    let threatened = threats(enc, target, &t_space, with_threatened, budget)?;
    let mut answer = FlankAnswer {
        in_force: true,
        flanked: false,
        flankers: Vec::new(),
        attack_bonus: 0,
        advantage: false,
        rule,
        threatened,
        trace: Trace::default(),
    };
    if let Some(inherited) = flanking.inherited {
        trace.push(inherited, Effect::Flanking(FlankEffect::InheritedFromPf1e));
    }
    if let Some(variant) = flanking.optional_variant
        && !enc.variants.is_on(variant)
    {
        answer.in_force = false;
        trace.push_variant(rule, variant, Effect::Flanking(FlankEffect::OptionalRuleOff));
        answer.trace = trace;
        return Ok(answer);
    }
    let elevated: Vec<String> = [a, t].iter().filter(|c| c.elevation_ft != 0).map(|c| c.id.clone()).collect();
    if !elevated.is_empty() {
        trace.push(rule, GridEffect::ElevationIgnored { creatures: elevated });
    }
    let why_not = if a.side == t.side {
        trace.push(rule, Effect::Flanking(FlankEffect::AttackerOnTargetSide { attacker: a.id.clone() }));
        NotFlankedWhy::AttackerOnTargetSide
    } else if attacker_ready(scene, attacker, target, &t_space, &mut trace, budget)? {
        let any_ready = helpers(scene, attacker, target, &t_space, &mut answer, &mut trace, budget)?;
        answer.flanked = !answer.flankers.is_empty();
        if answer.flanked {
            match flanking.benefit {
                FlankBenefit::AttackBonus(bonus) => answer.attack_bonus = bonus,
                FlankBenefit::Advantage => answer.advantage = true,
            }
        }
        if any_ready { NotFlankedWhy::NoneOpposite } else { NotFlankedWhy::NoHelper }
    } else {
        NotFlankedWhy::AttackerCannotFlank
    };
    outcome(enc, &answer, why_not, &mut trace);
    answer.trace = trace;
    Ok(answer)
}

/// Each enemy of the target: whether it threatens the target, and (when asked) the squares
/// it threatens.
fn threats(
    enc: &Encounter,
    target: usize,
    t_space: &Space,
    with_threatened: bool,
    budget: &mut Budget,
) -> Result<Vec<Threat>, RulesError> {
    let t = &enc.creatures[target];
    let mut threatened = Vec::new();
    for (i, c) in enc.creatures.iter().enumerate() {
        if i == target || c.side == t.side {
            continue;
        }
        budget.spend(THREAT)?;
        let threatens_target = threat(enc, c, t_space).is_ok();
        threatened.push(Threat {
            creature: i,
            threatens_target,
            squares: if with_threatened { threatened_squares(enc, c, budget)? } else { Vec::new() },
        });
    }
    Ok(threatened)
}

/// The outcome step (under the optional rule's variant where there is one).
fn outcome(enc: &Encounter, answer: &FlankAnswer, why_not: NotFlankedWhy, trace: &mut Trace) {
    let flanking = enc.ruleset.rules().flanking;
    let (rule, outcome_variant) = (flanking.rule, flanking.optional_variant);
    let effect = Effect::Flanking(if !answer.flanked {
        FlankEffect::NotFlanked { why: why_not }
    } else {
        FlankEffect::Outcome {
            flanked: answer.flanked,
            flankers: answer
                .flankers
                .iter()
                .filter_map(|f| enc.creatures.get(f.creature).map(|c| c.id.clone()))
                .collect(),
            attack_bonus: answer.attack_bonus,
            advantage: answer.advantage,
        }
    });
    match outcome_variant {
        Some(v) => trace.push_variant(rule, v, effect),
        None => trace.push(rule, effect),
    }
}

/// Whether the attacker can flank at all (it threatens the target, or in 5e is adjacent,
/// able and seeing), with its step either way.
fn attacker_ready(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    t_space: &Space,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<bool, RulesError> {
    let enc = scene.enc;
    let rules = enc.ruleset.rules();
    let (rule, by) = (rules.flanking.rule, rules.flanking.by);
    let a = &enc.creatures[attacker];
    let attacker_ready = match by {
        FlankBy::Threat => threat(enc, a, t_space).map(|th| {
            let effect = Effect::Flanking(FlankEffect::Threatens {
                creature: a.id.clone(),
                reach_ft: th.band.max_ft,
                too_close_ft: th.band.too_close_ft,
                second_diagonal: th.second_diagonal,
            });
            match rules.ten_foot_diagonal_variant {
                // Reaching the second diagonal without the ruleset's default: the variant did it.
                Some(v) if th.second_diagonal && !rules.ten_foot_diagonal => {
                    trace.push_variant(rules.reach_rule, v, effect);
                }
                _ => trace.push(rules.reach_rule, effect),
            }
        }),
        FlankBy::Adjacency => dnd5e_ready(scene, attacker, target, t_space, budget)?
            .map(|()| trace.push(rule, Effect::Flanking(FlankEffect::Adjacent { creature: a.id.clone() }))),
    };
    if let Err(why) = attacker_ready {
        trace.push(
            why_rule(why, rule, rules.reach_rule),
            Effect::Flanking(FlankEffect::CannotFlank { creature: a.id.clone(), attacker: true, why }),
        );
        return Ok(false);
    }
    Ok(true)
}

/// Work units of one enemy's threat on the target (the reach bands of both spaces).
const THREAT: u64 = 3;

/// Work units of one helper judged: its threat (reach bands of both spaces), the pair of
/// squares and the trace step naming it.
const HELPER: u64 = 8;

/// The helpers: every creature that could flank with the attacker, each either a flanker
/// (with the pair of squares), not opposite, too far, or unable. Whether any could (a flanker
/// or one not opposite).
fn helpers(
    scene: &Scene<'_>,
    attacker: usize,
    target: usize,
    t_space: &Space,
    answer: &mut FlankAnswer,
    trace: &mut Trace,
    budget: &mut Budget,
) -> Result<bool, RulesError> {
    let enc = scene.enc;
    let rules = enc.ruleset.rules();
    let (rule, by) = (rules.flanking.rule, rules.flanking.by);
    let (a, t) = (&enc.creatures[attacker], &enc.creatures[target]);
    let a_space = enc.space(a);
    let mut too_far = Vec::new();
    let mut any_ready = false;
    for (i, h) in enc.creatures.iter().enumerate() {
        let candidate = match by {
            FlankBy::Threat => h.side != t.side,
            FlankBy::Adjacency => h.side == a.side,
        };
        if i == attacker || i == target || !candidate {
            continue;
        }
        budget.spend(HELPER)?;
        let ready = match by {
            FlankBy::Threat => threat(enc, h, t_space).map(|_| ()),
            FlankBy::Adjacency => dnd5e_ready(scene, i, target, t_space, budget)?,
        };
        match ready {
            Err(NoFlank::OutOfReach { .. } | NoFlank::NotAdjacent) => too_far.push(h.id.clone()),
            Err(why) => trace.push(
                why_rule(why, rule, rules.reach_rule),
                Effect::Flanking(FlankEffect::CannotFlank { creature: h.id.clone(), attacker: false, why }),
            ),
            Ok(()) => match best_pair(&a_space, &enc.space(h), t_space, budget)? {
                Some((attacker_square, helper_square, edges)) => {
                    trace.push(
                        rule,
                        Effect::Flanking(FlankEffect::Pair {
                            helper: h.id.clone(),
                            attacker_square,
                            helper_square,
                            edges,
                        }),
                    );
                    answer.flankers.push(Flanker { creature: i, attacker_square, helper_square, edges });
                    any_ready = true;
                }
                None => {
                    trace.push(rule, Effect::Flanking(FlankEffect::NotOpposite { helper: h.id.clone() }));
                    any_ready = true;
                }
            },
        }
    }
    if !too_far.is_empty() {
        match by {
            FlankBy::Threat => {
                trace.push(rules.reach_rule, Effect::Flanking(FlankEffect::OutOfReach { creatures: too_far }))
            }
            FlankBy::Adjacency => {
                trace.push(rule, Effect::Flanking(FlankEffect::NotAdjacent { creatures: too_far }))
            }
        }
    }
    Ok(any_ready)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encounter::{Grid, Size, Weapon, WeaponProperty};
    use crate::ruleset::{RulesetId, Variants};

    fn sq(x: i32, y: i32) -> Square {
        Square::new(x, y)
    }

    fn space(x: i32, y: i32, side: i32) -> Space {
        Space { anchor: sq(x, y), side }
    }

    /// RULES.md `pf1e.flanking.geometry` map M9 (Medium T at (5,5)).
    #[test]
    fn m9_centre_lines() {
        let t = space(5, 5, 1);
        let (a, b, c, d) = (sq(4, 5), sq(6, 5), sq(6, 6), sq(4, 4));
        assert_eq!(opposite(a, b, &t), Some(Edges::WestEast), "A + B: flanked");
        assert_eq!(opposite(a, c, &t), None, "A + C: enters the west edge, leaves the south edge");
        assert_eq!(opposite(d, c, &t), Some(Edges::Both), "D + C: through corners ⟨5,5⟩ and ⟨6,6⟩");
    }

    /// RULES.md `pf1e.flanking.geometry` map M10 (Large T at (5,5)–(6,6)).
    #[test]
    fn m10_centre_lines() {
        let t = space(5, 5, 2);
        assert_eq!(opposite(sq(4, 5), sq(7, 6), &t), Some(Edges::WestEast), "A + B");
        assert_eq!(opposite(sq(4, 4), sq(7, 5), &t), None, "C + D: north edge, then east edge");
    }

    /// The segment is undirected.
    #[test]
    fn test_is_symmetric() {
        let t = space(5, 5, 2);
        for (p, q) in [(sq(4, 5), sq(7, 6)), (sq(4, 4), sq(7, 5)), (sq(4, 4), sq(7, 7)), (sq(5, 4), sq(6, 7))]
        {
            assert_eq!(opposite(p, q, &t), opposite(q, p, &t));
        }
    }

    /// Multi-square helper: Large ogre at (3,5)–(4,6), ally at (6,5), Medium target at (5,5):
    /// flanked via ogre square (4,5), the nearest of the qualifying squares.
    #[test]
    fn multi_square_helper_pair() {
        let mut b = Budget::unlimited();
        let got = best_pair(&space(6, 5, 1), &space(3, 5, 2), &space(5, 5, 1), &mut b).unwrap();
        assert_eq!(got, Some((sq(6, 5), sq(4, 5), Edges::WestEast)));
        assert!(opposite(sq(6, 5), sq(3, 5), &space(5, 5, 1)).is_some(), "(3,5) qualifies too");
    }

    /// Extreme coordinates neither overflow nor panic.
    #[test]
    fn extreme_coordinates() {
        let t = space(i32::MAX - 1, i32::MIN, 6);
        let _ = opposite(sq(i32::MIN, i32::MAX), sq(i32::MAX, i32::MIN), &t);
        assert_eq!(opposite(sq(i32::MAX, 0), sq(i32::MAX, 0), &space(i32::MAX, 0, 1)), None);
    }

    fn enc(ruleset: crate::ruleset::RulesetId, creatures: Vec<Creature>) -> Encounter {
        Encounter {
            ruleset,
            variants: Variants::resolve(ruleset.rules(), []),
            grid: Grid::open(12, 12),
            environment: Default::default(),
            creatures,
        }
    }

    /// RULES.md `pf1e.reach.threatened`: Medium with a longspear at (5,5) threatens the 5×5
    /// ring minus its corners.
    #[test]
    fn longspear_ring_squares() {
        let mut c = Creature::new("g", "x", sq(5, 5), Size::Medium);
        c.wielding = Some(Weapon { properties: vec![WeaponProperty::Reach], ..Weapon::default() });
        let e = enc(RulesetId::Pf1e, vec![c.clone()]);
        let got = threatened_squares(&e, &c, &mut Budget::unlimited()).unwrap();
        assert_eq!(got.len(), 12);
        for s in [sq(7, 5), sq(7, 6), sq(6, 7), sq(3, 5), sq(5, 3)] {
            assert!(got.contains(&s), "{s:?}");
        }
        for s in [sq(6, 6), sq(7, 7), sq(5, 5), sq(3, 3)] {
            assert!(!got.contains(&s), "{s:?}");
        }
    }

    /// The grid clips the threatened squares; a creature off the map threatens nothing on it.
    #[test]
    fn threatened_squares_stay_on_the_grid() {
        let c = Creature::new("g", "x", sq(0, 0), Size::Medium);
        let e = enc(RulesetId::Pf1e, vec![c.clone()]);
        assert_eq!(
            threatened_squares(&e, &c, &mut Budget::unlimited()).unwrap(),
            vec![sq(1, 0), sq(0, 1), sq(1, 1)]
        );
        let far = Creature::new("f", "x", sq(-50, 3), Size::Medium);
        assert!(threatened_squares(&e, &far, &mut Budget::unlimited()).unwrap().is_empty());
    }
}
