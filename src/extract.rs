//! `AppJson`: the JSON body extractor whose rejections are problem documents with pointers;
//! `Negotiated`: the language and media type the client accepts.

pub mod negotiate;
mod strict;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_path_to_error::Segment;

use crate::AppState;
use crate::api::contract::Contract;
use crate::error::AppError;
pub use negotiate::Negotiated;
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
                AppError::Malformed(r.body_text())
            }
        })?;
        let value: T = parse(&bytes)?;
        // Every stated bound before any work: the handler only sees a request within them.
        let problems = value.violations(&state.config.limits);
        if problems.is_empty() { Ok(AppJson(value)) } else { Err(AppError::Invalid(problems)) }
    }
}

/// The body limit in force, put in the request extensions by the router so that the 413
/// problem can state it.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

fn is_json(v: Option<&header::HeaderValue>) -> bool {
    let Some(Ok(v)) = v.map(|v| v.to_str()) else { return false };
    let essence = v.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// Parses a JSON body into `T`, turning serde's error into a problem with a JSON pointer.
///
/// The bytes decide between 400 and 422: a body that is not JSON at all is a 400; JSON that
/// does not fit `T` is a 422 at the offending field, whatever category serde_json gives
/// (it calls a non-string for an enum and a number out of range syntax errors).
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
        return Err(AppError::Malformed(e.to_string()));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(Strict(&mut de)).map_err(|e| {
        let mut pointer = pointer(e.path());
        let detail = strip_position(&e.into_inner().to_string());
        if let Some(key) = named_key(&detail) {
            // A duplicate key is found before its value is read, and a field of another dice
            // mode after the object is: serde_path_to_error then stops at the parent.
            let key = crate::api::mapping::escape(key);
            if pointer.rsplit('/').next() != Some(key.as_str()) || detail.starts_with("duplicate") {
                pointer.push('/');
                pointer.push_str(&key);
            }
        }
        AppError::field(pointer, detail)
    })?;
    // Unreachable in practice (the bytes are one JSON value), but never answer 200 to them.
    de.end().map_err(|e| AppError::Malformed(e.to_string()))?;
    Ok(value)
}

/// The key a "duplicate field `k`" or "unknown field `k`" message names.
fn named_key(detail: &str) -> Option<&str> {
    let rest = detail.strip_prefix("duplicate field `").or_else(|| detail.strip_prefix("unknown field `"))?;
    rest.split_once('`').map(|(k, _)| k)
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
            Err(AppError::Invalid(e)) => (e[0].pointer.clone(), e[0].detail.clone()),
            other => panic!("{body}: {other:?}"),
        };
        assert_eq!(
            invalid(r#"{"kind":null,"n":1}"#),
            ("/kind".into(), "invalid type, expected one of `A`, `B`".into())
        );
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
