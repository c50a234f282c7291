//! The committed OpenAPI document matches the one generated from the types.

use super::support::*;

#[tokio::test]
async fn committed_openapi_matches_the_served_document() {
    let served = get(test_app(), "/openapi.json").await;
    assert_eq!(served.status, 200);
    let served = served.json();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(path).expect("openapi/openapi.json: run `cargo run --bin gen-openapi`"),
    )
    .unwrap();
    assert!(
        served == committed,
        "openapi/openapi.json is out of date: run `cargo run --bin gen-openapi` and commit the result"
    );
}

#[tokio::test]
async fn document_states_the_caps_and_problem_responses() {
    let doc = get(test_app(), "/openapi.json").await.json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["EncounterIn"]["properties"]["creatures"]["maxItems"], 500);
    assert_eq!(schemas["GridIn"]["properties"]["width"]["maximum"], 1000);
    assert_eq!(schemas["CreatureIn"]["properties"]["id"]["maxLength"], 64);
    let range = &doc["paths"]["/v1/range"]["post"];
    for status in ["200", "400", "413", "415", "422", "503"] {
        assert!(range["responses"][status].is_object(), "missing {status}");
    }
    assert!(range["responses"]["422"]["content"]["application/problem+json"].is_object());
    assert!(range["requestBody"]["content"]["application/json"]["examples"]["example"]["value"].is_object());
    assert!(schemas["RangeRequest"]["examples"][0].is_object());
}

#[tokio::test]
async fn openapi_examples_work_verbatim() {
    let doc = get(test_app(), "/openapi.json").await.json();
    let mut posted = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        let Some(op) = item.get("post") else { continue };
        let reference = op["requestBody"]["content"]["application/json"]["schema"]["$ref"].as_str().unwrap();
        let name = reference.rsplit('/').next().unwrap();
        let example = doc["components"]["schemas"][name]["examples"][0].clone();
        assert!(example.is_object(), "{path}: {name} has no example");
        let res = post_json(test_app(), path, &example).await;
        assert_eq!(res.status, 200, "{path}: {}", String::from_utf8_lossy(&res.body));
        posted += 1;
    }
    assert!(posted >= 6, "every question endpoint has a working example");
    let example = doc["components"]["schemas"]["RangeRequest"]["examples"][0].clone();
    assert_eq!(post_json(test_app(), "/v1/range", &example).await.json()["result"]["distance_ft"], 105);
}

#[tokio::test]
async fn swagger_ui_is_served_from_the_binary() {
    let res = get(test_app(), "/docs/").await;
    assert_eq!(res.status, 200);
    assert!(String::from_utf8_lossy(&res.body).contains("swagger"));
}
