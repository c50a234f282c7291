//! Melee reach and threatened squares (`dnd5e.reach`, `pf1e.reach.threatened`,
//! `sf1e.grid.movement-and-reach`, RULES.md ).

use crate::condition::Condition;
use crate::encounter::{Creature, Encounter, Weapon, WeaponProperty};
use crate::grid::{FEET_PER_SQUARE, Metric, Space, SpaceGap, Square};
use crate::ruleset::ReachWeaponRule;

/// The squares a creature can hit with a melee weapon, as a band of distances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReachBand {
    /// Farthest distance reached, feet.
    pub max_ft: i64,
    /// A reach weapon that cannot hit this close: distances ≤ this are out of reach.
    pub too_close_ft: Option<i64>,
    /// 10 ft reach also reaches the second diagonal (SF; PF1 with the Q-09 variant).
    pub second_diagonal: bool,
}

/// The result of testing one pair of spaces against a band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReachTest {
    /// Within reach.
    pub within: bool,
    /// The second-diagonal exception decided it.
    pub by_second_diagonal: bool,
}

/// The metric an encounter uses for distances, with the variant that chose it, if any.
pub fn metric(enc: &Encounter) -> (Metric, Option<&'static str>) {
    let rules = enc.ruleset.rules();
    match rules.diagonal_variant {
        Some(v) if enc.variants.is_on(v) => (Metric::Alternating, Some(v)),
        _ => (rules.metric, None),
    }
}

/// A creature's natural reach: its `reach_ft`, else its size's (RULES.md `pf1e.size.table`).
pub fn natural_reach_ft(enc: &Encounter, c: &Creature) -> i64 {
    i64::from(c.reach_ft.unwrap_or_else(|| enc.ruleset.rules().size(c.size).reach_ft))
}

/// The reach band of a creature wielding `weapon` (or its natural weapons when `None`).
pub fn band(enc: &Encounter, c: &Creature, weapon: Option<&Weapon>) -> ReachBand {
    let rules = enc.ruleset.rules();
    let natural = natural_reach_ft(enc, c);
    let reach_weapon = weapon.is_some_and(|w| w.has(WeaponProperty::Reach));
    let (max_ft, too_close_ft) = match (weapon.and_then(|w| w.reach_ft), reach_weapon, rules.reach_weapon) {
        // a weapon's own reach replaces the computation; a PF1 reach weapon still
        // cannot hit at natural reach or less.
        (Some(r), true, ReachWeaponRule::DoubleNotAdjacent) => (i64::from(r), Some(natural)),
        (Some(r), _, _) => (i64::from(r), None),
        (None, false, _) => (natural, None),
        (None, true, ReachWeaponRule::AddFive) => (natural + 5, None),
        (None, true, ReachWeaponRule::DoubleNotAdjacent) => (natural * 2, Some(natural)),
        (None, true, ReachWeaponRule::DoubleWithAdjacent) => (natural * 2, None),
    };
    let second_diagonal =
        rules.ten_foot_diagonal || rules.ten_foot_diagonal_variant.is_some_and(|v| enc.variants.is_on(v));
    ReachBand { max_ft, too_close_ft, second_diagonal }
}

/// Whether `to`, taken whole, is within `band` of `from`: the gap between the two spaces.
fn gap_test(metric: Metric, band: &ReachBand, from: &Space, to: &Space) -> ReachTest {
    let gap = SpaceGap::between(from, to);
    let feet = metric.squares(gap.gx, gap.gy).saturating_mul(FEET_PER_SQUARE);
    let too_close = band.too_close_ft.is_some_and(|t| feet <= t);
    if too_close {
        return ReachTest { within: false, by_second_diagonal: false };
    }
    if feet <= band.max_ft {
        return ReachTest { within: true, by_second_diagonal: false };
    }
    // SF CRB / Q-09: 10 ft reach threatens the square two diagonals away (15 ft counted).
    let second = band.second_diagonal && band.max_ft == 10 && gap.gx == 2 && gap.gy == 2;
    ReachTest { within: second, by_second_diagonal: second }
}

/// The reach decision every question shares (cover, flanking, attack range, opportunity
/// attacks, maneuvers, analysis): whether some square of `target` is within `band` of the
/// whole space `from` (RULES.md `pf1e.reach.threatened`: "distance from your space"; a
/// target is attackable when it occupies a threatened square). A reach weapon's dead zone is
/// measured from the space too, never from one of its squares: a Large longspear wielder
/// cannot hit a square 10 ft from its space, though it is 15 ft from its far squares. A square
/// reached without the second-diagonal exception is preferred.
pub fn test(metric: Metric, band: &ReachBand, from: &Space, target: &Space) -> ReachTest {
    let mut found = ReachTest { within: false, by_second_diagonal: false };
    for sq in target.squares() {
        let t = gap_test(metric, band, from, &Space { anchor: sq, side: 1 });
        if t.within {
            found = t;
            if !t.by_second_diagonal {
                break;
            }
        }
    }
    found
}

