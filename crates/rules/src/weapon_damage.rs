//! A weapon's damage as the encounter gives it: terms of dice, a bonus and a damage type.
//! [`damage`](crate::damage) works out what it deals; the value sits beside `encounter`
//! (as `size` and `condition` do) so that the encounter does not depend on that module.

/// One term of a weapon's damage: dice and a bonus of one damage type.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Term {
    /// `NdS` groups `(count, sides)`.
    pub dice: Vec<(u32, u32)>,
    /// Static bonus (or penalty).
    pub bonus: i64,
    /// Damage type (`"fire"`), free text compared without case; `None`: untyped.
    pub damage_type: Option<String>,
    /// PF1 family: extra dice (sneak attack, flaming) that a critical multiplier does not
    /// multiply.
    pub extra: bool,
}

/// What a weapon's damage is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DamageSource {
    /// Terms as written.
    Terms(Vec<Term>),
    /// The ruleset's unarmed strike (by the striker's size).
    Unarmed,
}

/// A weapon's damage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// Its terms.
    pub source: DamageSource,
    /// The expression already includes the ability modifier: none is added.
    pub ability_included: bool,
}
