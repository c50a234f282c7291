//! Trace effects: line of effect and cover (`POST /v1/cover`).

use crate::grid::{Point, Square};

/// Degrees of cover, as the rulesets name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CoverDegree {
    /// No cover.
    None,
    /// PF1/SF partial cover (variant).
    Partial,
    /// 5e half cover.
    Half,
    /// PF1/SF/hb3d cover.
    Cover,
    /// 5e three-quarters cover.
    ThreeQuarters,
    /// PF1/SF/hb3d improved cover.
    Improved,
    /// Total cover: no line of effect.
    Total,
}

impl CoverDegree {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            CoverDegree::None => "none",
            CoverDegree::Partial => "partial",
            CoverDegree::Half => "half",
            CoverDegree::Cover => "cover",
            CoverDegree::ThreeQuarters => "three_quarters",
            CoverDegree::Improved => "improved",
            CoverDegree::Total => "total",
        }
    }
}

/// Line of effect and cover (`POST /v1/cover`).
#[derive(Debug, Clone, PartialEq)]
pub enum CoverEffect {
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
        /// Degree of that choice.
        degree: CoverDegree,
        /// The adjacent-melee test decided (PF1).
        adjacent_test: bool,
    },
    /// `grid.line.along-wall` (rule 7 of `grid.line.blocked`): chosen lines blocked where they
    /// run along a wall into a junction (another wall or a closed door meeting it).
    AlongWall {
        /// Chosen lines so blocked.
        lines: u32,
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
        /// Degree.
        degree: CoverDegree,
        /// Creature-only cover.
        soft: bool,
        /// AC bonus (`None` under total cover).
        ac_bonus: Option<i32>,
        /// Save bonus (`None` under total cover).
        save_bonus: Option<i32>,
        /// hb3d ATT modifier (`None` under total cover).
        attack_modifier: Option<i32>,
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
    /// `dnd5e.cover.half-cap`: only creatures and low obstacles block the chosen lines, but
    /// they already give half cover at most, so the cap changes nothing.
    HalfCapUnneeded {
        /// Lines blocked.
        blocked: u32,
    },
    /// 5e cover from creatures only (`dnd5e.cover.degrees`: "Half: another creature"); not
    /// Pathfinder's soft cover, the save bonus applies.
    CreatureCover {
        /// `dnd5e.cover.half-cap` is on: creatures alone give half cover at most.
        capped: bool,
    },
    /// `pf1e.cover.big-creatures`: the squares a creature of several squares attacks from
    /// or is attacked in, and the test that pair uses.
    BigCreatures {
        /// The attacker's square chosen.
        attacker_square: Option<Square>,
        /// The target's square chosen.
        target_square: Option<Square>,
        /// The two squares are adjacent: the adjacent-melee test decided.
        adjacent_test: bool,
    },
}
