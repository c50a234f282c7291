//! Flanking and threatened squares (`pf1e.flanking.geometry`, `sf1e.flanking`,
//! `dnd5e.flanking.optional`). Being written.

/// Trace effects of the flanking rules.
#[derive(Debug, Clone, PartialEq)]
pub enum FlankEffect {}
