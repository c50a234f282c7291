//! Bad input answers problem+json (never 500), pointing at the field, and the server keeps
//! serving.

use serde_json::{Value, json};

use super::support::*;

async fn problem(req: &Value) -> (u16, Vec<String>, Value) {
    let res = post_json(test_app(), "/v1/range", req).await;
    assert_eq!(res.content_type(), "application/problem+json", "{}", String::from_utf8_lossy(&res.body));
    let body = res.json();
    assert_eq!(body["status"].as_u64(), Some(res.status as u64));
    assert!(body["type"].as_str().unwrap().starts_with("urn:arbiter:problem:"));
    (res.status, pointers(&res), body)
}

fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut r = range_request();
    f(&mut r);
    r
}

#[tokio::test]
async fn malformed_and_truncated_json_are_400() {
    let mut trailing = serde_json::to_vec(&range_request()).unwrap();
    trailing.extend_from_slice(b" trailing");
    for body in [b"{\"encounter\": ".to_vec(), b"not json".to_vec(), trailing, vec![]] {
        let res = post_raw(test_app(), "/v1/range", "application/json", body.clone()).await;
        assert_eq!(res.status, 400, "{}", String::from_utf8_lossy(&body));
        assert_eq!(res.content_type(), "application/problem+json");
        assert_eq!(res.json()["type"], "urn:arbiter:problem:malformed-json");
    }
}

#[tokio::test]
async fn wrong_media_type_is_415() {
    let body = serde_json::to_vec(&range_request()).unwrap();
    let res = post_raw(test_app(), "/v1/range", "text/plain", body).await;
    assert_eq!(res.status, 415);
    assert_eq!(res.content_type(), "application/problem+json");
}

#[tokio::test]
async fn three_mib_body_is_413() {
    let mut req = range_request();
    req["attacker"] = "x".repeat(3 * 1024 * 1024).into();
    let res = post_json(test_app(), "/v1/range", &req).await;
    assert_eq!(res.status, 413);
    assert_eq!(res.json()["type"], "urn:arbiter:problem:body-too-large");
}

