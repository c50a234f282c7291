//! What PF1, SF and hb3d share (RULES.md §3, §4, §5): SF and hb3d start from PF1's numbers
//! and change what their seeds change.

use super::knobs::{
    AttackConditions, AttackDice, AttackRule, ChargeRule, CheckDice, CombatManeuver, ConcealmentBy,
    ConcealmentRule, Critical, CriticalDamage, DamageAbility, DamageRule, Defence, DisarmAction,
    DisarmModifiers, Drag, EscapeDc, FlankBenefit, FlankBy, FlankingRule, InitiativeRule, InitiativeTie,
    LowLight, ManeuverDefence, ManeuverRules, MissChance, Mitigation, MoveCosts, MoveRule, OpportunityRule,
    PathTest, PathfinderCover, Prone, RangeRule, RangedInMeleeRule, ReachWeaponRule, SizeInfo, Squeeze,
    Surprise, ThroughRule, UnarmedDamage,
};
use crate::condition::Condition;
use crate::size::Size;

/// Sizes shared by PF1, SF and hb3d (RULES.md `pf1e.size.table`, space and tall reach).
pub(super) const SIZES: &[(Size, SizeInfo)] = &[
    (Size::Fine, SizeInfo { side: 1, reach_ft: 0, shares_square: true }),
    (Size::Diminutive, SizeInfo { side: 1, reach_ft: 0, shares_square: true }),
    (Size::Tiny, SizeInfo { side: 1, reach_ft: 0, shares_square: true }),
    (Size::Small, SizeInfo { side: 1, reach_ft: 5, shares_square: false }),
    (Size::Medium, SizeInfo { side: 1, reach_ft: 5, shares_square: false }),
    (Size::Large, SizeInfo { side: 2, reach_ft: 10, shares_square: false }),
    (Size::Huge, SizeInfo { side: 3, reach_ft: 15, shares_square: false }),
    (Size::Gargantuan, SizeInfo { side: 4, reach_ft: 20, shares_square: false }),
    (Size::Colossal, SizeInfo { side: 6, reach_ft: 30, shares_square: false }),
];

/// Conditions shared by PF1, SF and hb3d.
pub(super) const CONDITIONS: &[Condition] = &[
    Condition::Blinded,
    Condition::Charged,
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
    Condition::Paralyzed,
    Condition::Petrified,
    Condition::Pinned,
    Condition::Prone,
    Condition::Shaken,
    Condition::Squeezing,
    Condition::Stunned,
    Condition::Surprised,
    Condition::TiedUp,
    Condition::Unconscious,
];

/// RULES.md Q-33: these neither threaten nor flank.
pub(super) const NO_THREAT: &[Condition] = &[
    Condition::Unconscious,
    Condition::Paralyzed,
    Condition::Stunned,
    Condition::Petrified,
    Condition::Helpless,
    Condition::Dead,
    Condition::Dying,
    Condition::Pinned,
    Condition::Dazed,
    Condition::Cowering,
    Condition::TiedUp,
];

/// Initiative in the PF1 family (`dice`: 1d20, hb3d 3d6).
pub(super) const fn initiative(rule: &'static str, dice: (u32, u32)) -> InitiativeRule {
    InitiativeRule {
        rule,
        dice,
        tie: InitiativeTie::ModifierThenRollOff,
        surprise: Surprise::SurpriseRound,
        groups: false,
        conditions_change_roll: false,
    }
}

/// Movement in the PF1 family; `rule` is cited for everything the ruleset inherits.
pub(super) const fn movement(
    grid_rule: &'static str,
    through_rule: &'static str,
    aoo_rule: &'static str,
    aoo_cover_rule: &'static str,
    prone_rule: &'static str,
    short_step: &'static str,
) -> MoveRule {
    MoveRule {
        costs: MoveCosts::Pathfinder,
        grid_rule,
        difficult_rule: grid_rule,
        through: ThroughRule::Pathfinder,
        through_rule,
        opportunity: OpportunityRule::LeavesThreatened { rule: aoo_rule, cover_rule: aoo_cover_rule },
        prone_rule,
        mounted_rule: None,
        drag: Drag::None,
        short_step: Some(short_step),
    }
}

