//! Dice: exact probability distributions and the faces a question consumes.
//!
//! Randomness stays outside the crate: a question asks a [`DiceSource`] for each die it
//! needs, and the server answers with faces it rolled (seeded), faces the VTT gave, or no face
//! at all when only the odds are wanted. Every probability is an exact [`Ratio`].

use std::fmt;

/// An exact non-negative rational number, always reduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: u128,
    den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    /// One.
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// `num / den`, reduced; a zero denominator gives zero rather than panicking.
    pub fn new(num: u128, den: u128) -> Ratio {
        if den == 0 {
            return Ratio::ZERO;
        }
        let g = gcd(num, den).max(1);
        Ratio { num: num / g, den: den / g }
    }

    /// The nearest `f64` (for output only).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// Sum. Denominators here are products of die sizes, far from overflowing `u128`.
    #[must_use]
    pub fn plus(self, o: Ratio) -> Ratio {
        let g = gcd(self.den, o.den).max(1);
        let den = (self.den / g).saturating_mul(o.den);
        let num = self.num.saturating_mul(o.den / g).saturating_add(o.num.saturating_mul(self.den / g));
        Ratio::new(num, den)
    }

    /// Difference, floored at zero (probabilities never go negative).
    #[must_use]
    pub fn minus(self, o: Ratio) -> Ratio {
        let g = gcd(self.den, o.den).max(1);
        let den = (self.den / g).saturating_mul(o.den);
        let a = self.num.saturating_mul(o.den / g);
        let b = o.num.saturating_mul(self.den / g);
        Ratio::new(a.saturating_sub(b), den)
    }

    /// Product.
    #[must_use]
    pub fn times(self, o: Ratio) -> Ratio {
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        Ratio::new((self.num / g1).saturating_mul(o.num / g2), (self.den / g2).saturating_mul(o.den / g1))
    }

    /// `1 − self`, floored at zero.
    #[must_use]
    pub fn complement(self) -> Ratio {
        Ratio::ONE.minus(self)
    }

    /// A whole percentage (`20` → 1/5).
    pub fn percent(p: u32) -> Ratio {
        Ratio::new(u128::from(p.min(100)), 100)
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// An exact distribution of an integer total (a die, several dice, a kept die).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dist {
    /// The smallest possible total.
    min: i64,
    /// `weights[i]` ways to total `min + i`.
    weights: Vec<u64>,
}

impl Dist {
    /// One die with faces `1..=sides` (at least one face).
    pub fn die(sides: u32) -> Dist {
        Dist { min: 1, weights: vec![1; sides.max(1) as usize] }
    }

    /// One d20.
    pub fn d20() -> Dist {
        Dist::die(20)
    }

    /// One d100 (d%).
    pub fn d100() -> Dist {
        Dist::die(100)
    }

    /// The sum of `n` dice of `sides` faces (`3d6`).
    pub fn sum_of(n: u32, sides: u32) -> Dist {
        let mut d = Dist { min: 0, weights: vec![1] };
        for _ in 0..n {
            d = d.plus(&Dist::die(sides));
        }
        d
    }

    /// The sum of two independent totals.
    #[must_use]
    pub fn plus(&self, o: &Dist) -> Dist {
        let mut weights = vec![0u64; self.weights.len() + o.weights.len() - 1];
        for (i, a) in self.weights.iter().enumerate() {
            for (j, b) in o.weights.iter().enumerate() {
                weights[i + j] = weights[i + j].saturating_add(a.saturating_mul(*b));
            }
        }
        Dist { min: self.min + o.min, weights }
    }

    /// A total that is always `k`.
    pub fn constant(k: i64) -> Dist {
        Dist { min: k, weights: vec![1] }
    }

    /// The total plus `k`.
    #[must_use]
    pub fn shift(&self, k: i64) -> Dist {
        Dist { min: self.min.saturating_add(k), weights: self.weights.clone() }
    }

