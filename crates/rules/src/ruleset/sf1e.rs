//! Starfinder 1e (RULES.md §4).

use super::knobs::{
    AttackConditions, AttackRule, ConcealmentBy, ConcealmentRule, CoverRule, Critical, Defence, LowLight,
    ManeuverRule, MissChance, PathfinderCover, Prone, RangedInMeleeRule, ReachWeaponRule, VariantSpec, Words,
};
use super::pathfinder;
use super::table::Ruleset;
use crate::condition::Condition;
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
    sizes: pathfinder::SIZES,
    metric: Metric::Alternating,
    diagonal_variant: None,
    default_speed_ft: 30,
    conditions: CONDITIONS,
    no_threat_conditions: pathfinder::NO_THREAT,
    range: pathfinder::range("sf1e.range.increment"),
    reach_weapon: ReachWeaponRule::DoubleWithAdjacent,
    reach_rule: "sf1e.grid.movement-and-reach",
    ten_foot_diagonal_variant: None,
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
        low_obstacles_rule: "sf1e.cover.variants",
        soft_rule: "sf1e.cover.variants",
        opportunity_rule: "sf1e.cover.variants",
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
            scaled_variant: None,
        },
        conditions: AttackConditions::Modifiers { flat_footed_ac: Some(-2) },
        ..pathfinder::ATTACK
    },
    variants: VARIANTS,
    flanking: pathfinder::flanking("sf1e.flanking", None),
    concealment: ConcealmentRule {
        light: "sf1e.vision.light",
        by: ConcealmentBy::MissChance(MissChance {
            determine: "sf1e.concealment",
            miss_chance: "sf1e.concealment",
            low_light: LowLight::DimIsNormal,
            grazing: true,
        }),
    },
    maneuvers: ManeuverRule::None {
        why: "combat maneuvers (Starfinder maneuvers are outside RULES.md, Q-32)",
    },
    charge: None,
    initiative: pathfinder::initiative("sf1e.initiative", (1, 20)),
    movement: pathfinder::movement(
        "sf1e.grid.movement-and-reach",
        "sf1e.grid.movement-and-reach",
        "pf1e.aoo",
        "pf1e.cover.aoo",
        "sf1e.prone",
        "guarded_step",
    ),
    mounted: None,
    damage: pathfinder::SF_DAMAGE,
    words: Words { defence: ["AC", "CA"], improved_cover_fr: "abri amélioré" },
};
