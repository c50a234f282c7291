//! Rendering the rules' typed trace: English or French text, structured effect, and source.

mod analyze;
mod attack;
mod cover;
mod flanking;
mod grid;
mod initiative;
mod maneuver;
mod movement;
mod range;
mod vision;

use axum::http::{HeaderMap, header};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use arbiter_rules::catalog;
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::trace::{Effect, Step, Trace};

/// The language of trace texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English (default).
    En,
    /// French (the sources' language).
    Fr,
}

impl Lang {
    /// Picks from `Accept-Language`: the supported language with the highest q-value;
    /// English when none is supported.
    pub fn from_headers(headers: &HeaderMap) -> Lang {
        let Some(v) = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()) else {
            return Lang::En;
        };
        let mut best: Option<(f32, Lang)> = None;
        for part in v.split(',') {
            let mut it = part.split(';');
            let tag = it.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = it
                .find_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()))
                .unwrap_or(1.0);
            let lang = match tag.split('-').next() {
                Some("fr") => Lang::Fr,
                Some("en") => Lang::En,
                _ => continue,
            };
            if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map_or(Lang::En, |(_, l)| l)
    }

    /// The `Content-Language` value.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }
}

/// One rendered trace step.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TraceStep {
    /// The RULES.md rule id (see `GET /v1/rules`).
    pub rule: &'static str,
    /// The variant that decided this step, if one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<&'static str>,
    /// What happened, in the requested language.
    pub text: String,
    /// Structured data of the step.
    #[schema(value_type = Object)]
    pub effect: Value,
    /// Where the rule comes from (seed file and French heading, or SRD section).
    pub source: &'static str,
}

/// Renders a whole trace.
pub fn trace(t: &Trace, lang: Lang) -> Vec<TraceStep> {
    t.steps.iter().map(|s| step(s, lang)).collect()
}

fn step(s: &Step, lang: Lang) -> TraceStep {
    let (text, effect) = effect(&s.effect, lang);
    let source = catalog::rule(s.rule).map_or("RULES.md", |r| r.source);
    let text = match (s.variant, lang) {
        (Some(v), Lang::En) => format!("{text} (variant {v})"),
        (Some(v), Lang::Fr) => format!("{text} (variante {v})"),
        (None, _) => text,
    };
    TraceStep { rule: s.rule, variant: s.variant, text, effect, source }
}

pub(super) fn pt(p: Point) -> Value {
    json!({"x": p.x.to_f64(), "y": p.y.to_f64()})
}

pub(super) fn sq(s: Square) -> Value {
    json!({"x": s.x, "y": s.y})
}

pub(super) fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

pub(super) fn list(ids: &[String]) -> String {
    ids.join(", ")
}

pub(crate) fn metres(feet: i64) -> String {
    let m = feet as f64 * 0.3;
    let s = format!("{m:.1}");
    s.replace('.', ",")
}

fn effect(e: &Effect, lang: Lang) -> (String, Value) {
    match e {
        Effect::Grid(e) => grid::effect(e, lang),
        Effect::Range(e) => range::effect(e, lang),
        Effect::Attack(e) => attack::effect(e, lang),
        Effect::Cover(e) => cover::effect(e, lang),
        Effect::Vision(e) => vision::effect(e, lang),
        Effect::Flanking(e) => flanking::effect(e, lang),
        Effect::Maneuver(e) => maneuver::effect(e, lang),
        Effect::Movement(e) => movement::effect(e, lang),
        Effect::Initiative(e) => initiative::effect(e, lang),
        Effect::Analyze(e) => analyze::effect(e, lang),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn lang(v: &'static str) -> Lang {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static(v));
        Lang::from_headers(&h)
    }

    #[test]
    fn accept_language() {
        assert_eq!(Lang::from_headers(&HeaderMap::new()), Lang::En);
        assert_eq!(lang("fr"), Lang::Fr);
        assert_eq!(lang("fr-CA, en;q=0.5"), Lang::Fr);
        assert_eq!(lang("en-GB, fr;q=0.9"), Lang::En);
        assert_eq!(lang("de, fr;q=0.3"), Lang::Fr);
        assert_eq!(lang("de"), Lang::En);
        assert_eq!(lang("fr;q=0, en"), Lang::En);
    }

    #[test]
    fn metres_use_french_decimal_comma() {
        assert_eq!(metres(5), "1,5");
        assert_eq!(metres(30), "9,0");
    }
}