    /// The distribution of `f(total)`: outcomes that `f` sends to the same value add up.
    #[must_use]
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Dist {
        let values: Vec<(i64, u64)> = self.outcomes().map(|(t, w)| (f(t), w)).collect();
        let (Some(lo), Some(hi)) = (values.iter().map(|v| v.0).min(), values.iter().map(|v| v.0).max())
        else {
            return Dist::constant(0);
        };
        let mut weights = vec![0u64; usize::try_from(hi - lo).unwrap_or(0) + 1];
        for (v, w) in values {
            let i = usize::try_from(v - lo).unwrap_or(0);
            weights[i] = weights[i].saturating_add(w);
        }
        Dist { min: lo, weights }
    }

    /// Every total with its number of ways, in increasing order, zeros left out.
    pub fn outcomes(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.weights.iter().enumerate().filter(|(_, w)| **w > 0).map(|(i, w)| (self.min + i as i64, *w))
    }

    /// The higher of two independent rolls (advantage).
    #[must_use]
    pub fn highest_of_two(&self) -> Dist {
        self.keep_of_two(true)
    }

    /// The lower of two independent rolls (disadvantage).
    #[must_use]
    pub fn lowest_of_two(&self) -> Dist {
        self.keep_of_two(false)
    }

    fn keep_of_two(&self, highest: bool) -> Dist {
        let n = self.weights.len();
        let mut weights = vec![0u64; n];
        for (i, a) in self.weights.iter().enumerate() {
            for (j, b) in self.weights.iter().enumerate() {
                let k = if highest { i.max(j) } else { i.min(j) };
                weights[k] = weights[k].saturating_add(a.saturating_mul(*b));
            }
        }
        Dist { min: self.min, weights }
    }

    /// The number of equally likely outcomes.
    pub fn total(&self) -> u64 {
        self.weights.iter().fold(0u64, |s, w| s.saturating_add(*w))
    }

    /// The smallest possible total.
    pub fn min(&self) -> i64 {
        self.min
    }

    /// The largest possible total.
    pub fn max(&self) -> i64 {
        self.min + self.weights.len() as i64 - 1
    }

    /// P(total satisfies `pred`).
    pub fn p_where(&self, mut pred: impl FnMut(i64) -> bool) -> Ratio {
        let hits = self
            .weights
            .iter()
            .enumerate()
            .filter(|(i, _)| pred(self.min + *i as i64))
            .fold(0u64, |s, (_, w)| s.saturating_add(*w));
        Ratio::new(u128::from(hits), u128::from(self.total()))
    }

    /// P(total ≥ k).
    pub fn p_at_least(&self, k: i64) -> Ratio {
        self.p_where(|t| t >= k)
    }

    /// P(total = k).
    pub fn p_eq(&self, k: i64) -> Ratio {
        self.p_where(|t| t == k)
    }
}

/// What a die is rolled for; given rolls are keyed by it (PRODUCT.md "Dice and odds").
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Purpose {
    /// The attack roll (one d20, two with advantage or disadvantage, three d6 in hb3d).
    Attack,
    /// PF1 critical confirmation.
    Confirm,
    /// Concealment miss chance (d100).
    MissChance,
    /// The acting creature's maneuver or contest roll.
    Check,
    /// The other side's contest roll.
    Opposed,
    /// The target's saving throw.
    Save,
    /// A rider's Dexterity saving throw to stay on its mount (5e mounted combat).
    MountSave,
    /// One creature's initiative roll.
    Initiative(String),
    /// The damage dice of a hit (`crate::damage`), in the order its answer documents.
    Damage,
}

impl Purpose {
    /// The key under `rolls` (`"miss_chance"`); initiative rolls are keyed by creature id
    /// inside `"initiative"`.
    pub fn key(&self) -> &str {
        match self {
            Purpose::Attack => "attack",
            Purpose::Confirm => "confirm",
            Purpose::MissChance => "miss_chance",
            Purpose::Check => "check",
            Purpose::Opposed => "opposed",
            Purpose::Save => "save",
            Purpose::MountSave => "mount_save",
            Purpose::Initiative(_) => "initiative",
            Purpose::Damage => "damage",
        }
    }
}

