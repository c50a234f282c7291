//! Rendering the rules' typed trace: English or French text, structured effect, and source.

/// Declares an effect family's wire form: one struct per variant, with the fields in the
/// order its JSON object has always had (alphabetical), and an enum over them that serialises
/// a variant as its struct's object with one more field, `type`: `<family>.<variant>` in
/// snake case (`cover.cover_choice`), so that each effect object matches exactly one branch
/// of the document's `oneOf` (its `discriminator`). An absent `Option` field is omitted,
/// never `null`. `reuses` adds variants of a type declared elsewhere. The render function of
/// the family builds them; their fields are private.
macro_rules! wire {
    ($(#[doc = $family_doc:literal])* $family:ident {
        $($(#[$meta:meta])* $variant:ident $name:ident { $($(#[$field_meta:meta])* $field:ident: $ty:ty),* $(,)? }),* $(,)?
    } $(reuses {
        $($(#[$reuse_meta:meta])* $reuse:ident($reused:ty)),* $(,)?
    })?) => {
        $(#[doc = $family_doc])*
        #[derive(Debug, Clone)]
        pub enum $family {
            $($(#[$meta])* $variant($name),)*
            $($($(#[$reuse_meta])* $reuse($reused),)*)?
        }

        impl serde::Serialize for $family {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    $($family::$variant(v) => $crate::render::shared::Tagged { r#type: effect_tag!($family, $variant), inner: v }.serialize(serializer),)*
                    $($($family::$reuse(v) => $crate::render::shared::Tagged { r#type: effect_tag!($family, $reuse), inner: v }.serialize(serializer),)*)?
                }
            }
        }

        impl $crate::render::shared::EffectFamily for $family {
            fn members(out: &mut Vec<$crate::render::shared::Member>) {
                $(out.push($crate::render::shared::Member::of::<$name>(effect_tag!($family, $variant)));)*
                $($(out.push($crate::render::shared::Member::of::<$reused>(effect_tag!($family, $reuse)));)*)?
            }
        }

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
                $($(#[$field_meta])* #[serde(skip_serializing_if = "crate::render::shared::Absent::absent")] $field: $ty,)*
            }

            impl From<$name> for $family {
                fn from(v: $name) -> $family {
                    $family::$variant(v)
                }
            }
        )*
    };
}

/// The `type` of an effect: `<family>.<variant>` in snake case, made at compile time.
macro_rules! effect_tag {
    ($family:ident, $variant:ident) => {{
        const LEN: usize = $crate::render::shared::tag_len(stringify!($family), stringify!($variant));
        const BYTES: [u8; LEN] = $crate::render::shared::tag_bytes(stringify!($family), stringify!($variant));
        const TAG: &str = match std::str::from_utf8(&BYTES) {
            Ok(s) => s,
            Err(_) => panic!("an effect tag is ASCII"),
        };
        TAG
    }};
}

mod analyze;
mod attack;
mod cover;
mod damage;
pub mod flanking;
pub mod glossary;
mod grid;
mod initiative;
mod maneuver;
mod mounted;
mod movement;
mod range;
mod shared;
pub mod vision;

pub use analyze::AnalyzeEffectOut;
pub use attack::AttackEffectOut;
pub use cover::CoverEffectOut;
pub use damage::DamageEffectOut;
pub use flanking::FlankEffectOut;
pub use grid::GridEffectOut;
pub use initiative::InitiativeEffectOut;
pub use maneuver::ManeuverEffectOut;
pub use mounted::MountedEffectOut;
pub use movement::MoveEffectOut;
pub use range::RangeEffectOut;
pub use vision::VisionEffectOut;

pub use shared::{EffectFamily, Member};

use serde::Serialize;
use utoipa::ToSchema;

pub use crate::lang::Lang;
use crate::lang::french_typography;
use arbiter_rules::catalog;
use arbiter_rules::ruleset::{RulesetId, Words};
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
/// variant's object itself (with its `type`).
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
    /// See [`MountedEffectOut`].
    Mounted(MountedEffectOut),
    /// See [`DamageEffectOut`].
    Damage(DamageEffectOut),
}

/// Every member of every family, in order.
fn members() -> Vec<Member> {
    let mut out = Vec::new();
    GridEffectOut::members(&mut out);
    RangeEffectOut::members(&mut out);
    AttackEffectOut::members(&mut out);
    CoverEffectOut::members(&mut out);
    VisionEffectOut::members(&mut out);
    FlankEffectOut::members(&mut out);
    ManeuverEffectOut::members(&mut out);
    MoveEffectOut::members(&mut out);
    InitiativeEffectOut::members(&mut out);
    AnalyzeEffectOut::members(&mut out);
    MountedEffectOut::members(&mut out);
    DamageEffectOut::members(&mut out);
    out
}

/// One branch of the effects' `oneOf`: a member struct, the component the branch names, and
/// every tag that names it (a struct reused by two families has two).
struct Branch {
    name: String,
    component: String,
    tags: Vec<&'static str>,
}

/// The branches, in order. A struct that is also a field of another effect (a push inside a
/// secondary bull rush) is left untagged, as that field holds it, and its branch is
/// `<name>Effect`: the struct with its `type`.
fn branches(members: &[Member]) -> Vec<Branch> {
    let nested: Vec<&str> = members.iter().flat_map(|m| m.nested.iter().map(|(n, _)| n.as_str())).collect();
    let mut out: Vec<Branch> = Vec::new();
    for m in members {
        match out.iter_mut().find(|b| b.name == m.name) {
            Some(b) => b.tags.push(m.tag),
            None => out.push(Branch {
                name: m.name.clone(),
                component: if nested.contains(&m.name.as_str()) {
                    format!("{}Effect", m.name)
                } else {
                    m.name.clone()
                },
                tags: vec![m.tag],
            }),
        }
    }
    out
}

/// `oneOf` the member structs, discriminated by `type`: every effect object matches one.
impl utoipa::PartialSchema for EffectOut {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{Discriminator, OneOfBuilder};
        let mut discriminator = Discriminator::new("type");
        let mut one_of = OneOfBuilder::new().description(Some(
            "A trace step's structured data: the object of one variant of one question's effects, named by its `type` (`<family>.<variant>`).",
        ));
        for b in branches(&members()) {
            let reference = format!("#/components/schemas/{}", b.component);
            for tag in b.tags {
                discriminator.mapping.insert(tag.to_owned(), reference.clone());
            }
            one_of = one_of.item(utoipa::openapi::Ref::new(reference));
        }
        one_of.discriminator(Some(discriminator)).into()
    }
}

impl utoipa::ToSchema for EffectOut {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, Type};
        let members = members();
        let branches = branches(&members);
        let is_member = |name: &str| branches.iter().any(|b| b.name == name);
        for m in &members {
            for (name, schema) in &m.nested {
                if !is_member(name) {
                    let mut schema = schema.clone();
                    require_present(&mut schema);
                    schemas.push((name.clone(), schema));
                }
            }
        }
        for b in &branches {
            let Some(m) = members.iter().find(|m| m.name == b.name) else { continue };
            let mut schema = m.schema.clone();
            require_present(&mut schema);
            if b.component == b.name {
                if let Some(object) = own_fields(&mut schema) {
                    add_tag(object, &b.tags);
                }
                schemas.push((b.name.clone(), schema));
            } else {
                schemas.push((b.name.clone(), schema));
                let mut tag = ObjectBuilder::new().schema_type(Type::Object).build();
                add_tag(&mut tag, &b.tags);
                let branch = AllOfBuilder::new()
                    .item(utoipa::openapi::Ref::from_schema_name(b.name.clone()))
                    .item(tag)
                    .description(Some(format!("`{}` as a trace step's effect, with its `type`.", b.name)));
                schemas.push((b.component.clone(), branch.into()));
            }
        }
    }
}

/// The object holding a struct's own fields: the schema, or the object beside a flattened
/// field's `$ref` in an `allOf`.
fn own_fields(
    schema: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
) -> Option<&mut utoipa::openapi::schema::Object> {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::schema::Schema;
    match schema {
        RefOr::T(Schema::Object(object)) => Some(object),
        RefOr::T(Schema::AllOf(all)) => all.items.iter_mut().find_map(|i| match i {
            RefOr::T(Schema::Object(object)) => Some(object),
            _ => None,
        }),
        _ => None,
    }
}

/// Requires every field that is not an `Option`: every field of a `wire!` struct is
/// `skip_serializing_if` (for the `Option`s), which utoipa reads as optional.
fn require_present(schema: &mut utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) {
    if let Some(object) = own_fields(schema) {
        object.required =
            object.properties.iter().filter(|(_, p)| !nullable(p)).map(|(k, _)| k.clone()).collect();
    }
}

/// Adds the required `type` property naming a member (`tags`).
fn add_tag(object: &mut utoipa::openapi::schema::Object, tags: &[&'static str]) {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    let tag = ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(tags.iter().copied()))
        .description(Some("The effect's family and variant (`<family>.<variant>`)."));
    object.properties.insert("type".to_owned(), tag.into());
    object.required.insert(0, "type".to_owned());
}

/// Whether utoipa declared a property `T | null` (the schema of an `Option`).
fn nullable(p: &utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>) -> bool {
    let v = serde_json::to_value(p).unwrap_or_default();
    let null = |t: &serde_json::Value| t == "null";
    v["type"].as_array().is_some_and(|ts| ts.iter().any(null))
        || v["oneOf"].as_array().is_some_and(|bs| bs.iter().any(|b| null(&b["type"])))
}

/// Renders a whole trace of a question asked in `ruleset`, whose words its texts speak.
pub fn trace(t: &Trace, lang: Lang, ruleset: RulesetId) -> Vec<TraceStep> {
    let words = &ruleset.rules().words;
    t.steps.iter().map(|s| step(s, lang, words)).collect()
}

fn step(s: &Step, lang: Lang, words: &Words) -> TraceStep {
    let (text, effect) = effect(&s.effect, lang, words);
    let source = catalog::rule(s.rule).map_or("RULES.md", |r| r.source);
    let text = match (s.variant, lang) {
        (Some(v), Lang::En) => format!("{text} (variant {v})"),
        (Some(v), Lang::Fr) => french_typography(&format!("{text} (variante {v})")),
        (None, Lang::Fr) => french_typography(&text),
        (None, Lang::En) => text,
    };
    TraceStep { rule: s.rule, variant: s.variant, text, effect, source }
}

fn effect(e: &Effect, lang: Lang, voc: &Words) -> (String, EffectOut) {
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
        Effect::Mounted(e) => family(mounted::effect(e, lang), EffectOut::Mounted),
        Effect::Damage(e) => family(damage::effect(e, lang), EffectOut::Damage),
    }
}
