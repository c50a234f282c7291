//! `/v1/concealment` through HTTP: the RULES.md examples as fixtures, and bad input.

use serde_json::{Value, json};

use super::support::*;

fn fixtures() -> Vec<Value> {
    fixtures_of("concealment/cases")
}

#[tokio::test]
async fn rules_md_concealment_fixtures() {
    let cases = fixtures();
    assert!(cases.len() >= 30);
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let res = post_json(test_app(), "/v1/concealment", &case["request"]).await;
        assert_eq!(res.status, 200, "{name}: {}", String::from_utf8_lossy(&res.body));
        assert_subset(&res.json()["result"], &case["expect"], name);
    }
}

/// RULES.md `sf1e.concealment`: one fog square between: all 4 lines from the best corner are
/// concealed in SF (grazing counts), 2 in PF1.
#[tokio::test]
async fn grazing_counts_in_starfinder_only() {
    let cases = fixtures();
    for (name, expected) in [
        ("sf1e single fog square between → concealment", 4),
        ("pf1e single fog square between → concealment", 2),
    ] {
        let case = cases.iter().find(|c| c["name"] == name).unwrap();
        let body = post_json(test_app(), "/v1/concealment", &case["request"]).await.json();
        let concealed =
            body["result"]["lines"].as_array().unwrap().iter().filter(|l| l["concealed"] == true).count();
        assert_eq!(concealed, expected, "{name}");
    }
}

#[tokio::test]
async fn concealment_bad_input() {
    let mut req = fixtures()[0]["request"].clone();
    req["encounter"]["grid"]["light_map"] = json!(["bbbbbbbb", "bbbbxbbb"]);
    let res = post_json(test_app(), "/v1/concealment", &req).await;
    assert_eq!(res.status, 422);
    let p = pointers(&res);
    assert!(p.contains(&"/encounter/grid/light_map".to_owned()), "wrong row count: {p:?}");
    assert!(p.contains(&"/encounter/grid/light_map/1".to_owned()), "unknown character: {p:?}");
    let mut neg = fixtures()[0]["request"].clone();
    neg["encounter"]["creatures"][0]["senses"] = json!({"darkvision_ft": -60});
    let res = post_json(test_app(), "/v1/concealment", &neg).await;
    assert_eq!(
        (res.status, pointers(&res)),
        (422, vec!["/encounter/creatures/0/senses/darkvision_ft".to_owned()])
    );
    let mut same = fixtures()[0]["request"].clone();
    same["target"] = "A".into();
    assert_eq!(pointers(&post_json(test_app(), "/v1/concealment", &same).await), vec!["/target".to_owned()]);
}
