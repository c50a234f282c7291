//! French as a first-class language (issue 13): every answer of the fixtures, asked in French,
//! has no English word and no raw `snake_case` id in its trace texts or its SVG captions; the
//! same answers in English have no French word and no raw id either.

use std::collections::HashSet;

use axum::body::Body;
use axum::http::{Request, header};
use serde_json::{Value, json};

use super::support::*;

/// English words that never belong in a French sentence (words both languages share, such
/// as "total", "normal", "charge", "initiative", "distance" or "obstacle", are left out).
const ENGLISH: &[&str] = &[
    "the",
    "of",
    "and",
    "with",
    "to",
    "from",
    "by",
    "in",
    "at",
    "is",
    "are",
    "it",
    "its",
    "not",
    "no",
    "for",
    "into",
    "through",
    "within",
    "beyond",
    "out",
    "off",
    "only",
    "cannot",
    "can",
    "may",
    "gets",
    "target",
    "attacker",
    "mover",
    "creature",
    "creatures",
    "cover",
    "half",
    "three",
    "quarters",
    "improved",
    "partial",
    "soft",
    "concealment",
    "miss",
    "chance",
    "prone",
    "flanking",
    "flanked",
    "flank",
    "advantage",
    "disadvantage",
    "modifier",
    "roll",
    "rolls",
    "rolled",
    "line",
    "lines",
    "blocked",
    "blocks",
    "corner",
    "square",
    "squares",
    "ft",
    "feet",
    "foot",
    "pushed",
    "push",
    "attack",
    "attacks",
    "opportunity",
    "reach",
    "range",
    "increment",
    "long",
    "hit",
    "critical",
    "natural",
    "success",
    "failure",
    "check",
    "save",
    "saves",
    "step",
    "speed",
    "moved",
    "move",
    "provokes",
    "threatens",
    "wall",
    "solid",
    "edge",
    "edges",
    "grid",
    "low",
    "light",
    "dim",
    "bright",
    "darkness",
    "sees",
    "see",
    "unarmed",
    "melee",
    "ranged",
    "ally",
    "enemy",
    "mount",
    "dismount",
    "stands",
    "standing",
    "up",
    "crawls",
    "dash",
    "withdraw",
    "legal",
    "illegal",
    "size",
    "reason",
    "none",
    "automatic",
    "tie",
    "order",
    "decided",
    "surprised",
    "difficult",
    "ignored",
    "noted",
    "applied",
    "pair",
    "pairs",
    "shared",
    "leaves",
    "leaving",
    "threatened",
    "space",
    "occupied",
    "ends",
    "flat",
    "footed",
    "grappled",
    "pinned",
    "stunned",
    "helpless",
    "condition",
    "diagonal",
    "diagonals",
    "every",
    "closest",
    "clear",
    "path",
    "bull",
    "rush",
    "trip",
    "disarm",
    "overrun",
    "grapple",
    "shove",
    "escape",
    "pin",
    "tie",
    "ruleset",
    "procedure",
    "spent",
    "green",
    "red",
    "blue",
    "dot",
    "ring",
    "black",
    "brown",
    "dashed",
    "window",
    "door",
    "open",
    "dark",
    "grey",
    "tan",
    "concealing",
    "water",
    "walls",
    "legend",
    "start",
    "last",
];

/// French words that never belong in an English sentence.
const FRENCH: &[&str] = &[
    "le",
    "la",
    "les",
    "du",
    "des",
    "et",
    "avec",
    "sans",
    "contre",
    "vers",
    "pas",
    "abri",
    "cible",
    "attaquant",
    "case",
    "cases",
    "mètre",
    "mètres",
    "tenaille",
    "camouflage",
    "désavantage",
    "avantage",
    "allonge",
    "portée",
    "à",
    "terre",
    "réussite",
    "échec",
    "touché",
    "raté",
    "ligne",
    "lignes",
    "bloquées",
    "coin",
    "pieds",
    "repoussé",
    "créature",
    "créatures",
    "vitesse",
    "mouvement",
];

/// Every request of the fixtures, with its endpoint and a name, plus a whole-scene analysis
/// of each fixture's encounter.
fn requests() -> Vec<(String, &'static str, Value)> {
    let mut all = Vec::new();
    for (file, path) in FIXTURES {
        for case in fixtures_of(file) {
            let name = format!("{file}: {}", case["name"].as_str().unwrap_or("?"));
            if let Some(enc) = case["request"].get("encounter") {
                all.push((format!("{name} (analyze)"), "/v1/analyze", json!({"encounter": enc})));
            }
            all.push((name, *path, case["request"].clone()));
        }
    }
    all
}

