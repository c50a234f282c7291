//! Helpers shared by the rules-crate integration tests.

use arbiter_rules::dice::{DiceError, DiceSource, Purpose};

/// A small deterministic RNG standing in for the server's.
pub struct XorShift(pub u64);

impl DiceSource for XorShift {
    fn roll(&mut self, _: &Purpose, sides: u32) -> Result<Option<u32>, DiceError> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(Some((self.0 % u64::from(sides.max(1))) as u32 + 1))
    }
}
