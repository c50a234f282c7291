//! Conditions, shared by the encounter and the ruleset tables (which say which ones each
//! ruleset knows).

/// A condition affecting a creature. Which ones a ruleset knows is in its module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Condition {
    /// Blinded.
    Blinded,
    /// Charged this turn (PF1, hb3d: −2 AC / DEF until the start of its next turn,
    /// `pf1e.charge`, `hb3d.charge`); the VTT sets it when `/v1/maneuvers` says so.
    Charged,
    /// Charmed (5e).
    Charmed,
    /// Confused (PF1/SF).
    Confused,
    /// Cowering (PF1).
    Cowering,
    /// Dazed (PF1/SF).
    Dazed,
    /// Dead.
    Dead,
    /// Deafened.
    Deafened,
    /// Dodging (5e Dodge action).
    Dodging,
    /// Dying (PF1/SF).
    Dying,
    /// Entangled (PF1/SF).
    Entangled,
    /// Exhaustion (5e).
    Exhaustion,
    /// Exhausted (PF1/SF).
    Exhausted,
    /// Fatigued (PF1/SF).
    Fatigued,
    /// Flat-footed (PF1/SF).
    FlatFooted,
    /// Frightened.
    Frightened,
    /// Grappled.
    Grappled,
    /// Helpless (PF1/SF).
    Helpless,
    /// Hidden (not seen, location unknown).
    Hidden,
    /// Incapacitated (5e).
    Incapacitated,
    /// Invisible.
    Invisible,
    /// Off-kilter (SF zero-g prone).
    OffKilter,
    /// Paralyzed.
    Paralyzed,
    /// Petrified.
    Petrified,
    /// Pinned (PF1/SF/hb3d).
    Pinned,
    /// Poisoned (5e).
    Poisoned,
    /// Prone.
    Prone,
    /// Restrained (5e).
    Restrained,
    /// Shaken (PF1/SF).
    Shaken,
    /// Squeezing (PF1/SF).
    Squeezing,
    /// Stunned.
    Stunned,
    /// Surprised.
    Surprised,
    /// Tied up (PF1/hb3d).
    TiedUp,
    /// Unconscious.
    Unconscious,
}

impl Condition {
    /// Every condition the engine knows in any ruleset.
    pub const ALL: [Condition; 34] = [
        Condition::Blinded,
        Condition::Charged,
        Condition::Charmed,
        Condition::Confused,
        Condition::Cowering,
        Condition::Dazed,
        Condition::Dead,
        Condition::Deafened,
        Condition::Dodging,
        Condition::Dying,
        Condition::Entangled,
        Condition::Exhaustion,
        Condition::Exhausted,
        Condition::Fatigued,
        Condition::FlatFooted,
        Condition::Frightened,
        Condition::Grappled,
        Condition::Helpless,
        Condition::Hidden,
        Condition::Incapacitated,
        Condition::Invisible,
        Condition::OffKilter,
        Condition::Paralyzed,
        Condition::Petrified,
        Condition::Pinned,
        Condition::Poisoned,
        Condition::Prone,
        Condition::Restrained,
        Condition::Shaken,
        Condition::Squeezing,
        Condition::Stunned,
        Condition::Surprised,
        Condition::TiedUp,
        Condition::Unconscious,
    ];

    /// The wire id (`"flat_footed"`).
    pub fn id(self) -> &'static str {
        match self {
            Condition::Blinded => "blinded",
            Condition::Charged => "charged",
            Condition::Charmed => "charmed",
            Condition::Confused => "confused",
            Condition::Cowering => "cowering",
            Condition::Dazed => "dazed",
            Condition::Dead => "dead",
            Condition::Deafened => "deafened",
            Condition::Dodging => "dodging",
            Condition::Dying => "dying",
            Condition::Entangled => "entangled",
            Condition::Exhaustion => "exhaustion",
            Condition::Exhausted => "exhausted",
            Condition::Fatigued => "fatigued",
            Condition::FlatFooted => "flat_footed",
            Condition::Frightened => "frightened",
            Condition::Grappled => "grappled",
            Condition::Helpless => "helpless",
            Condition::Hidden => "hidden",
            Condition::Incapacitated => "incapacitated",
            Condition::Invisible => "invisible",
            Condition::OffKilter => "off_kilter",
            Condition::Paralyzed => "paralyzed",
            Condition::Petrified => "petrified",
            Condition::Pinned => "pinned",
            Condition::Poisoned => "poisoned",
            Condition::Prone => "prone",
            Condition::Restrained => "restrained",
            Condition::Shaken => "shaken",
            Condition::Squeezing => "squeezing",
            Condition::Stunned => "stunned",
            Condition::Surprised => "surprised",
            Condition::TiedUp => "tied_up",
            Condition::Unconscious => "unconscious",
        }
    }

    /// Parses a wire id.
    pub fn from_id(id: &str) -> Option<Condition> {
        Condition::ALL.into_iter().find(|c| c.id() == id)
    }
}
