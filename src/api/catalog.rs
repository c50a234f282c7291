//! `GET /v1/rules` and `GET /v1/rulesets` wire types.

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
