//! Data-driven `/v1/range` fixtures from RULES.md worked examples (`tests/fixtures/range/`).

use super::support::*;

#[tokio::test]
async fn rules_md_range_fixtures() {
    let cases = fixtures_of("range/cases");
    assert!(cases.len() >= 50, "fixture file lost cases");
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let res = post_json(test_app(), "/v1/range", &case["request"]).await;
        assert_eq!(
            res.status as u64,
            case["status"].as_u64().unwrap(),
            "{name}: {}",
            String::from_utf8_lossy(&res.body)
        );
        let body = res.json();
        assert_subset(&body["result"], &case["expect"], name);
        if let Some(rules) = case["trace_rules"].as_array() {
            let cited: Vec<&str> =
                body["trace"].as_array().unwrap().iter().map(|s| s["rule"].as_str().unwrap()).collect();
            for r in rules {
                assert!(cited.contains(&r.as_str().unwrap()), "{name}: trace {cited:?} lacks {r}");
            }
        }
        for step in body["trace"].as_array().unwrap() {
            assert!(!step["text"].as_str().unwrap().is_empty(), "{name}: empty trace text");
            assert!(!step["source"].as_str().unwrap().is_empty(), "{name}: empty source");
        }
    }
}

#[tokio::test]
async fn trace_text_follows_accept_language() {
    use axum::body::Body;
    use axum::http::{Request, header};
    let body = serde_json::to_vec(&range_request()).unwrap();
    let req = |lang: &str| {
        Request::post("/v1/range")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT_LANGUAGE, lang)
            .body(Body::from(body.clone()))
            .unwrap()
    };
    let fr = send(test_app(), req("fr-FR,fr;q=0.9")).await.json();
    let en = send(test_app(), req("en")).await.json();
    // valeros (1,2) → goblin (9,2): 8 squares = 40 ft = 12 m.
    assert_eq!(fr["result"]["distance_ft"], 40);
    assert_eq!(fr["result"]["distance_m"], 12.0);
    assert_eq!(
        fr["trace"][0]["text"],
        "distance 12 mètres (8 cases), diagonales alternées 1,50 mètre / 3 mètres"
    );
    assert_eq!(en["trace"][0]["text"], "distance 40 ft (8 squares, diagonals alternate 5 ft / 10 ft)");
    assert_eq!(fr["trace"][0]["rule"], en["trace"][0]["rule"]);
}

#[tokio::test]
async fn elevation_is_named_as_ignored() {
    let mut req = range_request();
    req["encounter"]["creatures"][1]["elevation_ft"] = 30.into();
    let body = post_json(test_app(), "/v1/range", &req).await.json();
    let steps = body["trace"].as_array().unwrap();
    assert!(steps.iter().any(|s| s["effect"]["creatures"] == serde_json::json!(["goblin"])), "{steps:?}");
    assert_eq!(body["result"]["distance_ft"], 40);
}

#[tokio::test]
async fn variant_is_named_in_the_trace() {
    let mut req = range_request();
    req["encounter"]["ruleset"] = "dnd5e2014".into();
    req["encounter"]["variants"] = serde_json::json!({"dnd5e.grid.variant-diagonals": true});
    req["weapon"] = serde_json::json!({"kind": "ranged", "normal_ft": 80, "long_ft": 320});
    let body = post_json(test_app(), "/v1/range", &req).await.json();
    assert_eq!(body["trace"][0]["rule"], "grid.distance.alternating");
    assert_eq!(body["trace"][0]["variant"], "dnd5e.grid.variant-diagonals");
}
