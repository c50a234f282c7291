//! One error type for every failure, rendered as RFC 9457 `application/problem+json`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use arbiter_rules::dice::{DiceError, Purpose};
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
    /// 408: the body did not arrive within the body read timeout (seconds).
    BodyTimeout(u64),
    /// 422: the answer would exceed the answer size limit.
    AnswerTooLarge {
        /// Bytes the answer would take, as far as is known.
        size: AnswerSize,
        /// The limit.
        limit: usize,
        /// Which option to turn off.
        hint: &'static str,
    },
    /// 503: every rules worker is busy and the queue is full.
    Overloaded,
    /// 503: the process is shutting down and cancelled the request's work.
    ShuttingDown,
    /// 503: large answers waiting to be sent already hold the answer memory.
    AnswersPending,
    /// 503: the request took too long.
    Timeout,
    /// 404: no such route.
    NotFound,
    /// 405.
    MethodNotAllowed,
    /// Any other HTTP error status made by a layer (not a handler), with its detail.
    Status(StatusCode, String),
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
        let (status, title, detail, errors) = match self {
            AppError::Malformed(d) => {
                (StatusCode::BAD_REQUEST, "The body is not valid JSON", d.clone(), vec![])
            }
            AppError::TooLarge(limit) => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "The body is too large",
                format!("the body exceeds the limit of {limit} bytes"),
                vec![],
            ),
            AppError::UnsupportedMediaType => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "The body must be JSON",
                "send the body with Content-Type: application/json".to_owned(),
                vec![],
            ),
            AppError::Invalid(errors) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "The request is invalid",
                format!(
                    "{} problem{} in the request",
                    errors.len(),
                    if errors.len() == 1 { "" } else { "s" }
                ),
                listed(errors),
            ),
            AppError::Unsupported(d) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "The ruleset does not answer this question",
                d.clone(),
                vec![FieldError { pointer: "/encounter/ruleset".into(), detail: d.clone() }],
            ),
            AppError::Budget(limit) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "The question needs more work than one request may do",
                format!(
                    "the answer needed more than {limit} work units; ask about fewer creatures or a smaller map"
                ),
                vec![],
            ),
            AppError::BodyTimeout(secs) => (
                StatusCode::REQUEST_TIMEOUT,
                "The body arrived too slowly",
                format!("the whole body must arrive within {secs} s"),
                vec![],
            ),
            AppError::AnswerTooLarge { size, limit, hint } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "The answer would be too large",
                format!("the answer would take {size} bytes, over the limit of {limit}; {hint}"),
                vec![],
            ),
            AppError::AnswersPending => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The service is at capacity",
                "large answers waiting for their clients to read them hold the answer memory; retry shortly"
                    .to_owned(),
                vec![],
            ),
            AppError::ShuttingDown => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The service is shutting down",
                "this replica is stopping; retry on another".to_owned(),
                vec![],
            ),
            AppError::Overloaded => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The service is at capacity",
                "every rules worker is busy and the queue is full; retry shortly".to_owned(),
                vec![],
            ),
            AppError::Timeout => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The request took too long",
                "the request was not answered in time; retry shortly".to_owned(),
                vec![],
            ),
            AppError::NotFound => {
                (StatusCode::NOT_FOUND, "No such resource", "see /docs for the API".to_owned(), vec![])
            }
            AppError::MethodNotAllowed => (
                StatusCode::METHOD_NOT_ALLOWED,
                "Method not allowed",
                "see /docs for the methods of each path".to_owned(),
                vec![],
            ),
            AppError::Status(status, detail) => {
                (*status, status.canonical_reason().unwrap_or("HTTP error"), detail.clone(), vec![])
            }
            AppError::Internal(_) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "Internal error",
                "an unexpected error occurred; it has been logged".to_owned(),
                vec![],
            ),
        };
        Problem {
            kind: format!("urn:arbiter:problem:{}", problem_kind(self)),
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
        res.extensions_mut().insert(ProblemKind(problem_kind(self)));
        res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        if matches!(self, AppError::BodyTimeout(_)) {
            res.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        if matches!(
            self,
            AppError::Overloaded | AppError::Timeout | AppError::ShuttingDown | AppError::AnswersPending
        ) {
            res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        res
    }
}

/// The most field errors one problem lists: a body of a million bad cells must not make an
/// answer of a million errors.
pub const MAX_LISTED_ERRORS: usize = 100;

/// The first [`MAX_LISTED_ERRORS`] errors, and one more entry that counts the rest.
fn listed(errors: &[FieldError]) -> Vec<FieldError> {
    let mut out: Vec<FieldError> = errors.iter().take(MAX_LISTED_ERRORS).cloned().collect();
    if errors.len() > MAX_LISTED_ERRORS {
        out.push(FieldError {
            pointer: String::new(),
            detail: format!("and {} more problems not listed", errors.len() - MAX_LISTED_ERRORS),
        });
    }
    out
}

/// How much is known of a refused answer's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerSize {
    /// Measured.
    Exact(u64),
    /// Estimated before the work, from above.
    UpTo(u64),
    /// Building stopped once past the limit.
    AtLeast(u64),
}

