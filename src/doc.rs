//! The finishing pass over the generated OpenAPI document: what the derive macros cannot say.
//!
//! - An optional field of an answer is omitted, never `null` (every `Option` of the answer
//!   types is skipped when `None`), so its schema is the value's alone: utoipa's `T | null` (a
//!   `type` array, or `oneOf [null, $ref]`) becomes `T`. On input the server reads an explicit
//!   `null` as the field's absence (serde's `Option`), and the request schemas say so: they
//!   keep `T | null`, or a client (and schemathesis) would take an accepted `null` for a
//!   violation.
//! - A union is a `oneOf` with a `discriminator` (its `propertyName` and `mapping`), each
//!   branch a component: the dice (closed branches: a field of another mode is refused by the
//!   server and by the schema), and the answer objects whose fields depend on a `kind` or a
//!   `reason` (blockers, the attacker's move, a charge's obstacle).
//! - Every response has `examples`: a question's 200 is its answer to the request example
//!   (`openapi/examples/<operation>.json`, checked by hand and compared with the server's
//!   answer by `tests/http/schema.rs`), and each problem status its own problem documents,
//!   made by the very errors the server answers with.
//! - Schema examples are written `examples` (JSON Schema 2020-12), not the deprecated
//!   `example`.
//! - The description links the playground (`GET /playground`), which Swagger UI shows on top.

use serde_json::{Map, Value, json};

use crate::config::Config;
use arbiter_contract::error::{AppError, Issue, Text};
use arbiter_contract::lang::Lang;

/// Applies every rewrite of this module.
pub fn finish(doc: &mut Value) {
    let answers = reachable(doc, "responses");
    let requests = reachable(doc, "requestBody");
    if let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) {
        for (name, schema) in schemas.iter_mut() {
            if answers.contains(name) && !requests.contains(name) {
                not_nullable(schema);
            }
            examples(schema);
        }
    }
    split_inline(
        doc,
        "DiceIn",
        "mode",
        &[("roll", "DiceRoll"), ("given", "DiceGiven"), ("odds", "DiceOdds")],
    );
    for (name, tag, branches) in SPLITS {
        split(doc, name, tag, branches);
    }
    merge_all_of(doc, "DamageIn");
    link_playground(doc);
    let request_examples = request_examples(doc);
    if let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) {
        for item in paths.values_mut() {
            for op in item.as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
                if let Some(body) = op.pointer_mut("/requestBody/content/application~1json")
                    && let Some(name) = body.pointer("/schema/$ref").and_then(Value::as_str)
                    && let Some(example) = request_examples.get(name.rsplit('/').next().unwrap_or(""))
                {
                    body["examples"] = json!({"example": {"summary": "A question the test suite asks verbatim", "value": example}});
                }
                let id = op["operationId"].as_str().unwrap_or("").to_owned();
                for (status, response) in
                    op.get_mut("responses").and_then(Value::as_object_mut).into_iter().flatten()
                {
                    response_examples(&id, status, response);
                }
                for p in op.get_mut("parameters").and_then(Value::as_array_mut).into_iter().flatten() {
                    if let Some(s) = p.get_mut("schema") {
                        strip_null(s);
                    }
                }
            }
        }
    }
}

/// Appends a link to the playground to the document's description. Relative, from Swagger
/// UI's `/docs/`, so that it still works behind a proxy that serves the API under a prefix.
fn link_playground(doc: &mut Value) {
    if let Some(Value::String(text)) = doc.pointer_mut("/info/description") {
        text.push_str(" Try the questions in a browser: [the playground](../playground).");
    }
}

/// One schema of the `allOf` branches of `name`: a value that is a string or an array (a
/// weapon's `damage`) states its string bounds and its array bounds side by side, each of
/// which applies to its own type only; utoipa has no builder for such a schema.
fn merge_all_of(doc: &mut Value, name: &str) {
    let Some(s) = doc.pointer_mut(&format!("/components/schemas/{name}")) else { return };
    let Some(branches) = s.get("allOf").and_then(Value::as_array).cloned() else { return };
    let mut merged = Map::new();
    for b in branches.iter().filter_map(Value::as_object) {
        for (k, v) in b {
            if k != "description" {
                merged.insert(k.clone(), v.clone());
            }
        }
    }
    let parts: Vec<&str> = branches.iter().filter_map(|b| b["description"].as_str()).collect();
    let own = s.get("description").and_then(Value::as_str).unwrap_or("");
    merged.insert("description".into(), json!(format!("{own} {}", parts.join(" ")).trim().to_owned()));
    if let Some(e) = s.get("examples") {
        merged.insert("examples".into(), e.clone());
    }
    *s = Value::Object(merged);
}

