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

use arbiter_contract::api::contract::{Check, Contract};
use arbiter_contract::api::encounter::{EncounterIn, GridIn, LightIn, LightSourceIn, PointIn, RulesetIn};
use arbiter_contract::api::mapping;
use arbiter_contract::error::{AnswerSize, AppError, Hint, Issue, Text};
use arbiter_contract::lang::Lang;
use arbiter_contract::limits::Limits;
use arbiter_contract::warnings::{Warning, WarningOut};
pub use tokens::{CreatureOut, TokenOut};
pub use wire::FoundryImportRequest;
use wire::{FoundryLightIn, GridField, LightConfigIn, SceneIn};

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
    let req: FoundryImportRequest =
        arbiter_contract::capped::within(limits, || arbiter_contract::parse::parse(bytes))?;
    import(&req, limits).map_err(AppError::Invalid)
}

/// The answer to a scene, serialised, its warnings in `lang`: what `POST /v1/import/foundry`
/// sends. Refused when the encounter made is invalid (pointers into the request) or when the
/// answer would pass `max_answer` bytes.
pub fn answer_bytes(
    req: &FoundryImportRequest,
    limits: &Limits,
    lang: Lang,
    max_answer: usize,
) -> Result<Vec<u8>, AppError> {
    let answer = import(req, limits).map_err(AppError::Invalid)?.answer(lang);
    let body = serde_json::to_vec(&answer).map_err(|e| AppError::Internal(e.to_string()))?;
    if body.len() > max_answer {
        let size = AnswerSize::Exact(body.len() as u64);
        return Err(AppError::AnswerTooLarge { size, limit: max_answer, hint: Hint::Smaller });
    }
    Ok(body)
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
    background_offset(&req.scene, &mut warnings);
    let walls = walls::walls(&req.scene, &frame, req.invisible_walls, &mut warnings);
    let lights = lights(&req.scene, &frame, &mut warnings)?;
    let light = ambient(&req.scene, &mut warnings);
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
    stacked(&encounter, &made.origins, &req.scene, ruleset)?;
    verify(&encounter, &made.origins, limits)?;
    Ok(Imported { encounter, tokens: made.tokens, warnings: arbiter_contract::warnings::capped(warnings) })
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

/// The ambient light, as the scene's players see it (RULES.md is silent; Foundry's own
/// reading, checked in its v10 and v12 sources): with token vision off players see the whole
/// map, lit; otherwise a square is lit by global illumination when it is on at the scene's
/// darkness level, and else only by light sources (pitch black without one, whatever the
/// darkness level). A scene stating none of these fields (a hand-written one) is lit.
fn ambient(s: &SceneIn, w: &mut Vec<Warning>) -> LightIn {
    if s.token_vision == Some(false) {
        w.push(Warning::new(
            "token_vision_off",
            "/scene/tokenVision",
            Text::new(
                "token vision is off in this scene (players see the whole map): it is lit everywhere",
                "la vision des jetons est désactivée dans cette scène (les joueurs voient toute la carte) : elle est éclairée partout",
            ),
        ));
        return LightIn::Bright;
    }
    let (level, global, at) = if let Some(e) = &s.environment {
        let level = e.darkness_level.unwrap_or(0.0);
        let g = e.global_light.clone().unwrap_or_default();
        let range = g.darkness.clone().unwrap_or_default();
        let on =
            g.enabled == Some(true) && (range.min.unwrap_or(0.0)..=range.max.unwrap_or(1.0)).contains(&level);
        let lit = if g.bright == Some(true) { LightIn::Bright } else { LightIn::Dim };
        (level, on.then_some(lit), "/scene/environment")
    } else if s.darkness.is_some() || s.global_light.is_some() {
        let level = s.darkness.unwrap_or(0.0);
        let on = s.global_light == Some(true) && s.global_light_threshold.is_none_or(|t| level <= t);
        (level, on.then_some(LightIn::Bright), "/scene/globalLight")
    } else {
        return LightIn::Bright;
    };
    let (light, en, fr) = match global {
        Some(LightIn::Bright) => (LightIn::Bright, "bright light", "lumière vive"),
        Some(_) => (
            LightIn::Dim,
            "dim light (global illumination that is not bright)",
            "lumière faible (un éclairage global qui n'est pas vif)",
        ),
        None => (
            LightIn::Darkness,
            "darkness outside its light sources (global illumination is off)",
            "ténèbres hors de ses sources de lumière (l'éclairage global est éteint)",
        ),
    };
    w.push(Warning::new(
        "ambient_light",
        at,
        Text::new(
            format!("the scene at darkness level {level}: {en}"),
            format!("la scène au niveau d'obscurité {level} : {fr}"),
        ),
    ));
    light
}

/// A light's radii in scene units: `config` (Foundry 9+), else the top-level `bright` and
/// `dim` of older scenes.
fn radii(l: &FoundryLightIn) -> (f64, f64, &'static str) {
    let cfg = l.config.clone().unwrap_or_default();
    if cfg.bright.is_some() || cfg.dim.is_some() {
        (cfg.bright.unwrap_or(0.0), cfg.dim.unwrap_or(0.0), "config/")
    } else {
        (l.bright.unwrap_or(0.0), l.dim.unwrap_or(0.0), "")
    }
}

/// Whether a light's source is one of darkness (Foundry 9-11: negative luminosity; 12+:
/// `negative`).
fn darkness_source(cfg: Option<&LightConfigIn>) -> bool {
    cfg.is_some_and(|c| c.negative == Some(true) || c.luminosity.is_some_and(|l| l < 0.0))
}

/// A light source of `bright` and `dim` scene units at `p`, in feet; a radius past the
/// grid's largest is a problem at `at`/`field`.
fn source(
    p: (f64, f64),
    (bright, dim): (f64, f64),
    frame: &Frame,
    at: &str,
    fields: [&str; 2],
) -> Result<LightSourceIn, Vec<Issue>> {
    let (bright, dim) = (frame.feet(bright), frame.feet(dim));
    let max = arbiter_contract::api::bounds::RANGE_FT;
    if bright > max || dim > max {
        let field = if bright > max { fields[0] } else { fields[1] };
        return Err(vec![Issue::new(
            format!("{at}/{field}"),
            Text::new(
                format!("the radius comes to more than {max} ft on Arbiter's grid"),
                format!("le rayon dépasse {max} ft sur la grille d'Arbiter"),
            ),
        )]);
    }
    Ok(LightSourceIn { at: PointIn { x: p.0, y: p.1 }, bright_ft: bright, dim_ft: dim })
}

/// Left out, with its warning: a source of darkness (Arbiter's sources only give light).
fn darkness_warning(at: String) -> Warning {
    Warning::new(
        "darkness_source",
        at,
        Text::new(
            "a source of darkness: not imported (Arbiter's light sources only give light; mark its squares `n` in the grid's light_map)",
            "une source de ténèbres : non importée (les sources de lumière d'Arbiter ne font qu'éclairer ; marquez ses cases `n` dans le light_map de la grille)",
        ),
    )
}

/// The scene's lights that shine on the map, then the lights tokens carry.
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
        if darkness_source(l.config.as_ref()) {
            w.push(darkness_warning(format!("{at}/config")));
            continue;
        }
        let (bright, dim, prefix) = radii(l);
        let light =
            source(p, (bright, dim), frame, &at, [&format!("{prefix}bright"), &format!("{prefix}dim")])?;
        if light.bright_ft == 0 && light.dim_ft == 0 {
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
        out.push(light);
    }
    for (j, t) in s.tokens.iter().enumerate() {
        let at = format!("/scene/tokens/{j}");
        let (radii, fields) = match &t.light {
            Some(l) if l.bright.is_some() || l.dim.is_some() => {
                if darkness_source(Some(l)) {
                    w.push(darkness_warning(format!("{at}/light")));
                    continue;
                }
                ((l.bright.unwrap_or(0.0), l.dim.unwrap_or(0.0)), ["light/bright", "light/dim"])
            }
            _ => ((t.bright_light.unwrap_or(0.0), t.dim_light.unwrap_or(0.0)), ["brightLight", "dimLight"]),
        };
        if radii.0 <= 0.0 && radii.1 <= 0.0 {
            continue;
        }
        // The token's centre; a token off the map carries its light off with it.
        let (x, y) = frame.point(t.x, t.y);
        let centre = (x + t.width.unwrap_or(1.0) / 2.0, y + t.height.unwrap_or(1.0) / 2.0);
        if !frame.contains(centre) {
            continue;
        }
        let light = source(centre, radii, frame, &at, fields)?;
        if light.bright_ft == 0 && light.dim_ft == 0 {
            continue;
        }
        w.push(Warning::new(
            "token_light",
            at,
            Text::new(
                format!(
                    "the token carries a light (bright {} ft, dim {} ft): a light source at its centre, where it stands now",
                    light.bright_ft, light.dim_ft
                ),
                format!(
                    "le jeton porte une lumière (vive {} ft, faible {} ft) : une source de lumière en son centre, là où il se tient",
                    light.bright_ft, light.dim_ft
                ),
            ),
        ));
        out.push(light);
    }
    Ok(out)
}

