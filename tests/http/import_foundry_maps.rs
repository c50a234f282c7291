//! `POST /v1/import/foundry` as a GM reads real scenes of each Foundry era (issue 26): the
//! lights of 0.7/0.8-era scenes (top-level `dim` / `bright`), the scene's darkness and global
//! illumination (9-11: `darkness`, `globalLight`, `globalLightThreshold`; 12+:
//! `environment`), lights and vision carried by tokens, invisible walls (movement only),
//! tokens in the padding, stacked tokens, the background's offset and the warnings' cap.
//!
//! Every scene below is 1000×600 px, squares of 100 px, padding 0.25: Foundry's padding is
//! `ceil(0.25 × 1000 / 100) × 100` = 300 px in x and `ceil(0.25 × 600 / 100) × 100` = 200 px
//! in y, so square (c, r) starts at canvas (300 + 100c, 200 + 100r); the map is 10 × 6.

use serde_json::{Value, json};

use super::import_foundry::{import, imported, warnings};
use super::support::*;

/// Canvas pixels of square (c, r)'s top-left corner.
fn px(c: f64, r: f64) -> (f64, f64) {
    (300.0 + 100.0 * c, 200.0 + 100.0 * r)
}

/// A 0.8-era scene (grid as a number, `gridType`, no `_stats`) with `extra` fields merged.
fn old_scene(extra: Value) -> Value {
    let mut s = json!({
        "name": "Sunless level", "width": 1000, "height": 600, "padding": 0.25,
        "grid": 100, "gridType": 1, "gridDistance": 5, "gridUnits": "ft",
        "walls": [], "lights": [], "tokens": []
    });
    for (k, v) in extra.as_object().unwrap() {
        s[k] = v.clone();
    }
    s
}

/// A Foundry 12 scene (grid object, `environment`) with `extra` fields merged.
fn v12_scene(extra: Value) -> Value {
    let mut s = json!({
        "name": "Tavern", "width": 1000, "height": 600, "padding": 0.25,
        "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},
        "tokenVision": true,
        "walls": [], "lights": [], "tokens": [],
        "_stats": {"coreVersion": "12.331"}
    });
    for (k, v) in extra.as_object().unwrap() {
        s[k] = v.clone();
    }
    s
}

fn has(answer: &Value, code: &str, pointer: &str) -> bool {
    warnings(answer).iter().any(|(c, p)| c == code && p == pointer)
}

fn token(id: &str, name: &str, (x, y): (f64, f64), extra: Value) -> Value {
    let mut t = json!({"_id": id, "name": name, "x": x, "y": y, "width": 1, "height": 1, "disposition": -1});
    for (k, v) in extra.as_object().unwrap() {
        t[k] = v.clone();
    }
    t
}

/// 0.7/0.8 scenes keep a light's radii at its top level (`dim`, `bright`), and tokens carry
/// `dimLight` / `brightLight` and see in the dark to `dimSight` (the 5e system's darkvision).
#[tokio::test]
async fn old_scenes_keep_their_lights_and_their_tokens_torches() {
    let (lx, ly) = px(2.5, 2.5);
    let scene = old_scene(json!({
        "lights": [{"t": "l", "x": lx, "y": ly, "dim": 40, "bright": 20, "angle": 360, "hidden": false}],
        "tokens": [token("t1", "Torchbearer", px(4.0, 1.0), json!({"dimLight": 40, "brightLight": 20, "dimSight": 60}))],
    }));
    let a = imported(&json!({"scene": scene})).await;
    // The light at (2.5, 2.5), 20 and 40 ft; the torch at the token's centre (4.5, 1.5).
    assert_eq!(
        a["encounter"]["grid"]["lights"],
        json!([
            {"at": {"x": 2.5, "y": 2.5}, "bright_ft": 20, "dim_ft": 40},
            {"at": {"x": 4.5, "y": 1.5}, "bright_ft": 20, "dim_ft": 40}
        ])
    );
    assert_eq!(a["encounter"]["creatures"][0]["senses"], json!({"darkvision_ft": 60}));
    assert!(!warnings(&a).iter().any(|(c, _)| c == "light_without_radius"), "{:?}", warnings(&a));
    assert!(has(&a, "token_light", "/scene/tokens/0"));
    // No darkness fields: a hand-written or pre-0.7 scene stays lit.
    assert_eq!(a["encounter"]["grid"]["light"], "bright");
}