#[tokio::test]
async fn wrong_types_point_at_the_field() {
    let (s, p, _) = problem(&with(|r| r["encounter"]["grid"]["width"] = "12".into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/grid/width".to_owned()]));
    let (s, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["at"]["x"] = 1.5.into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/creatures/1/at/x".to_owned()]));
}

#[tokio::test]
async fn unknown_fields_are_rejected() {
    let (s, p, body) = problem(&with(|r| r["encounter"]["grid"]["widht"] = 12.into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/grid/widht".to_owned()]));
    assert!(
        body["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .starts_with("is not a field here; the fields are: width, ")
    );
    let (_, p, _) = problem(&with(|r| r["encounter"]["creatures"][0]["stats"]["armour"] = 3.into())).await;
    assert_eq!(p, vec!["/encounter/creatures/0/stats/armour".to_owned()]);
}

#[tokio::test]
async fn unknown_ruleset() {
    let (s, p, body) = problem(&with(|r| r["encounter"]["ruleset"] = "dnd3e".into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/ruleset".to_owned()]));
    assert!(body["errors"][0]["detail"].as_str().unwrap().contains("pf1e"), "lists the known rulesets");
}

#[tokio::test]
async fn unknown_creature_ids() {
    let (s, p, _) = problem(&with(|r| {
        r["attacker"] = "nobody".into();
        r["target"] = "ghost".into();
    }))
    .await;
    assert_eq!((s, p), (422, vec!["/attacker".to_owned(), "/target".to_owned()]));
}

#[tokio::test]
async fn attacker_equal_target() {
    let (s, p, _) = problem(&with(|r| r["target"] = "valeros".into())).await;
    assert_eq!((s, p), (422, vec!["/target".to_owned()]));
}

#[tokio::test]
async fn creature_outside_the_grid() {
    let (s, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["at"] = json!({"x": 12, "y": 0}))).await;
    assert_eq!((s, p), (422, vec!["/encounter/creatures/1/at".to_owned()]));
    // A Large creature whose second column falls off the map.
    let (_, p, _) = problem(&with(|r| {
        r["encounter"]["creatures"][1]["at"] = json!({"x": 11, "y": 0});
        r["encounter"]["creatures"][1]["size"] = "large".into();
    }))
    .await;
    assert_eq!(p, vec!["/encounter/creatures/1/at".to_owned()]);
    let (_, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["at"] = json!({"x": -1, "y": 0}))).await;
    assert_eq!(p, vec!["/encounter/creatures/1/at".to_owned()]);
}

#[tokio::test]
async fn map_shape_and_characters() {
    let (s, p, _) = problem(&with(|r| r["encounter"]["grid"]["map"][2] = "....#...=..".into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/grid/map/2".to_owned()]));
    let (_, p, body) = problem(&with(|r| r["encounter"]["grid"]["map"][1] = "....#...X...".into())).await;
    assert_eq!(p, vec!["/encounter/grid/map/1".to_owned()]);
    assert!(body["errors"][0]["detail"].as_str().unwrap().contains("'X'"));
    let (_, p, _) = problem(&with(|r| {
        r["encounter"]["grid"]["map"].as_array_mut().unwrap().pop();
    }))
    .await;
    assert_eq!(p, vec!["/encounter/grid/map".to_owned()]);
    let (_, p, _) = problem(&with(|r| r["encounter"]["grid"]["light_map"] = json!(["bbbb"]))).await;
    assert!(p.contains(&"/encounter/grid/light_map".to_owned()), "{p:?}");
}

#[tokio::test]
async fn duplicate_ids_and_overlaps() {
    let (s, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["id"] = "valeros".into())).await;
    assert_eq!(s, 422);
    assert!(p.contains(&"/encounter/creatures/1/id".to_owned()), "{p:?}");
    let (_, p, _) = problem(&with(|r| r["encounter"]["creatures"][1]["at"] = json!({"x": 1, "y": 2}))).await;
    assert_eq!(p, vec!["/encounter/creatures/1/at".to_owned()]);
    // Tiny creatures may share a square; a rider may share its mount's.
    let ok = post_json(
        test_app(),
        "/v1/range",
        &with(|r| {
            r["encounter"]["creatures"][1]["at"] = json!({"x": 1, "y": 2});
            r["encounter"]["creatures"][1]["size"] = "tiny".into();
        }),
    )
    .await;
    assert_eq!(ok.status, 200);
}

#[tokio::test]
async fn weapon_without_the_range_fields_the_ruleset_needs() {
    let (s, p, _) = problem(&with(|r| r["weapon"] = json!({"kind": "ranged", "normal_ft": 80}))).await;
    assert_eq!((s, p), (422, vec!["/weapon/increment_ft".to_owned()]));
    let (s, p, _) = problem(&with(|r| {
        r["encounter"]["ruleset"] = "dnd5e2024".into();
        r["weapon"] = json!({"kind": "ranged", "increment_ft": 100});
    }))
    .await;
    assert_eq!((s, p), (422, vec!["/weapon/normal_ft".to_owned()]));
}

#[tokio::test]
async fn grid_zero_and_over_the_caps() {
    let (s, p, _) = problem(&with(|r| {
        r["encounter"]["grid"] = json!({"width": 0, "height": 0});
        r["encounter"]["creatures"] = json!([]);
    }))
    .await;
    assert_eq!(s, 422);
    assert!(
        p.contains(&"/encounter/grid/width".to_owned()) && p.contains(&"/encounter/grid/height".to_owned()),
        "{p:?}"
    );
    let (_, p, _) = problem(&with(|r| {
        r["encounter"]["grid"] = json!({"width": 1001, "height": 8});
    }))
    .await;
    assert!(p.contains(&"/encounter/grid/width".to_owned()), "{p:?}");
    let many: Vec<Value> = (0..501)
        .map(|i| json!({"id": format!("c{i}"), "side": "x", "at": {"x": i % 40, "y": i / 40}}))
        .collect();
    let (_, p, _) = problem(&with(|r| {
        r["encounter"]["grid"] = json!({"width": 40, "height": 40});
        r["encounter"]["creatures"] = Value::Array(many);
    }))
    .await;
    assert!(p.contains(&"/encounter/creatures".to_owned()), "{p:?}");
    let (_, p, _) = problem(&with(|r| r["encounter"]["creatures"][0]["id"] = "v".repeat(65).into())).await;
    assert!(p.contains(&"/encounter/creatures/0/id".to_owned()), "{p:?}");
}

#[tokio::test]
async fn conditions_sizes_and_variants_the_ruleset_does_not_know() {
    let (s, p, body) = problem(&with(|r| {
        r["encounter"]["creatures"][0]["conditions"] = json!(["prone", "off_kilter"]);
        r["encounter"]["creatures"][1]["size"] = "colossal".into();
        r["encounter"]["ruleset"] = "dnd5e2014".into();
        r["encounter"]["variants"] = json!({"pf1e.cover.partial": true});
        r["weapon"] = json!({"kind": "ranged", "normal_ft": 80});
    }))
    .await;
    assert_eq!(s, 422);
    assert_eq!(
        p,
        vec![
            "/encounter/variants/pf1e.cover.partial".to_owned(),
            "/encounter/creatures/0/conditions/1".to_owned(),
            "/encounter/creatures/1/size".to_owned(),
        ],
        "every problem at once (a size the ruleset does not know hides the square's check): {body}"
    );
}

#[tokio::test]
async fn wall_end_points_inside_the_grid() {
    let (s, p, _) = problem(&with(|r| {
        r["encounter"]["grid"]["walls"] =
            json!([{"from": {"x": 2.5, "y": 0}, "to": {"x": 2.5, "y": 9}, "kind": "solid"}]);
    }))
    .await;
    assert_eq!((s, p), (422, vec!["/encounter/grid/walls/0/to/y".to_owned()]));
}

#[tokio::test]
async fn the_server_keeps_serving_after_bad_input() {
    let app = test_app();
    let _ = post_raw(app.clone(), "/v1/range", "application/json", b"{{{{".to_vec()).await;
    assert_eq!(get(app.clone(), "/healthz").await.status, 200);
    assert_eq!(post_json(app, "/v1/range", &range_request()).await.status, 200);
}

/// Every question that names creatures answers one 422 pointing at each unknown id, in the
/// order of its fields (after a field of its own that is wrong, such as a maneuver's kind);
/// in an invalid encounter no id is looked up, so only its problems answer (and the kind's).
#[tokio::test]
async fn every_question_points_at_each_unknown_creature_id_in_field_order() {
    let doc = get(test_app(), "/openapi.json").await.json();
    let example = |name: &str| doc["components"]["schemas"][name]["examples"][0].clone();
    let pair = ["/attacker", "/target"];
    let cases: Vec<(&str, Value, Vec<&str>)> = vec![
        ("/v1/range", example("RangeRequest"), pair.to_vec()),
        ("/v1/cover", example("CoverRequest"), pair.to_vec()),
        ("/v1/flanking", example("FlankingRequest"), pair.to_vec()),
        ("/v1/concealment", example("ConcealmentRequest"), pair.to_vec()),
        ("/v1/attack", example("AttackRequest"), pair.to_vec()),
        ("/v1/maneuvers", example("ManeuverRequest"), vec!["/kind", "/attacker", "/target"]),
        (
            "/v1/movement",
            example("MovementRequest"),
            vec!["/creature", "/target", "/mount", "/options/dragging"],
        ),
        ("/v1/initiative", example("InitiativeRequest"), vec!["/creatures/1", "/surprised/0", "/groups/0/1"]),
        ("/v1/analyze", example("AnalyzeRequest"), vec!["/attackers/0", "/attackers/2"]),
    ];
    for (path, valid, expected) in cases {
        let known = valid["encounter"]["creatures"][0]["id"].clone();
        let mut req = valid;
        match path {
            "/v1/maneuvers" => {
                req["kind"] = "somersault".into();
                req["attacker"] = "nobody".into();
                req["target"] = "ghost".into();
            }
            "/v1/movement" => {
                req["creature"] = "nobody".into();
                req["target"] = "ghost".into();
                req["mount"] = "horse".into();
                req["options"] = json!({"dragging": "sack"});
            }
            "/v1/initiative" => {
                req["creatures"] = json!([known.clone(), "nobody"]);
                req["surprised"] = json!(["ghost"]);
                req["groups"] = json!([[known.clone(), "wolf"]]);
            }
            "/v1/analyze" => req["attackers"] = json!(["nobody", known.clone(), "ghost"]),
            _ => {
                req["attacker"] = "nobody".into();
                req["target"] = "ghost".into();
            }
        }
        let res = post_json(test_app(), path, &req).await;
        assert_eq!(res.status, 422, "{path}: {}", String::from_utf8_lossy(&res.body));
        assert_eq!(res.content_type(), "application/problem+json", "{path}");
        assert_eq!(pointers(&res), expected, "{path}");
        let detail = res.json()["errors"][expected.len() - 1]["detail"].as_str().unwrap().to_owned();
        assert!(detail.contains(known.as_str().unwrap()), "{path}: the known ids are listed: {detail}");

        // Within every stated bound, but off the map: the mapping finds it.
        req["encounter"]["creatures"][0]["at"]["x"] = req["encounter"]["grid"]["width"].clone();
        let res = post_json(test_app(), path, &req).await;
        assert_eq!(res.status, 422, "{path}");
        let mut expected: Vec<&str> = expected.into_iter().filter(|p| *p == "/kind").collect();
        expected.insert(0, "/encounter/creatures/0/at");
        assert_eq!(pointers(&res), expected, "{path}: no id is looked up in an invalid encounter");
    }
}

/// A problem asked for in `lang`: its status, `Content-Language` and body.
async fn problem_in(path: &str, req: &Value, lang: &str) -> (u16, String, Value) {
    let body = serde_json::to_vec(req).unwrap();
    let request = axum::http::Request::post(path)
        .header("content-type", "application/json")
        .header("accept-language", lang)
        .body(axum::body::Body::from(body))
        .unwrap();
    let res = send(test_app(), request).await;
    assert_eq!(res.content_type(), "application/problem+json", "{}", String::from_utf8_lossy(&res.body));
    let language = res.headers.get("content-language").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    (res.status, language, res.json())
}

/// The (pointer, detail) pairs of a problem.
fn details(body: &Value) -> Vec<(String, String)> {
    body["errors"]
        .as_array()
        .map(|e| {
            e.iter()
                .map(|x| {
                    (x["pointer"].as_str().unwrap().to_owned(), x["detail"].as_str().unwrap().to_owned())
                })
                .collect()
        })
        .unwrap_or_default()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected.iter().map(|(p, d)| ((*p).to_owned(), (*d).to_owned())).collect()
}

/// Each class of wrong shape, in English and in French (French typography: U+00A0 before
/// ":" and ";" and inside « »): the pointer of the field itself and a plain sentence, never
/// a Rust type.
#[tokio::test]
async fn wrong_shapes_are_plain_sentences_in_english_and_french() {
    let cases: Vec<(Value, &str, &str, &str)> = vec![
        (
            with(|r| r["encounter"]["grid"]["width"] = "12".into()),
            "/encounter/grid/width",
            "must be an integer, not a string",
            "doit être un nombre entier, pas une chaîne",
        ),
        (
            with(|r| {
                r.as_object_mut().unwrap().remove("weapon");
            }),
            "/weapon",
            "is required",
            "est obligatoire",
        ),
        (
            with(|r| r["encounter"]["creatures"][1]["at"] = json!([9, 2])),
            "/encounter/creatures/1/at",
            "must be an object with the fields x, y, not a list",
            "doit être un objet avec les champs x, y, pas une liste",
        ),
        (
            with(|r| r["encounter"]["ruleset"] = "dnd3e".into()),
            "/encounter/ruleset",
            "\"dnd3e\" is not an accepted value; one of: dnd5e2014, dnd5e2024, pf1e, sf1e, hb3d",
            "«\u{a0}dnd3e\u{a0}» n'est pas une valeur acceptée\u{a0}; l'une de\u{a0}: dnd5e2014, dnd5e2024, pf1e, sf1e, hb3d",
        ),
        (
            with(|r| r["attacker"] = json!(true)),
            "/attacker",
            "must be a string, not a boolean",
            "doit être une chaîne, pas un booléen",
        ),
        (
            with(|r| r["encounter"]["creatures"] = json!({"valeros": {}})),
            "/encounter/creatures",
            "must be a list, not an object",
            "doit être une liste, pas un objet",
        ),
        (
            with(|r| r["weapon"]["kind"] = json!(3)),
            "/weapon/kind",
            "must be one of: melee, ranged, thrown",
            "doit être l'une des valeurs\u{a0}: melee, ranged, thrown",
        ),
    ];
    for (req, pointer, en, fr) in cases {
        let (status, language, body) = problem_in("/v1/range", &req, "en").await;
        assert_eq!((status, language.as_str()), (422, "en"));
        assert_eq!(details(&body), pairs(&[(pointer, en)]), "{pointer}");
        let (status, language, body) = problem_in("/v1/range", &req, "fr-FR, en;q=0.5").await;
        assert_eq!((status, language.as_str()), (422, "fr"));
        assert_eq!(body["title"], "La requête est invalide");
        assert_eq!(body["detail"], "1 problème dans la requête");
        assert_eq!(details(&body), pairs(&[(pointer, fr)]), "{pointer}");
    }
}

/// An unknown key is reported at the key, with the fields the object takes.
#[tokio::test]
async fn an_unknown_key_names_the_fields_of_its_object() {
    let req = with(|r| r["encounter"]["creatures"][0]["at"]["z"] = 1.into());
    let (_, _, body) = problem_in("/v1/range", &req, "en").await;
    assert_eq!(
        details(&body),
        pairs(&[("/encounter/creatures/0/at/z", "is not a field here; the fields are: x, y")])
    );
    let (_, _, body) = problem_in("/v1/range", &req, "fr").await;
    assert_eq!(
        details(&body),
        pairs(&[(
            "/encounter/creatures/0/at/z",
            "n'est pas un champ ici\u{a0}; les champs sont\u{a0}: x, y"
        )])
    );
}

/// serde stops at the first wrong field; every other one is reported too, each once, and
/// nothing inside the stand-ins put in their place.
#[tokio::test]
async fn several_wrong_shapes_are_all_reported() {
    let req = with(|r| {
        r["encounter"]["grid"]["width"] = "12".into();
        r["encounter"]["creatures"][1]["at"]["x"] = 1.5.into();
        r["encounter"]["creatures"][0]["colour"] = "red".into();
        r["encounter"]["creatures"][0]["at"] = json!(null);
        r["target"] = json!(7);
        r.as_object_mut().unwrap().remove("weapon");
    });
    let (status, _, body) = problem_in("/v1/range", &req, "en").await;
    assert_eq!(status, 422);
    let mut got = details(&body);
    got.sort();
    assert_eq!(
        got,
        pairs(&[
            ("/encounter/creatures/0/at", "must be an object with the fields x, y, not null"),
            (
                "/encounter/creatures/0/colour",
                "is not a field here; the fields are: id, side, at, size, reach_ft, speed_ft, swim_speed_ft, legs, flying, elevation_ft, unarmed, feats, …"
            ),
            ("/encounter/creatures/1/at/x", "must be an integer, not a decimal number"),
            ("/encounter/grid/width", "must be an integer, not a string"),
            ("/target", "must be a string, not an integer"),
            ("/weapon", "is required"),
        ])
    );
    assert_eq!(body["detail"], "6 problems in the request");
}

/// A grid of width −3 is one problem: nothing that depends on its size (the map's rows, the
/// creatures' squares) is reported after it. Likewise a size the ruleset does not know hides
/// the creature's square.
#[tokio::test]
async fn no_problem_follows_from_a_field_already_reported() {
    let (s, p, body) = problem(&with(|r| r["encounter"]["grid"]["width"] = (-3).into())).await;
    assert_eq!((s, p), (422, vec!["/encounter/grid/width".to_owned()]), "{body}");
    assert_eq!(body["errors"][0]["detail"], "must be between 1 and 1000");
    let (_, _, body) =
        problem_in("/v1/range", &with(|r| r["encounter"]["grid"]["width"] = (-3).into()), "fr").await;
    assert_eq!(details(&body), pairs(&[("/encounter/grid/width", "doit être entre 1 et 1000")]));
    // A weapon field the mapping refuses is not refused again by the ruleset's range rules.
    let (_, p, _) = problem(&with(|r| r["weapon"]["increment_ft"] = 0.into())).await;
    assert_eq!(p, vec!["/weapon/increment_ft".to_owned()]);
}

/// Every creature that lacks the stat a question needs is its own problem, at its stats.
#[tokio::test]
async fn missing_stats_of_every_creature_are_reported_at_once() {
    let mut req = range_request();
    req.as_object_mut().unwrap().remove("weapon");
    req.as_object_mut().unwrap().remove("attacker");
    req.as_object_mut().unwrap().remove("target");
    req["encounter"]["creatures"][0]["stats"] = json!({});
    req["dice"] = json!({"mode": "odds"});
    let res = post_json(test_app(), "/v1/initiative", &req).await;
    assert_eq!(res.status, 422, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(
        details(&res.json()),
        pairs(&[
            (
                "/encounter/creatures/0/stats",
                "creature \"valeros\" needs the stat initiative_bonus for this question"
            ),
            (
                "/encounter/creatures/1/stats",
                "creature \"goblin\" needs the stat initiative_bonus for this question"
            ),
        ])
    );
    // An attack whose attacker has no bonus and whose target has no AC: both.
    let mut attack = range_request();
    attack["weapon"] = json!({"kind": "melee"});
    attack["encounter"]["creatures"][1]["at"] = json!({"x": 2, "y": 2});
    attack["dice"] = json!({"mode": "odds"});
    let res = post_json(test_app(), "/v1/attack", &attack).await;
    assert_eq!(res.status, 422, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(
        pointers(&res),
        vec!["/encounter/creatures/0/stats".to_owned(), "/encounter/creatures/1/stats".to_owned()]
    );
    let (_, _, body) = problem_in("/v1/attack", &attack, "fr").await;
    assert_eq!(
        details(&body)[1].1,
        "la créature «\u{a0}goblin\u{a0}» a besoin de la caractéristique ac pour cette question"
    );
}

/// An unknown id in an encounter with no creature says so, not "known: ".
#[tokio::test]
async fn an_unknown_id_in_an_encounter_without_creatures() {
    let req = with(|r| r["encounter"]["creatures"] = json!([]));
    let (_, _, body) = problem_in("/v1/range", &req, "en").await;
    assert_eq!(
        details(&body),
        pairs(&[
            ("/attacker", "no creature has id \"valeros\": the encounter has no creatures"),
            ("/target", "no creature has id \"goblin\": the encounter has no creatures"),
        ])
    );
    let (_, _, body) = problem_in("/v1/range", &req, "fr").await;
    assert_eq!(
        details(&body)[0].1,
        "aucune créature n'a l'identifiant «\u{a0}valeros\u{a0}»\u{a0}: la rencontre n'a aucune créature"
    );
    let (_, _, body) = problem_in("/v1/range", &with(|r| r["target"] = "ghost".into()), "en").await;
    assert_eq!(
        details(&body),
        pairs(&[("/target", "no creature has id \"ghost\"; the creatures are: valeros, goblin")])
    );
}

/// The problems made outside the handlers (404, 405, 415, 400) are French when asked.
#[tokio::test]
async fn problems_of_every_status_are_localised() {
    let fr = |path: &str, method: &str, ct: &str, body: &[u8]| {
        axum::http::Request::builder()
            .method(method)
            .uri(path)
            .header("content-type", ct)
            .header("accept-language", "fr")
            .body(axum::body::Body::from(body.to_vec()))
            .unwrap()
    };
    let cases = [
        (
            fr("/nowhere", "GET", "application/json", b""),
            404,
            "Ressource introuvable",
            "voir /docs pour l'API",
        ),
        (
            fr("/v1/range", "GET", "application/json", b""),
            405,
            "Méthode non autorisée",
            "voir /docs pour les méthodes de chaque chemin",
        ),
        (
            fr("/v1/range", "POST", "text/plain", b"{}"),
            415,
            "Le corps doit être du JSON",
            "envoyez le corps avec Content-Type\u{a0}: application/json",
        ),
        (
            fr("/v1/range", "POST", "application/json", b"{\"encounter\": "),
            400,
            "Le corps n'est pas du JSON valide",
            "le corps s'arrête avant la fin de son JSON (ligne 1, colonne 14)",
        ),
        (
            fr("/v1/range", "POST", "application/json", &vec![b' '; 2 * 1024 * 1024]),
            413,
            "Le corps est trop volumineux",
            "le corps dépasse la limite de 1048576 octets",
        ),
        (
            fr("/v1/range", "POST", "application/json", b""),
            400,
            "Le corps n'est pas du JSON valide",
            "le corps est vide\u{a0}; envoyez un objet JSON",
        ),
    ];
    for (req, status, title, detail) in cases {
        let res = send(test_app(), req).await;
        assert_eq!(res.status, status);
        assert_eq!(res.headers.get("content-language").unwrap(), "fr");
        let body = res.json();
        assert_eq!((body["title"].as_str().unwrap(), body["detail"].as_str().unwrap()), (title, detail));
    }
}

/// Words of Rust and of its types that no problem detail may show a client.
fn rust_words(detail: &str, schema_names: &[String]) -> Vec<String> {
    const WORDS: [&str; 25] = [
        "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32", "f64",
        "struct", "enum", "variant", "Option", "Vec", "tuple", "sequence", "expected", "elements", "String",
        "unit",
    ];
    let mut found: Vec<String> = detail
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| WORDS.contains(w) || schema_names.iter().any(|n| n == w))
        .map(str::to_owned)
        .collect();
    if detail.contains('`') {
        found.push("`".into());
    }
    found
}

/// Every field of every question's example set to each wrong JSON type, removed, or joined
/// by an unknown key: every detail of every answer, in English and French, is free of Rust
/// words (the stop-list above and the schema's type names), and none is a 500.
#[tokio::test]
async fn no_detail_shows_a_rust_word_whatever_the_wrong_shape() {
    let app = test_app();
    let doc = openapi_doc();
    let schema_names: Vec<String> =
        doc["components"]["schemas"].as_object().unwrap().keys().cloned().collect();
    let wrong =
        [json!("x"), json!(7), json!(-1), json!(1.5), json!(true), json!(null), json!([1]), json!({"k": 1})];
    let mut asked = 0;
    for (n, (path, _, example)) in operations(&doc).into_iter().enumerate() {
        let mut targets = Vec::new();
        every_pointer(&example, String::new(), &mut targets);
        let mut bodies: Vec<Value> = Vec::new();
        for t in &targets {
            for w in &wrong {
                let mut b = example.clone();
                *b.pointer_mut(t).unwrap() = w.clone();
                bodies.push(b);
            }
            let mut b = example.clone();
            let (parent, key) = t.rsplit_once('/').unwrap();
            if let Some(o) = b.pointer_mut(parent).and_then(Value::as_object_mut) {
                o.remove(key);
                o.insert("zz_unknown".into(), json!(1));
                bodies.push(b);
            }
        }
        bodies.push(json!([example.clone()]));
        bodies.push(json!("a string"));
        for (i, b) in bodies.iter().enumerate() {
            let lang = if (i + n) % 2 == 0 { "en" } else { "fr" };
            let (status, _, body) = problem_or_answer(&app, &path, b, lang).await;
            assert!(status == 200 || status == 422, "{path}: {status} for {b}: {body}");
            for (pointer, detail) in details(&body) {
                let words = rust_words(&detail, &schema_names);
                assert!(words.is_empty(), "{path} {pointer} ({lang}): {detail:?} shows {words:?}");
            }
            asked += 1;
        }
    }
    assert!(asked > 500, "the walk asked {asked} questions");
}

/// Every pointer inside a value (the first two items of a list).
fn every_pointer(v: &Value, base: String, out: &mut Vec<String>) {
    let children: Vec<(String, &Value)> = match v {
        Value::Object(m) => m.iter().map(|(k, x)| (k.replace('~', "~0").replace('/', "~1"), x)).collect(),
        Value::Array(a) => a.iter().take(2).enumerate().map(|(i, x)| (i.to_string(), x)).collect(),
        _ => Vec::new(),
    };
    for (k, x) in children {
        let p = format!("{base}/{k}");
        out.push(p.clone());
        every_pointer(x, p, out);
    }
}

/// Any answer to `req` in `lang`: its status and body (a problem's or the answer's).
async fn problem_or_answer(app: &axum::Router, path: &str, req: &Value, lang: &str) -> (u16, String, Value) {
    let request = axum::http::Request::post(path)
        .header("content-type", "application/json")
        .header("accept-language", lang)
        .body(axum::body::Body::from(serde_json::to_vec(req).unwrap()))
        .unwrap();
    let res = send(app.clone(), request).await;
    let language = res.headers.get("content-language").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    (res.status, language, res.json())
}

/// A number too large for any number type and a key given twice: only the bytes show them
/// (serde_json's own errors), each at its field, in both languages.
#[tokio::test]
async fn huge_numbers_and_repeated_keys_in_the_raw_body() {
    let text = serde_json::to_string(&range_request()).unwrap();
    let cases = [
        (
            text.replace("\"width\":12", "\"width\":1e400"),
            "is too large a number",
            "est un nombre trop grand",
        ),
        (text.replace("\"width\":12", "\"width\":12,\"width\":12"), "is given twice", "est donné deux fois"),
    ];
    for (body, en, fr) in cases {
        assert_ne!(body, text);
        for (lang, detail) in [("en", en), ("fr", fr)] {
            let request = axum::http::Request::post("/v1/range")
                .header("content-type", "application/json")
                .header("accept-language", lang)
                .body(axum::body::Body::from(body.clone()))
                .unwrap();
            let res = send(test_app(), request).await;
            assert_eq!(res.status, 422, "{body}");
            assert_eq!(details(&res.json()), pairs(&[("/encounter/grid/width", detail)]), "{body}");
        }
    }
}

/// An id of white space only names nothing a reader can see: ids, sides, `mounted_on`, the
/// attacker and target, and each id of a list are refused at the field, in English and in
/// French (they were accepted).
#[tokio::test]
async fn ids_of_white_space_only_are_refused_at_the_field() {
    let en = "must hold more than white space";
    let fr = "doit contenir autre chose que des espaces";
    let blank = " \t\u{3000}";
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "/v1/range",
            with(|r| r["encounter"]["creatures"][0]["side"] = blank.into()),
            "/encounter/creatures/0/side",
        ),
        (
            "/v1/range",
            with(|r| r["encounter"]["creatures"][1]["mounted_on"] = " ".into()),
            "/encounter/creatures/1/mounted_on",
        ),
        ("/v1/range", with(|r| r["attacker"] = "  ".into()), "/attacker"),
        (
            "/v1/analyze",
            json!({"encounter": range_request()["encounter"], "attackers": ["valeros", "\n"]}),
            "/attackers/1",
        ),
        (
            "/v1/initiative",
            json!({"encounter": range_request()["encounter"], "dice": {"mode": "odds"}, "surprised": [" "]}),
            "/surprised/0",
        ),
    ];
    for (path, req, pointer) in cases {
        for (lang, detail) in [("en", en), ("fr", fr)] {
            let (status, _, body) = problem_in(path, &req, lang).await;
            assert_eq!(status, 422, "{path} {pointer}: {body}");
            assert!(
                details(&body).contains(&(pointer.to_owned(), detail.to_owned())),
                "{path} {pointer} {lang}: {body}"
            );
        }
    }
    // The creature's own id: the problem at its field, whatever else follows from it.
    let req = with(|r| {
        r["encounter"]["creatures"][0]["id"] = blank.into();
        r["attacker"] = blank.into();
    });
    let (status, _, body) = problem_in("/v1/range", &req, "en").await;
    assert_eq!(status, 422);
    let found = details(&body);
    assert!(found.contains(&("/encounter/creatures/0/id".to_owned(), en.to_owned())), "{body}");
    assert!(found.contains(&("/attacker".to_owned(), en.to_owned())), "{body}");
    // An id with white space around a visible character is an id.
    let req = with(|r| {
        r["encounter"]["creatures"][0]["id"] = " v ".into();
        r["attacker"] = " v ".into();
    });
    assert_eq!(post_json(test_app(), "/v1/range", &req).await.status, 200);
}

/// A question's list is refused as its item one past the bound arrives: that item and the
/// rest are skipped unread, so a wrong shape beyond the bound is not what the answer names
/// (before, the whole list was built and item 500's wrong id was the problem). The words are
/// the contract's, at the list's pointer: 500 creatures (ARBITER_MAX_CREATURES), 10,000
/// walls (ARBITER_MAX_WALLS), 1,000 path steps (ARBITER_MAX_PATH_STEPS).
#[tokio::test]
async fn a_list_past_its_bound_is_refused_before_its_next_item_is_read() {
    let creatures: Vec<Value> = (0..500)
        .map(|i| json!({"id": format!("c{i}"), "side": "s", "at": {"x": i % 12, "y": i / 12 % 8}}))
        .chain([json!({"id": 5})])
        .collect();
    let req = with(|r| r["encounter"]["creatures"] = Value::from(creatures));
    let (status, ptrs, body) = problem(&req).await;
    assert_eq!((status, ptrs), (422, vec!["/encounter/creatures".to_owned()]), "{body}");
    assert_eq!(body["errors"][0]["detail"], "at most 500 items");

    let wall = json!({"from": {"x": 1, "y": 0}, "to": {"x": 1, "y": 1}});
    let walls: Vec<Value> = std::iter::repeat_n(wall, 10_000).chain([json!({"from": 5})]).collect();
    let req = with(|r| r["encounter"]["grid"]["walls"] = Value::from(walls));
    let (status, ptrs, body) = problem(&req).await;
    assert_eq!((status, ptrs), (422, vec!["/encounter/grid/walls".to_owned()]), "{body}");
    assert_eq!(body["errors"][0]["detail"], "at most 10000 items");

    let mut req = json!({"encounter": range_request()["encounter"], "creature": "valeros"});
    let steps: Vec<Value> =
        std::iter::repeat_n(json!({"x": 1, "y": 2}), 1000).chain([json!({"x": "a"})]).collect();
    req["path"] = Value::from(steps);
    let res = post_json(test_app(), "/v1/movement", &req).await;
    assert_eq!((res.status, pointers(&res)), (422, vec!["/path".to_owned()]), "{}", res.json());
    assert_eq!(res.json()["errors"][0]["detail"], "at most 1000 items");
}
