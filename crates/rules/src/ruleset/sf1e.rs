//! Starfinder 1e (RULES.md §4).

use super::{
    AttackRule, CoverRule, Critical, Defence, PF_NO_THREAT, PF_SIZES, PathfinderCover, Prone, RangeRule,
    RangedInMeleeRule, ReachWeaponRule, Ruleset, VariantSpec,
};
use crate::encounter::Condition;
use crate::grid::Metric;

/// SF conditions: PF1's set plus off-kilter (zero-g prone, SF CRB p. 276).
const CONDITIONS: &[Condition] = &[
    Condition::Blinded,
    Condition::Confused,
    Condition::Cowering,
    Condition::Dazed,
    Condition::Dead,
    Condition::Deafened,
    Condition::Dying,
    Condition::Entangled,
    Condition::Exhausted,
    Condition::Fatigued,
    Condition::FlatFooted,
    Condition::Frightened,
    Condition::Grappled,
    Condition::Helpless,
    Condition::Hidden,
    Condition::Invisible,
    Condition::OffKilter,
    Condition::Paralyzed,
    Condition::Petrified,
    Condition::Pinned,
    Condition::Prone,
    Condition::Shaken,
    Condition::Squeezing,
    Condition::Stunned,
    Condition::Surprised,
    Condition::Unconscious,
];

const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        key: "sf1e.cover.corridorExemption",
        default: false,
        summary: "Lines running along corridor walls do not give cover (Q-02).",
    },
    VariantSpec {
        key: "sf1e.cover.partial",
        default: false,
        summary: "Partial cover (+2 AC, +1 Reflex) when the best corner has exactly one blocked line (Q-05).",
    },
];

/// The ruleset.
pub static RULESET: Ruleset = Ruleset {
    id: "sf1e",
    name: "Starfinder 1st edition",
    seeds: &["000_4379456601dbe5d4.txt"],
    size_rule: "pf1e.size.table",
    sizes: PF_SIZES,
    metric: Metric::Alternating,
    diagonal_variant: None,
    default_speed_ft: 30,
    conditions: CONDITIONS,
    no_threat_conditions: PF_NO_THREAT,
    range: RangeRule::Increment {
        rule: "sf1e.range.increment",
        per_increment: -2,
        max_projectile: 10,
        max_thrown: 5,
    },
    reach_weapon: ReachWeaponRule::DoubleWithAdjacent,
    reach_rule: "sf1e.grid.movement-and-reach",
    ten_foot_diagonal: true,
    unarmed_threatens_nothing: false,
    ranged_in_melee: RangedInMeleeRule::None,
    grazing_terrain: true,
    cover: CoverRule::Pathfinder(PathfinderCover {
        corner_lines_rule: "sf1e.cover.corner-lines",
        degrees_rule: "sf1e.cover.variants",
        adjacent_melee_test: false,
        cover: (4, 2),
        partial: (2, 1),
        improved: (8, 4),
        improved_evasion: false,
        improved_stealth: 0,
        partial_variant: "sf1e.cover.partial",
        as_attack_modifier: None,
    }),
    attack: AttackRule {
        rule: "sf1e.attack.natural-rolls",
        critical: Critical::Natural20IfTotalHits,
        defence: Defence::EacKac,
        prone: Prone::Modifiers {
            rule: "sf1e.prone",
            melee_attack: -4,
            ac_vs_melee: -4,
            ac_vs_ranged: 4,
            ranged_only_crossbows: false,
            on_attack: false,
        },
        charge: None,
        ..super::PF1_ATTACK
    },
    variants: VARIANTS,
    operations: super::COMMON_OPERATIONS,
    initiative: super::pathfinder_initiative("sf1e.initiative", (1, 20)),
    movement: super::pathfinder_movement(
        "sf1e.grid.movement-and-reach",
        "sf1e.grid.movement-and-reach",
        "pf1e.aoo",
        "sf1e.prone",
        "guarded_step",
    ),
};