/// The committed answers to the request examples, by operation id.
const ANSWERS: &[(&str, &str)] = &[
    ("range", include_str!("../openapi/examples/range.json")),
    ("cover", include_str!("../openapi/examples/cover.json")),
    ("flanking", include_str!("../openapi/examples/flanking.json")),
    ("concealment", include_str!("../openapi/examples/concealment.json")),
    ("attack", include_str!("../openapi/examples/attack.json")),
    ("maneuvers", include_str!("../openapi/examples/maneuvers.json")),
    ("movement", include_str!("../openapi/examples/movement.json")),
    ("initiative", include_str!("../openapi/examples/initiative.json")),
    ("analyze", include_str!("../openapi/examples/analyze.json")),
    ("import_foundry", include_str!("../openapi/examples/import_foundry.json")),
    ("import_uvtt", include_str!("../openapi/examples/import_uvtt.json")),
];

/// The committed answer to an operation's request example (`None` for an operation without
/// one, or a file that is not JSON, which the schema test reports).
pub fn answer(operation: &str) -> Option<Value> {
    ANSWERS.iter().find(|(id, _)| *id == operation).and_then(|(_, a)| serde_json::from_str(a).ok())
}

/// The problem documents a status may carry, each made by the error the server answers with
/// (the default configuration, `Config::for_tests`).
pub fn problems(status: &str) -> Vec<(&'static str, Value)> {
    let c = Config::for_tests();
    let errors: Vec<(&'static str, AppError)> = match status {
        "400" => {
            let cut = br#"{"encounter": "#;
            let e = serde_json::from_slice::<Value>(cut).expect_err("a cut body is not JSON");
            vec![("not_json", AppError::Malformed(arbiter_contract::parse::malformed(cut, &e)))]
        }
        "406" => vec![("json_only", crate::middleware::json_only())],
        "408" => vec![("slow_body", AppError::BodyTimeout(c.body_read_timeout_secs))],
        "413" => vec![("too_large", AppError::TooLarge(c.limits.max_body_bytes))],
        "415" => vec![("not_json_media_type", AppError::UnsupportedMediaType)],
        "422" => vec![
            (
                "invalid",
                AppError::Invalid(vec![Issue::new(
                    "/encounter/creatures/1/at",
                    Text::new(
                        "its 1×1 space from (12, 0) must lie inside the 12×8 grid",
                        "son espace de 1×1 depuis (12, 0) doit tenir dans la grille de 12×8",
                    ),
                )]),
            ),
            ("budget", AppError::Budget(c.limits.work_budget)),
        ],
        "503" => vec![
            ("overloaded", AppError::Overloaded),
            ("timeout", AppError::Timeout),
            ("shutting_down", AppError::ShuttingDown),
        ],
        _ => vec![],
    };
    errors
        .into_iter()
        .map(|(name, e)| (name, serde_json::to_value(e.problem(Lang::En)).unwrap_or_default()))
        .collect()
}

/// The problem documents of a status of operation `id`: an import's body limit is its own,
/// and its 413 names where in the file the limit was reached.
fn problems_of(id: &str, status: &str) -> Vec<(&'static str, Value)> {
    if id.starts_with("import_") && status == "413" {
        let limit = Config::for_tests().limits.max_import_bytes;
        let e = AppError::ImportTooLarge { limit, pointer: "/image".into() };
        return vec![("too_large", serde_json::to_value(e.problem(Lang::En)).unwrap_or_default())];
    }
    problems(status)
}

/// Writes the examples of one response of operation `id`.
fn response_examples(id: &str, status: &str, response: &mut Value) {
    let Some(content) = response.get_mut("content").and_then(Value::as_object_mut) else { return };
    if let Some(problem) = content.get_mut("application/problem+json") {
        let examples: Map<String, Value> = problems_of(id, status)
            .into_iter()
            .map(|(name, p)| (name.to_owned(), json!({"summary": p["title"], "value": p})))
            .collect();
        problem["examples"] = Value::Object(examples);
    }
    if let Some(body) = content.get_mut("application/json")
        && let Some(value) = get_answer(id, status)
    {
        let summary = if id.is_empty() || !content_is_question(id) {
            "An answer"
        } else {
            "The answer to the request example"
        };
        body["examples"] = json!({"example": {"summary": summary, "value": value}});
    }
}

