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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overload_answers_503_at_once() {
    let state = AppState::new(Config { rules_workers: Some(1), rules_queue: Some(0), ..Config::for_tests() });
    // Hold the only worker with a job that waits for us.
    let (tx, held) = hold_worker(&state).await;
    let res = post_json(app(state.clone()), "/v1/range", &range_request()).await;
    assert_eq!(res.status, 503);
    assert_eq!(res.content_type(), "application/problem+json");
    assert_eq!(res.headers.get(header::RETRY_AFTER).unwrap(), "1");
    // Cheap endpoints are never shed, and the metrics say why the question was.
    assert_eq!(get(app(state.clone()), "/healthz").await.status, 200);
    let text = String::from_utf8(get(app(state.clone()), "/metrics").await.body).unwrap();
    assert!(text.contains("arbiter_http_requests_shed_total 1\n"), "{text}");
    assert!(text.contains("arbiter_http_problems_total{type=\"overloaded\"} 1\n"), "{text}");
    assert!(text.contains("arbiter_rules_busy 1\n"), "{text}");
    tx.send(()).unwrap();
    assert_eq!(held.await.unwrap(), Ok(true));
    assert_eq!(post_json(app(state), "/v1/range", &range_request()).await.status, 200);
}

#[tokio::test]
async fn unknown_routes_and_methods_are_problems() {
    let res = get(test_app(), "/v1/nothing").await;
    assert_eq!((res.status, res.content_type()), (404, "application/problem+json"));
    let res = get(test_app(), "/v1/range").await;
    assert_eq!((res.status, res.content_type()), (405, "application/problem+json"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operations_answer_while_every_worker_is_busy() {
    let state = AppState::new(Config { rules_workers: Some(1), rules_queue: Some(0), ..Config::for_tests() });
    let (_release, _held) = hold_worker(&state).await;
    for path in ["/healthz", "/readyz", "/metrics", "/v1/rulesets"] {
        assert_eq!(get(app(state.clone()), path).await.status, 200, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_timeout_answers_503_while_the_work_waits() {
    // The question queues behind a held worker; the timeout answers at its deadline and the
    // queued job is given up (the slot comes back).
    let state = AppState::new(Config {
        rules_workers: Some(1),
        rules_queue: Some(1),
        queue_wait_ms: 60_000,
        request_timeout_secs: 1,
        ..Config::for_tests()
    });
    let (release, _held) = hold_worker(&state).await;
    let res = post_json(app(state.clone()), "/v1/range", &range_request()).await;
    assert_eq!(res.status, 503);
    assert_eq!(res.json()["type"], "urn:arbiter:problem:timeout");
    assert_eq!(res.headers.get(header::RETRY_AFTER).unwrap(), "1");
    assert_eq!(state.pool.queued(), 0);
    release.send(()).unwrap();
}

#[tokio::test]
async fn answers_over_the_size_limit_are_422_naming_the_option() {
    let res = post_json(app_with(|c| c.max_answer_bytes = 100), "/v1/range", &range_request()).await;
    assert_eq!(res.status, 422);
    let p = res.json();
    assert_eq!(p["type"], "urn:arbiter:problem:answer-too-large");
    assert!(p["detail"].as_str().unwrap().contains("over the limit of 100"), "{p}");
    // The same question fits the default limit.
    assert_eq!(post_json(test_app(), "/v1/range", &range_request()).await.status, 200);
}

#[tokio::test]
async fn a_body_that_never_ends_is_408() {
    let a = app_with(|c| c.body_read_timeout_secs = 1);
    let req = Request::post("/v1/range")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::new(OnceThenPending(Some(axum::body::Bytes::from_static(b"{")))))
        .unwrap();
    let res = send(a, req).await;
    assert_eq!((res.status, res.content_type()), (408, "application/problem+json"));
    assert_eq!(res.json()["type"], "urn:arbiter:problem:body-timeout");
    assert_eq!(res.headers.get(header::CONNECTION).unwrap(), "close");
}

/// Bodies share `ARBITER_BODY_MEMORY_BYTES`: while one body holds most of it, a new body that
/// does not fit is answered 503 `bodies-pending` with Retry-After at once, whether its size is
/// declared or it arrives chunk by chunk; once the first is gone the next is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_past_the_body_memory_are_503_at_once() {
    let state = AppState::new(Config {
        limits: arbiter::config::Limits { max_body_bytes: 4096, ..Default::default() }.into(),
        body_memory_bytes: 4096,
        ..Config::for_tests()
    });
    let a = app(state.clone());
    let stalled = Request::post("/v1/range")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::new(OnceThenPending(Some(vec![b' '; 3000].into()))))
        .unwrap();
    let held = tokio::spawn(tower::ServiceExt::oneshot(a.clone(), stalled));
    while state.body_memory.available_permits() == 4096 {
        tokio::task::yield_now().await;
    }
    let metrics = String::from_utf8(get(a.clone(), "/metrics").await.body).unwrap();
    assert!(metrics.contains("\narbiter_body_memory_bytes 3000\n"), "{metrics}");
    // 3000 + 2000 > 4096, declared up front.
    let declared = post_raw(a.clone(), "/v1/range", "application/json", vec![b' '; 2000]).await;
    assert_eq!((declared.status, declared.content_type()), (503, "application/problem+json"));
    assert_eq!(declared.json()["type"], "urn:arbiter:problem:bodies-pending");
    assert_eq!(declared.headers.get(header::RETRY_AFTER).unwrap(), "1");
    // The same, in a chunk of a body of unknown size (one that would never end otherwise).
    let chunked = Request::post("/v1/range")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::new(OnceThenPending(Some(vec![b' '; 2000].into()))))
        .unwrap();
    let chunked = send(a.clone(), chunked).await;
    assert_eq!(chunked.status, 503);
    assert_eq!(chunked.json()["type"], "urn:arbiter:problem:bodies-pending");
    held.abort();
    let _ = held.await;
    while state.body_memory.available_permits() < 4096 {
        tokio::task::yield_now().await;
    }
    let res = post_json(a, "/v1/range", &range_request()).await;
    assert_eq!(res.status, 200, "{:?}", res.json());
}

/// A body that sends one chunk and then nothing, ever: a client trickling its body.
struct OnceThenPending(Option<axum::body::Bytes>);

impl http_body::Body for OnceThenPending {
    type Data = axum::body::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        match self.0.take() {
            Some(b) => std::task::Poll::Ready(Some(Ok(http_body::Frame::data(b)))),
            None => std::task::Poll::Pending,
        }
    }
}

#[tokio::test]
async fn gzip_bodies_are_decoded_and_lying_encodings_refused() {
    use std::io::Write;
    let body = serde_json::to_vec(&range_request()).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&body).unwrap();
    let gzipped = gz.finish().unwrap();
    let post = |encoding: &'static str, bytes: Vec<u8>| {
        Request::post("/v1/range")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::CONTENT_ENCODING, encoding)
            .body(Body::from(bytes))
            .unwrap()
    };
    let res = send(test_app(), post("gzip", gzipped)).await;
    assert_eq!(res.status, 200, "{:?}", res.json());
    assert_eq!(res.json()["result"]["distance_ft"], 40);
    // A plain body labelled gzip is not read as JSON.
    let res = send(test_app(), post("gzip", body.clone())).await;
    assert_eq!((res.status, res.content_type()), (400, "application/problem+json"));
    // An encoding the server does not speak.
    let res = send(test_app(), post("zstd-unknown", body)).await;
    assert_eq!((res.status, res.content_type()), (415, "application/problem+json"));
    assert!(res.json()["detail"].as_str().unwrap().contains("gzip"), "{:?}", res.json());
}

