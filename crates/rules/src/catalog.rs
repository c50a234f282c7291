//! The rule catalog: every rule id of RULES.md with its source and a one-line summary in
//! English and French. The server serves it at `GET /v1/rules` and cites it in traces.

/// Where a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// A French seed text (the user's source of truth).
    Seed,
    /// An official English SRD (open content) filling a gap the seeds leave.
    Srd,
    /// Official but not open content, used only for optional variants.
    NonSrd,
    /// A definition the engine needs and no source states.
    Engine,
    /// A value proposed by the specification for the homebrew's empty lists.
    Proposed,
}

/// One entry of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleInfo {
    /// Stable rule id, as in RULES.md (`pf1e.cover.soft`).
    pub id: &'static str,
    /// The RULES.md section the rule is written in (`"3"`, `"2.1"`).
    pub section: &'static str,
    /// The kind of the primary source.
    pub kind: SourceKind,
    /// The source, as RULES.md cites it: seed file and French heading, or SRD section.
    pub source: &'static str,
    /// One-line summary in English.
    pub summary_en: &'static str,
    /// One-line summary in French.
    pub summary_fr: &'static str,
}

/// Every rule of RULES.md, in document order.
pub static RULES: &[RuleInfo] = &[];

/// Looks a rule up by id.
pub fn rule(id: &str) -> Option<&'static RuleInfo> {
    RULES.iter().find(|r| r.id == id)
}
