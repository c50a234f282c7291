//! serde's error messages as plain sentences, in English and French.
//!
//! serde words its errors for Rust programmers ("invalid type: string \"12\", expected
//! i64", "missing field `weapon`"); a client needs "must be an integer, not a string" at
//! `/weapon`. serde's messages have a fixed grammar (its `de::Error` default methods), so they
//! are read back here into a [`Fault`], which says what is wrong in the API's terms: the
//! kind of JSON value expected, never a Rust type.

use crate::error::Text;
use crate::problems::{at_most, names};

/// What serde found wrong, read from its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// A value of the wrong JSON type (`given` is what was sent, when serde says).
    WrongType { given: Option<Given>, expected: Expected },
    /// A value of the right type but not accepted (an integer out of its type's range).
    WrongValue { expected: Expected },
    /// A list of the wrong length.
    WrongLength,
    /// A string that is none of the accepted values.
    UnknownValue { given: String, accepted: Vec<String> },
    /// A key the object does not take.
    UnknownField { key: String, accepted: Vec<String> },
    /// A key the object needs.
    MissingField { key: String },
    /// A key given twice.
    DuplicateField { key: String },
    /// A number too large for any number type.
    OutOfRange,
    /// A list one item past its bound (`crate::capped`), refused as it arrived; `exact` for
    /// a list of an exact count.
    PastBound { max: usize, exact: bool },
    /// Anything else.
    Other,
}

/// The kind of JSON value sent, as serde names it (`Unexpected`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    /// A string.
    String,
    /// A whole number.
    Integer,
    /// A number with a fraction or an exponent.
    Decimal,
    /// `true` or `false`.
    Boolean,
    /// `null`.
    Null,
    /// An array.
    List,
    /// An object.
    Object,
}

/// The kind of JSON value expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// An integer in `min..=max` (a Rust integer type's range).
    Integer { min: i128, max: i128 },
    /// Any number.
    Number,
    /// A string.
    String,
    /// A single character.
    Character,
    /// `true` or `false`.
    Boolean,
    /// An array.
    List,
    /// An object, with its fields when known.
    Object(Vec<String>),
    /// One of these strings.
    OneOf(Vec<String>),
    /// Something serde's message does not name in terms the API can repeat.
    Unknown,
}

impl Fault {
    /// Reads serde's message (its position already removed).
    pub fn read(msg: &str) -> Fault {
        if let Some(rest) = msg.strip_prefix("invalid type") {
            let (given, expected) = match rest.strip_prefix(": ") {
                Some(r) => match r.split_once(", expected ") {
                    Some((g, e)) => (given(g), expected(e)),
                    None => (given(r), Expected::Unknown),
                },
                None => (None, rest.strip_prefix(", expected ").map_or(Expected::Unknown, expected)),
            };
            return Fault::WrongType { given, expected };
        }
        if let Some(rest) = msg.strip_prefix("invalid value: ") {
            let e = rest.split_once(", expected ").map_or(Expected::Unknown, |(_, e)| expected(e));
            return Fault::WrongValue { expected: e };
        }
        if msg.starts_with("invalid length ") {
            return Fault::WrongLength;
        }
        if let Some(rest) = msg.strip_prefix("unknown variant ") {
            let (v, accepted) = named_then_list(rest);
            return Fault::UnknownValue { given: v, accepted };
        }
        if let Some(rest) = msg.strip_prefix("unknown field ") {
            let (key, accepted) = named_then_list(rest);
            return Fault::UnknownField { key, accepted };
        }
        if let Some(rest) = msg.strip_prefix("missing field ") {
            return Fault::MissingField { key: ticked(rest).into_iter().next().unwrap_or_default() };
        }
        if let Some(rest) = msg.strip_prefix("duplicate field ") {
            return Fault::DuplicateField { key: ticked(rest).into_iter().next().unwrap_or_default() };
        }
        for (start, exact) in [(crate::capped::PAST_BOUND, false), (crate::capped::PAST_EXACT, true)] {
            if let Some(max) = msg.strip_prefix(start).and_then(|n| n.parse().ok()) {
                return Fault::PastBound { max, exact };
            }
        }
        if msg == "number out of range" {
            return Fault::OutOfRange;
        }
        Fault::Other
    }

