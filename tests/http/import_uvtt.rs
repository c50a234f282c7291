//! `POST /v1/import/uvtt` and the inline `"grid": {"uvtt": …}` of the questions, against
//! files written by hand from the format's description (`tests/fixtures/import/`), every
//! expected value derived by hand from the file (README.md "Importing a map" gives the
//! mapping).

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{Request, header};
use serde_json::{Value, json};

use super::support::*;

fn fixture(name: &str) -> Value {
    let path = format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn wall(from: (f64, f64), to: (f64, f64), kind: &str) -> Value {
    json!({"from": {"x": from.0, "y": from.1}, "to": {"x": to.0, "y": to.1}, "kind": kind})
}

/// The room of `uvtt-room.dd2vtt`, by hand: map origin (3, 5) subtracted from every point,
/// a 10 × 7 map (width from `map_size.x`, height from `map_size.y`).
fn room_grid() -> Value {
    json!({
        "width": 10,
        "height": 7,
        // ff404040: luminance 0.2126·64 + 0.7152·64 + 0.0722·64 = 64 of 255 = 0.25, dim
        // (from 0.10, bright from 0.50).
        "light": "dim",
        "walls": [
            // line_of_sight 0: (4,6) (12,6) (12,7) − (3,5).
            wall((1.0, 1.0), (9.0, 1.0), "solid"),
            wall((9.0, 1.0), (9.0, 2.0), "solid"),
            // line_of_sight 1: (12,8) (12,11) (4,11) (4,9) − (3,5).
            wall((9.0, 3.0), (9.0, 6.0), "solid"),
            wall((9.0, 6.0), (1.0, 6.0), "solid"),
            wall((1.0, 6.0), (1.0, 4.0), "solid"),
            // line_of_sight 2: (4,8) (4,6) − (3,5).
            wall((1.0, 3.0), (1.0, 1.0), "solid"),
            // The pillar (objects_line_of_sight 0): the square (4,3) outlined.
            wall((4.0, 3.0), (5.0, 3.0), "solid"),
            wall((5.0, 3.0), (5.0, 4.0), "solid"),
            wall((5.0, 4.0), (4.0, 4.0), "solid"),
            wall((4.0, 4.0), (4.0, 3.0), "solid"),
            // Portal 0, closed: (12,7)–(12,8) − (3,5). Portal 1, open: (4,8)–(4,9) − (3,5).
            wall((9.0, 2.0), (9.0, 3.0), "door_closed"),
            wall((1.0, 3.0), (1.0, 4.0), "door_open"),
        ],
        "lights": [
            // Range 4 squares = 20 ft of light, bright over the inner half: 10 ft.
            {"at": {"x": 2.5, "y": 2.5}, "bright_ft": 10, "dim_ft": 20},
            // Range 6 = 30 ft; intensity 0.5 (below 1): dim light only.
            {"at": {"x": 7.5, "y": 4.5}, "bright_ft": 0, "dim_ft": 30},
        ],
    })
}

fn codes(answer: &Value) -> Vec<(String, String)> {
    answer["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["code"].as_str().unwrap().to_owned(), w["pointer"].as_str().unwrap().to_owned()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect()
}

async fn import(body: &Value) -> Answer {
    post_json(test_app(), "/v1/import/uvtt", body).await
}

#[tokio::test]
async fn the_room_is_imported_wall_by_wall() {
    let res = import(&fixture("uvtt-room.dd2vtt")).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let answer = res.json();
    // Exactly the grid: no `map` (every square open), no `cells`, no `light_map`.
    assert_eq!(answer["grid"], room_grid());
    assert_eq!(
        codes(&answer),
        pairs(&[
            ("object_walls", "/objects_line_of_sight"),
            ("open_portal", "/portals/1"),
            ("light_intensity", "/lights/1/intensity"),
            ("light_color", "/lights/1/color"),
            ("ambient_light", "/environment/ambient_light"),
        ])
    );
}

#[tokio::test]
async fn warnings_are_in_the_language_asked() {
    let body = serde_json::to_vec(&fixture("uvtt-room.dd2vtt")).unwrap();
    let req = Request::post("/v1/import/uvtt")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT_LANGUAGE, "fr")
        .body(Body::from(body))
        .unwrap();
    let res = send(test_app(), req).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.headers[header::CONTENT_LANGUAGE], "fr");
    let w = &res.json()["warnings"];
    assert_eq!(w[2]["message"], "intensité 0.5\u{a0}: lumière faible seulement");
    assert_eq!(w[4]["code"], "ambient_light");
    assert!(w[4]["message"].as_str().unwrap().contains("(luminance 0.25)\u{a0}: faible"), "{w}");
}

