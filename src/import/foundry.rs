//! Foundry VTT scene exports to an Arbiter encounter (`POST /v1/import/foundry`, and
//! `arbiter import foundry FILE`).
//!
//! Pure: [`import`] takes a parsed request, [`import_bytes`] the body's bytes; both answer an
//! [`Imported`] whose [`Imported::answer`] serialises to the HTTP answer, or the problems.
//!
//! Coordinates (checked in Foundry's source, v10 `client/data/documents/scene.js`
//! `getDimensions` and `BaseGrid.calculatePadding`, v12 `SquareGrid#calculateDimensions`):
//! the canvas is the scene plus a padding on each side of `ceil(padding × width / size) ×
//! size` pixels (and the same with the height), so the padding is whole squares and the grid
//! starts at the canvas's origin. Walls, lights and tokens are in canvas pixels: a point's
//! square coordinate is `(x − padding_x) / size`. The background's offset moves the picture,
//! not the grid, and is not read.

mod tokens;
mod walls;
pub mod wire;

use serde::Serialize;
use utoipa::ToSchema;

use arbiter_rules::ruleset::RulesetId;

use super::{Warning, WarningOut};
use crate::api::contract::{Check, Contract};
use crate::api::encounter::{EncounterIn, GridIn, LightIn, LightSourceIn, PointIn, RulesetIn};
use crate::api::mapping;
use crate::config::Limits;
use crate::error::{AppError, Issue, Text};
use crate::lang::Lang;
pub use tokens::{CreatureOut, TokenOut};
pub use wire::FoundryImportRequest;
use wire::{GridField, SceneIn};

/// The ruleset of an import that names none.
pub const DEFAULT_RULESET: &str = "dnd5e2014";

/// The answer: an encounter every question accepts, the token each creature came from, and
/// what the import could not map or had to decide.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FoundryImportResponse {
    /// The encounter, ready to be sent as a question's `encounter`.
    pub encounter: EncounterOut,
    /// One per creature, in the same order: the token it came from.
    pub tokens: Vec<TokenOut>,
    /// What could not be mapped exactly, each pointing into the request.
    pub warnings: Vec<WarningOut>,
}

/// An encounter snapshot (the shape of a question's `encounter`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EncounterOut {
    /// The ruleset.
    #[schema(value_type = RulesetIn)]
    pub ruleset: &'static str,
    /// The map: the scene's squares, without the padding (a question grid, as the Universal
    /// VTT import answers it).
    pub grid: GridIn,
    /// One creature per token.
    pub creatures: Vec<CreatureOut>,
}

/// An import's result before it is rendered in a language.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The encounter.
    pub encounter: EncounterOut,
    /// The token of each creature.
    pub tokens: Vec<TokenOut>,
    /// The warnings.
    pub warnings: Vec<Warning>,
}

impl Imported {
    /// The answer, its warnings in `lang`.
    pub fn answer(&self, lang: Lang) -> FoundryImportResponse {
        FoundryImportResponse {
            encounter: self.encounter.clone(),
            tokens: self.tokens.clone(),
            warnings: self.warnings.iter().map(|w| w.render(lang)).collect(),
        }
    }
}

/// Parses a request body and imports it: 400 for bytes that are not JSON, 422 with every
/// problem's pointer otherwise.
pub fn import_bytes(bytes: &[u8], limits: &Limits) -> Result<Imported, AppError> {
    let req: FoundryImportRequest = crate::capped::within(limits, || crate::extract::parse(bytes))?;
    import(&req, limits).map_err(AppError::Invalid)
}

/// Converts a scene and its overlay into an encounter. The request's bounds are checked
/// first; the encounter made is then checked as a question's would be, so that every
/// question accepts it (a problem found there points at the token or the overlay field
/// that caused it).
pub fn import(req: &FoundryImportRequest, limits: &Limits) -> Result<Imported, Vec<Issue>> {
    let problems = req.violations(limits);
    if !problems.is_empty() {
        return Err(problems);
    }
    let ruleset = req.ruleset.map_or_else(
        || RulesetId::from_id(DEFAULT_RULESET).unwrap_or(RulesetId::ALL[0]),
        mapping::ruleset_id,
    );
    let mut warnings = Vec::new();
    let frame = Frame::of(&req.scene, limits, &mut warnings)?;
    let walls = walls::walls(&req.scene, &frame, &mut warnings);
    let lights = lights(&req.scene, &frame, &mut warnings)?;
    let light = ambient(&req.scene);
    let made = tokens::creatures(req, ruleset, &frame, limits, &mut warnings)?;
    let encounter = EncounterOut {
        ruleset: ruleset.id(),
        grid: GridIn {
            width: frame.width,
            height: frame.height,
            map: None,
            cells: Vec::new(),
            walls,
            light,
            light_map: None,
            lights,
            imported: None,
        },
        creatures: made.creatures,
    };
    verify(&encounter, &made.origins, limits)?;
    Ok(Imported { encounter, tokens: made.tokens, warnings })
}

