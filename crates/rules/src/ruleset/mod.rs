//! The five rulesets. Each module holds one ruleset's numbers in a single [`Ruleset`] value,
//! so adding a sixth ruleset means adding one module and one [`RulesetId`] variant.

mod dnd5e;
pub mod dnd5e2014;
pub mod dnd5e2024;
pub mod hb3d;
pub mod pf1e;
pub mod sf1e;

pub(crate) use dnd5e::INCAPACITATED;

use crate::encounter::{Condition, Size};
use crate::grid::Metric;

/// A ruleset, as named in the encounter (`"pf1e"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RulesetId {
    /// D&D 5th edition, 2014 rules (SRD 5.1).
    Dnd5e2014,
    /// D&D 5th edition, 2024 rules (SRD 5.2).
    Dnd5e2024,
    /// Pathfinder 1st edition.
    Pf1e,
    /// Starfinder 1st edition.
    Sf1e,
    /// The French homebrew: 3d6 + mods + BBA vs DEF.
    Hb3d,
}

impl RulesetId {
    /// Every ruleset.
    pub const ALL: [RulesetId; 5] =
        [RulesetId::Dnd5e2014, RulesetId::Dnd5e2024, RulesetId::Pf1e, RulesetId::Sf1e, RulesetId::Hb3d];

    /// The wire id.
    pub fn id(self) -> &'static str {
        self.rules().id
    }

    /// Parses a wire id.
    pub fn from_id(id: &str) -> Option<RulesetId> {
        RulesetId::ALL.into_iter().find(|r| r.id() == id)
    }

    /// Whether this is one of the two D&D 5e editions.
    pub fn is_dnd5e(self) -> bool {
        matches!(self, RulesetId::Dnd5e2014 | RulesetId::Dnd5e2024)
    }

    /// The ruleset's numbers.
    pub fn rules(self) -> &'static Ruleset {
        match self {
            RulesetId::Dnd5e2014 => &dnd5e2014::RULESET,
            RulesetId::Dnd5e2024 => &dnd5e2024::RULESET,
            RulesetId::Pf1e => &pf1e::RULESET,
            RulesetId::Sf1e => &sf1e::RULESET,
            RulesetId::Hb3d => &hb3d::RULESET,
        }
    }
}

/// What a size means in one ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeInfo {
    /// Squares per side of the space.
    pub side: i32,
    /// Natural reach of a tall creature, feet.
    pub reach_ft: u32,
    /// Whether several creatures of this size may share a square.
    pub shares_square: bool,
}

/// How weapon ranges work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeRule {
    /// Normal range, then long range at disadvantage (`dnd5e.range.normal-long`).
    NormalLong {
        /// Rule id.
        rule: &'static str,
    },
    /// A penalty per range increment (`pf1e.range.increment`).
    Increment {
        /// Rule id.
        rule: &'static str,
        /// Attack modifier per full increment beyond the first.
        per_increment: i32,
        /// Maximum increments of a projectile weapon.
        max_projectile: u32,
        /// Maximum increments of a thrown weapon.
        max_thrown: u32,
    },
}

/// What the `reach` weapon property does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReachWeaponRule {
    /// Adds 5 ft; adjacent targets can still be hit (`dnd5e.reach`).
    AddFive,
    /// Doubles natural reach; cannot hit at natural reach or less (`pf1e.reach.threatened`).
    DoubleNotAdjacent,
    /// Doubles natural reach and still hits adjacent squares (`sf1e`, RULES.md Q-47).
    DoubleWithAdjacent,
}

/// Who imposes the penalty on a ranged attack made near or into melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangedInMeleeRule {
    /// Disadvantage when a hostile creature within 5 ft sees the attacker and is not
    /// incapacitated (`dnd5e2014.ranged.close-combat`, `dnd5e2024.ranged.close-combat`).
    CloseCombatDisadvantage {
        /// Rule id.
        rule: &'static str,
    },
    /// A penalty when the target is engaged in melee with a friend (`pf1e.ranged.into-melee`).
    IntoMelee {
        /// Rule id.
        rule: &'static str,
        /// The penalty.
        penalty: i32,
        /// The penalty when the target is two sizes larger than its engaged foes.
        two_sizes_larger: i32,
        /// Feat that removes the penalty.
        removed_by_feat: &'static str,
    },
    /// No such rule.
    None,
}

