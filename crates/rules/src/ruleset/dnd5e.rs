//! Numbers shared by both D&D 5e editions (RULES.md §2.1).

use super::{SizeInfo, VariantSpec};
use crate::encounter::{Condition, Size};

/// `dnd5e.size.space`: size never sets reach (every creature 5 ft unless its stat block says).
pub(super) const SIZES: &[(Size, SizeInfo)] = &[
    (Size::Tiny, SizeInfo { side: 1, reach_ft: 5, shares_square: true }),
    (Size::Small, SizeInfo { side: 1, reach_ft: 5, shares_square: false }),
    (Size::Medium, SizeInfo { side: 1, reach_ft: 5, shares_square: false }),
    (Size::Large, SizeInfo { side: 2, reach_ft: 5, shares_square: false }),
    (Size::Huge, SizeInfo { side: 3, reach_ft: 5, shares_square: false }),
    (Size::Gargantuan, SizeInfo { side: 4, reach_ft: 5, shares_square: false }),
];

/// The 5e conditions (SRD 5.1 Appendix A, SRD 5.2 Rules Glossary) plus the engine's states.
pub(super) const CONDITIONS: &[Condition] = &[
    Condition::Blinded,
    Condition::Charmed,
    Condition::Dead,
    Condition::Deafened,
    Condition::Dodging,
    Condition::Exhaustion,
    Condition::Frightened,
    Condition::Grappled,
    Condition::Hidden,
    Condition::Incapacitated,
    Condition::Invisible,
    Condition::Paralyzed,
    Condition::Petrified,
    Condition::Poisoned,
    Condition::Prone,
    Condition::Restrained,
    Condition::Stunned,
    Condition::Surprised,
    Condition::Unconscious,
];

/// Conditions that include Incapacitated (SRD 5.1 Appendix A) or make a creature unable to act.
pub(crate) const INCAPACITATED: &[Condition] = &[
    Condition::Incapacitated,
    Condition::Paralyzed,
    Condition::Petrified,
    Condition::Stunned,
    Condition::Unconscious,
    Condition::Dead,
];

/// Variants of both editions.
pub(super) const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        key: "dnd5e.grid.variant-diagonals",
        default: false,
        summary: "Diagonals alternate 5 ft / 10 ft (DMG variant); reach and ranges use it too (Q-35).",
    },
    VariantSpec {
        key: "dnd5e.flanking.optional",
        default: false,
        summary: "Optional flanking: advantage on melee attacks against a flanked enemy.",
    },
    VariantSpec {
        key: "dnd5e.cover.grid",
        default: true,
        summary: "Grid cover procedure: count blocked corner lines (DMG).",
    },
    VariantSpec {
        key: "dnd5e.cover.half-cap",
        default: true,
        summary: "Creatures and low obstacles alone give at most half cover (Q-06).",
    },
];

/// Operations both editions answer.
pub(super) const OPERATIONS: &[&str] = super::WITH_MANEUVERS;
