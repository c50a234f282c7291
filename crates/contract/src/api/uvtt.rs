//! Universal VTT files (`.dd2vtt`, `.uvtt`, `.df2vtt`: Dungeondraft, DungeonFog, Arkenforge…)
//! to an Arbiter grid: the wire types of the format (which the OpenAPI document states), the
//! bounds every file must keep, and the pure conversion ([`convert`]) that the inline
//! `"grid": {"uvtt": …}` of every question and `arbiter-import`'s `POST /v1/import/uvtt` share.
//! Here, not in the import crate, because a question's grid may be such a file. What each
//! field becomes, and why, is README.md's "Importing a map".
//!
//! Unknown fields are ignored at every level (real exports carry `software`, `creator` and
//! fields of later versions), and the `image` (a base64 picture of megabytes) is skipped
//! as it is read, never kept.

pub mod convert;

use serde::Deserialize;
use serde::de::IgnoredAny;
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};

use std::borrow::Cow;

use serde::Deserializer;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};

use super::map::{GridIn, Inline, bright};
use crate::error::{Issue, Text};
use crate::limits::Limits;
use crate::problems::between;

/// The format versions read.
pub const FORMATS: [f64; 3] = [0.2, 0.3, 1.0];
/// Largest magnitude of a coordinate, squares (beyond it a file is refused, not clipped).
pub const COORD: i64 = 1_000_000;
/// Largest light range, squares (100,000 ft, the largest light radius of a grid).
pub const RANGE: i64 = 20_000;
/// Largest light intensity.
pub const INTENSITY: i64 = 1000;
/// Largest portal rotation, radians.
pub const ROTATION: i64 = 1000;
/// Largest `pixels_per_grid`.
pub const PIXELS: i64 = 100_000;
/// Most polylines, portals or lights in one list (the default of `ARBITER_MAX_WALLS`).
pub const ITEMS: usize = 10_000;
/// Most points in one polyline. (Each maximum the document states costs schemathesis's
/// coverage phase time in proportion, on every question that takes a grid: 10,001 made its
/// run of one operation 90 s instead of 15 s.)
pub const POINTS: usize = 1000;
/// Longest colour string.
pub const COLOUR_CHARS: usize = 16;

/// A Universal VTT file, as Dungeondraft, DungeonFog, Arkenforge and others export it.
/// Coordinates are in squares, absolute: `resolution.map_origin` is subtracted from every
/// point. Fields not listed here are ignored.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[schema(example = json!({
    "format": 0.3,
    "resolution": {"map_origin": {"x": 3, "y": 5}, "map_size": {"x": 10, "y": 7}, "pixels_per_grid": 100},
    "line_of_sight": [
        [{"x": 4, "y": 6}, {"x": 12, "y": 6}, {"x": 12, "y": 7}],
        [{"x": 12, "y": 8}, {"x": 12, "y": 11}, {"x": 4, "y": 11}, {"x": 4, "y": 9}],
        [{"x": 4, "y": 8}, {"x": 4, "y": 6}]
    ],
    "objects_line_of_sight": [
        [{"x": 7, "y": 8}, {"x": 8, "y": 8}, {"x": 8, "y": 9}, {"x": 7, "y": 9}, {"x": 7, "y": 8}]
    ],
    "portals": [
        {"position": {"x": 12, "y": 7.5}, "bounds": [{"x": 12, "y": 7}, {"x": 12, "y": 8}],
         "rotation": 1.57, "closed": true, "freestanding": false},
        {"position": {"x": 4, "y": 8.5}, "bounds": [{"x": 4, "y": 8}, {"x": 4, "y": 9}],
         "rotation": 1.57, "closed": false, "freestanding": false}
    ],
    "environment": {"baked_lighting": false, "ambient_light": "ff404040"},
    "lights": [
        {"position": {"x": 5.5, "y": 7.5}, "range": 4, "intensity": 1, "color": "ffffffff", "shadows": true},
        {"position": {"x": 10.5, "y": 9.5}, "range": 6, "intensity": 0.5, "color": "ffff9329", "shadows": true}
    ],
    "image": "iVBORw0KGgo="
}))]
pub struct UvttFile {
    /// Format version: 0.2 or 0.3 (others are refused).
    #[schema(value_type = FormatVersion)]
    pub format: f64,
    /// Where the map lies and how large it is.
    pub resolution: ResolutionIn,
    /// Walls: polylines of points (each consecutive pair a wall).
    #[serde(default, deserialize_with = "crate::capped::nested::<ITEMS, POINTS, _, _>")]
    #[schema(max_items = 10000, value_type = Vec<Polyline>)]
    pub line_of_sight: Vec<Vec<UvttPointIn>>,
    /// Outlines of objects that block sight (pillars, trees), format 0.3.
    #[serde(default, deserialize_with = "crate::capped::nested::<ITEMS, POINTS, _, _>")]
    #[schema(max_items = 10000, value_type = Vec<Polyline>)]
    pub objects_line_of_sight: Vec<Vec<UvttPointIn>>,
    /// Doors and windows.
    #[serde(default, deserialize_with = "crate::capped::at_most::<ITEMS, _, _>")]
    #[schema(max_items = 10000)]
    pub portals: Vec<PortalIn>,
    /// Ambient light.
    #[serde(default)]
    pub environment: Option<UvttEnvironmentIn>,
    /// Light sources.
    #[serde(default, deserialize_with = "crate::capped::at_most::<ITEMS, _, _>")]
    #[schema(max_items = 10000)]
    pub lights: Vec<UvttLightIn>,
    /// The map's picture, base64: skipped as it is read, never kept, whatever it holds (the
    /// import body limit, `ARBITER_MAX_IMPORT_BYTES`, bounds it).
    #[serde(default)]
    #[schema(value_type = Base64Image)]
    pub image: Option<IgnoredAny>,
}