/// How cover is determined and what it is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverRule {
    /// D&D 5e: count blocked corner lines (`dnd5e.cover.grid`), half / three-quarters / total
    /// (`dnd5e.cover.degrees`), creatures and low obstacles capped at half (`dnd5e.cover.half-cap`).
    Dnd5e {
        /// AC and Dex save bonus of half cover.
        half: i32,
        /// AC and Dex save bonus of three-quarters cover.
        three_quarters: i32,
    },
    /// PF1 family: corner lines, one blocked line is enough (`pf1e.cover.ranged-corner-lines`).
    Pathfinder(PathfinderCover),
}

/// The numbers and choices of the PF1-style cover rules (PF1, SF, hb3d).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathfinderCover {
    /// Rule id of the corner-lines test.
    pub corner_lines_rule: &'static str,
    /// Rule id of the degrees and their numbers.
    pub degrees_rule: &'static str,
    /// Adjacent melee uses the separate "any line through a wall" test (PF1, not SF).
    pub adjacent_melee_test: bool,
    /// Cover: AC bonus and Reflex bonus.
    pub cover: (i32, i32),
    /// Partial cover (variant): AC and Reflex.
    pub partial: (i32, i32),
    /// Improved cover: AC and Reflex.
    pub improved: (i32, i32),
    /// Improved cover grants improved evasion.
    pub improved_evasion: bool,
    /// Stealth bonus of improved cover.
    pub improved_stealth: i32,
    /// The variant that turns partial cover on.
    pub partial_variant: &'static str,
    /// Cover is an attack modifier instead of an AC bonus (hb3d: −4 ATT), with its scaled
    /// variant (cover, partial, improved).
    pub as_attack_modifier: Option<AttackModifierCover>,
}

/// hb3d's proposed cover modifiers to ATT (`hb3d.mod.cover`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackModifierCover {
    /// Cover, partial, improved (PF1 nominal values).
    pub nominal: (i32, i32, i32),
    /// The scaled set for 3d6 (variant).
    pub scaled: (i32, i32, i32),
    /// The variant key selecting the scaled set.
    pub scaled_variant: &'static str,
}

/// How an attack roll is made and judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttackRule {
    /// Rule id of the roll and hit test.
    pub rule: &'static str,
    /// The dice.
    pub dice: AttackDice,
    /// A natural roll at most this always misses (d20: 1, 3d6: 3).
    pub natural_miss: i64,
    /// A natural roll at least this always hits (d20: 20, 3d6: 18).
    pub natural_hit: i64,
    /// Critical hits.
    pub critical: Critical,
    /// The defence attacked.
    pub defence: Defence,
    /// Prone attackers and targets.
    pub prone: Prone,
    /// Charge: attack bonus and AC penalty, with the rule id (PF1, hb3d).
    pub charge: Option<(i32, i32, &'static str)>,
    /// Squeezing: attack and AC penalties (PF1 family).
    pub squeeze: Option<(i32, i32)>,
    /// Rule id of the conditions that modify attacks.
    pub conditions_rule: &'static str,
}

/// The dice of an attack roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackDice {
    /// One d20; two with advantage or disadvantage (5e).
    D20 {
        /// Advantage and disadvantage exist.
        advantage: bool,
    },
    /// Three six-sided dice summed (hb3d).
    ThreeD6,
}

/// How critical hits work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Critical {
    /// A natural 20 is a critical hit (5e).
    Natural20,
    /// A threat (natural 20, or the weapon's range when it hits) is confirmed by a second roll (PF1).
    ThreatConfirm,
    /// A natural 20 is a critical hit only if the total also hits (SF).
    Natural20IfTotalHits,
    /// No critical hits (hb3d until specified, Q-13).
    None,
}

/// Which defence an attack targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defence {
    /// Armor class `ac`.
    Ac,
    /// Starfinder `eac` or `kac`, per weapon (`weapon.targets`, default `kac`).
    EacKac,
    /// hb3d `def`.
    Def,
}

/// How prone attackers and targets are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prone {
    /// 5e: prone attacker disadvantage; target within 5 ft advantage, else disadvantage.
    Advantage {
        /// Rule id.
        rule: &'static str,
    },
    /// PF1 family: modifiers.
    Modifiers {
        /// Rule id.
        rule: &'static str,
        /// Prone attacker's melee attack modifier.
        melee_attack: i32,
        /// Prone target's AC against melee.
        ac_vs_melee: i32,
        /// Prone target's AC against ranged.
        ac_vs_ranged: i32,
        /// A prone attacker cannot use ranged weapons except crossbows (PF1).
        ranged_only_crossbows: bool,
        /// The prone-target modifiers apply to the attack roll instead of AC (hb3d).
        on_attack: bool,
    },
}

