//! Pathfinder 1e (RULES.md §3).

use super::{
    CoverRule, PF_CONDITIONS, PF_NO_THREAT, PF_SIZES, RangeRule, RangedInMeleeRule, ReachWeaponRule, Ruleset,
    VariantSpec,
};
use crate::grid::Metric;

/// PF1 variants (RULES.md §7).
pub(crate) const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        key: "pf1e.cover.partial",
        default: false,
        summary: "Partial cover (+2 AC, +1 Reflex) when the best corner has exactly one blocked line (Q-05).",
    },
    VariantSpec {
        key: "pf1e.reach.tenFootDiagonal",
        default: false,
        summary: "10 ft reach also threatens the second diagonal square (Q-09).",
    },
];

/// The ruleset.
pub static RULESET: Ruleset = Ruleset {
    id: "pf1e",
    name: "Pathfinder 1st edition",
    seeds: &["001_d35902a853b0861d.txt", "003_47027a1e68a4c48c.txt"],
    size_rule: "pf1e.size.table",
    sizes: PF_SIZES,
    metric: Metric::Alternating,
    diagonal_variant: None,
    default_speed_ft: 30,
    conditions: PF_CONDITIONS,
    no_threat_conditions: PF_NO_THREAT,
    range: RangeRule::Increment {
        rule: "pf1e.range.increment",
        per_increment: -2,
        max_projectile: 10,
        max_thrown: 5,
    },
    reach_weapon: ReachWeaponRule::DoubleNotAdjacent,
    reach_rule: "pf1e.reach.threatened",
    ten_foot_diagonal: false,
    unarmed_threatens_nothing: true,
    ranged_in_melee: RangedInMeleeRule::IntoMelee {
        rule: "pf1e.ranged.into-melee",
        penalty: -4,
        two_sizes_larger: -2,
        removed_by_feat: "precise_shot",
    },
    grazing_terrain: false,
    cover: CoverRule::Pathfinder(super::PF1_COVER),
    attack: super::PF1_ATTACK,
    variants: VARIANTS,
    operations: super::WITH_MANEUVERS,
    initiative: super::pathfinder_initiative("pf1e.initiative", (1, 20)),
    movement: super::pathfinder_movement(
        "pf1e.grid.distance-and-movement",
        "pf1e.move.through-squares",
        "pf1e.aoo",
        "pf1e.prone",
        "five_foot_step",
    ),
};
