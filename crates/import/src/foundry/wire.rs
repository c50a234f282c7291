//! Wire types of `POST /v1/import/foundry`: the request (a Foundry VTT scene export and the
//! caller's creatures overlay) and its bounds, checked before any work.
//!
//! The scene's types keep only the fields the importer reads; every other field of a real
//! export (the thumbnail's data URI, flags, drawings, notes, sounds, tiles, ...) is skipped
//! without being kept. The request itself and the overlay refuse unknown fields, as every
//! request of the API does.

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, SchemaType, Type};
use utoipa::{PartialSchema, ToSchema};

use arbiter_contract::api::contract::{Check, Contract};
use arbiter_contract::api::encounter::{ConditionIn, RulesetIn, SensesIn, SizeIn, StatsIn};
use arbiter_contract::error::Text;
use arbiter_contract::problems::between;

/// Largest magnitude of a pixel coordinate (walls, lights, tokens).
pub const COORD_PX: f64 = 10_000_000.0;
/// Largest scene width or height, pixels.
pub const SCENE_PX: f64 = 10_000_000.0;
/// Largest grid square, pixels.
pub const GRID_PX: f64 = 10_000.0;
/// Largest grid distance (scene units per square), light radius or threshold, scene units.
pub const UNITS: f64 = 1_000_000.0;
/// Largest magnitude of a token's elevation, scene units.
pub const ELEVATION: f64 = 100_000.0;
/// Largest token side, squares.
pub const TOKEN_SQUARES: f64 = 100.0;
/// Longest token name or overlay token reference, characters.
pub const NAME_CHARS: usize = 256;
/// Longest Foundry document id, version string or unit label, characters.
pub const SHORT_CHARS: usize = 64;

/// An import request: the scene as Foundry exports it, the ruleset, and the numbers
/// Foundry does not know (stats, conditions, senses) per token.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "scene": {
        "name": "Crypt",
        "width": 1000, "height": 600, "padding": 0.25,
        "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},
        "walls": [
            {"c": [700, 200, 700, 500], "move": 20, "sight": 20, "light": 20, "sound": 20, "dir": 0, "door": 0, "ds": 0},
            {"c": [700, 500, 700, 600], "move": 20, "sight": 20, "light": 20, "sound": 20, "dir": 0, "door": 1, "ds": 1}
        ],
        "lights": [{"x": 350, "y": 350, "config": {"bright": 20, "dim": 40}}],
        "tokens": [
            {"_id": "tok1", "name": "Valeros", "x": 400, "y": 400, "width": 1, "height": 1, "elevation": 0, "disposition": 1},
            {"_id": "tok2", "name": "Ogre", "x": 800, "y": 300, "width": 2, "height": 2, "elevation": 0, "disposition": -1}
        ],
        "_stats": {"coreVersion": "12.331"}
    },
    "ruleset": "dnd5e2014",
    "creatures": [{"token": "Ogre", "stats": {"ac": 11, "hp": 59}}]
}))]
pub struct FoundryImportRequest {
    /// The scene export (Foundry: right-click the scene, Export Data), as is.
    pub scene: SceneIn,
    /// The ruleset of the encounter (default `dnd5e2014`).
    #[serde(default)]
    pub ruleset: Option<RulesetIn>,
    /// What Foundry's scene does not carry, per token: matched by the token's `_id`, then
    /// by the creature id the import gives it, then by token name (a name given to several
    /// tokens applies to all of them). One naming no token is refused.
    #[serde(default, deserialize_with = "arbiter_contract::capped::creatures")]
    #[schema(max_items = 500)]
    pub creatures: Vec<OverlayIn>,
    /// How a wall that blocks movement but not sight (Foundry's invisible wall: a bar
    /// counter, a ledge) is read: `barrier` (default), which blocks movement only, as in
    /// Foundry; or `window`, which also blocks attacks and effects.
    #[serde(default)]
    pub invisible_walls: InvisibleWalls,
}

