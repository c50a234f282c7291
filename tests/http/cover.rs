//! `/v1/cover` through HTTP: the RULES.md examples as fixtures, the SVG view, bad input.

use axum::body::Body;
use axum::http::{Request, header};
use serde_json::{Value, json};

use super::support::*;

fn fixtures() -> Vec<Value> {
    fixtures_of("cover/cases")
}

#[tokio::test]
async fn rules_md_cover_fixtures() {
    let cases = fixtures();
    assert!(cases.len() >= 70);
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let res = post_json(test_app(), "/v1/cover", &case["request"]).await;
        assert_eq!(res.status, 200, "{name}: {}", String::from_utf8_lossy(&res.body));
        let body = res.json();
        assert_subset(&body["result"], &case["expect"], name);
        let rules: Vec<&str> =
            body["trace"].as_array().unwrap().iter().map(|s| s["rule"].as_str().unwrap()).collect();
        assert!(rules.contains(&"grid.line-of-effect"), "{name}: {rules:?}");
    }
}

/// Total cover has no AC bonus, no save bonus and no ATT modifier: the target cannot be
/// targeted (RULES.md `pf1e.cover.degrees`, `dnd5e.cover.degrees`, `hb3d.mod.cover`; issue
/// #14), so the answer and its result step leave them out; every other degree has them all.
#[tokio::test]
async fn total_cover_has_no_numbers() {
    const NUMBERS: [&str; 3] = ["ac_bonus", "save_bonus", "attack_modifier"];
    let mut totals = 0;
    for case in &fixtures() {
        let name = case["name"].as_str().unwrap();
        let body = post_json(test_app(), "/v1/cover", &case["request"]).await.json();
        let result = &body["result"];
        let total = result["degree"] == "total";
        totals += usize::from(total);
        assert_eq!(result["can_be_targeted"], !total, "{name}");
        let step =
            body["trace"].as_array().unwrap().iter().find(|s| s["effect"]["type"] == "cover.cover_result");
        let step = &step.unwrap_or_else(|| panic!("{name}: no result step"))["effect"];
        for k in NUMBERS {
            assert_eq!(result.get(k).is_none(), total, "{name}: {k} in {result}");
            assert_eq!(step.get(k).is_none(), total, "{name}: {k} in the step {step}");
        }
        let save = if result["save"] == "reflex" { "reflex_bonus" } else { "dex_save_bonus" };
        assert_eq!(result.get(save).is_none(), total, "{name}: {save}");
    }
    assert!(totals >= 20, "the G7 and G8 cases of every ruleset are total cover: {totals}");
}

#[tokio::test]
async fn lines_say_what_blocked_them() {
    let cases = fixtures();
    let m1 = cases.iter().find(|c| c["name"] == "M1 dnd5e2014: creature between → half").unwrap();
    let body = post_json(test_app(), "/v1/cover", &m1["request"]).await.json();
    let lines = body["result"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4);
    let blocked: Vec<&Value> = lines.iter().filter(|l| l["blocked"] == true).collect();
    assert_eq!(blocked.len(), 2, "RULES.md M1: two lines through the orc's square");
    for l in blocked {
        assert_eq!(
            l["hits"][0]["by"][0],
            json!({"kind": "creature", "square": {"x": 3, "y": 2}, "creature": "o1"})
        );
        assert_eq!(l["hits"][0]["case"], "interior");
    }
}

#[tokio::test]
async fn svg_view_is_well_formed_and_labelled() {
    let cases = fixtures();
    let m2 = cases.iter().find(|c| c["name"] == "M2 pf1e: target (4,4) → cover +4").unwrap();
    let req = Request::post("/v1/cover")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "image/svg+xml")
        .body(Body::from(serde_json::to_vec(&m2["request"]).unwrap()))
        .unwrap();
    let res = send(test_app(), req).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.content_type(), "image/svg+xml");
    let text = String::from_utf8(res.body).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(texts.contains(&"A") && texts.contains(&"T"), "creature labels: {texts:?}");
    let rays = |status: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("ray") && n.attribute("data-status") == Some(status))
            .count()
    };
    assert_eq!((rays("blocked"), rays("clear")), (1, 3), "M2 (4,4): one blocked line from ⟨0,0⟩");
}

