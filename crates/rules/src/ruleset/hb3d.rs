//! The French homebrew "3d6 + mod + BBA vs DEF" (RULES.md §5). What the seed does not define
//! follows PF1 (`hb3d.inherit-pf1e`).

use super::knobs::{
    AttackDice, AttackModifierCover, AttackRule, ChargeRule, CheckDice, CombatManeuver, ConcealmentBy,
    ConcealmentRule, CoverRule, Critical, DamageRule, Defence, DisarmAction, DisarmModifiers, EscapeDc,
    ManeuverDefence, ManeuverRule, ManeuverRules, MissChance, PathTest, PathfinderCover, Prone,
    UnarmedDamage, VariantSpec, Words,
};
use super::pathfinder;
use super::table::Ruleset;
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
    sizes: pathfinder::SIZES,
    metric: Metric::Alternating,
    diagonal_variant: None,
    default_speed_ft: 30,
    conditions: pathfinder::CONDITIONS,
    no_threat_conditions: pathfinder::NO_THREAT,
    range: pathfinder::range("pf1e.range.increment"),
    reach_weapon: pathfinder::REACH_WEAPON,
    reach_rule: "pf1e.reach.threatened",
    ten_foot_diagonal_variant: Some("pf1e.reach.tenFootDiagonal"),
    ten_foot_diagonal: false,
    unarmed_threatens_nothing: true,
    ranged_in_melee: pathfinder::RANGED_INTO_MELEE,
    grazing_terrain: false,
    cover: CoverRule::Pathfinder(PathfinderCover {
        degrees_rule: "hb3d.mod.cover",
        as_attack_modifier: Some(AttackModifierCover {
            nominal: (-4, -2, -8),
            scaled: (-2, -1, -4),
            scaled_variant: "hb3d.mod.scaled",
        }),
        ..pathfinder::COVER
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
            scaled_variant: Some("hb3d.mod.scaled"),
        },
        ..pathfinder::ATTACK
    },
    variants: VARIANTS,
    flanking: pathfinder::flanking("pf1e.flanking.geometry", Some("hb3d.inherit-pf1e")),
    concealment: ConcealmentRule {
        by: ConcealmentBy::MissChance(MissChance {
            miss_chance: "hb3d.mod.concealment",
            ..pathfinder::MISS_CHANCE
        }),
        ..pathfinder::CONCEALMENT
    },
    maneuvers: ManeuverRule::CombatManeuver(CombatManeuver {
        base_rule: "hb3d.inherit-pf1e",
        rules: ManeuverRules {
            bull_rush: "hb3d.maneuver.bull-rush",
            trip: "hb3d.maneuver.trip",
            disarm: "hb3d.maneuver.disarm",
            overrun: "hb3d.maneuver.overrun",
            grapple: "hb3d.maneuver.grapple",
            pin: "hb3d.maneuver.pin",
            escape: "hb3d.maneuver.grapple-escape",
            tie_up: "hb3d.maneuver.tie-up",
        },
        dice: CheckDice::ThreeD6,
        defence: ManeuverDefence::Def,
        escape_dc: EscapeDc::CmbPlus { escape_artist: 10, otherwise: 15 },
        improved_bonus: 3,
        grappled_attacker: None,
        disarm: DisarmModifiers::Either(-3),
        disarm_action: DisarmAction::FullRoundUnlessImproved,
        tie_up_literal_variant: Some("hb3d.maneuver.tie-up.literal"),
        secondary_bull_rush: false,
        concealment_rule: "hb3d.mod.concealment",
    }),
    charge: Some(ChargeRule {
        rule: "hb3d.charge",
        attack_bonus: 2,
        ac_penalty: -2,
        path: PathTest::CentreLine,
    }),
    initiative: pathfinder::initiative("hb3d.inherit-pf1e", (3, 6)),
    movement: pathfinder::movement(
        "hb3d.inherit-pf1e",
        "hb3d.inherit-pf1e",
        "hb3d.inherit-pf1e",
        "hb3d.mod.cover",
        "hb3d.inherit-pf1e",
        "five_foot_step",
    ),
    mounted: None,
    // Seed 003 « Agripper » (Dégâts): a grapple deals « vos dégâts à mains nues » only; their
    // dice are PF1's unarmed strike (`hb3d.inherit-pf1e`), cited as the homebrew's own rule.
    damage: DamageRule {
        grapple_unarmed_only: true,
        unarmed: UnarmedDamage { rule: "hb3d.damage.unarmed", ..pathfinder::DAMAGE.unarmed },
        ..pathfinder::DAMAGE
    },
    words: Words { defence: ["DEF", "DEF"], improved_cover_fr: "abri supérieur" },
};
