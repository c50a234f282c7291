//! `/v1/flanking` through HTTP: the RULES.md examples as fixtures (maps M9 and M10, the
//! multi-square helper, the reach examples through `threatened`, D&D 5e with and without the
//! variant, conditions and sides of Q-33), symmetry, the French trace, bad input.

use axum::body::Body;
use axum::http::{Request, header};
use serde_json::{Value, json};

use super::support::*;

fn fixtures() -> Vec<Value> {
    fixtures_of("flanking/cases")
}

fn case(name: &str) -> Value {
    fixtures().into_iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no fixture {name:?}"))
}

fn squares(v: &Value) -> Vec<(i64, i64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let (x, y) = if s.is_array() { (&s[0], &s[1]) } else { (&s["x"], &s["y"]) };
            (x.as_i64().unwrap(), y.as_i64().unwrap())
        })
        .collect()
}

/// Checks the `threatened` expectations of a fixture: per creature, `threatens_target`, the
/// number of squares, squares that must and must not be listed.
fn check_threatened(name: &str, result: &Value, expect: &Value) {
    let listed = result["threatened"].as_array().unwrap();
    for (id, want) in expect.as_object().unwrap() {
        let entry = listed
            .iter()
            .find(|t| t["creature"] == id.as_str())
            .unwrap_or_else(|| panic!("{name}: {id} missing from threatened: {listed:?}"));
        let got = squares(&entry["squares"]);
        if let Some(t) = want.get("threatens_target") {
            assert_eq!(&entry["threatens_target"], t, "{name}: {id} threatens_target");
        }
        if let Some(n) = want.get("count") {
            assert_eq!(got.len() as u64, n.as_u64().unwrap(), "{name}: {id} squares {got:?}");
        }
        for s in want.get("includes").map(squares).unwrap_or_default() {
            assert!(got.contains(&s), "{name}: {id} should threaten {s:?}: {got:?}");
        }
        for s in want.get("excludes").map(squares).unwrap_or_default() {
            assert!(!got.contains(&s), "{name}: {id} should not threaten {s:?}");
        }
    }
}

#[tokio::test]
async fn rules_md_flanking_fixtures() {
    let cases = fixtures();
    assert!(cases.len() >= 60);
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let res = post_json(test_app(), "/v1/flanking", &case["request"]).await;
        assert_eq!(res.status, 200, "{name}: {}", String::from_utf8_lossy(&res.body));
        let body = res.json();
        let result = &body["result"];
        assert_subset(result, &case["expect"], name);
        if let Some(t) = case.get("threatened") {
            check_threatened(name, result, t);
        }
        for id in case.get("absent").and_then(Value::as_array).into_iter().flatten() {
            assert!(
                !result["threatened"].as_array().unwrap().iter().any(|t| &t["creature"] == id),
                "{name}: {id} is not an enemy of the target"
            );
        }
        // Never more than +2; advantage only in 5e.
        let bonus = result["attack_bonus"].as_i64().unwrap();
        assert!(bonus == 0 || bonus == 2, "{name}");
        assert_eq!(result["flanked"], json!(!result["flankers"].as_array().unwrap().is_empty()), "{name}");
        let trace = body["trace"].as_array().unwrap();
        let rules: Vec<&str> = trace.iter().map(|s| s["rule"].as_str().unwrap()).collect();
        assert!(rules.contains(&result["rule"].as_str().unwrap()), "{name}: {rules:?}");
        for r in &rules {
            assert!(arbiter_rules::catalog::rule(r).is_some(), "{name}: {r} is not in the catalog");
        }
        if let Some(v) = case.get("trace_variant") {
            assert!(trace.iter().any(|s| &s["variant"] == v), "{name}: no step names the variant {v}");
        }
    }
}

/// If A flanks T with B then B flanks T with A, with the same two squares.
#[tokio::test]
async fn flanking_is_symmetric_in_the_two_flankers() {
    let mut checked = 0;
    for case in fixtures() {
        let name = case["name"].as_str().unwrap();
        let body = post_json(test_app(), "/v1/flanking", &case["request"]).await.json();
        for f in body["result"]["flankers"].as_array().unwrap() {
            let mut swapped = case["request"].clone();
            swapped["attacker"] = f["creature"].clone();
            let back = post_json(test_app(), "/v1/flanking", &swapped).await.json();
            let mirror = back["result"]["flankers"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["creature"] == case["request"]["attacker"])
                .unwrap_or_else(|| panic!("{name}: {} does not flank back", f["creature"]))
                .clone();
            assert_eq!(mirror["attacker_square"], f["helper_square"], "{name}");
            assert_eq!(mirror["helper_square"], f["attacker_square"], "{name}");
            checked += 1;
        }
    }
    assert!(checked >= 20);
}

