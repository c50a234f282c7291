//! The trace: an ordered list of typed steps, each citing the rule it applied. The server
//! renders the text (English or French) and adds the source from the [`crate::catalog`].

use crate::grid::{Metric, Point, Square};

/// One applied rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The RULES.md rule id.
    pub rule: &'static str,
    /// The variant that decided this step, when one did.
    pub variant: Option<&'static str>,
    /// What the rule found or changed.
    pub effect: Effect,
}

/// A range band (PRODUCT.md `/v1/range`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
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

impl Band {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            Band::Reach => "reach",
            Band::Normal => "normal",
            Band::Long => "long",
            Band::Increment => "increment",
            Band::OutOfRange => "out_of_range",
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

/// What a rule found. Each variant carries the numbers the answer and the text need.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// A creature's space follows from its size.
    Space {
        /// Creature id.
        creature: String,
        /// Squares per side.
        side: i32,
    },
    /// The distance between two spaces.
    Distance {
        /// Squares.
        squares: i64,
        /// Feet.
        feet: i64,
        /// How diagonals were counted.
        metric: Metric,
    },
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
        band: Band,
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
    /// Advantage and disadvantage sources combined (`dnd5e.advantage.combine`).
    AdvantageCombined {
        /// Number of advantage sources.
        advantage: usize,
        /// Number of disadvantage sources.
        disadvantage: usize,
        /// The roll that results.
        result: RollMode,
    },
    /// Elevation is not part of the 2-D geometry yet.
    ElevationIgnored {
        /// Creatures with a non-zero elevation.
        creatures: Vec<String>,
    },
    /// Whether a line of effect exists between the two (`grid.line-of-effect`).
    LineOfEffect {
        /// It exists.
        exists: bool,
        /// The clear segment found, if any.
        from: Option<Point>,
        /// Its other end.
        to: Option<Point>,
    },
    /// The attacker's best choice of corner and target square.
    CoverChoice {
        /// The corner (or area origin).
        corner: Option<Point>,
        /// The target square.
        target_square: Option<Square>,
        /// Lines blocked.
        blocked: u32,
        /// Lines traced for that choice.
        lines: u32,
        /// Degree of that choice (wire id).
        degree: &'static str,
        /// The adjacent-melee test decided (PF1).
        adjacent_test: bool,
    },
    /// `dnd5e.cover.half-cap`: only creatures and low obstacles block.
    HalfCap {
        /// Whether the cap lowered the degree.
        capped: bool,
    },
    /// A low obstacle met by the chosen lines, and whether it counts (`pf1e.cover.low-obstacles`).
    LowObstacle {
        /// The low square, if a square.
        square: Option<Square>,
        /// The low wall's index, if a wall.
        wall: Option<usize>,
        /// Distance from the target, feet.
        target_ft: i64,
        /// Distance from the attacker, feet.
        attacker_ft: i64,
        /// Whether it gives cover.
        counted: bool,
    },
    /// The cover comes from creatures only.
    SoftCover,
    /// An arrow slit makes the cover at least improved / three-quarters (RULES.md Q-41).
    ArrowSlit,
    /// The resulting degree and its numbers.
    CoverResult {
        /// Degree (wire id).
        degree: &'static str,
        /// Creature-only cover.
        soft: bool,
        /// AC bonus.
        ac_bonus: i32,
        /// Save bonus.
        save_bonus: i32,
        /// hb3d ATT modifier.
        attack_modifier: i32,
        /// Whether the target can be targeted.
        can_be_targeted: bool,
    },
    /// Cover and attacks of opportunity.
    CoverOpportunity {
        /// Whether attacks of opportunity are denied.
        denies: bool,
    },
    /// Melee cover asked for a target out of reach (RULES.md Q-37).
    OutOfReach,
    /// One modifier of an attack.
    AttackModifier {
        /// What it comes from.
        source: &'static str,
        /// A detail.
        detail: Option<String>,
        /// Attack roll modifier.
        attack: i32,
        /// Target number modifier.
        defence: i32,
        /// Advantage.
        advantage: bool,
        /// Disadvantage.
        disadvantage: bool,
    },
    /// The attack's outcome.
    AttackOutcome {
        /// Whether the attack could be made.
        allowed: bool,
        /// Melee or not.
        melee: bool,
        /// The natural roll.
        natural: Option<i64>,
        /// The total.
        total: Option<i64>,
        /// The number to reach.
        target_number: i32,
        /// Hit.
        hit: Option<bool>,
        /// Critical.
        critical: Option<bool>,
        /// Exact probability of a hit.
        p_hit: crate::dice::Ratio,
    },
    /// A light, sight or concealment step (see [`crate::vision`]).
    Vision(crate::vision::VisionEffect),
    /// A flanking step (see [`crate::flanking`]).
    Flanking(crate::flanking::FlankEffect),
    /// A combat maneuver step (see [`crate::maneuver`]).
    Maneuver(crate::maneuver::ManeuverEffect),
    /// A movement step (`/v1/movement`).
    Movement(crate::movement::MoveEffect),
    /// An initiative step (`/v1/initiative`).
    Initiative(crate::initiative::InitiativeEffect),
    /// A whole-scene summary step (`/v1/analyze`).
    Analyze(crate::analyze::AnalyzeEffect),
}

/// How the d20 is rolled after combining advantage and disadvantage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollMode {
    /// One die.
    Normal,
    /// Two dice, keep the higher.
    Advantage,
    /// Two dice, keep the lower.
    Disadvantage,
}

impl RollMode {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            RollMode::Normal => "normal",
            RollMode::Advantage => "advantage",
            RollMode::Disadvantage => "disadvantage",
        }
    }

    /// `dnd5e.advantage.combine`: any advantage and any disadvantage cancel; several of one
    /// kind still roll two dice.
    pub fn combine(advantage: usize, disadvantage: usize) -> RollMode {
        match (advantage > 0, disadvantage > 0) {
            (true, false) => RollMode::Advantage,
            (false, true) => RollMode::Disadvantage,
            _ => RollMode::Normal,
        }
    }
}

/// An ordered list of steps.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trace {
    /// The steps, in the order the rules were applied.
    pub steps: Vec<Step>,
}

impl Trace {
    /// Appends a step.
    pub fn push(&mut self, rule: &'static str, effect: Effect) {
        self.steps.push(Step { rule, variant: None, effect });
    }

    /// Appends a step that a variant decided.
    pub fn push_variant(&mut self, rule: &'static str, variant: &'static str, effect: Effect) {
        self.steps.push(Step { rule, variant: Some(variant), effect });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULES.md `dnd5e.advantage.combine` example: two disadvantages and one advantage → one die.
    #[test]
    fn advantage_combination() {
        assert_eq!(RollMode::combine(1, 2), RollMode::Normal);
        assert_eq!(RollMode::combine(0, 2), RollMode::Disadvantage);
        assert_eq!(RollMode::combine(3, 0), RollMode::Advantage);
        assert_eq!(RollMode::combine(0, 0), RollMode::Normal);
    }
}
