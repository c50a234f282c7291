//! The knobs of a ruleset: every difference a question module needs, as data (numbers, rule ids)
//! or a small enum naming a procedure. A question reads its knob from [`super::Ruleset`] and
//! never asks which ruleset it is in.

/// The words of a ruleset's source where rulesets differ, for the trace texts (English, then
/// French as its seed writes it: RULES.md §1 names each ruleset's seed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// What an attack counts against: "AC" / "CA", or the homebrew's "DEF" (seed 003: "ATT ><
    /// DEF de la cible").
    pub defence: [&'static str; 2],
    /// The French of improved cover: Pathfinder's "abri supérieur" (seed 001), Starfinder's
    /// "abri amélioré" (seed 000). 5e's three-quarters cover is "abri supérieur" (seed 002).
    pub improved_cover_fr: &'static str,
}

/// The words of the rulesets whose seeds call an attack's target number AC (« CA ») and improved
/// cover « abri supérieur ».
pub const AC_WORDS: Words = Words { defence: ["AC", "CA"], improved_cover_fr: "abri supérieur" };

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

impl RangeRule {
    /// The rule id cited for range.
    pub fn rule(&self) -> &'static str {
        match *self {
            RangeRule::NormalLong { rule } | RangeRule::Increment { rule, .. } => rule,
        }
    }
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
    /// Rule id of low obstacles (`pf1e.cover.low-obstacles`; SF: `sf1e.cover.variants`).
    pub low_obstacles_rule: &'static str,
    /// Rule id of soft cover (`pf1e.cover.soft`; SF: `sf1e.cover.variants`).
    pub soft_rule: &'static str,
    /// Rule id of cover denying attacks of opportunity (`pf1e.cover.aoo`; SF:
    /// `sf1e.cover.variants`).
    pub opportunity_rule: &'static str,
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
    /// Squeezing (PF1 family).
    pub squeeze: Option<Squeeze>,
    /// Rule id of the conditions that modify attacks.
    pub conditions_rule: &'static str,
    /// How conditions modify attacks.
    pub conditions: AttackConditions,
    /// Attacking underwater; `None`: no such rule.
    pub underwater: Option<Underwater>,
    /// The off-hand attack; `None`: not defined (a request for one is refused).
    pub off_hand: Option<OffHand>,
}

/// Squeezing through a narrow space (`pf1e.grid.distance-and-movement`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Squeeze {
    /// Rule id.
    pub rule: &'static str,
    /// The squeezing attacker's attack modifier.
    pub attack: i32,
    /// The squeezing target's AC modifier.
    pub ac: i32,
}

/// How the attacker's and the target's conditions modify an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackConditions {
    /// 5e: advantage and disadvantage; a hit from within 5 ft on a paralyzed or unconscious
    /// creature is critical.
    Advantage,
    /// PF1 family: attack and AC modifiers.
    Modifiers {
        /// A flat-footed target's AC change (SF: −2); `None`: it loses its Dex bonus (PF1).
        flat_footed_ac: Option<i32>,
    },
}

/// Attacking underwater (`dnd5e2014.underwater`, `dnd5e2024.underwater`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Underwater {
    /// Rule id.
    pub rule: &'static str,
    /// Which weapons escape the disadvantage.
    pub exempt: UnderwaterExempt,
}

/// Which weapons attack underwater without disadvantage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnderwaterExempt {
    /// 5e 2014: named melee weapons (dagger, javelin, shortsword, spear, trident) and named
    /// ranged ones (crossbow, net, javelin, spear, trident, dart).
    NamedWeapons,
    /// 5e 2024: piercing melee weapons; no ranged weapon.
    PiercingMelee,
}

/// The bonus-action attack with the other hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OffHand {
    /// Rule id (`dnd5e2014.two-weapon-fighting`, `dnd5e2024.light-weapon-extra-attack`).
    pub rule: &'static str,
    /// Both weapons must be light melee weapons (they may be thrown) (2014), not only Light (2024).
    pub melee_only: bool,
}

