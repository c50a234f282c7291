//! Text and data of the flanking trace steps.

use serde_json::Value;

use super::Lang;
use arbiter_rules::flanking::FlankEffect;

/// Renders one flanking step.
pub(super) fn effect(e: &FlankEffect, _lang: Lang) -> (String, Value) {
    match *e {}
}
