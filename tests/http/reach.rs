//! One reach across the endpoints (issue #14, RULES.md `pf1e.size.table`,
//! `pf1e.reach.threatened`): for a Large reach-weapon wielder, `/v1/cover`'s `in_reach`,
//! `/v1/flanking`'s `threatens_target`, `/v1/attack`'s `allowed`, `/v1/maneuvers`' reach
//! legality, `/v1/analyze`'s `in_reach` and `/v1/movement`'s attacks of opportunity all say
//! the same, and say what RULES.md says. Every expected value below is worked out by hand.

use serde_json::{Value, json};

use super::support::*;

/// A target square and whether it is within reach, with the arithmetic.
struct Spot {
    at: (i64, i64),
    in_reach: bool,
    why: &'static str,
}

const fn spot(at: (i64, i64), in_reach: bool, why: &'static str) -> Spot {
    Spot { at, in_reach, why }
}

/// A Large ogre at (5,5)–(6,6) wielding a longspear. `pf1e.size.table`: Large, natural reach
/// 10 ft (tall); `pf1e.reach.threatened`: a reach weapon doubles it to 20 ft and cannot hit at
/// 10 ft or less. Distances are `grid.distance.alternating` from the ogre's space (gaps gx, gy
/// to its nearest square; diagonals 5, 10, 5… ft). Where the old answer measured from the
/// ogre's far square, `/v1/cover` said in reach for (3,5), (4,4), (3,4), (8,5).
const LONGSPEAR_OGRE: &[Spot] = &[
    spot((4, 5), false, "gap (1,0) = 5 ft ≤ 10 ft: too close"),
    spot((3, 5), false, "gap (2,0) = 10 ft ≤ 10 ft: too close (15 ft from the far square (6,5))"),
    spot((2, 5), true, "gap (3,0) = 15 ft, in 15–20 ft"),
    spot((1, 5), true, "gap (4,0) = 20 ft, in 15–20 ft"),
    spot((0, 5), false, "gap (5,0) = 25 ft > 20 ft"),
    spot((4, 4), false, "gap (1,1) = 5 ft: too close (15 ft from the far square (6,6))"),
    spot((3, 4), false, "gap (2,1) = 5 + 5 = 10 ft: too close (20 ft from (6,6))"),
    spot((3, 3), true, "gap (2,2) = 5 + 10 = 15 ft: the second diagonal counts 10 ft, out of the dead zone"),
    spot((2, 2), true, "gap (3,3) = 5 + 10 + 5 = 20 ft"),
    spot((1, 2), false, "gap (4,3) = 5 + 10 + 5 + 5 = 25 ft"),
    spot((1, 4), true, "gap (4,1) = 5 + 15 = 20 ft"),
    spot((1, 3), false, "gap (4,2) = 5 + 10 + 10 = 25 ft"),
    spot((7, 7), false, "gap (1,1) = 5 ft: too close (15 ft from the far square (5,5))"),
    spot((8, 8), true, "gap (2,2) = 15 ft"),
    spot((8, 5), false, "gap (2,0) = 10 ft: too close (15 ft from (5,5))"),
    spot((9, 5), true, "gap (3,0) = 15 ft"),
    spot((10, 6), true, "gap (4,0) = 20 ft"),
    spot((11, 5), false, "gap (5,0) = 25 ft"),
];

/// The same ogre with its natural weapons only: 10 ft reach, adjacent squares included, and
/// RAW no second-diagonal exception (`pf1e.reach.threatened`, Q-09): RULES.md's own example.
const NATURAL_OGRE: &[Spot] = &[
    spot((4, 4), true, "gap (1,1) = 5 ft"),
    spot((3, 5), true, "gap (2,0) = 10 ft"),
    spot((3, 4), true, "gap (2,1) = 10 ft"),
    spot((3, 3), false, "gap (2,2) = 15 ft > 10 ft (RULES.md: (3,3) is not threatened)"),
    spot((8, 8), false, "gap (2,2) = 15 ft"),
    spot((2, 5), false, "gap (3,0) = 15 ft"),
];

