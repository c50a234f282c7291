//! `POST /v1/import/foundry`: Foundry VTT scene exports to encounters. The fixtures
//! (`tests/fixtures/import/foundry-*.json`) are written from Foundry's scene format; every
//! expected value below is derived by hand from their pixels.
//!
//! `foundry-scene.json`: a 1050×800 px scene, squares of 100 px, padding 0.25. Foundry's
//! padding is `ceil(padding × side / size) × size`: x: ceil(0.25 × 1050 / 100) = ceil(2.625)
//! = 3 squares = 300 px; y: ceil(0.25 × 800 / 100) = ceil(2) = 2 squares = 200 px. A canvas
//! point (x, y) is square ((x − 300) / 100, (y − 200) / 100). The scene is ceil(10.5) = 11
//! squares wide (the last column partial) and 800 / 100 = 8 high.

use serde_json::{Value, json};

use super::support::*;

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/import/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

pub(crate) async fn import(body: &Value) -> Answer {
    post_json(test_app(), "/v1/import/foundry", body).await
}

pub(crate) async fn imported(body: &Value) -> Value {
    let res = import(body).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    res.json()
}

/// The (code, pointer) of every warning, sorted.
pub(crate) fn warnings(answer: &Value) -> Vec<(String, String)> {
    let mut w: Vec<(String, String)> = answer["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["code"].as_str().unwrap().to_owned(), w["pointer"].as_str().unwrap().to_owned()))
        .collect();
    w.sort();
    w
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect();
    v.sort();
    v
}

fn wall(x0: f64, y0: f64, x1: f64, y1: f64, kind: &str) -> Value {
    json!({"from": {"x": x0, "y": y0}, "to": {"x": x1, "y": y1}, "kind": kind})
}

#[tokio::test]
async fn the_grid_loses_the_padding_and_keeps_the_partial_column() {
    let a = imported(&json!({"scene": fixture("foundry-scene")})).await;
    let g = &a["encounter"]["grid"];
    assert_eq!((g["width"].as_i64(), g["height"].as_i64()), (Some(11), Some(8)));
    assert_eq!(a["encounter"]["ruleset"], "dnd5e2014", "the default ruleset");
}

#[tokio::test]
async fn walls_and_doors_by_kind_wall_by_wall() {
    let a = imported(&json!({"scene": fixture("foundry-scene")})).await;
    let expected = [
        // w00 [300,200,1100,200]: (0,0)–(8,0), move and sight normal.
        wall(0.0, 0.0, 8.0, 0.0, "solid"),
        // w01 [600,400,600,500]: (3,2)–(3,3), a closed door.
        wall(3.0, 2.0, 3.0, 3.0, "door_closed"),
        // w02 (4,2)–(4,3): an open door.
        wall(4.0, 2.0, 4.0, 3.0, "door_open"),
        // w03 (5,2)–(5,3): a locked door is closed.
        wall(5.0, 2.0, 5.0, 3.0, "door_closed"),
        // w04 (6,2)–(6,3): a closed secret door.
        wall(6.0, 2.0, 6.0, 3.0, "door_closed"),
        // w05 (7,2)–(7,3): an open secret door.
        wall(7.0, 2.0, 7.0, 3.0, "door_open"),
        // w06 [300,700,650,700]: (0,5)–(3.5,5), one-way: blocks both ways.
        wall(0.0, 5.0, 3.5, 5.0, "solid"),
        // w07 [800,600,800,850]: (5,4)–(5,6.5), sight 10 (terrain): a low obstacle.
        wall(5.0, 4.0, 5.0, 6.5, "low"),
        // w08 [1100,600,1100,900]: (8,4)–(8,7), movement only (an invisible wall): a
        // barrier, which blocks movement only, as in Foundry.
        wall(8.0, 4.0, 8.0, 7.0, "barrier"),
        // w09 [1200,300,1200,500]: (9,1)–(9,3), sight 30 (proximity): a window.
        wall(9.0, 1.0, 9.0, 3.0, "window"),
        // w10 (sight only) is left out. w11 [100,950,500,950]: (−2,7.5)–(2,7.5), cut at x = 0.
        wall(0.0, 7.5, 2.0, 7.5, "solid"),
        // w12 [0,0,200,0]: (−3,−2)–(−1,−2), wholly in the padding: left out.
        // w13 [350,250,475,250]: (0.5,0.5)–(1.75,0.5).
        wall(0.5, 0.5, 1.75, 0.5, "solid"),
    ];
    assert_eq!(a["encounter"]["grid"]["walls"], Value::Array(expected.to_vec()));
    // The former reading, on request: a window (movement and attacks blocked, sight passes).
    let a = imported(&json!({"scene": fixture("foundry-scene"), "invisible_walls": "window"})).await;
    let mut expected = expected.to_vec();
    expected[8] = wall(8.0, 4.0, 8.0, 7.0, "window");
    assert_eq!(a["encounter"]["grid"]["walls"], Value::Array(expected));
}

#[tokio::test]
async fn lights_in_feet_on_the_map_only() {
    let a = imported(&json!({"scene": fixture("foundry-scene")})).await;
    // l0 at (550, 450): ((550−300)/100, (450−200)/100) = (2.5, 2.5); 20 and 40 ft with 5 ft
    // squares. l1 is switched off; l2 at x = 100 lies in the padding (−2).
    assert_eq!(
        a["encounter"]["grid"]["lights"],
        json!([{"at": {"x": 2.5, "y": 2.5}, "bright_ft": 20, "dim_ft": 40}])
    );
}

#[tokio::test]
async fn one_creature_per_token_creature_by_creature() {
    let a = imported(&json!({"scene": fixture("foundry-scene")})).await;
    let c = &a["encounter"]["creatures"];
    let expected = json!([
        // (300,300): (0,1); disposition 1.
        {"id": "Valeros", "side": "friendly", "at": {"x": 0, "y": 1}, "size": "medium", "elevation_ft": 0},
        // (700,600): (4,4); 2×2 squares: Large; elevation 10 ft.
        {"id": "Ogre", "side": "hostile", "at": {"x": 4, "y": 4}, "size": "large", "elevation_ft": 10},
        // Two tokens called Goblin, numbered in scene order; (900,700): (6,5), hidden.
        {"id": "Goblin 1", "side": "hostile", "at": {"x": 6, "y": 5}, "size": "medium", "elevation_ft": 0},
        // (1000,700): (7,5).
        {"id": "Goblin 2", "side": "hostile", "at": {"x": 7, "y": 5}, "size": "medium", "elevation_ft": 0},
        // 0.5×0.5 at (350,850): centre ((350+25−300)/100, (850+25−200)/100) = (0.75, 6.75),
        // square (0,6); smaller than a square: Tiny.
        {"id": "Rat", "side": "hostile", "at": {"x": 0, "y": 6}, "size": "tiny", "elevation_ft": 0},
        // (1300,900): (10,7), in the partial last column; disposition 0; 15 ft up.
        {"id": "Bat", "side": "neutral", "at": {"x": 10, "y": 7}, "size": "medium", "elevation_ft": 15}
    ]);
    assert_eq!(c, &expected);
    let tokens: Vec<&str> =
        a["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap()).collect();
    assert_eq!(
        tokens,
        [
            "tokValeros0001",
            "tokOgre000001",
            "tokGoblin0001",
            "tokGoblin0002",
            "tokRat0000001",
            "tokBat0000001"
        ]
    );
    assert_eq!(
        a["tokens"][2],
        json!({"creature": "Goblin 1", "token": "tokGoblin0001", "actor": "actGoblin", "pointer": "/scene/tokens/2"})
    );
}

#[tokio::test]
async fn every_decision_is_a_warning_at_its_source() {
    let a = imported(&json!({"scene": fixture("foundry-scene")})).await;
    let expected = pairs(&[
        ("partial_square", "/scene/width"),
        ("secret_door", "/scene/walls/4"),
        ("secret_door", "/scene/walls/5"),
        ("one_way_wall", "/scene/walls/6"),
        ("terrain_wall", "/scene/walls/7"),
        ("movement_only_wall", "/scene/walls/8"),
        ("proximity_wall", "/scene/walls/9"),
        ("sight_only_wall", "/scene/walls/10"),
        ("wall_clipped", "/scene/walls/11/c"),
        ("wall_off_map", "/scene/walls/12/c"),
        ("light_off", "/scene/lights/1/hidden"),
        ("light_off_map", "/scene/lights/2"),
        ("repeated_name", "/scene/tokens/2"),
        ("repeated_name", "/scene/tokens/3"),
        ("hidden_token", "/scene/tokens/2/hidden"),
        ("footprint_rounded", "/scene/tokens/4"),
    ]);
    assert_eq!(warnings(&a), expected);
}

#[tokio::test]
async fn warnings_follow_the_language_asked() {
    let req = axum::http::Request::post("/v1/import/foundry")
        .header("content-type", "application/json")
        .header("accept-language", "fr")
        .body(axum::body::Body::from(json!({"scene": fixture("foundry-scene")}).to_string()))
        .unwrap();
    let a = send(test_app(), req).await.json();
    let secret = a["warnings"].as_array().unwrap().iter().find(|w| w["code"] == "secret_door").unwrap();
    assert!(secret["message"].as_str().unwrap().starts_with("une porte secrète"), "{secret}");
}

#[tokio::test]
async fn older_constants_are_read_by_the_version_else_flagged() {
    // Grid of 50 px; padding x: ceil(0.25 × 500 / 50) = ceil(2.5) = 3 squares = 150 px,
    // y: ceil(0.25 × 400 / 50) = 2 squares = 100 px; 500/50 × 400/50 = 10 × 8 squares.
    let scene = fixture("foundry-old");
    let a = imported(&json!({"scene": scene})).await;
    assert_eq!(
        (a["encounter"]["grid"]["width"].as_i64(), a["encounter"]["grid"]["height"].as_i64()),
        (Some(10), Some(8))
    );
    let expected = json!([
        // o0 (200,150)–(450,150): (1,1)–(6,1); move 1 and sense 1 are the old NORMAL.
        wall(1.0, 1.0, 6.0, 1.0, "solid"),
        // o1 (1,3)–(6,3); sense 2 is the old LIMITED: a terrain wall.
        wall(1.0, 3.0, 6.0, 3.0, "low"),
        // o2 (300,150)–(300,250): (3,1)–(3,3), a closed door.
        wall(3.0, 1.0, 3.0, 3.0, "door_closed"),
    ]);
    assert_eq!(a["encounter"]["grid"]["walls"], expected);
    // (250,200): (2,2).
    assert_eq!(a["encounter"]["creatures"][0]["at"], json!({"x": 2, "y": 2}));
    assert_eq!(
        warnings(&a),
        pairs(&[("old_wall_constants", "/scene/walls/0"), ("terrain_wall", "/scene/walls/1")])
    );
    // A scene that says it was written by Foundry 0.8 is read so without a warning.
    let mut dated = fixture("foundry-old");
    dated["_stats"] = json!({"coreVersion": "0.8.9"});
    let a = imported(&json!({"scene": dated})).await;
    assert_eq!(warnings(&a), pairs(&[("terrain_wall", "/scene/walls/1")]));
}

#[tokio::test]
async fn the_overlay_merges_stats_conditions_and_senses() {
    let a = imported(&json!({
        "scene": fixture("foundry-scene"),
        "ruleset": "dnd5e2024",
        "creatures": [
            {"token": "tokOgre000001", "stats": {"ac": 11, "hp": 59}, "senses": {"darkvision_ft": 60}},
            {"token": "Goblin", "stats": {"ac": 15}, "conditions": ["prone"]},
            {"token": "Valeros", "side": "party", "size": "small"}
        ]
    }))
    .await;
    let c = &a["encounter"]["creatures"];
    assert_eq!(a["encounter"]["ruleset"], "dnd5e2024");
    assert_eq!(c[1]["stats"], json!({"ac": 11, "hp": 59}));
    assert_eq!(c[1]["senses"]["darkvision_ft"], 60);
    // A name shared by two tokens gives both the overlay.
    for g in [2, 3] {
        assert_eq!(c[g]["stats"], json!({"ac": 15}));
        assert_eq!(c[g]["conditions"], json!(["prone"]));
    }
    assert_eq!((c[0]["side"].as_str(), c[0]["size"].as_str()), (Some("party"), Some("small")));
    assert_eq!(a["tokens"][1]["overlay"], "/creatures/0");
}

#[tokio::test]
async fn an_invalid_overlay_points_at_its_field() {
    let mut body =
        json!({"scene": fixture("foundry-scene"), "creatures": [{"token": "Ogre", "stats": {"ac": 5000}}]});
    let res = import(&body).await;
    assert_eq!(res.status, 422);
    assert_eq!(pointers(&res), ["/creatures/0/stats/ac"]);
    body["creatures"] = json!([{"token": "Ogre", "stats": {"armor": 3}}]);
    assert_eq!(pointers(&import(&body).await), ["/creatures/0/stats/armor"]);
    body["creatures"] = json!([{"token": "Nobody"}]);
    assert_eq!(pointers(&import(&body).await), ["/creatures/0/token"]);
    body["creatures"] = json!([{"token": "Ogre"}, {"token": "tokOgre000001"}]);
    assert_eq!(pointers(&import(&body).await), ["/creatures/1/token"]);
    // A condition the ruleset does not know, found when the encounter is checked: moved to
    // the overlay's field.
    body["ruleset"] = json!("pf1e");
    body["creatures"] = json!([{"token": "Ogre", "conditions": ["exhaustion"]}]);
    let res = import(&body).await;
    assert_eq!(res.status, 422, "{}", res.json());
    assert!(pointers(&res).iter().all(|p| p.starts_with("/creatures/0/conditions/")), "{}", res.json());
}

/// A scene 6×3 squares after its padding: 600×300 px, squares of 100 px, padding 0.25:
/// x: ceil(150 / 100) = 2 squares = 200 px, y: ceil(75 / 100) = 1 square = 100 px. A door
/// from (500,100) to (500,400) is x = 3 from y = 0 to y = 3: the grid's whole height.
fn door_scene(ds: i64) -> Value {
    json!({"scene": {
        "width": 600, "height": 300, "padding": 0.25,
        "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},
        "walls": [{"c": [500, 100, 500, 400], "move": 20, "sight": 20, "light": 20, "sound": 20, "door": 1, "ds": ds}],
        "tokens": [
            {"_id": "a", "name": "archer", "x": 200, "y": 200, "disposition": 1},
            {"_id": "o", "name": "orc", "x": 600, "y": 200, "disposition": -1}
        ]
    }})
}

#[tokio::test]
async fn the_encounter_made_answers_a_cover_question() {
    for (ds, degree) in [(0, "total"), (2, "total"), (1, "none")] {
        let a = imported(&door_scene(ds)).await;
        // archer (200,200): (0,1); orc (600,200): (4,1).
        assert_eq!(a["encounter"]["creatures"][0]["at"], json!({"x": 0, "y": 1}));
        assert_eq!(a["encounter"]["creatures"][1]["at"], json!({"x": 4, "y": 1}));
        let q =
            json!({"encounter": a["encounter"], "attacker": "archer", "target": "orc", "attack": "ranged"});
        let res = post_json(test_app(), "/v1/cover", &q).await;
        assert_eq!(res.status, 200, "{}", res.json());
        // Closed or locked: every line from the archer's squares (x 0 to 1, y 1 to 2) to the
        // orc's (x 4 to 5, y 1 to 2) crosses x = 3 between y = 1 and 2, on the door (y 0 to
        // 3): total cover (5e). Open: nothing else on the map, no cover.
        assert_eq!(res.json()["result"]["degree"], degree, "ds {ds}");
    }
}

#[tokio::test]
async fn the_encounter_made_answers_a_flanking_question() {
    let a = imported(&json!({"scene": fixture("foundry-scene")})).await;
    let q = json!({"encounter": a["encounter"], "attacker": "Valeros", "target": "Ogre"});
    let res = post_json(test_app(), "/v1/flanking", &q).await;
    assert_eq!(res.status, 200, "{}", res.json());
    // Valeros's only allies are on his side, "friendly": nobody else; no flank.
    assert_eq!(res.json()["result"]["flanked"], false);
}

#[tokio::test]
async fn gridless_and_hexagonal_scenes_are_422_at_the_grid_type() {
    for (t, word) in [(0, "gridless"), (2, "hexagonal"), (5, "hexagonal")] {
        let mut body = door_scene(0);
        body["scene"]["grid"]["type"] = json!(t);
        let res = import(&body).await;
        assert_eq!(res.status, 422);
        assert_eq!(pointers(&res), ["/scene/grid/type"]);
        assert!(res.json()["errors"][0]["detail"].as_str().unwrap().contains(word), "{}", res.json());
    }
    let mut old = fixture("foundry-old");
    old["gridType"] = json!(0);
    assert_eq!(pointers(&import(&json!({"scene": old})).await), ["/scene/gridType"]);
    // In the language asked.
    let mut body = door_scene(0);
    body["scene"]["grid"]["type"] = json!(0);
    let req = axum::http::Request::post("/v1/import/foundry")
        .header("content-type", "application/json")
        .header("accept-language", "fr")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    let res = send(test_app(), req).await;
    assert_eq!(res.headers["content-language"], "fr");
    assert!(
        res.json()["errors"][0]["detail"].as_str().unwrap().starts_with("une scène sans grille"),
        "{}",
        res.json()
    );
}

#[tokio::test]
async fn bad_files_are_problems_with_a_pointer_never_500() {
    let cases = [
        ("/scene/walls/0/c/1", json!(1e12)),
        ("/scene/walls/0/c", json!([1, 2, 3])),
        ("/scene/walls/0/sight", json!(25)),
        ("/scene/tokens/1/x", json!("NaN")),
        ("/scene/tokens/1/width", json!(0)),
        ("/scene/padding", json!(0.9)),
        // 500,000 px at 100 px a square: 5,000 squares, past the 1,000 of a grid.
        ("/scene/width", json!(500_000)),
        ("/scene/grid/size", json!(-100)),
        ("/scene/walls", Value::Array(vec![json!({"c": [0, 0, 1, 1]}); 10_001])),
        ("/extra", json!(1)),
    ];
    for (pointer, value) in cases {
        let mut body = door_scene(0);
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        match body.pointer_mut(parent).unwrap() {
            Value::Array(a) => a[key.parse::<usize>().unwrap()] = value,
            other => other[key] = value,
        }
        let res = import(&body).await;
        assert_eq!(res.status, 422, "{pointer}: {}", String::from_utf8_lossy(&res.body));
        assert_eq!(res.content_type(), "application/problem+json");
        assert!(pointers(&res).iter().any(|p| p == pointer), "{pointer}: {}", res.json());
    }
    // Bytes that are not JSON, and numbers JSON cannot hold.
    let res = post_raw(test_app(), "/v1/import/foundry", "application/json", b"{\"scene\": {".to_vec()).await;
    assert_eq!(res.status, 400);
    let res = post_raw(
        test_app(),
        "/v1/import/foundry",
        "application/json",
        br#"{"scene": {"width": 1e400}}"#.to_vec(),
    )
    .await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/scene/width".to_owned()]));
    let res = post_raw(test_app(), "/v1/import/foundry", "text/plain", b"{}".to_vec()).await;
    assert_eq!(res.status, 415);
}

#[tokio::test]
async fn a_scene_with_its_thumbnail_passes_the_question_limit_but_not_the_import_limit() {
    // 3 MiB of thumbnail: three times the questions' 1 MiB, within the 32 MiB import limit.
    let mut body = door_scene(0);
    body["scene"]["thumb"] = json!(format!("data:image/webp;base64,{}", "A".repeat(3 << 20)));
    assert_eq!(import(&body).await.status, 200);
    let small = app_with(|c| c.limits.max_import_bytes = 1 << 20);
    let res = post_json(small, "/v1/import/foundry", &body).await;
    assert_eq!(res.status, 413);
    assert!(res.json()["detail"].as_str().unwrap().contains("1048576"), "{}", res.json());
}

/// A body that sends its first bytes and then nothing more: its import holds a place at the
/// imports' gate while it waits.
struct Stalled(Option<axum::body::Bytes>);

impl http_body::Body for Stalled {
    type Data = axum::body::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        match self.0.take() {
            Some(b) => std::task::Poll::Ready(Some(Ok(http_body::Frame::data(b)))),
            None => std::task::Poll::Pending,
        }
    }
}

/// With one rules worker the imports' gate holds one import: while a Universal VTT upload
/// is still arriving, a Foundry import is turned away at once (503), not buffered as well.
#[tokio::test]
async fn the_foundry_import_shares_the_imports_gate() {
    let app = app_with(|c| c.rules_workers = Some(1));
    let slow = axum::http::Request::post("/v1/import/uvtt")
        .header(axum::http::header::CONTENT_TYPE, "application/json")
        .body(axum::body::Body::new(Stalled(Some(axum::body::Bytes::from_static(b"{\"format\": 0.3, ")))))
        .unwrap();
    let held = tokio::spawn(tower::ServiceExt::oneshot(app.clone(), slow));
    // The test runs on one thread: yielding lets the upload's task run until it waits for
    // the rest of its body, holding its place. It gives the place back once its reader
    // thread sees the body dropped: that is polled, not slept on.
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    let status_until = |want: u16| {
        let app = app.clone();
        async move {
            let mut last = 0;
            for _ in 0..250 {
                last = post_json(app.clone(), "/v1/import/foundry", &door_scene(0)).await.status;
                if last == want {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            last
        }
    };
    let res = post_json(app.clone(), "/v1/import/foundry", &door_scene(0)).await;
    assert_eq!(res.status, 503, "the Foundry import went past a full gate");
    held.abort();
    assert_eq!(status_until(200).await, 200, "the gate was not given back");
}

/// A body that never ends: `head`, then `item` again and again, in pieces of about 64 KiB,
/// counting the bytes it has handed out. Read whole it would pass any limit.
pub(crate) struct Endless {
    head: Option<axum::body::Bytes>,
    piece: axum::body::Bytes,
    served: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Endless {
    /// The body, and the count of the bytes it handed out.
    pub(crate) fn new(head: &str, item: &str) -> (Endless, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
        let served = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let piece = item.repeat((64 * 1024) / item.len()).into();
        (Endless { head: Some(head.to_owned().into()), piece, served: served.clone() }, served)
    }
}

impl http_body::Body for Endless {
    type Data = axum::body::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let data = self.head.take().unwrap_or_else(|| self.piece.clone());
        self.served.fetch_add(data.len(), std::sync::atomic::Ordering::Relaxed);
        std::task::Poll::Ready(Some(Ok(http_body::Frame::data(data))))
    }
}

/// Posts an endless list to an import route: the answer, and the bytes the body handed out
/// before it came.
pub(crate) async fn post_endless(path: &str, head: &str, item: &str) -> (Answer, usize) {
    let (body, served) = Endless::new(head, item);
    let req = axum::http::Request::post(path)
        .header(axum::http::header::CONTENT_TYPE, "application/json")
        .body(axum::body::Body::new(body))
        .unwrap();
    let res = send(test_app(), req).await;
    (res, served.load(std::sync::atomic::Ordering::Relaxed))
}

/// The one problem of a list refused past its bound: its pointer and its English detail.
pub(crate) fn past_bound(res: &Answer) -> (String, String) {
    assert_eq!(res.status, 422, "{}", String::from_utf8_lossy(&res.body));
    let errors = res.json()["errors"].as_array().unwrap().clone();
    assert_eq!(errors.len(), 1, "{errors:?}");
    (errors[0]["pointer"].as_str().unwrap().to_owned(), errors[0]["detail"].as_str().unwrap().to_owned())
}

/// Each list of the scene is refused as its item one past the bound arrives (500 tokens, the
/// defaults' ARBITER_MAX_CREATURES; 10,000 walls and lights, ARBITER_MAX_WALLS), with the
/// contract's words at the list's pointer, while the body goes on without end: before, the
/// whole body was read first (32 MiB, then 413) and a decoded bomb held gigabytes.
#[tokio::test]
async fn a_list_past_its_bound_is_refused_before_the_rest_is_read() {
    for (head, item, pointer, detail) in [
        (r#"{"scene":{"tokens":["#, "{},", "/scene/tokens", "at most 500 items"),
        (r#"{"scene":{"lights":["#, "{},", "/scene/lights", "at most 10000 items"),
        (r#"{"scene":{"walls":["#, r#"{"c":[0,0,1,1]},"#, "/scene/walls", "at most 10000 items"),
        (r#"{"scene":{},"creatures":["#, r#"{"token":"a"},"#, "/creatures", "at most 500 items"),
    ] {
        let (res, served) = post_endless("/v1/import/foundry", head, item).await;
        assert_eq!(past_bound(&res), (pointer.to_owned(), detail.to_owned()), "{head}");
        // The parser reads 64 KiB ahead and the channel holds 4 pieces of 64 KiB.
        // After the answer, at most LINGER_BYTES more are read and dropped (nothing kept), so
        // that a client still sending reads the answer: the parse itself stopped within 1 MiB.
        let bound = (1 << 20) + arbiter::questions::LINGER_BYTES + (64 << 10);
        assert!(served < bound, "{head}: {served} bytes were read before the refusal");
    }
}

/// A wall's `c` of 5 numbers is refused at the wall as the fifth arrives (the contract's
/// words), and an overlay's 65th condition likewise.
#[tokio::test]
async fn a_nested_list_one_past_its_bound_points_at_itself() {
    let res = import(&json!({"scene": {"walls": [{"c": [0, 0, 100, 0]}, {"c": [0, 0, 1, 1, 2]}]}})).await;
    assert_eq!(past_bound(&res), ("/scene/walls/1/c".to_owned(), "at most 4 items".to_owned()));
    let conditions = vec![json!("prone"); 65];
    let body =
        json!({"scene": door_scene(0)["scene"], "creatures": [{"token": "a", "conditions": conditions}]});
    let res = import(&body).await;
    assert_eq!(past_bound(&res), ("/creatures/0/conditions".to_owned(), "at most 64 items".to_owned()));
}