/// Whether a creature at `from` can make its melee attack on the target square `target` from
/// its own square `origin` (RULES.md `pf1e.cover.big-creatures`, Q-38: the pair of squares a
/// cover test may use): `target` is within reach of the space ([`test`], so never in the dead
/// zone), and no farther from `origin` than the band reaches.
pub fn reaches_from(metric: Metric, band: &ReachBand, from: &Space, origin: Square, target: Square) -> bool {
    let one = |sq: Square| Space { anchor: sq, side: 1 };
    test(metric, band, from, &one(target)).within && gap_test(metric, band, &one(origin), &one(target)).within
}

/// Why a creature threatens nothing at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoThreat {
    /// A condition stops it from threatening (RULES.md Q-33).
    Condition(Condition),
    /// Unarmed without Improved Unarmed Strike (PF1, hb3d; Q-34).
    Unarmed,
    /// Neither its natural reach nor its weapon's reaches beyond 0 ft.
    ReachZero,
}

/// Why a creature threatens nothing at all, or `None` when it can threaten (RULES.md Q-33,
/// Q-34); the first reason found, in that order.
pub fn why_no_threat(enc: &Encounter, c: &Creature) -> Option<NoThreat> {
    let rules = enc.ruleset.rules();
    if let Some(k) = c.conditions.iter().find(|k| rules.no_threat_conditions.contains(k)) {
        return Some(NoThreat::Condition(*k));
    }
    if rules.unarmed_threatens_nothing && c.unarmed && !c.has_feat("improved_unarmed_strike") {
        return Some(NoThreat::Unarmed);
    }
    let reaches = natural_reach_ft(enc, c) > 0
        || c.wielding.as_ref().is_some_and(|w| w.reach_ft.is_some_and(|r| r > 0));
    (!reaches).then_some(NoThreat::ReachZero)
}

/// Whether a creature can threaten at all (RULES.md ).
pub fn can_threaten(enc: &Encounter, c: &Creature) -> bool {
    why_no_threat(enc, c).is_none()
}

/// Whether `c` threatens any square of `target` with the weapon it wields.
pub fn threatens(enc: &Encounter, c: &Creature, target: &Space) -> bool {
    if !can_threaten(enc, c) {
        return false;
    }
    let (m, _) = metric(enc);
    reaches(m, &band(enc, c, c.wielding.as_ref()), &enc.space(c), target)
}