/// A rule variant a request can switch in `encounter.variants`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VariantSpec {
    /// Key in `encounter.variants` (a rule id).
    pub key: &'static str,
    /// Whether it is on by default.
    pub default: bool,
    /// What switching it does.
    pub summary: &'static str,
}

/// One ruleset's numbers and choices.
#[derive(Debug)]
pub struct Ruleset {
    /// Wire id.
    pub id: &'static str,
    /// Human name.
    pub name: &'static str,
    /// Which seed files it comes from.
    pub seeds: &'static [&'static str],
    /// Size rule id.
    pub size_rule: &'static str,
    /// The sizes it knows, with their space and natural reach.
    pub sizes: &'static [(Size, SizeInfo)],
    /// The default distance metric.
    pub metric: Metric,
    /// The variant that switches distances to alternating diagonals, if any.
    pub diagonal_variant: Option<&'static str>,
    /// Default speed of a creature without `speed_ft`, feet.
    pub default_speed_ft: u32,
    /// The conditions it knows; any other is rejected.
    pub conditions: &'static [Condition],
    /// Conditions that stop a creature from threatening (RULES.md Q-33).
    pub no_threat_conditions: &'static [Condition],
    /// Weapon ranges.
    pub range: RangeRule,
    /// Reach weapons.
    pub reach_weapon: ReachWeaponRule,
    /// Rule id of reach.
    pub reach_rule: &'static str,
    /// Whether 10 ft reach threatens the second diagonal by default (SF yes, PF1 no, Q-09).
    pub ten_foot_diagonal: bool,
    /// Whether unarmed creatures without Improved Unarmed Strike threaten nothing.
    pub unarmed_threatens_nothing: bool,
    /// Ranged attacks near or into melee.
    pub ranged_in_melee: RangedInMeleeRule,
    /// Whether a line grazing a blocking terrain square is blocked (RULES.md Q-01).
    pub grazing_terrain: bool,
    /// Cover.
    pub cover: CoverRule,
    /// Attack rolls.
    pub attack: AttackRule,
    /// The variants it accepts.
    pub variants: &'static [VariantSpec],
    /// The operations it answers (paths under `/v1`).
    pub operations: &'static [&'static str],
    /// Movement along a path (`/v1/movement`).
    pub movement: MoveRule,
    /// Initiative (`/v1/initiative`).
    pub initiative: InitiativeRule,
}

/// How a ruleset rolls and orders initiative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitiativeRule {
    /// Rule id (`dnd5e2014.initiative`, `pf1e.initiative`, …).
    pub rule: &'static str,
    /// The roll: this many dice of this many sides (1d20; hb3d 3d6).
    pub dice: (u32, u32),
    /// Equal totals: who goes first.
    pub tie: InitiativeTie,
    /// What surprise does.
    pub surprise: Surprise,
    /// 5e: one roll per group of identical creatures.
    pub groups: bool,
    /// 5e 2024: Invisible → advantage, Incapacitated → disadvantage on the roll.
    pub conditions_change_roll: bool,
}

/// Equal initiative totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitiativeTie {
    /// 5e (RULES.md Q-23): higher Dex modifier first, then a roll-off.
    DexThenRollOff,
    /// PF1 / SF / hb3d: higher total initiative modifier first, then a roll-off.
    ModifierThenRollOff,
}

/// What surprise does to a creature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surprise {
    /// 5e 2014: it cannot move or act on its first turn, nor react until that turn ends.
    LosesFirstTurn,
    /// 5e 2024: disadvantage on the initiative roll.
    Disadvantage,
    /// PF1 family: a surprise round in which only aware combatants act; unaware ones are
    /// flat-footed; everyone is flat-footed until its first turn.
    SurpriseRound,
}

/// How a ruleset prices and polices movement (`/v1/movement`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveRule {
    /// Step costs and the grid rule cited for them.
    pub costs: MoveCosts,
    /// Rule id of the step costs (`dnd5e.grid.squares`, `pf1e.grid.distance-and-movement`…).
    pub grid_rule: &'static str,
    /// Rule id of difficult terrain.
    pub difficult_rule: &'static str,
    /// Who may be moved through.
    pub through: ThroughRule,
    /// Rule id of moving through other creatures.
    pub through_rule: &'static str,
    /// What provokes an attack of opportunity, and its rule id.
    pub opportunity: OpportunityRule,
    /// Rule id of standing up and crawling.
    pub prone_rule: &'static str,
    /// Mounting and dismounting (5e); `None`: outside RULES.md.
    pub mounted_rule: Option<&'static str>,
    /// Moving a grappled creature, and how it slows the grappler.
    pub drag: Drag,
    /// The one-square step that provokes nothing: `five_foot_step` (PF1, hb3d),
    /// `guarded_step` (SF); `None` in 5e.
    pub short_step: Option<&'static str>,
}