/// Whether an operation is a question (it has a committed answer).
fn content_is_question(id: &str) -> bool {
    ANSWERS.iter().any(|(q, _)| *q == id)
}

/// The example of a JSON answer of the catalog and health operations, or a question's 200.
fn get_answer(id: &str, status: &str) -> Option<Value> {
    let first = |list: Value, key: &str| {
        let items: Vec<Value> =
            list[key].as_array().map(|a| a.iter().take(2).cloned().collect()).unwrap_or_default();
        json!({ key: items })
    };
    match (id, status) {
        ("healthz" | "readyz", "200") => Some(json!({"status": "ok"})),
        ("readyz", "503") => Some(json!({"status": "draining"})),
        ("rules", "200") => Some(first(
            serde_json::to_value(arbiter_contract::api::catalog::RulesResponse::all()).ok()?,
            "rules",
        )),
        ("rulesets", "200") => Some(first(
            serde_json::to_value(arbiter_contract::api::catalog::RulesetsResponse::all()).ok()?,
            "rulesets",
        )),
        (_, "200") => answer(id),
        _ => None,
    }
}

/// A branch of a split object: its component, the tag values it holds, its fields besides
/// the tag, and which of them are always there.
type Branch = (&'static str, &'static [&'static str], &'static [&'static str], &'static [&'static str]);

/// The answer objects split into discriminated branches: (schema, tag property, branches).
const SPLITS: &[(&str, &str, &[Branch])] = &[
    (
        "BlockerOut",
        "kind",
        &[
            ("SquareBlockerOut", &["solid", "low"], &["square"], &[]),
            ("CreatureBlockerOut", &["creature"], &["square", "creature"], &["creature"]),
            ("WallBlockerOut", &["wall"], &["wall", "wall_kind"], &["wall", "wall_kind"]),
        ],
    ),
    (
        "AttackerMoveOut",
        "kind",
        &[
            ("FollowMoveOut", &["follow"], &["walk"], &["walk"]),
            ("ThroughMoveOut", &["through"], &["walk"], &["walk"]),
            ("FrontMoveOut", &["front"], &["walk"], &["walk"]),
        ],
    ),
    (
        "ChargeObstacleOut",
        "reason",
        &[
            (
                "NoPathObstacleOut",
                &["no_attack_square", "too_short", "too_long", "no_line_of_sight"],
                &[],
                &[],
            ),
            (
                "SquareObstacleOut",
                &["not_closest", "end_blocked", "difficult_terrain"],
                &["square"],
                &["square"],
            ),
            ("PathObstacleOut", &["path_blocked"], &["square"], &[]),
            (
                "CreatureObstacleOut",
                &["end_occupied", "path_creature"],
                &["square", "creature"],
                &["square", "creature"],
            ),
        ],
    ),
];

/// A `oneOf` of components, discriminated by `tag` (`mapping`: value, component).
fn union(description: Value, tag: &str, mapping: &[(&str, &str)]) -> Value {
    let reference = |c: &str| format!("#/components/schemas/{c}");
    let mut refs: Vec<Value> = Vec::new();
    for (_, c) in mapping {
        let r = json!({"$ref": reference(c)});
        if !refs.contains(&r) {
            refs.push(r);
        }
    }
    let map: Map<String, Value> =
        mapping.iter().map(|(v, c)| ((*v).to_owned(), Value::String(reference(c)))).collect();
    json!({
        "description": description,
        "oneOf": refs,
        "discriminator": {"propertyName": tag, "mapping": map},
    })
}

/// Replaces an object schema by a union of branches holding the fields of their tag values.
fn split(doc: &mut Value, name: &str, tag: &str, branches: &[Branch]) {
    let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) else { return };
    let Some(base) = schemas.get(name).cloned() else { return };
    let mut mapping = Vec::new();
    for (component, values, fields, required) in branches {
        let tag_schema = json!({"type": "string", "enum": values});
        let mut props = Map::new();
        props.insert(tag.to_owned(), tag_schema);
        for f in *fields {
            props.insert((*f).to_owned(), base["properties"][*f].clone());
        }
        let mut req = vec![Value::String(tag.to_owned())];
        req.extend(required.iter().map(|r| Value::String((*r).to_owned())));
        let description = format!(
            "{} (`{tag}`: {}).",
            base["description"].as_str().unwrap_or("").trim_end_matches('.'),
            values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
        );
        schemas.insert(
            (*component).to_owned(),
            json!({"type": "object", "description": description, "properties": props, "required": req}),
        );
        mapping.extend(values.iter().map(|v| (*v, *component)));
    }
    schemas.insert(name.to_owned(), union(base["description"].clone(), tag, &mapping));
}

/// Moves the inline branches of a `oneOf` to components (`(tag value, component)`), closes
/// them (`additionalProperties: false`, as the server refuses a field of another branch) and
/// discriminates them by `tag`.
fn split_inline(doc: &mut Value, name: &str, tag: &str, components: &[(&str, &str)]) {
    let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) else { return };
    let Some(base) = schemas.get(name).cloned() else { return };
    for b in base["oneOf"].as_array().into_iter().flatten() {
        let value = b["properties"][tag]["enum"][0].as_str().unwrap_or("");
        if let Some((_, component)) = components.iter().find(|(v, _)| *v == value) {
            let mut b = b.clone();
            b["additionalProperties"] = Value::Bool(false);
            schemas.insert((*component).to_owned(), b);
        }
    }
    schemas.insert(name.to_owned(), union(base["description"].clone(), tag, components));
}

/// The example of every schema that has one, by name (after [`examples`] ran).
fn request_examples(doc: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    for (name, s) in doc.pointer("/components/schemas").and_then(Value::as_object).into_iter().flatten() {
        if let Some(e) = s.pointer("/examples/0") {
            out.insert(name.clone(), e.clone());
        }
    }
    out
}

/// The schemas reachable from the operations' `key` (`responses`, `requestBody`) by `$ref`.
fn reachable(doc: &Value, key: &str) -> std::collections::BTreeSet<String> {
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                    out.push(r.rsplit('/').next().unwrap_or("").to_owned());
                }
                m.values().for_each(|x| refs(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            _ => {}
        }
    }
    let mut todo = Vec::new();
    for item in doc["paths"].as_object().into_iter().flat_map(|m| m.values()) {
        for op in item.as_object().into_iter().flat_map(|m| m.values()) {
            refs(&op[key], &mut todo);
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    while let Some(name) = todo.pop() {
        if seen.insert(name.clone()) {
            refs(&doc["components"]["schemas"][&name], &mut todo);
        }
    }
    seen
}

/// Removes `null` from every optional property's schema, recursively.
fn not_nullable(s: &mut Value) {
    let Some(obj) = s.as_object_mut() else { return };
    if let Some(props) = obj.get_mut("properties").and_then(Value::as_object_mut) {
        for p in props.values_mut() {
            strip_null(p);
        }
    }
    for key in ["properties", "additionalProperties", "items", "oneOf", "anyOf", "allOf"] {
        match obj.get_mut(key) {
            Some(Value::Object(m)) if key == "properties" => m.values_mut().for_each(not_nullable),
            Some(Value::Array(a)) => a.iter_mut().for_each(not_nullable),
            Some(v @ Value::Object(_)) => not_nullable(v),
            _ => {}
        }
    }
}

/// `T | null` as `T`: a `type` array loses `"null"`, a `oneOf` with a `{"type": "null"}`
/// branch becomes its other branch (a `$ref` keeps the property's description beside it).
fn strip_null(s: &mut Value) {
    let Some(obj) = s.as_object_mut() else { return };
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let t = types.remove(0);
            obj.insert("type".to_owned(), t);
        }
    }
    if let Some(Value::Array(branches)) = obj.get("oneOf")
        && branches.len() == 2
        && let Some(i) = branches.iter().position(|b| b.get("type").is_some_and(|t| t == "null"))
    {
        let mut other = branches[1 - i].clone();
        obj.remove("oneOf");
        if let Value::Object(o) = &mut other {
            for (k, v) in std::mem::take(obj) {
                o.entry(k).or_insert(v);
            }
        }
        *s = other;
        strip_null(s);
    }
}

/// `example` as `examples` (a list), recursively through properties.
fn examples(s: &mut Value) {
    let Some(obj) = s.as_object_mut() else { return };
    if let Some(e) = obj.remove("example") {
        obj.insert("examples".to_owned(), Value::Array(vec![e]));
    }
    if let Some(props) = obj.get_mut("properties").and_then(Value::as_object_mut) {
        props.values_mut().for_each(examples);
    }
}