/// How Foundry's invisible walls (movement only) import.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InvisibleWalls {
    /// Blocks movement only (default).
    #[default]
    Barrier,
    /// Blocks movement, attacks and effects; sight passes.
    Window,
}

/// The fields of a Foundry scene export that the import reads (others are skipped).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct SceneIn {
    /// The grid: an object (Foundry 10+), or the square's size in pixels (older exports,
    /// with `gridType`, `gridDistance` and `gridUnits` beside it).
    #[serde(default)]
    #[schema(value_type = Option<GridField>)]
    pub grid: Option<GridField>,
    /// Older exports: the grid type (0 gridless, 1 square, 2 to 5 hexagonal).
    #[serde(default, rename = "gridType")]
    #[schema(minimum = 0, maximum = 5)]
    pub grid_type: Option<i64>,
    /// Older exports: scene units per square.
    #[serde(default, rename = "gridDistance")]
    #[schema(minimum = 0, maximum = 1000000)]
    pub grid_distance: Option<f64>,
    /// Older exports: the unit label.
    #[serde(default, rename = "gridUnits")]
    #[schema(max_length = 64)]
    pub grid_units: Option<String>,
    /// Padding around the scene, as a share of its width and height (Foundry: 0 to 0.5,
    /// default 0.25), rounded up to whole squares.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 0.5)]
    pub padding: Option<f64>,
    /// Width of the scene (its background), pixels (default 30 squares).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10000000)]
    pub width: Option<f64>,
    /// Height of the scene, pixels (default 20 squares).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10000000)]
    pub height: Option<f64>,
    /// Walls and doors.
    #[serde(default, deserialize_with = "arbiter_contract::capped::walls")]
    #[schema(max_items = 10000)]
    pub walls: Vec<FoundryWallIn>,
    /// Ambient lights.
    #[serde(default, deserialize_with = "arbiter_contract::capped::walls")]
    #[schema(max_items = 10000)]
    pub lights: Vec<FoundryLightIn>,
    /// Tokens: one creature each.
    #[serde(default, deserialize_with = "arbiter_contract::capped::creatures")]
    #[schema(max_items = 500)]
    pub tokens: Vec<FoundryTokenIn>,
    /// Document statistics (Foundry 10+): the version that wrote the scene.
    #[serde(default, rename = "_stats")]
    pub stats: Option<DocumentStatsIn>,
    /// Whether tokens see by the scene's light and walls (default true): when false, players
    /// see the whole map, and the import lights it everywhere.
    #[serde(default, rename = "tokenVision")]
    pub token_vision: Option<bool>,
    /// Foundry 9 to 11: the darkness level, 0 (day) to 1 (night).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1)]
    pub darkness: Option<f64>,
    /// Foundry 9 to 11: global illumination (the whole map lit, without light sources).
    #[serde(default, rename = "globalLight")]
    pub global_light: Option<bool>,
    /// Foundry 9 to 11: the darkness level above which global illumination is off (none:
    /// always on).
    #[serde(default, rename = "globalLightThreshold")]
    #[schema(minimum = 0, maximum = 1)]
    pub global_light_threshold: Option<f64>,
    /// Foundry 12+: the darkness level and global illumination.
    #[serde(default)]
    pub environment: Option<FoundryEnvironmentIn>,
    /// Foundry 10+: the background picture, and its offset.
    #[serde(default)]
    pub background: Option<FoundryBackgroundIn>,
    /// Before Foundry 10: the background picture's offset, pixels.
    #[serde(default, rename = "shiftX")]
    #[schema(minimum = -10000000, maximum = 10000000)]
    pub shift_x: Option<f64>,
    /// Before Foundry 10: the background picture's offset, pixels.
    #[serde(default, rename = "shiftY")]
    #[schema(minimum = -10000000, maximum = 10000000)]
    pub shift_y: Option<f64>,
}

