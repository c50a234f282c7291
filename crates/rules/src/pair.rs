//! The two creatures of one question, the acting one and the other, with their indices and the
//! encounter they stand in: built once per question and handed down, instead of the five
//! values `(enc, ai, a, ti, t)` each helper took.
//!
//! A leaf: it uses [`encounter`](crate::encounter) only, so any rule module may use it.
//! (Not `analyze::Pair`, which is one row of an analysis's answer.)

use crate::encounter::{Creature, Encounter};

/// The acting creature and its target in `enc`, both known to exist.
#[derive(Debug, Clone, Copy)]
pub struct Pair<'a> {
    /// The encounter.
    pub enc: &'a Encounter,
    /// The acting creature's index in `enc.creatures` (its JSON pointer).
    pub attacker: usize,
    /// The acting creature.
    pub a: &'a Creature,
    /// The target's index.
    pub target: usize,
    /// The target.
    pub t: &'a Creature,
}

impl<'a> Pair<'a> {
    /// The pair of `attacker` and `target`; `None` when either index is not a creature of
    /// `enc` (each caller answers that its own way).
    pub fn new(enc: &'a Encounter, attacker: usize, target: usize) -> Option<Pair<'a>> {
        let (a, t) = (enc.creatures.get(attacker)?, enc.creatures.get(target)?);
        Some(Pair { enc, attacker, a, target, t })
    }
}
