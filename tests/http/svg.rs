//! The SVG drawings (`Accept: image/svg+xml`), parsed and checked against the JSON answer of
//! the same request for every fixture of the cover and movement tests, and for the flanking,
//! concealment and analysis fixtures: what must be there (a Large target's four squares, a
//! cross per blocked line, total cover's lines all red, an arrow per attack of opportunity
//! naming its attacker…), labels that neither overlap nor leave the canvas, a legend of only
//! the kinds drawn, captions in French under `fr`, and `?scale=`.

use std::collections::HashSet;

use axum::body::Body;
use axum::http::{Request, header};
use roxmltree::{Document, Node};
use serde_json::{Value, json};

use super::support::{fixtures_of, post_json, send, test_app};

const GREEN: &str = "#009E73";
const RED: &str = "#D55E00";

/// The drawing and the JSON answer of one request.
async fn both(path: &str, body: &Value, lang: &str, query: &str) -> (u16, String, Value) {
    let req = Request::post(format!("{path}{query}"))
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "image/svg+xml")
        .header(header::ACCEPT_LANGUAGE, lang)
        .body(Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap();
    let res = send(test_app(), req).await;
    let status = res.status;
    let text = String::from_utf8(res.body).unwrap();
    let json = if status == 200 { post_json(test_app(), path, body).await.json() } else { Value::Null };
    (status, text, json)
}

fn class_of<'a>(n: &Node<'a, '_>) -> Vec<&'a str> {
    n.attribute("class").map(|c| c.split(' ').collect()).unwrap_or_default()
}

fn with_class<'a, 'i>(doc: &'a Document<'i>, class: &str) -> Vec<Node<'a, 'i>> {
    doc.descendants().filter(|n| n.is_element() && class_of(n).contains(&class)).collect()
}

fn num(n: &Node<'_, '_>, a: &str) -> f64 {
    n.attribute(a).unwrap_or_else(|| panic!("no {a} on {n:?}")).parse().unwrap()
}

