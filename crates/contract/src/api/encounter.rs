//! Wire types of the encounter snapshot (PRODUCT.md "The encounter snapshot"). Only the server
//! knows JSON: `mapping` turns these into the rules crate's validated `Encounter`.

use std::collections::BTreeMap;

use arbiter_rules::condition::Condition;
use arbiter_rules::encounter::{Gravity, WeaponProperty};
use arbiter_rules::ruleset::RulesetId;
use arbiter_rules::size::Size;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::bounds::{FeatId, VariantMap};
pub use super::map::{
    CellIn, GridIn, LightIn, LightSourceIn, PointIn, SquareIn, TerrainIn, WallIn, WallKindIn,
};
use super::uvtt::EncounterGridIn;

crate::closed::rules_set!(
    /// A ruleset id.
    RulesetIn(RulesetId) = RulesetId::ALL
);

/// The whole encounter as it stands.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "ruleset": "pf1e",
    "grid": {"width": 12, "height": 8, "map": [
        "............", "....#.......", "....#...=...", "........::..",
        "...~~.......", "............", "wwww........", "wwww........"],
        "walls": [{"from": {"x": 6, "y": 0}, "to": {"x": 6, "y": 3}, "kind": "solid"}],
        "light": "bright"},
    "creatures": [
        {"id": "valeros", "side": "party", "at": {"x": 1, "y": 2}, "size": "medium",
         "stats": {"ac": 18, "attack_bonus": 7}},
        {"id": "goblin", "side": "monsters", "at": {"x": 9, "y": 2}, "size": "small",
         "stats": {"ac": 16}}]
}))]
pub struct EncounterIn {
    /// Which rules apply.
    pub ruleset: RulesetIn,
    /// Rule variants switched on or off, keyed by rule id (`"dnd5e.grid.variant-diagonals": true`).
    /// `GET /v1/rulesets` lists each ruleset's variants and defaults.
    /// At most 64 variants, each key at most 128 characters.
    #[serde(default, deserialize_with = "super::bounds::unique_keys")]
    #[schema(value_type = VariantMap)]
    pub variants: BTreeMap<String, bool>,
    /// The map: a grid, or `{"uvtt": file}`, a Universal VTT file converted as
    /// `POST /v1/import/uvtt` does (its `image` skipped).
    #[schema(value_type = EncounterGridIn)]
    pub grid: GridIn,
    /// Underwater, gravity.
    #[serde(default)]
    pub environment: EnvironmentIn,
    /// Every creature on the map.
    #[serde(deserialize_with = "crate::capped::creatures")]
    #[schema(max_items = 500)]
    pub creatures: Vec<CreatureIn>,
}

/// The environment.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentIn {
    /// The fight takes place underwater.
    #[serde(default)]
    pub underwater: bool,
    /// Gravity.
    #[serde(default)]
    pub gravity: GravityIn,
}

crate::closed::rules_set!(
    /// Gravity.
    GravityIn(Gravity) = Gravity::ALL
);

impl Default for GravityIn {
    fn default() -> GravityIn {
        GravityIn(Gravity::Normal)
    }
}

crate::closed::rules_set!(
    /// Size categories (which ones a ruleset knows: `GET /v1/rulesets`).
    SizeIn(Size) = Size::ALL
);

crate::closed::rules_set!(
    /// Conditions (which ones a ruleset knows: `GET /v1/rulesets`).
    ConditionIn(Condition) = Condition::ALL
);