/// Where the map lies and how large it is.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ResolutionIn {
    /// The map's top-left corner, squares (subtracted from every point; default 0, 0).
    #[serde(default)]
    pub map_origin: Option<UvttPointIn>,
    /// The map's size, squares: `x` columns, `y` rows (each at most `ARBITER_MAX_GRID_SIDE`).
    pub map_size: MapSizeIn,
    /// Pixels per square of the picture (not needed: coordinates are in squares).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 100000)]
    pub pixels_per_grid: Option<f64>,
}

/// A map's size in squares.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
pub struct MapSizeIn {
    /// Columns.
    #[schema(minimum = 1, maximum = 1000)]
    pub x: f64,
    /// Rows.
    #[schema(minimum = 1, maximum = 1000)]
    pub y: f64,
}

/// A point, squares (absolute: the map origin is subtracted).
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
pub struct UvttPointIn {
    /// East coordinate, squares.
    #[schema(minimum = -1000000, maximum = 1000000)]
    pub x: f64,
    /// South coordinate, squares.
    #[schema(minimum = -1000000, maximum = 1000000)]
    pub y: f64,
}

/// A door or window.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct PortalIn {
    /// Its centre (not needed: `bounds` give the segment).
    pub position: UvttPointIn,
    /// Its two ends.
    #[serde(deserialize_with = "crate::capped::exactly::<2, _, _>")]
    #[schema(min_items = 2, max_items = 2)]
    pub bounds: Vec<UvttPointIn>,
    /// Its angle, radians (not needed: `bounds` give the segment).
    #[serde(default)]
    #[schema(minimum = -1000, maximum = 1000)]
    pub rotation: f64,
    /// It blocks light (a closed door); `false` for an open doorway or a window.
    #[serde(default = "yes")]
    pub closed: bool,
    /// It stands on its own, in no wall.
    #[serde(default)]
    pub freestanding: bool,
}

fn yes() -> bool {
    true
}

/// The file's lighting.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct UvttEnvironmentIn {
    /// The picture has its lighting painted in.
    #[serde(default)]
    pub baked_lighting: bool,
    /// Ambient light colour, ARGB hex (`ffffffff` white daylight).
    #[serde(default)]
    #[schema(max_length = 16)]
    pub ambient_light: Option<String>,
}

/// A light source.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct UvttLightIn {
    /// Where it shines from.
    pub position: UvttPointIn,
    /// Its radius, squares.
    #[schema(minimum = 0, maximum = 20000)]
    pub range: f64,
    /// Its strength (1 a normal light).
    #[serde(default = "one")]
    #[schema(minimum = 0, maximum = 1000)]
    pub intensity: f64,
    /// Its colour, ARGB hex.
    #[serde(default)]
    #[schema(max_length = 16)]
    pub color: Option<String>,
    /// Walls stop it (`false`: it shines through them).
    #[serde(default = "yes")]
    pub shadows: bool,
}

