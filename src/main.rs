//! The `arbiter` binary: configuration, logging, listener, graceful shutdown.

use std::sync::atomic::Ordering;
use std::time::Duration;

use arbiter::config::{Config, LogFormat};
use arbiter::{AppState, app};
use clap::Parser;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,tower_http=info"));
    match config.log_format {
        LogFormat::Json => tracing_subscriber::fmt().with_env_filter(filter).json().init(),
        LogFormat::Pretty => tracing_subscriber::fmt().with_env_filter(filter).init(),
    }
    let listener = match tokio::net::TcpListener::bind(config.addr).await {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(addr = %config.addr, error = %e, "cannot listen");
            return std::process::ExitCode::FAILURE;
        }
    };
    let grace = Duration::from_secs(config.shutdown_grace_secs);
    let state = AppState::new(config);
    let draining = state.draining.clone();
    tracing::info!(addr = %listener.local_addr().map(|a| a.to_string()).unwrap_or_default(), instance = %state.instance, "arbiter listening");

    let (signalled_tx, signalled_rx) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async move {
        shutdown_signal().await;
        draining.store(true, Ordering::Relaxed);
        tracing::info!(grace_secs = grace.as_secs(), "shutting down: draining in-flight requests");
        let _ = signalled_tx.send(());
    };
    let server = axum::serve(listener, app(state)).with_graceful_shutdown(shutdown);
    let server = tokio::spawn(async move { server.await });
    // Once the signal came, give the drain `grace` and no more.
    let deadline = async {
        let _ = signalled_rx.await;
        tokio::time::sleep(grace).await;
    };
    tokio::select! {
        res = server => match res {
            Ok(Ok(())) => {
                tracing::info!("stopped");
                std::process::ExitCode::SUCCESS
            }
            Ok(Err(e)) => {
                tracing::error!(error = %e, "server error");
                std::process::ExitCode::FAILURE
            }
            Err(e) => {
                tracing::error!(error = %e, "server task failed");
                std::process::ExitCode::FAILURE
            }
        },
        () = deadline => {
            tracing::warn!("drain deadline reached; exiting with requests still open");
            std::process::ExitCode::SUCCESS
        }
    }
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