/// The ambient light the players see: global illumination on at the scene's darkness level
/// lights the map; off, only light sources do (pitch black elsewhere, whatever the level).
#[tokio::test]
async fn scene_darkness_and_global_illumination_by_era() {
    let cases = [
        // Foundry 9-11.
        (old_scene(json!({"darkness": 0.8, "globalLight": false})), "darkness"),
        (old_scene(json!({"darkness": 0.5, "globalLight": true, "globalLightThreshold": null})), "bright"),
        // On only up to darkness 0.4: off at 0.5.
        (old_scene(json!({"darkness": 0.5, "globalLight": true, "globalLightThreshold": 0.4})), "darkness"),
        (old_scene(json!({"darkness": 0.3, "globalLight": true, "globalLightThreshold": 0.4})), "bright"),
        (old_scene(json!({"darkness": 0.0, "globalLight": false})), "darkness"),
        // Foundry 12+: global light is dim unless it says bright, within its darkness range.
        (
            v12_scene(json!({"environment": {"darknessLevel": 0.8, "globalLight": {"enabled": false}}})),
            "darkness",
        ),
        (
            v12_scene(
                json!({"environment": {"darknessLevel": 0.8, "globalLight": {"enabled": true, "bright": true}}}),
            ),
            "bright",
        ),
        (
            v12_scene(
                json!({"environment": {"darknessLevel": 0.8, "globalLight": {"enabled": true, "bright": false}}}),
            ),
            "dim",
        ),
        (
            v12_scene(
                json!({"environment": {"darknessLevel": 0.8, "globalLight": {"enabled": true, "bright": true, "darkness": {"min": 0, "max": 0.5}}}}),
            ),
            "darkness",
        ),
        // Token vision off: the players see the whole map.
        (v12_scene(json!({"tokenVision": false, "environment": {"darknessLevel": 1.0}})), "bright"),
    ];
    for (scene, light) in cases {
        let a = imported(&json!({"scene": scene.clone()})).await;
        assert_eq!(a["encounter"]["grid"]["light"], light, "{scene}");
        let code = if scene["tokenVision"] == false { "token_vision_off" } else { "ambient_light" };
        assert!(warnings(&a).iter().any(|(c, _)| c == code), "{scene}: {:?}", warnings(&a));
    }
}

/// The darkness answers the questions: PF1 (`pf1e.vision.light`) gives a target in darkness
/// total concealment (50 % miss), in dim light concealment (20 %), in bright light none.
#[tokio::test]
async fn a_dark_scene_conceals_by_its_light_sources() {
    // A torch (bright 20 ft, dim 40 ft) at square (0, 2)'s centre; the archer beside it.
    let scene = old_scene(json!({
        "darkness": 0.8, "globalLight": false,
        "tokens": [
            token("a", "archer", px(0.0, 2.0), json!({"disposition": 1, "dimLight": 40, "brightLight": 20})),
            token("b", "bright goblin", px(4.0, 2.0), json!({})),
            token("d", "dim goblin", px(7.0, 2.0), json!({})),
            token("n", "dark goblin", px(9.0, 5.0), json!({}))
        ],
    }));
    let a = imported(&json!({"scene": scene, "ruleset": "pf1e"})).await;
    // From the torch's square (0, 2): (4, 2) is 20 ft away (bright), (7, 2) 35 ft (dim),
    // (9, 5) 9 squares east and 3 south, 45 ft by PF1's 5/10 diagonals (dark).
    for (target, miss) in [("bright goblin", 0), ("dim goblin", 20), ("dark goblin", 50)] {
        let q = json!({"encounter": a["encounter"], "attacker": "archer", "target": target});
        let res = post_json(test_app(), "/v1/concealment", &q).await;
        assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
        assert_eq!(res.json()["result"]["miss_chance"], miss, "{target}: {}", res.json()["result"]);
    }
}