#[tokio::test]
async fn svg_of_a_forty_square_map_stays_readable() {
    let rows: Vec<String> =
        (0..40).map(|y| if y == 20 { "#".repeat(30) + &".".repeat(10) } else { ".".repeat(40) }).collect();
    let req = json!({"encounter": {"ruleset": "pf1e", "grid": {"width": 40, "height": 40, "map": rows},
        "creatures": [{"id": "a", "side": "x", "at": {"x": 1, "y": 1}}, {"id": "<b&c>", "side": "y", "at": {"x": 38, "y": 38}}]},
        "attacker": "a", "target": "<b&c>"});
    let res = send(
        test_app(),
        Request::post("/v1/cover")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "image/svg+xml")
            .body(Body::from(serde_json::to_vec(&req).unwrap()))
            .unwrap(),
    )
    .await;
    let text = String::from_utf8(res.body).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed even with markup in ids");
    let width: f64 = doc.root_element().attribute("width").unwrap().parse().unwrap();
    assert!(width >= 960.0, "24 px squares at 40×40");
    assert!(doc.descendants().any(|n| n.text() == Some("<b&c>")));
}

#[tokio::test]
async fn french_trace() {
    let cases = fixtures();
    let m6 = cases.iter().find(|c| c["name"] == "M6 pf1e: A 5 ft < T 15 ft → none").unwrap();
    let req = Request::post("/v1/cover")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT_LANGUAGE, "fr")
        .body(Body::from(serde_json::to_vec(&m6["request"]).unwrap()))
        .unwrap();
    let body = send(test_app(), req).await.json();
    let low = body["trace"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["rule"] == "pf1e.cover.low-obstacles")
        .expect("low step");
    assert_eq!(low["effect"]["counted"], false);
    assert_eq!(
        low["text"],
        "obstacle bas en (5, 2)\u{a0}: l'attaquant, à 1,50 mètre (1 case), est plus près que la cible, à 4,50 mètres (3 cases)\u{a0}: ignoré"
    );
}

#[tokio::test]
async fn cover_bad_input() {
    let cases = fixtures();
    let mut req = cases[0]["request"].clone();
    req["attack"] = "area".into();
    let res = post_json(test_app(), "/v1/cover", &req).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/origin".to_owned()]));
    req["origin"] = json!({"x": 99, "y": 0});
    let res = post_json(test_app(), "/v1/cover", &req).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/origin/x".to_owned()]));
    let mut same = cases[0]["request"].clone();
    same["target"] = "A".into();
    let res = post_json(test_app(), "/v1/cover", &same).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/target".to_owned()]));
    let mut unknown = cases[0]["request"].clone();
    unknown["attacker"] = "nobody".into();
    unknown["target"] = "ghost".into();
    let res = post_json(test_app(), "/v1/cover", &unknown).await;
    assert_eq!(pointers(&res), vec!["/attacker".to_owned(), "/target".to_owned()]);
    // An origin on a wall that blocks line of effect would reach both sides.
    let mut on_wall = json!({"encounter": {"ruleset": "pf1e", "grid": {"width": 8, "height": 5,
        "walls": [{"from": {"x": 3, "y": 0}, "to": {"x": 3, "y": 5}}]},
        "creatures": [{"id": "A", "side": "a", "at": {"x": 0, "y": 2}}, {"id": "T", "side": "t", "at": {"x": 5, "y": 2}}]},
        "attacker": "A", "target": "T", "attack": "area"});
    on_wall["origin"] = json!({"x": 3, "y": 2.5});
    let res = post_json(test_app(), "/v1/cover", &on_wall).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/origin".to_owned()]));
    let mut bad_attack = cases[0]["request"].clone();
    bad_attack["attack"] = "psychic".into();
    let res = post_json(test_app(), "/v1/cover", &bad_attack).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/attack".to_owned()]));
}

const RULESETS: [&str; 5] = ["dnd5e2014", "dnd5e2024", "pf1e", "sf1e", "hb3d"];

/// A ranged cover request on a 12 × 12 map with the given walls, A and T Medium.
fn along_wall_request(ruleset: &str, walls: Value, a: (i32, i32), t: (i32, i32)) -> Value {
    json!({
        "encounter": {
            "ruleset": ruleset,
            "grid": {"width": 12, "height": 12, "walls": walls},
            "creatures": [
                {"id": "A", "side": "a", "at": {"x": a.0, "y": a.1}},
                {"id": "T", "side": "t", "at": {"x": t.0, "y": t.1}}
            ]
        },
        "attacker": "A",
        "target": "T",
        "attack": "ranged"
    })
}

/// Whether the answer's trace says a line of effect exists.
fn line_of_effect(body: &Value) -> bool {
    let steps = body["trace"].as_array().unwrap();
    let step = steps.iter().find(|s| s["effect"]["type"] == "cover.line_of_effect").unwrap();
    step["effect"]["exists"].as_bool().unwrap()
}