/// A Foundry 12+ scene's environment.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundryEnvironmentIn {
    /// The darkness level, 0 (day) to 1 (night).
    #[serde(default, rename = "darknessLevel")]
    #[schema(minimum = 0, maximum = 1)]
    pub darkness_level: Option<f64>,
    /// Global illumination.
    #[serde(default, rename = "globalLight")]
    pub global_light: Option<FoundryGlobalLightIn>,
}

/// A Foundry 12+ scene's global illumination.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundryGlobalLightIn {
    /// Whether it is on.
    #[serde(default)]
    pub enabled: Option<bool>,
    /// Bright light (else dim light; Foundry's default: dim).
    #[serde(default)]
    pub bright: Option<bool>,
    /// The darkness levels within which it is on.
    #[serde(default)]
    pub darkness: Option<FoundryDarknessRangeIn>,
}

/// A range of darkness levels.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundryDarknessRangeIn {
    /// From (default 0).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1)]
    pub min: Option<f64>,
    /// To (default 1).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1)]
    pub max: Option<f64>,
}

/// A scene's background picture.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundryBackgroundIn {
    /// The picture's offset, pixels.
    #[serde(default, rename = "offsetX")]
    #[schema(minimum = -10000000, maximum = 10000000)]
    pub offset_x: Option<f64>,
    /// The picture's offset, pixels.
    #[serde(default, rename = "offsetY")]
    #[schema(minimum = -10000000, maximum = 10000000)]
    pub offset_y: Option<f64>,
}

/// A scene's grid: the object of Foundry 10+ or the size alone of older exports.
#[derive(Debug, Clone)]
pub enum GridField {
    /// Older exports: `"grid": 100`.
    Size(f64),
    /// Foundry 10+: `"grid": {"type": 1, "size": 100, ...}`.
    Config(FoundryGridIn),
}

impl<'de> Deserialize<'de> for GridField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> Visitor<'de> for Either {
            type Value = GridField;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a grid object or a grid size in pixels")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<GridField, E> {
                Ok(GridField::Size(v as f64))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<GridField, E> {
                Ok(GridField::Size(v as f64))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<GridField, E> {
                Ok(GridField::Size(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<GridField, A::Error> {
                FoundryGridIn::deserialize(de::value::MapAccessDeserializer::new(map)).map(GridField::Config)
            }
        }
        d.deserialize_any(Either)
    }
}

impl PartialSchema for GridField {
    fn schema() -> RefOr<Schema> {
        // One schema for both shapes, each bound applying to its own type (an object's
        // properties, a number's range), as JSON Schema reads them: a `oneOf` of an object and
        // a number would have nothing to discriminate on.
        let RefOr::T(Schema::Object(mut grid)) = FoundryGridIn::schema() else {
            return FoundryGridIn::schema();
        };
        grid.schema_type = SchemaType::from_iter([Type::Object, Type::Number]);
        grid.minimum = Some(1.into());
        grid.maximum = Some(10_000.into());
        grid.description = Some(
            "The grid: an object (Foundry 10+) or, in older exports, the square's size in pixels (1 to 10000)."
                .to_owned(),
        );
        RefOr::T(Schema::Object(grid))
    }
}

impl ToSchema for GridField {}

/// The grid of a Foundry 10+ scene.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundryGridIn {
    /// 0 gridless, 1 square, 2 to 5 hexagonal (`CONST.GRID_TYPES`); only square grids
    /// import.
    #[serde(default, rename = "type")]
    #[schema(minimum = 0, maximum = 5)]
    pub kind: Option<i64>,
    /// The side of a square, pixels (default 100).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10000)]
    pub size: Option<f64>,
    /// Scene units per square (5 for 5 ft).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub distance: Option<f64>,
    /// The unit label (`ft`, `m`).
    #[serde(default)]
    #[schema(max_length = 64)]
    pub units: Option<String>,
}