/// Whether some square of `target` lies within `band` of the space `from` ([`test`]).
pub fn reaches(metric: Metric, band: &ReachBand, from: &Space, target: &Space) -> bool {
    test(metric, band, from, target).within
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encounter::{Grid, Size};
    use crate::ruleset::{RulesetId, Variants};

    fn enc(ruleset: RulesetId, creatures: Vec<Creature>) -> Encounter {
        Encounter {
            ruleset,
            variants: Variants::resolve(ruleset.rules(), []),
            grid: Grid::open(20, 20),
            environment: Default::default(),
            creatures,
        }
    }

    fn longspear() -> Weapon {
        Weapon { properties: vec![WeaponProperty::Reach], ..Weapon::default() }
    }

    fn sq(x: i32, y: i32) -> Space {
        Space { anchor: Square::new(x, y), side: 1 }
    }

    /// RULES.md `pf1e.reach.threatened`: Medium with a longspear at (5,5) threatens the 5×5
    /// ring minus its corners (12 squares), not (6,6) nor (7,7).
    #[test]
    fn pf1e_longspear_ring() {
        let mut c = Creature::new("a", "x", Square::new(5, 5), Size::Medium);
        c.wielding = Some(longspear());
        let e = enc(RulesetId::Pf1e, vec![c.clone()]);
        let from = e.space(&c);
        let b = band(&e, &c, c.wielding.as_ref());
        let (m, _) = metric(&e);
        let mut n = 0;
        for y in 0..12 {
            for x in 0..12 {
                if test(m, &b, &from, &sq(x, y)).within {
                    n += 1;
                }
            }
        }
        assert_eq!(n, 12);
        assert!(test(m, &b, &from, &sq(7, 5)).within);
        assert!(test(m, &b, &from, &sq(7, 6)).within);
        assert!(test(m, &b, &from, &sq(6, 7)).within);
        assert!(!test(m, &b, &from, &sq(6, 6)).within);
        assert!(!test(m, &b, &from, &sq(7, 7)).within);
    }

    /// RULES.md `pf1e.reach.threatened`: Large ogre at (5,5)–(6,6), 10 ft natural reach.
    #[test]
    fn pf1e_large_ogre() {
        let c = Creature::new("ogre", "x", Square::new(5, 5), Size::Large);
        let e = enc(RulesetId::Pf1e, vec![c.clone()]);
        assert!(!threatens(&e, &c, &sq(3, 3)));
        assert!(threatens(&e, &c, &sq(3, 5)));
        assert!(threatens(&e, &c, &sq(4, 4)));
    }

    /// RULES.md `pf1e.reach.threatened` (issue #14): a Large ogre at (5,5)–(6,6) with a
    /// longspear (20 ft, not at 10 ft or less) measures from its space: (3,5) at gap (2,0) is
    /// 10 ft away, too close, though 15 ft from its square (6,5); (2,5) at 15 ft is attacked
    /// from any of its squares ((6,5) is 20 ft away); (1,5) at 20 ft only from its west
    /// squares ((6,5) is 25 ft away).
    #[test]
    fn pf1e_large_longspear_from_its_space() {
        let mut c = Creature::new("ogre", "x", Square::new(5, 5), Size::Large);
        c.wielding = Some(longspear());
        let e = enc(RulesetId::Pf1e, vec![c.clone()]);
        let (from, b, (m, _)) = (e.space(&c), band(&e, &c, c.wielding.as_ref()), metric(&e));
        assert!(!test(m, &b, &from, &sq(3, 5)).within);
        assert!(!reaches_from(m, &b, &from, Square::new(6, 5), Square::new(3, 5)));
        assert!(!threatens(&e, &c, &sq(4, 4)));
        assert!(reaches_from(m, &b, &from, Square::new(5, 5), Square::new(2, 5)));
        assert!(reaches_from(m, &b, &from, Square::new(6, 5), Square::new(2, 5)));
        assert!(reaches_from(m, &b, &from, Square::new(5, 6), Square::new(1, 5)));
        assert!(!reaches_from(m, &b, &from, Square::new(6, 5), Square::new(1, 5)));
        // A Large target with one square too close and one at 15 ft is reached.
        assert!(test(m, &b, &from, &Space { anchor: Square::new(2, 5), side: 2 }).within);
    }

    /// RULES.md `sf1e.grid.movement-and-reach`: 10 ft reach at (5,5) threatens (7,7) in SF, not PF1
    /// (unless the Q-09 variant is on).
    #[test]
    fn ten_foot_second_diagonal() {
        let mut c = Creature::new("a", "x", Square::new(5, 5), Size::Medium);
        c.reach_ft = Some(10);
        let sf = enc(RulesetId::Sf1e, vec![c.clone()]);
        assert!(threatens(&sf, &c, &sq(7, 7)));
        let pf = enc(RulesetId::Pf1e, vec![c.clone()]);
        assert!(!threatens(&pf, &c, &sq(7, 7)));
        let mut pf_q09 = pf.clone();
        pf_q09.variants = Variants::resolve(RulesetId::Pf1e.rules(), [("pf1e.reach.tenFootDiagonal", true)]);
        assert!(threatens(&pf_q09, &c, &sq(7, 7)));
    }

    /// RULES.md `dnd5e.reach`: a glaive wielder at (0,0) reaches (1,1) and (2,2), not (3,0).
    #[test]
    fn dnd5e_glaive() {
        let mut c = Creature::new("a", "x", Square::new(0, 0), Size::Medium);
        c.wielding = Some(longspear());
        let e = enc(RulesetId::Dnd5e2014, vec![c.clone()]);
        assert!(threatens(&e, &c, &sq(1, 1)));
        assert!(threatens(&e, &c, &sq(2, 2)));
        assert!(!threatens(&e, &c, &sq(3, 0)));
    }

    /// RULES.md Q-34: unarmed without Improved Unarmed Strike threatens nothing in PF1, does in SF.
    #[test]
    fn unarmed_threat() {
        let mut c = Creature::new("a", "x", Square::new(0, 0), Size::Medium);
        c.unarmed = true;
        let pf = enc(RulesetId::Pf1e, vec![c.clone()]);
        assert!(!threatens(&pf, &c, &sq(1, 0)));
        let sf = enc(RulesetId::Sf1e, vec![c.clone()]);
        assert!(threatens(&sf, &c, &sq(1, 0)));
        c.feats.push("improved_unarmed_strike".into());
        assert!(threatens(&pf, &c, &sq(1, 0)));
    }
}