/// A creature on the map.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatureIn {
    /// Unique id (at most 64 bytes).
    #[schema(min_length = 1, max_length = 64)]
    pub id: String,
    /// Side: creatures of the same side are allies.
    #[schema(min_length = 1, max_length = 64)]
    pub side: String,
    /// Top-left occupied square.
    pub at: SquareIn,
    /// Size category.
    #[serde(default = "medium")]
    pub size: SizeIn,
    /// Natural reach, feet (default from size and ruleset).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000)]
    pub reach_ft: Option<i64>,
    /// Speed, feet (default 30).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 10000)]
    pub speed_ft: Option<i64>,
    /// Swim speed, feet.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 10000)]
    pub swim_speed_ft: Option<i64>,
    /// Number of legs (default 2).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000)]
    pub legs: Option<i64>,
    /// Flying.
    #[serde(default)]
    pub flying: bool,
    /// Elevation, feet.
    #[serde(default)]
    #[schema(minimum = -100000, maximum = 100000)]
    pub elevation_ft: i64,
    /// Fights unarmed.
    #[serde(default)]
    pub unarmed: bool,
    /// Feat ids (`improved_trip`, `precise_shot`, `improved_unarmed_strike`…).
    #[serde(default, deserialize_with = "crate::capped::at_most::<{ super::bounds::TAGS }, _, _>")]
    #[schema(max_items = 64, value_type = Vec<FeatId>)]
    pub feats: Vec<String>,
    /// The melee weapon it threatens with (reach, threat, disarm, trip). No answer deals its
    /// damage: `damage`, `ability_in_damage`, `crit_multiplier`, `grip` and `materials` on it
    /// are refused (422); an attack's damage is its `weapon`'s.
    #[serde(default)]
    pub wielding: Option<WeaponIn>,
    /// Special senses.
    #[serde(default)]
    pub senses: SensesIn,
    /// Conditions; one the ruleset does not know is rejected.
    #[serde(default, deserialize_with = "crate::capped::at_most::<{ super::bounds::TAGS }, _, _>")]
    #[schema(max_items = 64)]
    pub conditions: Vec<ConditionIn>,
    /// Free hands (default 2).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub hands_free: Option<i64>,
    /// Id of the mount it rides (they may share squares).
    #[serde(default)]
    #[schema(min_length = 1, max_length = 64)]
    pub mounted_on: Option<String>,
    /// With `mounted_on`: `controlled` (default; a mount trained to accept a rider, whose
    /// initiative becomes the rider's) or `independent` (it keeps its own initiative, 5e).
    #[serde(default)]
    pub mount_control: Option<MountControlIn>,
    /// The numbers the ruleset needs.
    #[serde(default)]
    pub stats: StatsIn,
}

/// Whether a rider controls its mount (RULES.md `dnd5e2014.mounted`, `dnd5e2024.mounted`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MountControlIn {
    /// A mount trained to accept a rider: its initiative changes to match the rider's.
    Controlled,
    /// It accepts the rider but acts as it likes, on its own initiative.
    Independent,
}

fn medium() -> SizeIn {
    SizeIn(Size::Medium)
}

/// Special senses, ranges in feet.
#[derive(Debug, Clone, Default, Deserialize, ToSchema, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SensesIn {
    /// Darkvision range.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100000)]
    pub darkvision_ft: i64,
    /// Low-light vision.
    #[serde(default)]
    pub low_light_vision: bool,
    /// Blindsight range.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100000)]
    pub blindsight_ft: i64,
    /// Tremorsense range.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100000)]
    pub tremorsense_ft: i64,
    /// Truesight range.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100000)]
    pub truesight_ft: i64,
    /// Sees invisible creatures.
    #[serde(default)]
    pub see_invisibility: bool,
}

/// Saving throws: 5e by ability (`str`…`cha`), PF1/SF/hb3d by save (`fort`, `reflex`, `will`).
#[derive(Debug, Clone, Default, Deserialize, ToSchema, Serialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct SavesIn {
    #[schema(minimum = -1000, maximum = 1000)]
    pub str: Option<i32>,
    #[schema(minimum = -1000, maximum = 1000)]
    pub dex: Option<i32>,
    #[schema(minimum = -1000, maximum = 1000)]
    pub con: Option<i32>,
    #[schema(minimum = -1000, maximum = 1000)]
    pub int: Option<i32>,
    #[schema(minimum = -1000, maximum = 1000)]
    pub wis: Option<i32>,
    #[schema(minimum = -1000, maximum = 1000)]
    pub cha: Option<i32>,
    #[schema(minimum = -1000, maximum = 1000)]
    pub fort: Option<i32>,
    #[schema(minimum = -1000, maximum = 1000)]
    pub reflex: Option<i32>,
    #[schema(minimum = -1000, maximum = 1000)]
    pub will: Option<i32>,
}