fn one() -> f64 {
    1.0
}

/// Schema-only types of the file.
pub struct FormatVersion;

impl utoipa::PartialSchema for FormatVersion {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Number)
            .enum_values(Some(FORMATS))
            .minimum(Some(0.2))
            .maximum(Some(1.0))
            .description(Some(
                "A Universal VTT format version (1.0, Arkenforge's current exports, is read as 0.3: the same fields).",
            ))
            .into()
    }
}

impl ToSchema for FormatVersion {}

/// A polyline: at most [`POINTS`] points.
pub struct Polyline;

impl utoipa::PartialSchema for Polyline {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            .items(utoipa::openapi::Ref::from_schema_name("UvttPointIn"))
            .max_items(Some(POINTS))
            .description(Some("Points joined by walls, in order (at most 1,000: split a longer one)."))
            .into()
    }
}

impl ToSchema for Polyline {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        use utoipa::PartialSchema;
        schemas.push(("UvttPointIn".into(), UvttPointIn::schema()));
    }
}

/// The picture: any value, skipped unread. (Its type cannot be checked without reading it
/// whole, which is what skipping avoids; exporters write a base64 string.)
pub struct Base64Image;

impl utoipa::PartialSchema for Base64Image {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
            .description(Some(
                "The map's picture, a base64 string in exported files: any value is skipped unread (the body limit bounds it).",
            ))
            .into()
    }
}

impl ToSchema for Base64Image {}

/// The grid of an inline file, read as part of a question (`"grid": {"uvtt": …}`): a
/// placeholder of one square when the file breaks a bound, refused by the contract check.
pub fn inline(file: &UvttFile) -> GridIn {
    let problems = bounds(file);
    let mut grid =
        if problems.is_empty() { convert::convert(file, usize::MAX).0 } else { convert::empty(1, 1) };
    grid.imported = Some(Box::new(Inline { problems }));
    grid
}

/// Every bound of the file the document states that is not a setting, before any work:
/// pointers into the file.
pub fn bounds(f: &UvttFile) -> Vec<Issue> {
    let mut out = Vec::new();
    if !FORMATS.contains(&f.format) {
        out.push(Issue::new(
            "/format",
            Text::new(
                format!("format {} is not read; one of: 0.2, 0.3, 1.0", f.format),
                format!("le format {} n'est pas lu ; l'un de : 0.2, 0.3, 1.0", f.format),
            ),
        ));
    }
    let r = &f.resolution;
    if let Some(o) = &r.map_origin {
        point(&mut out, "/resolution/map_origin", o);
    }
    number(&mut out, || "/resolution/map_size/x".into(), r.map_size.x, 1, COORD);
    number(&mut out, || "/resolution/map_size/y".into(), r.map_size.y, 1, COORD);
    if let Some(p) = r.pixels_per_grid {
        number(&mut out, || "/resolution/pixels_per_grid".into(), p, 1, PIXELS);
    }
    for (name, list) in
        [("line_of_sight", &f.line_of_sight), ("objects_line_of_sight", &f.objects_line_of_sight)]
    {
        items(&mut out, name, list.len(), ITEMS);
        for (i, line) in list.iter().enumerate().take(ITEMS) {
            items(&mut out, &format!("{name}/{i}"), line.len(), POINTS);
            for (j, p) in line.iter().enumerate().take(POINTS) {
                point(&mut out, &format!("/{name}/{i}/{j}"), p);
            }
        }
    }
    portals(&mut out, &f.portals);
    if let Some(e) = &f.environment {
        colour(&mut out, || "/environment/ambient_light".into(), e.ambient_light.as_deref());
    }
    lights(&mut out, &f.lights);
    out
}

