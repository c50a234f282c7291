//! The French homebrew "3d6 + mod + BBA vs DEF" (RULES.md §5). What the seed does not define
//! follows PF1 (`hb3d.inherit-pf1e`).

use super::{
    AttackDice, AttackModifierCover, AttackRule, CoverRule, Critical, Defence, PF_CONDITIONS, PF_NO_THREAT,
    PF_SIZES, PathfinderCover, Prone, RangeRule, RangedInMeleeRule, ReachWeaponRule, Ruleset, VariantSpec,
};
use crate::grid::Metric;

const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        key: "pf1e.cover.partial",
        default: false,
        summary: "Partial cover (−2 ATT) when the best corner has exactly one blocked line (Q-05, inherited).",
    },
    VariantSpec {
        key: "pf1e.reach.tenFootDiagonal",
        default: false,
        summary: "10 ft reach also threatens the second diagonal square (Q-09, inherited).",
    },
    VariantSpec {
        key: "hb3d.maneuver.tie-up.literal",
        default: false,
        summary: "Tie-up escape DC read literally as CMB + 5 instead of 20 + CMB (Q-16).",
    },
    VariantSpec {
        key: "hb3d.mod.scaled",
        default: false,
        summary: "Scaled proposed modifiers for 3d6: cover −2, partial −1, improved −4, prone target ±2 (Q-21).",
    },
];

/// The ruleset.
pub static RULESET: Ruleset = Ruleset {
    id: "hb3d",
    name: "French d20 homebrew: 3d6 + mods + BBA vs DEF",
    seeds: &["003_47027a1e68a4c48c.txt"],
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
    cover: CoverRule::Pathfinder(PathfinderCover {
        degrees_rule: "hb3d.mod.cover",
        as_attack_modifier: Some(AttackModifierCover {
            nominal: (-4, -2, -8),
            scaled: (-2, -1, -4),
            scaled_variant: "hb3d.mod.scaled",
        }),
        ..super::PF1_COVER
    }),
    attack: AttackRule {
        rule: "hb3d.attack.roll",
        dice: AttackDice::ThreeD6,
        natural_miss: 3,
        natural_hit: 18,
        critical: Critical::None,
        defence: Defence::Def,
        prone: Prone::Modifiers {
            rule: "hb3d.mod.prone-target",
            melee_attack: -4,
            ac_vs_melee: -4,
            ac_vs_ranged: 4,
            ranged_only_crossbows: true,
            on_attack: true,
        },
        charge: Some((2, -2, "hb3d.charge")),
        ..super::PF1_ATTACK
    },
    variants: VARIANTS,
    operations: super::WITH_MANEUVERS,
    initiative: super::pathfinder_initiative("hb3d.inherit-pf1e", (3, 6)),
    movement: super::pathfinder_movement(
        "hb3d.inherit-pf1e",
        "hb3d.inherit-pf1e",
        "hb3d.inherit-pf1e",
        "hb3d.inherit-pf1e",
        "five_foot_step",
    ),
};