/// Step costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveCosts {
    /// 5 ft a square (Chebyshev, or alternating diagonals with the variant); difficult
    /// terrain and crawling each add 5 ft; standing up and mounting cost half the speed.
    Dnd5e,
    /// Alternating diagonals counted over the whole move; difficult terrain doubles
    /// an orthogonal step and makes a diagonal one a flat 15 ft; a hampering (low) obstacle
    /// adds 10 ft; standing up is a move action; crawling is 5 ft per move action.
    Pathfinder,
}

/// Moving through another creature's space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThroughRule {
    /// 5e 2014: non-hostile, or two sizes apart; any occupied space is difficult terrain.
    Dnd5e2014,
    /// 5e 2024: ally, Incapacitated, Tiny, or two sizes apart; difficult unless ally or Tiny.
    Dnd5e2024,
    /// PF1 family: friends (not when charging), helpless opponents, Tiny or smaller movers and
    /// three sizes apart (these two provoke from the creature passed).
    Pathfinder,
}

/// What provokes an attack of opportunity when moving.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpportunityRule {
    /// 5e: leaving the reach of a creature that can see the mover.
    LeavesReach {
        /// Rule id of the trigger (`dnd5e2014.oa.trigger`, `dnd5e2024.oa.trigger`).
        trigger: &'static str,
        /// 2024: allies may react too (offered, never automated, Q-28).
        allies_offered: bool,
    },
    /// PF1 family: leaving a threatened square (`pf1e.aoo`).
    LeavesThreatened {
        /// Rule id.
        rule: &'static str,
    },
}

/// How dragging a grappled creature slows the grappler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drag {
    /// 5e 2014: speed halved unless the target is two or more sizes smaller.
    HalfSpeed(&'static str),
    /// 5e 2024: each foot costs 1 extra foot unless the target is Tiny or two or more sizes
    /// smaller.
    ExtraFoot(&'static str),
    /// Not modelled (PF1 family: the grappler moves with a maneuver, `/v1/maneuvers`).
    None,
}

impl Ruleset {
    /// Size data, or `None` when the ruleset has no such size (5e has no Fine or Colossal).
    pub fn size_info(&self, size: Size) -> Option<SizeInfo> {
        self.sizes.iter().find(|(s, _)| *s == size).map(|(_, i)| *i)
    }

    /// Size data, falling back on the nearest size the ruleset knows so that rules never fail
    /// on a hand-built encounter (validation rejects unknown sizes first).
    pub fn size(&self, size: Size) -> SizeInfo {
        self.size_info(size)
            .or_else(|| {
                self.sizes.iter().min_by_key(|(s, _)| (s.rank() - size.rank()).abs()).map(|(_, i)| *i)
            })
            .unwrap_or(SizeInfo { side: 1, reach_ft: 5, shares_square: false })
    }

    /// Whether the ruleset knows a condition.
    pub fn knows(&self, c: Condition) -> bool {
        self.conditions.contains(&c)
    }

    /// The variant with this key.
    pub fn variant(&self, key: &str) -> Option<&'static VariantSpec> {
        self.variants.iter().find(|v| v.key == key)
    }

    /// Whether it answers an operation.
    pub fn supports(&self, operation: &str) -> bool {
        self.operations.contains(&operation)
    }
}

/// The variants in force for one encounter: every default, with the request's switches applied.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Variants {
    on: Vec<&'static str>,
}

impl Variants {
    /// The defaults of a ruleset, with `switches` (key, on) applied. Keys the ruleset does not
    /// know are ignored here; validation rejects them first.
    pub fn resolve<'a>(ruleset: &Ruleset, switches: impl IntoIterator<Item = (&'a str, bool)>) -> Variants {
        let mut on: Vec<&'static str> =
            ruleset.variants.iter().filter(|v| v.default).map(|v| v.key).collect();
        for (key, value) in switches {
            if let Some(spec) = ruleset.variant(key) {
                on.retain(|k| *k != spec.key);
                if value {
                    on.push(spec.key);
                }
            }
        }
        on.sort_unstable();
        Variants { on }
    }

    /// Whether a variant is on.
    pub fn is_on(&self, key: &str) -> bool {
        self.on.contains(&key)
    }
}