/// Every decision of the mapping on one file (`uvtt-warnings.uvtt`), map origin (−2, −1):
/// each local point below is the file's point + (2, 1).
#[tokio::test]
async fn every_decision_is_warned_and_pointed_at() {
    let res = import(&fixture("uvtt-warnings.uvtt")).await;
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let answer = res.json();
    let expected = json!({
        // map_size 6.5 × 4: 7 whole columns (ceil), 4 rows.
        "width": 7,
        "height": 4,
        // "not a colour" is no ARGB colour: bright.
        "light": "bright",
        "walls": [
            // line 0: (1,1) (1,1) (3,1): the zero-length piece skipped, (1,1)–(3,1) kept.
            wall((1.0, 1.0), (3.0, 1.0), "solid"),
            // line 3: (6,3)–(9,3) leaves the 7-wide map at x = 7.
            wall((6.0, 3.0), (7.0, 3.0), "solid"),
            // line 5: (2,2)–(2,3), then portal 0 exactly over it: the door takes its place.
            wall((2.0, 2.0), (2.0, 3.0), "door_closed"),
            // portal 1, freestanding: (4,0)–(4,1).
            wall((4.0, 0.0), (4.0, 1.0), "door_closed"),
        ],
        "lights": [
            // (−3,−2) + (2,1) = (−1,−1), outside: moved to the corner (0,0); range 2 = 10 ft,
            // bright 5 ft.
            {"at": {"x": 0.0, "y": 0.0}, "bright_ft": 5, "dim_ft": 10},
            // light 1 has range 0: dropped. light 2: (5.5, 0.5), range 3 = 15 ft, bright
            // 7.5 ft rounded to 8; intensity 2 read as 1.
            {"at": {"x": 5.5, "y": 0.5}, "bright_ft": 8, "dim_ft": 15},
        ],
    });
    assert_eq!(answer["grid"], expected);
    assert_eq!(
        codes(&answer),
        pairs(&[
            ("map_size_rounded", "/resolution/map_size/x"),
            ("zero_length_segment", "/line_of_sight/0/1"),
            // line 1: (3,1)–(1,1) is line 0's segment reversed.
            ("duplicate_segment", "/line_of_sight/1/1"),
            ("short_polyline", "/line_of_sight/2"),
            ("outside_map", "/line_of_sight/3/1"),
            // line 4: (8,0)–(9,2), wholly outside: dropped.
            ("outside_map", "/line_of_sight/4/0"),
            ("wall_under_portal", "/portals/0/bounds/1"),
            ("freestanding_portal", "/portals/1/freestanding"),
            ("outside_map", "/lights/0/position"),
            ("light_without_shadows", "/lights/0/shadows"),
            ("light_off", "/lights/1"),
            ("light_intensity", "/lights/2/intensity"),
            ("baked_lighting", "/environment/baked_lighting"),
            ("ambient_light", "/environment/ambient_light"),
        ])
    );
}