/// The creature ids of a request: names, not words of either language.
fn creature_ids(req: &Value) -> HashSet<String> {
    let mut ids = HashSet::new();
    let creatures = req["encounter"]["creatures"].as_array().or_else(|| req["creatures"].as_array());
    for c in creatures.into_iter().flatten() {
        if let Some(id) = c["id"].as_str() {
            ids.insert(id.to_owned());
        }
        for m in c["members"].as_array().into_iter().flatten() {
            if let Some(id) = m.as_str().or_else(|| m["id"].as_str()) {
                ids.insert(id.to_owned());
            }
        }
    }
    ids
}

/// What is wrong with one text: words of `banned` and raw ids, creature ids and rule ids
/// (dotted) aside.
fn faults(text: &str, banned: &[&str], ids: &HashSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    let tokens = text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '-'));
    for token in tokens.map(|t| t.trim_matches(|c| c == '.' || c == '-')) {
        if token.is_empty() || ids.contains(token) || token.contains('.') {
            continue;
        }
        let raw_id = token.contains('_')
            && token
                .split('_')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()))
            && token.starts_with(|c: char| c.is_ascii_lowercase());
        if raw_id {
            found.push(format!("raw id `{token}`"));
            continue;
        }
        for word in token.split(['-', '_']) {
            if banned.contains(&word.to_lowercase().as_str()) {
                found.push(format!("`{word}`"));
            }
        }
    }
    found
}

/// French typography: a no-break space (U+00A0 or U+202F) before `:`, `;`, `!`, `?`, never
/// a plain space or none.
fn typography_faults(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for (i, c) in chars.iter().enumerate() {
        if matches!(c, ':' | ';' | '!' | '?') && !(i > 0 && matches!(chars[i - 1], '\u{a0}' | '\u{202f}')) {
            found.push(format!("no no-break space before `{c}`"));
        }
    }
    found
}

/// Every trace text of an answer, wherever its steps sit.
fn trace_texts<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
    match v {
        Value::Object(o) => {
            if let (Some(Value::String(t)), true) = (o.get("text"), o.contains_key("rule")) {
                out.push(t);
            }
            o.values().for_each(|x| trace_texts(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| trace_texts(x, out)),
        _ => {}
    }
}

async fn ask(app: &axum::Router, path: &str, body: &Value, lang: &str, accept: &str) -> Answer {
    let req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT_LANGUAGE, lang)
        .header(header::ACCEPT, accept)
        .body(Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap();
    send(app.clone(), req).await
}

/// The faults of every trace text of every fixture answer in `lang`.
async fn trace_faults(lang: &str, banned: &[&str]) -> (usize, Vec<String>) {
    let app = test_app();
    let (mut texts_seen, mut failures) = (0, Vec::new());
    for (name, path, body) in requests() {
        let res = ask(&app, path, &body, lang, "application/json").await;
        if res.status != 200 {
            continue;
        }
        let json = res.json();
        let mut texts = Vec::new();
        trace_texts(&json, &mut texts);
        let ids = creature_ids(&body);
        for t in texts {
            texts_seen += 1;
            let mut f = faults(t, banned, &ids);
            if lang == "fr" {
                f.extend(typography_faults(t));
            }
            if !f.is_empty() {
                failures.push(format!("{name}: {} in «{t}»", f.join(", ")));
            }
        }
    }
    (texts_seen, failures)
}

/// The text nodes of an SVG drawing, the creature labels aside.
fn svg_texts(svg: &str, ids: &HashSet<String>) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    doc.descendants()
        .filter(|n| n.is_element() && matches!(n.tag_name().name(), "text" | "title"))
        .filter_map(|n| n.text())
        .filter(|t| !ids.contains(*t))
        .map(str::to_owned)
        .collect()
}

/// The faults of every caption of the cover and movement drawings of the fixtures in `lang`.
async fn svg_faults(lang: &str, banned: &[&str]) -> (usize, Vec<String>) {
    let app = test_app();
    let (mut seen, mut failures) = (0, Vec::new());
    for (name, path, body) in requests() {
        if path != "/v1/cover" && path != "/v1/movement" {
            continue;
        }
        let res = ask(&app, path, &body, lang, "image/svg+xml").await;
        if res.status != 200 {
            continue;
        }
        let ids = creature_ids(&body);
        for t in svg_texts(&String::from_utf8(res.body).unwrap(), &ids) {
            seen += 1;
            let mut f = faults(&t, banned, &ids);
            if lang == "fr" {
                f.extend(typography_faults(&t));
            }
            if !f.is_empty() {
                failures.push(format!("{name}: {} in «{t}»", f.join(", ")));
            }
        }
    }
    (seen, failures)
}

