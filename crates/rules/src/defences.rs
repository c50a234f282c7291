//! What reduces the damage a creature takes, as the encounter gives it. The mitigation
//! itself is worked out in [`damage`](crate::damage); the value sits beside `encounter` (as
//! `size` and `condition` do) so that the encounter does not depend on that module.

/// PF1 damage reduction: `amount` off the physical damage of each hit, unless the weapon
/// bypasses it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DamageReduction {
    /// The amount.
    pub amount: i64,
    /// What bypasses it (`silver`, `magic`, `slashing`…): a damage type of the weapon or one
    /// of its materials; empty: nothing does (DR x/—).
    pub bypassed_by: Vec<String>,
}

/// What reduces the damage a creature takes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Defences {
    /// 5e: damage types it resists (halved, rounded down).
    pub resistances: Vec<String>,
    /// Damage types it is vulnerable to (5e: doubled; PF1 family: +50 %, rounded down).
    pub vulnerabilities: Vec<String>,
    /// Damage types it is immune to.
    pub immunities: Vec<String>,
    /// PF1 family: energy resistance per type (`fire`, 10).
    pub energy_resistance: Vec<(String, i64)>,
    /// PF1 family: damage reduction.
    pub dr: Option<DamageReduction>,
}