#[tokio::test]
async fn the_decoded_size_is_what_the_body_limit_bounds() {
    use std::io::Write;
    // 64 KiB of spaces compresses to a few hundred bytes; the limit is 8 KiB.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&vec![b' '; 64 * 1024]).unwrap();
    let bomb = gz.finish().unwrap();
    assert!(bomb.len() < 8 * 1024);
    let req = Request::post("/v1/range")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_ENCODING, "gzip")
        .body(Body::from(bomb))
        .unwrap();
    let res = send(app_with(|c| c.limits.max_body_bytes = 8 * 1024), req).await;
    assert_eq!(res.status, 413);
}

#[tokio::test]
async fn metrics_labels_are_a_closed_set() {
    let a = test_app();
    for m in ["FOO", "BAR", "PROPFIND"] {
        let req = Request::builder().method(m).uri("/v1/range").body(Body::empty()).unwrap();
        let _ = send(a.clone(), req).await;
    }
    let text = String::from_utf8(get(a, "/metrics").await.body).unwrap();
    assert!(
        text.contains(r#"arbiter_http_requests_total{method="other",route="/v1/range",status="405"} 3"#),
        "{text}"
    );
    assert!(!text.contains("FOO") && !text.contains("PROPFIND"), "{text}");
    for name in [
        "process_cpu_seconds_total ",
        "process_resident_memory_bytes ",
        "process_open_fds ",
        "arbiter_build_info{",
    ] {
        assert!(text.contains(name), "{name} missing: {text}");
    }
}

#[tokio::test]
async fn a_drawing_that_could_exceed_the_answer_limit_is_refused_before_it_is_drawn() {
    // A 1000×1000 map of solid squares: a million drawn squares, far over 8 MiB.
    let mut body = range_request();
    body["encounter"]["grid"] = serde_json::json!({"width": 1000, "height": 1000, "cells": []});
    let row = "#".repeat(1000);
    body["encounter"]["grid"]["map"] = serde_json::json!(vec![row; 1000]);
    body["encounter"]["grid"]["map"][0] = serde_json::json!(format!("..{}", "#".repeat(998)));
    body["encounter"]["creatures"][0]["at"] = serde_json::json!({"x": 0, "y": 0});
    body["encounter"]["creatures"][1]["at"] = serde_json::json!({"x": 1, "y": 0});
    body["attack"] = serde_json::json!("melee");
    let req = Request::post("/v1/cover")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "image/svg+xml")
        .body(Body::from(serde_json::to_vec(&body).unwrap()))
        .unwrap();
    let res = send(test_app(), req).await;
    assert_eq!(res.status, 422, "{:?}", String::from_utf8_lossy(&res.body));
    let p = res.json();
    assert_eq!(p["type"], "urn:arbiter:problem:answer-too-large");
    assert!(p["detail"].as_str().unwrap().contains("application/json instead of image/svg+xml"), "{p}");
}

