//! Wire types of the encounter snapshot (PRODUCT.md "The encounter snapshot"). Only the server
//! knows JSON: `mapping` turns these into the rules crate's validated `Encounter`.

use std::collections::BTreeMap;

use std::sync::LazyLock;

use arbiter_rules::ruleset::RulesetId;
use std::borrow::Cow;

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, VariantAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use super::bounds::{FeatId, Row, VariantMap};

/// A ruleset id on the wire: any id of the rules crate's table (`RulesetId::id`), so that a new
/// ruleset needs nothing here; the schema lists them from the same table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RulesetIn(pub RulesetId);

/// The wire ids, in table order (serde's "expected one of" needs a `'static` list).
static RULESET_IDS: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| RulesetId::ALL.iter().map(|r| r.id()).collect());

impl<'de> Deserialize<'de> for RulesetIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // As an enum of unit variants, so that a wrong value or type is reported as for the
        // other wire enums ("expected one of `dnd5e2014`, …").
        struct Id;
        impl<'de> Visitor<'de> for Id {
            type Value = RulesetIn;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a ruleset id")
            }
            fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<RulesetIn, A::Error> {
                let (id, variant): (String, _) = data.variant()?;
                variant.unit_variant()?;
                RulesetId::from_id(&id)
                    .map(RulesetIn)
                    .ok_or_else(|| de::Error::unknown_variant(&id, &RULESET_IDS))
            }
        }
        deserializer.deserialize_enum("RulesetIn", &RULESET_IDS, Id)
    }
}

impl utoipa::PartialSchema for RulesetIn {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some("A ruleset id."))
            .enum_values(Some(RULESET_IDS.iter().copied()))
            .into()
    }
}

impl ToSchema for RulesetIn {}

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

/// The battle map: terrain, walls and light.
///
/// Its `Deserialize` is written by hand ([`GridIn::deserialize`] is the derived one, reached
/// through `remote = "Self"`): an object whose first key is `uvtt` is a Universal VTT file,
/// converted while it is read; any other object is the grid itself, read by the derived code
/// with its first key handed back, so the usual grid costs one key read more, no buffering.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct GridIn {
    /// Columns (squares).
    #[schema(minimum = 1, maximum = 1000)]
    pub width: i64,
    /// Rows (squares).
    #[schema(minimum = 1, maximum = 1000)]
    pub height: i64,
    /// One string per row, `width` characters each: `.` open, `#` solid, `=` low obstacle,
    /// `~` concealing, `%` opaque but passable, `:` difficult, `w` deep water.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "crate::capped::opt_rows")]
    #[schema(max_items = 1000, value_type = Option<Vec<Row>>)]
    pub map: Option<Vec<String>>,
    /// Sparse terrain and light per square, added on top of `map`.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "crate::capped::squares")]
    #[schema(max_items = 1000000)]
    pub cells: Vec<CellIn>,
    /// Thin walls: straight segments between two points (fractional coordinates allowed).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "crate::capped::walls")]
    #[schema(max_items = 10000)]
    pub walls: Vec<WallIn>,
    /// Ambient light.
    #[serde(default = "bright")]
    pub light: LightIn,
    /// Per-square light override, same shape as `map`: `b` bright, `d` dim, `n` darkness,
    /// `.` ambient.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "crate::capped::opt_rows")]
    #[schema(max_items = 1000, value_type = Option<Vec<Row>>)]
    pub light_map: Option<Vec<String>>,
    /// Light sources (blocked by walls).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "crate::capped::walls")]
    #[schema(max_items = 10000)]
    pub lights: Vec<LightSourceIn>,
    /// Set when the grid was read from an inline Universal VTT file: what its conversion
    /// found wrong, reported by the contract check before any work.
    #[serde(skip)]
    pub imported: Option<Box<crate::import::uvtt::Inline>>,
}

/// The keys a grid object may hold (the derived grid's, and `uvtt`).
const GRID_KEYS: &[&str] =
    &["width", "height", "map", "cells", "walls", "light", "light_map", "lights", "uvtt"];

impl<'de> Deserialize<'de> for GridIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("GridIn", GRID_KEYS, GridVisitor)
    }
}

impl Serialize for GridIn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GridIn::serialize(self, serializer)
    }
}

/// Reads a grid object: `{"uvtt": file}` or the grid's own fields.
struct GridVisitor;