/// PF1's attack numbers (RULES.md `pf1e.attack.hit-and-natural-rolls`, `pf1e.prone`,
/// `pf1e.charge`, `pf1e.grid.distance-and-movement` squeezing).
pub(super) const ATTACK: AttackRule = AttackRule {
    rule: "pf1e.attack.hit-and-natural-rolls",
    dice: AttackDice::D20 { advantage: false },
    natural_miss: 1,
    natural_hit: 20,
    critical: Critical::ThreatConfirm,
    defence: Defence::Ac,
    prone: Prone::Modifiers {
        rule: "pf1e.prone",
        melee_attack: -4,
        ac_vs_melee: -4,
        ac_vs_ranged: 4,
        ranged_only_crossbows: true,
        on_attack: false,
        scaled_variant: None,
    },
    squeeze: Some(Squeeze { rule: "pf1e.grid.distance-and-movement", attack: -4, ac: -4 }),
    conditions_rule: "pf1e.conditions.attacks",
    conditions: AttackConditions::Modifiers { flat_footed_ac: None },
    underwater: None,
    off_hand: None,
};

/// PF1's cover numbers (RULES.md `pf1e.cover.degrees`), shared by hb3d's geometry.
pub(super) const COVER: PathfinderCover = PathfinderCover {
    corner_lines_rule: "pf1e.cover.ranged-corner-lines",
    degrees_rule: "pf1e.cover.degrees",
    adjacent_melee_test: true,
    cover: (4, 2),
    partial: (2, 1),
    improved: (8, 4),
    improved_evasion: true,
    improved_stealth: 10,
    partial_variant: "pf1e.cover.partial",
    as_attack_modifier: None,
    low_obstacles_rule: "pf1e.cover.low-obstacles",
    soft_rule: "pf1e.cover.soft",
    opportunity_rule: "pf1e.cover.aoo",
};

/// PF1's weapon ranges (RULES.md `pf1e.range.increment`); SF cites its own rule.
pub(super) const fn range(rule: &'static str) -> RangeRule {
    RangeRule::Increment { rule, per_increment: -2, max_projectile: 10, max_thrown: 5 }
}

/// PF1's shooting into melee (`pf1e.ranged.into-melee`), inherited by hb3d.
pub(super) const RANGED_INTO_MELEE: RangedInMeleeRule = RangedInMeleeRule::IntoMelee {
    rule: "pf1e.ranged.into-melee",
    penalty: -4,
    two_sizes_larger: -2,
    removed_by_feat: "precise_shot",
};

/// PF1's reach weapons (`pf1e.reach.threatened`): double reach, not adjacent.
pub(super) const REACH_WEAPON: ReachWeaponRule = ReachWeaponRule::DoubleNotAdjacent;

/// Threat-based flanking, +2 on the attack (`pf1e.flanking.geometry`; SF cites its own rule).
pub(super) const fn flanking(rule: &'static str, inherited: Option<&'static str>) -> FlankingRule {
    FlankingRule {
        rule,
        by: FlankBy::Threat,
        benefit: FlankBenefit::AttackBonus(2),
        optional_variant: None,
        inherited,
    }
}

/// PF1's concealment (`pf1e.concealment.determine`, `pf1e.concealment.miss-chance`,
/// `pf1e.vision.light`).
pub(super) const CONCEALMENT: ConcealmentRule =
    ConcealmentRule { light: "pf1e.vision.light", by: ConcealmentBy::MissChance(MISS_CHANCE) };

/// PF1's concealment procedure, which hb3d changes the miss-chance rule of.
pub(super) const MISS_CHANCE: MissChance = MissChance {
    determine: "pf1e.concealment.determine",
    miss_chance: "pf1e.concealment.miss-chance",
    low_light: LowLight::DoublesRadii,
    grazing: false,
};