#[tokio::test]
async fn large_answers_waiting_to_be_read_are_bounded_together() {
    use tower::ServiceExt;
    // The OpenAPI document is a large answer (over 64 KiB): room for one at a time.
    let doc = || Request::get("/openapi.json").body(Body::empty()).unwrap();
    let unread = test_app().oneshot(doc()).await.unwrap();
    assert_eq!(unread.status(), 200);
    let size = axum::body::HttpBody::size_hint(unread.body()).lower();
    assert!(size >= 64 * 1024, "{size}");
    let a = app_with(|c| {
        c.max_answer_bytes = usize::try_from(size).unwrap();
        c.answer_memory_bytes = 1;
    });
    let unread = a.clone().oneshot(doc()).await.unwrap();
    assert_eq!(unread.status(), 200);
    let second = send(a.clone(), doc()).await;
    assert_eq!(second.status, 503);
    assert_eq!(second.json()["type"], "urn:arbiter:problem:answers-pending");
    assert_eq!(second.headers.get(header::RETRY_AFTER).unwrap(), "1");
    // Once the first answer is gone (sent, or its client left), the next one goes out.
    drop(unread);
    assert_eq!(send(a, doc()).await.status, 200);
}

#[tokio::test]
async fn a_problem_lists_at_most_100_errors_and_counts_the_rest() {
    let mut body = range_request();
    let creatures: Vec<_> = (0..150)
        .map(|i| serde_json::json!({"id": format!("c{i}"), "side": "x", "at": {"x": 100 + i, "y": 0}}))
        .collect();
    body["encounter"]["creatures"] = serde_json::json!(creatures);
    body["attacker"] = serde_json::json!("c0");
    body["target"] = serde_json::json!("c1");
    let res = post_json(test_app(), "/v1/range", &body).await;
    assert_eq!(res.status, 422);
    let p = res.json();
    assert_eq!(p["detail"], "150 problems in the request; the first 100 are listed");
    let errors = p["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 101);
    assert_eq!(errors[100]["detail"], "and 50 more problems not listed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_dropped_before_its_answer_is_counted_and_leaves_the_gauge() {
    let state = AppState::new(Config {
        rules_workers: Some(1),
        rules_queue: Some(2),
        queue_wait_ms: 60_000,
        ..Config::for_tests()
    });
    let (release, _held) = hold_worker(&state).await;
    let a = app(state.clone());
    let waiting = tokio::spawn(async move { post_json(a, "/v1/range", &range_request()).await });
    while state.pool.queued() == 0 {
        tokio::task::yield_now().await;
    }
    waiting.abort();
    let _ = waiting.await;
    let text = String::from_utf8(get(app(state.clone()), "/metrics").await.body).unwrap();
    // The /metrics request itself is the one in flight.
    assert!(text.contains("arbiter_http_requests_in_flight 1\n"), "{text}");
    assert!(
        text.contains(r#"arbiter_http_requests_total{method="POST",route="/v1/range",status="499"} 1"#),
        "{text}"
    );
    release.send(()).unwrap();
}

/// The body of `range_request()` in a content coding, made by the encoders of flate2 and
/// async-compression (not by the server's decoders).
async fn encoded(coding: &str) -> Vec<u8> {
    use std::io::Write;
    use tokio::io::AsyncReadExt;
    let body = serde_json::to_vec(&range_request()).unwrap();
    match coding {
        "gzip" => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(&body).unwrap();
            gz.finish().unwrap()
        }
        "deflate" => {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            z.write_all(&body).unwrap();
            z.finish().unwrap()
        }
        "br" => {
            let mut out = Vec::new();
            async_compression::tokio::bufread::BrotliEncoder::new(&body[..])
                .read_to_end(&mut out)
                .await
                .unwrap();
            out
        }
        _ => unreachable!("{coding}"),
    }
}

fn post_range(coding: &str, bytes: Vec<u8>) -> Request<Body> {
    Request::post("/v1/range")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_ENCODING, coding)
        .body(Body::from(bytes))
        .unwrap()
}

/// Content codings are case-insensitive and `x-gzip` is gzip (RFC 9110 §8.4.1): each of these
/// was a 415.
#[tokio::test]
async fn content_codings_are_read_whatever_their_case() {
    for (name, coding) in [
        ("GZIP", "gzip"),
        ("x-gzip", "gzip"),
        ("X-GZip", "gzip"),
        ("Deflate", "deflate"),
        ("BR", "br"),
        ("br", "br"),
    ] {
        let res = send(test_app(), post_range(name, encoded(coding).await)).await;
        assert_eq!(res.status, 200, "{name}: {}", String::from_utf8_lossy(&res.body));
        assert_eq!(res.json()["result"]["distance_ft"], 40, "{name}");
    }
    let res = send(test_app(), post_range("Identity", serde_json::to_vec(&range_request()).unwrap())).await;
    assert_eq!(res.status, 200);
    // Two codings at once are not spoken: 415, and the answer says which are.
    let res = send(test_app(), post_range("gzip, gzip", encoded("gzip").await)).await;
    assert_eq!((res.status, res.content_type()), (415, "application/problem+json"));
    assert!(res.json()["detail"].as_str().unwrap().contains("gzip, deflate, br"), "{:?}", res.json());
}

/// A gzip body of several members (RFC 1952 §2.2, what `cat a.gz b.gz` makes) is the members
/// decoded one after the other: here the request cut in two, each half its own member. Only
/// the first member was read, a truncated JSON body: 400.
#[tokio::test]
async fn every_member_of_a_gzip_body_is_decoded() {
    use std::io::Write;
    let body = serde_json::to_vec(&range_request()).unwrap();
    let (a, b) = body.split_at(body.len() / 2);
    let mut bytes = Vec::new();
    for half in [a, b] {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(half).unwrap();
        bytes.extend(gz.finish().unwrap());
    }
    let res = send(test_app(), post_range("gzip", bytes)).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(res.json()["result"]["distance_ft"], 40);
}

/// `range_request()` as a cover question (no weapon).
fn cover_request() -> Vec<u8> {
    let mut req = range_request();
    req.as_object_mut().unwrap().remove("weapon");
    serde_json::to_vec(&req).unwrap()
}

/// A client that accepts only a drawing gets a 406 problem from every route of the API that
/// draws nothing (before any work), and its drawing where there is one. Accepting JSON too,
/// it gets JSON.
#[tokio::test]
async fn a_drawing_asked_where_nothing_is_drawn_is_406() {
    let ask = |path: &str, accept: &'static str| {
        let builder = Request::builder().uri(path).header(header::ACCEPT, accept);
        if path.starts_with("/v1/rule") {
            builder.method("GET").body(Body::empty()).unwrap()
        } else {
            builder
                .method("POST")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(serde_json::to_vec(&range_request()).unwrap()))
                .unwrap()
        }
    };
    let none = [
        "/v1/range",
        "/v1/attack",
        "/v1/maneuvers",
        "/v1/initiative",
        "/v1/import/uvtt",
        "/v1/import/foundry",
        "/v1/rules",
        "/v1/rulesets",
    ];
    for path in none {
        for accept in
            ["image/svg+xml", "image/svg+xml, application/json;q=0", "IMAGE/SVG+XML;q=0.9, text/html"]
        {
            let res = send(test_app(), ask(path, accept)).await;
            assert_eq!(
                (res.status, res.content_type()),
                (406, "application/problem+json"),
                "{path} {accept}"
            );
            assert_eq!(res.json()["status"], 406);
        }
        let res = send(test_app(), ask(path, "image/svg+xml, application/json;q=0.5")).await;
        assert_ne!(res.status, 406, "{path}");
    }
    let res = send(test_app(), ask("/v1/range", "image/svg+xml, */*;q=0.1")).await;
    assert_eq!((res.status, res.content_type()), (200, "application/json"));
    let cover = Request::post("/v1/cover")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "image/svg+xml")
        .body(Body::from(cover_request()))
        .unwrap();
    let res = send(test_app(), cover).await;
    assert_eq!((res.status, res.content_type()), (200, "image/svg+xml"));
    // The operations answer their probes whatever `Accept` says.
    let req = Request::get("/healthz").header(header::ACCEPT, "image/svg+xml").body(Body::empty()).unwrap();
    assert_eq!(send(test_app(), req).await.status, 200);
}

