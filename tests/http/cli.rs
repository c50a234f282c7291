//! `arbiter import uvtt|foundry FILE`: the real binary, its output, its exit status.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};

use super::support::{post_json, post_raw, test_app};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().expect("the binary runs")
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A file of this test's own in the target directory (tests run in parallel: one name each).
fn temp_file(name: &str, body: &Value) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(body).unwrap()).unwrap();
    path
}

fn stdout_json(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

#[tokio::test]
async fn uvtt_prints_what_the_route_answers() {
    let path = fixture("uvtt-room.dd2vtt");
    let printed = stdout_json(&arbiter(&["import", "uvtt", &path]));
    // The room's `map_size` is 10 × 7 squares; its first wall runs from (4, 6) to (12, 6) in
    // the file, minus the map origin (3, 5): (1, 1) to (9, 1).
    assert_eq!((&printed["grid"]["width"], &printed["grid"]["height"]), (&json!(10), &json!(7)));
    assert_eq!(
        printed["grid"]["walls"][0],
        json!({"from": {"x": 1.0, "y": 1.0}, "to": {"x": 9.0, "y": 1.0}, "kind": "solid"})
    );
    let res =
        post_raw(test_app(), "/v1/import/uvtt", "application/json", std::fs::read(&path).unwrap()).await;
    assert_eq!(res.status, 200);
    assert_eq!(printed, res.json());
}

/// The scene of the Foundry tests: 600 × 300 px in squares of 100 px with a padding of 0.25,
/// so the grid starts ceil(150 / 100) = 2 squares (200 px) in and ceil(75 / 100) = 1 square
/// (100 px) down. The closed door at x = 500 px is x = (500 − 200) / 100 = 3, from y = 0 to 3;
/// the archer's top-left (200, 200) is square (0, 1), the orc's (600, 200) square (4, 1).
fn door_scene() -> Value {
    json!({
        "width": 600, "height": 300, "padding": 0.25,
        "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"},
        "walls": [{"c": [500, 100, 500, 400], "move": 20, "sight": 20, "light": 20, "sound": 20, "door": 1, "ds": 0}],
        "tokens": [
            {"_id": "a", "name": "archer", "x": 200, "y": 200, "disposition": 1},
            {"_id": "o", "name": "orc", "x": 600, "y": 200, "disposition": -1}
        ]
    })
}

#[tokio::test]
async fn a_bare_foundry_scene_becomes_an_encounter_that_answers_questions() {
    let path = temp_file("cli-door-scene.json", &door_scene());
    let printed = stdout_json(&arbiter(&["import", "foundry", path.to_str().unwrap(), "--ruleset", "pf1e"]));
    let encounter = &printed["encounter"];
    assert_eq!(encounter["ruleset"], "pf1e");
    assert_eq!((&encounter["grid"]["width"], &encounter["grid"]["height"]), (&json!(6), &json!(3)));
    assert_eq!(
        encounter["grid"]["walls"],
        json!([{"from": {"x": 3.0, "y": 0.0}, "to": {"x": 3.0, "y": 3.0}, "kind": "door_closed"}])
    );
    let at: Vec<(&Value, &Value)> =
        encounter["creatures"].as_array().unwrap().iter().map(|c| (&c["id"], &c["at"])).collect();
    assert_eq!(at, [(&json!("archer"), &json!({"x": 0, "y": 1})), (&json!("orc"), &json!({"x": 4, "y": 1}))]);
    // The same as the route answers for the request that wraps the scene.
    let res =
        post_json(test_app(), "/v1/import/foundry", &json!({"scene": door_scene(), "ruleset": "pf1e"})).await;
    assert_eq!(printed, res.json());
    // Every line from the archer's corners to the orc crosses the closed door: total cover.
    let q = json!({"encounter": encounter, "attacker": "archer", "target": "orc"});
    let res = post_json(test_app(), "/v1/cover", &q).await;
    assert_eq!((res.status, &res.json()["result"]["degree"]), (200, &json!("total")));
}

#[test]
fn a_refused_file_prints_the_problem_pointing_into_the_file() {
    let mut scene = door_scene();
    scene["grid"]["type"] = json!(0);
    let path = temp_file("cli-gridless-scene.json", &scene);
    let out = arbiter(&["import", "foundry", path.to_str().unwrap(), "--lang", "fr"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let problem: Value = serde_json::from_slice(&out.stderr).expect("a problem document");
    assert_eq!(
        (problem["status"].as_u64(), &problem["errors"][0]["pointer"]),
        (Some(422), &json!("/grid/type"))
    );
    assert_eq!(problem["title"], "La requête est invalide");
}

#[test]
fn a_file_that_cannot_be_read_is_status_2() {
    let out = arbiter(&["import", "uvtt", "/nonexistent/map.dd2vtt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/map.dd2vtt"));
    let out = arbiter(&["--max-import-bytes", "100", "import", "uvtt", &fixture("uvtt-room.dd2vtt")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("over the import limit of 100 bytes"));
}

#[test]
fn the_readme_command_lines_work() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let lines: Vec<&str> =
        readme.lines().filter_map(|l| l.strip_prefix("cargo run --release -- import ")).collect();
    assert_eq!(lines.len(), 2, "README shows one uvtt and one foundry command line");
    for line in lines {
        let args = line.split(" > ").next().unwrap();
        let mut argv = vec!["import"];
        argv.extend(args.split_whitespace());
        // The paths are the repository's: run where README's commands run.
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(&argv)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let printed = stdout_json(&out);
        assert!(printed.get("grid").or(printed.get("encounter")).is_some(), "{line}: {printed}");
    }
}
