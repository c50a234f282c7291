//! Numbers shared by both D&D 5e editions (RULES.md §2.1).

use super::knobs::{
    AttackConditions, AttackDice, AttackRule, ConcealmentBy, ConcealmentRule, Critical, CriticalDamage,
    DamageAbility, DamageRule, Defence, FlankBenefit, FlankBy, FlankingRule, Mitigation, OffHand, Prone,
    SizeInfo, UnarmedDamage, Underwater, VariantSpec,
};
use crate::condition::Condition;
use crate::size::Size;

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

/// 5e attack numbers, both editions; `underwater` and `off_hand` differ by edition.
pub(super) const fn attack(underwater: Underwater, off_hand: OffHand) -> AttackRule {
    AttackRule {
        rule: "dnd5e.attack.hit-and-natural-rolls",
        dice: AttackDice::D20 { advantage: true },
        natural_miss: 1,
        natural_hit: 20,
        critical: Critical::Natural20,
        defence: Defence::Ac,
        prone: Prone::Advantage { rule: "dnd5e.prone.attacks" },
        squeeze: None,
        conditions_rule: "dnd5e.conditions.attacks",
        conditions: AttackConditions::Advantage,
        underwater: Some(underwater),
        off_hand: Some(off_hand),
    }
}

/// The DMG's optional flanking (`dnd5e.flanking.optional`): adjacent allies, advantage, off by
/// default.
pub(super) const FLANKING: FlankingRule = FlankingRule {
    rule: "dnd5e.flanking.optional",
    by: FlankBy::Adjacency,
    benefit: FlankBenefit::Advantage,
    optional_variant: Some("dnd5e.flanking.optional"),
    inherited: None,
};

/// Seeing and being seen (`dnd5e.vision.light-and-darkvision`, `dnd5e.unseen`).
pub(super) const CONCEALMENT: ConcealmentRule = ConcealmentRule {
    light: "dnd5e.vision.light-and-darkvision",
    by: ConcealmentBy::Unseen { rule: "dnd5e.unseen" },
};

/// 5e damage, both editions (SRD 5.1 / 5.2 "Damage and Healing"; seed 004 unarmed strike and
/// two-weapon fighting, seed 002 underwater fire resistance): Str melee, Dex ranged, finesse
/// the better; a critical rolls every damage die twice; never below 0; the unarmed strike
/// deals 1 + Str bludgeoning (`unarmed_rule`).
pub(super) const fn damage(unarmed_rule: &'static str) -> DamageRule {
    DamageRule {
        roll_rule: "dnd5e.damage.roll",
        ability: DamageAbility {
            rule: "dnd5e.damage.ability",
            ranged_dex: true,
            finesse_best: true,
            grip: false,
            off_hand_only_negative: true,
        },
        critical: CriticalDamage::DiceTwice { rule: "dnd5e.damage.critical" },
        minimum: (0, "dnd5e.damage.roll"),
        mitigation: Mitigation::Dnd5e { rule: "dnd5e.damage.resistance" },
        unarmed: UnarmedDamage {
            rule: unarmed_rule,
            by_size: &[(Size::Tiny, (0, 0, 1))],
            damage_type: "bludgeoning",
            nonlethal: false,
        },
        grapple_unarmed_only: true,
    }
}
