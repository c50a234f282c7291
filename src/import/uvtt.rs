//! Universal VTT files (`.dd2vtt`, `.uvtt`, `.df2vtt`: Dungeondraft, DungeonFog, Arkenforge…)
//! to an Arbiter grid: the wire types of the format (which the OpenAPI document states), the
//! bounds every file must keep, and [`import`], the pure conversion that `POST
//! /v1/import/uvtt`, the inline `"grid": {"uvtt": …}` of every question and the command line
//! share. What each field becomes, and why, is README.md's "Importing a map".
//!
//! Unknown fields are ignored at every level (real exports carry `software`, `creator` and
//! fields of later versions), and the `image` (a base64 picture of megabytes) is skipped
//! as it is read, never kept.

mod convert;

use std::io::Read;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde::ser::Serialize;
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};

pub use super::Failure;
use super::{Warning, WarningOut};
use crate::api::encounter::GridIn;
use crate::api::mapping::between;
use crate::config::Limits;
use crate::error::{AppError, Issue, Text};
use crate::lang::Lang;

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

/// What an inline file's reading found wrong (pointers into the file), for the contract
/// check of the question that carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inline {
    /// Every bound the file breaks.
    pub problems: Vec<Issue>,
}

/// The grid of an inline file, read as part of a question (`"grid": {"uvtt": …}`): a
/// placeholder of one square when the file breaks a bound, refused by the contract check.
pub fn inline(file: &UvttFile) -> GridIn {
    let problems = bounds(file);
    let mut grid =
        if problems.is_empty() { convert::convert(file, usize::MAX).0 } else { convert::empty(1, 1) };
    grid.imported = Some(Box::new(Inline { problems }));
    grid
}

/// A converted file.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The grid, a valid question grid.
    pub grid: GridIn,
    /// What could not be mapped or had to be decided.
    pub warnings: Vec<Warning>,
}

/// The answer of `POST /v1/import/uvtt`.
#[derive(Debug, Clone, serde::Serialize, ToSchema)]
pub struct ImportUvttResponse {
    /// The grid: send it as an encounter's `grid`.
    pub grid: GridIn,
    /// What could not be mapped or had to be decided, in file order.
    pub warnings: Vec<WarningOut>,
}

impl Imported {
    /// The answer, its warnings in `lang` (what the HTTP route and the command line print).
    pub fn answer(&self, lang: Lang) -> ImportUvttResponse {
        ImportUvttResponse {
            grid: self.grid.clone(),
            warnings: self.warnings.iter().map(|w| w.render(lang)).collect(),
        }
    }
}

/// Converts a whole file held in memory: the command line's entry (`arbiter import uvtt`).
/// Not JSON → [`AppError::Malformed`]; a wrong shape or a broken bound → [`AppError::Invalid`]
/// with pointers into the file. Both render with `AppError::problem`.
pub fn import(bytes: &[u8], limits: &Limits) -> Result<Imported, AppError> {
    let file = crate::capped::within(limits, || super::read(serde_json::Deserializer::from_slice(bytes)))
        .map_err(|f| match f {
            Failure::Malformed(e) => AppError::Malformed(crate::extract::malformed(bytes, &e)),
            Failure::Invalid(issues) => AppError::Invalid(issues),
            Failure::Io { error, .. } => AppError::Malformed(Text::new(
                format!("the file could not be read: {error}"),
                "le fichier n'a pas pu être lu",
            )),
        })?;
    finish(&file, limits)
}

/// Checks and converts a file already read.
pub fn finish(file: &UvttFile, limits: &Limits) -> Result<Imported, AppError> {
    let mut problems = bounds(file);
    if problems.is_empty() {
        let (grid, warnings) = convert::convert(file, limits.max_walls as usize);
        problems = sizes(&grid, limits);
        if problems.is_empty() {
            return Ok(Imported { grid, warnings });
        }
    }
    Err(AppError::Invalid(problems))
}

/// Reads a file from a body arriving in pieces (`POST /v1/import/uvtt`), never holding it
/// whole.
pub fn read_stream<R: Read>(reader: R) -> Result<UvttFile, Failure> {
    super::read_stream(reader)
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
        out.push(Issue::new(format!("/{name}"), crate::api::mapping::at_most(max, ("items", "éléments"))));
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

/// The answer serialised, its warnings in `lang`.
pub fn answer_bytes(imported: &Imported, lang: Lang) -> Result<Vec<u8>, AppError> {
    let mut buf = Vec::with_capacity(4096);
    imported
        .answer(lang)
        .serialize(&mut serde_json::Serializer::new(&mut buf))
        .map_err(|e| AppError::Internal(format!("the import answer could not be serialised: {e}")))?;
    Ok(buf)
}