/// A cover question about the imported room, then the same question with the file inline.
///
/// dnd5e2014, attacker (2,3), target (6,3), the pillar square (4,3) outlined by thin walls
/// between them. From the attacker's corner ⟨3,3⟩: the lines to ⟨6,3⟩ and ⟨7,3⟩ run along
/// the pillar's north side (y = 3) with both squares south of it; displaced south they cross
/// the pillar's west side, which meets the north side at ⟨4,3⟩ (RULES.md `grid.line.blocked`
/// rule 7); the line to ⟨6,4⟩ crosses the west side at y = 3 + 1/3, the line to ⟨7,4⟩ at
/// y = 3.25. The same holds from every corner (mirrored for the south side): every line is
/// blocked by the pillar's solid walls → no line of effect, total cover.
#[tokio::test]
async fn an_imported_room_answers_a_cover_question_and_so_does_the_file_inline() {
    let file = fixture("uvtt-room.dd2vtt");
    let grid = import(&file).await.json()["grid"].clone();
    let question = |grid: Value| {
        json!({
            "encounter": {
                "ruleset": "dnd5e2014",
                "grid": grid,
                "creatures": [
                    {"id": "archer", "side": "party", "at": {"x": 2, "y": 3}},
                    {"id": "orc", "side": "monsters", "at": {"x": 6, "y": 3}},
                ],
            },
            "attacker": "archer",
            "target": "orc",
            "attack": "ranged",
        })
    };
    let imported = post_json(test_app(), "/v1/cover", &question(grid)).await;
    assert_eq!(imported.status, 200, "{}", String::from_utf8_lossy(&imported.body));
    let result = &imported.json()["result"];
    assert_eq!(
        (result["degree"].as_str(), result["can_be_targeted"].as_bool()),
        (Some("total"), Some(false)),
        "{result}"
    );
    let inline = post_json(test_app(), "/v1/cover", &question(json!({"uvtt": file}))).await;
    assert_eq!(inline.status, 200, "{}", String::from_utf8_lossy(&inline.body));
    assert_eq!(inline.json(), imported.json());
}

#[tokio::test]
async fn an_inline_file_is_checked_where_it_lies() {
    let mut q = range_request();
    let mut file = fixture("uvtt-room.dd2vtt");
    file["format"] = json!(0.1);
    file["lights"][0]["position"]["x"] = json!(2_000_000);
    q["encounter"]["grid"] = json!({"uvtt": file});
    let res = post_json(test_app(), "/v1/range", &q).await;
    assert_eq!(res.status, 422);
    assert_eq!(pointers(&res), ["/encounter/grid/uvtt/format", "/encounter/grid/uvtt/lights/0/position/x"]);
    // Its settings too: a map wider than ARBITER_MAX_GRID_SIDE.
    let mut file = fixture("uvtt-room.dd2vtt");
    file["resolution"]["map_size"]["x"] = json!(1001);
    q["encounter"]["grid"] = json!({"uvtt": file.clone()});
    let res = post_json(test_app(), "/v1/range", &q).await;
    assert_eq!(pointers(&res), ["/encounter/grid/uvtt/resolution/map_size/x"]);
    // The file is the grid's only key; a wrong type inside it points into it.
    q["encounter"]["grid"] = json!({"uvtt": file.clone(), "width": 3});
    let res = post_json(test_app(), "/v1/range", &q).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/encounter/grid/width".to_owned()]));
    file["lights"][1]["range"] = json!("far");
    q["encounter"]["grid"] = json!({"uvtt": file});
    let res = post_json(test_app(), "/v1/range", &q).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/encounter/grid/uvtt/lights/1/range".to_owned()]));
}

/// A normal grid is read as before, whatever its first key, with the same problems.
#[tokio::test]
async fn a_normal_grid_reads_as_before() {
    let mut q = range_request();
    q["encounter"]["grid"] = json!({"light": "dim", "height": 5, "width": 12});
    assert_eq!(post_json(test_app(), "/v1/range", &q).await.status, 200);
    q["encounter"]["grid"] = json!({"height": 5});
    let res = post_json(test_app(), "/v1/range", &q).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/encounter/grid/width".to_owned()]));
    q["encounter"]["grid"] = json!({"width": 12, "height": 5, "walls": [], "colour": 1});
    let res = post_json(test_app(), "/v1/range", &q).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/encounter/grid/colour".to_owned()]));
}

