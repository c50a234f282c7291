//! Trace effects of movement (`POST /v1/movement`), and the step, attack of opportunity and
//! occupied end they carry (the movement answer is made of the same values).

use crate::grid::Square;

/// Trace steps of movement.
#[derive(Debug, Clone, PartialEq)]
pub enum MoveEffect {
    /// What the mover may spend.
    Budget {
        /// Speed, feet.
        speed_ft: u32,
        /// Budget, feet.
        budget_ft: u32,
        /// Why it differs from the speed (`dash`, `double_move`, `stand_up`, `dragging`…).
        why: Vec<&'static str>,
    },
    /// A prone mover crawls or stands up.
    Prone {
        /// Stands up (otherwise crawls).
        stands_up: bool,
        /// What standing costs, feet (PF1 family: a move action, 0 here).
        cost_ft: u32,
    },
    /// A notable step: difficult, hampered, through a creature, or not allowed.
    Step(Step),
    /// The total.
    Total {
        /// Feet spent on steps.
        total_ft: u32,
        /// Budget.
        budget_ft: Option<u32>,
        /// Whether it fits.
        within: bool,
    },
    /// Mounting or dismounting.
    Mounted {
        /// The mount.
        mount: String,
        /// Mounting (otherwise dismounting).
        mounting: bool,
        /// Cost, feet.
        cost_ft: u32,
        /// Why it cannot be done.
        issue: Option<&'static str>,
    },
    /// An attack of opportunity.
    Opportunity(MoveOpportunity),
    /// The move ends in an occupied space.
    EndsOccupied(EndsOccupied),
    /// The grappled creature dragged along: it moves with the mover, so the mover never leaves
    /// its reach (no opportunity attack from it), and, moved without its own movement, it
    /// provokes none itself.
    Dragged {
        /// Its id.
        creature: String,
    },
    /// Nothing provokes (teleport, forced movement, Disengage, a five-foot step).
    NoOpportunity {
        /// Why.
        why: &'static str,
    },
}

/// One step of the path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Index in the path of the square entered (1: the first step).
    pub index: usize,
    /// The anchor square left.
    pub from: Square,
    /// The anchor square entered.
    pub to: Square,
    /// Its cost, feet.
    pub cost_ft: u32,
    /// Feet spent so far, this step included.
    pub total_ft: u32,
    /// A diagonal step.
    pub diagonal: bool,
    /// Difficult terrain (terrain, water without a swim speed, or a creature's space).
    pub difficult: bool,
    /// PF1 family: a hampering (low) obstacle crossed.
    pub hampered: bool,
    /// The creature whose space it passes through.
    pub through: Option<String>,
    /// Whether the step is allowed.
    pub legal: bool,
    /// Why not.
    pub issue: Option<StepIssue>,
}

/// The move ends in another creature's space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndsOccupied {
    /// The occupant.
    pub creature: String,
    /// `illegal` (you cannot end a move there), `prone` (5e 2024, a turn ending there),
    /// `return_to_last_legal` (PF1 family, when it happens anyway), `allowed` (a helpless
    /// occupant in the PF1 family).
    pub consequence: &'static str,
    /// Rule id.
    pub rule: &'static str,
}

/// Why a step is not allowed.
///
/// Not [`PushStop`](crate::maneuver::PushStop), although both come from the same square, wall and
/// corner tests (the crate's `obstruction` module): a step is chosen by the mover, so its path was
/// checked on the grid beforehand (no grid edge) and has a direction (no `NoDirection`); it can run
/// out of movement, and a creature refuses passage for a reason (`hostile`, `opponent`,
/// `charging_through_ally`). A push stops instead of being illegal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepIssue {
    /// A solid square.
    Solid {
        /// The square.
        square: Square,
    },
    /// A thin wall that blocks movement between the squares.
    Wall {
        /// The square beyond it.
        square: Square,
    },
    /// A diagonal step past a solid square or a wall end (`grid.move.corner-cutting`).
    Corner {
        /// The square entered.
        square: Square,
    },
    /// Another creature's space that this mover may not pass through.
    Creature {
        /// The square.
        square: Square,
        /// Its id.
        creature: String,
        /// `hostile` (5e), `opponent` (PF1 family), `charging_through_ally`.
        why: &'static str,
    },
    /// Not enough movement left to pay for the step.
    NoMovementLeft,
}

impl StepIssue {
    /// The wire id.
    pub fn id(&self) -> &'static str {
        match self {
            StepIssue::Solid { .. } => "solid",
            StepIssue::Wall { .. } => "wall",
            StepIssue::Corner { .. } => "corner",
            StepIssue::Creature { .. } => "creature",
            StepIssue::NoMovementLeft => "no_movement_left",
        }
    }

    /// The square at fault.
    pub fn square(&self) -> Option<Square> {
        match self {
            StepIssue::Solid { square }
            | StepIssue::Wall { square }
            | StepIssue::Corner { square }
            | StepIssue::Creature { square, .. } => Some(*square),
            StepIssue::NoMovementLeft => None,
        }
    }
}

/// One creature's attack of opportunity against a moving creature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveOpportunity {
    /// The creature that may attack.
    pub creature: String,
    /// Index in the path of the square the mover stands on when it provokes (0: the start).
    pub step: usize,
    /// That square (the mover's anchor).
    pub square: Square,
    /// Whether it gets the attack (false: listed with the reason it does not, or offered
    /// only).
    pub provoked: bool,
    /// Why it provokes, or why not.
    pub reason: OpportunityReason,
    /// Rule id.
    pub rule: &'static str,
}

/// Why a creature gets an attack of opportunity against a mover, or why it does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpportunityReason {
    /// PF1 family: the mover leaves a square it threatens.
    LeavesThreatenedSquare,
    /// 5e: the mover leaves its reach.
    LeavesReach,
    /// PF1 family: the mover stands up in a square it threatens.
    StandsUp,
    /// PF1 family: the mover passes through its space in a way that provokes.
    MovesThroughSpace,
    /// 5e 2024: an ally is offered the reaction, never automated.
    OfferedToAlly,
    /// It is flat-footed.
    FlatFooted,
    /// The mover has cover from it (PF1 family).
    Cover,
    /// The mover has total cover from it (5e).
    TotalCover,
    /// The mover has total concealment from it.
    TotalConcealment,
    /// The first square of a withdraw, from an enemy the mover sees.
    Withdraw,
}

impl OpportunityReason {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            OpportunityReason::LeavesThreatenedSquare => "leaves_threatened_square",
            OpportunityReason::LeavesReach => "leaves_reach",
            OpportunityReason::StandsUp => "stands_up",
            OpportunityReason::MovesThroughSpace => "moves_through_space",
            OpportunityReason::OfferedToAlly => "offered_to_ally",
            OpportunityReason::FlatFooted => "flat_footed",
            OpportunityReason::Cover => "cover",
            OpportunityReason::TotalCover => "total_cover",
            OpportunityReason::TotalConcealment => "total_concealment",
            OpportunityReason::Withdraw => "withdraw",
        }
    }
}
