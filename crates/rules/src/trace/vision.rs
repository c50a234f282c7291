//! Trace effects of the light, sight and concealment rules (`POST /v1/concealment`).

use crate::encounter::Light;

/// What the vision rules found (trace effects).
#[derive(Debug, Clone, PartialEq)]
pub enum VisionEffect {
    /// The light a creature stands in, for an observer.
    LightAt {
        /// The creature.
        creature: String,
        /// Its level.
        level: Light,
        /// The light source (index in `grid.lights`) that gave it, if one did.
        source: Option<usize>,
        /// Light radii were doubled for this observer (PF1 low-light vision).
        doubled: bool,
    },
    /// A cause of concealment.
    Cause {
        /// Which.
        cause: Cause,
        /// The degree it gives.
        degree: ConcealmentDegree,
    },
    /// A sense that overrode a cause.
    Override {
        /// The sense.
        sense: Sense,
        /// The cause it overrode.
        cause: Cause,
    },
    /// Whether one creature sees another (5e).
    Sees {
        /// Observer id.
        observer: String,
        /// Subject id.
        subject: String,
        /// Whether it sees.
        sees: bool,
    },
    /// The resulting concealment.
    Result {
        /// Degree.
        degree: ConcealmentDegree,
        /// Miss chance, percent.
        miss_chance: u32,
    },
    /// One creature cannot see another, and why (5e): the cause names who it is about, which
    /// [`VisionEffect::Cause`] (always about the target) cannot when the target looks back.
    Unseen {
        /// Observer id.
        observer: String,
        /// Subject id.
        subject: String,
        /// Why the observer cannot see it.
        cause: Cause,
    },
    /// One creature's sense lets it see another despite a cause (5e): the observer named, as
    /// both creatures of a question look at each other.
    SenseFor {
        /// Observer id.
        observer: String,
        /// Subject id.
        subject: String,
        /// The sense.
        sense: Sense,
        /// The cause it overrides (blindsight: any).
        cause: Cause,
    },
}

/// Degrees of concealment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ConcealmentDegree {
    /// None.
    None,
    /// Concealment (20 %).
    Concealment,
    /// Total concealment (50 %; cannot be targeted directly).
    Total,
}

impl ConcealmentDegree {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            ConcealmentDegree::None => "none",
            ConcealmentDegree::Concealment => "concealment",
            ConcealmentDegree::Total => "total",
        }
    }
}

/// Why a target is concealed (or unseen).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    /// Lines pass through concealing squares (fog, foliage).
    ConcealingSquares,
    /// The target (or the attacker) stands wholly in heavily obscuring squares.
    HeavyObscurement,
    /// The target stands in dim light.
    DimLight,
    /// The target stands in darkness.
    Darkness,
    /// The observer stands in darkness without darkvision (effectively blinded).
    ObserverInDarkness,
    /// The target is invisible.
    Invisible,
    /// The target is hidden.
    Hidden,
    /// The observer is blinded.
    Blinded,
    /// Line of effect but no line of sight.
    NoLineOfSight,
}

impl Cause {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            Cause::ConcealingSquares => "concealing_squares",
            Cause::HeavyObscurement => "heavy_obscurement",
            Cause::DimLight => "dim_light",
            Cause::Darkness => "darkness",
            Cause::ObserverInDarkness => "observer_in_darkness",
            Cause::Invisible => "invisible",
            Cause::Hidden => "hidden",
            Cause::Blinded => "blinded",
            Cause::NoLineOfSight => "no_line_of_sight",
        }
    }
}

/// A sense that can override a cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sense {
    /// Darkvision (within range).
    Darkvision,
    /// Low-light vision.
    LowLightVision,
    /// Blindsight (within range).
    Blindsight,
    /// Truesight (within range, 5e).
    Truesight,
    /// See invisibility.
    SeeInvisibility,
}

impl Sense {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            Sense::Darkvision => "darkvision",
            Sense::LowLightVision => "low_light_vision",
            Sense::Blindsight => "blindsight",
            Sense::Truesight => "truesight",
            Sense::SeeInvisibility => "see_invisibility",
        }
    }
}
