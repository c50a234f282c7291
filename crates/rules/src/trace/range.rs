//! Trace effects: reach and range bands (`POST /v1/range`).

/// Where a target falls for one attack (PRODUCT.md `/v1/range`): within melee reach, in a
/// ranged weapon's normal or long range or one of its increments, or out of range. Not to be
/// confused with `reach::ReachBand` (the distances a creature reaches with a weapon) or
/// `maneuver::OutcomeBand` (how a maneuver turns out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeBand {
    /// Within melee reach.
    Reach,
    /// 5e normal range.
    Normal,
    /// 5e long range (disadvantage).
    Long,
    /// PF1/SF/hb3d range increment (number in the answer).
    Increment,
    /// The weapon cannot reach the target.
    OutOfRange,
}

impl RangeBand {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            RangeBand::Reach => "reach",
            RangeBand::Normal => "normal",
            RangeBand::Long => "long",
            RangeBand::Increment => "increment",
            RangeBand::OutOfRange => "out_of_range",
        }
    }
}

/// Why a ranged attack into melee has no penalty although the target is engaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntoMeleeExemption {
    /// The attacker has Precise Shot.
    PreciseShot,
    /// Some square of the target is at least 10 ft from every friend of the attacker.
    TenFeetFromFriends,
    /// The target is three or more sizes larger than the friends engaging it.
    ThreeSizesLarger,
}

/// Reach and range bands (`POST /v1/range`).
#[derive(Debug, Clone, PartialEq)]
pub enum RangeEffect {
    /// Melee reach and whether the target is within it.
    Reach {
        /// Farthest reach, feet.
        reach_ft: i64,
        /// Reach weapons that cannot hit this close: targets at this distance or nearer are
        /// out of reach.
        too_close_ft: Option<i64>,
        /// Whether the target is within reach.
        within: bool,
        /// The 10 ft reach second-diagonal exception decided it.
        second_diagonal: bool,
    },
    /// A ranged weapon's band.
    RangeBand {
        /// The band.
        band: RangeBand,
        /// The increment number, for increment rules.
        increment: Option<u32>,
        /// Attack modifier from range.
        modifier: i32,
        /// Disadvantage from range (5e long range).
        disadvantage: bool,
        /// The farthest distance the weapon reaches, feet.
        max_ft: i64,
    },
    /// 5e ranged attack within 5 ft of a hostile creature that sees the attacker.
    CloseCombat {
        /// The hostile creatures that impose disadvantage.
        by: Vec<String>,
        /// Hostile creatures within 5 ft that do not (incapacitated or cannot see).
        ignored: Vec<String>,
    },
    /// PF1 ranged attack into melee.
    IntoMelee {
        /// The attacker's friends engaged with the target.
        engaged_with: Vec<String>,
        /// The penalty applied.
        penalty: i32,
        /// Why no (or a smaller) penalty applies.
        exemption: Option<IntoMeleeExemption>,
    },
}