/// A die that a question rolled, for the answer's `rolls`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rolled {
    /// What it was for.
    pub purpose: Purpose,
    /// Faces of the die.
    pub sides: u32,
    /// The face.
    pub face: u32,
}

/// Why a die could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiceError {
    /// A given roll is missing: `needed` faces were needed for the purpose, `given` were given.
    Missing {
        /// The purpose.
        purpose: Purpose,
        /// Faces needed so far.
        needed: usize,
        /// Faces given.
        given: usize,
    },
    /// A given face is not on the die.
    OutOfRange {
        /// The purpose.
        purpose: Purpose,
        /// Position in the purpose's list.
        index: usize,
        /// The face given.
        face: i64,
        /// Faces of the die.
        sides: u32,
    },
}

/// Where the faces come from. Implemented by the server (seeded RNG), by [`GivenDice`] and by
/// [`OddsOnly`].
pub trait DiceSource {
    /// The next face of a `sides`-sided die for `purpose`, `Ok(None)` when only the odds are
    /// wanted (no die is rolled).
    fn roll(&mut self, purpose: &Purpose, sides: u32) -> Result<Option<u32>, DiceError>;
}

/// Odds only: no die is ever rolled.
#[derive(Debug, Clone, Copy, Default)]
pub struct OddsOnly;

impl DiceSource for OddsOnly {
    fn roll(&mut self, _: &Purpose, _: u32) -> Result<Option<u32>, DiceError> {
        Ok(None)
    }
}

/// Faces rolled by the VTT, consumed in order per purpose.
#[derive(Debug, Clone, Default)]
pub struct GivenDice {
    lists: Vec<(Purpose, Vec<i64>, usize)>,
}

impl GivenDice {
    /// Given faces per purpose, in the order they were rolled.
    pub fn new(lists: impl IntoIterator<Item = (Purpose, Vec<i64>)>) -> Self {
        GivenDice { lists: lists.into_iter().map(|(p, f)| (p, f, 0)).collect() }
    }

    /// Purposes that still have faces nobody used, with the count: a VTT that sent more dice
    /// than the question needed has most likely misread the situation.
    pub fn unused(&self) -> Vec<(Purpose, usize)> {
        self.lists
            .iter()
            .filter(|(_, faces, used)| *used < faces.len())
            .map(|(p, faces, used)| (p.clone(), faces.len() - used))
            .collect()
    }
}

impl DiceSource for GivenDice {
    fn roll(&mut self, purpose: &Purpose, sides: u32) -> Result<Option<u32>, DiceError> {
        let Some((_, faces, used)) = self.lists.iter_mut().find(|(p, _, _)| p == purpose) else {
            return Err(DiceError::Missing { purpose: purpose.clone(), needed: 1, given: 0 });
        };
        let Some(&face) = faces.get(*used) else {
            return Err(DiceError::Missing {
                purpose: purpose.clone(),
                needed: *used + 1,
                given: faces.len(),
            });
        };
        let index = *used;
        *used += 1;
        match u32::try_from(face) {
            Ok(f) if (1..=sides).contains(&f) => Ok(Some(f)),
            _ => Err(DiceError::OutOfRange { purpose: purpose.clone(), index, face, sides }),
        }
    }
}

/// A [`DiceSource`] wrapper that records every face it hands out.
#[derive(Debug)]
pub struct Recorder<'a, D: DiceSource + ?Sized> {
    inner: &'a mut D,
    /// The faces rolled so far.
    pub rolled: Vec<Rolled>,
}

impl<'a, D: DiceSource + ?Sized> Recorder<'a, D> {
    /// Wraps a source.
    pub fn new(inner: &'a mut D) -> Self {
        Recorder { inner, rolled: Vec::new() }
    }
}

