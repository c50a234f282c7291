//! Trace effects: the damage of a hit (`POST /v1/attack`, grapple damage in `/v1/maneuvers`).

use crate::dice::Ratio;

/// One step of working out a hit's damage.
#[derive(Debug, Clone, PartialEq)]
pub enum DamageEffect {
    /// The unarmed strike's damage.
    Unarmed {
        /// Its dice and bonus (`"1d3"`, `"1"`).
        dice: String,
        /// It deals nonlethal damage.
        nonlethal: bool,
    },
    /// The ability modifier added to the damage.
    Ability {
        /// The stat read (`str_mod`, `dex_mod`), `None` when no ability applies.
        stat: Option<&'static str>,
        /// The creature's modifier.
        modifier: i32,
        /// What the damage gets.
        applied: i32,
        /// Why (`melee`, `ranged`, `finesse`, `thrown`, `two_handed`, `off_hand_half`,
        /// `off_hand_negative_only`, `ranged_none`, `included`).
        why: &'static str,
    },
    /// The damage is multiplied (a lance on a mounted charge, a braced weapon).
    Multiplier {
        /// The multiplier.
        multiplier: u32,
        /// Why (`lance_mounted_charge`, `braced_against_charge`).
        why: &'static str,
    },
    /// What a critical hit does to the damage.
    Critical {
        /// `dice_twice` (5e), `multiplier` (PF1), `roll_twice` (SF).
        kind: &'static str,
        /// How many times the multiplied part is rolled on a critical hit.
        rolls: u32,
        /// The chance of a critical hit.
        p_critical: Ratio,
    },
    /// The least damage a hit deals, per damage type.
    Minimum {
        /// The minimum.
        minimum: i64,
    },
    /// A defence of the target against one damage type.
    Mitigation {
        /// The damage type (`fire`), `None` for untyped damage.
        damage_type: Option<String>,
        /// `immunity`, `resistance`, `vulnerability`, `energy_resistance`, `damage_reduction`.
        kind: &'static str,
        /// The amount subtracted (energy resistance, damage reduction).
        amount: Option<i64>,
        /// The damage reduction is bypassed by the weapon.
        bypassed: bool,
    },
    /// The damage rolled.
    Rolled {
        /// Every damage die, in the order rolled.
        faces: Vec<u32>,
        /// The damage dealt, after the target's defences.
        total: i64,
        /// It was a critical hit.
        critical: bool,
    },
    /// The damage's exact distribution, summed up.
    Distribution {
        /// The damage of a hit, as written (`"1d8+3 slashing"`).
        expression: String,
        /// The mean damage of this attack (misses count 0).
        mean: Ratio,
        /// The target's hit points, when known.
        hp: Option<i32>,
        /// The chance that this attack drops the target (damage ≥ hp).
        p_drop: Option<Ratio>,
    },
}
