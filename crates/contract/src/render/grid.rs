//! Text and data of the space, distance and elevation trace steps.

use super::glossary::metres_fr;
use super::shared::{list, plural};
use crate::lang::Lang;
use arbiter_rules::grid::Metric;
use arbiter_rules::trace::GridEffect;

/// Renders one space, distance and elevation step.
pub(super) fn effect(e: &GridEffect, lang: Lang) -> (String, GridEffectOut) {
    use Lang::*;
    match e {
        GridEffect::Space { creature, side } => (
            match lang {
                En => format!("{creature} occupies {side}×{side} squares"),
                Fr => format!("{creature} occupe {side}×{side} cases"),
            },
            SpaceStepOut { creature: creature.clone(), side: *side }.into(),
        ),
        GridEffect::Distance { squares, feet, metric } => (
            match lang {
                En => format!(
                    "distance {feet} ft ({squares} square{}, {})",
                    plural(*squares),
                    metric_name(*metric, lang)
                ),
                Fr => format!("distance {}, {}", metres_fr(*feet), metric_name(*metric, lang)),
            },
            DistanceStepOut { squares: *squares, feet: *feet, metric: metric.rule() }.into(),
        ),
        GridEffect::ElevationIgnored { creatures } => (
            match lang {
                En => format!("elevation of {} ignored: distances are measured on the grid", list(creatures)),
                Fr => format!(
                    "altitude de {} ignorée : les distances se mesurent sur la grille",
                    list(creatures)
                ),
            },
            ElevationIgnoredStepOut { creatures: creatures.clone() }.into(),
        ),
    }
}

fn metric_name(m: Metric, lang: Lang) -> &'static str {
    match (m, lang) {
        (Metric::Chebyshev, Lang::En) => "every diagonal 5 ft",
        (Metric::Chebyshev, Lang::Fr) => "chaque diagonale compte 1,50 mètre",
        (Metric::Alternating, Lang::En) => "diagonals alternate 5 ft / 10 ft",
        (Metric::Alternating, Lang::Fr) => "diagonales alternées 1,50 mètre / 3 mètres",
    }
}

wire! {
    /// A space, distance or elevation step (`GridEffect`) on the wire.
    GridEffectOut {
    /// A creature's space.
    Space SpaceStepOut { creature: String, side: i32 },
    /// The distance between two spaces; `metric` is the rule id of the diagonal count.
    Distance DistanceStepOut { feet: i64, metric: &'static str, squares: i64 },
    /// Creatures whose elevation was ignored.
    ElevationIgnored ElevationIgnoredStepOut { creatures: Vec<String> },
    }
}
