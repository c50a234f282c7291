//! Trace effects of the whole-scene analysis (`POST /v1/analyze`).

/// Trace steps of the analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalyzeEffect {
    /// A rule applied to this many pairs.
    Applied {
        /// Pairs.
        pairs: usize,
    },
}
