//! Wire types of the battle map (`encounter.grid`): its size, terrain, walls and light. Read
//! either from their own fields or from a Universal VTT file (`{"uvtt": file}`): the reading
//! that tells the two apart is in `uvtt.rs`, which converts a file into these types.

use arbiter_rules::encounter::WallKind;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::bounds::Row;
use crate::error::Issue;

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
    pub imported: Option<Box<Inline>>,
}

/// The default ambient light.
pub(crate) fn bright() -> LightIn {
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
    WallKindIn(WallKind::Solid)
}

crate::closed::rules_set!(
    /// Wall kinds (RULES.md Q-41).
    WallKindIn(WallKind) = WallKind::ALL
);

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

impl Serialize for GridIn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GridIn::serialize(self, serializer)
    }
}

/// What an inline file's reading found wrong (pointers into the file), for the contract
/// check of the question that carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inline {
    /// Every bound the file breaks.
    pub problems: Vec<Issue>,
}
