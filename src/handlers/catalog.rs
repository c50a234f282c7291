//! `GET /v1/rules` and `GET /v1/rulesets`.

use axum::Json;

use arbiter_contract::api::catalog::{RulesResponse, RulesetsResponse};

/// The rule catalog: every rule id with its source and a summary in English and French.
#[utoipa::path(get, path = "/v1/rules", tag = "catalog", responses((status = 200, body = RulesResponse), super::JsonOnly))]
pub async fn rules() -> Json<RulesResponse> {
    Json(RulesResponse::all())
}

/// The rulesets, with the questions, sizes, conditions and variants each supports.
#[utoipa::path(get, path = "/v1/rulesets", tag = "catalog", responses((status = 200, body = RulesetsResponse), super::JsonOnly))]
pub async fn rulesets() -> Json<RulesetsResponse> {
    Json(RulesetsResponse::all())
}