/// How flanking is decided (`/v1/flanking`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlankingRule {
    /// Rule id.
    pub rule: &'static str,
    /// Who can flank.
    pub by: FlankBy,
    /// What flanking gives the attacker.
    pub benefit: FlankBenefit,
    /// The variant that turns flanking on; `None`: always in force.
    pub optional_variant: Option<&'static str>,
    /// A first trace step citing where the rule is inherited from (hb3d: `hb3d.inherit-pf1e`).
    pub inherited: Option<&'static str>,
}

/// Who can flank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlankBy {
    /// PF1 family: a creature that threatens the target, on an enemy side of it.
    Threat,
    /// 5e: an ally of the attacker adjacent to the target that can see it.
    Adjacency,
}

/// What flanking gives the attacker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlankBenefit {
    /// A bonus on the melee attack roll (PF1 family: +2).
    AttackBonus(i32),
    /// Advantage on melee attack rolls (5e).
    Advantage,
}

/// How sight and concealment are decided (`/v1/concealment`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConcealmentRule {
    /// Rule id of light levels and seeing a creature.
    pub light: &'static str,
    /// What concealment does to an attack.
    pub by: ConcealmentBy,
}

/// What concealment does to an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConcealmentBy {
    /// 5e: no miss chance; an unseen target gives disadvantage, an unseen attacker advantage.
    Unseen {
        /// Rule id (`dnd5e.unseen`).
        rule: &'static str,
    },
    /// PF1 family: degrees of concealment and their miss chance.
    MissChance(MissChance),
}

/// The PF1-style concealment procedure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MissChance {
    /// Rule id of determining concealment from concealing squares.
    pub determine: &'static str,
    /// Rule id of the miss chance.
    pub miss_chance: &'static str,
    /// What low-light vision does.
    pub low_light: LowLight,
    /// Whether a line grazing a concealing square is concealed.
    pub grazing: bool,
}

/// What low-light vision does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LowLight {
    /// PF1: light radii count double for the observer.
    DoublesRadii,
    /// SF: dim light gives no concealment.
    DimIsNormal,
}

/// The charge (`pf1e.charge`, `hb3d.charge`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChargeRule {
    /// Rule id.
    pub rule: &'static str,
    /// Attack bonus.
    pub attack_bonus: i32,
    /// AC (DEF) change until the charger's next turn.
    pub ac_penalty: i32,
    /// How the path is tested.
    pub path: PathTest,
}

/// How a charge's path is tested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathTest {
    /// PF1: squares whose interior meets the convex hull of the start and end spaces.
    ConvexHull,
    /// hb3d: squares whose interior the centre-to-centre segment crosses.
    CentreLine,
}

impl PathTest {
    /// The wire id.
    pub fn id(self) -> &'static str {
        match self {
            PathTest::ConvexHull => "convex_hull",
            PathTest::CentreLine => "centre_line",
        }
    }
}

/// How combat maneuvers are resolved (`/v1/maneuvers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ManeuverRule {
    /// None in RULES.md; asking is refused with this reason.
    None {
        /// What is unsupported, and why.
        why: &'static str,
    },
    /// 5e 2014: grapple and shove are Athletics contests.
    Contest(FiveEManeuvers),
    /// 5e 2024: grapple and shove are saves against 8 + Str + PB.
    Save(FiveEManeuvers),
    /// PF1 family: a check against a defence, with its numbers.
    CombatManeuver(CombatManeuver),
}

/// The rule ids of the 5e maneuvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FiveEManeuvers {
    /// Grapple.
    pub grapple: &'static str,
    /// Shove.
    pub shove: &'static str,
    /// Escaping a grapple.
    pub escape: &'static str,
    /// The size and free-hand limits.
    pub size_limit: &'static str,
    /// The base rule (2014: the contest and its ties; 2024: the Unarmed Strike).
    pub base: &'static str,
}

