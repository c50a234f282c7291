//! Exact odds of an attack: computed over the distribution of the kept die, never sampled.

use crate::dice::{Dist, Ratio};
use crate::ruleset::{AttackDice, Critical};
use crate::trace::RollMode;

/// Exact odds of the outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Odds {
    /// The attack hits (after any concealment miss chance).
    pub hit: Ratio,
    /// It is a critical hit (after the miss chance).
    pub critical: Ratio,
    /// It misses (including concealment misses).
    pub miss: Ratio,
    /// PF1: a critical threat (before confirmation and miss chance).
    pub threat: Option<Ratio>,
    /// A hit lost to the concealment miss chance.
    pub concealment_miss: Ratio,
}

/// Everything the odds depend on.
#[derive(Debug, Clone, Copy)]
pub(super) struct Setup {
    pub dice: AttackDice,
    pub roll_mode: RollMode,
    pub bonus: i64,
    pub target: i64,
    pub natural_miss: i64,
    pub natural_hit: i64,
    pub critical: Critical,
    pub crit_from: i64,
    pub miss_chance: u32,
    pub automatic_miss: bool,
    pub automatic_critical: bool,
}

impl Setup {
    /// Whether a natural roll hits (`*.hit-and-natural-rolls`).
    fn hits(&self, natural: i64) -> bool {
        !self.automatic_miss
            && natural > self.natural_miss
            && (natural >= self.natural_hit || natural.saturating_add(self.bonus) >= self.target)
    }
}

/// The distribution of the kept natural roll.
fn natural(setup: &Setup) -> Dist {
    match setup.dice {
        AttackDice::ThreeD6 => Dist::sum_of(3, 6),
        AttackDice::D20 { .. } => match setup.roll_mode {
            RollMode::Normal => Dist::d20(),
            RollMode::Advantage => Dist::d20().highest_of_two(),
            RollMode::Disadvantage => Dist::d20().lowest_of_two(),
        },
    }
}