#[derive(Debug, Clone, Copy)]
struct Box2 {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

fn box_of(n: &Node<'_, '_>) -> Box2 {
    Box2 { x: num(n, "x"), y: num(n, "y"), w: num(n, "width"), h: num(n, "height") }
}

fn overlap(a: Box2, b: Box2) -> bool {
    a.x + 0.01 < b.x + b.w && b.x + 0.01 < a.x + a.w && a.y + 0.01 < b.y + b.h && b.y + 0.01 < a.y + a.h
}

/// What every drawing must be: well-formed, a viewBox that is the drawing's size, the map
/// inside its margin, labels within the canvas and not overlapping, a legend of only the kinds
/// drawn. Returns the scale.
fn check_canvas(name: &str, text: &str) -> f64 {
    let doc = Document::parse(text).unwrap_or_else(|e| panic!("{name}: not well-formed: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "{name}");
    let (w, h) = (num(&root, "width"), num(&root, "height"));
    assert_eq!(root.attribute("viewBox"), Some(format!("0 0 {w} {h}").as_str()), "{name}");
    let margin = num(&root, "data-margin");
    assert!(margin >= 20.0, "{name}: margin {margin}");
    let frame = box_of(&with_class(&doc, "grid-frame")[0]);
    assert!(frame.x >= margin - 0.01 && frame.y >= margin - 0.01, "{name}: {frame:?}");
    assert!(frame.x + frame.w <= w - margin + 0.01, "{name}: {frame:?} in {w}");
    assert!(frame.y + frame.h <= h - margin + 0.01, "{name}: {frame:?} in {h}");
    let boxes: Vec<Box2> = with_class(&doc, "label-box").iter().map(box_of).collect();
    for (i, b) in boxes.iter().enumerate() {
        assert!(
            b.x >= 0.0 && b.y >= 0.0 && b.x + b.w <= w && b.y + b.h <= h,
            "{name}: label {b:?} leaves the canvas"
        );
        for o in &boxes[i + 1..] {
            assert!(!overlap(*b, *o), "{name}: labels {b:?} and {o:?} overlap");
        }
    }
    for item in with_class(&doc, "legend-item") {
        let kind = item.attribute("data-kind").unwrap();
        assert!(drawn(&doc, kind), "{name}: the legend lists {kind}, not drawn");
    }
    let listed: HashSet<&str> =
        with_class(&doc, "legend-item").iter().filter_map(|n| n.attribute("data-kind")).collect();
    for kind in kinds_drawn(&doc) {
        assert!(listed.contains(kind.as_str()), "{name}: {kind} is drawn but not in the legend {listed:?}");
    }
    num(&root, "data-scale")
}

/// Whether the map draws an element of the legend's `kind`.
fn drawn(doc: &Document<'_>, kind: &str) -> bool {
    kinds_drawn(doc).contains(kind)
}

/// The legend kinds of the elements drawn.
fn kinds_drawn(doc: &Document<'_>) -> HashSet<String> {
    let mut out = HashSet::new();
    for n in doc.descendants().filter(|n| n.is_element()) {
        let attr = |a: &str| n.attribute(a).unwrap_or("");
        for class in class_of(&n) {
            let kind = match class {
                "terrain" => format!("terrain-{}", attr("data-kind")),
                "wall" => format!("wall-{}", attr("data-kind")),
                "blocker" => format!("blocker-{}", attr("data-kind")),
                "ray" => format!("ray-{}", attr("data-status")),
                "step" => format!("step-{}", attr("data-status")),
                "light" => format!("light-{}", attr("data-level")),
                "sight-line" => {
                    format!("sight-{}", if attr("data-concealed") == "true" { "concealed" } else { "clear" })
                }
                "oa-ring" => "oa".to_owned(),
                "hit" | "corner" | "origin" | "target-square" | "light-source" | "start" | "last-legal"
                | "reach" | "threat" | "flank-line" => class.to_owned(),
                _ => continue,
            };
            out.insert(kind);
        }
    }
    out
}

/// The side of a creature's space, from the fixture's request (`size`).
fn side(req: &Value, id: &str) -> usize {
    let c = req["encounter"]["creatures"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap();
    match c["size"].as_str().unwrap_or("medium") {
        "large" => 2,
        "huge" => 3,
        "gargantuan" | "colossal" => 4,
        _ => 1,
    }
}

/// The texts of the caption.
fn caption(doc: &Document<'_>) -> Vec<String> {
    with_class(doc, "caption")[0].descendants().filter_map(|n| n.text()).map(str::to_owned).collect()
}

/// A French drawing: the caption starts as expected and no text is a raw id.
fn check_french(name: &str, text: &str, starts: &str, ids: &HashSet<String>) {
    let doc = Document::parse(text).unwrap();
    let cap = caption(&doc);
    assert!(cap[0].starts_with(starts), "{name}: {cap:?}");
    for t in
        doc.descendants().filter(|n| n.is_element() && n.tag_name().name() == "text").filter_map(|n| n.text())
    {
        if ids.contains(t) {
            continue;
        }
        for token in t.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')) {
            let raw = token.contains('_') && !token.contains('.') && !ids.contains(token);
            assert!(!raw, "{name}: raw id {token} in «{t}»");
        }
    }
}

fn ids(req: &Value) -> HashSet<String> {
    req["encounter"]["creatures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

/// Every cover fixture: the target's squares, a blocker outline for every counted element, one
/// ray per traced line coloured by its verdict with a cross on each blocked one, total cover's
/// tried lines all red, the chosen corner, the badge; the same in French.
#[tokio::test]
async fn every_cover_fixture_is_drawn_with_what_blocked_it() {
    let mut drawn = 0;
    for case in fixtures_of("cover/cases") {
        let name = case["name"].as_str().unwrap();
        let req = &case["request"];
        let (status, text, answer) = both("/v1/cover", req, "en", "").await;
        if case["status"].as_u64().is_some_and(|s| s != 200) {
            continue;
        }
        assert_eq!(status, 200, "{name}: {text}");
        drawn += 1;
        let scale = check_canvas(name, &text);
        let doc = Document::parse(&text).unwrap();
        let result = &answer["result"];
        let target = req["target"].as_str().unwrap();
        let t = side(req, target);
        assert_eq!(with_class(&doc, "target-square").len(), t * t, "{name}: the target's squares");
        let rays = with_class(&doc, "ray");
        let lines = result["lines"].as_array().unwrap();
        if result["degree"] == "total" {
            let a = side(req, req["attacker"].as_str().unwrap());
            let from = if req["attack"] == "area" { 1 } else { (a + 1) * (a + 1) };
            assert!(lines.is_empty(), "{name}");
            assert_eq!(rays.len(), from * (t + 1) * (t + 1), "{name}: every line tried");
            assert!(
                rays.iter()
                    .all(|r| r.attribute("stroke") == Some(RED)
                        && r.attribute("data-status") == Some("attempt")),
                "{name}"
            );
        } else {
            assert_eq!(rays.len(), lines.len(), "{name}");
            let hits = with_class(&doc, "hit");
            for (i, l) in lines.iter().enumerate() {
                let ray = rays.iter().find(|r| r.attribute("data-line") == Some(&i.to_string())).unwrap();
                let blocked = l["blocked"] == true;
                assert_eq!(
                    ray.attribute("stroke"),
                    Some(if blocked { RED } else { GREEN }),
                    "{name}: line {i}"
                );
                let marks = hits.iter().filter(|h| h.attribute("data-line") == Some(&i.to_string())).count();
                assert_eq!(marks > 0, blocked, "{name}: line {i} has {marks} hit marks");
            }
        }
        let blockers = with_class(&doc, "blocker");
        for hit in lines.iter().flat_map(|l| l["hits"].as_array().unwrap()).filter(|h| h["counted"] == true) {
            for by in hit["by"].as_array().unwrap() {
                let found = blockers.iter().any(|b| match by["kind"].as_str().unwrap() {
                    "wall" => {
                        b.attribute("data-kind")
                            == Some(&format!("wall-{}", by["wall_kind"].as_str().unwrap()))
                    }
                    kind => {
                        b.attribute("data-kind") == Some(kind)
                            && b.attribute("data-x") == Some(&by["square"]["x"].to_string())
                            && b.attribute("data-y") == Some(&by["square"]["y"].to_string())
                    }
                });
                assert!(found, "{name}: blocker {by} not highlighted");
            }
        }
        if let Some(corner) = result.get("corner").filter(|_| req["attack"] != "area") {
            let dot = &with_class(&doc, "corner")[0];
            let margin = num(&doc.root_element(), "data-margin");
            assert_eq!(num(dot, "cx"), margin + corner["x"].as_f64().unwrap() * scale, "{name}");
        }
        assert_eq!(with_class(&doc, "badge").len(), 1, "{name}: one cover badge");
        let (_, fr, _) = both("/v1/cover", req, "fr", "").await;
        check_french(name, &fr, "Abri de", &ids(req));
    }
    assert!(drawn > 70, "{drawn} cover fixtures drawn");
}

/// The statuses the steps must have: after the first illegal step, every step is "after".
fn expected_statuses(steps: &[Value]) -> Vec<&'static str> {
    let mut stopped = false;
    steps
        .iter()
        .map(|s| {
            let status = if stopped {
                "after-illegal"
            } else if s["legal"] == true {
                "legal"
            } else {
                "illegal"
            };
            stopped |= s["legal"] != true;
            status
        })
        .collect()
}

/// Every movement fixture: each step by status (never green after an illegal step), its cost
/// labelled, and for each provoked attack of opportunity a ring, an arrow from the attacker
/// and a label naming it; the attacker's reach outlined.
#[tokio::test]
async fn every_movement_fixture_shows_steps_costs_and_attacks() {
    let mut drawn = 0;
    let mut after_illegal = 0;
    let cases: Vec<Value> =
        fixtures_of("movement/cases").into_iter().chain(fixtures_of("movement/mounted")).collect();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let req = &case["request"];
        if case["status"].as_u64().is_some_and(|s| s != 200) {
            continue;
        }
        let (status, text, answer) = both("/v1/movement", req, "en", "").await;
        assert_eq!(status, 200, "{name}: {text}");
        drawn += 1;
        check_canvas(name, &text);
        let doc = Document::parse(&text).unwrap();
        let result = &answer["result"];
        let steps = result["steps"].as_array().unwrap();
        let drawn_steps = with_class(&doc, "step");
        assert_eq!(drawn_steps.len(), steps.len(), "{name}");
        for ((s, status), line) in steps.iter().zip(expected_statuses(steps)).zip(&drawn_steps) {
            assert_eq!(line.attribute("data-status"), Some(status), "{name}: step {s}");
            if status != "legal" {
                assert_ne!(line.attribute("stroke"), Some(GREEN), "{name}: step {s}");
                after_illegal += usize::from(status == "after-illegal");
            }
        }
        let labels = with_class(&doc, "label");
        let key: Vec<String> =
            with_class(&doc, "key-entry").iter().filter_map(|n| n.text()).map(str::to_owned).collect();
        let label_text = |what: &str| -> Option<String> {
            let l = labels.iter().find(|l| l.attribute("data-for") == Some(what))?;
            let t = l.descendants().find(|n| n.tag_name().name() == "title")?.text()?.to_owned();
            Some(t)
        };
        if result.get("budget_ft").is_some() {
            for s in steps {
                let cost = s["cost_ft"].as_u64().unwrap();
                let want = format!("{cost} ft");
                match label_text(&format!("step-{}", s["index"])) {
                    Some(t) => assert_eq!(t, want, "{name}"),
                    None => assert!(
                        key.iter().any(|e| e.ends_with(&format!(" = {want}"))),
                        "{name}: no cost on {s}"
                    ),
                }
            }
        }
        let oas: Vec<&Value> = result["opportunity_attacks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["provoked"] == true)
            .collect();
        let arrows = with_class(&doc, "oa-arrow");
        assert_eq!(with_class(&doc, "oa-ring").len(), oas.len(), "{name}");
        for (k, o) in result["opportunity_attacks"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .filter(|(_, o)| o["provoked"] == true)
        {
            let who = o["creature"].as_str().unwrap();
            assert!(
                arrows.iter().any(|a| a.attribute("data-attacker") == Some(who)),
                "{name}: no arrow from {who}"
            );
            let want = format!("OA: {who}");
            match label_text(&format!("oa-{k}")) {
                Some(t) => assert_eq!(t, want, "{name}"),
                None => assert!(key.iter().any(|e| e.ends_with(&format!(" = {want}"))), "{name}: {key:?}"),
            }
            let numbered = labels.iter().any(|l| {
                l.attribute("data-for") == Some(&format!("oa-{k}")) && class_of(l).contains(&"key-mark")
            });
            assert!(!numbered || key.iter().any(|e| e.ends_with(&want)), "{name}: {key:?}");
            assert!(
                with_class(&doc, "reach").iter().any(|r| r.attribute("data-creature") == Some(who)),
                "{name}: {who}'s reach"
            );
        }
        let (_, fr, _) = both("/v1/movement", req, "fr", "").await;
        check_french(name, &fr, "Déplacement de", &ids(req));
    }
    assert!(drawn > 60, "{drawn} movement fixtures drawn");
    assert!(after_illegal > 0, "some fixture has steps after an illegal one");
}

/// Flanking fixtures: the target's squares, a line per flanker, an outline per enemy that
/// threatens squares, the badge.
#[tokio::test]
async fn flanking_fixtures_are_drawn() {
    for case in fixtures_of("flanking/cases") {
        let name = case["name"].as_str().unwrap();
        let req = &case["request"];
        let (status, text, answer) = both("/v1/flanking", req, "en", "").await;
        if status != 200 {
            assert_ne!(case["status"].as_u64(), Some(200), "{name}: {text}");
            continue;
        }
        check_canvas(name, &text);
        let doc = Document::parse(&text).unwrap();
        let result = &answer["result"];
        let t = side(req, req["target"].as_str().unwrap());
        assert_eq!(with_class(&doc, "target-square").len(), t * t, "{name}");
        assert_eq!(
            with_class(&doc, "flank-line").len(),
            result["flankers"].as_array().unwrap().len(),
            "{name}"
        );
        let threats = result["threatened"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| !t["squares"].as_array().unwrap().is_empty())
            .count();
        assert_eq!(with_class(&doc, "threat").len(), threats, "{name}");
        assert_eq!(with_class(&doc, "badge").len(), 1, "{name}");
        let (_, fr, _) = both("/v1/flanking", req, "fr", "").await;
        check_french(name, &fr, "Prise en tenaille de", &ids(req));
    }
}

/// Concealment fixtures: the corner's lines as the answer has them, a badge, light overlays
/// where the map is not all bright.
#[tokio::test]
async fn concealment_fixtures_are_drawn() {
    let mut lit = 0;
    for case in fixtures_of("concealment/cases") {
        let name = case["name"].as_str().unwrap();
        let req = &case["request"];
        let (status, text, answer) = both("/v1/concealment", req, "en", "").await;
        if status != 200 {
            assert_ne!(case["status"].as_u64(), Some(200), "{name}: {text}");
            continue;
        }
        check_canvas(name, &text);
        let doc = Document::parse(&text).unwrap();
        let lines = answer["result"]["lines"].as_array().map_or(0, Vec::len);
        assert_eq!(with_class(&doc, "sight-line").len(), lines, "{name}");
        assert_eq!(with_class(&doc, "badge").len(), 1, "{name}");
        let grid = &req["encounter"]["grid"];
        if grid["light"].as_str().is_some_and(|l| l != "bright") {
            assert!(!with_class(&doc, "light").is_empty(), "{name}: no light overlay");
            lit += 1;
        }
        let sources = grid["lights"].as_array().map_or(0, Vec::len);
        assert_eq!(with_class(&doc, "light-source").len(), sources, "{name}");
        let (_, fr, _) = both("/v1/concealment", req, "fr", "").await;
        check_french(name, &fr, "Camouflage de", &ids(req));
    }
    assert!(lit > 0, "some fixture is not all bright");
}

/// The analysis of each cover fixture's encounter: one matrix cell per pair, with the pair's
/// cover.
#[tokio::test]
async fn analysis_draws_every_pair_in_a_matrix() {
    for case in fixtures_of("cover/cases").iter().step_by(5) {
        let name = case["name"].as_str().unwrap();
        let req = json!({"encounter": case["request"]["encounter"]});
        let (status, text, answer) = both("/v1/analyze", &req, "en", "").await;
        assert_eq!(status, 200, "{name}: {text}");
        check_canvas(name, &text);
        let doc = Document::parse(&text).unwrap();
        let cells = with_class(&doc, "pair");
        let pairs = answer["result"]["pairs"].as_array().unwrap();
        assert_eq!(cells.len(), pairs.len(), "{name}");
        for p in pairs {
            let cell = cells
                .iter()
                .find(|c| {
                    c.attribute("data-attacker") == p["attacker"].as_str()
                        && c.attribute("data-target") == p["target"].as_str()
                })
                .unwrap_or_else(|| panic!("{name}: no cell for {p}"));
            assert_eq!(cell.attribute("data-cover"), p["cover"]["degree"].as_str(), "{name}");
        }
    }
}

/// `?scale=` sets the pixels per square; a bad value is a 422 at `?scale`, before any work.
#[tokio::test]
async fn scale_is_chosen_and_checked() {
    let req = &fixtures_of("cover/cases")[0]["request"];
    let (status, text, _) = both("/v1/cover", req, "en", "?scale=20").await;
    assert_eq!(status, 200);
    let doc = Document::parse(&text).unwrap();
    let cols = req["encounter"]["grid"]["width"].as_f64().unwrap();
    assert_eq!(num(&doc.root_element(), "data-scale"), 20.0);
    assert_eq!(box_of(&with_class(&doc, "grid-frame")[0]).w, cols * 20.0);
    for bad in ["?scale=7", "?scale=97", "?scale=big", "?scale="] {
        for path in ["/v1/cover", "/v1/movement", "/v1/flanking", "/v1/concealment", "/v1/analyze"] {
            let (status, text, _) = both(path, &json!({}), "fr", bad).await;
            assert_eq!(status, 422, "{path}{bad}: {text}");
            let p: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(p["errors"][0]["pointer"], "?scale", "{path}{bad}: {p}");
            assert!(p["errors"][0]["detail"].as_str().unwrap().contains("de 8 à 96"), "{p}");
        }
    }
}

/// Long ids are cut with an ellipsis, markup in ids is escaped, and a crowd of creatures gets
/// numbers spelled out in the key, never overlapping labels.
#[tokio::test]
async fn crowded_long_labels_fall_back_to_a_key() {
    let creatures: Vec<Value> = (0..8)
        .map(|i| json!({"id": format!("<goblin & chieftain {i}>"), "side": if i == 0 { "a" } else { "b" }, "at": {"x": i % 3, "y": i / 3}}))
        .collect();
    let req = json!({"encounter": {"ruleset": "pf1e", "grid": {"width": 3, "height": 3}, "creatures": creatures},
        "attacker": "<goblin & chieftain 0>", "target": "<goblin & chieftain 4>"});
    let (status, text, _) = both("/v1/cover", &req, "en", "").await;
    assert_eq!(status, 200, "{text}");
    check_canvas("crowd", &text);
    let doc = Document::parse(&text).unwrap();
    let key: Vec<&str> = with_class(&doc, "key-entry").iter().filter_map(|n| n.text()).collect();
    assert!(!key.is_empty(), "eight long labels on a 3×3 map need the key");
    assert!(key.iter().any(|k| k.contains(" = <goblin & chieftain")), "{key:?}");
    let shown: Vec<&str> = with_class(&doc, "label")
        .iter()
        .filter(|l| !class_of(l).contains(&"key-mark"))
        .filter_map(|l| l.descendants().find(|n| n.tag_name().name() == "text").and_then(|n| n.text()))
        .collect();
    assert!(shown.iter().any(|s| s.ends_with('…') && s.chars().count() == 14), "{shown:?}");
}

/// A 1000×1000 map's drawing is refused before it is drawn, for every drawing question.
#[tokio::test]
async fn a_huge_map_is_refused_not_drawn() {
    let enc = json!({"ruleset": "pf1e", "grid": {"width": 1000, "height": 1000, "light": "dim"},
        "creatures": [{"id": "a", "side": "x", "at": {"x": 0, "y": 0}}, {"id": "b", "side": "y", "at": {"x": 5, "y": 5}}]});
    let pair = json!({"encounter": enc, "attacker": "a", "target": "b"});
    let moving = json!({"encounter": enc, "creature": "a", "path": [{"x": 1, "y": 1}]});
    for (path, body) in [
        ("/v1/cover", &pair),
        ("/v1/flanking", &pair),
        ("/v1/concealment", &pair),
        ("/v1/movement", &moving),
        ("/v1/analyze", &json!({"encounter": enc})),
    ] {
        let (status, text, _) = both(path, body, "en", "").await;
        assert_eq!(status, 422, "{path}");
        assert!(text.contains("answer-too-large"), "{path}: {text}");
    }
}

/// README's picture is the service's own drawing of README's Pathfinder cover example (the
/// block that saves `cover.svg`): drawn again here, it must be the committed file byte for byte
/// (`ARBITER_BLESS=1` rewrites it after a deliberate change).
#[tokio::test]
async fn readme_picture_is_the_services_drawing() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains("](docs/cover.svg)"), "README shows the picture");
    let block = readme.find("-o cover.svg").expect("README saves cover.svg");
    let from = block + readme[block..].find("-d '").unwrap() + 4;
    let to = from + readme[from..].find("'\n").unwrap();
    let req: Value = serde_json::from_str(&readme[from..to]).unwrap();
    let (status, text, _) = both("/v1/cover", &req, "en", "").await;
    assert_eq!(status, 200, "{text}");
    check_canvas("README", &text);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cover.svg");
    if std::env::var_os("ARBITER_BLESS").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(path).expect("docs/cover.svg (ARBITER_BLESS=1 writes it)");
    assert!(
        committed == text,
        "docs/cover.svg drifted from the drawing: ARBITER_BLESS=1 cargo test --test http readme_picture"
    );
}

/// `?scale=` given twice is a 422 at `?scale` whichever value comes last (the last one was
/// taken silently).
#[tokio::test]
async fn a_scale_given_twice_is_refused() {
    let req = &fixtures_of("cover/cases")[0]["request"];
    for twice in ["?scale=96&scale=8", "?scale=20&scale=20", "?scale=20&a=1&scale=30"] {
        let (status, text, _) = both("/v1/cover", req, "en", twice).await;
        assert_eq!(status, 422, "{twice}: {text}");
        let p: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(p["errors"][0]["pointer"], "?scale", "{twice}: {p}");
        assert!(p["errors"][0]["detail"].as_str().unwrap().contains("more than once"), "{p}");
    }
}

/// Replaces every string of `v` equal to a key of `names` by its value.
fn renamed(v: &Value, names: &std::collections::HashMap<String, String>) -> Value {
    match v {
        Value::String(s) => Value::String(names.get(s).cloned().unwrap_or_else(|| s.clone())),
        Value::Array(a) => Value::Array(a.iter().map(|x| renamed(x, names)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), renamed(x, names))).collect()),
        other => other.clone(),
    }
}

/// Ids and sides holding characters XML 1.0 forbids (§2.2: U+FFFE, U+FFFF, C0 controls but
/// tab, LF, CR) still make well-formed drawings, on every drawing question; the ids are shown
/// with U+FFFD in their place. U+FFFE and U+FFFF made the SVG of cover, analyze, movement and
/// flanking ill-formed.
#[tokio::test]
async fn forbidden_characters_in_ids_leave_the_drawings_well_formed() {
    let cases = [
        ("/v1/cover", fixtures_of("cover/cases")[0]["request"].clone()),
        ("/v1/analyze", json!({"encounter": fixtures_of("cover/cases")[0]["request"]["encounter"]})),
        ("/v1/movement", fixtures_of("movement/cases")[0]["request"].clone()),
        ("/v1/flanking", fixtures_of("flanking/cases")[0]["request"].clone()),
        ("/v1/concealment", fixtures_of("concealment/cases")[0]["request"].clone()),
    ];
    for (path, req) in cases {
        let mut names = std::collections::HashMap::new();
        for c in req["encounter"]["creatures"].as_array().unwrap() {
            for field in ["id", "side"] {
                let s = c[field].as_str().unwrap();
                names.insert(s.to_owned(), format!("{s}\u{FFFE}\u{FFFF}\u{1}\u{1F}"));
            }
        }
        let req = renamed(&req, &names);
        let (status, text, _) = both(path, &req, "en", "").await;
        assert_eq!(status, 200, "{path}: {text}");
        let doc = Document::parse(&text).unwrap_or_else(|e| panic!("{path}: not well-formed XML: {e}"));
        let id = req["encounter"]["creatures"][0]["id"].as_str().unwrap();
        let shown = id.replace(['\u{FFFE}', '\u{FFFF}', '\u{1}', '\u{1F}'], "\u{FFFD}");
        let texts: String = doc.descendants().filter_map(|n| n.text()).collect();
        let attrs: Vec<&str> = doc.descendants().flat_map(|n| n.attributes().map(|a| a.value())).collect();
        assert!(texts.contains(&shown) || attrs.contains(&shown.as_str()), "{path}: {shown:?} not drawn");
    }
}

/// The routes that draw (`svg::DRAWN`, which the 406 of the others reads) are those whose
/// OpenAPI 200 offers `image/svg+xml`, and every other route of the API documents its 406.
#[test]
fn the_routes_that_draw_are_the_documented_ones() {
    let doc = arbiter::openapi();
    let mut drawn = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap().iter().filter(|(p, _)| p.starts_with("/v1/")) {
        let op = item.as_object().unwrap().values().next().unwrap();
        if op["responses"]["200"]["content"].get("image/svg+xml").is_some() {
            drawn.push(path.as_str());
        } else {
            assert!(
                op["responses"]["406"]["content"].get("application/problem+json").is_some(),
                "{path}: no 406"
            );
        }
    }
    drawn.sort_unstable();
    let mut expected = arbiter_draw::DRAWN.to_vec();
    expected.sort_unstable();
    assert_eq!(drawn, expected);
}
