//! The typed contract: closed sets are enums, unions are discriminated, optional fields are
//! omitted (never `null`), one schema per media type, examples everywhere; and every answer
//! of every fixture, in English and in French, validates against the document.

use axum::body::Body;
use axum::http::{Request, header};
use serde_json::{Value, json};

use super::support::*;

/// POSTs a JSON value with an `Accept-Language`.
async fn post_json_lang(app: axum::Router, path: &str, body: &Value, lang: &str) -> Answer {
    let req = Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT_LANGUAGE, lang)
        .body(Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap();
    send(app, req).await
}

fn schema<'a>(doc: &'a Value, name: &str) -> &'a Value {
    let s = &doc["components"]["schemas"][name];
    assert!(s.is_object(), "no schema {name}");
    s
}

/// A schema with its `$ref` followed.
fn deref<'a>(doc: &'a Value, s: &'a Value) -> &'a Value {
    match s["$ref"].as_str() {
        Some(r) => deref(doc, schema(doc, r.rsplit('/').next().unwrap())),
        None => s,
    }
}

fn enum_of(doc: &Value, s: &Value) -> Vec<String> {
    deref(doc, s)["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("not an enum: {s}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_maneuver_kind_is_an_enum_of_the_real_ids() {
    let doc = openapi_doc();
    let kinds = enum_of(&doc, &schema(&doc, "ManeuverRequest")["properties"]["kind"]);
    assert!(kinds.contains(&"bull_rush".to_owned()), "{kinds:?}");
    assert!(!kinds.contains(&"bul_rush".to_owned()), "{kinds:?}");
    // PRODUCT.md's ten maneuvers.
    let want =
        ["grapple", "shove", "bull_rush", "trip", "disarm", "overrun", "escape", "pin", "tie_up", "charge"];
    assert_eq!(kinds, want);
}

#[test]
fn the_cover_degree_is_an_enum_of_the_seven_degrees() {
    let doc = openapi_doc();
    let mut degrees = enum_of(&doc, &schema(&doc, "CoverResult")["properties"]["degree"]);
    degrees.sort();
    // RULES.md: none, partial, cover, improved, total (PF1, SF, hb3d); half, three_quarters (5e).
    assert_eq!(degrees, ["cover", "half", "improved", "none", "partial", "three_quarters", "total"]);
    assert!(!degrees.contains(&"three-quarters".to_owned()));
}

/// String properties whose values are free (ids, names, texts, rule ids, fractions), or an
/// open family (`pushed_<n>_ft`): no enum expected even when the description shows values.
const FREE_STRINGS: &[&str] = &[
    "ManeuverResult.band",
    "BandOdds.band",
    "RollOut.purpose",
    "WeaponIn.damage_type",
    "WeaponIn.name",
    "WeaponIn.materials[]",
    "DamageReductionIn.bypassed_by[]",
    "FeatId",
    "FieldError.pointer",
    "FlankingResult.rule",
    "StepOut.blocked_by",
    "DroppedOut.item",
    "CreatureIn.feats[]",
    "GridIn.map[]",
    "GridIn.light_map[]",
];

/// A description that lists values: two or more backquoted snake-case words.
fn lists_values(description: &str) -> bool {
    let ticked: Vec<&str> = description.split('`').skip(1).step_by(2).collect();
    ticked
        .iter()
        .filter(|t| {
            !t.is_empty() && t.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .count()
        >= 2
}

fn walk_strings(doc: &Value, s: &Value, at: &str, out: &mut Vec<String>) {
    if let Some(props) = s["properties"].as_object() {
        for (k, p) in props {
            let here = format!("{at}.{k}");
            let resolved = deref(doc, p);
            let description =
                p["description"].as_str().or(resolved["description"].as_str()).unwrap_or("").to_owned();
            if resolved["type"] == "string"
                && resolved.get("enum").is_none()
                && lists_values(&description)
                && !FREE_STRINGS.contains(&here.as_str())
            {
                out.push(format!("{here}: {description}"));
            }
            if p["type"] == "array" {
                let item = deref(doc, &p["items"]);
                let d = p["description"].as_str().unwrap_or("");
                if item["type"] == "string"
                    && item.get("enum").is_none()
                    && lists_values(d)
                    && !FREE_STRINGS.contains(&format!("{here}[]").as_str())
                {
                    out.push(format!("{here}[]: {d}"));
                }
            }
        }
    }
    for key in ["oneOf", "allOf", "anyOf"] {
        for b in s[key].as_array().into_iter().flatten() {
            walk_strings(doc, b, at, out);
        }
    }
}

#[test]
fn no_string_lists_its_values_in_prose_only() {
    let doc = openapi_doc();
    let mut failures = Vec::new();
    for (name, s) in doc["components"]["schemas"].as_object().unwrap() {
        walk_strings(&doc, s, name, &mut failures);
    }
    assert!(failures.is_empty(), "closed sets without an enum:\n{}", failures.join("\n"));
    // The heuristic finds what it is meant to: the old declaration of `degree` would fail.
    let old =
        json!({"properties": {"degree": {"type": "string", "description": "`none`, `half` or `total`"}}});
    let mut found = Vec::new();
    walk_strings(&doc, &old, "Old", &mut found);
    assert_eq!(found.len(), 1);
}

fn walk_all<'a>(v: &'a Value, at: String, f: &mut impl FnMut(&str, &'a Value)) {
    f(&at, v);
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| walk_all(x, format!("{at}/{k}"), f)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| walk_all(x, format!("{at}/{i}"), f)),
        _ => {}
    }
}

/// The schemas reachable by `$ref` from the operations' `key` (`responses`, `requestBody`).
fn reachable(doc: &Value, key: &str) -> Vec<String> {
    let mut todo = Vec::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            walk_all(&op[key], String::new(), &mut |_, v| {
                if let Some(r) = v["$ref"].as_str() {
                    todo.push(r.rsplit('/').next().unwrap().to_owned());
                }
            });
        }
    }
    let mut seen: Vec<String> = Vec::new();
    while let Some(name) = todo.pop() {
        if !seen.contains(&name) {
            walk_all(schema(doc, &name), String::new(), &mut |_, v| {
                if let Some(r) = v["$ref"].as_str() {
                    todo.push(r.rsplit('/').next().unwrap().to_owned());
                }
            });
            seen.push(name);
        }
    }
    seen
}

