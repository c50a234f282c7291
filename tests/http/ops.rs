//! Health, metrics, request ids, CORS, compression, load shedding, routing errors.

use axum::body::Body;
use axum::http::{Request, header};

use super::support::*;
use arbiter::config::Config;
use arbiter::{AppState, app};

#[tokio::test]
async fn health_and_readiness() {
    let res = get(test_app(), "/healthz").await;
    assert_eq!((res.status, res.json()["status"].as_str()), (200, Some("ok")));
    let state = AppState::new(Config::for_tests());
    let a = app(state.clone());
    assert_eq!(get(a.clone(), "/readyz").await.status, 200);
    state.draining.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(get(a, "/readyz").await.status, 503);
}

#[tokio::test]
async fn metrics_count_requests_per_route_and_status() {
    let a = test_app();
    let _ = post_json(a.clone(), "/v1/range", &range_request()).await;
    let _ = post_raw(a.clone(), "/v1/range", "text/plain", vec![]).await;
    let text = String::from_utf8(get(a, "/metrics").await.body).unwrap();
    assert!(
        text.contains(r#"arbiter_http_requests_total{method="POST",route="/v1/range",status="200"} 1"#),
        "{text}"
    );
    assert!(
        text.contains(r#"arbiter_http_requests_total{method="POST",route="/v1/range",status="415"} 1"#),
        "{text}"
    );
    assert!(text.contains("arbiter_http_request_duration_seconds_bucket{"));
}

#[tokio::test]
async fn request_ids_are_set_and_propagated() {
    let res = get(test_app(), "/healthz").await;
    assert!(res.headers.get("x-request-id").is_some());
    let req = Request::get("/healthz").header("x-request-id", "abc-123").body(Body::empty()).unwrap();
    let res = send(test_app(), req).await;
    assert_eq!(res.headers.get("x-request-id").unwrap(), "abc-123");
    assert_eq!(res.headers.get("x-arbiter-instance").unwrap(), "test");
}

#[tokio::test]
async fn cors_follows_configuration() {
    let preflight = |app| async move {
        let req = Request::options("/v1/range")
            .header(header::ORIGIN, "https://vtt.example")
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .body(Body::empty())
            .unwrap();
        send(app, req).await
    };
    let none = preflight(test_app()).await;
    assert!(none.headers.get(header::ACCESS_CONTROL_ALLOW_ORIGIN).is_none());
    let allowed = preflight(app_with(|c| c.cors_origins = vec!["https://vtt.example".into()])).await;
    assert_eq!(allowed.headers.get(header::ACCESS_CONTROL_ALLOW_ORIGIN).unwrap(), "https://vtt.example");
}

#[tokio::test]
async fn large_answers_are_compressed() {
    let req = Request::get("/v1/rules").header(header::ACCEPT_ENCODING, "gzip").body(Body::empty()).unwrap();
    let res = send(test_app(), req).await;
    assert_eq!(res.headers.get(header::CONTENT_ENCODING).unwrap(), "gzip");
    let req = Request::get("/healthz").header(header::ACCEPT_ENCODING, "gzip").body(Body::empty()).unwrap();
    assert!(
        send(test_app(), req).await.headers.get(header::CONTENT_ENCODING).is_none(),
        "tiny answers stay plain"
    );
}

#[tokio::test]
async fn overload_answers_503_at_once() {
    let state = AppState::new(Config { max_inflight: 2, ..Config::for_tests() });
    let _held = state.permits.clone().try_acquire_many_owned(2).unwrap();
    let res = post_json(app(state.clone()), "/v1/range", &range_request()).await;
    assert_eq!(res.status, 503);
    assert_eq!(res.content_type(), "application/problem+json");
    assert_eq!(res.headers.get(header::RETRY_AFTER).unwrap(), "1");
    // Cheap endpoints are never shed.
    assert_eq!(get(app(state), "/healthz").await.status, 200);
}

#[tokio::test]
async fn unknown_routes_and_methods_are_problems() {
    let res = get(test_app(), "/v1/nothing").await;
    assert_eq!((res.status, res.content_type()), (404, "application/problem+json"));
    let res = get(test_app(), "/v1/range").await;
    assert_eq!((res.status, res.content_type()), (405, "application/problem+json"));
}
