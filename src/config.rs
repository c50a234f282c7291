//! Configuration: every setting is a flag and an environment variable.

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Parser, ValueEnum};

/// Connections the probe listener (`ARBITER_PROBE_ADDR`) keeps open at once: probes open one
/// each, a few at a time (kubelet, a scraper, a Docker health check).
pub const PROBE_CONNECTIONS: usize = 16;

/// Log output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Pretty,
    /// One JSON object per line.
    Json,
}

pub use arbiter_contract::limits::Limits;

/// The request limits as flags and environment variables (`ARBITER_MAX_*`): the contract's
/// [`Limits`], read by clap. A newtype because the contract crate knows no command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitFlags(pub Limits);

impl std::ops::Deref for LimitFlags {
    type Target = Limits;

    fn deref(&self) -> &Limits {
        &self.0
    }
}

impl std::ops::DerefMut for LimitFlags {
    fn deref_mut(&mut self) -> &mut Limits {
        &mut self.0
    }
}

impl From<Limits> for LimitFlags {
    fn from(l: Limits) -> LimitFlags {
        LimitFlags(l)
    }
}

/// The flags of [`LimitFlags`], one per field of [`Limits`] (its doc comments are the help).
#[derive(Debug, Clone, clap::Args)]
struct LimitArgs {
    /// Largest request body, bytes.
    #[arg(long, env = "ARBITER_MAX_BODY_BYTES", default_value_t = 1024 * 1024)]
    max_body_bytes: usize,
    /// Largest body of an import (`POST /v1/import/*`), bytes: map exports carry their
    /// picture (a base64 PNG of megabytes), which the importers skip.
    #[arg(long, env = "ARBITER_MAX_IMPORT_BYTES", default_value_t = 32 * 1024 * 1024)]
    max_import_bytes: usize,
    /// Largest grid side, squares.
    #[arg(long, env = "ARBITER_MAX_GRID_SIDE", default_value_t = 1000)]
    max_grid_side: u32,
    /// Most walls (and light sources) in one encounter.
    #[arg(long, env = "ARBITER_MAX_WALLS", default_value_t = 10_000)]
    max_walls: u32,
    /// Most creatures in one encounter.
    #[arg(long, env = "ARBITER_MAX_CREATURES", default_value_t = 500)]
    max_creatures: u32,
    /// Longest creature id or side, bytes.
    #[arg(long, env = "ARBITER_MAX_ID_BYTES", default_value_t = 64)]
    max_id_bytes: u32,
    /// Most steps in a movement path.
    #[arg(long, env = "ARBITER_MAX_PATH_STEPS", default_value_t = 1000)]
    max_path_steps: u32,
    /// Work budget of one request, in work units (one unit is about two squares of a line
    /// walk; see `arbiter_rules::budget`).
    #[arg(long, env = "ARBITER_WORK_BUDGET", default_value_t = 5_000_000)]
    work_budget: u64,
}

impl From<LimitArgs> for Limits {
    fn from(a: LimitArgs) -> Limits {
        Limits {
            max_body_bytes: a.max_body_bytes,
            max_import_bytes: a.max_import_bytes,
            max_grid_side: a.max_grid_side,
            max_walls: a.max_walls,
            max_creatures: a.max_creatures,
            max_id_bytes: a.max_id_bytes,
            max_path_steps: a.max_path_steps,
            work_budget: a.work_budget,
        }
    }
}

impl From<&Limits> for LimitArgs {
    fn from(l: &Limits) -> LimitArgs {
        LimitArgs {
            max_body_bytes: l.max_body_bytes,
            max_import_bytes: l.max_import_bytes,
            max_grid_side: l.max_grid_side,
            max_walls: l.max_walls,
            max_creatures: l.max_creatures,
            max_id_bytes: l.max_id_bytes,
            max_path_steps: l.max_path_steps,
            work_budget: l.work_budget,
        }
    }
}

impl clap::FromArgMatches for LimitFlags {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        LimitArgs::from_arg_matches(m).map(|a| LimitFlags(a.into()))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        let mut args = LimitArgs::from(&self.0);
        args.update_from_arg_matches(m)?;
        self.0 = args.into();
        Ok(())
    }
}

impl clap::Args for LimitFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        LimitArgs::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        LimitArgs::augment_args_for_update(cmd)
    }
}

