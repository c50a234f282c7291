//! One error type for every failure, rendered as RFC 9457 `application/problem+json`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use arbiter_rules::dice::DiceError;
use arbiter_rules::error::RulesError;

/// One offending field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// JSON pointer (RFC 6901) into the request body (`/encounter/creatures/2/at`).
    pub pointer: String,
    /// What is wrong there.
    pub detail: String,
}

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:arbiter:problem:invalid-request",
    "title": "The request is invalid",
    "status": 422,
    "detail": "1 problem in the request",
    "errors": [{"pointer": "/encounter/creatures/1/at", "detail": "its 1×1 space from (12, 0) must lie inside the 12×8 grid"}]
}))]
pub struct Problem {
    /// A URN naming the kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What happened this time.
    pub detail: String,
    /// The offending fields, when there are some.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
}

/// Everything a handler can fail with.
#[derive(Debug)]
pub enum AppError {
    /// 400: the body is not JSON.
    Malformed(String),
    /// 413: the body is too large.
    TooLarge(usize),
    /// 415: the body is not `application/json`.
    UnsupportedMediaType,
    /// 422: the request is JSON but invalid.
    Invalid(Vec<FieldError>),
    /// 422: the ruleset does not answer this question.
    Unsupported(String),
    /// 422: the work budget ran out.
    Budget(u64),
    /// 503: too many requests in flight.
    Overloaded,
    /// 503: the request took too long.
    Timeout,
    /// 404: no such route.
    NotFound,
    /// 405.
    MethodNotAllowed,
    /// 500: a bug; details are logged, never sent.
    Internal(String),
}

impl AppError {
    /// A single-field 422.
    pub fn field(pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        AppError::Invalid(vec![FieldError { pointer: pointer.into(), detail: detail.into() }])
    }

    /// The problem document of this error.
    pub fn problem(&self) -> Problem {
        let (status, kind, title, detail, errors) = match self {
            AppError::Malformed(d) => {
                (StatusCode::BAD_REQUEST, "malformed-json", "The body is not valid JSON", d.clone(), vec![])
            }
            AppError::TooLarge(limit) => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "body-too-large",
                "The body is too large",
                format!("the body exceeds the limit of {limit} bytes"),
                vec![],
            ),
            AppError::UnsupportedMediaType => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "The body must be JSON",
                "send the body with Content-Type: application/json".to_owned(),
                vec![],
            ),
            AppError::Invalid(errors) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid-request",
                "The request is invalid",
                format!(
                    "{} problem{} in the request",
                    errors.len(),
                    if errors.len() == 1 { "" } else { "s" }
                ),
                errors.clone(),
            ),
            AppError::Unsupported(d) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "unsupported-question",
                "The ruleset does not answer this question",
                d.clone(),
                vec![FieldError { pointer: "/encounter/ruleset".into(), detail: d.clone() }],
            ),
            AppError::Budget(limit) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "work-budget-exceeded",
                "The question needs more work than one request may do",
                format!(
                    "the answer needed more than {limit} line-traversal steps; ask about fewer creatures or a smaller map"
                ),
                vec![],
            ),
            AppError::Overloaded => (
                StatusCode::SERVICE_UNAVAILABLE,
                "overloaded",
                "The service is at capacity",
                "too many requests in flight; retry shortly".to_owned(),
                vec![],
            ),
            AppError::Timeout => (
                StatusCode::SERVICE_UNAVAILABLE,
                "timeout",
                "The request took too long",
                "the request was not answered in time; retry shortly".to_owned(),
                vec![],
            ),
            AppError::NotFound => (
                StatusCode::NOT_FOUND,
                "not-found",
                "No such resource",
                "see /docs for the API".to_owned(),
                vec![],
            ),
            AppError::MethodNotAllowed => (
                StatusCode::METHOD_NOT_ALLOWED,
                "method-not-allowed",
                "Method not allowed",
                "see /docs for the methods of each path".to_owned(),
                vec![],
            ),
            AppError::Internal(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "Internal error",
                "an unexpected error occurred; it has been logged".to_owned(),
                vec![],
            ),
        };
        Problem {
            kind: format!("urn:arbiter:problem:{kind}"),
            title: title.to_owned(),
            status: status.as_u16(),
            detail,
            errors,
        }
    }

    /// The problem rendered as a response.
    pub fn response(&self) -> Response {
        if let AppError::Internal(d) = self {
            tracing::error!(detail = %d, "internal error");
        }
        let problem = self.problem();
        let status = StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        let mut res = (status, body).into_response();
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        if matches!(self, AppError::Overloaded | AppError::Timeout) {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        res
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        self.response()
    }
}

impl From<RulesError> for AppError {
    fn from(e: RulesError) -> Self {
        match e {
            RulesError::Field { pointer, detail } => AppError::field(pointer, detail),
            RulesError::MissingStat { pointer, creature, stat } => AppError::field(
                pointer,
                format!("creature {creature:?} needs the stat {stat} for this question"),
            ),
            RulesError::Unsupported { ruleset, what } => {
                AppError::Unsupported(format!("{ruleset} does not answer {what}"))
            }
            RulesError::Budget(b) => AppError::Budget(b.limit),
            RulesError::Dice(d) => dice_error(d),
        }
    }
}

fn dice_error(d: DiceError) -> AppError {
    match d {
        DiceError::Missing { purpose, needed, given } => AppError::field(
            crate::api::dice::rolls_pointer(&purpose),
            format!("{needed} {} face(s) needed, {given} given", purpose.key()),
        ),
        DiceError::OutOfRange { purpose, index, face, sides } => AppError::field(
            format!("{}/{index}", crate::api::dice::rolls_pointer(&purpose)),
            format!("{face} is not a face of a d{sides}"),
        ),
    }
}
