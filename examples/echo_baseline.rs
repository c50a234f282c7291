//! The baseline of PRODUCT.md's HTTP target: a bare axum handler that parses the same body
//! into the same typed request as `/v1/cover` and answers a small JSON, with none of the
//! service's middleware or rules. `scripts/load.sh --baseline` runs it beside `arbiter` and
//! reports the ratio of requests per second.
//!
//! `ECHO_ADDR=127.0.0.1:9090 cargo run --release --example echo_baseline`

use arbiter_contract::api::cover::CoverRequest;
use axum::Json;
use axum::routing::post;
use serde_json::{Value, json};

/// The server's allocator (see `src/main.rs`), so that the ratio compares the service's work
/// with the bare handler's, not two allocators.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

async fn echo(Json(req): Json<CoverRequest>) -> Json<Value> {
    Json(json!({"attacker": req.attacker, "target": req.target, "creatures": req.encounter.creatures.len()}))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let addr = std::env::var("ECHO_ADDR").unwrap_or_else(|_| "127.0.0.1:9090".to_owned());
    let listener = match tokio::net::TcpListener::bind(&addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("echo_baseline: cannot listen on {addr}: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let app = axum::Router::new().route("/echo", post(echo));
    match axum::serve(listener, app).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("echo_baseline: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
