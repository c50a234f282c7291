//! The [`Ruleset`] type: one ruleset's numbers and choices, the knobs of `knobs.rs` that each
//! ruleset module fills in. It sits apart from `mod.rs` so that those modules do not import the
//! file that names them.

use super::knobs::*;
use crate::condition::Condition;
use crate::grid::Metric;
use crate::size::Size;

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
    /// The variant that makes 10 ft reach threaten the second diagonal where it does not by
    /// default (PF1, hb3d: `pf1e.reach.tenFootDiagonal`, Q-09).
    pub ten_foot_diagonal_variant: Option<&'static str>,
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
    /// Flanking.
    pub flanking: FlankingRule,
    /// Sight and concealment.
    pub concealment: ConcealmentRule,
    /// Combat maneuvers.
    pub maneuvers: ManeuverRule,
    /// The charge; `None`: no charge rule (asking for one is refused).
    pub charge: Option<ChargeRule>,
    /// Movement along a path (`/v1/movement`).
    pub movement: MoveRule,
    /// Initiative (`/v1/initiative`).
    pub initiative: InitiativeRule,
    /// Falling off a mount and a controlled mount's initiative; `None`: outside RULES.md.
    pub mounted: Option<MountedRule>,
    /// Damage (`/v1/attack`, grapple damage in `/v1/maneuvers`).
    pub damage: DamageRule,
    /// The words its trace texts use where rulesets differ.
    pub words: Words,
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

    /// The operations it answers (paths under `/v1`): every one, but `maneuvers` only when it
    /// has combat maneuvers.
    pub fn operations(&self) -> &'static [&'static str] {
        match self.maneuvers {
            ManeuverRule::None { .. } => COMMON_OPERATIONS,
            _ => WITH_MANEUVERS,
        }
    }

    /// Whether it answers an operation.
    pub fn supports(&self, operation: &str) -> bool {
        self.operations().contains(&operation)
    }
}

/// Operations every ruleset answers.
const COMMON_OPERATIONS: &[&str] =
    &["range", "cover", "concealment", "flanking", "attack", "movement", "initiative", "analyze"];

/// Operations of the rulesets that define combat maneuvers.
const WITH_MANEUVERS: &[&str] = &[
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