fn wall(from: (i32, i32), to: (i32, i32), kind: &str) -> Value {
    json!({"from": {"x": from.0, "y": from.1}, "to": {"x": to.0, "y": to.1}, "kind": kind})
}

/// RULES.md G9 (`grid.line.blocked` rule 7): a target inside a room, the attacker outside its
/// closed door at the room's corner: the lines along the north wall, displaced south, cross the
/// door → total cover, no line of effect, in every ruleset. The door open: a line of effect.
#[tokio::test]
async fn g9_a_closed_door_at_a_room_corner_seals_it() {
    let room = |door: &str| {
        json!([wall((8, 7), (10, 7), "solid"), wall((8, 8), (8, 11), "solid"), wall((8, 7), (8, 8), door)])
    };
    for ruleset in RULESETS {
        let res = post_json(
            test_app(),
            "/v1/cover",
            &along_wall_request(ruleset, room("door_closed"), (7, 7), (8, 7)),
        )
        .await;
        assert_eq!(res.status, 200, "{ruleset}: {}", String::from_utf8_lossy(&res.body));
        let body = res.json();
        assert_eq!(body["result"]["degree"], "total", "{ruleset}: {body}");
        assert_eq!(body["result"]["can_be_targeted"], false, "{ruleset}");
        assert!(!line_of_effect(&body), "{ruleset}");
        // Control: the door open, the displaced line crosses nothing.
        let body = post_json(
            test_app(),
            "/v1/cover",
            &along_wall_request(ruleset, room("door_open"), (7, 7), (8, 7)),
        )
        .await
        .json();
        assert_ne!(body["result"]["degree"], "total", "{ruleset}: {body}");
        assert!(line_of_effect(&body), "{ruleset}");
    }
}

/// RULES.md G10: a wall along y = 5 and a partition running south from ⟨4,5⟩; A (1,5) and
/// T (7,5) in the row below, either side of the partition: the line along the wall, displaced
/// south, crosses the partition; every other line crosses it → no line of effect.
#[tokio::test]
async fn g10_a_t_junction_blocks_the_line_along_the_wall() {
    let walls = json!([wall((0, 5), (10, 5), "solid"), wall((4, 5), (4, 9), "solid")]);
    for ruleset in RULESETS {
        let body =
            post_json(test_app(), "/v1/cover", &along_wall_request(ruleset, walls.clone(), (1, 5), (7, 5)))
                .await
                .json();
        assert_eq!(body["result"]["degree"], "total", "{ruleset}: {body}");
        assert!(!line_of_effect(&body), "{ruleset}");
        // Control: in the row above the wall, the line displaced north crosses nothing.
        let body =
            post_json(test_app(), "/v1/cover", &along_wall_request(ruleset, walls.clone(), (1, 4), (7, 4)))
                .await
                .json();
        assert_eq!(body["result"]["degree"], "none", "{ruleset}: {body}");
    }
}

/// G10 with a low partition (5e, half-cover cap off): low obstacles are in the cover test's
/// blocking set, so every line from every corner is blocked — the lines along the wall by rule 7
/// (`"case": "along_wall"`, naming the partition and the wall) — 4 of 4 → three-quarters; the
/// trace cites `grid.line.along-wall`. Low walls are not in line of effect's set: it exists.
#[tokio::test]
async fn along_wall_hits_are_named_and_cited() {
    let walls = json!([wall((0, 5), (10, 5), "solid"), wall((4, 5), (4, 9), "low")]);
    let mut req = along_wall_request("dnd5e2014", walls, (1, 5), (7, 5));
    req["encounter"]["variants"] = json!({"dnd5e.cover.half-cap": false});
    let body = post_json(test_app(), "/v1/cover", &req).await.json();
    assert_eq!(body["result"]["degree"], "three_quarters", "{body}");
    assert!(line_of_effect(&body));
    let lines = body["result"]["lines"].as_array().unwrap();
    assert!(lines.iter().all(|l| l["blocked"] == true), "{body}");
    let along: Vec<&Value> = lines
        .iter()
        .flat_map(|l| l["hits"].as_array().unwrap())
        .filter(|h| h["case"] == "along_wall")
        .collect();
    assert!(!along.is_empty(), "{body}");
    let kinds: Vec<&Value> = along[0]["by"].as_array().unwrap().iter().map(|b| &b["wall_kind"]).collect();
    assert_eq!(along[0]["counted"], true);
    assert_eq!(along[0]["by"].as_array().unwrap().len(), 2, "the partition and the wall: {kinds:?}");
    let rules: Vec<&str> =
        body["trace"].as_array().unwrap().iter().map(|s| s["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"grid.line.along-wall"), "{rules:?}");
}
