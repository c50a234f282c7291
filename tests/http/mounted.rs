//! 5e mounted combat through HTTP (issue 14): a rider's DC 10 Dexterity save when a push, a
//! shove or forced movement moves its mount or knocks it or its mount prone, where it lands,
//! and a controlled mount's initiative. Expected values are worked out by hand in each
//! fixture's `why`.

use serde_json::{Value, json};

use super::support::*;

/// The fixtures of `/v1/maneuvers`, `/v1/initiative` and `/v1/movement`.
#[tokio::test]
async fn mounted_fixtures() {
    let sets = [
        ("maneuver/mounted", "/v1/maneuvers", None, 4),
        ("initiative/mounted", "/v1/initiative", None, 2),
        ("movement/mounted", "/v1/movement", Some("result"), 1),
    ];
    let mut failures = Vec::new();
    for (set, path, scope, at_least) in sets {
        let cases = fixtures_of(set);
        assert!(cases.len() >= at_least, "{set} lost cases");
        failures.extend(check_fixtures(path, &cases, scope).await.1);
    }
    assert!(failures.is_empty(), "{} failing case(s):\n{}", failures.len(), failures.join("\n"));
}

/// The first mounted maneuver case's request, changed by `edit`.
fn shove_case(edit: impl FnOnce(&mut Value)) -> Value {
    let mut req = fixtures_of("maneuver/mounted")[0]["request"].clone();
    edit(&mut req);
    req
}

/// A push that cannot move the mount (the grid's edge) moves nobody against its will: no
/// rider is at risk.
#[tokio::test]
async fn a_blocked_push_unseats_nobody() {
    let req = shove_case(|r| {
        r["encounter"]["grid"]["width"] = json!(4);
        r["dice"] = json!({"mode": "given", "rolls": {"save": [5]}});
    });
    let body = post_json(test_app(), "/v1/maneuvers", &req).await.json();
    assert_eq!(body["result"]["effects"]["push"]["moved_ft"], 0, "{body}");
    assert!(body["result"].get("rider_falls").is_none(), "{body}");
}

/// The rider's save is its own die, `mount_save`: without it a given-dice question that
/// needs it is a 422 naming it, and a face it does not need (the shove failed) is one too.
#[tokio::test]
async fn the_riders_die_is_mount_save() {
    let missing = shove_case(|r| r["dice"] = json!({"mode": "given", "rolls": {"save": [5]}}));
    let res = post_json(test_app(), "/v1/maneuvers", &missing).await;
    assert_eq!(res.status, 422, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(pointers(&res), ["/dice/rolls/mount_save"]);
    let unused =
        shove_case(|r| r["dice"] = json!({"mode": "given", "rolls": {"save": [15], "mount_save": [3]}}));
    let res = post_json(test_app(), "/v1/maneuvers", &unused).await;
    assert_eq!(res.status, 422, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(pointers(&res), ["/dice/rolls/mount_save"]);
}

/// A rider with neither `saves.dex` nor `dex_mod` cannot save: a 422 naming its stats.
#[tokio::test]
async fn a_rider_without_dexterity_is_a_422() {
    let req = shove_case(|r| r["encounter"]["creatures"][2]["stats"] = json!({}));
    let res = post_json(test_app(), "/v1/maneuvers", &req).await;
    assert_eq!(res.status, 422, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(pointers(&res), ["/encounter/creatures/2/stats"]);
}

/// The save, its roll and the landing are told in both languages.
#[tokio::test]
async fn the_fall_is_narrated_in_french() {
    let req = shove_case(|_| {});
    let res = send(
        test_app(),
        axum::http::Request::post("/v1/maneuvers")
            .header("content-type", "application/json")
            .header("accept-language", "fr")
            .body(axum::body::Body::from(req.to_string()))
            .unwrap(),
    )
    .await;
    let body = res.json();
    let texts: Vec<&str> = body["trace"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["rule"] == "dnd5e2024.mounted")
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), 3, "{body}");
    assert!(texts[0].contains("JS de Dextérité DD 10 (+2)") && texts[0].contains("13/20"), "{}", texts[0]);
    assert!(texts[1].contains("7 → 9") && texts[1].contains("tombe"), "{}", texts[1]);
    assert!(texts[2].contains("à terre en (2, 1)"), "{}", texts[2]);
}

/// `mount_control` belongs to a rider; a controlled mount cannot roll without its rider.
#[tokio::test]
async fn mount_control_needs_a_rider() {
    let mut req = fixtures_of("initiative/mounted")[0]["request"].clone();
    req["encounter"]["creatures"][2]["mount_control"] = json!("controlled");
    let res = post_json(test_app(), "/v1/initiative", &req).await;
    assert_eq!(res.status, 422, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(pointers(&res), ["/encounter/creatures/2/mount_control"]);
    let mut req = fixtures_of("initiative/mounted")[0]["request"].clone();
    req["creatures"] = json!(["warhorse", "goblin"]);
    let res = post_json(test_app(), "/v1/initiative", &req).await;
    assert_eq!(res.status, 422, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(pointers(&res), ["/creatures"]);
}

/// A rider does not fall through a wall: the movement fixture's horse, moved east out from
/// under its knight, with a wall along y = 2 (the row above the horse's). Without it the
/// knight lands on (2, 1) (RULES.md `dnd5e2024.mounted`, the fixture's `why`); the spaces
/// above the wall, (2, 1), (1, 1), (3, 1) and (4, 1), are now beyond it, so the nearest free
/// space is (1, 2), then the rest in the fixture's order.
#[tokio::test]
async fn a_falling_rider_does_not_land_beyond_a_wall() {
    let mut req = fixtures_of("movement/mounted")[0]["request"].clone();
    req["encounter"]["grid"]["walls"] =
        json!([{"from": {"x": 0, "y": 2}, "to": {"x": 8, "y": 2}, "kind": "solid"}]);
    let res = post_json(test_app(), "/v1/movement", &req).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let fall = &res.json()["result"]["rider_falls"][0];
    assert_eq!(fall["lands"], json!({"x": 1, "y": 2}), "{fall}");
    assert_eq!(
        fall["alternatives"],
        json!([{"x": 1, "y": 3}, {"x": 2, "y": 4}, {"x": 1, "y": 4}, {"x": 3, "y": 4}, {"x": 4, "y": 4}]),
        "{fall}"
    );
}
