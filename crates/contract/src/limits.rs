//! The caps on what one request may ask; the server reads them from its flags and environment
//! (`ARBITER_MAX_*`), the contract enforces them before any work.

/// Caps on what one request may ask (PRODUCT.md "Errors and limits"). The defaults are also
/// written into the OpenAPI schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest request body, bytes.
    pub max_body_bytes: usize,
    /// Largest body of an import (`POST /v1/import/*`), bytes: map exports carry their
    /// picture (a base64 PNG of megabytes), which the importers skip.
    pub max_import_bytes: usize,
    /// Largest grid side, squares.
    pub max_grid_side: u32,
    /// Most walls (and light sources) in one encounter.
    pub max_walls: u32,
    /// Most creatures in one encounter.
    pub max_creatures: u32,
    /// Longest creature id or side, bytes.
    pub max_id_bytes: u32,
    /// Most steps in a movement path.
    pub max_path_steps: u32,
    /// Work budget of one request, in work units (one unit is about two squares of a line
    /// walk; see `arbiter_rules::budget`).
    pub work_budget: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 1024 * 1024,
            max_import_bytes: 32 * 1024 * 1024,
            max_grid_side: 1000,
            max_walls: 10_000,
            max_creatures: 500,
            max_id_bytes: 64,
            max_path_steps: 1000,
            work_budget: 5_000_000,
        }
    }
}
