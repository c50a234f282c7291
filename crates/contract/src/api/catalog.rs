//! `GET /v1/rules` and `GET /v1/rulesets`: wire types and their mapping from the rules crate.

use arbiter_rules::catalog::{RULES, SourceKind};
use arbiter_rules::ruleset::RulesetId;
use serde::Serialize;
use utoipa::ToSchema;

/// A rule of the catalog.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RuleOut {
    /// Stable rule id.
    pub id: &'static str,
    /// RULES.md section.
    pub section: &'static str,
    /// `seed`, `srd`, `non_srd`, `engine` or `proposed`.
    #[schema(value_type = crate::wire::RuleKindId)]
    pub kind: &'static str,
    /// Seed file and French heading, or SRD section.
    pub source: &'static str,
    /// One-line summary in English.
    pub summary_en: &'static str,
    /// One-line summary in French.
    pub summary_fr: &'static str,
}

/// The rule catalog.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RulesResponse {
    /// Every rule id with its source.
    pub rules: Vec<RuleOut>,
}

/// A variant a request can switch in `encounter.variants`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VariantOut {
    /// Key (a rule id).
    pub key: &'static str,
    /// Default.
    pub default: bool,
    /// What it does.
    pub summary: &'static str,
}

/// A size as a ruleset defines it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SizeOut {
    /// Size id.
    #[schema(value_type = crate::wire::SizeId)]
    pub size: &'static str,
    /// Squares per side.
    pub squares: i32,
    /// Natural reach, feet.
    pub reach_ft: u32,
    /// Whether several may share a square.
    pub shares_square: bool,
}

/// A ruleset and what it supports.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RulesetOut {
    /// Id used in `encounter.ruleset`.
    #[schema(value_type = crate::wire::RulesetId)]
    pub id: &'static str,
    /// Name.
    pub name: &'static str,
    /// Seed files.
    pub seeds: Vec<&'static str>,
    /// Endpoints (under `/v1/`) it answers.
    pub operations: Vec<&'static str>,
    /// Distance rule id.
    pub distance: &'static str,
    /// Sizes it knows.
    pub sizes: Vec<SizeOut>,
    /// Conditions it knows.
    #[schema(value_type = Vec<crate::wire::ConditionId>)]
    pub conditions: Vec<&'static str>,
    /// Variants.
    pub variants: Vec<VariantOut>,
}

/// Every ruleset.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RulesetsResponse {
    /// The rulesets.
    pub rulesets: Vec<RulesetOut>,
}

impl RulesResponse {
    /// The whole catalog.
    pub fn all() -> RulesResponse {
        RulesResponse {
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
        }
    }
}

impl RulesetsResponse {
    /// Every ruleset.
    pub fn all() -> RulesetsResponse {
        RulesetsResponse { rulesets: RulesetId::ALL.iter().map(|id| ruleset(*id)).collect() }
    }
}

fn ruleset(id: RulesetId) -> RulesetOut {
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
}
