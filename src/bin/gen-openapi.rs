//! Writes the OpenAPI document generated from the types to `openapi/openapi.json` (or the
//! path given as the first argument). `cargo run --bin gen-openapi`.
//!
//! `cargo run --bin gen-openapi -- --answers` instead writes the server's answer to each
//! operation's request example to `openapi/examples/<operation>.json`, the 200 examples of
//! the document: read them against RULES.md before committing (an example must be a right
//! answer, not only the server's), then run `gen-openapi` again to put them in the document.

use std::process::ExitCode;

fn main() -> ExitCode {
    let arg = std::env::args().nth(1);
    if arg.as_deref() == Some("--answers") {
        return answers();
    }
    let path = arg.unwrap_or_else(|| "openapi/openapi.json".to_owned());
    let json = match serde_json::to_string_pretty(&arbiter::openapi()) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("cannot serialize the OpenAPI document: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::write(&path, json + "\n") {
        eprintln!("cannot write {path}: {e}");
        return ExitCode::FAILURE;
    }
    println!("wrote {path}");
    ExitCode::SUCCESS
}

/// Posts every request example to the app in-process and writes the answers.
fn answers() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("cannot start a runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let doc = arbiter::openapi();
    let mut status = ExitCode::SUCCESS;
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        let Some(op) = item.get("post") else { continue };
        let id = op["operationId"].as_str().unwrap_or("");
        let example = &op["requestBody"]["content"]["application/json"]["examples"]["example"]["value"];
        match runtime.block_on(ask(path, example)) {
            Ok(answer) => {
                let file = format!("openapi/examples/{id}.json");
                let text = serde_json::to_string_pretty(&answer).unwrap_or_default();
                if let Err(e) = std::fs::write(&file, text + "\n") {
                    eprintln!("cannot write {file}: {e}");
                    status = ExitCode::FAILURE;
                } else {
                    println!("wrote {file}");
                }
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}

async fn ask(path: &str, body: &serde_json::Value) -> Result<serde_json::Value, String> {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let app = arbiter::app(arbiter::AppState::new(arbiter::config::Config::for_tests()));
    let req = axum::http::Request::post(path)
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .map_err(|e| e.to_string())?;
    let res = app.oneshot(req).await.map_err(|e| e.to_string())?;
    let code = res.status();
    let bytes = res.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
    if !code.is_success() {
        return Err(format!("{code}: {}", String::from_utf8_lossy(&bytes)));
    }
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}