/// Foundry 10+ tokens: a carried light (`light`), darkvision (`sight.visionMode`) and the
/// senses of the detection modes; sources of darkness are left out with a warning.
#[tokio::test]
async fn tokens_carry_lights_and_senses_and_darkness_is_flagged() {
    let (dx, dy) = px(8.0, 4.0);
    let scene = v12_scene(json!({
        "environment": {"darknessLevel": 0.9, "globalLight": {"enabled": false}},
        "lights": [
            {"x": dx, "y": dy, "config": {"dim": 15, "bright": 0, "negative": true}},
            {"x": dx, "y": dy, "config": {"dim": 15, "bright": 5, "luminosity": -0.5}}
        ],
        "tokens": [token("t", "Dwarf", px(1.0, 1.0), json!({
            "light": {"bright": 30, "dim": 60, "negative": false},
            "sight": {"enabled": true, "range": 60, "visionMode": "darkvision"},
            "detectionModes": [
                {"id": "basicSight", "enabled": true, "range": 60},
                {"id": "feelTremor", "enabled": true, "range": 30},
                {"id": "seeAll", "enabled": false, "range": 120}
            ]
        }))],
    }));
    let a = imported(&json!({"scene": scene})).await;
    assert_eq!(
        a["encounter"]["grid"]["lights"],
        json!([{"at": {"x": 1.5, "y": 1.5}, "bright_ft": 30, "dim_ft": 60}])
    );
    assert_eq!(a["encounter"]["creatures"][0]["senses"], json!({"darkvision_ft": 60, "tremorsense_ft": 30}));
    assert!(has(&a, "darkness_source", "/scene/lights/0/config"), "{:?}", warnings(&a));
    assert!(has(&a, "darkness_source", "/scene/lights/1/config"), "{:?}", warnings(&a));
    // The overlay's senses replace the token's.
    let overlay = json!([{"token": "Dwarf", "senses": {"darkvision_ft": 120}}]);
    let a = imported(&json!({"scene": a_scene_again(), "creatures": overlay})).await;
    let senses = &a["encounter"]["creatures"][0]["senses"];
    assert_eq!((&senses["darkvision_ft"], &senses["tremorsense_ft"]), (&json!(120), &json!(0)), "{senses}");
    // A later Foundry's object of detection modes is skipped, as fields not read are.
    let mut s = a_scene_again();
    s["tokens"][0]["detectionModes"] = json!({"basicSight": {"enabled": true, "range": 60}});
    assert_eq!(import(&json!({"scene": s})).await.status, 200);
}

fn a_scene_again() -> Value {
    v12_scene(json!({"tokens": [token("t", "Dwarf", px(1.0, 1.0), json!({
        "sight": {"enabled": true, "range": 60, "visionMode": "darkvision"}
    }))]}))
}

/// A bar counter drawn as Foundry invisible walls (movement 20, sight 0) blocks movement
/// only: the barkeep behind it has no cover; `invisible_walls: "window"` keeps the former
/// reading (a window blocks attacks: total cover).
#[tokio::test]
async fn a_bar_counter_blocks_movement_not_arrows() {
    // The counter along x = 4 from y = 0 to 6 (canvas x 700, y 200 to 800).
    let counter =
        json!({"c": [700, 200, 700, 800], "move": 20, "sight": 0, "light": 0, "sound": 0, "door": 0});
    let scene = v12_scene(json!({
        "walls": [counter],
        "tokens": [
            token("p", "patron", px(1.0, 2.0), json!({"disposition": 1})),
            token("k", "barkeep", px(5.0, 2.0), json!({}))
        ],
    }));
    for (mode, degree) in [(None, "none"), (Some("window"), "total")] {
        let mut body = json!({"scene": scene});
        if let Some(m) = mode {
            body["invisible_walls"] = json!(m);
        }
        let a = imported(&body).await;
        let q = json!({"encounter": a["encounter"], "attacker": "patron", "target": "barkeep", "attack": "ranged"});
        let res = post_json(test_app(), "/v1/cover", &q).await;
        assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
        assert_eq!(res.json()["result"]["degree"], degree, "{mode:?}");
    }
    // Walking across it is refused: the step from (3, 3) to (4, 3) crosses x = 4.
    let a = imported(&json!({"scene": scene})).await;
    let mut e = a["encounter"].clone();
    e["creatures"][0]["at"] = json!({"x": 3, "y": 3});
    let q = json!({"encounter": e, "creature": "patron", "path": [{"x": 4, "y": 3}]});
    let res = post_json(test_app(), "/v1/movement", &q).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(res.json()["result"]["legal"], false, "{}", res.json()["result"]);
}

