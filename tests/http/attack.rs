//! `/v1/attack` through HTTP: RULES.md examples and hand-computed odds as fixtures, dice modes.

use serde_json::{Value, json};

use super::support::*;

fn fixtures() -> Vec<Value> {
    fixtures_of("attack/cases")
}

#[tokio::test]
async fn rules_md_attack_fixtures() {
    let cases = fixtures();
    assert!(cases.len() >= 40);
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let res = post_json(test_app(), "/v1/attack", &case["request"]).await;
        assert_eq!(
            res.status as u64,
            case["status"].as_u64().unwrap(),
            "{name}: {}",
            String::from_utf8_lossy(&res.body)
        );
        if let Some(expected) = case["pointers"].as_array() {
            let expected: Vec<String> = expected.iter().map(|p| p.as_str().unwrap().to_owned()).collect();
            assert_eq!(pointers(&res), expected, "{name}");
            continue;
        }
        let body = res.json();
        assert_subset(&body, &case["expect"], name);
        let o = &body["odds"];
        let total = o["hit"].as_f64().unwrap() + o["miss"].as_f64().unwrap();
        assert!((total - 1.0).abs() < 1e-12, "{name}: odds sum to {total}");
        for step in body["trace"].as_array().unwrap() {
            assert_ne!(step["source"], "RULES.md", "{name}: rule {} is not in the catalog", step["rule"]);
        }
    }
}

#[tokio::test]
async fn same_seed_same_answer_and_the_seed_is_echoed() {
    let mut req = fixtures()[0]["request"].clone();
    req["dice"] = json!({"mode": "roll", "seed": 42});
    let a = post_json(test_app(), "/v1/attack", &req).await.json();
    let b = post_json(test_app(), "/v1/attack", &req).await.json();
    assert_eq!(a["result"], b["result"]);
    assert_eq!(a["dice"], json!({"mode": "roll", "seed": 42}));
    assert_eq!(a["rolls"][0]["purpose"], "attack");
    req["dice"] = json!({"mode": "roll"});
    let c = post_json(test_app(), "/v1/attack", &req).await.json();
    assert!(c["dice"]["seed"].is_u64(), "a fresh seed is echoed: {}", c["dice"]);
    // Replaying the echoed seed gives the same faces.
    req["dice"] = json!({"mode": "roll", "seed": c["dice"]["seed"]});
    let d = post_json(test_app(), "/v1/attack", &req).await.json();
    assert_eq!(c["rolls"], d["rolls"]);
}

#[tokio::test]
async fn odds_mode_rolls_nothing() {
    let body = post_json(test_app(), "/v1/attack", &fixtures()[0]["request"]).await.json();
    assert_eq!(body["rolls"], json!([]));
    assert!(body["result"].get("hit").is_none());
    assert_eq!(body["dice"]["mode"], "odds");
}
