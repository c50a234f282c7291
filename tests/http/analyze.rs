//! `/v1/analyze` through HTTP: hand-checked pairs of a small PF1 scene, agreement of every
//! pair with the single-question endpoints (which the RULES.md fixtures pin down), and bad
//! input.

use serde_json::{Value, json};

use super::support::*;

fn scene() -> Value {
    json!({
        "ruleset": "pf1e",
        "grid": {"width": 10, "height": 6, "map": ["..........", "....#.....", "..........", "..........", "..........", ".........."]},
        "creatures": [
            {"id": "fighter", "side": "party", "at": {"x": 1, "y": 2}},
            {"id": "rogue", "side": "party", "at": {"x": 3, "y": 2}},
            {"id": "goblin", "side": "monsters", "at": {"x": 2, "y": 2}},
            {"id": "orc", "side": "monsters", "at": {"x": 8, "y": 1}}
        ]
    })
}

fn find<'a>(pairs: &'a [Value], a: &str, t: &str) -> &'a Value {
    pairs
        .iter()
        .find(|p| p["attacker"] == a && p["target"] == t)
        .unwrap_or_else(|| panic!("no pair {a} → {t}"))
}

/// Hand-checked: 2 × 2 creatures of opposing sides give 8 ordered pairs; the goblin between
/// the fighter and the rogue is flanked (`pf1e.flanking`: the centre line meets its west and
/// east edges, +2); the orc is out of reach, judged for a ranged attack, at
/// `grid.distance.alternating` (1,2)→(8,1): gx = 7, gy = 1 → 6 + 1 + ⌊1/2⌋ = 7 squares, 35 ft.
#[tokio::test]
async fn small_scene_by_hand() {
    let res = post_json(test_app(), "/v1/analyze", &json!({"encounter": scene()})).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let body = res.json();
    let pairs = body["result"]["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 8);
    let fg = find(pairs, "fighter", "goblin");
    assert_eq!(
        (fg["distance_ft"].as_i64(), fg["in_reach"].as_bool(), fg["attack"].as_str()),
        (Some(5), Some(true), Some("melee"))
    );
    assert_eq!(fg["flanking"]["flanked"], true);
    assert_eq!(fg["flanking"]["flankers"], json!(["rogue"]));
    assert_eq!(fg["flanking"]["attack_bonus"], 2);
    let fo = find(pairs, "fighter", "orc");
    assert_eq!(
        (fo["distance_ft"].as_i64(), fo["in_reach"].as_bool(), fo["attack"].as_str()),
        (Some(35), Some(false), Some("ranged"))
    );
    assert!(fo.get("flanking").is_none());
    assert!(pairs.iter().all(|p| p.get("trace").is_none()));
    let rules: Vec<&str> =
        body["trace"].as_array().unwrap().iter().filter_map(|s| s["rule"].as_str()).collect();
    assert!(rules.contains(&"pf1e.flanking.geometry"), "{rules:?}");
}

/// Every pair answers what `/v1/cover`, `/v1/concealment` and `/v1/flanking` answer alone.
#[tokio::test]
async fn pairs_agree_with_the_single_questions() {
    let mut encounters = vec![scene()];
    let cases = fixtures_of("cover/cases");
    encounters.extend(
        cases
            .iter()
            .filter(|c| c["status"] == 200 || c.get("status").is_none())
            .take(25)
            .map(|c| c["request"]["encounter"].clone()),
    );
    let (mut checked, mut totals) = (0, 0);
    for enc in encounters {
        let res = post_json(test_app(), "/v1/analyze", &json!({"encounter": enc})).await;
        if res.status != 200 {
            continue;
        }
        for p in res.json()["result"]["pairs"].as_array().unwrap() {
            let q = json!({"encounter": enc, "attacker": p["attacker"], "target": p["target"]});
            let mut cq = q.clone();
            cq["attack"] = p["attack"].clone();
            let cover = post_json(test_app(), "/v1/cover", &cq).await.json();
            // Absent alike too: total cover has no numbers.
            for k in [
                "degree",
                "soft",
                "ac_bonus",
                "save_bonus",
                "attack_modifier",
                "can_be_targeted",
                "denies_opportunity_attacks",
            ] {
                assert_eq!(
                    p["cover"].get(k),
                    cover["result"].get(k),
                    "{k} of {} → {}",
                    p["attacker"],
                    p["target"]
                );
            }
            totals += usize::from(p["cover"]["degree"] == "total");
            let mut vq = q.clone();
            vq["attack"] = p["attack"].clone();
            let conc = post_json(test_app(), "/v1/concealment", &vq).await.json();
            for k in ["degree", "miss_chance", "line_of_sight", "line_of_effect"] {
                assert_eq!(
                    p["concealment"][k], conc["result"][k],
                    "{k} of {} → {}",
                    p["attacker"], p["target"]
                );
            }
            if let Some(f) = p.get("flanking") {
                let fl = post_json(test_app(), "/v1/flanking", &q).await.json();
                assert_eq!(f["flanked"], fl["result"]["flanked"]);
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} pairs checked");
    assert!(totals > 0, "no pair under total cover checked");
}

#[tokio::test]
async fn bad_input() {
    let res =
        post_json(test_app(), "/v1/analyze", &json!({"encounter": scene(), "attackers": ["nobody"]})).await;
    assert_eq!(res.status, 422);
    assert_eq!(pointers(&res), vec!["/attackers/0"]);
    let res = post_json(test_app(), "/v1/analyze", &json!({"encounter": scene(), "attack": "area"})).await;
    assert_eq!(res.status, 422);
    assert_eq!(pointers(&res), vec!["/attack"]);
}

#[tokio::test]
async fn traces_on_request() {
    let res = post_json(
        test_app(),
        "/v1/analyze",
        &json!({"encounter": scene(), "attackers": ["fighter"], "traces": true}),
    )
    .await;
    let body = res.json();
    let pairs = body["result"]["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 2);
    assert!(pairs.iter().all(|p| !p["trace"].as_array().unwrap().is_empty()));
}