/// The PF1-style combat maneuver numbers (`pf1e.maneuver.*`, `hb3d.maneuver.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CombatManeuver {
    /// The base rule (`pf1e.maneuver.cmb-cmd`).
    pub base_rule: &'static str,
    /// Rule id per maneuver.
    pub rules: ManeuverRules,
    /// The dice of the check.
    pub dice: CheckDice,
    /// The defence the check is made against.
    pub defence: ManeuverDefence,
    /// The DC of escaping a grapple.
    pub escape_dc: EscapeDc,
    /// Bonus of the improved maneuver feat or power.
    pub improved_bonus: i32,
    /// Check modifier of a grappled attacker (other than grappling), cited to the grapple rule.
    pub grappled_attacker: Option<i32>,
    /// Disarm check modifiers.
    pub disarm: DisarmModifiers,
    /// The action a disarm takes.
    pub disarm_action: DisarmAction,
    /// The variant reading the tie-up escape DC literally as CMB + 5 instead of CMB + 20.
    pub tie_up_literal_variant: Option<&'static str>,
    /// A creature in the way of a bull rush is bull-rushed in turn (PF1; others stop, Q-45).
    pub secondary_bull_rush: bool,
    /// Rule id of the target's concealment applying to the check.
    pub concealment_rule: &'static str,
}

/// The rule id of each PF1-style maneuver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManeuverRules {
    /// Bull rush.
    pub bull_rush: &'static str,
    /// Trip.
    pub trip: &'static str,
    /// Disarm.
    pub disarm: &'static str,
    /// Overrun.
    pub overrun: &'static str,
    /// Grapple.
    pub grapple: &'static str,
    /// Pin.
    pub pin: &'static str,
    /// Escaping a grapple.
    pub escape: &'static str,
    /// Tying up.
    pub tie_up: &'static str,
}

/// The dice of a maneuver check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckDice {
    /// One d20.
    D20,
    /// Three six-sided dice summed.
    ThreeD6,
}

/// The defence a maneuver check is made against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ManeuverDefence {
    /// The target's CMD.
    Cmd,
    /// The target's DEF.
    Def,
}

/// The DC of escaping a grapple.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EscapeDc {
    /// The grappler's CMD.
    Cmd,
    /// The grappler's CMB plus a number.
    CmbPlus {
        /// With Escape Artist.
        escape_artist: i32,
        /// With a maneuver check.
        otherwise: i32,
    },
}

/// Disarm check modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisarmModifiers {
    /// PF1: a penalty and the automatic pick-up unarmed; a bonus and no pick-up with a weapon
    /// of the disarm quality (a whip is one).
    Separate {
        /// Unarmed.
        unarmed: i32,
        /// With a disarm weapon.
        disarm_weapon: i32,
    },
    /// hb3d: one penalty unarmed or with a whip, both of which pick the item up; nothing with
    /// any other weapon, one of the disarm quality included.
    Either(i32),
}

/// The action a disarm takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisarmAction {
    /// In place of a melee attack.
    MeleeAttack,
    /// A full-round action, a standard one with the improved feat.
    FullRoundUnlessImproved,
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
        /// The variant halving the prone-target modifier on the attack roll (`hb3d.mod.scaled`).
        scaled_variant: Option<&'static str>,
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
        /// Rule id of cover denying the attack of opportunity.
        cover_rule: &'static str,
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

/// Mounted combat beyond mounting and dismounting (5e): falling off, and a controlled
/// mount's initiative. `None` in a ruleset: outside RULES.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MountedRule {
    /// Rule id (`dnd5e2014.mounted`, `dnd5e2024.mounted`).
    pub rule: &'static str,
    /// The Dexterity saving throw's DC to stay mounted (10).
    pub fall_dc: i32,
    /// What a rider does when its mount is knocked prone.
    pub mount_prone: MountProne,
}

