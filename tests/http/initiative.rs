//! `/v1/initiative` through HTTP: the RULES.md initiative examples, tie-breaks, surprise and
//! hand-computed odds of acting first as fixtures, and bad input.

use super::support::*;

#[tokio::test]
async fn rules_md_initiative_fixtures() {
    let cases = fixtures_of("initiative/cases");
    assert!(cases.len() >= 15);
    let (answered, mut failures) = check_fixtures("/v1/initiative", &cases, None).await;
    for (case, body) in answered {
        let sum: f64 =
            body["odds"]["first"].as_array().unwrap().iter().map(|f| f["p"].as_f64().unwrap()).sum();
        if (sum - 1.0).abs() > 1e-9 {
            failures.push(format!("{}: first odds sum to {sum}", case["name"]));
        }
    }
    assert!(failures.is_empty(), "{} failing case(s):\n{}", failures.len(), failures.join("\n"));
}

/// The same seed gives the same order.
#[tokio::test]
async fn seeded_rolls_replay() {
    let body = serde_json::json!({
        "encounter": {"ruleset": "dnd5e2024", "grid": {"width": 5, "height": 5}, "creatures": [
            {"id": "a", "side": "x", "at": {"x": 0, "y": 0}, "stats": {"dex_mod": 1}},
            {"id": "b", "side": "y", "at": {"x": 1, "y": 0}, "stats": {"dex_mod": 1}},
            {"id": "c", "side": "y", "at": {"x": 2, "y": 0}, "stats": {"dex_mod": 3}}]},
        "dice": {"mode": "roll", "seed": 42}
    });
    let one = post_json(test_app(), "/v1/initiative", &body).await.json();
    let two = post_json(test_app(), "/v1/initiative", &body).await.json();
    assert_eq!(one["result"], two["result"]);
    assert_eq!(one["dice"]["seed"], 42);
    let totals: Vec<i64> =
        one["result"]["order"].as_array().unwrap().iter().map(|e| e["total"].as_i64().unwrap()).collect();
    assert!(totals.windows(2).all(|w| w[0] >= w[1]), "{totals:?}");
}
