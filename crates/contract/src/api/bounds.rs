//! The fixed bounds of the input contract and the schema-only types that state them in the
//! OpenAPI document (`value_type` on the wire fields). A leaf: the wire types and the contract
//! walk both read it, and it imports nothing from `api`.

use std::collections::BTreeMap;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};

/// Largest magnitude of a stat (AC, bonuses, modifiers, saves): ±1,000 keeps every sum the
/// rules make far from `i32` overflow.
pub const STAT: i64 = 1000;
/// Largest reach, feet.
pub const REACH_FT: i64 = 1000;
/// Largest speed, feet.
pub const SPEED_FT: i64 = 10_000;
/// Largest range, sense or light radius, feet.
pub const RANGE_FT: i64 = 100_000;
/// Largest magnitude of an elevation, feet.
pub const ELEVATION_FT: i64 = 100_000;
/// Largest magnitude of a square coordinate (squares outside the grid are refused where a
/// square must lie inside it; this only bounds the number).
pub const SQUARE: i64 = 1_000_000;
/// Largest die face (a d100).
pub const FACE: i64 = 100;
/// Most faces given for one purpose.
pub const FACES: usize = 8;
/// Most faces given for one creature's initiative (the roll, then any roll-offs).
pub const INITIATIVE_FACES: usize = 64;
/// Longest feat id, weapon name, damage type, characters.
pub const NAME_CHARS: usize = 64;
/// Most feats, conditions.
pub const TAGS: usize = 64;
/// Most variants switched in one encounter.
pub const VARIANTS: usize = 64;
/// Longest variant key, characters.
pub const VARIANT_KEY_CHARS: usize = 128;
/// Most squares in a charge path.
pub const CHARGE_PATH: usize = 256;
/// Largest damage taken from an attack of opportunity.
pub const AOO_DAMAGE: i64 = 1_000_000;

/// Schema-only types: the items of lists of ids, feats, map rows and die faces, so that the
/// document states their bounds (`value_type` on the wire fields).
macro_rules! schema_type {
    ($(#[$doc:meta])* $name:ident => $schema:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                $schema.into()
            }
        }

        impl utoipa::ToSchema for $name {}
    };
}

fn string(min: usize, max: usize, description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length((min > 0).then_some(min))
        .max_length(Some(max))
        .description(Some(description))
}

fn face() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(1))
        .maximum(Some(FACE))
        .description(Some("A die face, from 1 to the die's sides (at most 100)."))
}

schema_type!(
    /// A creature id in a list.
    CreatureId => string(1, 64, "A creature id (1 to 64 bytes, `ARBITER_MAX_ID_BYTES`).")
);
schema_type!(
    /// A feat id.
    FeatId => string(1, NAME_CHARS, "A feat id (`improved_trip`).")
);
schema_type!(
    /// A damage type or a material in a list.
    DamageWord => string(1, 64, "A damage type (fire, slashing) or a material (silver, magic).")
);
schema_type!(
    /// A row of `map` or `light_map`.
    Row => string(0, 1000, "One row, one character per square (at most `ARBITER_MAX_GRID_SIDE`).")
);
schema_type!(
    /// The `variants` map.
    VariantMap => ObjectBuilder::new()
        .schema_type(Type::Object)
        .property_names(Some(string(1, VARIANT_KEY_CHARS, "A variant key (a rule id).")))
        .additional_properties(Some(ObjectBuilder::new().schema_type(Type::Boolean)))
        .max_properties(Some(VARIANTS))
);
schema_type!(
    /// The given initiative faces, keyed by creature id.
    InitiativeRolls => ObjectBuilder::new()
        .schema_type(Type::Object)
        .property_names(Some(string(1, 64, "A creature id (1 to 64 bytes, `ARBITER_MAX_ID_BYTES`).")))
        .additional_properties(Some(
            ArrayBuilder::new()
                .items(face())
                .max_items(Some(INITIATIVE_FACES))
                .description(Some("The roll's faces, then any roll-off dice.")),
        ))
        .max_properties(Some(500))
);
schema_type!(
    /// A die face.
    Face => face()
);
schema_type!(
    /// A 5e initiative group.
    Group => ArrayBuilder::new()
        .items(string(1, 64, "A creature id (1 to 64 bytes, `ARBITER_MAX_ID_BYTES`)."))
        .max_items(Some(500))
        .description(Some("Ids of identical creatures that share one roll."))
);

/// Deserializes a map whose keys must be distinct (`deserialize_with`): serde's maps keep
/// the last value of a repeated key silently; the contract refuses it, like a repeated field
/// (the extractor points at the key).
pub fn unique_keys<'de, D, V>(d: D) -> Result<BTreeMap<String, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    V: serde::Deserialize<'de>,
{
    struct Unique<V>(std::marker::PhantomData<V>);

    impl<'de, V: serde::Deserialize<'de>> serde::de::Visitor<'de> for Unique<V> {
        type Value = BTreeMap<String, V>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(key) = map.next_key::<String>()? {
                if out.contains_key(&key) {
                    return Err(serde::de::Error::custom(format_args!("duplicate field `{key}`")));
                }
                let value = map.next_value()?;
                out.insert(key, value);
            }
            Ok(out)
        }
    }

    d.deserialize_map(Unique(std::marker::PhantomData))
}
