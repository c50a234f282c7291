//! `AppJson`: the JSON body extractor whose rejections are problem documents with pointers.

use arbiter_contract::api::contract::Contract;
use arbiter_contract::error::{AppError, Text};
use arbiter_contract::parse::parse_within;
use arbiter_rules::budget::Budget;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;

use crate::error::HttpError;
use crate::state::AppState;

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
    type Rejection = HttpError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers().get(header::CONTENT_TYPE)) {
            return Err(AppError::UnsupportedMediaType.into());
        }
        let limit = req.extensions().get::<BodyLimit>().map(|l| l.0).unwrap_or(usize::MAX);
        let work = req.extensions().get::<crate::questions::Work>().cloned();
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
                AppError::TooLarge(limit)
            } else {
                AppError::Malformed(Text::new(r.body_text(), "le corps n'a pas pu être lu"))
            }
        })?;
        // A refused body's reading is charged like a question's work, and stops with it.
        let mut budget = match work {
            Some(work) => work.budget(),
            None => Budget::new(state.config.limits.work_budget),
        };
        let value: T =
            arbiter_contract::capped::within(&state.config.limits, || parse_within(&bytes, &mut budget))?;
        // Every stated bound before any work: the handler only sees a request within them.
        let problems = value.violations(&state.config.limits);
        if problems.is_empty() { Ok(AppJson(value)) } else { Err(AppError::Invalid(problems).into()) }
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

#[cfg(test)]
mod tests {
    use super::*;

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