fn portals(out: &mut Vec<Issue>, portals: &[PortalIn]) {
    items(out, "portals", portals.len(), ITEMS);
    for (i, p) in portals.iter().enumerate().take(ITEMS) {
        point(out, &format!("/portals/{i}/position"), &p.position);
        if p.bounds.len() != 2 {
            out.push(Issue::new(
                format!("/portals/{i}/bounds"),
                Text::new("must hold exactly 2 points", "doit contenir exactement 2 points"),
            ));
        }
        for (j, b) in p.bounds.iter().enumerate().take(2) {
            point(out, &format!("/portals/{i}/bounds/{j}"), b);
        }
        number(out, || format!("/portals/{i}/rotation"), p.rotation, -ROTATION, ROTATION);
    }
}

fn lights(out: &mut Vec<Issue>, lights: &[UvttLightIn]) {
    items(out, "lights", lights.len(), ITEMS);
    for (i, l) in lights.iter().enumerate().take(ITEMS) {
        point(out, &format!("/lights/{i}/position"), &l.position);
        number(out, || format!("/lights/{i}/range"), l.range, 0, RANGE);
        number(out, || format!("/lights/{i}/intensity"), l.intensity, 0, INTENSITY);
        colour(out, || format!("/lights/{i}/color"), l.color.as_deref());
    }
}

fn items(out: &mut Vec<Issue>, name: &str, len: usize, max: usize) {
    if len > max {
        out.push(Issue::new(format!("/{name}"), crate::problems::at_most(max, ("items", "éléments"))));
    }
}

fn point(out: &mut Vec<Issue>, base: &str, p: &UvttPointIn) {
    number(out, || format!("{base}/x"), p.x, -COORD, COORD);
    number(out, || format!("{base}/y"), p.y, -COORD, COORD);
}

/// A number within `lo..=hi` (JSON numbers are finite; the check keeps the conversion's
/// arithmetic far from overflow).
fn number(out: &mut Vec<Issue>, pointer: impl FnOnce() -> String, v: f64, lo: i64, hi: i64) {
    if !(v.is_finite() && (lo as f64..=hi as f64).contains(&v)) {
        out.push(Issue::new(pointer(), between(lo, hi)));
    }
}

fn colour(out: &mut Vec<Issue>, pointer: impl FnOnce() -> String, c: Option<&str>) {
    if let Some(c) = c
        && c.len() > COLOUR_CHARS
        && c.chars().count() > COLOUR_CHARS
    {
        out.push(Issue::new(
            pointer(),
            Text::new(
                format!("must be at most {COLOUR_CHARS} characters"),
                format!("doit faire au plus {COLOUR_CHARS} caractères"),
            ),
        ));
    }
}

/// The bounds that are settings, on the converted grid: pointers into the file.
pub fn sizes(g: &GridIn, limits: &Limits) -> Vec<Issue> {
    let mut out = Vec::new();
    let side = i64::from(limits.max_grid_side);
    for (axis, v) in [("x", g.width), ("y", g.height)] {
        if !(1..=side).contains(&v) {
            out.push(Issue::new(
                format!("/resolution/map_size/{axis}"),
                Text::new(
                    format!("must be between 1 and {side} squares (ARBITER_MAX_GRID_SIDE)"),
                    format!("doit être entre 1 et {side} cases (ARBITER_MAX_GRID_SIDE)"),
                ),
            ));
        }
    }
    let max = limits.max_walls as usize;
    for (pointer, n, what) in [
        ("/line_of_sight", g.walls.len(), ("walls", "murs")),
        ("/lights", g.lights.len(), ("lights", "lumières")),
    ] {
        if n > max {
            // The conversion keeps one wall past the limit, no more: "more than".
            out.push(Issue::new(
                pointer,
                Text::new(
                    format!("the file makes more than {max} {} (ARBITER_MAX_WALLS)", what.0),
                    format!("le fichier donne plus de {max} {} (ARBITER_MAX_WALLS)", what.1),
                ),
            ));
        }
    }
    out
}

/// The keys a grid object may hold (the derived grid's, and `uvtt`).
const GRID_KEYS: &[&str] =
    &["width", "height", "map", "cells", "walls", "light", "light_map", "lights", "uvtt"];

impl<'de> Deserialize<'de> for GridIn {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct("GridIn", GRID_KEYS, GridVisitor)
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
                let file: UvttFile = map.next_value()?;
                if let Some(key) = map.next_key::<String>()? {
                    return Err(de::Error::unknown_field(&key, &["uvtt"]));
                }
                if crate::parse::shape_only() {
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
                return Ok(inline(&file));
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
    uvtt: UvttFile,
}