/// Tokens in the padding are left out, as walls there are; a token running past the edge is
/// moved onto the map; both with a warning, and the scene imports.
#[tokio::test]
async fn tokens_in_the_padding_are_left_out() {
    let scene = v12_scene(json!({"tokens": [
        token("in", "guard", px(2.0, 2.0), json!({})),
        // Row −1 (canvas y 100): the top padding.
        token("top", "crow", px(3.0, -1.0), json!({})),
        // A 2×2 token at column 9 runs one square past the 10 columns: moved to column 8.
        token("big", "ogre", px(9.0, 3.0), json!({"width": 2, "height": 2}))
    ]}));
    let a = imported(&json!({"scene": scene})).await;
    let ids: Vec<&str> =
        a["encounter"]["creatures"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["guard", "ogre"]);
    assert_eq!(a["encounter"]["creatures"][1]["at"], json!({"x": 8, "y": 3}));
    assert!(has(&a, "token_off_map", "/scene/tokens/1"), "{:?}", warnings(&a));
    assert!(has(&a, "token_moved_onto_map", "/scene/tokens/2"), "{:?}", warnings(&a));
    assert_eq!(a["tokens"][1]["pointer"], "/scene/tokens/2");
}

/// Six 1×1 rats on two squares: a 422 at the first stacked token that says how the overlay
/// fixes it; with the overlay's size (tiny shares squares), the scene imports.
#[tokio::test]
async fn stacked_tokens_are_told_about_the_overlay() {
    let rats: Vec<Value> =
        (0..6).map(|i| token(&format!("r{i}"), "Rat", px(f64::from(i % 2), 0.0), json!({}))).collect();
    let scene = v12_scene(json!({"tokens": rats}));
    let res = import(&json!({"scene": scene})).await;
    assert_eq!(res.status, 422);
    let errors = res.json()["errors"].clone();
    assert_eq!(errors[0]["pointer"], "/scene/tokens/2", "{errors}");
    let detail = errors[0]["detail"].as_str().unwrap();
    assert!(detail.contains(r#"{"token": "Rat", "size": "tiny"}"#), "{detail}");
    let a = imported(&json!({"scene": scene, "creatures": [{"token": "Rat", "size": "tiny"}]})).await;
    assert_eq!(a["encounter"]["creatures"].as_array().unwrap().len(), 6);
}

/// The background's offset moves the picture only; a dropped wall gets no kind warning; at
/// most 20 warnings of one kind, then one that counts the rest.
#[tokio::test]
async fn offsets_dropped_walls_and_the_warnings_cap() {
    let goblins: Vec<Value> = (0..30)
        .map(|i| token(&format!("g{i}"), "Goblin", px(f64::from(i % 10), f64::from(i / 10)), json!({})))
        .collect();
    let scene = v12_scene(json!({
        "background": {"src": "maps/town.webp", "offsetX": -16, "offsetY": -11},
        // A one-way wall wholly in the top padding (canvas y 100).
        "walls": [{"c": [300, 100, 600, 100], "move": 20, "sight": 20, "dir": 1}],
        "tokens": goblins,
    }));
    let a = imported(&json!({"scene": scene})).await;
    assert!(has(&a, "background_offset", "/scene/background"));
    assert!(has(&a, "wall_off_map", "/scene/walls/0/c"));
    assert!(!warnings(&a).iter().any(|(c, _)| c == "one_way_wall"), "{:?}", warnings(&a));
    let repeated: Vec<&Value> =
        a["warnings"].as_array().unwrap().iter().filter(|w| w["code"] == "repeated_name").collect();
    assert_eq!(repeated.len(), 21);
    assert_eq!(repeated[20]["message"], "and 10 more warnings of this kind, not listed");
    assert_eq!(a["encounter"]["creatures"].as_array().unwrap().len(), 30);
}

/// The document states the fields the import reads where it reads them: the scene's
/// `environment` is Foundry's (darkness level, global light), not the encounter's
/// `EnvironmentIn` (underwater, gravity), whose name it once shared, so that the document
/// called `{"underwater": {}}` a valid scene environment and schemathesis found it.
#[test]
fn the_documented_scene_fields_are_the_ones_read() {
    let doc = openapi_doc();
    let schemas = &doc["components"]["schemas"];
    let target = |v: &Value| -> String {
        let r = v["oneOf"]
            .as_array()
            .and_then(|b| b.iter().find_map(|b| b["$ref"].as_str()))
            .or(v["$ref"].as_str());
        r.unwrap_or_default().rsplit('/').next().unwrap_or_default().to_owned()
    };
    let scene = &schemas["SceneIn"]["properties"];
    let environment = &schemas[target(&scene["environment"])]["properties"];
    assert!(
        environment["darknessLevel"].is_object() && environment["globalLight"].is_object(),
        "{environment}"
    );
    let background = &schemas[target(&scene["background"])]["properties"];
    assert!(background["offsetX"].is_object(), "{background}");
}
