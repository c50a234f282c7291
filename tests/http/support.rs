//! Helpers shared by the HTTP tests.

use arbiter::config::Config;
use arbiter::{AppState, app};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response, header};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// The app with the default configuration.
pub fn test_app() -> Router {
    app(AppState::new(Config::for_tests()))
}

/// The app with a tweaked configuration.
pub fn app_with(f: impl FnOnce(&mut Config)) -> Router {
    let mut c = Config::for_tests();
    f(&mut c);
    app(AppState::new(c))
}

/// The status, headers and body of one request.
pub struct Answer {
    pub status: u16,
    pub headers: axum::http::HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn content_type(&self) -> &str {
        self.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("")
    }
}

async fn collect(res: Response<Body>) -> Answer {
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let body = res.into_body().collect().await.expect("body").to_bytes().to_vec();
    Answer { status, headers, body }
}

/// Sends a request.
pub async fn send(app: Router, req: Request<Body>) -> Answer {
    collect(app.oneshot(req).await.expect("infallible")).await
}

/// POSTs a JSON value.
pub async fn post_json(app: Router, path: &str, body: &Value) -> Answer {
    post_raw(app, path, "application/json", serde_json::to_vec(body).unwrap()).await
}

/// POSTs raw bytes with a content type.
pub async fn post_raw(app: Router, path: &str, content_type: &str, body: Vec<u8>) -> Answer {
    let req = Request::post(path).header(header::CONTENT_TYPE, content_type).body(Body::from(body)).unwrap();
    send(app, req).await
}

/// GETs a path.
pub async fn get(app: Router, path: &str) -> Answer {
    send(app, Request::get(path).body(Body::empty()).unwrap()).await
}

/// Checks that every key of `expected` is in `actual` with an equal value (recursively for
/// objects; arrays and scalars compare whole). Numbers compare as f64.
pub fn assert_subset(actual: &Value, expected: &Value, path: &str) {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => {
            for (k, ev) in e {
                let av = a.get(k).unwrap_or_else(|| panic!("{path}/{k} missing in {actual}"));
                assert_subset(av, ev, &format!("{path}/{k}"));
            }
        }
        (Value::Number(a), Value::Number(e)) => {
            assert_eq!(a.as_f64(), e.as_f64(), "{path}: got {a}, expected {e}");
        }
        _ => assert_eq!(actual, expected, "{path}"),
    }
}

/// A small valid range request to mutate in tests.
pub fn range_request() -> Value {
    serde_json::json!({
        "encounter": {
            "ruleset": "pf1e",
            "grid": {"width": 12, "height": 8, "map": [
                "............", "....#.......", "....#...=...", "........::..",
                "...~~.......", "............", "wwww........", "wwww........"]},
            "creatures": [
                {"id": "valeros", "side": "party", "at": {"x": 1, "y": 2}},
                {"id": "goblin", "side": "monsters", "at": {"x": 9, "y": 2}, "size": "small"}
            ]
        },
        "attacker": "valeros",
        "target": "goblin",
        "weapon": {"kind": "ranged", "increment_ft": 100}
    })
}

/// The pointers of a problem's `errors`.
pub fn pointers(a: &Answer) -> Vec<String> {
    a.json()["errors"]
        .as_array()
        .map(|e| e.iter().map(|x| x["pointer"].as_str().unwrap_or("").to_owned()).collect())
        .unwrap_or_default()
}

/// Like `assert_subset`, but arrays compare element by element (same length).
pub fn subset(actual: &Value, expected: &Value, path: &str) {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => {
            for (k, ev) in e {
                let av = a.get(k).unwrap_or_else(|| panic!("{path}/{k} missing in {actual}"));
                subset(av, ev, &format!("{path}/{k}"));
            }
        }
        (Value::Array(a), Value::Array(e)) => {
            assert_eq!(a.len(), e.len(), "{path}: got {actual}, expected {expected}");
            for (i, (av, ev)) in a.iter().zip(e).enumerate() {
                subset(av, ev, &format!("{path}/{i}"));
            }
        }
        (Value::Number(a), Value::Number(e)) => {
            assert!(
                (a.as_f64().unwrap() - e.as_f64().unwrap()).abs() < 1e-12,
                "{path}: got {a}, expected {e}"
            );
        }
        _ => assert_eq!(actual, expected, "{path}"),
    }
}