impl std::fmt::Display for AnswerSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerSize::Exact(n) => write!(f, "{n}"),
            AnswerSize::UpTo(n) => write!(f, "up to {n}"),
            AnswerSize::AtLeast(n) => write!(f, "at least {n}"),
        }
    }
}

/// The problem type of an answer, left in its extensions for the metrics.
#[derive(Debug, Clone, Copy)]
pub struct ProblemKind(pub &'static str);

fn problem_kind(e: &AppError) -> &'static str {
    match e {
        AppError::Malformed(_) => "malformed-json",
        AppError::TooLarge(_) => "body-too-large",
        AppError::UnsupportedMediaType => "unsupported-media-type",
        AppError::Invalid(_) => "invalid-request",
        AppError::Unsupported(_) => "unsupported-question",
        AppError::Budget(_) => "work-budget-exceeded",
        AppError::BodyTimeout(_) => "body-timeout",
        AppError::AnswerTooLarge { .. } => "answer-too-large",
        AppError::Overloaded => "overloaded",
        AppError::ShuttingDown => "shutting-down",
        AppError::AnswersPending => "answers-pending",
        AppError::Timeout => "timeout",
        AppError::NotFound => "not-found",
        AppError::MethodNotAllowed => "method-not-allowed",
        AppError::Status(..) => "http-error",
        AppError::Internal(_) => "internal",
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
            // A cancelled budget means the request was already given up on (timeout, client
            // gone, shutdown): whatever answer is made here is not the one sent.
            RulesError::Budget(b) if b.cancelled => AppError::Timeout,
            RulesError::Budget(b) => AppError::Budget(b.limit),
            RulesError::Dice(d) => dice_error(d),
        }
    }
}

/// The JSON pointer of a purpose's faces under `dice/rolls` (initiative faces are keyed by
/// creature id). Here rather than with the dice's wire types, which use the errors: the
/// errors import nothing from `api`.
pub fn rolls_pointer(purpose: &Purpose) -> String {
    match purpose {
        Purpose::Initiative(id) => format!("/dice/rolls/initiative/{id}"),
        other => format!("/dice/rolls/{}", other.key()),
    }
}

fn dice_error(d: DiceError) -> AppError {
    match d {
        DiceError::Missing { purpose, needed, given } => AppError::field(
            rolls_pointer(&purpose),
            format!("{needed} {} face(s) needed, {given} given", purpose.key()),
        ),
        DiceError::OutOfRange { purpose, index, face, sides } => AppError::field(
            format!("{}/{index}", rolls_pointer(&purpose)),
            format!("{face} is not a face of a d{sides}"),
        ),
    }
}
