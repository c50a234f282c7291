//! `AppJson`: the JSON body extractor whose rejections are problem documents with pointers;
//! `Negotiated`: the language and media type the client accepts.

pub mod negotiate;
mod serde_text;
mod strict;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::Value;
use serde_path_to_error::Segment;

use crate::AppState;
use crate::api::contract::Contract;
use crate::error::{AppError, Issue, Text};
pub use negotiate::Negotiated;
use serde_text::Fault;
pub use strict::Strict;

/// A JSON body. Wrong media type → 415, too large → 413, not JSON → 400; JSON of the wrong
/// shape (a wrong type, an unknown field, a duplicate key, an array for an object, a number
/// out of range) or past a bound of the contract (`api::contract`) → 422 pointing at the
/// field.
#[derive(Debug)]
pub struct AppJson<T>(pub T);

impl<T> FromRequest<AppState> for AppJson<T>
where
    T: DeserializeOwned + Contract,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers().get(header::CONTENT_TYPE)) {
            return Err(AppError::UnsupportedMediaType);
        }
        let limit = req.extensions().get::<BodyLimit>().map(|l| l.0).unwrap_or(usize::MAX);
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                AppError::TooLarge(limit)
            } else {
                AppError::Malformed(Text::new(r.body_text(), "le corps n'a pas pu être lu"))
            }
        })?;
        let value: T = crate::capped::within(&state.config.limits, || parse(&bytes))?;
        // Every stated bound before any work: the handler only sees a request within them.
        let problems = value.violations(&state.config.limits);
        if problems.is_empty() { Ok(AppJson(value)) } else { Err(AppError::Invalid(problems)) }
    }
}