/// PF1's charge (`pf1e.charge`): +2 attack, −2 AC, the convex-hull path test.
pub(super) const CHARGE: ChargeRule =
    ChargeRule { rule: "pf1e.charge", attack_bonus: 2, ac_penalty: -2, path: PathTest::ConvexHull };

/// PF1's combat maneuvers (`pf1e.maneuver.*`): d20 + CMB vs CMD.
pub(super) const COMBAT_MANEUVER: CombatManeuver = CombatManeuver {
    base_rule: "pf1e.maneuver.cmb-cmd",
    rules: ManeuverRules {
        bull_rush: "pf1e.maneuver.bull-rush",
        trip: "pf1e.maneuver.trip",
        disarm: "pf1e.maneuver.disarm",
        overrun: "pf1e.maneuver.overrun",
        grapple: "pf1e.maneuver.grapple",
        pin: "pf1e.maneuver.grapple",
        escape: "pf1e.maneuver.grapple",
        tie_up: "pf1e.maneuver.grapple",
    },
    dice: CheckDice::D20,
    defence: ManeuverDefence::Cmd,
    escape_dc: EscapeDc::Cmd,
    improved_bonus: 2,
    grappled_attacker: Some(-2),
    disarm: DisarmModifiers::Separate { unarmed: -4, disarm_weapon: 2 },
    disarm_action: DisarmAction::MeleeAttack,
    tie_up_literal_variant: None,
    secondary_bull_rush: true,
    concealment_rule: "pf1e.maneuver.cmb-cmd",
};

/// PF1's unarmed strike by size (PF1 PRD › Equipment › Table: Weapons: Small 1d2, Medium 1d3;
/// larger sizes step up as Table: Tiny and Large Weapon Damage), nonlethal bludgeoning.
const UNARMED_BY_SIZE: &[(Size, (u32, u32, i32))] = &[
    (Size::Fine, (0, 0, 1)),
    (Size::Tiny, (0, 0, 1)),
    (Size::Small, (1, 2, 0)),
    (Size::Medium, (1, 3, 0)),
    (Size::Large, (1, 4, 0)),
    (Size::Huge, (1, 6, 0)),
    (Size::Gargantuan, (1, 8, 0)),
    (Size::Colossal, (2, 6, 0)),
];

/// PF1's damage (PF1 PRD › Combat › Damage, Critical Hits, Multiplying Damage; Glossary ›
/// Damage Reduction, Energy Resistance), which hb3d inherits (`hb3d.inherit-pf1e`): Strength
/// ×1, ×1½ two-handed, ×½ off hand, to melee and thrown weapons; the critical multiplier;
/// minimum 1.
pub(super) const DAMAGE: DamageRule = DamageRule {
    roll_rule: "pf1e.damage.roll",
    ability: DamageAbility {
        rule: "pf1e.damage.strength",
        ranged_dex: false,
        finesse_best: false,
        grip: true,
        off_hand_only_negative: false,
    },
    critical: CriticalDamage::Multiplier { rule: "pf1e.damage.critical-multiplier" },
    minimum: (1, "pf1e.damage.minimum"),
    mitigation: Mitigation::Pathfinder { rule: "pf1e.damage.resistance" },
    unarmed: UnarmedDamage {
        rule: "pf1e.damage.unarmed",
        by_size: UNARMED_BY_SIZE,
        damage_type: "bludgeoning",
        nonlethal: true,
    },
    grapple_unarmed_only: false,
};

/// Starfinder's damage (SF CRB ch. 8 "Damage", p. 182 "Critical Hits"): Strength to melee and
/// thrown weapons with no grip multiplier, the damage rolled twice on a critical hit, minimum 1.
pub(super) const SF_DAMAGE: DamageRule = DamageRule {
    roll_rule: "sf1e.damage.roll",
    ability: DamageAbility { rule: "sf1e.damage.roll", grip: false, ..DAMAGE.ability },
    critical: CriticalDamage::RollTwice { rule: "sf1e.damage.critical" },
    minimum: (1, "sf1e.damage.roll"),
    unarmed: UnarmedDamage { rule: "sf1e.damage.roll", ..DAMAGE.unarmed },
    ..DAMAGE
};
