//! Text and data of the whole-scene analysis trace steps.

use serde_json::{Value, json};

use super::Lang;
use arbiter_rules::trace::AnalyzeEffect;

/// Renders one analysis step.
pub(super) fn effect(e: &AnalyzeEffect, lang: Lang) -> (String, Value) {
    match e {
        AnalyzeEffect::Applied { pairs } => (
            match lang {
                Lang::En => format!("applied to {pairs} pair(s)"),
                Lang::Fr => format!("appliquée à {pairs} paire(s)"),
            },
            json!({"pairs": pairs}),
        ),
    }
}