/// A wall of a Foundry scene (`WallDocument`).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundryWallIn {
    /// `[x0, y0, x1, y1]`, pixels.
    #[serde(deserialize_with = "arbiter_contract::capped::at_most::<4, _, _>")]
    #[schema(min_items = 4, max_items = 4, value_type = Vec<Coordinate>)]
    pub c: Vec<f64>,
    /// Movement restriction: 0 none, 20 normal (older: 1).
    #[serde(default, rename = "move")]
    #[schema(value_type = Option<SenseLevel>)]
    pub movement: Option<i64>,
    /// Sight restriction: 0 none, 10 limited, 20 normal, 30 proximity, 40 distance
    /// (older: 1 normal, 2 limited).
    #[serde(default)]
    #[schema(value_type = Option<SenseLevel>)]
    pub sight: Option<i64>,
    /// Light restriction (same levels; not imported: light sources are blocked as sight is).
    #[serde(default)]
    #[schema(value_type = Option<SenseLevel>)]
    pub light: Option<i64>,
    /// Sound restriction (same levels; not imported).
    #[serde(default)]
    #[schema(value_type = Option<SenseLevel>)]
    pub sound: Option<i64>,
    /// Exports before Foundry 9: sight and light together.
    #[serde(default)]
    #[schema(value_type = Option<SenseLevel>)]
    pub sense: Option<i64>,
    /// 0 both ways, 1 left only, 2 right only.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 2)]
    pub dir: Option<i64>,
    /// 0 no door, 1 door, 2 secret door.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 2)]
    pub door: Option<i64>,
    /// Door state: 0 closed, 1 open, 2 locked.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 2)]
    pub ds: Option<i64>,
    /// Proximity thresholds (Foundry 11+), scene units.
    #[serde(default)]
    pub threshold: Option<ThresholdIn>,
}

/// A wall's proximity thresholds, scene units.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct ThresholdIn {
    /// For light.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub light: Option<f64>,
    /// For sight.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub sight: Option<f64>,
    /// For sound.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub sound: Option<f64>,
}

/// An ambient light of a Foundry scene (`AmbientLightDocument`).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundryLightIn {
    /// Centre, pixels.
    #[serde(default)]
    #[schema(minimum = -10000000, maximum = 10000000)]
    pub x: f64,
    /// Centre, pixels.
    #[serde(default)]
    #[schema(minimum = -10000000, maximum = 10000000)]
    pub y: f64,
    /// The light's radii.
    #[serde(default)]
    pub config: Option<LightConfigIn>,
    /// Switched off.
    #[serde(default)]
    pub hidden: Option<bool>,
    /// Before Foundry 9: the radius of dim light, scene units (`config.dim` since).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub dim: Option<f64>,
    /// Before Foundry 9: the radius of bright light, scene units (`config.bright` since).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub bright: Option<f64>,
}

/// A light's radii, scene units.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct LightConfigIn {
    /// Radius of bright light.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub bright: Option<f64>,
    /// Outer radius of dim light.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub dim: Option<f64>,
    /// Foundry 9 to 11: a negative luminosity makes the source one of darkness.
    #[serde(default)]
    #[schema(minimum = -1, maximum = 1)]
    pub luminosity: Option<f64>,
    /// Foundry 12+: a source of darkness.
    #[serde(default)]
    pub negative: Option<bool>,
}