/// The service configuration.
#[derive(Debug, Clone, Parser)]
#[command(name = "arbiter", version, about = "Stateless rules-resolution service for d20 tactical combat")]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "ARBITER_ADDR", default_value = "0.0.0.0:8080")]
    pub addr: SocketAddr,
    /// A second address serving only `/healthz`, `/readyz` and `/metrics`, with its own
    /// small connection cap ([`PROBE_CONNECTIONS`]), so that probes are answered while client
    /// connections fill `max_connections` (none by default).
    #[arg(long, env = "ARBITER_PROBE_ADDR")]
    pub probe_addr: Option<SocketAddr>,
    /// Request limits.
    #[command(flatten)]
    pub limits: LimitFlags,
    /// Rules workers: questions run on this many blocking threads at most (default: the
    /// number of CPU cores).
    #[arg(long, env = "ARBITER_RULES_WORKERS")]
    pub rules_workers: Option<usize>,
    /// Questions that may wait for a rules worker (default: 64 per worker); beyond workers +
    /// queue a question answers 503 at once.
    #[arg(long, env = "ARBITER_RULES_QUEUE")]
    pub rules_queue: Option<usize>,
    /// Milliseconds a question may wait for a rules worker; past it, 503. Bounds the queue in
    /// time as `rules_queue` bounds it in count: a burst of cheap questions waits, a backlog
    /// of heavy ones is shed.
    #[arg(long, env = "ARBITER_QUEUE_WAIT_MS", default_value_t = 500)]
    pub queue_wait_ms: u64,
    /// Seconds a request may take, from its headers to its answer, before it is answered 503
    /// and its work cancelled.
    #[arg(long, env = "ARBITER_REQUEST_TIMEOUT_SECS", default_value_t = 10)]
    pub request_timeout_secs: u64,
    /// Seconds a client has to send a request's headers, counted from the connection's
    /// start or its previous answer: bounds slow headers and idle keep-alive connections.
    #[arg(long, env = "ARBITER_HEADER_READ_TIMEOUT_SECS", default_value_t = 10)]
    pub header_read_timeout_secs: u64,
    /// Seconds a client has to send a request's body (408 beyond).
    #[arg(long, env = "ARBITER_BODY_READ_TIMEOUT_SECS", default_value_t = 10)]
    pub body_read_timeout_secs: u64,
    /// Seconds a connection may make no progress at all (nothing read, nothing written)
    /// before it is closed, whatever it is doing: bounds clients that stop reading answers.
    #[arg(long, env = "ARBITER_IDLE_TIMEOUT_SECS", default_value_t = 60)]
    pub idle_timeout_secs: u64,
    /// Most open client connections; beyond it a new connection gets a 503 and is closed.
    #[arg(long, env = "ARBITER_MAX_CONNECTIONS", default_value_t = 1024)]
    pub max_connections: usize,
    /// Largest answer body, bytes (before compression); beyond it the question answers 422
    /// naming the option to turn off.
    #[arg(long, env = "ARBITER_MAX_ANSWER_BYTES", default_value_t = 8 * 1024 * 1024)]
    pub max_answer_bytes: usize,
    /// Bytes that the answers of 64 KiB or more may hold together while they wait to be
    /// sent (clients that do not read); past it a new large answer is a 503.
    #[arg(long, env = "ARBITER_ANSWER_MEMORY_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub answer_memory_bytes: usize,
    /// Bytes that the bodies of questions may hold together, from their first byte read to
    /// the end of their work (decoded size; reserved by `Content-Length` when it is known,
    /// chunk by chunk otherwise); past it a new body is a 503.
    #[arg(long, env = "ARBITER_BODY_MEMORY_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub body_memory_bytes: usize,
    /// Seconds after SIGTERM during which `/readyz` answers 503 while requests are still
    /// accepted and answered, so that load balancers stop sending new ones.
    #[arg(long, env = "ARBITER_UNREADY_SECS", default_value_t = 5)]
    pub unready_secs: u64,
    /// Seconds to drain in-flight requests once the listener has closed; then work still
    /// running is cancelled and the process exits.
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
            probe_addr: None,
            limits: LimitFlags(Limits::default()),
            rules_workers: Some(2),
            rules_queue: Some(4),
            queue_wait_ms: 500,
            request_timeout_secs: 10,
            header_read_timeout_secs: 10,
            body_read_timeout_secs: 10,
            idle_timeout_secs: 60,
            max_connections: 1024,
            max_answer_bytes: 8 * 1024 * 1024,
            answer_memory_bytes: 64 * 1024 * 1024,
            body_memory_bytes: 64 * 1024 * 1024,
            unready_secs: 0,
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

    /// The body read timeout.
    pub fn body_read_timeout(&self) -> Duration {
        Duration::from_secs(self.body_read_timeout_secs.max(1))
    }

    /// The number of rules workers in force (1 to 4,096).
    pub fn workers(&self) -> usize {
        self.rules_workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
            .clamp(1, 4096)
    }

    /// The number of questions that may wait for a worker (at most 1,048,576).
    pub fn queue(&self) -> usize {
        self.rules_queue.unwrap_or_else(|| 64 * self.workers()).min(1 << 20)
    }

    /// The answer memory in force: never below one answer of the largest size, at most 1 TiB
    /// (a semaphore's permits are bounded).
    pub fn answer_memory(&self) -> usize {
        self.answer_memory_bytes.max(self.max_answer_bytes).min(1 << 40)
    }

    /// The body memory in force: never below one body of the largest size, at most 1 TiB.
    pub fn body_memory(&self) -> usize {
        self.body_memory_bytes.max(self.limits.max_body_bytes).min(1 << 40)
    }
}