fn is_null(v: &Value) -> bool {
    v["type"] == "null"
}

/// Whether every branch is a closed object (`additionalProperties: false`) and no two share
/// a required key: then no value fits two branches, and the required keys tell which one.
fn told_apart_by_required_keys(doc: &Value, branches: &[Value]) -> bool {
    let mut seen: Vec<&str> = Vec::new();
    for b in branches {
        let b = deref(doc, b);
        let required: Vec<&str> =
            b["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        if b["additionalProperties"] != false
            || required.is_empty()
            || required.iter().any(|r| seen.contains(r))
        {
            return false;
        }
        seen.extend(required);
    }
    true
}

#[test]
fn no_answer_field_is_nullable_and_every_one_of_is_discriminated() {
    let doc = openapi_doc();
    let answers = reachable(&doc, "responses");
    let requests = reachable(&doc, "requestBody");
    assert!(answers.len() > 150 && requests.len() > 20, "{} {}", answers.len(), requests.len());
    let mut failures = Vec::new();
    let mut unions = 0;
    for (name, s) in doc["components"]["schemas"].as_object().unwrap() {
        let answer = answers.contains(name) && !requests.contains(name);
        walk_all(s, name.clone(), &mut |at, v| {
            // Examples hold data, not schemas.
            if at.contains("/examples") {
                return;
            }
            let t = &v["type"];
            if answer && (t == "null" || t.as_array().is_some_and(|ts| ts.iter().any(|t| t == "null"))) {
                failures.push(format!("{at}: nullable in an answer"));
            }
            if let Some(branches) = v["oneOf"].as_array() {
                // On input, an optional field is `T | null`: the server reads `null` as absent.
                let nullable = branches.len() == 2 && branches.iter().any(is_null);
                // A request union of closed objects told apart by their required keys (the
                // encounter's grid: a grid or `{"uvtt": file}`) has no tag to discriminate by.
                let keyed = !answer && told_apart_by_required_keys(&doc, branches);
                if (answer || !nullable) && !keyed {
                    unions += 1;
                    let d = &v["discriminator"];
                    if d["propertyName"].as_str().is_none() || !d["mapping"].is_object() {
                        failures.push(format!("{at}: a oneOf without a discriminator"));
                    }
                }
            }
            if v.get("anyOf").is_some() {
                failures.push(format!("{at}: an anyOf"));
            }
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(unions >= 5, "dice, effects, blockers, attacker moves, charge obstacles: {unions}");
    // Each branch of each union states its tag, with the values mapped to it.
    for name in ["DiceIn", "EffectOut", "BlockerOut", "AttackerMoveOut", "ChargeObstacleOut"] {
        let s = schema(&doc, name);
        let tag = s["discriminator"]["propertyName"].as_str().unwrap();
        for (value, reference) in s["discriminator"]["mapping"].as_object().unwrap() {
            let reference = json!({"$ref": reference});
            let branch = deref(&doc, &reference);
            let own = branch["allOf"].as_array().and_then(|a| a.iter().find(|b| b["properties"].is_object()));
            let props = &own.unwrap_or(branch)["properties"];
            let values = enum_of(&doc, &props[tag]);
            assert!(values.contains(value), "{name}: {reference} does not hold {tag} {value}");
        }
    }
}

/// An optional request field may be sent as `null`: the server reads it as absent, and the
/// document says so.
#[tokio::test]
async fn an_optional_request_field_may_be_null() {
    let doc = openapi_doc();
    let mounted = &schema(&doc, "CreatureIn")["properties"]["mounted_on"]["type"];
    assert!(mounted.as_array().is_some_and(|t| t.contains(&json!("null"))), "{mounted}");
    let mut req = range_request();
    req["encounter"]["creatures"][0]["mounted_on"] = Value::Null;
    assert_eq!(post_json(test_app(), "/v1/range", &req).await.status, 200);
}

#[test]
fn dice_branches_are_closed() {
    let doc = openapi_doc();
    for branch in ["DiceRoll", "DiceGiven", "DiceOdds"] {
        assert_eq!(schema(&doc, branch)["additionalProperties"], false, "{branch}");
    }
    assert!(schema(&doc, "DiceRoll")["properties"].get("rolls").is_none());
}

#[test]
fn media_types_are_responses_not_parameters() {
    let doc = openapi_doc();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for p in op["parameters"].as_array().into_iter().flatten() {
                assert_ne!(p["name"], "Accept", "{method} {path}: Accept is a header parameter");
                if p["name"] == "Accept-Language" {
                    assert_eq!(enum_of(&doc, &p["schema"]), ["en", "fr"], "{method} {path}");
                }
            }
        }
    }
    for path in ["/v1/cover", "/v1/movement", "/v1/flanking", "/v1/concealment", "/v1/analyze"] {
        let content = &doc["paths"][path]["post"]["responses"]["200"]["content"];
        assert!(content["application/json"]["schema"]["$ref"].is_string(), "{path}");
        let svg = deref(&doc, &content["image/svg+xml"]["schema"]);
        assert_eq!(svg["type"], "string", "{path}");
        assert_eq!(svg["contentMediaType"], "image/svg+xml", "{path}");
    }
}

#[test]
fn every_operation_has_examples_and_each_problem_status_its_own() {
    let doc = openapi_doc();
    let mut problems: Vec<(String, Value)> = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if let Some(body) = op.get("requestBody") {
                let e = &body["content"]["application/json"]["examples"];
                assert!(e.as_object().is_some_and(|m| !m.is_empty()), "{method} {path}: no request example");
            }
            for (status, response) in op["responses"].as_object().unwrap() {
                for (media, content) in response["content"].as_object().into_iter().flatten() {
                    // Pictures, Prometheus text and the playground's page have no JSON example.
                    if media == "image/svg+xml" || media.starts_with("text/plain") || media == "text/html" {
                        continue;
                    }
                    let examples = content["examples"].as_object();
                    assert!(
                        examples.is_some_and(|m| !m.is_empty() && m.values().all(|e| e["value"].is_object())),
                        "{method} {path} {status} {media}: no example"
                    );
                    if media == "application/problem+json" {
                        for e in examples.unwrap().values() {
                            assert_eq!(e["value"]["status"].to_string(), *status, "{method} {path}");
                            problems.push((status.clone(), e["value"].clone()));
                        }
                    }
                }
            }
        }
    }
    // No example is shown under two statuses.
    for (s, p) in &problems {
        for (t, q) in &problems {
            assert!(s == t || p != q, "the same problem example under {s} and {t}: {p}");
        }
    }
}

