//! Request middleware: load shedding, timeouts, metrics, the instance header.

use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::AppError;

/// Answers 503 at once when too many requests are in flight, instead of queueing without
/// limit: the rules are CPU-bound and never yield, so a queue would only add latency.
pub async fn shed_load(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Ok(permit) = state.permits.clone().try_acquire_owned() else {
        state.metrics.shed();
        return AppError::Overloaded.into_response();
    };
    let res = next.run(req).await;
    drop(permit);
    res
}

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
    let method = req.method().as_str().to_owned();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    state.metrics.in_flight(1);
    let mut res = next.run(req).await;
    state.metrics.in_flight(-1);
    state.metrics.observe(&method, &route, res.status().as_u16(), start.elapsed());
    if let Ok(v) = HeaderValue::from_str(&state.instance) {
        res.headers_mut().insert("x-arbiter-instance", v);
    }
    if state.draining.load(Ordering::Relaxed) {
        // Tell keep-alive clients (and proxies) to reconnect elsewhere while we drain.
        res.headers_mut().insert(axum::http::header::CONNECTION, HeaderValue::from_static("close"));
    }
    res
}