impl<D: DiceSource + ?Sized> DiceSource for Recorder<'_, D> {
    fn roll(&mut self, purpose: &Purpose, sides: u32) -> Result<Option<u32>, DiceError> {
        let face = self.inner.roll(purpose, sides)?;
        if let Some(face) = face {
            self.rolled.push(Rolled { purpose: purpose.clone(), sides, face });
        }
        Ok(face)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PRODUCT/issue example: 5e +5 vs AC 15 hits on d20 ≥ 10: 11/20 = 0.55.
    #[test]
    fn d20_plain_and_advantage() {
        assert_eq!(Dist::d20().p_at_least(10), Ratio::new(11, 20));
        // Advantage: 1 − (9/20)² = 319/400 = 0.7975.
        assert_eq!(Dist::d20().highest_of_two().p_at_least(10), Ratio::new(319, 400));
        // Disadvantage: (11/20)² = 121/400.
        assert_eq!(Dist::d20().lowest_of_two().p_at_least(10), Ratio::new(121, 400));
    }

    /// RULES.md `hb3d.attack.roll`: the P(3d6 ≥ k) table, in hundredths of a percent.
    #[test]
    fn three_d6_table() {
        let table = [
            (3, 10000),
            (4, 9954),
            (5, 9815),
            (6, 9537),
            (7, 9074),
            (8, 8380),
            (9, 7407),
            (10, 6250),
            (11, 5000),
            (12, 3750),
            (13, 2593),
            (14, 1620),
            (15, 926),
            (16, 463),
            (17, 185),
            (18, 46),
        ];
        let d = Dist::sum_of(3, 6);
        assert_eq!(d.total(), 216);
        for (k, bp) in table {
            let p = d.p_at_least(k).to_f64() * 10000.0;
            assert!((p - bp as f64).abs() <= 0.5, "3d6 >= {k}: {p} vs {bp}");
        }
        // Issue example: hb3d +5 vs DEF 14 needs 3d6 ≥ 9: 160/216.
        assert_eq!(d.p_at_least(9), Ratio::new(160, 216));
    }

    /// Issue example: PF1 +5 vs AC 15 through fog: 11/20 × 80 % = 0.44.
    #[test]
    fn miss_chance_composition() {
        let hit = Dist::d20().p_at_least(10).times(Ratio::percent(20).complement());
        assert_eq!(hit, Ratio::new(44, 100));
    }

    #[test]
    fn ratio_arithmetic() {
        assert_eq!(Ratio::new(1, 3).plus(Ratio::new(1, 6)), Ratio::new(1, 2));
        assert_eq!(Ratio::new(1, 3).minus(Ratio::new(1, 2)), Ratio::ZERO);
        assert_eq!(Ratio::new(2, 0), Ratio::ZERO);
        assert_eq!(Ratio::new(3, 4).complement(), Ratio::new(1, 4));
    }

    #[test]
    fn given_dice_validate_faces() {
        let mut g = GivenDice::new([(Purpose::Attack, vec![20, 0])]);
        assert_eq!(g.roll(&Purpose::Attack, 20), Ok(Some(20)));
        assert_eq!(
            g.roll(&Purpose::Attack, 20),
            Err(DiceError::OutOfRange { purpose: Purpose::Attack, index: 1, face: 0, sides: 20 })
        );
        assert_eq!(
            g.roll(&Purpose::Attack, 20),
            Err(DiceError::Missing { purpose: Purpose::Attack, needed: 3, given: 2 })
        );
        assert!(matches!(g.roll(&Purpose::Confirm, 20), Err(DiceError::Missing { given: 0, .. })));
        let mut h = GivenDice::new([(Purpose::MissChance, vec![17, 5])]);
        assert_eq!(h.roll(&Purpose::MissChance, 100), Ok(Some(17)));
        assert_eq!(h.unused(), vec![(Purpose::MissChance, 1)]);
    }

    #[test]
    fn recorder_keeps_faces() {
        let mut g = GivenDice::new([(Purpose::Save, vec![12])]);
        let mut r = Recorder::new(&mut g);
        assert_eq!(r.roll(&Purpose::Save, 20), Ok(Some(12)));
        assert_eq!(r.rolled, vec![Rolled { purpose: Purpose::Save, sides: 20, face: 12 }]);
        let mut o = OddsOnly;
        assert_eq!(o.roll(&Purpose::Attack, 20), Ok(None));
    }
}
