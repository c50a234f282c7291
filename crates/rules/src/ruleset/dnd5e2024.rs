//! D&D 5e, 2024 rules (RULES.md §2.1 and §2.3).

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
    id: "dnd5e2024",
    name: "D&D 5th edition, 2024 rules (SRD 5.2)",
    seeds: &["002_e80cb4ad38821855.txt"],
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
    ranged_in_melee: RangedInMeleeRule::CloseCombatDisadvantage { rule: "dnd5e2024.ranged.close-combat" },
    grazing_terrain: false,
    cover: CoverRule::Dnd5e { half: 2, three_quarters: 5 },
    attack: dnd5e::attack(
        Underwater { rule: "dnd5e2024.underwater", exempt: UnderwaterExempt::PiercingMelee },
        OffHand { rule: "dnd5e2024.light-weapon-extra-attack", melee_only: false },
    ),
    variants: dnd5e::VARIANTS,
    flanking: dnd5e::FLANKING,
    concealment: dnd5e::CONCEALMENT,
    maneuvers: ManeuverRule::Save(FiveEManeuvers {
        grapple: "dnd5e2024.grapple.save",
        shove: "dnd5e2024.shove",
        escape: "dnd5e2024.grapple.escape-and-end",
        size_limit: "dnd5e2024.grapple.size-limit",
        base: "dnd5e2024.unarmed-strike",
    }),
    charge: None,
    initiative: InitiativeRule {
        rule: "dnd5e2024.initiative",
        dice: (1, 20),
        tie: InitiativeTie::DexThenRollOff,
        surprise: Surprise::Disadvantage,
        groups: true,
        conditions_change_roll: true,
    },
    movement: MoveRule {
        costs: MoveCosts::Dnd5e,
        grid_rule: "dnd5e.grid.squares",
        difficult_rule: "dnd5e.terrain.difficult",
        through: ThroughRule::Dnd5e2024,
        through_rule: "dnd5e2024.move.through-creatures",
        opportunity: OpportunityRule::LeavesReach { trigger: "dnd5e2024.oa.trigger", allies_offered: true },
        prone_rule: "dnd5e2024.prone.movement",
        mounted_rule: Some("dnd5e2024.mounted"),
        drag: Drag::ExtraFoot("dnd5e2024.grapple.move"),
        short_step: None,
    },
    mounted: Some(MountedRule { rule: "dnd5e2024.mounted", fall_dc: 10, mount_prone: MountProne::Save }),
    damage: dnd5e::damage("dnd5e2024.unarmed-strike"),
    words: AC_WORDS,
};
