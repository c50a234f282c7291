//! How a creature moves and the options of its movement: what `/v1/movement` is asked, and
//! what each step's rules ([`super::steps`]) depend on.

/// How the creature moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Its own movement.
    Walk,
    /// 5e Disengage (no opportunity attacks); PF1 family: withdraw (the first square provokes
    /// nothing from enemies the mover sees).
    Disengage,
    /// Teleportation: only the last square matters; nothing provokes.
    Teleport,
    /// Moved by something else (shoved, thrown): no cost against its speed, nothing provokes.
    Forced,
    /// A charge toward `target` (PF1, hb3d).
    Charge,
    /// Walk, then mount a creature within 5 ft (5e).
    Mount,
    /// Dismount into the first square of the path, then walk on (5e).
    Dismount,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 7] = [
        Mode::Walk,
        Mode::Disengage,
        Mode::Teleport,
        Mode::Forced,
        Mode::Charge,
        Mode::Mount,
        Mode::Dismount,
    ];

    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            Mode::Walk => "walk",
            Mode::Disengage => "disengage",
            Mode::Teleport => "teleport",
            Mode::Forced => "forced",
            Mode::Charge => "charge",
            Mode::Mount => "mount",
            Mode::Dismount => "dismount",
        }
    }

    /// Parses a wire id.
    pub fn from_id(id: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.id() == id)
    }
}

/// Options of a movement.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveOptions {
    /// A prone mover stands up first (otherwise it crawls).
    pub stand_up: bool,
    /// 5e Dash: twice the speed.
    pub dash: bool,
    /// PF1 five-foot step / SF guarded step: one 5 ft step that provokes nothing.
    pub short_step: bool,
    /// 5e: the grappled creature dragged along.
    pub dragging: Option<usize>,
    /// Charge: the target.
    pub target: Option<usize>,
    /// Mount: the creature mounted.
    pub mount: Option<usize>,
}
