//! The `arbiter` binary: configuration, logging, listener, graceful shutdown; and the
//! `import` command (`arbiter::cli`).

use arbiter::AppState;
use arbiter::cli::Cli;
use arbiter::config::{Config, LogFormat};
use arbiter::serve::{ConnLimits, Shutdown, raise_fd_limit, serve, serve_probes};
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// mimalloc rather than glibc's malloc: a question allocates a few hundred small blocks, and
/// glibc's spent about a fifth of a `/v1/cover` request (malloc, free, `malloc_consolidate`
/// under `perf`). `examples/echo_baseline.rs` uses the same allocator, so the baseline
/// comparison stays about the service's own work.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let Cli { command, config } = Cli::parse();
    if let Some(command) = command {
        return arbiter::cli::finish(&arbiter::cli::run(&command, &config.limits));
    }
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,tower_http=info"));
    match config.log_format {
        LogFormat::Json => tracing_subscriber::fmt().with_env_filter(filter).json().init(),
        LogFormat::Pretty => tracing_subscriber::fmt().with_env_filter(filter).init(),
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            tracing::error!(error = %e, "cannot start the runtime");
            return std::process::ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(run(config));
    // The drain is over (or its deadline passed and the work was cancelled): do not wait for
    // idle blocking threads, nor for a cancelled job that has not reached a budget check.
    runtime.shutdown_background();
    code
}

async fn run(mut config: Config) -> std::process::ExitCode {
    if let Some(fds) = raise_fd_limit() {
        // Keep room for the listeners, logs, the refusals at the cap and the probes.
        let room = usize::try_from(fds.saturating_sub(64 + 2 * arbiter::config::PROBE_CONNECTIONS as u64))
            .unwrap_or(usize::MAX)
            .max(1);
        if config.max_connections > room {
            tracing::warn!(
                max_connections = config.max_connections,
                fd_limit = fds,
                "connection cap lowered to fit the file-descriptor limit"
            );
            config.max_connections = room;
        }
    }
    let listener = match tokio::net::TcpListener::bind(config.addr).await {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(addr = %config.addr, error = %e, "cannot listen");
            return std::process::ExitCode::FAILURE;
        }
    };
    let probes = match config.probe_addr {
        None => None,
        Some(addr) => match tokio::net::TcpListener::bind(addr).await {
            Ok(l) => Some(l),
            Err(e) => {
                tracing::error!(addr = %addr, error = %e, "cannot listen for probes");
                return std::process::ExitCode::FAILURE;
            }
        },
    };
    let limits = ConnLimits::from_config(&config);
    let shutdown = Shutdown::from_config(&config);
    let state = AppState::new(config);
    tracing::info!(
        addr = %listener.local_addr().map(|a| a.to_string()).unwrap_or_default(),
        instance = %state.instance,
        rules_workers = state.pool.size(),
        rules_capacity = state.pool.capacity(),
        max_connections = limits.max_connections,
        "arbiter listening"
    );
    if let Some(probes) = probes {
        tracing::info!(
            addr = %probes.local_addr().map(|a| a.to_string()).unwrap_or_default(),
            max_connections = arbiter::config::PROBE_CONNECTIONS,
            "probes listening"
        );
        // Until the process exits (the runtime is shut down without waiting for it).
        tokio::spawn(serve_probes(probes, state.clone()));
    }
    let stop = {
        let state = state.clone();
        async move {
            shutdown_signal().await;
            shutdown.begin(&state).await;
        }
    };
    let connections = serve(listener, state.clone(), limits, stop).await;
    if shutdown.drain(&state, &connections).await {
        tracing::info!("stopped");
    } else {
        tracing::warn!(open = connections.open(), "stopped at the drain deadline");
    }
    std::process::ExitCode::SUCCESS
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
