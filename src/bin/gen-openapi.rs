//! Writes the OpenAPI document generated from the types to `openapi/openapi.json` (or the
//! path given as the first argument). `cargo run --bin gen-openapi`.

fn main() -> std::process::ExitCode {
    let path = std::env::args().nth(1).unwrap_or_else(|| "openapi/openapi.json".to_owned());
    let json = match arbiter::openapi().to_pretty_json() {
        Ok(j) => j,
        Err(e) => {
            eprintln!("cannot serialize the OpenAPI document: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::write(&path, json + "\n") {
        eprintln!("cannot write {path}: {e}");
        return std::process::ExitCode::FAILURE;
    }
    println!("wrote {path}");
    std::process::ExitCode::SUCCESS
}
