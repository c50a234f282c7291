//! Text and data of the whole-scene analysis trace steps.

use crate::lang::Lang;
use arbiter_rules::trace::AnalyzeEffect;

/// Renders one analysis step.
pub(super) fn effect(e: &AnalyzeEffect, lang: Lang) -> (String, AnalyzeEffectOut) {
    match e {
        AnalyzeEffect::Applied { pairs } => (
            match lang {
                Lang::En => format!("applied to {pairs} pair(s)"),
                Lang::Fr => format!("appliquée à {pairs} paire(s)"),
            },
            AppliedStepOut { pairs: *pairs }.into(),
        ),
    }
}

wire! {
    /// A whole-scene analysis step (`AnalyzeEffect`) on the wire.
    AnalyzeEffectOut {
    /// A rule applied to this many pairs.
    Applied AppliedStepOut { pairs: usize },
    }
}