/// A token of a Foundry scene (`TokenDocument`).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundryTokenIn {
    /// The token's id.
    #[serde(default, rename = "_id")]
    #[schema(max_length = 64)]
    pub id: Option<String>,
    /// The token's name.
    #[serde(default)]
    #[schema(max_length = 256)]
    pub name: Option<String>,
    /// The actor it represents.
    #[serde(default, rename = "actorId")]
    #[schema(max_length = 64)]
    pub actor_id: Option<String>,
    /// Top-left corner, pixels.
    #[serde(default)]
    #[schema(minimum = -10000000, maximum = 10000000)]
    pub x: f64,
    /// Top-left corner, pixels.
    #[serde(default)]
    #[schema(minimum = -10000000, maximum = 10000000)]
    pub y: f64,
    /// Width, squares (default 1).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub width: Option<f64>,
    /// Height, squares (default 1).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100)]
    pub height: Option<f64>,
    /// Elevation, scene units.
    #[serde(default)]
    #[schema(minimum = -100000, maximum = 100000)]
    pub elevation: Option<f64>,
    /// 1 friendly, 0 neutral, -1 hostile (default), -2 secret.
    #[serde(default)]
    #[schema(minimum = -2, maximum = 1)]
    pub disposition: Option<i64>,
    /// Hidden from the players.
    #[serde(default)]
    pub hidden: Option<bool>,
    /// Foundry 10+: the light the token carries (a torch-bearer's), scene units.
    #[serde(default)]
    pub light: Option<LightConfigIn>,
    /// Before Foundry 10: the radius of the dim light the token carries, scene units.
    #[serde(default, rename = "dimLight")]
    #[schema(minimum = 0, maximum = 1000000)]
    pub dim_light: Option<f64>,
    /// Before Foundry 10: the radius of the bright light the token carries, scene units.
    #[serde(default, rename = "brightLight")]
    #[schema(minimum = 0, maximum = 1000000)]
    pub bright_light: Option<f64>,
    /// Foundry 10+: the token's vision.
    #[serde(default)]
    pub sight: Option<FoundrySightIn>,
    /// Before Foundry 10: how far the token sees in the dark as in dim light (darkvision in
    /// the 5e system), scene units.
    #[serde(default, rename = "dimSight")]
    #[schema(minimum = 0, maximum = 1000000)]
    pub dim_sight: Option<f64>,
    /// Foundry 10+: the token's senses beyond sight (`blindsight`, `feelTremor`, `seeAll`,
    /// `seeInvisibility`), read as a list of `{id, enabled, range}` (other shapes are
    /// skipped).
    #[serde(default, rename = "detectionModes", deserialize_with = "detection_modes")]
    #[schema(value_type = Option<FoundryDetectionModes>)]
    pub detection_modes: Vec<FoundryDetectionModeIn>,
}

/// A Foundry 10+ token's vision.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundrySightIn {
    /// Whether the token has vision.
    #[serde(default)]
    pub enabled: Option<bool>,
    /// How far it sees in the dark, scene units.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub range: Option<f64>,
    /// The vision mode (`basic`, `darkvision`, ...).
    #[serde(default, rename = "visionMode")]
    #[schema(max_length = 64)]
    pub vision_mode: Option<String>,
}

/// A Foundry 10+ token's detection mode.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct FoundryDetectionModeIn {
    /// The mode (`blindsight`, `feelTremor`, `seeAll`, `seeInvisibility`, ...).
    #[serde(default)]
    #[schema(max_length = 64)]
    pub id: Option<String>,
    /// Whether it is on (default true).
    #[serde(default)]
    pub enabled: Option<bool>,
    /// Its range, scene units.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000)]
    pub range: Option<f64>,
}

/// A token's `detectionModes` as the document states it: a list of at most
/// [`DETECTION_MODES`] modes (Foundry 10 to 12), or an object (skipped, as a later Foundry's
/// shape may be).
pub struct FoundryDetectionModes;

impl PartialSchema for FoundryDetectionModes {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::schema::ArrayBuilder;
        // One schema for both shapes, `items` and `maxItems` applying to a list only, as JSON
        // Schema reads them (see `GridField`: a `oneOf` would have nothing to discriminate on).
        ArrayBuilder::new()
            .schema_type(SchemaType::from_iter([Type::Array, Type::Object]))
            .items(FoundryDetectionModeIn::schema())
            .max_items(Some(DETECTION_MODES))
            .description(Some(
                "The token's detection modes: a list of `{id, enabled, range}`, or an object (skipped).",
            ))
            .into()
    }
}

