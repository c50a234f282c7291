//! Trace effects of combat maneuvers and charges (`POST /v1/maneuvers`), and the modifier,
//! push, charge step and secondary rush values they carry (the answers are made of the same
//! values).

use super::movement::MoveOpportunity;
use crate::dice::Ratio;
use crate::encounter::Condition;
use crate::grid::Square;
use crate::ruleset::PathTest;

/// Trace effects of the maneuver rules.
#[derive(Debug, Clone, PartialEq)]
pub enum ManeuverEffect {
    /// The maneuver cannot be attempted.
    Illegal {
        /// Kind.
        kind: Kind,
        /// Why.
        why: Illegal,
    },
    /// A modifier.
    Modifier(Modifier),
    /// The numbers compared.
    Numbers {
        /// How.
        check: CheckKind,
        /// Check bonus.
        bonus: i32,
        /// DC / CMD / DEF.
        dc: Option<i32>,
        /// Contest: the other side's bonus.
        opposed_bonus: Option<i32>,
    },
    /// Automatic success against a helpless target.
    Automatic {
        /// The condition.
        condition: Condition,
    },
    /// The roll.
    Rolled {
        /// Natural.
        natural: i64,
        /// Total.
        total: i64,
        /// Contest: the other side's total.
        opposed_total: Option<i64>,
        /// Margin.
        margin: i64,
        /// Success.
        success: bool,
    },
    /// A tie in a 5e 2014 contest.
    Tie,
    /// The odds.
    Odds {
        /// Probability of success.
        success: Ratio,
    },
    /// The outcome band.
    Outcome {
        /// Band id.
        band: String,
    },
    /// A push.
    Pushed(Push),
    /// An attack of opportunity.
    Opportunity(Opportunity),
    /// The target let the attacker through.
    TargetAvoids,
    /// PF1/hb3d grapple of a non-adjacent target: pulled to a free adjacent square, or no
    /// such square (the grapple fails).
    PullAdjacent {
        /// The target's square now.
        from: Square,
        /// The free adjacent square, if any.
        to: Option<Square>,
    },
    /// Disarm unarmed (or, in hb3d, with a whip): on a success the attacker may pick the
    /// dropped item up (free action).
    PickUp {
        /// With a whip (hb3d), otherwise unarmed.
        whip: bool,
    },
    /// A grapple's follow-up move (PF1, hb3d), judged.
    FollowUpMove(MoveFollowUp),
    /// Tie-up escape DC.
    EscapeDc {
        /// DC.
        dc: i32,
    },
    /// A charge step.
    Charge(ChargeStep),
    /// The target's concealment miss chance applies to the maneuver.
    Concealment {
        /// Percent.
        miss_chance: u32,
    },
    /// The d100 against the miss chance.
    MissRoll {
        /// The roll.
        roll: i64,
        /// Whether the maneuver missed.
        missed: bool,
    },
    /// A secondary bull rush against a creature in the way.
    Secondary(SecondaryRush),
    /// The acting creature's movement.
    AttackerMoves(AttackerMove),
    /// The three d6 of an hb3d check, whose sum the roll step shows.
    CheckDice {
        /// The faces, in the order rolled.
        faces: Vec<u32>,
        /// Their sum.
        natural: i64,
    },
    /// The other side's roll of a contest (5e 2014).
    OpposedRoll {
        /// The natural d20.
        natural: i64,
        /// Plus its bonus.
        total: i64,
    },
}