/// The body limit in force, put in the request extensions by the router so that the 413
/// problem can state it.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// Whether a `Content-Type` is JSON (`application/json` or `application/*+json`).
pub(crate) fn is_json(v: Option<&header::HeaderValue>) -> bool {
    let Some(Ok(v)) = v.map(|v| v.to_str()) else { return false };
    let essence = v.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// Parses a JSON body into `T`, turning serde's errors into problems with JSON pointers and
/// plain sentences (`serde_text`).
///
/// The bytes decide between 400 and 422: a body that is not JSON at all is a 400; JSON that
/// does not fit `T` is a 422 at the offending field, whatever category serde_json gives
/// (it calls a non-string for an enum and a number out of range syntax errors).
///
/// serde stops at the first error; to report the others too, the body is read again as a
/// `serde_json::Value` and deserialized once more after each error, the wrong value
/// replaced by a stand-in of the expected kind (an unknown key removed, a missing one
/// added), until it fits or [`MAX_SHAPE_PROBLEMS`] are found. Problems inside a stand-in are
/// the stand-in's, not the client's, and are not reported. The number of passes is bounded
/// by the body's size ([`SHAPE_WORK_BYTES`]), so a large body gets fewer of them.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    // Tracking the path costs about as much as the parse itself, and only a failure needs
    // it: parse plainly, and again with the path only to explain a failure.
    // Checked as UTF-8 once, the body's strings are not checked again one by one.
    if let Ok(text) = std::str::from_utf8(bytes) {
        let mut de = serde_json::Deserializer::from_str(text);
        if let Ok(value) = T::deserialize(Strict(&mut de))
            && de.end().is_ok()
        {
            return Ok(value);
        }
    }
    // `IgnoredAny` checks the syntax only (numbers are skipped, not converted).
    if let Err(e) = serde_json::from_slice::<IgnoredAny>(bytes) {
        return Err(AppError::Malformed(malformed(bytes, &e)));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let first = match serde_path_to_error::deserialize::<_, T>(Strict(&mut de)) {
        Ok(value) => {
            // Unreachable in practice (the bytes are one JSON value), but never answer 200
            // to them.
            de.end().map_err(|e| AppError::Malformed(malformed(bytes, &e)))?;
            return Ok(value);
        }
        Err(e) => located(&e),
    };
    let mut found = Found { issues: Vec::new(), stand_ins: Vec::new() };
    found.report(&first.0, &first.1);
    // A list past its bound is refused before the rest is read: the rest is not read again.
    if matches!(first.1, Fault::PastBound { .. }) {
        return Err(AppError::Invalid(found.issues));
    }
    if let Ok(value) = serde_json::from_slice::<Value>(bytes) {
        let passes = (SHAPE_WORK_BYTES / bytes.len().max(1)).clamp(1, 4 * MAX_SHAPE_PROBLEMS);
        the_others::<T>(value, passes, &mut found);
    }
    Err(AppError::Invalid(found.issues))
}

/// The most wrong shapes (types, keys, values) one answer lists.
pub const MAX_SHAPE_PROBLEMS: usize = 50;

/// The body bytes that the passes looking for more problems may read in all.
const SHAPE_WORK_BYTES: usize = 8 << 20;

/// The problems found so far and the pointers of the stand-ins put in.
struct Found {
    issues: Vec<Issue>,
    stand_ins: Vec<String>,
}

impl Found {
    /// Records serde's error at `pointer`, unless it is inside a stand-in or already there.
    fn report(&mut self, pointer: &str, fault: &Fault) {
        let inside =
            |p: &String| pointer == p || pointer.strip_prefix(p.as_str()).is_some_and(|r| r.starts_with('/'));
        if self.stand_ins.iter().any(inside) || self.issues.iter().any(|i| i.pointer == pointer) {
            return;
        }
        self.issues.push(Issue::new(pointer, fault.text()));
    }
}

/// Deserializes `value` again and again, each error recorded and its value replaced, for at
/// most `passes` passes.
fn the_others<T: DeserializeOwned>(mut value: Value, passes: usize, found: &mut Found) {
    let mut last: Option<(String, Fault)> = None;
    for _ in 0..passes {
        if found.issues.len() >= MAX_SHAPE_PROBLEMS {
            return;
        }
        let Err(e) = serde_path_to_error::deserialize::<_, T>(Strict(&value)) else { return };
        let (pointer, fault) = located(&e);
        if last.as_ref() == Some(&(pointer.clone(), fault.clone())) {
            return; // the stand-in did not help: stop rather than loop
        }
        found.report(&pointer, &fault);
        if !stand_in(&mut value, &pointer, &fault, found) {
            return;
        }
        last = Some((pointer, fault));
    }
}

/// Replaces the wrong value at `pointer` so that the next pass goes further; false when
/// nothing fits.
fn stand_in(value: &mut Value, pointer: &str, fault: &Fault, found: &mut Found) -> bool {
    let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", ""));
    match fault {
        Fault::UnknownField { .. } | Fault::DuplicateField { .. } => value
            .pointer_mut(parent)
            .and_then(Value::as_object_mut)
            .and_then(|o| o.remove(&unescape(key)))
            .is_some(),
        Fault::MissingField { .. } => {
            // `null` first: the next pass then says which kind the field is.
            let Some(object) = value.pointer_mut(parent).and_then(Value::as_object_mut) else { return false };
            object.insert(unescape(key), Value::Null);
            found.stand_ins.push(pointer.to_owned());
            true
        }
        Fault::WrongType { expected, .. } | Fault::WrongValue { expected } => {
            let (Some(slot), Some(v)) = (value.pointer_mut(pointer), expected.placeholder()) else {
                return false;
            };
            *slot = v;
            found.stand_ins.push(pointer.to_owned());
            true
        }
        Fault::UnknownValue { accepted, .. } => {
            let (Some(slot), Some(first)) = (value.pointer_mut(pointer), accepted.first()) else {
                return false;
            };
            *slot = Value::from(first.clone());
            true
        }
        Fault::WrongLength | Fault::OutOfRange | Fault::PastBound { .. } | Fault::Other => false,
    }
}

/// A serde error as the problem it is: its pointer and a plain sentence (the map importers
/// read a file once, with no second pass).
pub(crate) fn shape_issue<E: std::fmt::Display>(e: &serde_path_to_error::Error<E>) -> Issue {
    let (pointer, fault) = located(e);
    Issue::new(pointer, fault.text())
}

/// The pointer and the fault of a serde error: at the key itself for a missing, unknown or
/// repeated key.
fn located<E: std::fmt::Display>(e: &serde_path_to_error::Error<E>) -> (String, Fault) {
    let mut pointer = pointer(e.path());
    let mut fault = Fault::read(&strip_position(&e.inner().to_string()));
    if matches!(e.path().iter().next_back(), Some(Segment::Enum { .. })) {
        // `{"pf1e": 1}` for a ruleset: serde read the key as the enum's name and then
        // wanted nothing after it. The API's enums are strings: say so, at the enum.
        pointer.truncate(pointer.rfind('/').unwrap_or(0));
        fault = Fault::WrongType {
            given: Some(serde_text::Given::Object),
            expected: serde_text::Expected::String,
        };
    }
    if let Some(key) = fault.key() {
        // serde_path_to_error stops at the object for a missing key, and for a duplicate
        // key (found before its value is read) or a field of another dice mode (found after
        // the object is) too.
        let key = crate::api::mapping::escape(key);
        if pointer.rsplit('/').next() != Some(key.as_str()) || matches!(fault, Fault::DuplicateField { .. }) {
            pointer.push('/');
            pointer.push_str(&key);
        }
    }
    (pointer, fault)
}

/// RFC 6901 unescaping of one pointer segment.
fn unescape(key: &str) -> String {
    key.replace("~1", "/").replace("~0", "~")
}

/// The 400's detail: where the JSON breaks.
pub(crate) fn malformed(bytes: &[u8], e: &serde_json::Error) -> Text {
    let (line, column) = (e.line(), e.column());
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Text::new(
            "the body is empty; send a JSON object",
            "le corps est vide ; envoyez un objet JSON",
        );
    }
    if e.is_eof() {
        return Text::new(
            format!("the body ends before its JSON does (line {line}, column {column})"),
            format!("le corps s'arrête avant la fin de son JSON (ligne {line}, colonne {column})"),
        );
    }
    let what = strip_position(&e.to_string());
    if what == "trailing characters" {
        return Text::new(
            format!("the body goes on after its JSON value (line {line}, column {column})"),
            format!("le corps continue après sa valeur JSON (ligne {line}, colonne {column})"),
        );
    }
    Text::new(
        format!("the body is not JSON at line {line}, column {column}: {what}"),
        format!("le corps n'est pas du JSON à la ligne {line}, colonne {column}"),
    )
}

