//! Helpers shared by the rules-crate integration tests.

use arbiter_rules::dice::{DiceError, DiceSource, Purpose};
use arbiter_rules::trace::Trace;

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

/// The encounter of a cover property test whose first two creatures are the attacker and the
/// target: `None` when they overlap or leave the map; the other creatures standing on either
/// are removed.
pub fn placed_pair(
    mut enc: arbiter_rules::encounter::Encounter,
) -> Option<arbiter_rules::encounter::Encounter> {
    let (sa, st) = (enc.space(&enc.creatures[0]), enc.space(&enc.creatures[1]));
    if sa.overlaps(&st) || !enc.grid.contains_space(&sa) || !enc.grid.contains_space(&st) {
        return None;
    }
    let (a, t) = (enc.creatures[0].id.clone(), enc.creatures[1].id.clone());
    enc.creatures.retain(|c| c.id == a || c.id == t || !(sa.contains(c.at) || st.contains(c.at)));
    Some(enc)
}

/// Issue 13: each decision is narrated once: the first two steps of a trace with the same
/// effect (whatever rule they cite), if any.
pub fn repeated_step(t: &Trace) -> Option<String> {
    let (o, s) = arbiter_rules::trace::narration::repeated_steps(t)
        .first()
        .map(|&(j, i)| (&t.steps[j], &t.steps[i]))?;
    Some(format!("{} and {}: {:?}", o.rule, s.rule, s.effect))
}
