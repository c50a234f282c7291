//! One file per endpoint. A question's handler extracts, maps (`api::<question>`), asks the
//! rules and maps back (`api::<question>` again); what they share is here.

pub mod analyze;
pub mod attack;
pub mod catalog;
pub mod concealment;
pub mod cover;
pub mod flanking;
pub mod health;
pub mod import_body;
pub mod import_foundry;
pub mod import_uvtt;
pub mod initiative;
pub mod maneuver;
pub mod movement;
pub mod playground;
pub mod range;

use std::cell::Cell;

use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::IntoResponses;

use crate::error::HttpError;
use arbiter_contract::error::AppError;
use arbiter_contract::error::Problem;

/// The problem documents every question may answer besides its own 422 (whose description
/// says what that question checks), for `#[utoipa::path(responses(...))]`.
#[derive(IntoResponses)]
pub enum QuestionProblems {
    /// The body is not JSON.
    #[response(status = 400, description = "The body is not JSON", content_type = "application/problem+json")]
    NotJson(Problem),
    /// The body was too slow.
    #[response(
        status = 408,
        description = "The body did not arrive within the body read timeout",
        content_type = "application/problem+json"
    )]
    BodyTimeout(Problem),
    /// The body is too large.
    #[response(
        status = 413,
        description = "The body is too large",
        content_type = "application/problem+json"
    )]
    TooLarge(Problem),
    /// The body is not JSON by its media type.
    #[response(
        status = 415,
        description = "The body is not application/json",
        content_type = "application/problem+json"
    )]
    UnsupportedMediaType(Problem),
    /// No worker free, timed out, or shutting down.
    #[response(
        status = 503,
        description = "Every rules worker is busy and the queue is full, the request timed out, or the replica is shutting down; retry (`Retry-After`)",
        content_type = "application/problem+json"
    )]
    Unavailable(Problem),
}

/// The 406 of a route that draws nothing, for `#[utoipa::path(responses(...))]`.
#[derive(IntoResponses)]
pub enum JsonOnly {
    /// The client accepts a drawing and no JSON.
    #[response(
        status = 406,
        description = "`Accept` asks for a drawing (`image/svg+xml`) and accepts no JSON, and this route draws nothing (the drawings: cover, movement, flanking, concealment, analyze)",
        content_type = "application/problem+json"
    )]
    NotAcceptable(Problem),
}

thread_local! {
    /// The size of this thread's last JSON answer, rounded up: the next buffer starts there.
    static ANSWER_SIZE: Cell<usize> = const { Cell::new(1024) };
}

/// A JSON answer, serialised into one buffer sized from the last answer and handed to the
/// body without a copy. (`axum::Json` starts at 128 bytes and grows: a few reallocations
/// and copies for a 3 KB answer.)
pub fn json<T: Serialize>(value: &T) -> Response {
    let mut buf = Vec::with_capacity(ANSWER_SIZE.get());
    match serde_json::to_writer(&mut buf, value) {
        Ok(()) => {
            ANSWER_SIZE.set(buf.len().next_power_of_two().clamp(256, 64 * 1024));
            with_type(Body::from(buf), "application/json")
        }
        Err(e) => {
            HttpError(AppError::Internal(format!("the answer could not be serialised: {e}"))).into_response()
        }
    }
}

/// A JSON answer already serialised.
pub fn json_bytes(body: Vec<u8>) -> Response {
    with_type(Body::from(body), "application/json")
}

/// An SVG drawing.
pub fn svg(drawing: String) -> Response {
    with_type(Body::from(drawing), "image/svg+xml")
}

fn with_type(body: Body, content_type: &'static str) -> Response {
    let mut res = Response::new(body);
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    res
}
