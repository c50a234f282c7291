//! The input contract: the OpenAPI document bounds every request field, and the server
//! refuses a value past any stated bound with a 422 at that field, before any work; JSON of
//! the wrong shape is a 422 at the field, and only bytes that are not JSON are a 400.

use serde_json::{Map, Value, json};

use super::support::*;

/// Follows `$ref`s (the document declares no `null`: an optional field is its value's schema).
fn resolve<'a>(doc: &'a Value, mut s: &'a Value) -> &'a Value {
    while let Some(r) = s["$ref"].as_str() {
        s = &doc["components"]["schemas"][r.rsplit('/').next().unwrap()];
    }
    s
}

fn has_type(s: &Value, t: &str) -> bool {
    match &s["type"] {
        Value::String(x) => x == t,
        Value::Array(xs) => xs.iter().any(|x| x == t),
        _ => false,
    }
}

/// Every schema node reachable from a request body.
fn walk(doc: &Value, s: &Value, at: &str, seen: &mut Vec<String>, failures: &mut Vec<String>) {
    if let Some(r) = s["$ref"].as_str() {
        if seen.iter().any(|x| x == r) {
            return;
        }
        seen.push(r.to_owned());
        return walk(doc, resolve(doc, s), at, seen, failures);
    }
    if has_type(s, "string") && s.get("enum").is_none() && s.get("maxLength").is_none() {
        failures.push(format!("{at}: a string without maxLength"));
    }
    if has_type(s, "array") && s.get("maxItems").is_none() {
        failures.push(format!("{at}: an array without maxItems"));
    }
    for t in ["integer", "number"] {
        if has_type(s, t) && (s.get("minimum").is_none() || s.get("maximum").is_none()) {
            failures.push(format!("{at}: an {t} without minimum and maximum"));
        }
    }
    if s["additionalProperties"].is_object() {
        if s.get("maxProperties").is_none() {
            failures.push(format!("{at}: a map without maxProperties"));
        }
        if s["propertyNames"].get("maxLength").is_none() {
            failures.push(format!("{at}: a map whose keys have no maxLength"));
        }
        walk(doc, &s["additionalProperties"], &format!("{at}/*"), seen, failures);
    }
    if let Some(props) = s["properties"].as_object() {
        for (k, p) in props {
            walk(doc, p, &format!("{at}/{k}"), seen, failures);
        }
    }
    if s["items"].is_object() {
        walk(doc, &s["items"], &format!("{at}/0"), seen, failures);
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        for b in s[key].as_array().into_iter().flatten() {
            walk(doc, b, at, seen, failures);
        }
    }
}

#[test]
fn every_request_field_has_its_bounds_in_the_document() {
    let doc = openapi_doc();
    let mut failures = Vec::new();
    let ops = operations(&doc);
    assert!(ops.len() >= 9, "every question endpoint");
    for (_, name, _) in &ops {
        let mut seen = Vec::new();
        walk(&doc, &json!({"$ref": format!("#/components/schemas/{name}")}), name, &mut seen, &mut failures);
    }
    failures.sort();
    failures.dedup();
    assert!(failures.is_empty(), "unbounded request fields:\n{}", failures.join("\n"));
}

/// One mutation of an example: the pointer, the value put there, and whether it is past
/// the bound (false: exactly at it).
struct Mutation {
    pointer: String,
    value: Value,
    past: bool,
    bound: String,
}

/// The contract's messages for a bound, to tell them from the semantic checks that may
/// also speak about the same field at the bound itself (a square outside a small grid).
fn contract_details(bound: &str) -> Vec<String> {
    vec![
        format!("must be between {bound}"),
        format!("must be a number between {bound}"),
        format!("must be {bound} characters"),
        format!("must be at most {bound} characters"),
        format!("must be {bound} bytes"),
        format!("at most {bound} items"),
    ]
}