/// The numbers a ruleset needs. A question that needs a missing one answers 422 naming it.
#[derive(Debug, Clone, Default, Deserialize, ToSchema, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StatsIn {
    /// Armor class (5e, PF1).
    #[schema(minimum = -1000, maximum = 1000)]
    pub ac: Option<i32>,
    /// Energy armor class (SF).
    #[schema(minimum = -1000, maximum = 1000)]
    pub eac: Option<i32>,
    /// Kinetic armor class (SF).
    #[schema(minimum = -1000, maximum = 1000)]
    pub kac: Option<i32>,
    /// Defence (hb3d).
    #[schema(minimum = -1000, maximum = 1000)]
    pub def: Option<i32>,
    /// Attack bonus.
    #[schema(minimum = -1000, maximum = 1000)]
    pub attack_bonus: Option<i32>,
    /// Strength modifier.
    #[schema(minimum = -1000, maximum = 1000)]
    pub str_mod: Option<i32>,
    /// Dexterity modifier.
    #[schema(minimum = -1000, maximum = 1000)]
    pub dex_mod: Option<i32>,
    /// Constitution modifier.
    #[schema(minimum = -1000, maximum = 1000)]
    pub con_mod: Option<i32>,
    /// Intelligence modifier.
    #[schema(minimum = -1000, maximum = 1000)]
    pub int_mod: Option<i32>,
    /// Wisdom modifier.
    #[schema(minimum = -1000, maximum = 1000)]
    pub wis_mod: Option<i32>,
    /// Charisma modifier.
    #[schema(minimum = -1000, maximum = 1000)]
    pub cha_mod: Option<i32>,
    /// Proficiency bonus (5e).
    #[schema(minimum = -1000, maximum = 1000)]
    pub proficiency_bonus: Option<i32>,
    /// Athletics.
    #[schema(minimum = -1000, maximum = 1000)]
    pub athletics: Option<i32>,
    /// Acrobatics.
    #[schema(minimum = -1000, maximum = 1000)]
    pub acrobatics: Option<i32>,
    /// Escape Artist.
    #[schema(minimum = -1000, maximum = 1000)]
    pub escape_artist: Option<i32>,
    /// Combat maneuver bonus (PF1; hb3d BMC).
    #[schema(minimum = -1000, maximum = 1000)]
    pub cmb: Option<i32>,
    /// Combat maneuver defence (PF1).
    #[schema(minimum = -1000, maximum = 1000)]
    pub cmd: Option<i32>,
    /// Base attack bonus.
    #[schema(minimum = -1000, maximum = 1000)]
    pub bab: Option<i32>,
    /// Initiative bonus.
    #[schema(minimum = -1000, maximum = 1000)]
    pub initiative_bonus: Option<i32>,
    /// Hit points left: the damage answers say the chance to drop the creature.
    #[schema(minimum = 0, maximum = 1000000)]
    pub hp: Option<i32>,
    /// 5e: damage types it resists (halved, rounded down).
    #[serde(default, deserialize_with = "crate::capped::at_most::<{ super::damage::DAMAGE_TYPES }, _, _>")]
    #[schema(max_items = 16, value_type = Vec<super::bounds::DamageWord>)]
    pub resistances: Vec<String>,
    /// Damage types it is vulnerable to (5e: doubled; PF1 family: +50 %, rounded down).
    #[serde(default, deserialize_with = "crate::capped::at_most::<{ super::damage::DAMAGE_TYPES }, _, _>")]
    #[schema(max_items = 16, value_type = Vec<super::bounds::DamageWord>)]
    pub vulnerabilities: Vec<String>,
    /// Damage types it is immune to.
    #[serde(default, deserialize_with = "crate::capped::at_most::<{ super::damage::DAMAGE_TYPES }, _, _>")]
    #[schema(max_items = 16, value_type = Vec<super::bounds::DamageWord>)]
    pub immunities: Vec<String>,
    /// PF1 family: energy resistance per type.
    #[serde(default, deserialize_with = "crate::capped::at_most::<{ super::damage::DAMAGE_TYPES }, _, _>")]
    #[schema(max_items = 16)]
    pub energy_resistance: Vec<super::damage::EnergyResistanceIn>,
    /// PF1 family: damage reduction.
    pub dr: Option<super::damage::DamageReductionIn>,
    /// Saving throws.
    #[serde(default)]
    pub saves: SavesIn,
}

/// How a weapon is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum WeaponKindIn {
    /// Melee.
    Melee,
    /// Projectile.
    Ranged,
    /// Thrown.
    Thrown,
}

crate::closed::rules_set!(
    /// Weapon properties that some rule reads.
    WeaponPropertyIn(WeaponProperty) = WeaponProperty::ALL
);