/// Sizes shared by PF1, SF and hb3d (RULES.md `pf1e.size.table`, space and tall reach).
pub(crate) const PF_SIZES: &[(Size, SizeInfo)] = &[
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
pub(crate) const PF_CONDITIONS: &[Condition] = &[
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
pub(crate) const PF_NO_THREAT: &[Condition] = &[
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

/// Operations every ruleset answers.
pub(crate) const COMMON_OPERATIONS: &[&str] =
    &["range", "cover", "concealment", "flanking", "attack", "movement", "initiative", "analyze"];

/// Operations of the rulesets that define combat maneuvers (all but SF, RULES.md Q-32).
pub(crate) const WITH_MANEUVERS: &[&str] = &[
    "range",
    "cover",
    "concealment",
    "flanking",
    "attack",
    "maneuvers",
    "movement",
    "initiative",
    "analyze",
];

/// Initiative in the PF1 family (`dice`: 1d20, hb3d 3d6).
pub(crate) const fn pathfinder_initiative(rule: &'static str, dice: (u32, u32)) -> InitiativeRule {
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
pub(crate) const fn pathfinder_movement(
    grid_rule: &'static str,
    through_rule: &'static str,
    aoo_rule: &'static str,
    prone_rule: &'static str,
    short_step: &'static str,
) -> MoveRule {
    MoveRule {
        costs: MoveCosts::Pathfinder,
        grid_rule,
        difficult_rule: grid_rule,
        through: ThroughRule::Pathfinder,
        through_rule,
        opportunity: OpportunityRule::LeavesThreatened { rule: aoo_rule },
        prone_rule,
        mounted_rule: None,
        drag: Drag::None,
        short_step: Some(short_step),
    }
}

/// PF1's attack numbers (RULES.md `pf1e.attack.hit-and-natural-rolls`, `pf1e.prone`,
/// `pf1e.charge`, `pf1e.grid.distance-and-movement` squeezing).
pub(crate) const PF1_ATTACK: AttackRule = AttackRule {
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
    },
    charge: Some((2, -2, "pf1e.charge")),
    squeeze: Some((-4, -4)),
    conditions_rule: "pf1e.conditions.attacks",
};

/// 5e attack numbers, both editions.
pub(crate) const DND5E_ATTACK: AttackRule = AttackRule {
    rule: "dnd5e.attack.hit-and-natural-rolls",
    dice: AttackDice::D20 { advantage: true },
    natural_miss: 1,
    natural_hit: 20,
    critical: Critical::Natural20,
    defence: Defence::Ac,
    prone: Prone::Advantage { rule: "dnd5e.prone.attacks" },
    charge: None,
    squeeze: None,
    conditions_rule: "dnd5e.conditions.attacks",
};

/// PF1's cover numbers (RULES.md `pf1e.cover.degrees`), shared by hb3d's geometry.
pub(crate) const PF1_COVER: PathfinderCover = PathfinderCover {
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
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for r in RulesetId::ALL {
            assert_eq!(RulesetId::from_id(r.id()), Some(r));
        }
        assert_eq!(RulesetId::from_id("dnd5e"), None);
    }

    #[test]
    fn variants_apply_defaults_and_switches() {
        let rules = RulesetId::Dnd5e2014.rules();
        let v = Variants::resolve(rules, []);
        assert!(v.is_on("dnd5e.cover.half-cap"));
        assert!(!v.is_on("dnd5e.grid.variant-diagonals"));
        let v = Variants::resolve(
            rules,
            [("dnd5e.grid.variant-diagonals", true), ("dnd5e.cover.half-cap", false)],
        );
        assert!(v.is_on("dnd5e.grid.variant-diagonals"));
        assert!(!v.is_on("dnd5e.cover.half-cap"));
    }

    /// RULES.md `dnd5e.size.space` and `pf1e.size.table`.
    #[test]
    fn size_tables() {
        let d = RulesetId::Dnd5e2024.rules();
        assert_eq!(d.size(Size::Large).side, 2);
        assert_eq!(d.size(Size::Gargantuan).side, 4);
        assert_eq!(d.size(Size::Huge).reach_ft, 5, "5e size does not set reach");
        assert!(d.size_info(Size::Colossal).is_none());
        let p = RulesetId::Pf1e.rules();
        assert_eq!(p.size(Size::Colossal).side, 6);
        assert_eq!(p.size(Size::Huge).reach_ft, 15);
        assert_eq!(p.size(Size::Tiny).reach_ft, 0);
    }
}