    /// The key the fault is about, when it names one under the pointer serde gave (a
    /// missing, unknown or repeated key is reported at the key itself).
    pub fn key(&self) -> Option<&str> {
        match self {
            Fault::UnknownField { key, .. } | Fault::MissingField { key } | Fault::DuplicateField { key } => {
                Some(key)
            }
            _ => None,
        }
    }

    /// The sentence, in both languages.
    pub fn text(&self) -> Text {
        match self {
            Fault::WrongType { given, expected } => {
                let (en, fr) = must_be(expected);
                match given.filter(|g| !expected.admits(*g)) {
                    Some(g) => {
                        let (g_en, g_fr) = g.words();
                        Text::new(format!("{en}, not {g_en}"), format!("{fr}, pas {g_fr}"))
                    }
                    None => Text::new(en, fr),
                }
            }
            Fault::WrongValue { expected: e @ Expected::Integer { .. } } => {
                let (en, fr) = must_be(e);
                Text::new(en, fr)
            }
            Fault::WrongValue { .. } => {
                Text::new("is not an accepted value", "n'est pas une valeur acceptée")
            }
            Fault::WrongLength => {
                Text::new("has the wrong number of items", "n'a pas le bon nombre d'éléments")
            }
            Fault::UnknownValue { given, accepted } if accepted.is_empty() => Text::new(
                format!("{given:?} is not an accepted value"),
                format!("« {given} » n'est pas une valeur acceptée"),
            ),
            Fault::UnknownValue { given, accepted } => Text::new(
                format!("{given:?} is not an accepted value; one of: {}", names(accepted)),
                format!("« {given} » n'est pas une valeur acceptée ; l'une de : {}", names(accepted)),
            ),
            Fault::UnknownField { accepted, .. } if accepted.is_empty() => Text::new(
                "is not a field here: this object takes no fields",
                "n'est pas un champ ici : cet objet ne prend aucun champ",
            ),
            Fault::UnknownField { accepted, .. } => Text::new(
                format!("is not a field here; the fields are: {}", names(accepted)),
                format!("n'est pas un champ ici ; les champs sont : {}", names(accepted)),
            ),
            Fault::MissingField { .. } => Text::new("is required", "est obligatoire"),
            Fault::DuplicateField { .. } => Text::new("is given twice", "est donné deux fois"),
            Fault::OutOfRange => Text::new("is too large a number", "est un nombre trop grand"),
            Fault::PastBound { max, exact: false } => at_most(*max, ("items", "éléments")),
            Fault::PastBound { max, exact: true } => Text::new(
                format!("must hold exactly {max} points"),
                format!("doit contenir exactement {max} points"),
            ),
            Fault::Other => Text::new("is not valid here", "n'est pas valide ici"),
        }
    }
}

impl Given {
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Given::String => ("a string", "une chaîne"),
            Given::Integer => ("an integer", "un entier"),
            Given::Decimal => ("a decimal number", "un nombre décimal"),
            Given::Boolean => ("a boolean", "un booléen"),
            Given::Null => ("null", "null"),
            Given::List => ("a list", "une liste"),
            Given::Object => ("an object", "un objet"),
        }
    }
}

impl Expected {
    /// Whether a value of kind `g` is of this kind (then the value itself was wrong, and
    /// naming its kind would confuse: "must be an integer, not an integer").
    fn admits(&self, g: Given) -> bool {
        matches!(
            (self, g),
            (Expected::Integer { .. }, Given::Integer)
                | (Expected::Number, Given::Integer | Given::Decimal)
                | (Expected::String | Expected::Character | Expected::OneOf(_), Given::String)
                | (Expected::Boolean, Given::Boolean)
                | (Expected::List, Given::List)
                | (Expected::Object(_), Given::Object)
        )
    }

    /// A JSON value of this kind, standing in for a wrong one so that the rest of the body
    /// can still be checked (see `extract::parse`); none when the kind is unknown.
    pub fn placeholder(&self) -> Option<serde_json::Value> {
        use serde_json::Value;
        Some(match self {
            Expected::Integer { min, max } => Value::from(i64::try_from((*min).max(0).min(*max)).ok()?),
            Expected::Number => Value::from(0),
            Expected::String => Value::from(""),
            Expected::Character => Value::from("."),
            Expected::Boolean => Value::from(false),
            Expected::List => Value::Array(Vec::new()),
            Expected::Object(_) => Value::Object(serde_json::Map::new()),
            Expected::OneOf(v) => Value::from(v.first()?.clone()),
            Expected::Unknown => return None,
        })
    }
}