/// The problem examples are the server's own problems (type, title, status).
#[tokio::test]
async fn problem_examples_are_the_servers_problems() {
    let doc = openapi_doc();
    let examples = |status: &str| -> Vec<Value> {
        doc["paths"]["/v1/range"]["post"]["responses"][status]["content"]["application/problem+json"]["examples"]
            .as_object()
            .unwrap()
            .values()
            .map(|e| e["value"].clone())
            .collect()
    };
    let same = |a: &Value, b: &Value| ["type", "title", "status"].iter().all(|k| a[*k] == b[*k]);
    let not_json = post_raw(test_app(), "/v1/range", "application/json", b"{".to_vec()).await.json();
    assert!(examples("400").iter().any(|e| same(e, &not_json)), "{not_json}");
    let media = post_raw(test_app(), "/v1/range", "text/plain", b"{}".to_vec()).await.json();
    assert!(examples("415").iter().any(|e| e == &media), "{media}");
    let large =
        post_raw(test_app(), "/v1/range", "application/json", vec![b' '; 2 * 1024 * 1024]).await.json();
    assert!(examples("413").iter().any(|e| e == &large), "{large}");
    let mut bad = range_request();
    bad["encounter"]["creatures"][1]["at"] = json!({"x": 12, "y": 0});
    let invalid = post_json(test_app(), "/v1/range", &bad).await.json();
    assert!(examples("422").iter().any(|e| same(e, &invalid)), "{invalid}");
}