fn scalar_mutations(s: &Value, pointer: &str, present: Option<&Value>, out: &mut Vec<Mutation>) {
    let m = |value: Value, past: bool, bound: String| Mutation {
        pointer: pointer.to_owned(),
        value,
        past,
        bound,
    };
    for t in ["integer", "number"] {
        if !has_type(s, t) {
            continue;
        }
        let (lo, hi) = (s["minimum"].as_i64(), s["maximum"].as_i64());
        let range = |lo: i64, hi: i64| format!("{lo} and {hi}");
        if let Some(hi) = hi {
            let past = if t == "integer" { json!(hi + 1) } else { json!(hi as f64 + 0.5) };
            let bound = lo.map_or(hi.to_string(), |lo| range(lo, hi));
            out.push(m(past, true, bound.clone()));
            out.push(m(json!(hi), false, bound));
        }
        if let Some(lo) = lo {
            let past = if t == "integer" { json!(lo - 1) } else { json!(lo as f64 - 0.5) };
            let bound = hi.map_or(lo.to_string(), |hi| range(lo, hi));
            out.push(m(past, true, bound.clone()));
            out.push(m(json!(lo), false, bound));
        }
    }
    if has_type(s, "string") && s.get("enum").is_none() {
        let max = s["maxLength"].as_u64().unwrap() as usize;
        let min = s["minLength"].as_u64().unwrap_or(0) as usize;
        let bound = if min > 0 { format!("{min} to {max}") } else { max.to_string() };
        out.push(m(json!("a".repeat(max + 1)), true, bound.clone()));
        out.push(m(json!("a".repeat(max)), false, bound.clone()));
        if min > 0 {
            out.push(m(json!(""), true, bound));
        }
    }
    if has_type(s, "array")
        && let Some(Value::Array(items)) = present
        && let Some(first) = items.first()
        && let Some(max) = s["maxItems"].as_u64()
        // Past 10,000 items the body would pass the body limit (a 413, tested elsewhere).
        && max <= 10_000
    {
        out.push(m(Value::Array(vec![first.clone(); max as usize + 1]), true, max.to_string()));
    }
}