#[tokio::test]
async fn trace_explains_each_decision() {
    let body = post_json(
        test_app(),
        "/v1/flanking",
        &case("multi-square helper pf1e: unarmed ally without Improved Unarmed Strike → not flanked")["request"],
    )
    .await
    .json();
    let trace = body["trace"].as_array().unwrap();
    let threat = trace.iter().find(|s| s["rule"] == "pf1e.reach.threatened").expect("attacker threat step");
    assert_eq!(threat["effect"]["creature"], "ogre");
    assert_eq!(threat["effect"]["reach_ft"], 10, "Large: 10 ft natural reach");
    let unarmed = trace.iter().find(|s| s["effect"]["reason"] == "unarmed").expect("unarmed step");
    assert_eq!(unarmed["effect"]["creature"], "ally");
    assert_eq!(trace.last().unwrap()["effect"]["flanked"], false);

    let off = post_json(
        test_app(),
        "/v1/flanking",
        &case("M9 dnd5e2014 without the variant: optional rule off → not flanked")["request"],
    )
    .await
    .json();
    let steps = off["trace"].as_array().unwrap();
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0]["rule"], "dnd5e.flanking.optional");
    assert_eq!(steps[0]["text"], "optional flanking is off: nobody flanks (variant dnd5e.flanking.optional)");
    // The threatened squares are still drawn.
    assert_eq!(off["result"]["threatened"].as_array().unwrap().len(), 2);

    let hb = post_json(test_app(), "/v1/flanking", &case("M9 hb3d: A + B → flanked")["request"]).await.json();
    assert_eq!(hb["trace"][0]["rule"], "hb3d.inherit-pf1e");
}

#[tokio::test]
async fn french_trace() {
    let req = Request::post("/v1/flanking")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT_LANGUAGE, "fr")
        .body(Body::from(serde_json::to_vec(&case("M9 pf1e: A + B → flanked")["request"]).unwrap()))
        .unwrap();
    let body = send(test_app(), req).await.json();
    let texts: Vec<&str> =
        body["trace"].as_array().unwrap().iter().map(|s| s["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts.last().copied(),
        Some("pris en tenaille avec B\u{a0}: +2 aux attaques au corps à corps")
    );
    assert!(texts.contains(&"A menace la cible, avec une allonge de 1,50 mètre (1 case)"), "{texts:?}");
}

#[tokio::test]
async fn flanking_bad_input() {
    let base = case("M9 pf1e: A + B → flanked")["request"].clone();
    let mut unknown = base.clone();
    unknown["attacker"] = "nobody".into();
    unknown["target"] = "ghost".into();
    let res = post_json(test_app(), "/v1/flanking", &unknown).await;
    assert_eq!(res.status, 422);
    assert_eq!(res.content_type(), "application/problem+json");
    assert_eq!(pointers(&res), vec!["/attacker".to_owned(), "/target".to_owned()]);

    let mut same = base.clone();
    same["target"] = "A".into();
    let res = post_json(test_app(), "/v1/flanking", &same).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/target".to_owned()]));

    let mut extra = base.clone();
    extra["weapon"] = json!({"kind": "melee"});
    let res = post_json(test_app(), "/v1/flanking", &extra).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/weapon".to_owned()]));

    let mut missing = base.clone();
    missing.as_object_mut().unwrap().remove("target");
    let res = post_json(test_app(), "/v1/flanking", &missing).await;
    assert_eq!(res.status, 422, "{}", String::from_utf8_lossy(&res.body));

    // Encounter problems and question problems are reported together.
    let mut both = base.clone();
    both["encounter"]["creatures"][0]["at"] = json!({"x": 8, "y": 0});
    both["target"] = "ghost".into();
    let res = post_json(test_app(), "/v1/flanking", &both).await;
    assert_eq!(res.status, 422);
    let p = pointers(&res);
    assert!(p.contains(&"/encounter/creatures/0/at".to_owned()), "{p:?}");

    let res = post_json(app_with(|c| c.limits.work_budget = 3), "/v1/flanking", &base).await;
    assert_eq!(res.status, 422);
    assert_eq!(res.json()["type"], "urn:arbiter:problem:work-budget-exceeded");
}

#[tokio::test]
async fn openapi_example_works_verbatim() {
    let doc = get(test_app(), "/openapi.json").await.json();
    let op = &doc["paths"]["/v1/flanking"]["post"];
    for status in ["200", "400", "413", "415", "422", "503"] {
        assert!(op["responses"][status].is_object(), "missing {status}");
    }
    let example = doc["components"]["schemas"]["FlankingRequest"]["examples"][0].clone();
    let res = post_json(test_app(), "/v1/flanking", &example).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let result = &res.json()["result"];
    assert_eq!(result["flanked"], true);
    assert_eq!(result["attack_bonus"], 2);
    let flankers: Vec<&str> =
        result["flankers"].as_array().unwrap().iter().map(|f| f["creature"].as_str().unwrap()).collect();
    assert_eq!(flankers, vec!["fighter"], "the cleric at (6,6) is not opposite (M9 A + C)");
}