/// The maneuvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Grapple.
    Grapple,
    /// 5e shove.
    Shove,
    /// PF1 / hb3d bull rush.
    BullRush,
    /// Trip.
    Trip,
    /// Disarm.
    Disarm,
    /// Overrun.
    Overrun,
    /// Escape a grapple (the attacker is the grappled creature, the target its grappler).
    Escape,
    /// Pin a creature one grapples.
    Pin,
    /// Tie up a pinned, grappled or helpless creature.
    TieUp,
    /// PF1 / hb3d charge (`pf1e.charge`, `hb3d.charge`), optionally ending with a bull rush or
    /// an overrun.
    Charge,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 10] = [
        Kind::Grapple,
        Kind::Shove,
        Kind::BullRush,
        Kind::Trip,
        Kind::Disarm,
        Kind::Overrun,
        Kind::Escape,
        Kind::Pin,
        Kind::TieUp,
        Kind::Charge,
    ];

    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Grapple => "grapple",
            Kind::Shove => "shove",
            Kind::BullRush => "bull_rush",
            Kind::Trip => "trip",
            Kind::Disarm => "disarm",
            Kind::Overrun => "overrun",
            Kind::Escape => "escape",
            Kind::Pin => "pin",
            Kind::TieUp => "tie_up",
            Kind::Charge => "charge",
        }
    }

    /// Parses a wire id.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.id() == id)
    }
}

/// Why a maneuver cannot be attempted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The target is more than one size larger.
    Size,
    /// The target is out of reach (5e 2024: farther than 5 ft).
    Reach,
    /// No free hand (5e grapple).
    Hands,
    /// The target has no legs (trip).
    Legs,
    /// The target flies (trip).
    Flying,
    /// Escape without being grappled; pin or tie up a target nobody grapples.
    NotGrappled,
}

impl Illegal {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            Illegal::Size => "size",
            Illegal::Reach => "reach",
            Illegal::Hands => "hands",
            Illegal::Legs => "legs",
            Illegal::Flying => "flying",
            Illegal::NotGrappled => "not_grappled",
        }
    }
}

/// How the maneuver is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckKind {
    /// 5e 2014: d20 + bonus vs the other side's d20 + bonus, ties fail.
    Contest,
    /// 5e 2024: the target saves against a DC; success when it fails.
    Save,
    /// PF1: d20 + CMB vs CMD (natural 20 / 1); also 5e 2024 escape (check vs DC).
    D20VsDc,
    /// hb3d: 3d6 + CMB vs DEF or DC (natural 18 / 3).
    ThreeD6VsDc,
    /// No roll: the target let the attacker through.
    None,
}

impl CheckKind {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            CheckKind::Contest => "contest",
            CheckKind::Save => "save",
            CheckKind::D20VsDc => "d20_vs_dc",
            CheckKind::ThreeD6VsDc => "3d6_vs_dc",
            CheckKind::None => "none",
        }
    }
}

/// Which side a modifier applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The acting creature's check.
    Check,
    /// The target's CMD / DEF / DC / save / contest.
    Defence,
}

/// One modifier with its rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modifier {
    /// Rule id.
    pub rule: &'static str,
    /// What it is (`stunned target`, `legs beyond two`…).
    pub detail: String,
    /// Signed value.
    pub value: i32,
    /// Check or defence.
    pub side: Side,
}

/// Who may make an attack of opportunity and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opportunity {
    /// Creature id.
    pub creature: String,
    /// Whether it gets the attack.
    pub provoked: bool,
    /// `provokes`, `improved`, `cover`, `does_not_threaten`, `flat_footed`, `grappled`,
    /// `no_check`.
    pub reason: &'static str,
    /// Rule id.
    pub rule: &'static str,
}

/// Why a push stopped early.
///
/// Not [`StepIssue`](crate::movement::StepIssue), although both come from the same square, wall and
/// corner tests (the crate's `obstruction` module): a push is forced, so it can reach the grid edge
/// and can have no direction away from the pusher, it never runs out of movement, and any creature
/// in the way stops it, named by its index because the walk may go on with it (the push walk
/// returns it; PF1's secondary bull rush then joins it). The push is shorter, not illegal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushStop {
    /// The next square is off the grid.
    Edge {
        /// The square that would have been entered.
        square: Square,
    },
    /// The next square is solid.
    Solid {
        /// The solid square.
        square: Square,
    },
    /// A thin wall that blocks movement lies between the squares.
    Wall {
        /// The square that would have been entered.
        square: Square,
    },
    /// A diagonal step would cut the corner of a solid square or a wall end.
    Corner {
        /// The square that would have been entered.
        square: Square,
    },
    /// Another creature stands on the next square.
    Creature {
        /// The occupied square.
        square: Square,
        /// Its id.
        creature: String,
        /// Its index in the encounter.
        index: usize,
    },
    /// The spaces overlap: there is no "away" direction.
    NoDirection,
}