/// "must be …" for an expected kind.
fn must_be(e: &Expected) -> (String, String) {
    match e {
        Expected::Integer { min, max } if *min == 0 && *max > i128::from(u32::MAX) => {
            ("must be a whole number of 0 or more".into(), "doit être un nombre entier positif ou nul".into())
        }
        Expected::Integer { max, .. } if *max > i128::from(u32::MAX) => {
            ("must be an integer".into(), "doit être un nombre entier".into())
        }
        Expected::Integer { min, max } => (
            format!("must be an integer between {min} and {max}"),
            format!("doit être un nombre entier entre {min} et {max}"),
        ),
        Expected::Number => ("must be a number".into(), "doit être un nombre".into()),
        Expected::String => ("must be a string".into(), "doit être une chaîne".into()),
        Expected::Character => ("must be a single character".into(), "doit être un seul caractère".into()),
        Expected::Boolean => ("must be true or false".into(), "doit valoir true ou false".into()),
        Expected::List => ("must be a list".into(), "doit être une liste".into()),
        Expected::Object(fields) if fields.is_empty() => {
            ("must be an object".into(), "doit être un objet".into())
        }
        Expected::Object(fields) => (
            format!("must be an object with the fields {}", names(fields)),
            format!("doit être un objet avec les champs {}", names(fields)),
        ),
        Expected::OneOf(v) if v.is_empty() => ("must be a string".into(), "doit être une chaîne".into()),
        Expected::OneOf(v) => {
            (format!("must be one of: {}", names(v)), format!("doit être l'une des valeurs : {}", names(v)))
        }
        Expected::Unknown => ("has the wrong type".into(), "n'a pas le bon type".into()),
    }
}

/// serde's `Unexpected` display: `string "x"`, `integer `3``, `floating point `1.5``, …
fn given(s: &str) -> Option<Given> {
    let word = |w: &str| s == w || s.starts_with(&format!("{w} "));
    Some(if word("string") || word("character") {
        Given::String
    } else if word("integer") {
        Given::Integer
    } else if word("floating point") {
        Given::Decimal
    } else if word("boolean") {
        Given::Boolean
    } else if s == "null" || s == "unit" {
        Given::Null
    } else if s == "sequence" {
        Given::List
    } else if s == "map" {
        Given::Object
    } else {
        return None;
    })
}

/// serde's and our visitors' `expecting` texts.
fn expected(s: &str) -> Expected {
    let int = |min: i128, max: i128| Expected::Integer { min, max };
    match s {
        "i8" => int(i8::MIN.into(), i8::MAX.into()),
        "i16" => int(i16::MIN.into(), i16::MAX.into()),
        "i32" => int(i32::MIN.into(), i32::MAX.into()),
        "i64" | "i128" | "isize" => int(i64::MIN.into(), i64::MAX.into()),
        "u8" => int(0, u8::MAX.into()),
        "u16" => int(0, u16::MAX.into()),
        "u32" => int(0, u32::MAX.into()),
        "u64" | "u128" | "usize" => int(0, u64::MAX.into()),
        "f32" | "f64" => Expected::Number,
        "a string" | "a borrowed string" | "string" => Expected::String,
        "a character" | "a char" => Expected::Character,
        "a boolean" => Expected::Boolean,
        "a sequence" => Expected::List,
        "a map" | "an object" | "string or map" => Expected::Object(Vec::new()),
        _ => {
            if let Some(fields) = s.strip_prefix("an object with the fields ") {
                Expected::Object(ticked(fields))
            } else if s.starts_with("one of ") || s.starts_with('`') {
                Expected::OneOf(ticked(s))
            } else if s.starts_with("struct ") || s.starts_with("map") {
                Expected::Object(Vec::new())
            } else if s.starts_with("a sequence") || s.starts_with("a tuple") || s.starts_with("an array") {
                Expected::List
            } else {
                Expected::Unknown
            }
        }
    }
}

