//! `/v1/movement` through HTTP: the RULES.md movement, opportunity-attack and charge examples
//! as fixtures (expected values worked out by hand from the rules), and bad input.

use serde_json::{Value, json};

use super::support::*;

fn fixtures() -> Vec<Value> {
    fixtures_of("movement/cases")
}

#[tokio::test]
async fn rules_md_movement_fixtures() {
    let cases = fixtures();
    assert!(cases.len() >= 50);
    let (_, failures) = check_fixtures("/v1/movement", &cases, Some("result")).await;
    assert!(failures.is_empty(), "{} failing case(s):\n{}", failures.len(), failures.join("\n"));
}

#[tokio::test]
async fn french_trace() {
    let case = &fixtures()[0];
    let res = send(
        test_app(),
        axum::http::Request::post("/v1/movement")
            .header("content-type", "application/json")
            .header("accept-language", "fr")
            .body(axum::body::Body::from(case["request"].to_string()))
            .unwrap(),
    )
    .await;
    let body = res.json();
    let texts: Vec<&str> =
        body["trace"].as_array().unwrap().iter().filter_map(|s| s["text"].as_str()).collect();
    assert!(texts.iter().any(|t| t.contains("sur 9 mètres (6 cases)")), "{texts:?}");
    assert!(texts.iter().all(|t| !t.contains(" ft")), "{texts:?}");
}

/// The drawing: well-formed, one line per legal step, one per illegal step, and a ring where
/// the attack of opportunity is provoked.
#[tokio::test]
async fn svg_view_draws_the_path() {
    use axum::body::Body;
    use axum::http::{Request, header};
    let cases = fixtures();
    let thin_wall = cases.iter().find(|c| c["name"] == "a thin wall blocks the step across it").unwrap();
    let goblin = cases.iter().find(|c| c["name"].as_str().unwrap().starts_with("5e: goblin (5,5)")).unwrap();
    let mut counts = Vec::new();
    for case in [thin_wall, goblin] {
        let req = Request::post("/v1/movement")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "image/svg+xml")
            .body(Body::from(serde_json::to_vec(&case["request"]).unwrap()))
            .unwrap();
        let res = send(test_app(), req).await;
        assert_eq!(res.status, 200);
        assert_eq!(res.content_type(), "image/svg+xml");
        let text = String::from_utf8(res.body).unwrap();
        let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
        let steps = |status: &str| {
            doc.descendants()
                .filter(|n| {
                    n.attribute("class") == Some("step") && n.attribute("data-status") == Some(status)
                })
                .count()
        };
        let rings = doc.descendants().filter(|n| n.attribute("class") == Some("oa-ring")).count();
        counts.push((steps("legal"), steps("illegal"), rings));
    }
    // Thin wall: (1,0)→(2,0) legal, (2,0)→(3,0) blocked. Goblin: two legal steps, one OA.
    assert_eq!(counts, vec![(1, 1, 0), (2, 0, 1)]);
}

/// Where a creature dragged along ends (a GM's reading, RULES.md being silent: README
/// "Movement"): it keeps its place beside the grappler, moved as the grappler moved to the
/// last square its legal steps reach; where that space is taken, the free space touching
/// the grappler's end nearest to it, ties in row order.
#[tokio::test]
async fn a_dragged_creature_ends_beside_its_grappler() {
    let request = |path: Value, extra: Option<Value>| {
        let mut creatures = vec![
            json!({"id": "fighter", "side": "party", "at": {"x": 2, "y": 2}}),
            json!({"id": "goblin", "side": "monsters", "at": {"x": 3, "y": 2}, "size": "small", "conditions": ["grappled"]}),
        ];
        creatures.extend(extra);
        json!({"encounter": {"ruleset": "dnd5e2014", "grid": {"width": 6, "height": 5}, "creatures": creatures},
               "creature": "fighter", "path": path, "options": {"dragging": "goblin"}})
    };
    let dragged_to = |res: Answer| {
        assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
        res.json()["result"]["dragged_to"].clone()
    };
    // Two squares west: the goblin, one square east of the fighter, follows to (1, 2).
    let res =
        post_json(test_app(), "/v1/movement", &request(json!([{"x": 1, "y": 2}, {"x": 0, "y": 2}]), None))
            .await;
    assert_eq!(dragged_to(res), json!({"x": 1, "y": 2}));
    // One square north with an orc on (3, 1), where the goblin would go: the free squares
    // touching the fighter's (2, 1) nearest to (3, 1) are (3, 0) and (3, 2), one square
    // away; the first in row order is (3, 0).
    let orc = json!({"id": "orc", "side": "monsters", "at": {"x": 3, "y": 1}});
    let res = post_json(test_app(), "/v1/movement", &request(json!([{"x": 2, "y": 1}]), Some(orc))).await;
    assert_eq!(dragged_to(res), json!({"x": 3, "y": 0}));
    // Without dragging, no such field.
    let mut q = request(json!([{"x": 1, "y": 2}]), None);
    q["options"] = json!({});
    let res = post_json(test_app(), "/v1/movement", &q).await;
    assert!(res.json()["result"].get("dragged_to").is_none());
}