/// Where the scene's squares lie on the canvas, and how scene units become feet.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    /// Pixels per square.
    size: f64,
    /// The padding, pixels: the first square of the scene starts there.
    pad_x: f64,
    pad_y: f64,
    /// The scene in squares.
    pub(crate) width: i64,
    pub(crate) height: i64,
    /// Feet per scene unit: an Arbiter square is 5 ft, a scene square `distance` units.
    feet_per_unit: f64,
}

impl Frame {
    fn of(s: &SceneIn, limits: &Limits, w: &mut Vec<Warning>) -> Result<Frame, Vec<Issue>> {
        let (kind, kind_at) = match &s.grid {
            Some(GridField::Config(g)) if g.kind.is_some() => (g.kind, "/scene/grid/type"),
            _ => (s.grid_type, "/scene/gridType"),
        };
        grid_type(kind.unwrap_or(1), kind_at)?;
        let size = match &s.grid {
            Some(GridField::Size(v)) => *v,
            Some(GridField::Config(g)) => g.size.unwrap_or(100.0),
            None => 100.0,
        };
        let width = s.width.unwrap_or(size * 30.0);
        let height = s.height.unwrap_or(size * 20.0);
        let padding = s.padding.unwrap_or(0.25);
        // As Foundry computes it (`* (1 / size)`, not `/ size`: the same rounding).
        let pad_x = ((padding * width) * (1.0 / size)).ceil() * size;
        let pad_y = ((padding * height) * (1.0 / size)).ceil() * size;
        let side = i64::from(limits.max_grid_side);
        let cols = squares(width, size, side, "/scene/width", w)?;
        let rows = squares(height, size, side, "/scene/height", w)?;
        let feet_per_unit = units(s, w);
        Ok(Frame { size, pad_x, pad_y, width: cols, height: rows, feet_per_unit })
    }

    /// A canvas point in square units.
    pub(crate) fn point(&self, x: f64, y: f64) -> (f64, f64) {
        ((x - self.pad_x) / self.size, (y - self.pad_y) / self.size)
    }

    /// Scene units in feet, rounded to the foot.
    pub(crate) fn feet(&self, units: f64) -> i64 {
        (units * self.feet_per_unit).round() as i64
    }

    /// Whether a point in square units lies on the map.
    pub(crate) fn contains(&self, (x, y): (f64, f64)) -> bool {
        (0.0..=self.width as f64).contains(&x) && (0.0..=self.height as f64).contains(&y)
    }
}

/// Only square grids import.
fn grid_type(kind: i64, at: &str) -> Result<(), Vec<Issue>> {
    let detail = match kind {
        1 => return Ok(()),
        0 => Text::new(
            "a gridless scene: Arbiter's rules count squares; set the scene's grid to Square in Foundry and export it again",
            "une scène sans grille : les règles d'Arbiter comptent des cases ; donnez à la scène une grille carrée dans Foundry et exportez-la de nouveau",
        ),
        _ => Text::new(
            format!("a hexagonal grid (type {kind}): Arbiter's rules work on a square grid only"),
            format!(
                "une grille hexagonale (type {kind}) : les règles d'Arbiter ne s'appliquent qu'à une grille carrée"
            ),
        ),
    };
    Err(vec![Issue::new(at, detail)])
}

/// The squares a side of `px` pixels covers; a partial last square counts (Foundry draws
/// its grid over it) and is flagged.
fn squares(px: f64, size: f64, max: i64, at: &str, w: &mut Vec<Warning>) -> Result<i64, Vec<Issue>> {
    let exact = px / size;
    // Foundry's own tolerance for the grid's last row and column.
    let n = (exact - 1e-6).ceil().max(1.0);
    if n > max as f64 {
        return Err(vec![Issue::new(
            at,
            Text::new(
                format!(
                    "the scene is {n} squares ({px} px at {size} px a square), more than the {max} a grid may have"
                ),
                format!(
                    "la scène fait {n} cases ({px} px à {size} px la case), plus que les {max} qu'une grille peut avoir"
                ),
            ),
        )]);
    }
    if (exact - n).abs() > 1e-6 {
        w.push(Warning::new(
            "partial_square",
            at,
            Text::new(
                format!("{px} px is {exact} squares of {size} px: the last, partial square is a whole one here"),
                format!("{px} px font {exact} cases de {size} px : la dernière case, partielle, compte ici pour une case entière"),
            ),
        ));
    }
    Ok(n as i64)
}

/// Feet per scene unit, with a warning when the scene's square is not 5 ft.
fn units(s: &SceneIn, w: &mut Vec<Warning>) -> f64 {
    let (distance, units, at) = match &s.grid {
        Some(GridField::Config(g)) => (g.distance, g.units.as_deref(), "/scene/grid"),
        _ => (s.grid_distance, s.grid_units.as_deref(), "/scene"),
    };
    let Some(distance) = distance.filter(|d| *d > 0.0) else {
        w.push(Warning::new(
            "grid_distance_missing",
            at,
            Text::new(
                "the scene states no grid distance: a square is taken as 5 ft",
                "la scène n'indique pas de distance de grille : une case compte pour 5 ft",
            ),
        ));
        return 1.0;
    };
    let label = units.unwrap_or("").trim();
    let feet = ["ft", "ft.", "feet", "foot", "pi", "pieds"].iter().any(|f| label.eq_ignore_ascii_case(f));
    if !feet || distance != 5.0 {
        w.push(Warning::new(
            "square_not_5ft",
            at,
            Text::new(
                format!("a square is {distance} {label} in this scene and 5 ft in Arbiter: distances (lights, elevation) are converted by squares"),
                format!("une case fait {distance} {label} dans cette scène et 5 ft dans Arbiter : les distances (lumières, élévation) sont converties en cases"),
            ),
        ));
    }
    5.0 / distance
}