impl<'de> Visitor<'de> for GridVisitor {
    type Value = GridIn;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a grid object, or an object whose only key is `uvtt`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<GridIn, A::Error> {
        let first = match map.next_key_seed(FirstKey)? {
            Some(GridKey::Uvtt) => {
                let file: crate::import::uvtt::UvttFile = map.next_value()?;
                if let Some(key) = map.next_key::<String>()? {
                    return Err(de::Error::unknown_field(&key, &["uvtt"]));
                }
                if crate::extract::shape_only() {
                    // Read again for its problems only: the file was converted, if at all, by
                    // the first read; converting it once per pass cost more than the pass.
                    return Ok(GridIn {
                        width: 1,
                        height: 1,
                        map: None,
                        cells: Vec::new(),
                        walls: Vec::new(),
                        light: bright(),
                        light_map: None,
                        lights: Vec::new(),
                        imported: None,
                    });
                }
                return Ok(crate::import::uvtt::inline(&file));
            }
            Some(GridKey::Other(key)) => Some(key),
            None => None,
        };
        GridIn::deserialize(de::value::MapAccessDeserializer::new(Prepend { first, map }))
    }
}

/// The first key of a grid object.
enum GridKey<'de> {
    Uvtt,
    Other(Cow<'de, str>),
}

struct FirstKey;

impl<'de> DeserializeSeed<'de> for FirstKey {
    type Value = GridKey<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<GridKey<'de>, D::Error> {
        deserializer.deserialize_identifier(FirstKey)
    }
}

impl<'de> Visitor<'de> for FirstKey {
    type Value = GridKey<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a grid key")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<GridKey<'de>, E> {
        Ok(if v == "uvtt" { GridKey::Uvtt } else { GridKey::Other(Cow::Borrowed(v)) })
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<GridKey<'de>, E> {
        Ok(if v == "uvtt" { GridKey::Uvtt } else { GridKey::Other(Cow::Owned(v.to_owned())) })
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<GridKey<'de>, E> {
        Ok(if v == "uvtt" { GridKey::Uvtt } else { GridKey::Other(Cow::Owned(v)) })
    }
}

/// A map whose first key, already read, is handed out again before the others.
struct Prepend<'de, A> {
    first: Option<Cow<'de, str>>,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Prepend<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(Cow::Borrowed(k)) => seed.deserialize(de::value::BorrowedStrDeserializer::new(k)).map(Some),
            Some(Cow::Owned(k)) => seed.deserialize(de::value::StringDeserializer::new(k)).map(Some),
            None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint().map(|n| n + usize::from(self.first.is_some()))
    }
}

/// The encounter's `grid` as the document states it: a grid, or a Universal VTT file.
pub struct EncounterGridIn;

impl utoipa::PartialSchema for EncounterGridIn {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::{OneOfBuilder, Ref};
        OneOfBuilder::new()
            .item(Ref::from_schema_name("GridIn"))
            .item(Ref::from_schema_name("UvttGridIn"))
            .description(Some(
                "The map: a grid, or an object whose only key is `uvtt`, a Universal VTT file (told apart by their required keys).",
            ))
            .into()
    }
}

impl ToSchema for EncounterGridIn {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        use utoipa::PartialSchema;
        schemas.push(("GridIn".into(), GridIn::schema()));
        <GridIn as ToSchema>::schemas(schemas);
        schemas.push(("UvttGridIn".into(), UvttGridIn::schema()));
        <UvttGridIn as ToSchema>::schemas(schemas);
    }
}

/// A grid given as a Universal VTT file (schema only: `GridIn` reads it).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct UvttGridIn {
    /// The file, as exported (`.dd2vtt`, `.uvtt`, `.df2vtt`); its `image` is skipped unread.
    uvtt: crate::import::uvtt::UvttFile,
}

fn bright() -> LightIn {
    LightIn::Bright
}

/// A light level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LightIn {
    /// Bright (normal) light.
    Bright,
    /// Dim light.
    Dim,
    /// Darkness.
    Darkness,
}

/// Terrain names for sparse cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TerrainIn {
    /// Open ground.
    Open,
    /// Solid: blocks movement, sight and effect.
    Solid,
    /// Low obstacle.
    Low,
    /// Concealing (lightly obscured).
    Concealing,
    /// Opaque but passable (heavily obscured).
    Opaque,
    /// Difficult terrain.
    Difficult,
    /// Deep water.
    Water,
}