/// The 200 example of every question is its answer to the request example, exactly.
#[tokio::test]
async fn every_answer_example_is_the_answer_to_the_request_example() {
    let doc = openapi_doc();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        let Some(op) = item.get("post") else { continue };
        let request = &op["requestBody"]["content"]["application/json"]["examples"]["example"]["value"];
        let answer = &op["responses"]["200"]["content"]["application/json"]["examples"]["example"]["value"];
        let res = post_json(test_app(), path, request).await;
        assert_eq!(res.status, 200, "{path}");
        assert!(
            &res.json() == answer,
            "{path}: the example answer is stale: read `cargo run --bin gen-openapi -- --answers` against RULES.md"
        );
        checked += 1;
    }
    assert_eq!(checked, 11);
}

/// Validates `v` against schema `s` (the keywords the document uses); failures name the
/// JSON pointer.
fn validate(doc: &Value, s: &Value, v: &Value, at: &str, out: &mut Vec<String>) {
    validate_in(doc, s, v, at, false, out);
}

/// `open`: inside an `allOf`, where the other branches declare the other fields.
fn validate_in(doc: &Value, s: &Value, v: &Value, at: &str, open: bool, out: &mut Vec<String>) {
    let s = deref(doc, s);
    if let Some(all) = s["allOf"].as_array() {
        all.iter().for_each(|b| validate_in(doc, b, v, at, true, out));
        if let Value::Object(m) = v {
            let declared = |k: &str| all.iter().any(|b| declares(doc, b, k));
            for k in m.keys().filter(|k| !declared(k)) {
                out.push(format!("{at}/{k}: not in the document"));
            }
        }
        return;
    }
    if let Some(branches) = s["oneOf"].as_array() {
        let tag = s["discriminator"]["propertyName"].as_str().unwrap_or("");
        let Some(reference) = v[tag].as_str().and_then(|t| s["discriminator"]["mapping"][t].as_str()) else {
            out.push(format!("{at}: {tag} {} names no branch", v[tag]));
            return;
        };
        assert!(branches.iter().any(|b| b["$ref"] == reference));
        return validate(doc, &json!({"$ref": reference}), v, at, out);
    }
    if let Some(values) = s["enum"].as_array()
        && !values.contains(v)
    {
        out.push(format!("{at}: {v} is not one of {values:?}"));
    }
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    if let Some(t) = s["type"].as_str()
        && t != kind
        && !(t == "number" && kind == "integer")
    {
        out.push(format!("{at}: a {kind} where the document says {t}"));
        return;
    }
    match v {
        Value::Object(m) => {
            for r in s["required"].as_array().into_iter().flatten() {
                if !m.contains_key(r.as_str().unwrap()) {
                    out.push(format!("{at}: {r} is missing"));
                }
            }
            for (k, x) in m {
                let here = format!("{at}/{k}");
                match s["properties"].get(k) {
                    Some(p) => validate(doc, p, x, &here, out),
                    None if s["additionalProperties"] == false => {
                        out.push(format!("{here}: not in the document"))
                    }
                    None if s["additionalProperties"].is_object() => {
                        validate(doc, &s["additionalProperties"], x, &here, out)
                    }
                    None if s["properties"].is_object() && !open => {
                        out.push(format!("{here}: not in the document"))
                    }
                    None => {}
                }
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                validate(doc, &s["items"], x, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Whether a schema (or one of its `allOf` branches) declares property `k`.
fn declares(doc: &Value, s: &Value, k: &str) -> bool {
    let s = deref(doc, s);
    s["properties"].get(k).is_some()
        || s["allOf"].as_array().is_some_and(|a| a.iter().any(|b| declares(doc, b, k)))
}

#[test]
fn the_validator_refuses_what_the_document_refuses() {
    let doc = openapi_doc();
    let mut out = Vec::new();
    let dice = json!({"$ref": "#/components/schemas/DiceIn"});
    validate(&doc, &dice, &json!({"mode": "roll", "seed": 3}), "", &mut out);
    assert!(out.is_empty(), "{out:?}");
    validate(&doc, &dice, &json!({"mode": "roll", "rolls": {"attack": [3]}}), "", &mut out);
    assert_eq!(out, ["/rolls: not in the document"]);
    out.clear();
    let result = json!({"$ref": "#/components/schemas/CoverResult"});
    validate(&doc, &result, &json!({"degree": "three-quarters"}), "", &mut out);
    assert!(out.iter().any(|f| f.starts_with("/degree: \"three-quarters\" is not one of")), "{out:?}");
}

/// Every answer of every fixture, in both languages, fits the document: the enums hold every
/// value the server sends, and no field is sent that the document does not declare.
#[tokio::test]
async fn every_fixture_answer_validates_against_the_document() {
    let app = test_app();
    let doc = openapi_doc();
    let mut failures = Vec::new();
    let mut answers = 0;
    for &(set, path) in FIXTURES {
        for case in fixtures_of(set) {
            let mut requests = vec![(path, case["request"].clone())];
            if path == "/v1/cover" {
                requests.push(("/v1/analyze", json!({"encounter": case["request"]["encounter"]})));
            }
            for (path, request) in requests {
                for lang in ["en", "fr"] {
                    let res = post_json_lang(app.clone(), path, &request, lang).await;
                    let op = &doc["paths"][path]["post"]["responses"];
                    let status = res.status.to_string();
                    let media =
                        if res.status == 200 { "application/json" } else { "application/problem+json" };
                    let s = &op[&status]["content"][media]["schema"];
                    assert!(s.is_object(), "{path} answered {status}, which the document does not list");
                    let mut out = Vec::new();
                    validate(&doc, s, &res.json(), "", &mut out);
                    failures
                        .extend(out.into_iter().map(|f| format!("{path} {} ({lang}): {f}", case["name"])));
                    answers += 1;
                }
            }
        }
    }
    failures.sort();
    failures.dedup();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(answers > 100, "only {answers} answers");
}
