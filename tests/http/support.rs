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