/// A rider whose mount is knocked prone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MountProne {
    /// SRD 5.1: no save; its Reaction lands it on its feet, otherwise it falls prone.
    ReactionOrFall,
    /// Seed 002: the same Dexterity save as when the mount is moved.
    Save,
}

impl Drag {
    /// The rule id of dragging, if the ruleset drags in `/v1/movement`.
    pub fn rule(self) -> Option<&'static str> {
        match self {
            Drag::HalfSpeed(r) | Drag::ExtraFoot(r) => Some(r),
            Drag::None => None,
        }
    }
}

/// How a ruleset turns a weapon's damage expression into the damage a hit deals
/// (`crate::damage`): the ability modifier, the critical hit, the minimum, the target's
/// resistances and the unarmed strike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DamageRule {
    /// Rule id of the damage roll itself (its dice, its distribution).
    pub roll_rule: &'static str,
    /// The attacker's ability modifier.
    pub ability: DamageAbility,
    /// What a critical hit does to the damage.
    pub critical: CriticalDamage,
    /// The least damage of each damage type a hit deals before the target's resistances
    /// (PF1 family: 1; 5e: 0), with its rule id.
    pub minimum: (i64, &'static str),
    /// The target's resistances.
    pub mitigation: Mitigation,
    /// The unarmed strike (`"damage": "unarmed"`).
    pub unarmed: UnarmedDamage,
    /// A grapple's follow-up damage is the grappler's unarmed damage only (hb3d, seed 003
    /// « à hauteur de vos dégâts à mains nues », RULES.md D-26); `false`: also a natural,
    /// light or one-handed weapon's (PF1).
    pub grapple_unarmed_only: bool,
}

/// Which ability modifier a weapon adds to its damage, and how much of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DamageAbility {
    /// Rule id.
    pub rule: &'static str,
    /// Projectile weapons add Dexterity (5e); `false`: nothing (PF1 family, unless the VTT
    /// writes a composite bow's bonus in the expression).
    pub ranged_dex: bool,
    /// A finesse weapon adds the better of Strength and Dexterity (5e).
    pub finesse_best: bool,
    /// PF1 / hb3d: a Strength bonus ×3/2 with a two-handed grip and ×1/2 in the off hand,
    /// rounded down; a penalty always counts in full. `false`: the grip changes nothing (SF).
    pub grip: bool,
    /// 5e: the off-hand attack (`situational.off_hand`) adds the modifier only if negative.
    pub off_hand_only_negative: bool,
}

/// What a critical hit does to the damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CriticalDamage {
    /// 5e: every damage die of the attack is rolled twice; static bonuses once.
    DiceTwice {
        /// Rule id.
        rule: &'static str,
    },
    /// PF1: the damage is rolled `crit_multiplier` times (default 2), dice and static bonuses,
    /// but not the extra dice; multipliers add as `1 + Σ (m − 1)`.
    Multiplier {
        /// Rule id.
        rule: &'static str,
    },
    /// SF: the whole damage is rolled twice, as if the target were hit twice.
    RollTwice {
        /// Rule id.
        rule: &'static str,
    },
}

/// How the target's defences reduce damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mitigation {
    /// 5e: resistance halves (round down), vulnerability doubles, immunity cancels, per
    /// damage type; everything underwater resists fire (`underwater_rule`).
    Dnd5e {
        /// Rule id.
        rule: &'static str,
    },
    /// PF1 family: energy resistance subtracts per energy type, damage reduction from the
    /// physical damage unless bypassed, immunity cancels, vulnerability adds half.
    Pathfinder {
        /// Rule id.
        rule: &'static str,
    },
}

/// The unarmed strike's damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnarmedDamage {
    /// Rule id.
    pub rule: &'static str,
    /// Dice by the striker's size (`(count, sides, static)`); sizes not listed use the
    /// nearest smaller one, then the first.
    pub by_size: &'static [(crate::size::Size, (u32, u32, i32))],
    /// Damage type.
    pub damage_type: &'static str,
    /// It deals nonlethal damage (PF1 family).
    pub nonlethal: bool,
}
