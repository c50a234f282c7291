//! `GET /v1/rules` and `GET /v1/rulesets`.

use axum::Json;

use crate::api::catalog::{RuleOut, RulesResponse, RulesetOut, RulesetsResponse, SizeOut, VariantOut};
use arbiter_rules::catalog::{RULES, SourceKind};
use arbiter_rules::ruleset::RulesetId;

/// The rule catalog: every rule id with its source and a summary in English and French.
#[utoipa::path(get, path = "/v1/rules", tag = "catalog", responses((status = 200, body = RulesResponse)))]
pub async fn rules() -> Json<RulesResponse> {
    Json(RulesResponse {
        rules: RULES
            .iter()
            .map(|r| RuleOut {
                id: r.id,
                section: r.section,
                kind: match r.kind {
                    SourceKind::Seed => "seed",
                    SourceKind::Srd => "srd",
                    SourceKind::NonSrd => "non_srd",
                    SourceKind::Engine => "engine",
                    SourceKind::Proposed => "proposed",
                },
                source: r.source,
                summary_en: r.summary_en,
                summary_fr: r.summary_fr,
            })
            .collect(),
    })
}

/// The rulesets, with the questions, sizes, conditions and variants each supports.
#[utoipa::path(get, path = "/v1/rulesets", tag = "catalog", responses((status = 200, body = RulesetsResponse)))]
pub async fn rulesets() -> Json<RulesetsResponse> {
    Json(RulesetsResponse {
        rulesets: RulesetId::ALL
            .iter()
            .map(|id| {
                let r = id.rules();
                RulesetOut {
                    id: r.id,
                    name: r.name,
                    seeds: r.seeds.to_vec(),
                    operations: r.operations().to_vec(),
                    distance: r.metric.rule(),
                    sizes: r
                        .sizes
                        .iter()
                        .map(|(s, i)| SizeOut {
                            size: s.id(),
                            squares: i.side,
                            reach_ft: i.reach_ft,
                            shares_square: i.shares_square,
                        })
                        .collect(),
                    conditions: r.conditions.iter().map(|c| c.id()).collect(),
                    variants: r
                        .variants
                        .iter()
                        .map(|v| VariantOut { key: v.key, default: v.default, summary: v.summary })
                        .collect(),
                }
            })
            .collect(),
    })
}