/// With `pf1e.reach.tenFootDiagonal` 10 ft reach also takes the second diagonal.
const NATURAL_OGRE_Q09: &[Spot] = &[
    spot((3, 3), true, "gap (2,2): second diagonal, threatened with the Q-09 variant"),
    spot((8, 8), true, "gap (2,2): second diagonal"),
    spot((2, 2), false, "gap (3,3) = 20 ft > 10 ft"),
    spot((2, 5), false, "gap (3,0) = 15 ft"),
];

fn encounter(ruleset: &str, at: (i64, i64), longspear: bool, q09: bool) -> Value {
    let (attacker_stats, target_stats) = if ruleset == "hb3d" {
        (json!({"attack_bonus": 5, "cmb": 5}), json!({"def": 15}))
    } else {
        (json!({"attack_bonus": 5, "cmb": 5}), json!({"ac": 15, "cmd": 15}))
    };
    let mut ogre = json!({"id": "ogre", "side": "monsters", "at": {"x": 5, "y": 5}, "size": "large",
        "stats": attacker_stats});
    if longspear {
        ogre["wielding"] = json!({"kind": "melee", "properties": ["reach"]});
    }
    let mut enc = json!({"ruleset": ruleset, "grid": {"width": 14, "height": 14}, "creatures": [
        ogre, {"id": "hero", "side": "party", "at": {"x": at.0, "y": at.1}, "stats": target_stats}]});
    if q09 {
        enc["variants"] = json!({"pf1e.reach.tenFootDiagonal": true});
    }
    enc
}

/// The square one step further from the ogre (leaving the start square is what provokes).
fn away((x, y): (i64, i64)) -> (i64, i64) {
    match (x < 5, x > 0) {
        (true, true) => (x - 1, y),
        (true, false) => (x, y + 1),
        (false, _) => (x + 1, y),
    }
}

async fn answer(path: &str, body: Value) -> Value {
    let res = post_json(test_app(), path, &body).await;
    assert_eq!(res.status, 200, "{path}: {}", String::from_utf8_lossy(&res.body));
    res.json()
}

