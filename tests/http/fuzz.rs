//! Structured fuzzing through HTTP: every endpoint's example, mutated at random (numbers
//! pushed to extremes, fields dropped or retyped, strings replaced), must answer with a
//! 2xx or a problem document — never a 500, never a panic.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::support::*;

/// The example request of every question endpoint, from the OpenAPI document.
fn examples() -> Vec<(String, Value)> {
    operations(&openapi_doc()).into_iter().map(|(path, _, example)| (path, example)).collect()
}

/// Every JSON pointer of a value.
fn pointers_of(v: &Value, base: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = format!("{base}/{k}");
                out.push(p.clone());
                pointers_of(x, p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{base}/{i}");
                out.push(p.clone());
                pointers_of(x, p, out);
            }
        }
        _ => {}
    }
}

fn replacement(choice: u8, n: i64) -> Value {
    match choice % 10 {
        0 => json!(n),
        1 => json!(i64::MAX),
        2 => json!(-n),
        3 => json!(n as f64 / 3.0),
        4 => json!("x"),
        5 => Value::Null,
        6 => json!([]),
        7 => json!({}),
        8 => json!(1e300),
        _ => json!(true),
    }
}

fn mutate(mut v: Value, picks: &[(usize, u8, i64)]) -> Value {
    for &(at, choice, n) in picks {
        let mut ps = Vec::new();
        pointers_of(&v, String::new(), &mut ps);
        if ps.is_empty() {
            break;
        }
        let p = ps[at % ps.len()].clone();
        if choice >= 200 {
            // Drop the field or element.
            let (parent, last) = p.rsplit_once('/').unwrap();
            match v.pointer_mut(parent) {
                Some(Value::Object(m)) => {
                    m.remove(last);
                }
                Some(Value::Array(a)) => {
                    if let Ok(i) = last.parse::<usize>()
                        && i < a.len()
                    {
                        a.remove(i);
                    }
                }
                _ => {}
            }
        } else if let Some(slot) = v.pointer_mut(&p) {
            *slot = replacement(choice, n);
        }
    }
    v
}

thread_local! {
    /// One runtime and one app for the 1,000 cases of the test's thread (an app per case was
    /// most of the test's time; the app's pool lives on the runtime it was made on).
    static ASK: (tokio::runtime::Runtime, axum::Router) = {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let app = rt.block_on(async { test_app() });
        (rt, app)
    };
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_examples_never_answer_500(
        which in 0usize..16,
        picks in prop::collection::vec((any::<usize>(), any::<u8>(), -2000i64..2000), 1..4),
    ) {
        let all = examples();
        let (path, example) = &all[which % all.len()];
        let body = mutate(example.clone(), &picks);
        let res = ASK.with(|(rt, app)| rt.block_on(post_json(app.clone(), path, &body)));
        prop_assert!(res.status < 500, "{path} answered {} to {body}", res.status);
        if res.status >= 400 {
            prop_assert_eq!(res.content_type(), "application/problem+json");
        }
    }
}
