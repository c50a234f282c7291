//! Bad input answers problem+json (never 500), pointing at the field, and the server keeps
//! serving.

use serde_json::{Value, json};

use super::support::*;

async fn problem(req: &Value) -> (u16, Vec<String>, Value) {
    let res = post_json(test_app(), "/v1/range", req).await;
    assert_eq!(res.content_type(), "application/problem+json", "{}", String::from_utf8_lossy(&res.body));
    let body = res.json();
    assert_eq!(body["status"].as_u64(), Some(res.status as u64));
    assert!(body["type"].as_str().unwrap().starts_with("urn:arbiter:problem:"));
    (res.status, pointers(&res), body)
}

fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut r = range_request();
    f(&mut r);
    r
}

#[tokio::test]
async fn malformed_and_truncated_json_are_400() {
    let mut trailing = serde_json::to_vec(&range_request()).unwrap();
    trailing.extend_from_slice(b" trailing");
    for body in [b"{\"encounter\": ".to_vec(), b"not json".to_vec(), trailing, vec![]] {
        let res = post_raw(test_app(), "/v1/range", "application/json", body.clone()).await;
        assert_eq!(res.status, 400, "{}", String::from_utf8_lossy(&body));
        assert_eq!(res.content_type(), "application/problem+json");
        assert_eq!(res.json()["type"], "urn:arbiter:problem:malformed-json");
    }
}

#[tokio::test]
async fn wrong_media_type_is_415() {
    let body = serde_json::to_vec(&range_request()).unwrap();
    let res = post_raw(test_app(), "/v1/range", "text/plain", body).await;
    assert_eq!(res.status, 415);
    assert_eq!(res.content_type(), "application/problem+json");
}

#[tokio::test]
async fn three_mib_body_is_413() {
    let mut req = range_request();
    req["attacker"] = "x".repeat(3 * 1024 * 1024).into();
    let res = post_json(test_app(), "/v1/range", &req).await;
    assert_eq!(res.status, 413);
    assert_eq!(res.json()["type"], "urn:arbiter:problem:body-too-large");
}

