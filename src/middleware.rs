//! Request middleware: timeouts, metrics, the instance header, problem documents for errors
//! made by other layers. (Load shedding is the rules pool's: `pool::questions`.)

use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::AppError;

/// Bounds the time of a request; the rules' work budget bounds their CPU time.
pub async fn timeout(State(state): State<AppState>, req: Request, next: Next) -> Response {
    match tokio::time::timeout(state.config.request_timeout(), next.run(req)).await {
        Ok(res) => res,
        Err(_) => AppError::Timeout.into_response(),
    }
}

/// Counts and times every request by route template and status; adds `x-arbiter-instance`.
pub async fn observe(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = method_label(req.method());
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    state.metrics.in_flight(1);
    let mut res = next.run(req).await;
    state.metrics.in_flight(-1);
    if let Some(kind) = res.extensions().get::<crate::error::ProblemKind>() {
        state.metrics.problem(kind.0);
    }
    state.metrics.observe(method, &route, res.status().as_u16(), start.elapsed());
    if let Ok(v) = HeaderValue::from_str(&state.instance) {
        res.headers_mut().insert("x-arbiter-instance", v);
    }
    if state.draining.load(Ordering::Relaxed) {
        // Tell keep-alive clients (and proxies) to reconnect elsewhere while we drain.
        res.headers_mut().insert(axum::http::header::CONNECTION, HeaderValue::from_static("close"));
    }
    res
}

/// The metrics label of a method: the standard ones, and `other` for any other token, so
/// that clients cannot mint label values.
fn method_label(m: &Method) -> &'static str {
    match *m {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::TRACE => "TRACE",
        Method::CONNECT => "CONNECT",
        _ => "other",
    }
}

/// Makes every error answer a problem document: a layer that answers an error of its own
/// (request decompression's 415 for an unknown `Content-Encoding`, ...) gets its bare
/// answer replaced by a problem of the same status.
pub async fn problems(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    // Bare answers only: no media type, or plain text. A JSON answer (the readiness 503's
    // `{"status": "draining"}`) or a problem document is left as it is.
    let bare =
        res.headers().get(header::CONTENT_TYPE).is_none_or(|v| v.as_bytes().starts_with(b"text/plain"));
    if !bare {
        return res;
    }
    let detail = match res.headers().get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()) {
        Some(accepted) if status == StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            format!("unsupported Content-Encoding; send the body plain or as one of: {accepted}")
        }
        _ => status.canonical_reason().unwrap_or("error").to_lowercase(),
    };
    let mut out = AppError::Status(status, detail).into_response();
    for name in [header::ACCEPT_ENCODING, header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = res.headers().get(&name) {
            out.headers_mut().insert(name, v.clone());
        }
    }
    out
}