fn report(what: &str, seen: usize, failures: &[String]) {
    assert!(seen > 0, "{what}: no text checked");
    let mut unique: Vec<&String> = failures.iter().collect();
    unique.dedup();
    assert!(
        failures.is_empty(),
        "{what}: {} of {seen} texts fail:\n{}",
        failures.len(),
        unique.iter().take(80).map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[tokio::test]
async fn french_traces_have_no_english_and_no_raw_ids() {
    let (seen, failures) = trace_faults("fr", ENGLISH).await;
    report("fr traces", seen, &failures);
}

#[tokio::test]
async fn english_traces_have_no_french_and_no_raw_ids() {
    let (seen, failures) = trace_faults("en", FRENCH).await;
    report("en traces", seen, &failures);
}

#[tokio::test]
async fn french_svg_captions() {
    let (seen, failures) = svg_faults("fr", ENGLISH).await;
    report("fr captions", seen, &failures);
}

#[tokio::test]
async fn english_svg_captions() {
    let (seen, failures) = svg_faults("en", FRENCH).await;
    report("en captions", seen, &failures);
}

/// The checker itself: it finds what it is meant to find, and leaves names alone.
#[test]
fn the_checker_catches_english_and_raw_ids() {
    let ids: HashSet<String> = ["goblin_1".to_owned(), "A".to_owned()].into();
    let bad = "concealment (20% miss chance): noté; résultat : pushed_15_ft (leaves_reach, en (6, 6))";
    let f = faults(bad, ENGLISH, &ids);
    for want in ["`concealment`", "`miss`", "`chance`", "raw id `pushed_15_ft`", "raw id `leaves_reach`"] {
        assert!(f.iter().any(|x| x == want), "{want} not found in {f:?}");
    }
    assert!(faults("goblin_1 et A : abri partiel (variante dnd5e.cover.half-cap)", ENGLISH, &ids).is_empty());
    assert_eq!(faults("la cible est à 9 mètres (6 cases)", FRENCH, &ids).len(), 5);
    assert_eq!(typography_faults("ordre : a; b:c").len(), 3);
    assert!(typography_faults("ordre\u{a0}: a\u{a0}; b").is_empty());
}

/// The seeds' words for the degrees of cover, per ruleset: seed 002 (5e) calls half cover
/// "abri partiel" and three-quarters cover "abri supérieur"; seed 001 (PF1) calls improved
/// cover "abri supérieur", seed 000 (Starfinder) "abri amélioré". Numbers from RULES.md
/// (`dnd5e.cover.degrees`: +2 / +5 AC and Dex saves; improved cover +8 AC, +4 Reflex).
#[tokio::test]
async fn cover_degrees_in_the_seeds_words() {
    let app = test_app();
    let cases = fixtures_of("cover/cases");
    let result_text = |body: &Value| {
        body["trace"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|s| s["effect"].get("degree").is_some() && s["effect"].get("ac_bonus").is_some())
            .and_then(|s| s["text"].as_str())
            .unwrap_or_default()
            .to_owned()
    };
    for (name, want) in [
        ("M1 dnd5e2014: creature between → half", "abri partiel\u{a0}: +2 CA, +2 aux jets de sauvegarde"),
        (
            "M2 dnd5e2024: target (4,3) → three-quarters from ⟨0,0⟩",
            "abri supérieur\u{a0}: +5 CA, +5 aux jets de sauvegarde",
        ),
        ("arrow slit pf1e → improved", "abri supérieur\u{a0}: +8 CA, +4 aux jets de sauvegarde"),
        ("arrow slit sf1e → improved", "abri amélioré\u{a0}: +8 CA, +4 aux jets de sauvegarde"),
    ] {
        let case = cases.iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("{name}"));
        let body = ask(&app, "/v1/cover", &case["request"], "fr", "application/json").await.json();
        assert_eq!(result_text(&body), want, "{name}");
    }
}

/// A question's answer says which language its texts are in, and that it varies with `Accept`
/// and `Accept-Language` (a cache must not give a French answer to an English client).
#[tokio::test]
async fn answers_name_their_language() {
    let app = test_app();
    let case = fixtures_of("cover/cases").into_iter().next().unwrap();
    for (asked, accept, said) in [
        ("fr", "application/json", "fr"),
        ("fr-CA, en;q=0.5", "image/svg+xml", "fr"),
        ("en", "application/json", "en"),
        ("de", "application/json", "en"),
    ] {
        let res = ask(&app, "/v1/cover", &case["request"], asked, accept).await;
        assert_eq!(res.status, 200);
        assert_eq!(res.headers.get("content-language").unwrap(), said, "Accept-Language: {asked}");
        let vary: Vec<&str> =
            res.headers.get_all("vary").iter().flat_map(|v| v.to_str().unwrap().split(", ")).collect();
        assert!(vary.contains(&"accept") && vary.contains(&"accept-language"), "{vary:?}");
    }
}
