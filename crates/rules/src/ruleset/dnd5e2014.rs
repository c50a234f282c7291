//! D&D 5e, 2014 rules (RULES.md §2.1 and §2.2).

use super::dnd5e;
use super::knobs::{
    AC_WORDS, CoverRule, Drag, FiveEManeuvers, InitiativeRule, InitiativeTie, ManeuverRule, MountProne,
    MountedRule, MoveCosts, MoveRule, OffHand, OpportunityRule, RangeRule, RangedInMeleeRule,
    ReachWeaponRule, Surprise, ThroughRule, Underwater, UnderwaterExempt,
};
use super::table::Ruleset;
use crate::grid::Metric;

/// The ruleset.
pub static RULESET: Ruleset = Ruleset {
    id: "dnd5e2014",
    name: "D&D 5th edition, 2014 rules (SRD 5.1)",
    seeds: &["004_35ddfdfabaa00718.txt"],
    size_rule: "dnd5e.size.space",
    sizes: dnd5e::SIZES,
    metric: Metric::Chebyshev,
    diagonal_variant: Some("dnd5e.grid.variant-diagonals"),
    default_speed_ft: 30,
    conditions: dnd5e::CONDITIONS,
    no_threat_conditions: dnd5e::INCAPACITATED,
    range: RangeRule::NormalLong { rule: "dnd5e.range.normal-long" },
    reach_weapon: ReachWeaponRule::AddFive,
    reach_rule: "dnd5e.reach",
    ten_foot_diagonal_variant: None,
    ten_foot_diagonal: false,
    unarmed_threatens_nothing: false,
    ranged_in_melee: RangedInMeleeRule::CloseCombatDisadvantage { rule: "dnd5e2014.ranged.close-combat" },
    grazing_terrain: false,
    cover: CoverRule::Dnd5e { half: 2, three_quarters: 5 },
    attack: dnd5e::attack(
        Underwater { rule: "dnd5e2014.underwater", exempt: UnderwaterExempt::NamedWeapons },
        OffHand { rule: "dnd5e2014.two-weapon-fighting", melee_only: true },
    ),
    variants: dnd5e::VARIANTS,
    flanking: dnd5e::FLANKING,
    concealment: dnd5e::CONCEALMENT,
    maneuvers: ManeuverRule::Contest(FiveEManeuvers {
        grapple: "dnd5e2014.grapple.check",
        shove: "dnd5e2014.shove",
        escape: "dnd5e2014.grapple.escape",
        size_limit: "dnd5e2014.grapple.size-limit",
        base: "dnd5e2014.contest.tie",
    }),
    charge: None,
    initiative: InitiativeRule {
        rule: "dnd5e2014.initiative",
        dice: (1, 20),
        tie: InitiativeTie::DexThenRollOff,
        surprise: Surprise::LosesFirstTurn,
        groups: true,
        conditions_change_roll: false,
    },
    movement: MoveRule {
        costs: MoveCosts::Dnd5e,
        grid_rule: "dnd5e.grid.squares",
        difficult_rule: "dnd5e.terrain.difficult",
        through: ThroughRule::Dnd5e2014,
        through_rule: "dnd5e2014.move.through-creatures",
        opportunity: OpportunityRule::LeavesReach { trigger: "dnd5e2014.oa.trigger", allies_offered: false },
        prone_rule: "dnd5e2014.prone.movement",
        mounted_rule: Some("dnd5e2014.mounted"),
        drag: Drag::HalfSpeed("dnd5e2014.grapple.move"),
        short_step: None,
    },
    mounted: Some(MountedRule {
        rule: "dnd5e2014.mounted",
        fall_dc: 10,
        mount_prone: MountProne::ReactionOrFall,
    }),
    damage: dnd5e::damage("dnd5e2014.unarmed-strike"),
    words: AC_WORDS,
};
