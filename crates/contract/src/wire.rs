//! Wire forms of the grid values every answer and trace step shares (points, squares). A leaf
//! below both `api/` and `render/`, so the trace's wire form does not import the questions'.

use arbiter_rules::grid::{Point, Square};
use serde::Serialize;
use utoipa::ToSchema;

/// A point in square units.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct PointOut {
    /// East.
    pub x: f64,
    /// South.
    pub y: f64,
}

/// A square.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct SquareOut {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl From<Point> for PointOut {
    fn from(p: Point) -> PointOut {
        PointOut { x: p.x.to_f64(), y: p.y.to_f64() }
    }
}

impl From<Square> for SquareOut {
    fn from(s: Square) -> SquareOut {
        SquareOut { x: s.x, y: s.y }
    }
}

/// The squares of a list, in order.
pub fn squares(list: &[Square]) -> Vec<SquareOut> {
    list.iter().copied().map(SquareOut::from).collect()
}

/// Schema-only types naming the closed sets of wire strings (`value_type` on the fields): the
/// field stays the id the rules give (`&'static str`), so the JSON does not change, and the
/// document states every value. Sets the rules crate lists (`ALL`) are read from it; the
/// others are listed here, from the rules' `id()` functions, and the response validation test
/// (`tests/http/schema.rs`) fails on any answer holding a value missing from its set.
macro_rules! closed_set {
    ($(#[doc = $doc:literal])* $name:ident => $values:expr) => {
        $(#[doc = $doc])*
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some($values))
                    .description(Some([$($doc.trim()),*].join("\n")))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}
    };
    ($(#[doc = $doc:literal])* $name:ident [$($value:literal),* $(,)?]) => {
        closed_set!($(#[doc = $doc])* $name => [$($value),*]);
    };
}

closed_set!(
    /// How a d20 is rolled after every source of advantage and disadvantage is combined.
    RollModeId ["normal", "advantage", "disadvantage"]
);
closed_set!(
    /// A degree of cover (`cover::CoverDegree`): `none`, `partial`, `cover`, `improved`, `total`
    /// (PF1, SF, hb3d) or `none`, `half`, `three_quarters`, `total` (5e).
    CoverDegreeId ["none", "partial", "half", "cover", "three_quarters", "improved", "total"]
);
closed_set!(
    /// A degree of concealment (`vision::ConcealmentDegree`).
    ConcealmentDegreeId ["none", "concealment", "total"]
);
closed_set!(
    /// A range band.
    RangeBandId ["reach", "normal", "long", "increment", "out_of_range"]
);
closed_set!(
    /// The opposite edges of the target's space a flanking line meets (`both`: through
    /// opposite corners).
    EdgesId ["west_east", "north_south", "both"]
);
closed_set!(
    /// How a line met a blocker.
    HitCaseId ["interior", "graze", "seam", "pinch", "cross", "overlap", "endpoint_on_wall", "along_wall"]
);
closed_set!(
    /// A wall's kind.
    WallKindId => arbiter_rules::encounter::WallKind::ALL.map(|k| k.id())
);
closed_set!(
    /// The saving throw cover helps: `dex` (5e) or `reflex` (PF1, SF, hb3d).
    SaveId ["dex", "reflex"]
);
closed_set!(
    /// Why an attack is not allowed.
    AttackNotAllowedId ["out_of_range", "total_cover", "prone_ranged", "off_hand_not_light"]
);
closed_set!(
    /// What gives concealment.
    ConcealmentCauseId [
        "concealing_squares", "heavy_obscurement", "dim_light", "darkness", "observer_in_darkness",
        "invisible", "hidden", "blinded", "no_line_of_sight",
    ]
);
closed_set!(
    /// A sense that overrides a cause of concealment.
    SenseId ["darkvision", "low_light_vision", "blindsight", "truesight", "see_invisibility"]
);
closed_set!(
    /// A light level.
    LightId ["darkness", "dim", "bright"]
);
closed_set!(
    /// A dice mode.
    DiceModeId ["roll", "given", "odds"]
);
closed_set!(
    /// Why a charge is not possible.
    ChargeIllegalId [
        "no_attack_square", "too_short", "too_long", "no_line_of_sight", "not_closest",
        "end_occupied", "end_blocked", "path_blocked", "difficult_terrain", "path_creature",
    ]
);
closed_set!(
    /// How a charge's path is tested: `convex_hull` (PF1) or `centre_line` (hb3d).
    PathTestId ["convex_hull", "centre_line"]
);
closed_set!(
    /// The maneuver a charge ends in, in place of the attack.
    ChargeThenId ["bull_rush", "overrun"]
);
closed_set!(
    /// A maneuver kind (`grapple`, `shove` (5e), `bull_rush`, `trip`, `disarm`, `overrun`,
    /// `escape`, `pin`, `tie_up`, `charge` (PF1 and hb3d)).
    ManeuverKindId => arbiter_rules::trace::maneuver::Kind::ALL.map(|k| k.id())
);
closed_set!(
    /// Why a grapple's follow-up move cannot be made.
    FollowUpIllegalId [
        "solid", "wall", "corner", "creature", "no_movement_left", "illegal_step", "too_far",
        "end_occupied", "place_not_adjacent", "place_off_grid", "place_blocked", "place_occupied",
        "grapple_illegal",
    ]
);
closed_set!(
    /// Why a maneuver is not possible (for a charge, the charge's reason).
    ManeuverIllegalId [
        "size", "reach", "hands", "legs", "flying", "not_grappled",
        "no_attack_square", "too_short", "too_long", "no_line_of_sight", "not_closest",
        "end_occupied", "end_blocked", "path_blocked", "difficult_terrain", "path_creature",
    ]
);
closed_set!(
    /// Why a creature in the way of a push cannot be bull rushed in turn.
    SecondaryIllegalId ["size", "reach", "hands", "legs", "flying", "not_grappled"]
);
closed_set!(
    /// How a maneuver is checked: `contest` (5e 2014), `save` (5e 2024), `d20_vs_dc` (PF1
    /// CMB vs CMD, 5e 2024 escape), `3d6_vs_dc` (hb3d), `none`.
    CheckKindId ["contest", "save", "d20_vs_dc", "3d6_vs_dc", "none"]
);
closed_set!(
    /// Whether a maneuver modifier applies to the check or to the defence.
    AppliesToId ["check", "defence"]
);
closed_set!(
    /// Why a push stopped early.
    PushStopId ["grid_edge", "solid", "wall", "corner", "creature", "no_direction"]
);
closed_set!(
    /// How the acting creature moves after a bull rush or an overrun.
    AttackerMoveKindId ["follow", "through", "front"]
);
closed_set!(
    /// Why a movement provokes (or does not provoke) an attack of opportunity.
    MoveOpportunityReasonId [
        "leaves_threatened_square", "leaves_reach", "stands_up", "moves_through_space",
        "offered_to_ally", "flat_footed", "cover", "total_cover", "total_concealment", "withdraw",
    ]
);
closed_set!(
    /// Why a step is not legal.
    StepIssueId ["solid", "wall", "corner", "creature", "no_movement_left"]
);
closed_set!(
    /// A movement mode.
    MovementModeId => arbiter_rules::movement::Mode::ALL.map(|m| m.id())
);
closed_set!(
    /// A condition.
    ConditionId => arbiter_rules::condition::Condition::ALL.map(|c| c.id())
);
closed_set!(
    /// A size category.
    SizeId => arbiter_rules::size::Size::ALL.map(|s| s.id())
);
closed_set!(
    /// A ruleset id.
    RulesetId => arbiter_rules::ruleset::RulesetId::ALL.map(|r| r.id())
);
closed_set!(
    /// What surprise does to a creature.
    SurpriseEffectId ["loses_first_turn", "disadvantage", "no_surprise_round_action"]
);
closed_set!(
    /// The kind of attack cover and concealment were judged for.
    AttackKindId ["melee", "ranged"]
);
closed_set!(
    /// A weapon kind.
    WeaponKindId ["melee", "ranged", "thrown"]
);
closed_set!(
    /// A service status: `ok`, or `draining` once shutdown has begun.
    HealthStatusId ["ok", "draining"]
);
closed_set!(
    /// Where a rule comes from.
    RuleKindId ["seed", "srd", "non_srd", "engine", "proposed"]
);
closed_set!(
    /// A supported language of texts.
    LanguageId ["en", "fr"]
);
closed_set!(
    /// Why a maneuver provokes (or does not provoke) an attack of opportunity.
    ManeuverOpportunityReasonId [
        "provokes", "improved", "cover", "does_not_threaten", "flat_footed", "grappled", "no_check",
    ]
);
closed_set!(
    /// The action a maneuver takes: `replaces_one_attack` (5e), `action` (5e escape),
    /// `standard`, `melee_attack` (in place of a melee attack), `full_round` (hb3d disarm
    /// without the power, a charge).
    ManeuverActionId ["replaces_one_attack", "action", "standard", "melee_attack", "full_round"]
);
closed_set!(
    /// What a move ending in another creature's space leads to.
    EndsOccupiedId ["illegal", "prone", "none", "return_to_last_legal", "allowed"]
);
closed_set!(
    /// Why a creature in the way cannot be passed.
    BlockedBecauseId ["hostile", "opponent", "charging_through_ally"]
);
closed_set!(
    /// The first reason a movement is not allowed: a step's reason, or one of the movement's.
    MovementReasonId [
        "solid", "wall", "corner", "creature", "no_movement_left", "ends_in_occupied", "charge",
        "not_a_short_step", "cannot_stand", "mount_too_small", "mount_out_of_reach",
        "landing_out_of_reach", "landing_blocked", "illegal_step",
    ]
);
closed_set!(
    /// What put an initiative entry before the next one.
    DecidedById ["total", "dex_mod", "modifier", "roll_off", "group", "input_order", "controlled_mount"]
);
closed_set!(
    /// What puts a rider at risk of falling off its mount (5e).
    FallCauseId ["mount_moved", "rider_prone", "mount_prone", "rider_moved"]
);
closed_set!(
    /// Where an attack modifier comes from.
    ModifierSourceId [
        "range", "long_range", "ranged_in_close_combat", "into_melee", "cover", "concealment",
        "unseen_target", "unseen_attacker", "flanking", "prone_attacker", "prone_target",
        "condition", "squeezing_attacker", "squeezing_target", "charge", "underwater", "off_hand",
    ]
);
closed_set!(
    /// The kind of element that blocked a line.
    BlockerKindId ["solid", "low", "creature", "wall"]
);
closed_set!(
    /// Why a target is not flanked by an attacker.
    NotFlankedWhyId => arbiter_rules::trace::flanking::NotFlankedWhy::ALL.map(|w| w.id())
);
closed_set!(
    /// Why a creature cannot flank.
    NoFlankId ["condition", "unarmed", "reach_zero", "out_of_reach", "not_adjacent", "cannot_see"]
);

/// The SVG drawing `/v1/cover`, `/v1/movement`, `/v1/flanking`, `/v1/concealment` and
/// `/v1/analyze` answer to `Accept: image/svg+xml` (the response's `image/svg+xml` content: the
/// media type picks the schema, not a parameter).
pub struct SvgDrawing;

impl utoipa::PartialSchema for SvgDrawing {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .content_media_type("image/svg+xml")
            .description(Some(
                "An SVG document: the grid, the creatures and what the question traced, with a caption, a legend of the kinds drawn and a key; elements carry `class` and `data-*` attributes (`target-square`, `ray`, `hit`, `step`, `oa-arrow`, `pair`…).",
            ))
            .into()
    }
}

impl utoipa::ToSchema for SvgDrawing {}
closed_set!(
    /// What sets an initiative roll's advantage or disadvantage (5e 2024).
    RollModeCauseId ["surprised", "invisible", "incapacitated"]
);
closed_set!(
    /// Why a ranged attack into melee takes no penalty.
    IntoMeleeExemptionId ["precise_shot", "ten_feet_from_friends", "three_sizes_larger"]
);
closed_set!(
    /// What is wrong with mounting or dismounting.
    MountIssueId ["mount_too_small", "mount_out_of_reach", "landing_out_of_reach", "landing_blocked", "no_movement_left"]
);
closed_set!(
    /// What sets a movement's budget besides the speed.
    BudgetWhyId ["double_move", "dash", "stand_up", "crawl", "dragging"]
);
closed_set!(
    /// Why a damage gets the ability modifier it gets.
    DamageAbilityWhyId [
        "melee", "thrown", "ranged", "finesse", "two_handed", "off_hand_half", "off_hand_negative_only",
        "ranged_none", "included",
    ]
);
closed_set!(
    /// The ability modifier a damage reads.
    DamageStatId ["str_mod", "dex_mod"]
);
closed_set!(
    /// What multiplies a damage (PF1, hb3d).
    DamageMultiplierWhyId ["lance_mounted_charge", "braced_against_charge"]
);
closed_set!(
    /// What a critical hit does to the damage: 5e, PF1 family, SF.
    CriticalDamageId ["dice_twice", "multiplier", "roll_twice"]
);
closed_set!(
    /// A defence against one damage type.
    MitigationId ["immunity", "resistance", "vulnerability", "energy_resistance", "damage_reduction"]
);