/// One square's sparse terrain and light.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CellIn {
    /// Column.
    #[schema(minimum = -1000000, maximum = 1000000)]
    pub x: i64,
    /// Row.
    #[schema(minimum = -1000000, maximum = 1000000)]
    pub y: i64,
    /// Terrain kinds of the square (replacing the map's for that square).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::capped::opt_at_most::<7, _, _>"
    )]
    #[schema(max_items = 7)]
    pub terrain: Option<Vec<TerrainIn>>,
    /// Light level of the square.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<LightIn>,
}

/// A point in square units: `{x, y}` is the top-left corner of square `{x, y}`.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PointIn {
    /// East coordinate, squares (within the grid: 0 to its width).
    #[schema(minimum = 0, maximum = 1000)]
    pub x: f64,
    /// South coordinate, squares (within the grid: 0 to its height).
    #[schema(minimum = 0, maximum = 1000)]
    pub y: f64,
}

/// A grid square.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SquareIn {
    /// Column, from 0 at the left.
    #[schema(minimum = -1000000, maximum = 1000000)]
    pub x: i64,
    /// Row, from 0 at the top.
    #[schema(minimum = -1000000, maximum = 1000000)]
    pub y: i64,
}

/// A thin wall.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WallIn {
    /// One end.
    pub from: PointIn,
    /// Other end.
    pub to: PointIn,
    /// What it blocks.
    #[serde(default = "solid")]
    pub kind: WallKindIn,
}

fn solid() -> WallKindIn {
    WallKindIn::Solid
}

/// Wall kinds (RULES.md Q-41).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WallKindIn {
    /// Blocks movement, sight and effect.
    Solid,
    /// Low obstacle (half height).
    Low,
    /// Blocks movement and effect, not sight.
    Window,
    /// Improved / three-quarters cover; attacks pass.
    ArrowSlit,
    /// Ignored.
    DoorOpen,
    /// Blocks like solid.
    DoorClosed,
    /// Blocks movement only: sight, attacks and effects pass (a bar counter or a ledge drawn
    /// as a VTT's invisible wall).
    Barrier,
}

/// A point light source.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LightSourceIn {
    /// Where it shines from.
    pub at: PointIn,
    /// Radius of bright light, feet, measured on the grid from the source's square.
    #[schema(minimum = 0, maximum = 100000)]
    pub bright_ft: i64,
    /// Outer radius of dim light, feet (a torch: bright 20, dim 40 — dim light from 20 to
    /// 40 ft). A value below `bright_ft` means no dim band.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100000)]
    pub dim_ft: i64,
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

/// Gravity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GravityIn {
    /// Standard.
    #[default]
    Normal,
    /// Low.
    Low,
    /// High.
    High,
    /// Zero-g.
    Zero,
}

/// Size categories (which ones a ruleset knows: `GET /v1/rulesets`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SizeIn {
    /// Fine (PF1/SF).
    Fine,
    /// Diminutive (PF1/SF).
    Diminutive,
    /// Tiny.
    Tiny,
    /// Small.
    Small,
    /// Medium.
    Medium,
    /// Large.
    Large,
    /// Huge.
    Huge,
    /// Gargantuan.
    Gargantuan,
    /// Colossal (PF1/SF).
    Colossal,
}

/// Conditions (which ones a ruleset knows: `GET /v1/rulesets`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema, Serialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum ConditionIn {
    Blinded,
    Charged,
    Charmed,
    Confused,
    Cowering,
    Dazed,
    Dead,
    Deafened,
    Dodging,
    Dying,
    Entangled,
    Exhaustion,
    Exhausted,
    Fatigued,
    FlatFooted,
    Frightened,
    Grappled,
    Helpless,
    Hidden,
    Incapacitated,
    Invisible,
    OffKilter,
    Paralyzed,
    Petrified,
    Pinned,
    Poisoned,
    Prone,
    Restrained,
    Shaken,
    Squeezing,
    Stunned,
    Surprised,
    TiedUp,
    Unconscious,
}

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
    SizeIn::Medium
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

/// Weapon properties that some rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum WeaponPropertyIn {
    Ammunition,
    Brace,
    Disarm,
    Double,
    Finesse,
    Heavy,
    Light,
    Loading,
    Monk,
    Nonlethal,
    Reach,
    Special,
    Sunder,
    Thrown,
    Trip,
    TwoHanded,
    Versatile,
    Whip,
    Lance,
}

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
