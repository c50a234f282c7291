//! The closed sets of the requests, read from the rules crate's own lists: a wire type per
//! set, holding the rules' value, that reads, writes and documents the set from the rules'
//! `ALL` and `id()`. A value added in the rules crate (a condition, a wall kind) reaches the
//! wire and the OpenAPI enum with no edit here; its words go into `render/glossary.rs`.
//! (The sets the answers hold are documented the same way, by `wire::closed_set!`.)

/// A wire type for a closed set of the rules crate: `$name(pub $rules)`, read as one of the
/// ids of `$all` (serde's "unknown variant …, expected one of …" for any other string, as a
/// derived enum says it), written as its id, documented as a string enum named `$name`.
macro_rules! rules_set {
    ($(#[doc = $doc:literal])* $name:ident($rules:ty) = $all:expr) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name(pub $rules);

        impl $name {
            /// The wire ids, in the rules' order (serde's "expected one of" needs a `'static`
            /// list).
            pub fn ids() -> &'static [&'static str] {
                static IDS: std::sync::LazyLock<Vec<&'static str>> =
                    std::sync::LazyLock::new(|| $all.iter().map(|v| v.id()).collect());
                &IDS
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                // As an enum of unit variants, so that a wrong value or type is reported as
                // for any other wire enum.
                struct Id;
                impl<'de> serde::de::Visitor<'de> for Id {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str(concat!("enum ", stringify!($name)))
                    }
                    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<$name, A::Error> {
                        use serde::de::VariantAccess;
                        let (id, variant): (String, _) = data.variant()?;
                        variant.unit_variant()?;
                        $all.iter()
                            .find(|v| v.id() == id)
                            .map(|v| $name(*v))
                            .ok_or_else(|| serde::de::Error::unknown_variant(&id, $name::ids()))
                    }
                }
                deserializer.deserialize_enum(stringify!($name), $name::ids(), Id)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.0.id())
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description(Some([$($doc.trim()),*].join("\n")))
                    .enum_values(Some($name::ids().iter().copied()))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}
    };
}

pub(crate) use rules_set;