/// What each endpoint says about the ogre reaching the hero at `at`, in a fixed order.
async fn verdicts(enc: &Value, at: (i64, i64), weapon: &Value) -> Vec<(&'static str, Value)> {
    let pair = json!({"encounter": enc, "attacker": "ogre", "target": "hero"});
    let with = |extra: Value| {
        let mut q = pair.clone();
        q.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        q
    };
    let cover = answer("/v1/cover", with(json!({"attack": "melee"}))).await;
    let flanking = answer("/v1/flanking", pair.clone()).await;
    let attack = answer("/v1/attack", with(json!({"weapon": weapon, "dice": {"mode": "odds"}}))).await;
    let trip = answer("/v1/maneuvers", with(json!({"kind": "trip", "dice": {"mode": "odds"}}))).await;
    let analyze = answer("/v1/analyze", json!({"encounter": enc, "attackers": ["ogre"]})).await;
    let to = away(at);
    let walk = answer(
        "/v1/movement",
        json!({"encounter": enc, "creature": "hero", "path": [{"x": to.0, "y": to.1}]}),
    )
    .await;
    let threatens = flanking["result"]["threatened"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["creature"] == "ogre")
        .map_or(Value::Null, |t| t["threatens_target"].clone());
    let provoked = walk["result"]["opportunity_attacks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["creature"] == "ogre" && o["provoked"] == true && o["step"] == 0);
    let pair_in_reach = analyze["result"]["pairs"][0]["in_reach"].clone();
    let attack_why = attack["result"].get("reason").cloned().unwrap_or(Value::Null);
    let trip_why = trip["result"].get("reason").cloned().unwrap_or(Value::Null);
    vec![
        ("/v1/cover in_reach", cover["result"]["in_reach"].clone()),
        ("/v1/flanking threatens_target", threatens),
        ("/v1/attack allowed", attack["result"]["allowed"].clone()),
        ("/v1/attack reason", attack_why),
        ("/v1/maneuvers trip legal", trip["result"]["legal"].clone()),
        ("/v1/maneuvers trip reason", trip_why),
        ("/v1/analyze in_reach", pair_in_reach),
        ("/v1/movement provokes on leaving", json!(provoked)),
    ]
}

fn expected(in_reach: bool) -> Vec<(&'static str, Value)> {
    let why = |w: &str| if in_reach { Value::Null } else { json!(w) };
    vec![
        ("/v1/cover in_reach", json!(in_reach)),
        ("/v1/flanking threatens_target", json!(in_reach)),
        ("/v1/attack allowed", json!(in_reach)),
        ("/v1/attack reason", why("out_of_range")),
        ("/v1/maneuvers trip legal", json!(in_reach)),
        ("/v1/maneuvers trip reason", why("reach")),
        ("/v1/analyze in_reach", json!(in_reach)),
        ("/v1/movement provokes on leaving", json!(in_reach)),
    ]
}

async fn check(ruleset: &str, spots: &[Spot], longspear: bool, q09: bool) -> Vec<String> {
    let weapon =
        if longspear { json!({"kind": "melee", "properties": ["reach"]}) } else { json!({"kind": "melee"}) };
    let mut failures = Vec::new();
    for s in spots {
        let enc = encounter(ruleset, s.at, longspear, q09);
        let got = verdicts(&enc, s.at, &weapon).await;
        for ((what, g), (_, want)) in got.iter().zip(expected(s.in_reach)) {
            if *g != want {
                failures
                    .push(format!("{ruleset} hero at {:?} ({}): {what} = {g}, expected {want}", s.at, s.why));
            }
        }
    }
    failures
}

#[tokio::test]
async fn a_large_longspear_wielder_reaches_from_its_space_everywhere() {
    let mut failures = Vec::new();
    for ruleset in ["pf1e", "hb3d"] {
        failures.extend(check(ruleset, LONGSPEAR_OGRE, true, false).await);
        failures.extend(check(ruleset, NATURAL_OGRE, false, false).await);
        failures.extend(check(ruleset, NATURAL_OGRE_Q09, false, true).await);
    }
    assert!(failures.is_empty(), "{} disagreement(s):\n{}", failures.len(), failures.join("\n"));
}

/// A Medium longspear guard at (5,5) against a Large ogre at (6,5)–(7,6): the ogre's square
/// (6,5) is 5 ft away (too close), but (7,5) is at gap (2,0) = 10 ft, exactly the longspear's
/// reach, so the guard reaches the ogre (`pf1e.reach.threatened`: the squares it threatens,
/// any of which the target occupies) — the attack too, not only the threat.
#[tokio::test]
async fn a_big_target_partly_too_close_is_in_reach() {
    let enc = json!({"ruleset": "pf1e", "grid": {"width": 12, "height": 12}, "creatures": [
        {"id": "guard", "side": "watch", "at": {"x": 5, "y": 5}, "stats": {"attack_bonus": 5, "cmb": 5},
         "wielding": {"kind": "melee", "properties": ["reach"]}},
        {"id": "ogre", "side": "monsters", "at": {"x": 6, "y": 5}, "size": "large", "stats": {"ac": 15, "cmd": 15}}]});
    let pair = json!({"encounter": enc, "attacker": "guard", "target": "ogre"});
    let mut q = pair.clone();
    q["attack"] = json!("melee");
    let cover = answer("/v1/cover", q).await;
    assert_eq!(cover["result"]["in_reach"], true);
    let mut q = pair.clone();
    q["weapon"] = json!({"kind": "melee", "properties": ["reach"]});
    q["dice"] = json!({"mode": "odds"});
    let attack = answer("/v1/attack", q).await;
    assert_eq!(attack["result"]["allowed"], true, "{attack}");
    let flanking = answer("/v1/flanking", pair).await;
    let guard =
        flanking["result"]["threatened"].as_array().unwrap().iter().find(|t| t["creature"] == "guard");
    assert_eq!(guard.unwrap()["threatens_target"], true);
}