/// Every answer says `X-Content-Type-Options: nosniff` (drawings and problems hold client
/// text): answers, drawings, problems of the handlers, and the bare errors of other layers
/// made problems (404, 405, 415).
#[tokio::test]
async fn every_answer_forbids_sniffing() {
    let cover = Request::post("/v1/cover")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "image/svg+xml")
        .body(Body::from(cover_request()))
        .unwrap();
    let requests = vec![
        (Request::get("/healthz").body(Body::empty()).unwrap(), 200),
        (Request::get("/v1/rules").body(Body::empty()).unwrap(), 200),
        (Request::get("/docs/").body(Body::empty()).unwrap(), 200),
        (Request::get("/openapi.json").body(Body::empty()).unwrap(), 200),
        (cover, 200),
        (post_range("identity", b"{}".to_vec()), 422),
        (post_range("identity", b"{".to_vec()), 400),
        (post_range("compress", b"{}".to_vec()), 415),
        (Request::get("/nowhere").body(Body::empty()).unwrap(), 404),
        (Request::get("/v1/range").body(Body::empty()).unwrap(), 405),
    ];
    for (req, status) in requests {
        let uri = req.uri().clone();
        let res = send(test_app(), req).await;
        assert_eq!(res.status, status, "{uri}");
        assert_eq!(
            res.headers.get(header::X_CONTENT_TYPE_OPTIONS).map(|v| v.as_bytes()),
            Some(&b"nosniff"[..]),
            "{uri}"
        );
    }
}

/// Swagger UI (`/docs/`) is served with a Content-Security-Policy: scripts from its own files
/// only (its page has no inline script), nothing from another host, not framed.
#[tokio::test]
async fn the_docs_page_has_a_content_security_policy() {
    for path in ["/docs/", "/docs/swagger-initializer.js", "/docs/swagger-ui-bundle.js"] {
        let res = get(test_app(), path).await;
        assert_eq!(res.status, 200, "{path}");
        let csp =
            res.headers.get(header::CONTENT_SECURITY_POLICY).unwrap_or_else(|| panic!("{path}: no CSP"));
        let csp = csp.to_str().unwrap();
        for directive in [
            "default-src 'none'",
            "script-src 'self'",
            "connect-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(csp.split(';').any(|d| d.trim() == directive), "{path}: CSP {csp} lacks {directive}");
        }
    }
    // What `script-src 'self'` allows is enough: the page loads its scripts from files.
    let page = String::from_utf8(get(test_app(), "/docs/").await.body).unwrap();
    let inline = page
        .split("<script")
        .skip(1)
        .filter(|tag| !tag.split('>').next().unwrap_or("").contains("src="))
        .count();
    assert_eq!(inline, 0, "{page}");
}