/// Posts every fixture case to `path` and checks its status, its error pointers, the expected
/// subset of the body (of `body[scope]` when a scope is given), the rules it names under
/// `rules`, and that every traced rule is in the catalog. Returns the cases answered 200 with
/// their bodies, and a line per failure.
pub async fn check_fixtures<'c>(
    path: &str,
    cases: &'c [Value],
    scope: Option<&str>,
) -> (Vec<(&'c Value, Value)>, Vec<String>) {
    let mut ok = Vec::new();
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let res = post_json(test_app(), path, &case["request"]).await;
        if res.status as u64 != case["status"].as_u64().unwrap() {
            failures.push(format!("{name}: status {}: {}", res.status, String::from_utf8_lossy(&res.body)));
            continue;
        }
        if let Some(expected) = case["pointers"].as_array() {
            let expected: Vec<String> = expected.iter().map(|p| p.as_str().unwrap().to_owned()).collect();
            if pointers(&res) != expected {
                failures.push(format!(
                    "{name}: pointers {:?}: {}",
                    pointers(&res),
                    String::from_utf8_lossy(&res.body)
                ));
            }
            continue;
        }
        let body = res.json();
        let scoped = scope.map_or(&body, |s| &body[s]);
        if std::panic::catch_unwind(|| subset(scoped, &case["expect"], name)).is_err() {
            failures.push(format!("{name}: {scoped}"));
            continue;
        }
        let trace = body["trace"].as_array().unwrap();
        for rule in case["rules"].as_array().into_iter().flatten() {
            if !trace.iter().any(|s| &s["rule"] == rule) {
                failures.push(format!("{name}: no {rule} step"));
            }
        }
        for step in trace.iter().filter(|s| s["source"] == "RULES.md") {
            failures.push(format!("{name}: rule {} is not in the catalog", step["rule"]));
        }
        ok.push((case, body));
    }
    (ok, failures)
}

/// The fixture cases of `tests/fixtures/<name>.json` (`"cover/cases"`, `"maneuver/charge"`…).
pub fn fixtures_of(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap()
}

/// Holds the only rules worker of `state` until the returned sender is sent to (or dropped);
/// returns once the job runs, with its handle.
pub async fn hold_worker(
    state: &AppState,
) -> (std::sync::mpsc::Sender<()>, tokio::task::JoinHandle<Result<bool, arbiter::pool::PoolError>>) {
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let pool = state.pool.clone();
    let held = tokio::spawn(async move { pool.run(move || rx.recv().is_ok()).await });
    while state.pool.busy() == 0 {
        tokio::task::yield_now().await;
    }
    (tx, held)
}

/// The OpenAPI document as committed.
pub fn openapi_doc() -> Value {
    serde_json::from_str(include_str!("../../openapi/openapi.json")).unwrap()
}

/// Every question endpoint of the document: its path, request schema name and example.
pub fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        let Some(op) = item.get("post") else { continue };
        let name = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_owned();
        let example = doc["components"]["schemas"][&name]["examples"][0].clone();
        out.push((path.clone(), name, example));
    }
    out
}

/// Every fixture file of `tests/fixtures`, with the endpoint that answers it.
pub const FIXTURES: &[(&str, &str)] = &[
    ("attack/cases", "/v1/attack"),
    ("concealment/cases", "/v1/concealment"),
    ("cover/cases", "/v1/cover"),
    ("damage/cases", "/v1/attack"),
    ("damage/grapple", "/v1/maneuvers"),
    ("flanking/cases", "/v1/flanking"),
    ("initiative/cases", "/v1/initiative"),
    ("initiative/mounted", "/v1/initiative"),
    ("maneuver/cases", "/v1/maneuvers"),
    ("maneuver/charge", "/v1/maneuvers"),
    ("maneuver/mounted", "/v1/maneuvers"),
    ("movement/cases", "/v1/movement"),
    ("movement/mounted", "/v1/movement"),
    ("range/cases", "/v1/range"),
];
