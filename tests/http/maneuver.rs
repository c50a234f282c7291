//! `/v1/maneuvers` through HTTP: RULES.md worked examples and hand-computed odds as fixtures,
//! push geometry, dice modes and bad input.

use serde_json::{Value, json};

use super::support::*;

fn fixtures() -> Vec<Value> {
    fixtures_of("maneuver/cases")
}

#[tokio::test]
async fn rules_md_maneuver_fixtures() {
    let cases = fixtures();
    assert!(cases.len() >= 60);
    let mut odds_cases = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let res = post_json(test_app(), "/v1/maneuvers", &case["request"]).await;
        assert_eq!(
            res.status as u64,
            case["status"].as_u64().unwrap(),
            "{name}: {}",
            String::from_utf8_lossy(&res.body)
        );
        if let Some(expected) = case["pointers"].as_array() {
            let expected: Vec<String> = expected.iter().map(|p| p.as_str().unwrap().to_owned()).collect();
            assert_eq!(pointers(&res), expected, "{name}: {}", String::from_utf8_lossy(&res.body));
            continue;
        }
        let body = res.json();
        let check = std::panic::catch_unwind(|| subset(&body, &case["expect"], name));
        if check.is_err() {
            failures.push(format!("{name}: {body}"));
            continue;
        }
        if case["expect"]["odds"].get("exact").is_some() || case["expect"]["odds"].get("bands").is_some() {
            odds_cases += 1;
        }
        let o = &body["odds"];
        let p = o["success"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{name}: {p}");
        let bands: f64 = o["bands"].as_array().unwrap().iter().map(|b| b["p"].as_f64().unwrap()).sum();
        assert!((bands - 1.0).abs() < 1e-9, "{name}: bands sum to {bands}");
        for step in body["trace"].as_array().unwrap() {
            assert_ne!(step["source"], "RULES.md", "{name}: rule {} is not in the catalog", step["rule"]);
        }
    }
    assert!(failures.is_empty(), "{} failing case(s):\n{}", failures.len(), failures.join("\n"));
    assert!(odds_cases >= 15, "only {odds_cases} odds cases");
}

#[tokio::test]
async fn a_tie_is_traced_and_fails() {
    let case = &fixtures()[0];
    let body = post_json(test_app(), "/v1/maneuvers", &case["request"]).await.json();
    assert_eq!(body["result"]["success"], false);
    assert!(body["trace"].as_array().unwrap().iter().any(|s| s["rule"] == "dnd5e2014.contest.tie"), "{body}");
}

#[tokio::test]
async fn same_seed_same_answer_and_french_trace() {
    let mut req =
        fixtures().iter().find(|c| c["name"] == "PF1 bull rush odds +8 vs 14").unwrap()["request"].clone();
    req["dice"] = json!({"mode": "roll", "seed": 42});
    let a = post_json(test_app(), "/v1/maneuvers", &req).await.json();
    let b = post_json(test_app(), "/v1/maneuvers", &req).await.json();
    assert_eq!(a["result"], b["result"]);
    assert_eq!(a["dice"], json!({"mode": "roll", "seed": 42}));
    assert_eq!(a["rolls"][0]["purpose"], "check");
    assert!(a["result"]["success"].is_boolean());
    let fr = send(
        test_app(),
        axum::http::Request::post("/v1/maneuvers")
            .header("content-type", "application/json")
            .header("accept-language", "fr")
            .body(axum::body::Body::from(serde_json::to_vec(&req).unwrap()))
            .unwrap(),
    )
    .await
    .json();
    assert!(
        fr["trace"].as_array().unwrap().iter().any(|s| s["text"].as_str().unwrap().contains("réussite")),
        "{fr}"
    );
}

#[tokio::test]
async fn odds_mode_rolls_nothing() {
    let all = fixtures();
    let req = &all.iter().find(|c| c["name"] == "PF1 bull rush odds +8 vs 14").unwrap()["request"];
    let body = post_json(test_app(), "/v1/maneuvers", req).await.json();
    assert_eq!(body["rolls"], json!([]));
    assert!(body["result"].get("success").is_none());
    assert!(body["result"].get("effects").is_none());
    assert_eq!(body["dice"]["mode"], "odds");
}