/// The background picture's offset moves the picture under the grid, not the grid: walls,
/// lights and tokens are placed on the canvas, as Foundry places them, and nothing moves.
fn background_offset(s: &SceneIn, w: &mut Vec<Warning>) {
    let (x, y, at) = match &s.background {
        Some(b) => (b.offset_x.unwrap_or(0.0), b.offset_y.unwrap_or(0.0), "/scene/background"),
        None => (s.shift_x.unwrap_or(0.0), s.shift_y.unwrap_or(0.0), "/scene/shiftX"),
    };
    if x != 0.0 || y != 0.0 {
        w.push(Warning::new(
            "background_offset",
            at,
            Text::new(
                format!("the background picture is shifted by ({x}, {y}) px: the grid, walls, lights and tokens stay where Foundry puts them (the picture is not read)"),
                format!("l'image de fond est décalée de ({x}, {y}) px : la grille, les murs, les lumières et les jetons restent où Foundry les place (l'image n'est pas lue)"),
            ),
        ));
    }
}

/// Tokens stacked on one square whose footprint makes them creatures that may not share it
/// (six 1×1 rats on two squares): a problem at the later token, saying how the overlay
/// makes them share (a size that shares squares).
fn stacked(
    e: &EncounterOut,
    origins: &[Origin],
    scene: &SceneIn,
    ruleset: RulesetId,
) -> Result<(), Vec<Issue>> {
    let rules = ruleset.rules();
    let space = |c: &CreatureOut| {
        let size = arbiter_rules::size::Size::from_id(c.size).unwrap_or(arbiter_rules::size::Size::Medium);
        (c.at.x, c.at.y, rules.size(size).side, rules.size(size).shares_square)
    };
    let mut problems = Vec::new();
    for (k, c) in e.creatures.iter().enumerate() {
        let (x, y, side, shares) = space(c);
        if shares {
            continue;
        }
        let under = e.creatures[..k].iter().position(|d| {
            let (dx, dy, dside, dshares) = space(d);
            !dshares && x < dx + dside && dx < x + side && y < dy + dside && dy < y + side
        });
        let Some(first) = under else { continue };
        let token = origins[k].token;
        let name =
            scene.tokens[token].name.as_deref().map(str::trim).filter(|n| !n.is_empty()).unwrap_or(&c.id);
        let small = rules.sizes.iter().filter(|(_, i)| i.shares_square).map(|(s, _)| *s).max();
        let hint =
            small.map_or_else(String::new, |s| format!("{{\"token\": {name:?}, \"size\": \"{}\"}}", s.id()));
        problems.push(Issue::new(
            format!("/scene/tokens/{token}"),
            Text::new(
                format!(
                    "the token stands on the square of creature {first} ({:?}) and only smaller creatures may share one: if they are small creatures (rats, a swarm's members), give them a size in the overlay, as {hint}; else move one",
                    e.creatures[first].id
                ),
                format!(
                    "le jeton est sur la case de la créature {first} (« {} ») et seules de plus petites créatures peuvent la partager : si ce sont de petites créatures (des rats, les membres d'une nuée), donnez-leur une taille dans la surcouche, comme {hint} ; sinon déplacez l'un d'eux",
                    e.creatures[first].id
                ),
            ),
        ));
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
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