impl ToSchema for FoundryDetectionModes {}

/// Most detection modes a token may list.
pub const DETECTION_MODES: usize = 32;

/// A token's `detectionModes`: a list of at most [`DETECTION_MODES`] modes, read; any other
/// shape (a later Foundry's) skipped, as fields the import does not read are.
fn detection_modes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<FoundryDetectionModeIn>, D::Error> {
    struct Modes;
    impl<'de> Visitor<'de> for Modes {
        type Value = Vec<FoundryDetectionModeIn>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of detection modes")
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            arbiter_contract::capped::at_most::<DETECTION_MODES, _, FoundryDetectionModeIn>(
                de::value::SeqAccessDeserializer::new(seq),
            )
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            de::IgnoredAny::deserialize(de::value::MapAccessDeserializer::new(map))?;
            Ok(Vec::new())
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
    }
    d.deserialize_any(Modes)
}

/// Document statistics.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct DocumentStatsIn {
    /// The Foundry version that last wrote the document (`12.331`).
    #[serde(default, rename = "coreVersion")]
    #[schema(max_length = 64)]
    pub core_version: Option<String>,
}

/// What the caller adds to the creature of a token (validated as an encounter's creature).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OverlayIn {
    /// The token: its `_id`, the creature id the import gives it, or its name (then every
    /// token of that name).
    #[schema(min_length = 1, max_length = 256)]
    pub token: String,
    /// Side, replacing the one from the token's disposition.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 64)]
    pub side: Option<String>,
    /// Size category, replacing the one from the token's footprint.
    #[serde(default)]
    pub size: Option<SizeIn>,
    /// The numbers the ruleset needs.
    #[serde(default)]
    pub stats: Option<StatsIn>,
    /// Special senses.
    #[serde(default)]
    pub senses: Option<SensesIn>,
    /// Conditions.
    #[serde(
        default,
        deserialize_with = "arbiter_contract::capped::at_most::<{ arbiter_contract::api::bounds::TAGS }, _, _>"
    )]
    #[schema(max_items = 64)]
    pub conditions: Vec<ConditionIn>,
}

/// A pixel coordinate (schema only).
pub struct Coordinate;

impl PartialSchema for Coordinate {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Number)
            .minimum(Some(-10_000_000))
            .maximum(Some(10_000_000))
            .description(Some("A coordinate, pixels."))
            .into()
    }
}

impl ToSchema for Coordinate {}

/// The restriction levels a wall may state (schema only).
pub struct SenseLevel;

/// Foundry 9+ levels (`CONST.WALL_SENSE_TYPES`) and the older 1 (normal) and 2 (limited).
pub const SENSE_LEVELS: [i64; 7] = [0, 1, 2, 10, 20, 30, 40];

impl PartialSchema for SenseLevel {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
            .minimum(Some(0))
            .maximum(Some(40))
            .enum_values(Some(SENSE_LEVELS))
            .description(Some(
                "0 none, 10 limited, 20 normal, 30 proximity, 40 distance (older exports: 1 normal, 2 limited).",
            ))
            .into()
    }
}

impl ToSchema for SenseLevel {}

/// `v` must be finite and within `lo..=hi`.
fn float(c: &mut Check<'_>, name: &'static str, v: f64, lo: f64, hi: f64) {
    if !(v.is_finite() && (lo..=hi).contains(&v)) {
        c.at(name, |c| c.push(between(lo, hi)));
    }
}

fn opt_float(c: &mut Check<'_>, name: &'static str, v: Option<f64>, lo: f64, hi: f64) {
    if let Some(v) = v {
        float(c, name, v, lo, hi);
    }
}