/// `kind: "charge"` (RULES.md `pf1e.charge` map M12, `hb3d.charge`, Q-18, Q-19, Q-29, Q-44):
/// fixtures in `tests/fixtures/maneuver/charge.json`, values taken from RULES.md.
#[tokio::test]
async fn rules_md_charge_fixtures() {
    let cases = fixtures_of("maneuver/charge");
    assert!(cases.len() >= 15);
    let (answered, failures) = check_fixtures("/v1/maneuvers", &cases, None).await;
    for (case, body) in answered {
        let name = case["name"].as_str().unwrap();
        let bands: f64 =
            body["odds"]["bands"].as_array().unwrap().iter().map(|b| b["p"].as_f64().unwrap()).sum();
        assert!((bands - 1.0).abs() < 1e-9, "{name}: bands sum to {bands}");
        let charge_rule =
            if case["request"]["encounter"]["ruleset"] == "hb3d" { "hb3d.charge" } else { "pf1e.charge" };
        let trace = body["trace"].as_array().unwrap();
        assert!(trace.iter().any(|s| s["rule"] == charge_rule), "{name}: no {charge_rule} step: {body}");
    }
    assert!(failures.is_empty(), "{} failing case(s):\n{}", failures.len(), failures.join("\n"));
}

/// A legal charge puts `charged` on the charger in the answer's effects, whatever the dice mode
/// and with no maneuver at its end: RULES.md `pf1e.charge` ("−2 AC until the start of your next
/// turn") and `hb3d.charge` (seed 003 « Charge »: "−2 à la CA jusqu'au début du tour suivant",
/// read as DEF). Map M12: A at (0,2), T at (6,2), nothing between: legal, 25 ft. A start at (4,2)
/// is too short (RULES.md: at least 10 ft / 2 squares): no charge, no effects.
#[tokio::test]
async fn a_legal_charge_puts_charged_on_the_charger_in_the_effects() {
    let ask = |ruleset: &str, start: i64, dice: Value| {
        json!({
            "encounter": {
                "ruleset": ruleset,
                "grid": {"width": 8, "height": 5},
                "creatures": [
                    {"id": "A", "side": "party", "at": {"x": start, "y": 2}},
                    {"id": "T", "side": "monsters", "at": {"x": 6, "y": 2}}
                ]
            },
            "kind": "charge", "attacker": "A", "target": "T", "dice": dice
        })
    };
    for ruleset in ["pf1e", "hb3d"] {
        for dice in [json!({"mode": "odds"}), json!({"mode": "roll", "seed": 3})] {
            let res = post_json(test_app(), "/v1/maneuvers", &ask(ruleset, 0, dice.clone())).await;
            assert_eq!(res.status, 200, "{ruleset} {dice}: {}", String::from_utf8_lossy(&res.body));
            let body = res.json();
            let r = &body["result"];
            assert_eq!(r["legal"], true, "{ruleset} {dice}: {body}");
            assert_eq!(r["charge"]["ac_penalty"], -2, "{ruleset}: {body}");
            let e = &r["effects"];
            assert_eq!(e["attacker_gains"], json!(["charged"]), "{ruleset} {dice}: {body}");
            assert_eq!(e["target_gains"], json!([]), "{ruleset} {dice}: {body}");
            assert!(e.get("push").is_none_or(Value::is_null), "{ruleset} {dice}: {body}");
        }
        let res = post_json(test_app(), "/v1/maneuvers", &ask(ruleset, 4, json!({"mode": "odds"}))).await;
        let body = res.json();
        assert_eq!(body["result"]["legal"], false, "{ruleset}: {body}");
        assert!(body["result"].get("effects").is_none(), "{ruleset}: an illegal charge sets nothing: {body}");
    }
}
