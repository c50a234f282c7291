//! Rendering the rules' typed trace: English or French text, structured effect, and source.

/// Declares an effect family's wire form: one struct per variant, with the fields in the
/// order its JSON object has always had (alphabetical), and an untagged enum over them, so an
/// effect serialises straight to its object; `reuses` adds variants of a type declared
/// elsewhere. The render function of the family builds them; their fields are private.
macro_rules! wire {
    ($(#[doc = $family_doc:literal])* $family:ident {
        $($(#[$meta:meta])* $variant:ident $name:ident { $($(#[$field_meta:meta])* $field:ident: $ty:ty),* $(,)? }),* $(,)?
    } $(reuses {
        $($(#[$reuse_meta:meta])* $reuse:ident($reused:ty)),* $(,)?
    })?) => {
        $(#[doc = $family_doc])*
        #[derive(Debug, Clone, serde::Serialize)]
        #[serde(untagged)]
        pub enum $family {
            $($(#[$meta])* $variant($name),)*
            $($($(#[$reuse_meta])* $reuse($reused),)*)?
        }
        any_of!($family, &[$($family_doc),*], [$($name,)* $($($reused,)*)?]);
        $($(
            impl From<$reused> for $family {
                fn from(v: $reused) -> $family {
                    $family::$reuse(v)
                }
            }
        )*)?
        $(
            $(#[$meta])*
            #[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
            pub struct $name {
                $($(#[$field_meta])* $field: $ty,)*
            }

            impl From<$name> for $family {
                fn from(v: $name) -> $family {
                    $family::$variant(v)
                }
            }
        )*
    };
}

/// The OpenAPI schema of an untagged enum: `anyOf` its members' schemas, by reference. Not
/// `oneOf`: an object may fit more than one member's schema (`{"creatures": [..],
/// "reason": ..}` fits two flanking steps and the elevation step), and `oneOf` demands
/// exactly one, so it would reject true answers.
macro_rules! any_of {
    ($ty:ident, $doc:expr, [$($member:ty),* $(,)?]) => {
        impl utoipa::PartialSchema for $ty {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::AnyOfBuilder::new()
                    $(.item(utoipa::openapi::Ref::from_schema_name(<$member as utoipa::ToSchema>::name())))*
                    .description(Some($crate::render::doc_text($doc)))
                    .into()
            }
        }

        impl utoipa::ToSchema for $ty {
            fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                $(
                    schemas.push((
                        <$member as utoipa::ToSchema>::name().into(),
                        <$member as utoipa::PartialSchema>::schema(),
                    ));
                    <$member as utoipa::ToSchema>::schemas(schemas);
                )*
            }
        }
    };
}

/// A description from doc-comment lines (each starts with the space after `///`).
fn doc_text(lines: &[&str]) -> String {
    lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join("\n")
}

mod analyze;
mod attack;
mod cover;
mod flanking;
pub(crate) mod glossary;
mod grid;
mod initiative;
mod maneuver;
mod movement;
mod range;
mod vision;

pub use analyze::AnalyzeEffectOut;
pub use attack::AttackEffectOut;
pub use cover::CoverEffectOut;
pub use flanking::FlankEffectOut;
pub use grid::GridEffectOut;
pub use initiative::InitiativeEffectOut;
pub use maneuver::ManeuverEffectOut;
pub use movement::MoveEffectOut;
pub use range::RangeEffectOut;
pub use vision::VisionEffectOut;

use serde::Serialize;
use utoipa::ToSchema;

pub use crate::lang::Lang;
use crate::lang::french_typography;
use crate::wire::{PointOut, SquareOut};
use arbiter_rules::catalog;
use arbiter_rules::grid::{Point, Square};
use arbiter_rules::trace::{Effect, Step, Trace};

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
    /// Structured data of the step: the object of the effect's family and variant.
    pub effect: EffectOut,
    /// Where the rule comes from (seed file and French heading, or SRD section).
    pub source: &'static str,
}

/// A trace step's structured data: one family per question, untagged, so the JSON is the
/// variant's object itself.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum EffectOut {
    /// See [`GridEffectOut`].
    Grid(GridEffectOut),
    /// See [`RangeEffectOut`].
    Range(RangeEffectOut),
    /// See [`AttackEffectOut`].
    Attack(AttackEffectOut),
    /// See [`CoverEffectOut`].
    Cover(CoverEffectOut),
    /// See [`VisionEffectOut`].
    Vision(VisionEffectOut),
    /// See [`FlankEffectOut`].
    Flanking(FlankEffectOut),
    /// See [`ManeuverEffectOut`].
    Maneuver(ManeuverEffectOut),
    /// See [`MoveEffectOut`].
    Movement(MoveEffectOut),
    /// See [`InitiativeEffectOut`].
    Initiative(InitiativeEffectOut),
    /// See [`AnalyzeEffectOut`].
    Analyze(AnalyzeEffectOut),
}

any_of!(
    EffectOut,
    &["A trace step's structured data: the object of one variant of one question's effects."],
    [
        GridEffectOut,
        RangeEffectOut,
        AttackEffectOut,
        CoverEffectOut,
        VisionEffectOut,
        FlankEffectOut,
        ManeuverEffectOut,
        MoveEffectOut,
        InitiativeEffectOut,
        AnalyzeEffectOut,
    ]
);

/// Renders a whole trace.
pub fn trace(t: &Trace, lang: Lang) -> Vec<TraceStep> {
    t.steps.iter().map(|s| step(s, lang)).collect()
}

fn step(s: &Step, lang: Lang) -> TraceStep {
    let (text, effect) = effect(&s.effect, lang, glossary::Family::of_rule(s.rule));
    let source = catalog::rule(s.rule).map_or("RULES.md", |r| r.source);
    let text = match (s.variant, lang) {
        (Some(v), Lang::En) => format!("{text} (variant {v})"),
        (Some(v), Lang::Fr) => french_typography(&format!("{text} (variante {v})")),
        (None, Lang::Fr) => french_typography(&text),
        (None, Lang::En) => text,
    };
    TraceStep { rule: s.rule, variant: s.variant, text, effect, source }
}

pub(super) fn pt(p: Point) -> PointOut {
    PointOut::from(p)
}

pub(super) fn sq(s: Square) -> SquareOut {
    SquareOut::from(s)
}

pub(super) fn plural(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

pub(super) fn list(ids: &[String]) -> String {
    ids.join(", ")
}

/// A distance in the language (see [`glossary::distance`]).
pub(super) fn dist(feet: impl Into<i64>, lang: Lang) -> String {
    glossary::distance(feet.into(), lang)
}

fn effect(e: &Effect, lang: Lang, voc: glossary::Family) -> (String, EffectOut) {
    fn family<T>((text, out): (String, T), wrap: fn(T) -> EffectOut) -> (String, EffectOut) {
        (text, wrap(out))
    }
    match e {
        Effect::Grid(e) => family(grid::effect(e, lang), EffectOut::Grid),
        Effect::Range(e) => family(range::effect(e, lang), EffectOut::Range),
        Effect::Attack(e) => family(attack::effect(e, lang, voc), EffectOut::Attack),
        Effect::Cover(e) => family(cover::effect(e, lang, voc), EffectOut::Cover),
        Effect::Vision(e) => family(vision::effect(e, lang), EffectOut::Vision),
        Effect::Flanking(e) => family(flanking::effect(e, lang), EffectOut::Flanking),
        Effect::Maneuver(e) => family(maneuver::effect(e, lang, voc), EffectOut::Maneuver),
        Effect::Movement(e) => family(movement::effect(e, lang), EffectOut::Movement),
        Effect::Initiative(e) => family(initiative::effect(e, lang), EffectOut::Initiative),
        Effect::Analyze(e) => family(analyze::effect(e, lang), EffectOut::Analyze),
    }
}