fn opt_chars(c: &mut Check<'_>, name: &'static str, s: Option<&str>, max: usize) {
    if let Some(s) = s {
        c.chars(Some(name), s, 0, max);
    }
}

fn level(c: &mut Check<'_>, name: &'static str, v: Option<i64>) {
    if let Some(v) = v
        && !SENSE_LEVELS.contains(&v)
    {
        c.at(name, |c| {
            c.push(Text::new(
                "must be one of 0, 10, 20, 30, 40 (or 1, 2 in older exports)",
                "doit être l'une des valeurs 0, 10, 20, 30, 40 (ou 1, 2 dans les exports anciens)",
            ))
        });
    }
}

fn opt_int(c: &mut Check<'_>, name: &'static str, v: Option<i64>, lo: i64, hi: i64) {
    if let Some(v) = v {
        c.int(name, v, lo, hi);
    }
}

impl Contract for FoundryImportRequest {
    fn check(&self, c: &mut Check<'_>) {
        c.at("scene", |c| scene(c, &self.scene));
        let max = c.limits.max_creatures as usize;
        c.list("creatures", &self.creatures, max, |c, o| {
            c.chars(Some("token"), &o.token, 1, NAME_CHARS);
            c.opt_id("side", o.side.as_deref());
            if let Some(s) = &o.stats {
                c.at("stats", |c| c.stats(s));
            }
            if let Some(s) = &o.senses {
                c.at("senses", |c| c.senses(s));
            }
            c.list("conditions", &o.conditions, arbiter_contract::api::bounds::TAGS, |_, _| {});
        });
    }
}

fn scene(c: &mut Check<'_>, s: &SceneIn) {
    match &s.grid {
        Some(GridField::Size(v)) => float(c, "grid", *v, 1.0, GRID_PX),
        Some(GridField::Config(g)) => c.at("grid", |c| {
            opt_int(c, "type", g.kind, 0, 5);
            opt_float(c, "size", g.size, 1.0, GRID_PX);
            opt_float(c, "distance", g.distance, 0.0, UNITS);
            opt_chars(c, "units", g.units.as_deref(), SHORT_CHARS);
        }),
        None => {}
    }
    opt_int(c, "gridType", s.grid_type, 0, 5);
    opt_float(c, "gridDistance", s.grid_distance, 0.0, UNITS);
    opt_chars(c, "gridUnits", s.grid_units.as_deref(), SHORT_CHARS);
    opt_float(c, "padding", s.padding, 0.0, 0.5);
    opt_float(c, "width", s.width, 1.0, SCENE_PX);
    opt_float(c, "height", s.height, 1.0, SCENE_PX);
    let walls = c.limits.max_walls as usize;
    c.list("walls", &s.walls, walls, wall);
    c.list("lights", &s.lights, walls, |c, l| {
        float(c, "x", l.x, -COORD_PX, COORD_PX);
        float(c, "y", l.y, -COORD_PX, COORD_PX);
        if let Some(cfg) = &l.config {
            c.at("config", |c| light_config(c, cfg));
        }
        opt_float(c, "bright", l.bright, 0.0, UNITS);
        opt_float(c, "dim", l.dim, 0.0, UNITS);
    });
    opt_float(c, "darkness", s.darkness, 0.0, 1.0);
    opt_float(c, "globalLightThreshold", s.global_light_threshold, 0.0, 1.0);
    if let Some(e) = &s.environment {
        c.at("environment", |c| {
            opt_float(c, "darknessLevel", e.darkness_level, 0.0, 1.0);
            if let Some(range) = e.global_light.as_ref().and_then(|g| g.darkness.as_ref()) {
                c.at("globalLight", |c| {
                    c.at("darkness", |c| {
                        opt_float(c, "min", range.min, 0.0, 1.0);
                        opt_float(c, "max", range.max, 0.0, 1.0);
                    })
                });
            }
        });
    }
    if let Some(b) = &s.background {
        c.at("background", |c| {
            opt_float(c, "offsetX", b.offset_x, -COORD_PX, COORD_PX);
            opt_float(c, "offsetY", b.offset_y, -COORD_PX, COORD_PX);
        });
    }
    opt_float(c, "shiftX", s.shift_x, -COORD_PX, COORD_PX);
    opt_float(c, "shiftY", s.shift_y, -COORD_PX, COORD_PX);
    let max = c.limits.max_creatures as usize;
    c.list("tokens", &s.tokens, max, token);
    if let Some(st) = &s.stats {
        c.at("_stats", |c| opt_chars(c, "coreVersion", st.core_version.as_deref(), SHORT_CHARS));
    }
}