impl PushStop {
    /// The wire id.
    pub fn id(&self) -> &'static str {
        match self {
            PushStop::Edge { .. } => "grid_edge",
            PushStop::Solid { .. } => "solid",
            PushStop::Wall { .. } => "wall",
            PushStop::Corner { .. } => "corner",
            PushStop::Creature { .. } => "creature",
            PushStop::NoDirection => "no_direction",
        }
    }

    /// The square that could not be entered.
    pub fn square(&self) -> Option<Square> {
        match self {
            PushStop::Edge { square }
            | PushStop::Solid { square }
            | PushStop::Wall { square }
            | PushStop::Corner { square }
            | PushStop::Creature { square, .. } => Some(*square),
            PushStop::NoDirection => None,
        }
    }
}

/// A push, as resolved on the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Push {
    /// (sx, sy).
    pub direction: (i32, i32),
    /// Feet the rule pushes.
    pub wanted_ft: u32,
    /// Feet actually moved.
    pub moved_ft: u32,
    /// The target's anchor square before the push.
    pub from: Square,
    /// The anchor square after each step.
    pub path: Vec<Square>,
    /// The anchor square at the end.
    pub to: Square,
    /// Why it stopped early.
    pub stopped: Option<PushStop>,
}

/// How the acting creature moves after a bull rush or an overrun.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackerMoveKind {
    /// Bull rush success: it may follow the pushed creature, if it has movement left.
    Follow,
    /// Overrun success: it moves through the target's space to the first space beyond.
    Through,
    /// Bull rush or overrun failure: its movement ends in the space in front of the target.
    Front,
}

impl AttackerMoveKind {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            AttackerMoveKind::Follow => "follow",
            AttackerMoveKind::Through => "through",
            AttackerMoveKind::Front => "front",
        }
    }
}

/// The acting creature's movement after a bull rush or an overrun.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackerMove {
    /// Why it moves.
    pub kind: AttackerMoveKind,
    /// The movement, square by square (`wanted_ft` is the distance the rule asks for).
    pub walk: Push,
}

/// Why a charge is not possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeIllegal {
    /// No square on the grid from which the charger could attack the target.
    NoSquare,
    /// The closest square is less than 10 ft away.
    TooShort,
    /// The closest square is more than double speed away.
    TooLong,
    /// No line of sight to the target at the start.
    NoLineOfSight,
    /// The given path does not end on a closest square.
    NotClosest,
    /// Another creature stands on the end square.
    EndOccupied,
    /// The end square is solid.
    EndBlocked,
    /// A solid square, a wall that blocks movement, or a corner the line cuts.
    PathBlocked,
    /// Difficult terrain, deep water or a low obstacle on the path or the end square.
    DifficultTerrain,
    /// A creature (even an ally; helpless ones excepted) on the path.
    PathCreature,
}

impl ChargeIllegal {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            ChargeIllegal::NoSquare => "no_attack_square",
            ChargeIllegal::TooShort => "too_short",
            ChargeIllegal::TooLong => "too_long",
            ChargeIllegal::NoLineOfSight => "no_line_of_sight",
            ChargeIllegal::NotClosest => "not_closest",
            ChargeIllegal::EndOccupied => "end_occupied",
            ChargeIllegal::EndBlocked => "end_blocked",
            ChargeIllegal::PathBlocked => "path_blocked",
            ChargeIllegal::DifficultTerrain => "difficult_terrain",
            ChargeIllegal::PathCreature => "path_creature",
        }
    }
}

