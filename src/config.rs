//! Configuration: every setting is a flag and an environment variable.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Parser, ValueEnum};

/// Log output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Pretty,
    /// One JSON object per line.
    Json,
}

/// Caps on what one request may ask (PRODUCT.md "Errors and limits"). The defaults are also
/// written into the OpenAPI schema.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct Limits {
    /// Largest request body, bytes.
    #[arg(long, env = "ARBITER_MAX_BODY_BYTES", default_value_t = 1024 * 1024)]
    pub max_body_bytes: usize,
    /// Largest grid side, squares.
    #[arg(long, env = "ARBITER_MAX_GRID_SIDE", default_value_t = 1000)]
    pub max_grid_side: u32,
    /// Most walls (and light sources) in one encounter.
    #[arg(long, env = "ARBITER_MAX_WALLS", default_value_t = 10_000)]
    pub max_walls: u32,
    /// Most creatures in one encounter.
    #[arg(long, env = "ARBITER_MAX_CREATURES", default_value_t = 500)]
    pub max_creatures: u32,
    /// Longest creature id or side, bytes.
    #[arg(long, env = "ARBITER_MAX_ID_BYTES", default_value_t = 64)]
    pub max_id_bytes: u32,
    /// Most steps in a movement path.
    #[arg(long, env = "ARBITER_MAX_PATH_STEPS", default_value_t = 1000)]
    pub max_path_steps: u32,
    /// Work budget of one request, in line-traversal steps (about 25 ms of work).
    #[arg(long, env = "ARBITER_WORK_BUDGET", default_value_t = 5_000_000)]
    pub work_budget: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 1024 * 1024,
            max_grid_side: 1000,
            max_walls: 10_000,
            max_creatures: 500,
            max_id_bytes: 64,
            max_path_steps: 1000,
            work_budget: 5_000_000,
        }
    }
}

/// The service configuration.
#[derive(Debug, Clone, Parser)]
#[command(name = "arbiter", version, about = "Stateless rules-resolution service for d20 tactical combat")]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "ARBITER_ADDR", default_value = "0.0.0.0:8080")]
    pub addr: SocketAddr,
    /// Request limits.
    #[command(flatten)]
    pub limits: Limits,
    /// Most requests in flight at once; beyond it the answer is 503 at once.
    #[arg(long, env = "ARBITER_MAX_INFLIGHT", default_value_t = 512)]
    pub max_inflight: usize,
    /// Seconds a request may take before it is answered 503.
    #[arg(long, env = "ARBITER_REQUEST_TIMEOUT_SECS", default_value_t = 10)]
    pub request_timeout_secs: u64,
    /// Seconds to drain in-flight requests after SIGTERM before exiting.
    #[arg(long, env = "ARBITER_SHUTDOWN_GRACE_SECS", default_value_t = 20)]
    pub shutdown_grace_secs: u64,
    /// Origins allowed by CORS, comma-separated (`*` for any); none by default.
    #[arg(long, env = "ARBITER_CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// Name of this replica, sent in the `x-arbiter-instance` header (default: host name).
    #[arg(long, env = "ARBITER_INSTANCE_ID")]
    pub instance_id: Option<String>,
    /// Log format.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value = "pretty")]
    pub log_format: LogFormat,
}

impl Config {
    /// The configuration with every default (tests).
    pub fn for_tests() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            limits: Limits::default(),
            max_inflight: 512,
            request_timeout_secs: 10,
            shutdown_grace_secs: 5,
            cors_origins: Vec::new(),
            instance_id: Some("test".into()),
            log_format: LogFormat::Pretty,
        }
    }

    /// The request timeout.
    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.request_timeout_secs.max(1))
    }
}
