//! SVG drawings of an encounter and of what a question traced, for people who would rather
//! look (`Accept: image/svg+xml`): `/v1/cover`, `/v1/movement`, `/v1/flanking`,
//! `/v1/concealment` and `/v1/analyze`.
//!
//! The toolkit: [`canvas`] (margin, scale, layers, the footer with caption, legend and key),
//! [`labels`] (label placement that never overlaps nor clips), [`style`] (a palette that stays
//! distinct under the common colour-vision deficiencies, with a pattern or dash for each kind),
//! [`scene`] (terrain, light, walls, creatures). One file per drawing on top of it.
//!
//! Elements carry stable attributes (`class="target-square"`, `data-kind="low"`…) so that
//! tests and the playground can find them.

mod analyze;
pub(crate) mod canvas;
mod concealment;
mod cover;
mod flanking;
pub(crate) mod labels;
mod movement;
pub(crate) mod scene;
pub(crate) mod style;

pub use analyze::{analyze, extra as analyze_extra};
pub use concealment::{concealment, extra as concealment_extra};
pub use cover::{CoverQuestion, cover, extra as cover_extra};
pub use flanking::{extra as flanking_extra, flanking};
pub use movement::{extra as movement_extra, movement};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use utoipa::IntoParams;

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{Encounter, Light};
use arbiter_rules::grid::Square;
use arbiter_rules::scene::Scene;

use crate::error::{AnswerSize, AppError, Hint, Text};
use crate::render::Lang;

/// The routes that answer a drawing to `Accept: image/svg+xml`; every other route of the API
/// answers 406 to a client that accepts a drawing and no JSON (`middleware::edge`).
pub const DRAWN: [&str; 5] = ["/v1/cover", "/v1/movement", "/v1/flanking", "/v1/concealment", "/v1/analyze"];

/// The smallest and largest `?scale=`, pixels per square.
pub const SCALE_RANGE: (u32, u32) = (8, 96);
/// Pixels per square when `?scale=` is absent, for maps up to [`FIT_PX`] wide.
pub const DEFAULT_SCALE: u32 = 40;
/// A larger map is drawn smaller by default so that it stays about this wide (never under
/// [`MIN_AUTO_SCALE`] px a square).
pub const FIT_PX: u32 = 1200;
/// The smallest default scale.
pub const MIN_AUTO_SCALE: u32 = 12;

/// The drawing options of the query string.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DrawQuery {
    /// Pixels per square of the SVG drawing (`Accept: image/svg+xml`), 8 to 96; by default 40,
    /// less for maps wider than 30 squares (about 1200 px wide, at least 12 px a square).
    /// Ignored by JSON answers, but checked: a bad value is a 422 at `?scale`.
    #[param(minimum = 8, maximum = 96)]
    pub scale: Option<u32>,
}

impl DrawQuery {
    /// Reads `scale` from a query string; anything but one integer in [`SCALE_RANGE`] is a
    /// problem at `?scale` (given twice, neither value is taken over the other).
    pub fn parse(query: Option<&str>) -> Result<DrawQuery, AppError> {
        let mut out = DrawQuery::default();
        for pair in query.unwrap_or("").split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if key != "scale" {
                continue;
            }
            if out.scale.is_some() {
                return Err(AppError::field(
                    "?scale",
                    Text::new("the scale is given more than once", "l'échelle est donnée plus d'une fois"),
                ));
            }
            let (lo, hi) = SCALE_RANGE;
            match value.parse::<u32>() {
                Ok(v) if (lo..=hi).contains(&v) => out.scale = Some(v),
                _ => {
                    return Err(AppError::field(
                        "?scale",
                        Text::new(
                            format!(
                                "the scale must be a whole number of pixels per square from {lo} to {hi}"
                            ),
                            format!("l'échelle doit être un nombre entier de pixels par case de {lo} à {hi}"),
                        ),
                    ));
                }
            }
        }
        Ok(out)
    }

    /// The pixels per square for `enc`: the one asked, else the default for its size.
    pub fn scale_for(&self, enc: &Encounter) -> f64 {
        let widest = enc.grid.width.max(enc.grid.height).max(1).unsigned_abs();
        let auto = (FIT_PX / widest).clamp(MIN_AUTO_SCALE, DEFAULT_SCALE);
        f64::from(self.scale.unwrap_or(auto))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for DrawQuery {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        DrawQuery::parse(parts.uri.query())
    }
}

/// What every drawing needs: the prepared scene, the work budget (the light overlay asks the
/// rules for each square's level), the drawing options and the language.
pub struct Ctx<'a, 'e> {
    /// The scene the question was answered on.
    pub scene: &'a Scene<'e>,
    /// The request's work budget.
    pub budget: &'a mut Budget,
    /// `?scale=`.
    pub draw: DrawQuery,
    /// The language of the caption and legend.
    pub lang: Lang,
}

/// What a drawing adds to the map, for its size bound.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extra {
    /// Lines, markers and labels of the question (a few hundred bytes each).
    pub items: u64,
    /// Squares outlined or highlighted (reach, threatened squares, matrix cells).
    pub squares: u64,
}

/// Whether the light of the map is worth drawing (some square may be other than bright).
pub(crate) fn draws_light(enc: &Encounter) -> bool {
    enc.grid.light != Light::Bright
        || enc.grid.light_map.iter().any(|l| l.is_some_and(|l| l != Light::Bright))
}

/// An upper bound on the size of a drawing of `enc` with `extra`, bytes: generous per element
/// (a terrain flag's fill and pattern are about 190 bytes, a light run 110, a creature with its
/// label about 700), so that a drawing past the answer limit is refused before it is drawn.
pub fn size_bound(enc: &Encounter, extra: Extra) -> u64 {
    let squares = u64::from(enc.grid.width.unsigned_abs()) * u64::from(enc.grid.height.unsigned_abs());
    let mut drawn = 0u64;
    for y in 0..enc.grid.height {
        for x in 0..enc.grid.width {
            // A rectangle and a pattern per flag of the square, at worst one per square.
            drawn += u64::from(enc.grid.terrain(Square::new(x, y)).0.count_ones());
        }
    }
    // The light overlay is one rectangle per run of squares, at worst one per square.
    let light = if draws_light(enc) { squares } else { 0 };
    let lines = u64::from(enc.grid.width.unsigned_abs()) + u64::from(enc.grid.height.unsigned_abs()) + 2;
    24 * 1024
        + 200 * drawn
        + 110 * light
        + 96 * lines
        + 260 * enc.grid.walls.len() as u64
        + 400 * enc.grid.lights.len() as u64
        + 900 * enc.creatures.len() as u64
        + 400 * extra.items
        + 120 * extra.squares
}

/// Refuses, before any work, a drawing that could exceed the answer limit.
pub fn fits(enc: &Encounter, extra: Extra, limit: usize) -> Result<(), AppError> {
    let size = size_bound(enc, extra);
    if size > limit as u64 {
        return Err(AppError::AnswerTooLarge { size: AnswerSize::UpTo(size), limit, hint: Hint::Svg });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_is_read_from_the_query_and_bounded() {
        assert_eq!(DrawQuery::parse(None).unwrap().scale, None);
        assert_eq!(DrawQuery::parse(Some("a=1&scale=24")).unwrap().scale, Some(24));
        for bad in [
            "scale=7",
            "scale=97",
            "scale=big",
            "scale=",
            "scale=-3",
            "scale=2.5",
            "scale=96&scale=8",
            "scale=24&scale=24",
        ] {
            assert!(DrawQuery::parse(Some(bad)).is_err(), "{bad}");
        }
    }
}