fn wall(c: &mut Check<'_>, w: &FoundryWallIn) {
    c.list("c", &w.c, 4, |c, v| {
        if !(v.is_finite() && (-COORD_PX..=COORD_PX).contains(v)) {
            c.push(between(-COORD_PX, COORD_PX));
        }
    });
    if w.c.len() < 4 {
        c.at("c", |c| {
            c.push(Text::new(
                "must be 4 numbers: [x0, y0, x1, y1] in pixels",
                "doit être 4 nombres : [x0, y0, x1, y1] en pixels",
            ))
        });
    }
    for (name, v) in
        [("move", w.movement), ("sight", w.sight), ("light", w.light), ("sound", w.sound), ("sense", w.sense)]
    {
        level(c, name, v);
    }
    opt_int(c, "dir", w.dir, 0, 2);
    opt_int(c, "door", w.door, 0, 2);
    opt_int(c, "ds", w.ds, 0, 2);
    if let Some(t) = &w.threshold {
        c.at("threshold", |c| {
            opt_float(c, "light", t.light, 0.0, UNITS);
            opt_float(c, "sight", t.sight, 0.0, UNITS);
            opt_float(c, "sound", t.sound, 0.0, UNITS);
        });
    }
}

fn token(c: &mut Check<'_>, t: &FoundryTokenIn) {
    opt_chars(c, "_id", t.id.as_deref(), SHORT_CHARS);
    opt_chars(c, "name", t.name.as_deref(), NAME_CHARS);
    opt_chars(c, "actorId", t.actor_id.as_deref(), SHORT_CHARS);
    float(c, "x", t.x, -COORD_PX, COORD_PX);
    float(c, "y", t.y, -COORD_PX, COORD_PX);
    opt_float(c, "width", t.width, 0.0, TOKEN_SQUARES);
    opt_float(c, "height", t.height, 0.0, TOKEN_SQUARES);
    opt_float(c, "elevation", t.elevation, -ELEVATION, ELEVATION);
    opt_int(c, "disposition", t.disposition, -2, 1);
    if let Some(l) = &t.light {
        c.at("light", |c| light_config(c, l));
    }
    opt_float(c, "dimLight", t.dim_light, 0.0, UNITS);
    opt_float(c, "brightLight", t.bright_light, 0.0, UNITS);
    opt_float(c, "dimSight", t.dim_sight, 0.0, UNITS);
    if let Some(sight) = &t.sight {
        c.at("sight", |c| {
            opt_float(c, "range", sight.range, 0.0, UNITS);
            opt_chars(c, "visionMode", sight.vision_mode.as_deref(), SHORT_CHARS);
        });
    }
    c.list("detectionModes", &t.detection_modes, DETECTION_MODES, |c, m| {
        opt_chars(c, "id", m.id.as_deref(), SHORT_CHARS);
        opt_float(c, "range", m.range, 0.0, UNITS);
    });
}

fn light_config(c: &mut Check<'_>, cfg: &LightConfigIn) {
    opt_float(c, "bright", cfg.bright, 0.0, UNITS);
    opt_float(c, "dim", cfg.dim, 0.0, UNITS);
    opt_float(c, "luminosity", cfg.luminosity, -1.0, 1.0);
}