/// "`k`, expected one of `a`, `b`" / "`k`, there are no fields": the name and the list.
fn named_then_list(s: &str) -> (String, Vec<String>) {
    let mut names = ticked(s).into_iter();
    let first = names.next().unwrap_or_default();
    (first, names.collect())
}

/// The `ticked` names of a message, in order.
fn ticked(s: &str) -> Vec<String> {
    s.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Lang;

    fn en(msg: &str) -> String {
        Fault::read(msg).text().get(Lang::En).to_owned()
    }

    fn fr(msg: &str) -> String {
        Fault::read(msg).text().get(Lang::Fr).to_owned()
    }

    /// serde's messages for each class, as serde and serde_json word them, become sentences
    /// with no Rust type in them.
    #[test]
    fn every_class_reads_as_a_sentence() {
        let english = [
            ("invalid type: string \"12\", expected i64", "must be an integer, not a string"),
            ("invalid type: floating point `1.5`, expected i64", "must be an integer, not a decimal number"),
            ("invalid value: integer `-1`, expected u32", "must be an integer between 0 and 4294967295"),
            ("invalid type: integer `3`, expected a string", "must be a string, not an integer"),
            ("invalid type: null, expected a sequence", "must be a list, not null"),
            ("invalid type: boolean `true`, expected f64", "must be a number, not a boolean"),
            (
                "invalid type: sequence, expected an object with the fields `x`, `y`",
                "must be an object with the fields x, y, not a list",
            ),
            ("invalid type: string \"a\", expected struct CoverRequest", "must be an object, not a string"),
            (
                "invalid length 0, expected struct CoverRequest with 7 elements",
                "has the wrong number of items",
            ),
            (
                "unknown variant `bul_rush`, expected one of `bull_rush`, `trip`",
                "\"bul_rush\" is not an accepted value; one of: bull_rush, trip",
            ),
            ("unknown variant `x`, expected `a` or `b`", "\"x\" is not an accepted value; one of: a, b"),
            ("invalid type, expected one of `A`, `B`", "must be one of: A, B"),
            ("invalid type: integer `3`, expected one of `A`, `B`", "must be one of: A, B, not an integer"),
            (
                "unknown field `widht`, expected one of `width`, `height`",
                "is not a field here; the fields are: width, height",
            ),
            ("unknown field `a`, there are no fields", "is not a field here: this object takes no fields"),
            ("missing field `weapon`", "is required"),
            ("duplicate field `n`", "is given twice"),
            ("number out of range", "is too large a number"),
            ("data did not match any variant of untagged enum DiceIn", "is not valid here"),
        ];
        for (msg, sentence) in english {
            assert_eq!(en(msg), sentence, "{msg}");
        }
        let french = [
            ("invalid type: string \"12\", expected i64", "doit être un nombre entier, pas une chaîne"),
            (
                "invalid type: sequence, expected an object with the fields `x`, `y`",
                "doit être un objet avec les champs x, y, pas une liste",
            ),
            (
                "unknown variant `bul_rush`, expected one of `bull_rush`, `trip`",
                "«\u{a0}bul_rush\u{a0}» n'est pas une valeur acceptée\u{a0}; l'une de\u{a0}: bull_rush, trip",
            ),
            ("missing field `weapon`", "est obligatoire"),
        ];
        for (msg, sentence) in french {
            assert_eq!(fr(msg), sentence, "{msg}");
        }
        assert_eq!(Fault::read("missing field `weapon`").key(), Some("weapon"));
    }

    /// The stand-in for a wrong value is of the expected kind.
    #[test]
    fn placeholders_fit_the_expected_kind() {
        use serde_json::json;
        let p = |msg: &str| match Fault::read(msg) {
            Fault::WrongType { expected, .. } | Fault::WrongValue { expected } => expected.placeholder(),
            _ => None,
        };
        assert_eq!(p("invalid type: string \"12\", expected i64"), Some(json!(0)));
        assert_eq!(p("invalid type: null, expected an object with the fields `x`"), Some(json!({})));
        assert_eq!(p("invalid type: null, expected one of `a`, `b`"), Some(json!("a")));
        assert_eq!(p("invalid type: null, expected a sequence"), Some(json!([])));
        assert_eq!(p("invalid type: null, expected something odd"), None);
    }
}
