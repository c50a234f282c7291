//! Pathfinder 1e (RULES.md §3).

use super::knobs::{AC_WORDS, CoverRule, ManeuverRule, VariantSpec};
use super::pathfinder;
use super::table::Ruleset;
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
    cover: CoverRule::Pathfinder(pathfinder::COVER),
    attack: pathfinder::ATTACK,
    variants: VARIANTS,
    flanking: pathfinder::flanking("pf1e.flanking.geometry", None),
    concealment: pathfinder::CONCEALMENT,
    maneuvers: ManeuverRule::CombatManeuver(pathfinder::COMBAT_MANEUVER),
    charge: Some(pathfinder::CHARGE),
    initiative: pathfinder::initiative("pf1e.initiative", (1, 20)),
    movement: pathfinder::movement(
        "pf1e.grid.distance-and-movement",
        "pf1e.move.through-squares",
        "pf1e.aoo",
        "pf1e.cover.aoo",
        "pf1e.prone",
        "five_foot_step",
    ),
    mounted: None,
    damage: pathfinder::DAMAGE,
    words: AC_WORDS,
};