/// What stops one end square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obstacle {
    /// Why.
    pub why: ChargeIllegal,
    /// The square at fault (none for length or sight).
    pub square: Option<Square>,
    /// The creature there.
    pub creature: Option<String>,
}

/// One end square tested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndTest {
    /// The end anchor square.
    pub end: Square,
    /// Movement, feet.
    pub movement_ft: u32,
    /// The squares the path test covers (start and end spaces excluded), row order.
    pub squares: Vec<Square>,
    /// What stops it.
    pub obstacle: Option<Obstacle>,
}

/// Trace steps of a charge.
#[derive(Debug, Clone, PartialEq)]
pub enum ChargeStep {
    /// The closest squares from which the charger can attack.
    Closest {
        /// Row order.
        squares: Vec<Square>,
        /// Their movement, feet.
        feet: u32,
    },
    /// Line of sight at the start.
    Sight {
        /// Whether there is one.
        clear: bool,
    },
    /// One end square tested.
    Tested {
        /// The path test.
        test: PathTest,
        /// The test.
        end: EndTest,
    },
    /// The charge is not possible.
    Illegal(Obstacle),
    /// An enemy's attack of opportunity against the charger's movement.
    Provokes(MoveOpportunity),
    /// The charge: end square, movement and modifiers.
    Legal {
        /// End square.
        end: Square,
        /// Movement, feet.
        movement_ft: u32,
        /// +2 attack.
        attack_bonus: i32,
        /// −2 AC / DEF.
        ac_penalty: i32,
        /// The other legal choices.
        alternatives: Vec<Square>,
    },
}

/// One secondary bull rush.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecondaryRush {
    /// The creature in the way.
    pub creature: String,
    /// The square where the pushed creatures met it.
    pub square: Square,
    /// Why it could not be bull rushed (more than one size larger than the attacker).
    pub illegal: Option<Illegal>,
    /// Check bonus, penalty included.
    pub bonus: i32,
    /// Its CMD, modifiers included.
    pub cmd: i32,
    /// The modifiers of this check (the penalty first).
    pub modifiers: Vec<Modifier>,
    /// Automatic success (an immobilized or unconscious creature).
    pub automatic: bool,
    /// Natural d20.
    pub natural: Option<i64>,
    /// Total.
    pub total: Option<i64>,
    /// Total − CMD.
    pub margin: Option<i64>,
    /// Whether it succeeded.
    pub success: Option<bool>,
    /// The distance this check earns on its own, feet.
    pub earned_ft: Option<u32>,
    /// Probability of success of this check.
    pub odds: Ratio,
    /// The creature's own movement after it joined the push.
    pub moved: Option<Push>,
}

/// The follow-up judged.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveFollowUp {
    /// The grapple rule that allows it.
    pub rule: &'static str,
    /// Whether it can be made (on a success).
    pub legal: bool,
    /// Why not: a step issue id (`solid`, `wall`, `corner`, `creature`), `too_far`,
    /// `end_occupied`, `place_not_adjacent`, `place_off_grid`, `place_blocked`,
    /// `place_occupied`, `grapple_illegal`.
    pub reason: Option<&'static str>,
    /// The grappler's anchor step by step, start first.
    pub path: Vec<Square>,
    /// Feet the path costs.
    pub cost_ft: u32,
    /// Half the grappler's speed, feet.
    pub max_ft: u32,
    /// The target's final anchor.
    pub place: Square,
    /// The attacks of opportunity the grappler's movement provokes (legal moves only).
    pub opportunities: Vec<MoveOpportunity>,
    /// Probability that it happens: the grapple's success when legal, else 0.
    pub applies: Ratio,
    /// Rolled: whether it happened.
    pub applied: Option<bool>,
}