/// Universal VTT format 1.0 (Arkenforge's current exports, RPTools/maptool#5427) has the
/// fields of 0.3: the room reads to the same grid.
#[tokio::test]
async fn format_1_0_reads_as_0_3() {
    let file = fixture("uvtt-room.dd2vtt");
    let mut newer = file.clone();
    newer["format"] = json!(1.0);
    let (old, new) = (import(&file).await, import(&newer).await);
    assert_eq!((old.status, new.status), (200, 200), "{}", String::from_utf8_lossy(&new.body));
    assert_eq!(old.json()["grid"], new.json()["grid"]);
}

#[tokio::test]
async fn bad_files_are_problems_with_pointers() {
    let mut file = fixture("uvtt-room.dd2vtt");
    file["format"] = json!(0.1);
    let res = import(&file).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/format".to_owned()]));
    assert_eq!(res.json()["errors"][0]["detail"], "format 0.1 is not read; one of: 0.2, 0.3, 1.0");

    let mut file = fixture("uvtt-room.dd2vtt");
    file["line_of_sight"][1][2]["y"] = json!(-3e6);
    let res = import(&file).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/line_of_sight/1/2/y".to_owned()]));

    // Beyond every number type: serde_json's syntax error, still a 422 at the field.
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/import/uvtt-room.dd2vtt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replacen("\"x\": 12, \"y\": 7}", "\"x\": 12, \"y\": 7e400}", 1);
    let res = post_raw(test_app(), "/v1/import/uvtt", "application/json", text.into_bytes()).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/line_of_sight/0/2/y".to_owned()]));

    let res =
        post_raw(test_app(), "/v1/import/uvtt", "application/json", b"{\"format\": 0.3, ".to_vec()).await;
    assert_eq!(res.status, 400);
    assert_eq!(res.content_type(), "application/problem+json");
    let res = post_raw(test_app(), "/v1/import/uvtt", "text/plain", b"{}".to_vec()).await;
    assert_eq!(res.status, 415);
    let res = import(&json!({"format": 0.3})).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/resolution".to_owned()]));
}

/// Too many walls for `ARBITER_MAX_WALLS` is the file's problem, at its walls.
#[tokio::test]
async fn the_settings_bound_what_the_file_makes() {
    let app = app_with(|c| c.limits.max_walls = 11);
    let res = post_json(app, "/v1/import/uvtt", &fixture("uvtt-room.dd2vtt")).await;
    // 6 room walls + 4 pillar sides + 2 portals = 12 > 11.
    assert_eq!((res.status, pointers(&res)), (422, vec!["/line_of_sight".to_owned()]));
    assert_eq!(res.json()["errors"][0]["detail"], "the file makes more than 11 walls (ARBITER_MAX_WALLS)");
}

fn with_image(chars: usize) -> Vec<u8> {
    let mut file = fixture("uvtt-room.dd2vtt");
    file["image"] = json!("");
    let text = serde_json::to_string(&file).unwrap();
    let (head, tail) = text.split_once("\"image\":\"\"").unwrap();
    let mut body = Vec::with_capacity(text.len() + chars);
    body.extend_from_slice(head.as_bytes());
    body.extend_from_slice(b"\"image\":\"");
    body.resize(body.len() + chars, b'A');
    body.extend_from_slice(b"\"");
    body.extend_from_slice(tail.as_bytes());
    body
}

#[tokio::test]
async fn a_picture_of_megabytes_is_skipped_and_one_over_the_limit_is_413() {
    let res = post_raw(test_app(), "/v1/import/uvtt", "application/json", with_image(5 << 20)).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.json()["grid"], room_grid());

    // 50 MB, over the default 32 MiB: refused where the reading was.
    let res = post_raw(test_app(), "/v1/import/uvtt", "application/json", with_image(50_000_000)).await;
    assert_eq!(res.status, 413);
    assert_eq!(res.content_type(), "application/problem+json");
    let p = res.json();
    assert_eq!(p["type"], "urn:arbiter:problem:body-too-large");
    assert_eq!(pointers(&res), ["/image"]);
    let detail = p["detail"].as_str().unwrap();
    assert!(detail.contains("33554432 bytes") && detail.contains("ARBITER_MAX_IMPORT_BYTES"), "{detail}");
}

