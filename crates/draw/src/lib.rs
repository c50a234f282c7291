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
mod xml;

pub use analyze::{analyze, extra as analyze_extra};
pub use concealment::{concealment, extra as concealment_extra};
pub use cover::{CoverQuestion, cover, extra as cover_extra};
pub use flanking::{extra as flanking_extra, flanking};
pub use movement::{extra as movement_extra, movement};

use arbiter_rules::budget::Budget;
use arbiter_rules::encounter::{Encounter, Light};
use arbiter_rules::grid::Square;
use arbiter_rules::scene::Scene;

pub use arbiter_contract::drawing::DrawQuery;
use arbiter_contract::error::{AnswerSize, AppError, Hint};
use arbiter_contract::render::Lang;

/// The routes that answer a drawing to `Accept: image/svg+xml`; every other route of the API
/// answers 406 to a client that accepts a drawing and no JSON (`middleware::edge`).
pub const DRAWN: [&str; 5] = ["/v1/cover", "/v1/movement", "/v1/flanking", "/v1/concealment", "/v1/analyze"];

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