fn pointer(path: &serde_path_to_error::Path) -> String {
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => {
                out.push('/');
                out.push_str(&index.to_string());
            }
            Segment::Map { key } | Segment::Enum { variant: key } => {
                out.push('/');
                out.push_str(&crate::api::mapping::escape(key));
            }
            Segment::Unknown => {}
        }
    }
    out
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_owned(),
        None => msg.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        x: i64,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        items: Vec<Inner>,
    }

    fn err(body: &str) -> AppError {
        parse::<Outer>(body.as_bytes()).unwrap_err()
    }

    #[test]
    fn pointers() {
        let AppError::Invalid(e) = err(r#"{"items":[{"x":1},{"x":"a"}]}"#) else { panic!() };
        assert_eq!(e[0].pointer, "/items/1/x");
        let AppError::Invalid(e) = err(r#"{"items":[{"x":1,"y":2}]}"#) else { panic!() };
        assert_eq!(e[0].pointer, "/items/0/y");
        assert!(matches!(err(r#"{"items":["#), AppError::Malformed(_)));
        assert!(matches!(err(r#"{"items":[]} x"#), AppError::Malformed(_)));
    }

    /// Every depth refuses an array for a struct: in a list, behind an `Option`, in a map.
    #[test]
    fn arrays_for_structs_are_refused_at_every_depth() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Deep {
            opt: Option<Inner>,
            map: std::collections::BTreeMap<String, Vec<Inner>>,
        }
        let invalid = |body: &str| match parse::<Deep>(body.as_bytes()) {
            Err(AppError::Invalid(e)) => e[0].pointer.clone(),
            other => panic!("{body}: {other:?}"),
        };
        assert_eq!(invalid(r#"{"opt":[1],"map":{}}"#), "/opt");
        assert_eq!(invalid(r#"{"opt":null,"map":{"k":[{"x":1},[2]]}}"#), "/map/k/1");
        assert_eq!(invalid(r#"[null, {}]"#), "");
        assert!(parse::<Deep>(br#"{"opt":{"x":1},"map":{"k":[{"x":2}]}}"#).is_ok());
        assert!(matches!(err(r#"{"items":[[1]]"#), AppError::Malformed(_)), "not JSON: still 400");
    }

    /// serde_json's syntax-category errors on valid JSON are 422s with the pointer.
    #[test]
    fn wrong_enum_types_and_huge_numbers_are_422() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        enum Kind {
            A,
            B,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct K {
            kind: Kind,
            n: f64,
        }
        let invalid = |body: &str| match parse::<K>(body.as_bytes()) {
            Err(AppError::Invalid(e)) => {
                (e[0].pointer.clone(), e[0].detail.get(crate::render::Lang::En).to_owned())
            }
            other => panic!("{body}: {other:?}"),
        };
        assert_eq!(invalid(r#"{"kind":null,"n":1}"#), ("/kind".into(), "must be one of: A, B".into()));
        assert_eq!(invalid(r#"{"kind":3,"n":1}"#).0, "/kind");
        assert_eq!(invalid(r#"{"kind":"A","n":1e400}"#).0, "/n");
        assert_eq!(invalid(r#"{"kind":"A","n":1,"n":2}"#).0, "/n");
        assert!(matches!(parse::<K>(br#"{"kind":nul,"n":1}"#), Err(AppError::Malformed(_))));
    }

    #[test]
    fn media_types() {
        let v = |s: &'static str| header::HeaderValue::from_static(s);
        assert!(is_json(Some(&v("application/json"))));
        assert!(is_json(Some(&v("application/json; charset=utf-8"))));
        assert!(is_json(Some(&v("application/merge-patch+json"))));
        assert!(!is_json(Some(&v("text/plain"))));
        assert!(!is_json(None));
    }
}