/// The ambient light: Foundry 10/11's `darkness` (0 midday to 1 midnight) and
/// `globalLight` are not read yet (their shape changed in 12); the map is lit, and the
/// scene's lights brighten nothing more.
fn ambient(_: &SceneIn) -> LightIn {
    LightIn::Bright
}

/// The scene's lights that shine on the map.
fn lights(s: &SceneIn, frame: &Frame, w: &mut Vec<Warning>) -> Result<Vec<LightSourceIn>, Vec<Issue>> {
    let mut out = Vec::with_capacity(s.lights.len());
    for (i, l) in s.lights.iter().enumerate() {
        let at = format!("/scene/lights/{i}");
        if l.hidden == Some(true) {
            w.push(Warning::new(
                "light_off",
                format!("{at}/hidden"),
                Text::new(
                    "the light is switched off: not imported",
                    "la lumière est éteinte : elle n'est pas importée",
                ),
            ));
            continue;
        }
        let p = frame.point(l.x, l.y);
        if !frame.contains(p) {
            w.push(Warning::new(
                "light_off_map",
                at,
                Text::new(
                    "the light stands outside the scene (in its padding or beyond): not imported",
                    "la lumière est hors de la scène (dans sa marge ou au-delà) : elle n'est pas importée",
                ),
            ));
            continue;
        }
        let cfg = l.config.clone().unwrap_or_default();
        let (bright, dim) = (frame.feet(cfg.bright.unwrap_or(0.0)), frame.feet(cfg.dim.unwrap_or(0.0)));
        let max = crate::api::bounds::RANGE_FT;
        if bright > max || dim > max {
            let field = if bright > max { "bright" } else { "dim" };
            return Err(vec![Issue::new(
                format!("{at}/config/{field}"),
                Text::new(
                    format!("the radius comes to more than {max} ft on Arbiter's grid"),
                    format!("le rayon dépasse {max} ft sur la grille d'Arbiter"),
                ),
            )]);
        }
        if bright == 0 && dim == 0 {
            w.push(Warning::new(
                "light_without_radius",
                at,
                Text::new(
                    "the light has no radius: not imported",
                    "la lumière n'a pas de rayon : elle n'est pas importée",
                ),
            ));
            continue;
        }
        out.push(LightSourceIn { at: PointIn { x: p.0, y: p.1 }, bright_ft: bright, dim_ft: dim });
    }
    Ok(out)
}

/// Where each creature came from, to point a problem of the finished encounter at its
/// cause.
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    /// The token's index in `scene.tokens`.
    pub(crate) token: usize,
    /// The overlay's index in `creatures`, if one applied, and the creature's fields it
    /// gave (`stats`, `size`, ...).
    pub(crate) overlay: Option<(usize, Vec<&'static str>)>,
}

/// Checks the encounter as a question's: its contract and its mapping. Problems are moved
/// from `/encounter/creatures/k/...` to the overlay field or the token that caused them.
fn verify(e: &EncounterOut, origins: &[Origin], limits: &Limits) -> Result<(), Vec<Issue>> {
    let internal = |detail: String| {
        vec![Issue::new(
            "/scene",
            Text::new(
                format!("the import made an invalid encounter: {detail}"),
                "l'import a produit une rencontre invalide",
            ),
        )]
    };
    let value = serde_json::to_value(e).map_err(|err| internal(err.to_string()))?;
    let wire: EncounterIn = serde_json::from_value(value).map_err(|err| internal(err.to_string()))?;
    let mut c = Check::new(limits);
    c.encounter(&wire);
    let mut problems = c.into_problems();
    if problems.is_empty()
        && let Err(p) = mapping::encounter(&wire, limits, "/encounter")
    {
        problems = p.0;
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(problems.into_iter().map(|i| Issue::new(moved(&i.pointer, origins), i.detail)).collect())
}

/// The request's pointer for a pointer into the encounter made.
fn moved(pointer: &str, origins: &[Origin]) -> String {
    let Some(rest) = pointer.strip_prefix("/encounter/creatures/") else { return "/scene".to_owned() };
    let (k, field) = rest.split_once('/').unwrap_or((rest, ""));
    let Some(origin) = k.parse::<usize>().ok().and_then(|k| origins.get(k)) else {
        return "/scene/tokens".to_owned();
    };
    let first = field.split('/').next().unwrap_or("");
    match &origin.overlay {
        Some((o, given)) if given.contains(&first) => format!("/creatures/{o}/{field}"),
        _ => format!("/scene/tokens/{}", origin.token),
    }
}
