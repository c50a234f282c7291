//! `AppJson`: the JSON body extractor whose rejections are problem documents with pointers.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;

use crate::error::AppError;

/// A JSON body. Wrong media type → 415, too large → 413, not JSON → 400, JSON of the wrong
/// shape (including unknown fields) → 422 pointing at the field.
#[derive(Debug)]
pub struct AppJson<T>(pub T);

impl<S, T> FromRequest<S> for AppJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
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
        parse(&bytes).map(AppJson)
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
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    // Tracking the path costs about as much as the parse itself, and only a failure needs
    // it: parse plainly, and again with the path only to explain a failure.
    if let Ok(value) = serde_json::from_slice(bytes) {
        return Ok(value);
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let pointer = pointer(e.path());
        let inner = e.into_inner();
        match inner.classify() {
            // serde_path_to_error already ends the path with an unknown field's name.
            serde_json::error::Category::Data => AppError::field(pointer, strip_position(&inner.to_string())),
            _ => AppError::Malformed(inner.to_string()),
        }
    })?;
    de.end().map_err(|e| AppError::Malformed(e.to_string()))?;
    Ok(value)
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