/// Mutations of every bounded field of `v` (and of the absent fields of objects that need
/// nothing to exist: stats, saves, senses, options).
fn mutations(doc: &Value, s: &Value, v: &Value, pointer: &str, out: &mut Vec<Mutation>) {
    let mut s = resolve(doc, s);
    // The dice: the branch of the mode given, by the discriminator's mapping.
    if let Some(tag) = s["discriminator"]["propertyName"].as_str()
        && let Some(r) = v[tag].as_str().and_then(|t| s["discriminator"]["mapping"][t].as_str())
    {
        s = &doc["components"]["schemas"][r.rsplit('/').next().unwrap()];
    }
    match v {
        Value::Object(obj) => {
            if let Some(props) = s["properties"].as_object() {
                for (k, ps) in props {
                    let p = format!("{pointer}/{k}");
                    let rs = resolve(doc, ps);
                    // Bounds sit on the property (inline) or on the schema it names.
                    let bounded = if ps.get("$ref").is_some() { rs } else { ps };
                    match obj.get(k) {
                        Some(x) => {
                            scalar_mutations(bounded, &p, Some(x), out);
                            mutations(doc, ps, x, &p, out);
                        }
                        None if has_type(rs, "object")
                            && rs.get("required").is_none()
                            && rs.get("properties").is_some() =>
                        {
                            let mut inner = Vec::new();
                            mutations(doc, ps, &json!({}), &p, &mut inner);
                            out.extend(inner);
                        }
                        None => scalar_mutations(bounded, &p, None, out),
                    }
                }
            }
            if s["additionalProperties"].is_object() {
                for (k, x) in obj {
                    let p = format!("{pointer}/{k}");
                    scalar_mutations(resolve(doc, &s["additionalProperties"]), &p, Some(x), out);
                    mutations(doc, &s["additionalProperties"], x, &p, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate().take(2) {
                let p = format!("{pointer}/{i}");
                scalar_mutations(resolve(doc, &s["items"]), &p, Some(x), out);
                mutations(doc, &s["items"], x, &p, out);
            }
        }
        _ => {}
    }
}

/// Sets `pointer` in `v`, creating the empty objects on the way.
fn set(v: &mut Value, pointer: &str, value: Value) {
    let mut at = v;
    let segs: Vec<&str> = pointer.split('/').skip(1).collect();
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == segs.len();
        at = match at {
            Value::Object(m) => {
                if last {
                    m.insert((*seg).to_owned(), value);
                    return;
                }
                m.entry((*seg).to_owned()).or_insert_with(|| Value::Object(Map::new()))
            }
            Value::Array(a) => {
                let i: usize = seg.parse().unwrap();
                if last {
                    a[i] = value;
                    return;
                }
                &mut a[i]
            }
            _ => panic!("{pointer}: cannot set under a scalar"),
        };
    }
}

#[tokio::test]
async fn every_example_past_every_stated_bound_is_422_at_the_field() {
    let doc = openapi_doc();
    // One app for every mutation: making one per request was most of this test's time.
    let app = test_app();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (path, name, example) in operations(&doc) {
        let mut ms = Vec::new();
        let schema = json!({"$ref": format!("#/components/schemas/{name}")});
        mutations(&doc, &schema, &example, "", &mut ms);
        for m in ms {
            let mut body = example.clone();
            set(&mut body, &m.pointer, m.value.clone());
            let res = post_json(app.clone(), &path, &body).await;
            let json = res.json();
            if res.status >= 500 {
                failures.push(format!("{path} {} = {}: {} {json}", m.pointer, short(&m.value), res.status));
            }
            let at: Vec<&Value> = json["errors"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|e| e["pointer"] == m.pointer.as_str())
                .collect();
            if m.past {
                if res.status != 422 || json["type"] != "urn:arbiter:problem:invalid-request" || at.is_empty()
                {
                    failures.push(format!(
                        "{path} {} = {}: {} {json}",
                        m.pointer,
                        short(&m.value),
                        res.status
                    ));
                }
            } else {
                let contract = contract_details(&m.bound);
                if at.iter().any(|e| contract.iter().any(|d| e["detail"] == d.as_str())) {
                    failures.push(format!("{path} {} at its bound {}: {json}", m.pointer, short(&m.value)));
                }
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} mutations misanswered:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 200, "only {checked} mutations");
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 { format!("{}… ({} bytes)", &s[..40], s.len()) } else { s }
}

/// A 422 whose errors include `pointer`.
async fn refused(path: &str, body: Value, pointer: &str) -> Value {
    let res = post_json(test_app(), path, &body).await;
    let json = res.json();
    assert_eq!(res.status, 422, "{pointer}: {json}");
    assert_eq!(res.content_type(), "application/problem+json");
    assert_eq!(json["type"], "urn:arbiter:problem:invalid-request", "{json}");
    assert!(pointers(&res).iter().any(|p| p == pointer), "{pointer} not in {json}");
    json
}

async fn refused_raw(path: &str, body: &str, pointer: &str) -> Value {
    let res = post_raw(test_app(), path, "application/json", body.as_bytes().to_vec()).await;
    let json = res.json();
    assert_eq!(res.status, 422, "{body}: {json}");
    assert_eq!(json["type"], "urn:arbiter:problem:invalid-request", "{json}");
    assert_eq!(pointers(&res), vec![pointer.to_owned()], "{body}: {json}");
    json
}

fn range_with(f: impl FnOnce(&mut Value)) -> Value {
    let mut r = range_request();
    f(&mut r);
    r
}

#[tokio::test]
async fn a_wrong_type_for_an_enum_is_422_at_the_field() {
    let body = range_with(|r| r["encounter"]["ruleset"] = Value::Null);
    let json = refused("/v1/range", body, "/encounter/ruleset").await;
    assert_eq!(
        json["errors"][0]["detail"], "must be one of: dnd5e2014, dnd5e2024, pf1e, sf1e, hb3d",
        "names the values: {json}"
    );
    refused(
        "/v1/range",
        range_with(|r| r["encounter"]["creatures"][1]["size"] = 3.into()),
        "/encounter/creatures/1/size",
    )
    .await;
    refused("/v1/range", range_with(|r| r["weapon"]["kind"] = json!(["ranged"])), "/weapon/kind").await;
}

#[tokio::test]
async fn a_number_out_of_range_is_422_at_the_field() {
    let body = serde_json::to_string(&range_request()).unwrap();
    refused_raw("/v1/range", &body.replace(r#""width":12"#, r#""width":1e400"#), "/encounter/grid/width")
        .await;
    let walls = r#""walls":[{"from":{"x":1e400,"y":0},"to":{"x":2,"y":0}}],"width":12"#;
    refused_raw("/v1/range", &body.replace(r#""width":12"#, walls), "/encounter/grid/walls/0/from/x").await;
    refused_raw(
        "/v1/range",
        &body.replace(r#""width":12"#, r#""width":99999999999999999999"#),
        "/encounter/grid/width",
    )
    .await;
}

#[tokio::test]
async fn a_duplicate_key_points_at_the_key() {
    let body = serde_json::to_string(&range_request()).unwrap();
    refused_raw(
        "/v1/range",
        &body.replace(r#""width":12"#, r#""width":12,"width":12"#),
        "/encounter/grid/width",
    )
    .await;
    refused_raw(
        "/v1/range",
        &body.replacen(r#""attacker":"valeros""#, r#""attacker":"valeros","attacker":"x""#, 1),
        "/attacker",
    )
    .await;
}

#[tokio::test]
async fn an_array_for_an_object_is_422_at_the_field() {
    refused("/v1/range", range_with(|r| r["encounter"]["grid"] = json!([10, 1])), "/encounter/grid").await;
    refused(
        "/v1/range",
        range_with(|r| r["encounter"]["creatures"][0]["at"] = json!([0, 2])),
        "/encounter/creatures/0/at",
    )
    .await;
    refused("/v1/range", range_with(|r| r["weapon"] = json!(["ranged", null, null, null, 100])), "/weapon")
        .await;
    refused(
        "/v1/range",
        range_with(|r| r["encounter"]["creatures"][0]["stats"] = json!([18])),
        "/encounter/creatures/0/stats",
    )
    .await;
    let attack = |dice: Value| {
        json!({
            "encounter": {"ruleset": "pf1e", "grid": {"width": 4, "height": 1}, "creatures": [
                {"id": "a", "side": "x", "at": {"x": 0, "y": 0}, "stats": {"attack_bonus": 5}},
                {"id": "t", "side": "y", "at": {"x": 1, "y": 0}, "stats": {"ac": 15}}]},
            "attacker": "a", "target": "t", "weapon": {"kind": "melee"}, "dice": dice
        })
    };
    refused("/v1/attack", attack(json!(["roll", 7])), "/dice").await;
    refused("/v1/attack", attack(json!({"mode": "given", "rolls": [[12]]})), "/dice/rolls").await;
    // The same question with objects is answered.
    assert_eq!(
        post_json(test_app(), "/v1/attack", &attack(json!({"mode": "given", "rolls": {"attack": [12]}})))
            .await
            .status,
        200
    );
    // A field of another dice mode is refused at that field.
    refused("/v1/attack", attack(json!({"mode": "odds", "seed": 3})), "/dice/seed").await;
    // Seeds stop at 2^53 − 1, where JavaScript numbers stop being exact.
    refused("/v1/attack", attack(json!({"mode": "roll", "seed": 9007199254740992_u64})), "/dice/seed").await;
    let res =
        post_json(test_app(), "/v1/attack", &attack(json!({"mode": "roll", "seed": 9007199254740991_u64})))
            .await;
    assert_eq!(res.status, 200, "{:?}", res.json());
}

#[tokio::test]
async fn stats_and_distances_past_their_caps_are_422() {
    for (stat, v) in [("dex_mod", 2147483647i64), ("ac", -1001), ("cmb", 1001)] {
        let body = range_with(|r| r["encounter"]["creatures"][1]["stats"][stat] = v.into());
        refused("/v1/range", body, &format!("/encounter/creatures/1/stats/{stat}")).await;
    }
    let body = range_with(|r| r["encounter"]["creatures"][1]["stats"]["saves"]["reflex"] = 5000.into());
    refused("/v1/range", body, "/encounter/creatures/1/stats/saves/reflex").await;
    refused("/v1/range", range_with(|r| r["weapon"]["attack_bonus"] = 1001.into()), "/weapon/attack_bonus")
        .await;
    // Elevation is refused, no longer clamped.
    let body =
        range_with(|r| r["encounter"]["creatures"][0]["elevation_ft"] = 1_000_000_000_000_000i64.into());
    refused("/v1/range", body, "/encounter/creatures/0/elevation_ft").await;
    // At the caps the question is answered.
    let ok = range_with(|r| {
        r["encounter"]["creatures"][1]["stats"] =
            json!({"dex_mod": 1000, "ac": -1000, "saves": {"reflex": 1000}});
        r["encounter"]["creatures"][0]["elevation_ft"] = 100_000.into();
        r["weapon"]["attack_bonus"] = 1000.into();
    });
    assert_eq!(post_json(test_app(), "/v1/range", &ok).await.status, 200);
}

#[tokio::test]
async fn lengths_and_counts_past_the_document_are_422() {
    let long = "x".repeat(65);
    refused("/v1/range", range_with(|r| r["weapon"]["name"] = long.clone().into()), "/weapon/name").await;
    refused(
        "/v1/range",
        range_with(|r| r["weapon"]["damage_type"] = long.clone().into()),
        "/weapon/damage_type",
    )
    .await;
    refused(
        "/v1/range",
        range_with(|r| r["weapon"]["properties"] = json!(vec!["light"; 33])),
        "/weapon/properties",
    )
    .await;
    let c0 = "/encounter/creatures/0";
    refused(
        "/v1/range",
        range_with(|r| r["encounter"]["creatures"][0]["feats"] = json!(vec!["a"; 65])),
        &format!("{c0}/feats"),
    )
    .await;
    refused(
        "/v1/range",
        range_with(|r| r["encounter"]["creatures"][0]["feats"] = json!([long])),
        &format!("{c0}/feats/0"),
    )
    .await;
    let body = range_with(|r| r["encounter"]["creatures"][0]["conditions"] = json!(vec!["prone"; 65]));
    refused("/v1/range", body, &format!("{c0}/conditions")).await;
    refused(
        "/v1/range",
        range_with(|r| r["encounter"]["creatures"][0]["mounted_on"] = "".into()),
        &format!("{c0}/mounted_on"),
    )
    .await;
    let body = range_with(|r| {
        r["encounter"]["grid"]["cells"] = json!([{"x": 0, "y": 0, "terrain": vec!["open"; 8]}]);
    });
    refused("/v1/range", body, "/encounter/grid/cells/0/terrain").await;
    let many: Map<String, Value> = (0..65).map(|i| (format!("v{i}"), Value::Bool(true))).collect();
    refused(
        "/v1/range",
        range_with(|r| r["encounter"]["variants"] = Value::Object(many)),
        "/encounter/variants",
    )
    .await;
}

fn scene() -> Value {
    json!({
        "ruleset": "pf1e",
        "grid": {"width": 10, "height": 10},
        "creatures": [
            {"id": "a", "side": "x", "at": {"x": 1, "y": 1}},
            {"id": "b", "side": "y", "at": {"x": 5, "y": 5}}
        ]
    })
}

#[tokio::test]
async fn repeated_ids_are_refused_at_the_repeat() {
    let body = json!({"encounter": scene(), "attackers": ["a", "b", "a"]});
    let json = refused("/v1/analyze", body, "/attackers/2").await;
    assert_eq!(json["errors"].as_array().unwrap().len(), 1, "{json}");
    let body = json!({"encounter": scene(), "attackers": vec!["a"; 501]});
    refused("/v1/analyze", body, "/attackers").await;
    let body = json!({"encounter": scene(), "dice": {"mode": "odds"}, "surprised": ["b", "b"]});
    refused("/v1/initiative", body, "/surprised/1").await;
    let body = json!({"encounter": scene(), "dice": {"mode": "odds"}, "surprised": vec!["b"; 501]});
    refused("/v1/initiative", body, "/surprised").await;
    let body = json!({"encounter": scene(), "dice": {"mode": "odds"}, "creatures": ["a", "b", "a"]});
    refused("/v1/initiative", body, "/creatures/2").await;
    // Once each is answered.
    let ok = json!({"encounter": scene(), "attackers": ["b", "a"]});
    assert_eq!(post_json(test_app(), "/v1/analyze", &ok).await.status, 200);
}

#[tokio::test]
async fn the_configured_caps_govern() {
    let app = app_with(|c| c.limits.max_creatures = 1);
    let res = post_json(app, "/v1/analyze", &json!({"encounter": scene(), "attackers": ["a"]})).await;
    assert_eq!(res.status, 422);
    let p = pointers(&res);
    assert!(p.contains(&"/encounter/creatures".to_owned()), "{p:?}");
}

#[tokio::test]
async fn given_faces_past_the_largest_die_are_422() {
    let body = json!({"encounter": scene(), "dice": {"mode": "given", "rolls": {"initiative": {"a": [101], "b": [3]}}}});
    refused("/v1/initiative", body, "/dice/rolls/initiative/a/0").await;
    let body = json!({"encounter": scene(), "dice": {"mode": "given", "rolls": {"initiative": {"a": vec![3; 65], "b": [3]}}}});
    refused("/v1/initiative", body, "/dice/rolls/initiative/a").await;
}

#[tokio::test]
async fn a_charge_at_the_mover_itself_is_422() {
    let mut s = scene();
    s["creatures"][1]["at"] = json!({"x": 6, "y": 1});
    let body =
        json!({"encounter": s, "creature": "a", "path": [{"x": 2, "y": 1}], "mode": "charge", "target": "a"});
    let json = refused("/v1/movement", body, "/target").await;
    assert_eq!(json["errors"].as_array().unwrap().len(), 1, "{json}");
}

/// The extreme stats that used to overflow the rules' sums (a helpless target's Dex, the 5e
/// 2024 grapple DC `8 + str_mod + pb`) are refused at the stat.
#[tokio::test]
async fn stats_that_used_to_overflow_are_refused_at_the_stat() {
    let attack = json!({
        "encounter": {"ruleset": "pf1e", "grid": {"width": 4, "height": 1}, "creatures": [
            {"id": "a", "side": "x", "at": {"x": 0, "y": 0}, "stats": {"attack_bonus": 5}},
            {"id": "t", "side": "y", "at": {"x": 1, "y": 0}, "conditions": ["helpless"],
             "stats": {"ac": 15, "dex_mod": 2147483647}}]},
        "attacker": "a", "target": "t", "weapon": {"kind": "melee"}, "dice": {"mode": "odds"}
    });
    refused("/v1/attack", attack, "/encounter/creatures/1/stats/dex_mod").await;
    let grapple = json!({
        "encounter": {"ruleset": "dnd5e2024", "grid": {"width": 4, "height": 1}, "creatures": [
            {"id": "a", "side": "x", "at": {"x": 0, "y": 0},
             "stats": {"str_mod": 2147483647, "proficiency_bonus": 2147483647}},
            {"id": "t", "side": "y", "at": {"x": 1, "y": 0}, "stats": {"saves": {"str": 1, "dex": 1}}}]},
        "kind": "grapple", "attacker": "a", "target": "t", "dice": {"mode": "odds"}
    });
    let json = refused("/v1/maneuvers", grapple, "/encounter/creatures/0/stats/str_mod").await;
    assert!(
        pointers_of(&json).contains(&"/encounter/creatures/0/stats/proficiency_bonus".to_owned()),
        "{json}"
    );
}

fn pointers_of(problem: &Value) -> Vec<String> {
    problem["errors"].as_array().unwrap().iter().map(|e| e["pointer"].as_str().unwrap().to_owned()).collect()
}

/// A key repeated in a map (variants, initiative faces) is refused at the key, not kept last.
#[tokio::test]
async fn a_key_repeated_in_a_map_is_refused_at_the_key() {
    let body = serde_json::to_string(&range_request()).unwrap().replacen(
        r#""ruleset":"pf1e""#,
        r#""ruleset":"pf1e","variants":{"pf1e.cover.partial":true,"pf1e.cover.partial":false}"#,
        1,
    );
    refused_raw("/v1/range", &body, "/encounter/variants/pf1e.cover.partial").await;
    let body = r#"{"encounter": {"ruleset": "pf1e", "grid": {"width": 10, "height": 10}, "creatures": [
        {"id": "a", "side": "x", "at": {"x": 1, "y": 1}}, {"id": "b", "side": "y", "at": {"x": 5, "y": 5}}]},
        "dice": {"mode": "given", "rolls": {"initiative": {"a": [3], "b": [4], "a": [5]}}}}"#;
    refused_raw("/v1/initiative", body, "/dice/rolls/initiative/a").await;
}

/// Every stat of every creature (and every weapon bonus) at +1000, then at −1000, all at once,
/// on every operation's example: the extremes the schema allows combine without a 500.
#[tokio::test]
async fn every_stat_at_its_extreme_at_once_never_answers_500() {
    const STATS: [&str; 15] = [
        "ac",
        "eac",
        "kac",
        "def",
        "attack_bonus",
        "str_mod",
        "dex_mod",
        "con_mod",
        "cmb",
        "cmd",
        "bab",
        "proficiency_bonus",
        "initiative_bonus",
        "athletics",
        "acrobatics",
    ];
    const SAVES: [&str; 9] = ["str", "dex", "con", "int", "wis", "cha", "fort", "reflex", "will"];
    fn extreme(v: &mut Value, to: i64) {
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    match (k.as_str(), x) {
                        ("creatures", Value::Array(cs)) => {
                            for c in cs.iter_mut() {
                                let mut stats: serde_json::Map<String, Value> =
                                    STATS.iter().map(|s| ((*s).to_owned(), json!(to))).collect();
                                let saves = SAVES.iter().map(|s| ((*s).to_owned(), json!(to))).collect();
                                stats.insert("saves".to_owned(), Value::Object(saves));
                                c["stats"] = Value::Object(stats);
                                extreme(c, to);
                            }
                        }
                        ("stats", _) => {}
                        ("attack_bonus", x) => *x = json!(to),
                        (_, x) => extreme(x, to),
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| extreme(x, to)),
            _ => {}
        }
    }
    let doc = openapi_doc();
    let mut tried = 0;
    for (path, _, example) in operations(&doc) {
        for to in [1000, -1000] {
            let mut body = example.clone();
            extreme(&mut body, to);
            let res = post_json(test_app(), &path, &body).await;
            assert!(res.status < 500, "{path} with every stat at {to}: {} {:?}", res.status, res.json());
            // Schema-valid extremes are answered; a 422 may only be a rule's own verdict.
            let kind = res.json()["type"].as_str().unwrap_or("").to_owned();
            assert!(
                res.status == 200 || (res.status == 422 && kind != "urn:arbiter:problem:invalid-request"),
                "{path} with every stat at {to}: {} {:?}",
                res.status,
                res.json()
            );
            tried += 1;
        }
    }
    assert!(tried >= 18, "only {tried} requests");
}
