//! `GET /healthz`, `GET /readyz`, `GET /metrics`.

use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::Serialize;
use utoipa::ToSchema;

use crate::state::AppState;

/// Health status.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `draining` once shutdown has begun.
    #[schema(value_type = arbiter_contract::wire::HealthStatusId)]
    pub status: &'static str,
}

/// Liveness: 200 while the process serves.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health { status: "ok" })
}

/// Readiness: 200 while accepting work, 503 once a shutdown has begun.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    responses((status = 200, body = Health), (status = 503, body = Health))
)]
pub async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    if state.draining.load(Ordering::Relaxed) {
        (StatusCode::SERVICE_UNAVAILABLE, Json(Health { status: "draining" }))
    } else {
        (StatusCode::OK, Json(Health { status: "ok" }))
    }
}

/// Prometheus metrics: request counts and latency histograms per route and status.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    responses((status = 200, description = "Prometheus text format", body = String, content_type = "text/plain; version=0.0.4"))
)]
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        state.metrics.render(&state.pool, state.budgets()),
    )
}
