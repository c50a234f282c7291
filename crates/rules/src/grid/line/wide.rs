//! Exact arithmetic beyond `i128`: a minimal signed 256-bit integer and exact fractions.
//!
//! The line tests themselves fit in `i128` (cross products of coordinate differences stay below
//! 2^125); only two things need more: locating a crossing point (a coordinate times a cross
//! product, about 2^187) and ordering two fractions whose terms are cross products (2^250).

use std::cmp::Ordering;

/// A signed 256-bit integer in two's complement: `hi · 2^128 + lo`.
///
/// Only what the line code needs: exact products of two `i128`, addition and comparison. Every
/// operation wraps instead of panicking; the callers' bounds keep the true values far inside
/// the range (|value| < 2^255).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct I256 {
    hi: i128,
    lo: u128,
}

impl I256 {
    /// The exact product `a · b` (at most 2^254 in magnitude, so it always fits).
    pub(crate) fn mul(a: i128, b: i128) -> Self {
        let (hi, lo) = umul(a.unsigned_abs(), b.unsigned_abs());
        // |a|, |b| ≤ 2^127, so the product is ≤ 2^254 and `hi` < 2^126: the cast keeps it.
        let p = I256 { hi: hi as i128, lo };
        if (a < 0) != (b < 0) { p.neg() } else { p }
    }

    /// The negation (two's complement).
    pub(crate) fn neg(self) -> Self {
        let lo = (!self.lo).wrapping_add(1);
        let carry = i128::from(lo == 0);
        I256 { hi: (!self.hi).wrapping_add(carry), lo }
    }

    /// The sum.
    pub(crate) fn add(self, o: Self) -> Self {
        let (lo, carry) = self.lo.overflowing_add(o.lo);
        I256 { hi: self.hi.wrapping_add(o.hi).wrapping_add(i128::from(carry)), lo }
    }
}

impl PartialOrd for I256 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for I256 {
    fn cmp(&self, other: &Self) -> Ordering {
        // The high halves carry the sign; the low halves are plain unsigned digits.
        self.hi.cmp(&other.hi).then(self.lo.cmp(&other.lo))
    }
}

/// The full 256-bit product of two `u128`, as (high, low) halves, by 64-bit schoolbook digits.
fn umul(a: u128, b: u128) -> (u128, u128) {
    const MASK: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & MASK);
    let (b1, b0) = (b >> 64, b & MASK);
    // Each partial product of two 64-bit digits is below 2^128.
    let p00 = a0.wrapping_mul(b0);
    let p01 = a0.wrapping_mul(b1);
    let p10 = a1.wrapping_mul(b0);
    let p11 = a1.wrapping_mul(b1);
    // The middle column: three terms below 2^64 each, so below 2^66.
    let mid = (p00 >> 64) + (p01 & MASK) + (p10 & MASK);
    let lo = (p00 & MASK) | ((mid & MASK) << 64);
    // The whole product is below 2^256, so the high half cannot overflow.
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

/// An exact fraction `num / den` with `den > 0`: where a point lies along a segment, from 0 at
/// its `from` end to 1 at its `to` end. Compared exactly (never through floats).
#[derive(Debug, Clone, Copy)]
pub struct Ratio {
    num: i128,
    den: i128,
}

impl Ratio {
    /// Builds `num / den`, normalising the sign of the denominator. `den` must not be zero and
    /// neither term may be `i128::MIN` (the line code only passes cross and dot products, which
    /// are far smaller); a zero denominator gives 0.
    pub(crate) fn new(num: i128, den: i128) -> Self {
        match den.cmp(&0) {
            Ordering::Greater => Ratio { num, den },
            Ordering::Less => Ratio { num: num.saturating_neg(), den: den.saturating_neg() },
            Ordering::Equal => Ratio { num: 0, den: 1 },
        }
    }

    /// Zero: the `from` end of the segment.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// The numerator.
    pub fn num(&self) -> i128 {
        self.num
    }

    /// The denominator (always positive).
    pub fn den(&self) -> i128 {
        self.den
    }

    /// An approximation, for display and drawing only (never for a decision).
    pub fn to_f64(&self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Self) -> Ordering {
        // Denominators are positive, so cross-multiplying keeps the order; the products need
        // up to 250 bits.
        I256::mul(self.num, other.den).cmp(&I256::mul(other.num, self.den))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_and_order_are_exact() {
        let big = (1i128 << 125) - 3;
        let a = I256::mul(big, big);
        let b = I256::mul(big - 1, big + 1); // big² − 1
        assert!(a > b);
        assert_eq!(b.add(I256::mul(1, 1)), a);
        assert!(I256::mul(-big, big) < I256::mul(0, 0));
        assert_eq!(I256::mul(-big, big).neg(), a);
        assert_eq!(I256::mul(i128::MIN, i128::MIN), I256::mul(i128::MIN, i128::MIN).neg().neg());
        assert!(I256::mul(-1, 1) < I256::mul(0, 1));
        assert_eq!(I256::mul(-3, 7).add(I256::mul(21, 1)), I256::mul(0, 0));
    }

    #[test]
    fn ratios_compare_exactly() {
        let third = Ratio::new(1, 3);
        let close = Ratio::new((1i128 << 120) + 1, 3i128 << 120);
        assert!(third < close);
        assert_eq!(Ratio::new(-2, -6), third);
        assert_eq!(Ratio::new(5, 0), Ratio::ZERO);
    }
}
