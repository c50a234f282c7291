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
        Problem {
            kind: format!("urn:arbiter:problem:{}", problem_kind(self)),
            title: self.title().to_owned(),
            status: self.status().as_u16(),
            detail: self.detail(),
            errors: self.errors(),
        }
    }

    /// The HTTP status.
    fn status(&self) -> StatusCode {
        match self {
            AppError::Malformed(_) => StatusCode::BAD_REQUEST,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Invalid(_) | AppError::Unsupported(_) | AppError::Budget(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            AppError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            AppError::AnswerTooLarge { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::AnswersPending | AppError::ShuttingDown | AppError::Overloaded | AppError::Timeout => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            AppError::Status(status, _) => *status,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The problem's title: what went wrong, the same for every error of a kind.
    fn title(&self) -> &'static str {
        match self {
            AppError::Malformed(_) => "The body is not valid JSON",
            AppError::TooLarge(_) => "The body is too large",
            AppError::UnsupportedMediaType => "The body must be JSON",
            AppError::Invalid(_) => "The request is invalid",
            AppError::Unsupported(_) => "The ruleset does not answer this question",
            AppError::Budget(_) => "The question needs more work than one request may do",
            AppError::BodyTimeout(_) => "The body arrived too slowly",
            AppError::AnswerTooLarge { .. } => "The answer would be too large",
            AppError::AnswersPending | AppError::Overloaded => "The service is at capacity",
            AppError::ShuttingDown => "The service is shutting down",
            AppError::Timeout => "The request took too long",
            AppError::NotFound => "No such resource",
            AppError::MethodNotAllowed => "Method not allowed",
            AppError::Status(status, _) => status.canonical_reason().unwrap_or("HTTP error"),
            AppError::Internal(_) => "Internal error",
        }
    }

    /// The problem's detail: this occurrence, and what to do about it.
    fn detail(&self) -> String {
        match self {
            AppError::Malformed(d) | AppError::Unsupported(d) | AppError::Status(_, d) => d.clone(),
            AppError::TooLarge(limit) => format!("the body exceeds the limit of {limit} bytes"),
            AppError::UnsupportedMediaType => "send the body with Content-Type: application/json".to_owned(),
            AppError::Invalid(errors) => {
                format!("{} problem{} in the request", errors.len(), if errors.len() == 1 { "" } else { "s" })
            }
            AppError::Budget(limit) => format!(
                "the answer needed more than {limit} work units; ask about fewer creatures or a smaller map"
            ),
            AppError::BodyTimeout(secs) => format!("the whole body must arrive within {secs} s"),
            AppError::AnswerTooLarge { size, limit, hint } => {
                format!("the answer would take {size} bytes, over the limit of {limit}; {hint}")
            }
            AppError::AnswersPending => {
                "large answers waiting for their clients to read them hold the answer memory; retry shortly"
                    .to_owned()
            }
            AppError::ShuttingDown => "this replica is stopping; retry on another".to_owned(),
            AppError::Overloaded => {
                "every rules worker is busy and the queue is full; retry shortly".to_owned()
            }
            AppError::Timeout => "the request was not answered in time; retry shortly".to_owned(),
            AppError::NotFound => "see /docs for the API".to_owned(),
            AppError::MethodNotAllowed => "see /docs for the methods of each path".to_owned(),
            AppError::Internal(_) => "an unexpected error occurred; it has been logged".to_owned(),
        }
    }

    /// The problem's field errors, each with its JSON pointer (422 only).
    fn errors(&self) -> Vec<FieldError> {
        match self {
            AppError::Invalid(errors) => listed(errors),
            AppError::Unsupported(d) => {
                vec![FieldError { pointer: "/encounter/ruleset".into(), detail: d.clone() }]
            }
            _ => vec![],
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
