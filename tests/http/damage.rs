//! Damage through HTTP (issue #14): `/v1/attack` with a weapon's `damage` and grapple damage
//! in `/v1/maneuvers`, as fixtures whose expected values are computed by hand from the SRDs
//! and the seeds (each case's `why`), plus the dice modes and bad input.

use serde_json::{Value, json};

use super::support::*;

#[tokio::test]
async fn damage_fixtures() {
    let cases = fixtures_of("damage/cases");
    assert!(cases.len() >= 30);
    let (answered, failures) = check_fixtures("/v1/attack", &cases, None).await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (case, body) in &answered {
        let d = &body["damage"];
        for part in ["hit", "critical", "overall"] {
            let Some(outcomes) = d[part]["outcomes"].as_array() else { continue };
            let total: f64 = outcomes.iter().map(|o| o["p"].as_f64().unwrap()).sum();
            assert!((total - 1.0).abs() < 1e-9, "{}: {part} sums to {total}", case["name"]);
        }
    }
}

#[tokio::test]
async fn grapple_damage_fixtures() {
    let cases = fixtures_of("damage/grapple");
    assert!(cases.len() >= 9);
    let (_, failures) = check_fixtures("/v1/maneuvers", &cases, None).await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn longsword(dice: Value) -> Value {
    json!({
        "encounter": {
            "ruleset": "dnd5e2014",
            "grid": {"width": 4, "height": 1},
            "creatures": [
                {"id": "A", "side": "party", "at": {"x": 0, "y": 0}, "stats": {"attack_bonus": 5, "str_mod": 3}},
                {"id": "T", "side": "monsters", "at": {"x": 1, "y": 0}, "stats": {"ac": 15}}
            ]
        },
        "attacker": "A",
        "target": "T",
        "weapon": {"kind": "melee", "damage": "1d8", "damage_type": "slashing"},
        "dice": dice
    })
}

/// Odds mode rolls no damage die; roll mode rolls them seeded, the same seed the same faces,
/// and only on a hit.
#[tokio::test]
async fn damage_dice_modes() {
    let odds = post_json(test_app(), "/v1/attack", &longsword(json!({"mode": "odds"}))).await.json();
    assert!(odds["damage"]["rolled"].is_null());
    assert!(odds["rolls"].as_array().unwrap().is_empty());
    for seed in 0..20 {
        let req = longsword(json!({"mode": "roll", "seed": seed}));
        let a = post_json(test_app(), "/v1/attack", &req).await.json();
        let b = post_json(test_app(), "/v1/attack", &req).await.json();
        assert_eq!(a["damage"], b["damage"], "seed {seed}");
        let damage_dice = a["rolls"].as_array().unwrap().iter().filter(|r| r["purpose"] == "damage").count();
        match (a["result"]["hit"].as_bool(), a["result"]["critical"].as_bool()) {
            (Some(true), Some(true)) => assert_eq!(damage_dice, 2, "seed {seed}"),
            (Some(true), _) => {
                assert_eq!(damage_dice, 1, "seed {seed}");
                let total = a["damage"]["rolled"]["total"].as_i64().unwrap();
                assert!((4..=11).contains(&total), "seed {seed}: {total}");
            }
            _ => {
                assert_eq!(damage_dice, 0, "seed {seed}");
                assert!(a["damage"]["rolled"].is_null());
            }
        }
    }
}

/// Bad damage never answers 500: huge, odd or hostile values are 422 with a pointer.
#[tokio::test]
async fn bad_damage_is_a_422_with_a_pointer() {
    let long = "1d6+".repeat(40) + "1";
    let cases = [
        (json!("1d"), "/weapon/damage"),
        (json!(""), "/weapon/damage"),
        (json!(long), "/weapon/damage"),
        (json!("99999999999999999999d6"), "/weapon/damage"),
        (json!("1d99999999999999999999"), "/weapon/damage"),
        (json!("8d100+8d100"), "/weapon/damage"),
        (json!(12), "/weapon/damage"),
        (json!({"dice": "1d6"}), "/weapon/damage"),
        (json!([{"dice": "1d6", "type": "fire", "x": 1}]), "/weapon/damage/0/x"),
        (json!(vec![json!({"dice": "1d6"}); 9]), "/weapon/damage"),
    ];
    for (damage, pointer) in cases {
        let mut req = longsword(json!({"mode": "odds"}));
        req["weapon"]["damage"] = damage.clone();
        let res = post_json(test_app(), "/v1/attack", &req).await;
        assert!(res.status == 422 || res.status == 400, "{damage}: {}", res.status);
        let ptrs = pointers(&res);
        assert!(ptrs.iter().any(|p| p.starts_with(pointer)), "{damage}: {ptrs:?}");
    }
    let mut req = longsword(json!({"mode": "given", "rolls": {"attack": [15], "damage": [9]}}));
    let res = post_json(test_app(), "/v1/attack", &req).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/dice/rolls/damage/0".to_owned()]));
    req["dice"] = json!({"mode": "given", "rolls": {"attack": [15], "damage": vec![1; 257]}});
    let res = post_json(test_app(), "/v1/attack", &req).await;
    assert_eq!(res.status, 422);
}

/// hb3d's grapple damage (seed 003 « Agripper », Dégâts: « à hauteur de vos dégâts à mains
/// nues. Ces dégâts peuvent être létaux ou non-létaux ») is a rule of the catalog, in RULES.md
/// §5 with seed 003 as its source, and the trace cites it where the unarmed damage is applied:
/// a Medium grappler's 1d3 (PF1's unarmed strike, `hb3d.inherit-pf1e`), lethal or nonlethal as
/// the grappler chooses.
#[tokio::test]
async fn hb3d_grapple_damage_is_a_catalogued_seed_rule_cited_in_the_trace() {
    let body = get(test_app(), "/v1/rules").await.json();
    let rules = body["rules"].as_array().unwrap();
    let r =
        rules.iter().find(|r| r["id"] == "hb3d.damage.unarmed").expect("hb3d.damage.unarmed in /v1/rules");
    assert_eq!((r["kind"].as_str(), r["section"].as_str()), (Some("seed"), Some("5")), "{r}");
    let source = r["source"].as_str().unwrap();
    assert!(source.starts_with("003_47027a1e68a4c48c.txt « Agripper »"), "{source}");
    for lang in ["summary_en", "summary_fr"] {
        assert!(r[lang].as_str().is_some_and(|s| s.contains("1d3")), "{lang}: {r}");
    }
    for nonlethal in [false, true] {
        let q = json!({
            "encounter": {
                "ruleset": "hb3d",
                "grid": {"width": 4, "height": 1},
                "creatures": [
                    {"id": "A", "side": "party", "at": {"x": 0, "y": 0}, "stats": {"cmb": 4, "str_mod": 2},
                     "conditions": ["grappled"]},
                    {"id": "T", "side": "monsters", "at": {"x": 1, "y": 0}, "stats": {"def": 15},
                     "conditions": ["grappled"]}
                ]
            },
            "kind": "grapple", "attacker": "A", "target": "T", "dice": {"mode": "odds"},
            "options": {"maintained": true, "follow_up": "damage", "nonlethal": nonlethal}
        });
        let res = post_json(test_app(), "/v1/maneuvers", &q).await;
        assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
        let body = res.json();
        let trace = body["trace"].as_array().unwrap();
        let step = trace.iter().find(|s| s["effect"]["type"] == "damage.unarmed").expect("an unarmed step");
        assert_eq!(step["rule"], "hb3d.damage.unarmed", "{body}");
        assert!(step["source"].as_str().unwrap().starts_with("003_47027a1e68a4c48c.txt"), "{step}");
        assert_eq!(
            (step["effect"]["dice"].as_str(), step["effect"]["nonlethal"].as_bool()),
            (Some("1d3"), Some(nonlethal))
        );
        assert!(!trace.iter().any(|s| s["rule"] == "pf1e.damage.unarmed"), "{body}");
        assert_eq!(body["damage"]["nonlethal"], nonlethal, "{body}");
    }
}

/// `wielding` is "the melee weapon it threatens with" (RULES.md Q-34): its reach, threat and
/// attacks of opportunity, never damage (an attack's damage is its `weapon`'s, a grapple's is
/// `options.damage`). Damage written on it is a 422 at each damage field, in every question,
/// rather than accepted and ignored; the same weapon without them is read as before.
#[tokio::test]
async fn damage_on_a_wielded_weapon_is_refused_at_its_field() {
    let longsword = json!({"kind": "melee", "name": "longsword", "damage": "1d8", "damage_type": "slashing"});
    let mut attack = self::longsword(json!({"mode": "odds"}));
    attack["encounter"]["creatures"][0]["wielding"] = longsword.clone();
    let res = post_json(test_app(), "/v1/attack", &attack).await;
    assert_eq!(
        (res.status, pointers(&res)),
        (422, vec!["/encounter/creatures/0/wielding/damage".to_owned()])
    );
    let detail = res.json()["errors"][0]["detail"].as_str().unwrap().to_owned();
    assert!(detail.contains("/v1/attack") && detail.contains("options.damage"), "{detail}");

    // Every field only damage reads, each at its pointer, in a question with no damage at all.
    let mut cover = json!({
        "encounter": attack["encounter"].clone(),
        "attacker": "A", "target": "T", "attack": "melee"
    });
    cover["encounter"]["creatures"][0]["wielding"] = json!({
        "kind": "melee", "damage": [{"dice": "1d8", "type": "slashing"}], "ability_in_damage": true,
        "crit_multiplier": 3, "grip": "two_handed", "materials": ["silver"]
    });
    let res = post_json(test_app(), "/v1/cover", &cover).await;
    let base = "/encounter/creatures/0/wielding";
    let mut got = pointers(&res);
    got.sort();
    let mut want: Vec<String> = ["ability_in_damage", "crit_multiplier", "damage", "grip", "materials"]
        .iter()
        .map(|f| format!("{base}/{f}"))
        .collect();
    want.sort();
    assert_eq!((res.status, got), (422, want), "{}", String::from_utf8_lossy(&res.body));

    // The wielded weapon without damage: the attack with its own weapon answers as before.
    attack["encounter"]["creatures"][0]["wielding"] = json!({"kind": "melee", "name": "longsword"});
    let res = post_json(test_app(), "/v1/attack", &attack).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(res.json()["damage"]["expression"], "1d8+3 slashing");
}