#[tokio::test]
async fn wrong_types_point_at_the_field() {
    let (s, p, _) = problem(&with(|r| r["encounter"]["grid"]["width"] = "12".into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/grid/width".to_owned()]));
    let (s, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["at"]["x"] = 1.5.into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/creatures/1/at/x".to_owned()]));
}

#[tokio::test]
async fn unknown_fields_are_rejected() {
    let (s, p, body) = problem(&with(|r| r["encounter"]["grid"]["widht"] = 12.into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/grid/widht".to_owned()]));
    assert!(body["errors"][0]["detail"].as_str().unwrap().contains("unknown field"));
    let (_, p, _) = problem(&with(|r| r["encounter"]["creatures"][0]["stats"]["armour"] = 3.into())).await;
    assert_eq!(p, vec!["/encounter/creatures/0/stats/armour".to_owned()]);
}

#[tokio::test]
async fn unknown_ruleset() {
    let (s, p, body) = problem(&with(|r| r["encounter"]["ruleset"] = "dnd3e".into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/ruleset".to_owned()]));
    assert!(body["errors"][0]["detail"].as_str().unwrap().contains("pf1e"), "lists the known rulesets");
}

#[tokio::test]
async fn unknown_creature_ids() {
    let (s, p, _) = problem(&with(|r| {
        r["attacker"] = "nobody".into();
        r["target"] = "ghost".into();
    }))
    .await;
    assert_eq!((s, p), (422, vec!["/attacker".to_owned(), "/target".to_owned()]));
}

#[tokio::test]
async fn attacker_equal_target() {
    let (s, p, _) = problem(&with(|r| r["target"] = "valeros".into())).await;
    assert_eq!((s, p), (422, vec!["/target".to_owned()]));
}

#[tokio::test]
async fn creature_outside_the_grid() {
    let (s, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["at"] = json!({"x": 12, "y": 0}))).await;
    assert_eq!((s, p), (422, vec!["/encounter/creatures/1/at".to_owned()]));
    // A Large creature whose second column falls off the map.
    let (_, p, _) = problem(&with(|r| {
        r["encounter"]["creatures"][1]["at"] = json!({"x": 11, "y": 0});
        r["encounter"]["creatures"][1]["size"] = "large".into();
    }))
    .await;
    assert_eq!(p, vec!["/encounter/creatures/1/at".to_owned()]);
    let (_, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["at"] = json!({"x": -1, "y": 0}))).await;
    assert_eq!(p, vec!["/encounter/creatures/1/at".to_owned()]);
}

#[tokio::test]
async fn map_shape_and_characters() {
    let (s, p, _) = problem(&with(|r| r["encounter"]["grid"]["map"][2] = "....#...=..".into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/grid/map/2".to_owned()]));
    let (_, p, body) = problem(&with(|r| r["encounter"]["grid"]["map"][1] = "....#...X...".into())).await;
    assert_eq!(p, vec!["/encounter/grid/map/1".to_owned()]);
    assert!(body["errors"][0]["detail"].as_str().unwrap().contains("'X'"));
    let (_, p, _) = problem(&with(|r| {
        r["encounter"]["grid"]["map"].as_array_mut().unwrap().pop();
    }))
    .await;
    assert_eq!(p, vec!["/encounter/grid/map".to_owned()]);
    let (_, p, _) = problem(&with(|r| r["encounter"]["grid"]["light_map"] = json!(["bbbb"]))).await;
    assert!(p.contains(&"/encounter/grid/light_map".to_owned()), "{p:?}");
}

#[tokio::test]
async fn duplicate_ids_and_overlaps() {
    let (s, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["id"] = "valeros".into())).await;
    assert_eq!(s, 422);
    assert!(p.contains(&"/encounter/creatures/1/id".to_owned()), "{p:?}");
    let (_, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["at"] = json!({"x": 1, "y": 2}))).await;
    assert_eq!(p, vec!["/encounter/creatures/1/at".to_owned()]);
    // Tiny creatures may share a square; a rider may share its mount's.
    let ok = post_json(
        test_app(),
        "/v1/range",
        &with(|r| {
            r["encounter"]["creatures"][1]["at"] = json!({"x": 1, "y": 2});
            r["encounter"]["creatures"][1]["size"] = "tiny".into();
        }),
    )
    .await;
    assert_eq!(ok.status, 200);
}

#[tokio::test]
async fn weapon_without_the_range_fields_the_ruleset_needs() {
    let (s, p, _) = problem(&with(|r| r["weapon"] = json!({"kind": "ranged", "normal_ft": 80}))).await;
    assert_eq!((s, p), (422, vec!["/weapon/increment_ft".to_owned()]));
    let (s, p, _) = problem(&with(|r| {
        r["encounter"]["ruleset"] = "dnd5e2024".into();
        r["weapon"] = json!({"kind": "ranged", "increment_ft": 100});
    }))
    .await;
    assert_eq!((s, p), (422, vec!["/weapon/normal_ft".to_owned()]));
}

#[tokio::test]
async fn grid_zero_and_over_the_caps() {
    let (s, p, _) = problem(&with(|r| {
        r["encounter"]["grid"] = json!({"width": 0, "height": 0});
        r["encounter"]["creatures"] = json!([]);
    }))
    .await;
    assert_eq!(s, 422);
    assert!(
        p.contains(&"/encounter/grid/width".to_owned()) && p.contains(&"/encounter/grid/height".to_owned()),
        "{p:?}"
    );
    let (_, p, _) = problem(&with(|r| {
        r["encounter"]["grid"] = json!({"width": 1001, "height": 8});
    }))
    .await;
    assert!(p.contains(&"/encounter/grid/width".to_owned()), "{p:?}");
    let many: Vec<Value> = (0..501)
        .map(|i| json!({"id": format!("c{i}"), "side": "x", "at": {"x": i % 40, "y": i / 40}}))
        .collect();
    let (_, p, _) = problem(&with(|r| {
        r["encounter"]["grid"] = json!({"width": 40, "height": 40});
        r["encounter"]["creatures"] = Value::Array(many);
    }))
    .await;
    assert!(p.contains(&"/encounter/creatures".to_owned()), "{p:?}");
    let (_, p, _) = problem(&with(|r| r["encounter"]["creatures"][0]["id"] = "v".repeat(65).into())).await;
    assert!(p.contains(&"/encounter/creatures/0/id".to_owned()), "{p:?}");
}

#[tokio::test]
async fn conditions_sizes_and_variants_the_ruleset_does_not_know() {
    let (s, p, body) = problem(&with(|r| {
        r["encounter"]["creatures"][0]["conditions"] = json!(["prone", "off_kilter"]);
        r["encounter"]["creatures"][1]["size"] = "colossal".into();
        r["encounter"]["ruleset"] = "dnd5e2014".into();
        r["encounter"]["variants"] = json!({"pf1e.cover.partial": true});
        r["weapon"] = json!({"kind": "ranged", "normal_ft": 80});
    }))
    .await;
    assert_eq!(s, 422);
    assert_eq!(
        p,
        vec![
            "/encounter/variants/pf1e.cover.partial".to_owned(),
            "/encounter/creatures/0/conditions/1".to_owned(),
            "/encounter/creatures/1/size".to_owned(),
            "/encounter/creatures/1/at".to_owned(),
        ],
        "every problem at once: {body}"
    );
}

#[tokio::test]
async fn wall_end_points_inside_the_grid() {
    let (s, p, _) = problem(&with(|r| {
        r["encounter"]["grid"]["walls"] =
            json!([{"from": {"x": 2.5, "y": 0}, "to": {"x": 2.5, "y": 9}, "kind": "solid"}]);
    }))
    .await;
    assert_eq!((s, p), (422, vec!["/encounter/grid/walls/0/to/y".to_owned()]));
}

#[tokio::test]
async fn the_server_keeps_serving_after_bad_input() {
    let app = test_app();
    let _ = post_raw(app.clone(), "/v1/range", "application/json", b"{{{{".to_vec()).await;
    assert_eq!(get(app.clone(), "/healthz").await.status, 200);
    assert_eq!(post_json(app, "/v1/range", &range_request()).await.status, 200);
}

/// Every question that names creatures answers one 422 pointing at each unknown id, in the
/// order of its fields (after a field of its own that is wrong, such as a maneuver's kind);
/// in an invalid encounter no id is looked up, so only its problems answer (and the kind's).
#[tokio::test]
async fn every_question_points_at_each_unknown_creature_id_in_field_order() {
    let doc = get(test_app(), "/openapi.json").await.json();
    let example = |name: &str| doc["components"]["schemas"][name]["examples"][0].clone();
    let pair = ["/attacker", "/target"];
    let cases: Vec<(&str, Value, Vec<&str>)> = vec![
        ("/v1/range", example("RangeRequest"), pair.to_vec()),
        ("/v1/cover", example("CoverRequest"), pair.to_vec()),
        ("/v1/flanking", example("FlankingRequest"), pair.to_vec()),
        ("/v1/concealment", example("ConcealmentRequest"), pair.to_vec()),
        ("/v1/attack", example("AttackRequest"), pair.to_vec()),
        ("/v1/maneuvers", example("ManeuverRequest"), vec!["/kind", "/attacker", "/target"]),
        (
            "/v1/movement",
            example("MovementRequest"),
            vec!["/creature", "/target", "/mount", "/options/dragging"],
        ),
        ("/v1/initiative", example("InitiativeRequest"), vec!["/creatures/1", "/surprised/0", "/groups/0/1"]),
        ("/v1/analyze", example("AnalyzeRequest"), vec!["/attackers/0", "/attackers/2"]),
    ];
    for (path, valid, expected) in cases {
        let known = valid["encounter"]["creatures"][0]["id"].clone();
        let mut req = valid;
        match path {
            "/v1/maneuvers" => {
                req["kind"] = "somersault".into();
                req["attacker"] = "nobody".into();
                req["target"] = "ghost".into();
            }
            "/v1/movement" => {
                req["creature"] = "nobody".into();
                req["target"] = "ghost".into();
                req["mount"] = "horse".into();
                req["options"] = json!({"dragging": "sack"});
            }
            "/v1/initiative" => {
                req["creatures"] = json!([known.clone(), "nobody"]);
                req["surprised"] = json!(["ghost"]);
                req["groups"] = json!([[known.clone(), "wolf"]]);
            }
            "/v1/analyze" => req["attackers"] = json!(["nobody", known.clone(), "ghost"]),
            _ => {
                req["attacker"] = "nobody".into();
                req["target"] = "ghost".into();
            }
        }
        let res = post_json(test_app(), path, &req).await;
        assert_eq!(res.status, 422, "{path}: {}", String::from_utf8_lossy(&res.body));
        assert_eq!(res.content_type(), "application/problem+json", "{path}");
        assert_eq!(pointers(&res), expected, "{path}");
        let detail = res.json()["errors"][expected.len() - 1]["detail"].as_str().unwrap().to_owned();
        assert!(detail.contains(known.as_str().unwrap()), "{path}: the known ids are listed: {detail}");

        // Within every stated bound, but off the map: the mapping finds it.
        req["encounter"]["creatures"][0]["at"]["x"] = req["encounter"]["grid"]["width"].clone();
        let res = post_json(test_app(), path, &req).await;
        assert_eq!(res.status, 422, "{path}");
        let mut expected: Vec<&str> = expected.into_iter().filter(|p| *p == "/kind").collect();
        expected.insert(0, "/encounter/creatures/0/at");
        assert_eq!(pointers(&res), expected, "{path}: no id is looked up in an invalid encounter");
    }
}
