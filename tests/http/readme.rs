//! Every `curl` example of README.md, run verbatim against a live server on 127.0.0.1:8080,
//! and what README says each answer contains (`# answer contains: {json}` lines) checked.

use std::process::Command;

use arbiter::config::Config;
use arbiter::{AppState, app};

/// The shell blocks of README.md that contain a curl command, with the status they expect
/// (`# expect NNN` inside the block, 200 otherwise).
fn curl_blocks() -> Vec<(String, u64)> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```sh") => current = Some(String::new()),
            (Some(block), "```") => {
                if block.contains("curl ") {
                    let expect = block
                        .lines()
                        .find_map(|l| l.trim().strip_prefix("# expect "))
                        .and_then(|s| s.trim().parse().ok())
                        .unwrap_or(200);
                    blocks.push((block.clone(), expect));
                }
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

/// What README says an example's answer contains: the JSON of each `# answer contains:` line.
fn claims(block: &str) -> Vec<serde_json::Value> {
    block
        .lines()
        .filter_map(|l| l.trim().strip_prefix("# answer contains:"))
        .map(|c| serde_json::from_str(c).unwrap_or_else(|e| panic!("README claim is not JSON ({e}): {c}")))
        .collect()
}

/// Whether `actual` holds `expected`: every key of an expected object (recursively), the items
/// of an expected array in order (others may sit between them), equal scalars (numbers by value).
fn contains(actual: &serde_json::Value, expected: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => {
            e.iter().all(|(k, v)| a.get(k).is_some_and(|x| contains(x, v)))
        }
        (Value::Array(a), Value::Array(e)) => {
            let mut rest = a.iter();
            e.iter().all(|want| rest.any(|x| contains(x, want)))
        }
        (Value::Number(a), Value::Number(e)) => a.as_f64() == e.as_f64(),
        (a, e) => a == e,
    }
}

#[test]
fn contains_matches_subsets_only() {
    let answer = serde_json::json!({"result": {"degree": "cover", "ac_bonus": 4, "lines": [{"blocked": true}, {"blocked": false}]}});
    assert!(contains(&answer, &serde_json::json!({"result": {"ac_bonus": 4.0}})));
    assert!(contains(&answer, &serde_json::json!({"result": {"lines": [{"blocked": false}]}})));
    assert!(!contains(&answer, &serde_json::json!({"result": {"ac_bonus": 2}})));
    assert!(!contains(
        &answer,
        &serde_json::json!({"result": {"lines": [{"blocked": false}, {"blocked": true}]}})
    ));
    assert!(!contains(&answer, &serde_json::json!({"result": {"soft": false}})));
}

/// The file a curl example saves its answer to (`-o FILE`).
fn saved_file(block: &str) -> Option<&str> {
    let rest = &block[block.find(" -o ")? + 4..];
    rest.split_whitespace().next()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readme_curl_examples_work_verbatim() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:8080")
        .await
        .expect("port 8080 is busy: stop the local server before running the README test");
    let server =
        tokio::spawn(async move { axum::serve(listener, app(AppState::new(Config::for_tests()))).await });
    // Examples that save files (`-o cover.svg`) write them here, not into the checkout.
    let dir = std::env::temp_dir().join(format!("arbiter-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Examples that send a file of the checkout (`--data-binary @tests/fixtures/…`) find it.
    let _ = std::os::unix::fs::symlink(concat!(env!("CARGO_MANIFEST_DIR"), "/tests"), dir.join("tests"));
    let blocks = curl_blocks();
    assert!(blocks.len() >= 8, "README lost its curl examples");
    for (block, expect) in blocks {
        let script = block.clone();
        let cwd = dir.clone();
        let out = tokio::task::spawn_blocking(move || {
            Command::new("bash").arg("-c").arg(&script).current_dir(cwd).output()
        })
        .await
        .unwrap()
        .expect("bash");
        assert!(out.status.success(), "curl failed: {block}\n{}", String::from_utf8_lossy(&out.stderr));
        let body = String::from_utf8_lossy(&out.stdout);
        assert!(!body.trim().is_empty(), "empty answer: {block}");
        if let Ok(json) = serde_json::from_str::<serde_json::Value>(&body) {
            for claim in claims(&block) {
                assert!(contains(&json, &claim), "README says the answer contains {claim}\n{block}\n{body}");
            }
            let status = json.get("status").and_then(|s| s.as_u64()).unwrap_or(200);
            let status = if json.get("type").is_some() { status } else { 200 };
            assert_eq!(status, expect, "{block}\n{body}");
        } else if let Some(file) = saved_file(&block) {
            assert_eq!(body.trim(), format!("{expect} image/svg+xml"), "{block}");
            let svg = std::fs::read_to_string(dir.join(file)).unwrap();
            roxmltree::Document::parse(&svg).expect("the saved SVG is well-formed");
        } else {
            assert_eq!(expect, 200, "{block}\n{body}");
            assert!(block.contains("/metrics"), "only /metrics answers plain text: {block}\n{body}");
        }
    }
    server.abort();
    let _ = std::fs::remove_dir_all(&dir);
}