pub(super) fn odds(setup: &Setup) -> Odds {
    let nat = natural(setup);
    let hit = nat.p_where(|n| setup.hits(n));
    let (critical, threat) = match setup.critical {
        Critical::Natural20 if setup.automatic_critical => (hit, None),
        Critical::Natural20 => (nat.p_where(|n| n >= 20 && setup.hits(n)), None),
        Critical::Natural20IfTotalHits => {
            (nat.p_where(|n| n >= 20 && setup.hits(n) && n.saturating_add(setup.bonus) >= setup.target), None)
        }
        Critical::ThreatConfirm => {
            let threat = nat.p_where(|n| n >= setup.crit_from && setup.hits(n));
            let confirm = Dist::d20().p_where(|n| setup.hits(n));
            (threat.times(confirm), Some(threat))
        }
        Critical::None => (Ratio::ZERO, None),
    };
    let keep = Ratio::percent(setup.miss_chance).complement();
    let final_hit = hit.times(keep);
    Odds {
        hit: final_hit,
        critical: critical.times(keep),
        miss: final_hit.complement(),
        threat,
        concealment_miss: hit.times(Ratio::percent(setup.miss_chance)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d20(bonus: i64, target: i64, mode: RollMode) -> Setup {
        Setup {
            dice: AttackDice::D20 { advantage: true },
            roll_mode: mode,
            bonus,
            target,
            natural_miss: 1,
            natural_hit: 20,
            critical: Critical::Natural20,
            crit_from: 20,
            miss_chance: 0,
            automatic_miss: false,
            automatic_critical: false,
        }
    }

    /// Hand computations (issue #5 examples and others). Each case: P(hit) as a fraction.
    #[test]
    fn odds_table() {
        // 5e +5 vs AC 15: needs 10+: 11/20.
        assert_eq!(odds(&d20(5, 15, RollMode::Normal)).hit, Ratio::new(11, 20));
        // …with advantage: 1 − (9/20)² = 319/400 = 0.7975.
        assert_eq!(odds(&d20(5, 15, RollMode::Advantage)).hit, Ratio::new(319, 400));
        // …with disadvantage: (11/20)² = 121/400.
        assert_eq!(odds(&d20(5, 15, RollMode::Disadvantage)).hit, Ratio::new(121, 400));
        // +3 vs AC 25: only a natural 20: 1/20, and it is critical.
        let o = odds(&d20(3, 25, RollMode::Normal));
        assert_eq!((o.hit, o.critical), (Ratio::new(1, 20), Ratio::new(1, 20)));
        // +12 vs AC 8: everything but a natural 1: 19/20.
        assert_eq!(odds(&d20(12, 8, RollMode::Normal)).hit, Ratio::new(19, 20));
        // Critical with advantage: 1 − (19/20)² = 39/400.
        assert_eq!(odds(&d20(5, 15, RollMode::Advantage)).critical, Ratio::new(39, 400));
        // PF1 +5 vs AC 15 through fog (20 %): 11/20 × 4/5 = 0.44.
        let mut pf = d20(5, 15, RollMode::Normal);
        pf.critical = Critical::ThreatConfirm;
        pf.miss_chance = 20;
        let o = odds(&pf);
        assert_eq!(o.hit, Ratio::new(44, 100));
        // Threat on a natural 20 (hits), confirmed on 10+ (11/20): 11/400, times 4/5.
        assert_eq!(o.threat, Some(Ratio::new(1, 20)));
        assert_eq!(o.critical, Ratio::new(11, 400).times(Ratio::new(4, 5)));
        assert_eq!(o.concealment_miss, Ratio::new(11, 100));
        // PF1 19–20 weapon, +4 vs AC 18: threat on 19 (23 ≥ 18 hits) or 20: 2/20; confirm 14+: 7/20.
        let mut ls = d20(4, 18, RollMode::Normal);
        ls.critical = Critical::ThreatConfirm;
        ls.crit_from = 19;
        let o = odds(&ls);
        assert_eq!(o.threat, Some(Ratio::new(2, 20)));
        assert_eq!(o.critical, Ratio::new(14, 400));
        // PF1 18–20 weapon, +0 vs AC 30: 18 and 19 miss, so only 20 threatens; confirm only on 20.
        let mut hard = d20(0, 30, RollMode::Normal);
        hard.critical = Critical::ThreatConfirm;
        hard.crit_from = 18;
        let o = odds(&hard);
        assert_eq!(
            (o.hit, o.threat, o.critical),
            (Ratio::new(1, 20), Some(Ratio::new(1, 20)), Ratio::new(1, 400))
        );
        // SF +3 vs KAC 25: natural 20 hits (1/20) but is not critical (23 < 25).
        let mut sf = d20(3, 25, RollMode::Normal);
        sf.critical = Critical::Natural20IfTotalHits;
        let o = odds(&sf);
        assert_eq!((o.hit, o.critical), (Ratio::new(1, 20), Ratio::ZERO));
        // SF +8 vs KAC 20: 12+ hits (9/20), a natural 20 is critical (1/20).
        sf.bonus = 8;
        sf.target = 20;
        let o = odds(&sf);
        assert_eq!((o.hit, o.critical), (Ratio::new(9, 20), Ratio::new(1, 20)));
        // 5e automatic critical (paralyzed target within 5 ft): every hit.
        let mut para = d20(5, 15, RollMode::Advantage);
        para.automatic_critical = true;
        let o = odds(&para);
        assert_eq!(o.critical, o.hit);
        // Automatic miss.
        let mut under = d20(5, 15, RollMode::Normal);
        under.automatic_miss = true;
        assert_eq!(odds(&under).hit, Ratio::ZERO);
        assert_eq!(odds(&under).miss, Ratio::ONE);
    }

    /// RULES.md `hb3d.attack.roll` and the 3d6 table: +5 vs DEF 14 needs 9+: 160/216;
    /// DEF 14 behind an orc (−4): needs 13+: 25.93 % = 56/216.
    #[test]
    fn three_d6() {
        let mut s = d20(5, 14, RollMode::Normal);
        s.dice = AttackDice::ThreeD6;
        s.natural_miss = 3;
        s.natural_hit = 18;
        s.critical = Critical::None;
        assert_eq!(odds(&s).hit, Ratio::new(160, 216));
        s.bonus = 1;
        assert_eq!(odds(&s).hit, Ratio::new(56, 216));
        // Natural 3 misses even with +20, natural 18 hits even against DEF 40.
        s.bonus = 20;
        assert_eq!(odds(&s).hit, Ratio::new(215, 216));
        s.bonus = 0;
        s.target = 40;
        assert_eq!(odds(&s).hit, Ratio::new(1, 216));
        // Example of `hb3d.attack.roll`: 3d6 = 11 + Dex 2 + BBA 3 = 16 vs DEF 15 → hit.
        s.bonus = 5;
        s.target = 15;
        assert!(s.hits(11));
    }
}