/// A body arriving in pieces of 7 bytes (pieces split keys, numbers and escapes) reads as
/// the whole file does.
#[tokio::test]
async fn a_body_in_small_pieces_reads_the_same() {
    let bytes = serde_json::to_vec(&fixture("uvtt-room.dd2vtt")).unwrap();
    let pieces: VecDeque<Bytes> = bytes.chunks(7).map(Bytes::copy_from_slice).collect();
    let req = Request::post("/v1/import/uvtt")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::new(Pieces(pieces)))
        .unwrap();
    let res = send(test_app(), req).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.json()["grid"], room_grid());
}

/// A body of several frames.
struct Pieces(VecDeque<Bytes>);

impl http_body::Body for Pieces {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        Poll::Ready(self.0.pop_front().map(|b| Ok(http_body::Frame::data(b))))
    }
}

/// The pure conversion gives what the route answers (the command line's entry).
#[test]
fn the_pure_import_is_the_route_without_http() {
    let bytes =
        std::fs::read(format!("{}/tests/fixtures/import/uvtt-room.dd2vtt", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    let imported = arbiter_import::uvtt::import(&bytes, &arbiter::config::Limits::default()).unwrap();
    let answer = serde_json::to_value(imported.answer(arbiter_contract::lang::Lang::En)).unwrap();
    assert_eq!(answer["grid"], room_grid());
    assert_eq!(answer["warnings"].as_array().unwrap().len(), 5);
    let e =
        arbiter_import::uvtt::import(b"{\"format\": 1}", &arbiter::config::Limits::default()).unwrap_err();
    assert_eq!(e.problem(arbiter_contract::lang::Lang::En).status, 422);
}

/// Each list of a file is refused as its item one past the bound arrives (10,000 polylines,
/// portals or lights; 1,000 points a polyline), at the list's pointer in the contract's words,
/// while the body goes on without end: before, the whole file was built first (a decoded
/// bomb of empty polylines held 495 MB).
#[tokio::test]
async fn a_list_past_its_bound_is_refused_before_the_rest_is_read() {
    let point = r#"{"x":0,"y":0},"#;
    for (head, item, pointer, detail) in [
        (r#"{"format":0.3,"line_of_sight":["#, "[],", "/line_of_sight", "at most 10000 items"),
        (
            r#"{"format":0.3,"objects_line_of_sight":["#,
            "[],",
            "/objects_line_of_sight",
            "at most 10000 items",
        ),
        (r#"{"format":0.3,"line_of_sight":[[],["#, point, "/line_of_sight/1", "at most 1000 items"),
        (
            r#"{"format":0.3,"lights":["#,
            r#"{"position":{"x":0,"y":0},"range":1},"#,
            "/lights",
            "at most 10000 items",
        ),
        (
            r#"{"format":0.3,"portals":["#,
            r#"{"position":{"x":0,"y":0},"bounds":[{"x":0,"y":0},{"x":1,"y":0}]},"#,
            "/portals",
            "at most 10000 items",
        ),
    ] {
        let (res, served) = super::import_foundry::post_endless("/v1/import/uvtt", head, item).await;
        assert_eq!(
            super::import_foundry::past_bound(&res),
            (pointer.to_owned(), detail.to_owned()),
            "{head}"
        );
        // After the answer, at most LINGER_BYTES more are read and dropped (nothing kept), so
        // that a client still sending reads the answer: the parse itself stopped within 1 MiB.
        let bound = (1 << 20) + arbiter::questions::LINGER_BYTES + (64 << 10);
        assert!(served < bound, "{head}: {served} bytes were read before the refusal");
    }
}

/// A portal of three bounds is refused as the third arrives, in the words of its bound.
#[tokio::test]
async fn a_portal_of_three_bounds_is_refused_at_its_bounds() {
    let mut file = fixture("uvtt-room.dd2vtt");
    file["portals"][0]["bounds"].as_array_mut().unwrap().push(json!({"x": 0, "y": 0}));
    let res = import(&file).await;
    let pointer = "/portals/0/bounds".to_owned();
    assert_eq!(super::import_foundry::past_bound(&res), (pointer, "must hold exactly 2 points".to_owned()));
}
