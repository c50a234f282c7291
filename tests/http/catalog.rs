//! `GET /v1/rules` and `GET /v1/rulesets`.

use super::support::*;

#[tokio::test]
async fn rules_catalog_lists_every_rule_with_sources() {
    let res = get(test_app(), "/v1/rules").await;
    assert_eq!(res.status, 200);
    let body = res.json();
    let rules = body["rules"].as_array().unwrap();
    assert!(rules.len() >= 100);
    let soft = rules.iter().find(|r| r["id"] == "pf1e.cover.soft").expect("pf1e.cover.soft");
    assert_eq!(soft["kind"], "seed");
    assert!(soft["source"].as_str().unwrap().contains("001_d35902a853b0861d.txt"));
    assert!(!soft["summary_fr"].as_str().unwrap().is_empty());
}

#[tokio::test]
async fn rulesets_state_what_each_supports() {
    let body = get(test_app(), "/v1/rulesets").await.json();
    let rs = body["rulesets"].as_array().unwrap();
    let ids: Vec<&str> = rs.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["dnd5e2014", "dnd5e2024", "pf1e", "sf1e", "hb3d"]);
    let pf = &rs[2];
    assert_eq!(pf["distance"], "grid.distance.alternating");
    assert!(pf["operations"].as_array().unwrap().iter().any(|o| o == "range"));
    let colossal = pf["sizes"].as_array().unwrap().iter().find(|s| s["size"] == "colossal").unwrap();
    assert_eq!((colossal["squares"].as_i64(), colossal["reach_ft"].as_i64()), (Some(6), Some(30)));
    let d5 = &rs[0];
    assert!(
        d5["variants"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["key"] == "dnd5e.grid.variant-diagonals" && v["default"] == false)
    );
    assert!(!d5["conditions"].as_array().unwrap().iter().any(|c| c == "flat_footed"));
}