/// A weapon: 5e uses `normal_ft`/`long_ft`, PF1, SF and hb3d a range increment.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"kind": "ranged", "increment_ft": 100}))]
pub struct WeaponIn {
    /// Melee, ranged (projectile) or thrown.
    pub kind: WeaponKindIn,
    /// Reach with this weapon, feet (replaces natural reach and the `reach` property).
    #[schema(minimum = 0, maximum = 1000)]
    pub reach_ft: Option<i64>,
    /// 5e normal range, feet.
    #[schema(minimum = 0, maximum = 100000)]
    pub normal_ft: Option<i64>,
    /// 5e long range, feet.
    #[schema(minimum = 0, maximum = 100000)]
    pub long_ft: Option<i64>,
    /// Range increment, feet (PF1, SF, hb3d).
    #[schema(minimum = 1, maximum = 100000)]
    pub increment_ft: Option<i64>,
    /// Maximum increments (default 10, thrown 5).
    #[schema(minimum = 1, maximum = 100)]
    pub max_increments: Option<i64>,
    /// Properties.
    #[serde(default, deserialize_with = "crate::capped::at_most::<32, _, _>")]
    #[schema(max_items = 32)]
    pub properties: Vec<WeaponPropertyIn>,
    /// Damage type (`piercing`).
    #[schema(max_length = 64)]
    pub damage_type: Option<String>,
    /// The weapon's own attack bonus (wins over the creature's).
    #[schema(minimum = -1000, maximum = 1000)]
    pub attack_bonus: Option<i32>,
    /// Weapon name (`dagger`), for rules that list weapons (5e 2014 underwater).
    #[schema(max_length = 64)]
    pub name: Option<String>,
    /// PF1: the lowest natural d20 that threatens a critical hit (19 for a longsword, 18 for a
    /// rapier; default 20).
    #[schema(minimum = 2, maximum = 20)]
    pub crit_range: Option<i64>,
    /// SF: the armor class the weapon targets (default `kac`).
    pub targets: Option<TargetsIn>,
    /// The damage of a hit (`/v1/attack` answers its exact distribution): `"1d8+3"`,
    /// `"unarmed"`, or terms `[{"dice": "1d8", "type": "slashing"}, {"dice": "2d6", "type":
    /// "fire"}]`. The ruleset adds the ability modifier unless `ability_in_damage`.
    #[serde(default)]
    #[schema(value_type = Option<super::damage::DamageIn>)]
    pub damage: Option<super::damage::DamageIn>,
    /// The `damage` expression already includes the ability modifier (as character sheets
    /// show it): none is added, and no grip or off-hand rule changes it.
    #[serde(default)]
    pub ability_in_damage: bool,
    /// PF1, hb3d: the critical multiplier (2 by default, 3, 4).
    #[schema(minimum = 2, maximum = 4)]
    pub crit_multiplier: Option<i64>,
    /// PF1, hb3d: how the weapon is held, for Strength to damage (default `two_handed` for a
    /// `two_handed` weapon, else `one_handed`).
    pub grip: Option<super::damage::GripIn>,
    /// What the weapon is made of or counts as (`magic`, `silver`, `cold_iron`), for PF1
    /// damage reduction.
    #[serde(default, deserialize_with = "crate::capped::at_most::<{ super::damage::DAMAGE_TYPES }, _, _>")]
    #[schema(max_items = 16, value_type = Vec<super::bounds::DamageWord>)]
    pub materials: Vec<String>,
}

/// Starfinder armor classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TargetsIn {
    /// Energy armor class.
    Eac,
    /// Kinetic armor class.
    Kac,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ruleset of the table is a wire value, and nothing else is: an unknown id is
    /// refused with the list of ids (PRODUCT.md: `dnd5e2014`, `dnd5e2024`, `pf1e`, `sf1e`, `hb3d`).
    #[test]
    fn ruleset_ids_come_from_the_table() {
        for id in ["dnd5e2014", "dnd5e2024", "pf1e", "sf1e", "hb3d"] {
            let r: RulesetIn = serde_json::from_value(serde_json::json!(id)).expect(id);
            assert_eq!(r.0.id(), id);
        }
        let e = serde_json::from_value::<RulesetIn>(serde_json::json!("dnd5e")).unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown variant `dnd5e`, expected one of `dnd5e2014`, `dnd5e2024`, `pf1e`, `sf1e`, `hb3d`"
        );
    }
}
