//! Text and data of the space, distance and elevation trace steps.

use serde_json::{Value, json};

use super::{Lang, list, metres, plural};
use arbiter_rules::grid::Metric;
use arbiter_rules::trace::GridEffect;

/// Renders one space, distance and elevation step.
pub(super) fn effect(e: &GridEffect, lang: Lang) -> (String, Value) {
    use Lang::*;
    match e {
        GridEffect::Space { creature, side } => (
            match lang {
                En => format!("{creature} occupies {side}×{side} squares"),
                Fr => format!("{creature} occupe {side}×{side} cases"),
            },
            json!({"creature": creature, "side": side}),
        ),
        GridEffect::Distance { squares, feet, metric } => (
            match lang {
                En => format!(
                    "distance {feet} ft ({squares} square{}, {})",
                    plural(*squares),
                    metric_name(*metric, lang)
                ),
                Fr => format!(
                    "distance {} m ({squares} case{}, {})",
                    metres(*feet),
                    plural(*squares),
                    metric_name(*metric, lang)
                ),
            },
            json!({"squares": squares, "feet": feet, "metric": metric.rule()}),
        ),
        GridEffect::ElevationIgnored { creatures } => (
            match lang {
                En => format!("elevation of {} ignored: distances are measured on the grid", list(creatures)),
                Fr => format!(
                    "altitude de {} ignorée : les distances se mesurent sur la grille",
                    list(creatures)
                ),
            },
            json!({"creatures": creatures}),
        ),
    }
}

fn metric_name(m: Metric, lang: Lang) -> &'static str {
    match (m, lang) {
        (Metric::Chebyshev, Lang::En) => "every diagonal 5 ft",
        (Metric::Chebyshev, Lang::Fr) => "chaque diagonale 1,50 m",
        (Metric::Alternating, Lang::En) => "diagonals alternate 5 ft / 10 ft",
        (Metric::Alternating, Lang::Fr) => "diagonales alternées 1,50 m / 3 m",
    }
}
