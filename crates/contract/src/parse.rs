//! Reading a JSON body into a request type: serde's errors turned into problems with JSON
//! pointers and plain sentences in both languages (`serde_text`), every wrong shape listed
//! within the work budget, arrays refused for objects at every depth (`strict`).

mod serde_text;
mod strict;

use std::cell::Cell;

use arbiter_rules::budget::Budget;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::Value;
use serde_path_to_error::Segment;

use crate::error::{AppError, Issue, Text};
use serde_text::Fault;
pub use strict::Strict;

/// Parses a JSON body into `T`, turning serde's errors into problems with JSON pointers and
/// plain sentences (`serde_text`), within the default work budget (see [`parse_within`]).
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    parse_within(bytes, &mut Budget::new(crate::limits::Limits::default().work_budget))
}

/// Parses a JSON body into `T`, turning serde's errors into problems with JSON pointers and
/// plain sentences (`serde_text`).
///
/// The bytes decide between 400 and 422: a body that is not JSON at all is a 400; JSON that
/// does not fit `T` is a 422 at the offending field, whatever category serde_json gives
/// (it calls a non-string for an enum and a number out of range syntax errors).
///
/// serde stops at the first error; to report the others too, the body is read again as a
/// `serde_json::Value` and deserialized once more after each error, the wrong value
/// replaced by a stand-in of the expected kind (an unknown key removed, a missing one
/// added), until it fits or [`MAX_SHAPE_PROBLEMS`] are found. Problems inside a stand-in are
/// the stand-in's, not the client's, and are not reported.
///
/// A refused body's reading is work like a question's: every read after the first is charged
/// to `budget` ([`UNITS_PER_KIB`] per KiB read), and a further pass is made only while the
/// budget affords it, so a large body gets fewer of them (the first problem is always found).
/// The passes after the first only look for problems: an inline Universal VTT file is not
/// converted again in them (see [`shape_only`]).
pub fn parse_within<T: DeserializeOwned>(bytes: &[u8], budget: &mut Budget) -> Result<T, AppError> {
    // Tracking the path costs about as much as the parse itself, and only a failure needs
    // it: parse plainly, and again with the path only to explain a failure.
    // Checked as UTF-8 once, the body's strings are not checked again one by one.
    if let Ok(text) = std::str::from_utf8(bytes) {
        let mut de = serde_json::Deserializer::from_str(text);
        if let Ok(value) = T::deserialize(Strict(&mut de))
            && de.end().is_ok()
        {
            return Ok(value);
        }
    }
    let pass = pass_units(bytes.len());
    // The refused parse, then the syntax check (`IgnoredAny` skips numbers, converts nothing).
    let _ = budget.spend(pass + pass / 8);
    if let Err(e) = serde_json::from_slice::<IgnoredAny>(bytes) {
        return Err(AppError::Malformed(malformed(bytes, &e)));
    }
    let first = {
        let _shape = ShapeOnly::enter();
        let _ = budget.spend(2 * pass);
        let mut de = serde_json::Deserializer::from_slice(bytes);
        match serde_path_to_error::deserialize::<_, T>(Strict(&mut de)) {
            Ok(_) => None,
            Err(e) => Some(located(&e)),
        }
    };
    let Some((pointer, fault)) = first else {
        // Unreachable in practice (the plain parse failed on the same bytes); never answer
        // 200 to them, and never with a value read for its shape only.
        let mut de = serde_json::Deserializer::from_slice(bytes);
        let value = T::deserialize(Strict(&mut de)).map_err(|e| AppError::Malformed(malformed(bytes, &e)))?;
        de.end().map_err(|e| AppError::Malformed(malformed(bytes, &e)))?;
        return Ok(value);
    };
    let mut found = Found { issues: Vec::new(), stand_ins: Vec::new() };
    found.report(&pointer, &fault);
    // A list past its bound is refused before the rest is read: the rest is not read again.
    if matches!(fault, Fault::PastBound { .. }) {
        return Err(AppError::Invalid(found.issues));
    }
    // The tree, then at least one pass over it: read only when both can be paid for.
    if budget.afford(3 * pass).is_ok()
        && budget.spend(pass).is_ok()
        && let Ok(value) = serde_json::from_slice::<Value>(bytes)
    {
        let _shape = ShapeOnly::enter();
        the_others::<T>(value, 2 * pass, budget, &mut found);
    }
    Err(AppError::Invalid(found.issues))
}

/// The most wrong shapes (types, keys, values) one answer lists.
pub const MAX_SHAPE_PROBLEMS: usize = 50;

/// Work units charged per KiB of body read once more, path tracked (about the rules' cost per
/// unit: see `arbiter_rules::budget`; measured with the `cpu` group of `scripts/reliability.py`).
pub const UNITS_PER_KIB: u64 = 1024;

/// The units of one plain read of `len` bytes.
fn pass_units(len: usize) -> u64 {
    arbiter_rules::budget::units(len).saturating_mul(UNITS_PER_KIB) / 2048 + 1
}

thread_local! {
    /// Set while a body is read for its shape only (the passes that look for problems).
    static SHAPE_ONLY: Cell<bool> = const { Cell::new(false) };
}

/// Whether the value being read is read for its shape only: its problems are wanted, the value
/// itself is dropped, so work that cannot fail (an inline file's conversion) may be skipped.
pub fn shape_only() -> bool {
    SHAPE_ONLY.with(Cell::get)
}

/// Sets [`shape_only`] on this thread until dropped.
struct ShapeOnly;

impl ShapeOnly {
    fn enter() -> Self {
        SHAPE_ONLY.with(|s| s.set(true));
        ShapeOnly
    }
}

impl Drop for ShapeOnly {
    fn drop(&mut self) {
        SHAPE_ONLY.with(|s| s.set(false));
    }
}

/// The problems found so far and the pointers of the stand-ins put in.
struct Found {
    issues: Vec<Issue>,
    stand_ins: Vec<String>,
}

impl Found {
    /// Records serde's error at `pointer`, unless it is inside a stand-in or already there.
    fn report(&mut self, pointer: &str, fault: &Fault) {
        let inside =
            |p: &String| pointer == p || pointer.strip_prefix(p.as_str()).is_some_and(|r| r.starts_with('/'));
        if self.stand_ins.iter().any(inside) || self.issues.iter().any(|i| i.pointer == pointer) {
            return;
        }
        self.issues.push(Issue::new(pointer, fault.text()));
    }
}

/// Deserializes `value` again and again, each error recorded and its value replaced, while
/// `budget` affords a pass of `pass` units.
fn the_others<T: DeserializeOwned>(mut value: Value, pass: u64, budget: &mut Budget, found: &mut Found) {
    let mut last: Option<(String, Fault)> = None;
    for _ in 0..4 * MAX_SHAPE_PROBLEMS {
        if found.issues.len() >= MAX_SHAPE_PROBLEMS
            || budget.afford(pass).is_err()
            || budget.spend(pass).is_err()
        {
            return;
        }
        let Err(e) = serde_path_to_error::deserialize::<_, T>(Strict(&value)) else { return };
        let (pointer, fault) = located(&e);
        if last.as_ref() == Some(&(pointer.clone(), fault.clone())) {
            return; // the stand-in did not help: stop rather than loop
        }
        found.report(&pointer, &fault);
        if !stand_in(&mut value, &pointer, &fault, found) {
            return;
        }
        last = Some((pointer, fault));
    }
}

/// Replaces the wrong value at `pointer` so that the next pass goes further; false when
/// nothing fits.
fn stand_in(value: &mut Value, pointer: &str, fault: &Fault, found: &mut Found) -> bool {
    let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", ""));
    match fault {
        Fault::UnknownField { .. } | Fault::DuplicateField { .. } => value
            .pointer_mut(parent)
            .and_then(Value::as_object_mut)
            .and_then(|o| o.remove(&unescape(key)))
            .is_some(),
        Fault::MissingField { .. } => {
            // `null` first: the next pass then says which kind the field is.
            let Some(object) = value.pointer_mut(parent).and_then(Value::as_object_mut) else { return false };
            object.insert(unescape(key), Value::Null);
            found.stand_ins.push(pointer.to_owned());
            true
        }
        Fault::WrongType { expected, .. } | Fault::WrongValue { expected } => {
            let (Some(slot), Some(v)) = (value.pointer_mut(pointer), expected.placeholder()) else {
                return false;
            };
            *slot = v;
            found.stand_ins.push(pointer.to_owned());
            true
        }
        Fault::UnknownValue { accepted, .. } => {
            let (Some(slot), Some(first)) = (value.pointer_mut(pointer), accepted.first()) else {
                return false;
            };
            *slot = Value::from(first.clone());
            true
        }
        Fault::WrongLength | Fault::OutOfRange | Fault::PastBound { .. } | Fault::Other => false,
    }
}

/// A serde error as the problem it is: its pointer and a plain sentence (the map importers
/// read a file once, with no second pass).
pub fn shape_issue<E: std::fmt::Display>(e: &serde_path_to_error::Error<E>) -> Issue {
    let (pointer, fault) = located(e);
    Issue::new(pointer, fault.text())
}

/// The pointer and the fault of a serde error: at the key itself for a missing, unknown or
/// repeated key.
fn located<E: std::fmt::Display>(e: &serde_path_to_error::Error<E>) -> (String, Fault) {
    let mut pointer = pointer(e.path());
    let mut fault = Fault::read(&strip_position(&e.inner().to_string()));
    if matches!(e.path().iter().next_back(), Some(Segment::Enum { .. })) {
        // `{"pf1e": 1}` for a ruleset: serde read the key as the enum's name and then
        // wanted nothing after it. The API's enums are strings: say so, at the enum.
        pointer.truncate(pointer.rfind('/').unwrap_or(0));
        fault = Fault::WrongType {
            given: Some(serde_text::Given::Object),
            expected: serde_text::Expected::String,
        };
    }
    if let Some(key) = fault.key() {
        // serde_path_to_error stops at the object for a missing key, and for a duplicate
        // key (found before its value is read) or a field of another dice mode (found after
        // the object is) too.
        let key = crate::problems::escape(key);
        if pointer.rsplit('/').next() != Some(key.as_str()) || matches!(fault, Fault::DuplicateField { .. }) {
            pointer.push('/');
            pointer.push_str(&key);
        }
    }
    (pointer, fault)
}

/// RFC 6901 unescaping of one pointer segment.
fn unescape(key: &str) -> String {
    key.replace("~1", "/").replace("~0", "~")
}

/// The 400's detail: where the JSON breaks.
pub fn malformed(bytes: &[u8], e: &serde_json::Error) -> Text {
    let (line, column) = (e.line(), e.column());
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Text::new(
            "the body is empty; send a JSON object",
            "le corps est vide ; envoyez un objet JSON",
        );
    }
    if e.is_eof() {
        return Text::new(
            format!("the body ends before its JSON does (line {line}, column {column})"),
            format!("le corps s'arrête avant la fin de son JSON (ligne {line}, colonne {column})"),
        );
    }
    let what = strip_position(&e.to_string());
    if what == "trailing characters" {
        return Text::new(
            format!("the body goes on after its JSON value (line {line}, column {column})"),
            format!("le corps continue après sa valeur JSON (ligne {line}, colonne {column})"),
        );
    }
    Text::new(
        format!("the body is not JSON at line {line}, column {column}: {what}"),
        format!("le corps n'est pas du JSON à la ligne {line}, colonne {column}"),
    )
}

fn pointer(path: &serde_path_to_error::Path) -> String {
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => {
                out.push('/');
                out.push_str(&index.to_string());
            }
            Segment::Map { key } | Segment::Enum { variant: key } => {
                out.push('/');
                out.push_str(&crate::problems::escape(key));
            }
            Segment::Unknown => {}
        }
    }
    out
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_owned(),
        None => msg.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        x: i64,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        items: Vec<Inner>,
    }

    fn err(body: &str) -> AppError {
        parse::<Outer>(body.as_bytes()).unwrap_err()
    }

    #[test]
    fn pointers() {
        let AppError::Invalid(e) = err(r#"{"items":[{"x":1},{"x":"a"}]}"#) else { panic!() };
        assert_eq!(e[0].pointer, "/items/1/x");
        let AppError::Invalid(e) = err(r#"{"items":[{"x":1,"y":2}]}"#) else { panic!() };
        assert_eq!(e[0].pointer, "/items/0/y");
        assert!(matches!(err(r#"{"items":["#), AppError::Malformed(_)));
        assert!(matches!(err(r#"{"items":[]} x"#), AppError::Malformed(_)));
    }

    /// Every depth refuses an array for a struct: in a list, behind an `Option`, in a map.
    #[test]
    fn arrays_for_structs_are_refused_at_every_depth() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Deep {
            opt: Option<Inner>,
            map: std::collections::BTreeMap<String, Vec<Inner>>,
        }
        let invalid = |body: &str| match parse::<Deep>(body.as_bytes()) {
            Err(AppError::Invalid(e)) => e[0].pointer.clone(),
            other => panic!("{body}: {other:?}"),
        };
        assert_eq!(invalid(r#"{"opt":[1],"map":{}}"#), "/opt");
        assert_eq!(invalid(r#"{"opt":null,"map":{"k":[{"x":1},[2]]}}"#), "/map/k/1");
        assert_eq!(invalid(r#"[null, {}]"#), "");
        assert!(parse::<Deep>(br#"{"opt":{"x":1},"map":{"k":[{"x":2}]}}"#).is_ok());
        assert!(matches!(err(r#"{"items":[[1]]"#), AppError::Malformed(_)), "not JSON: still 400");
    }

    /// serde_json's syntax-category errors on valid JSON are 422s with the pointer.
    #[test]
    fn wrong_enum_types_and_huge_numbers_are_422() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        enum Kind {
            A,
            B,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct K {
            kind: Kind,
            n: f64,
        }
        let invalid = |body: &str| match parse::<K>(body.as_bytes()) {
            Err(AppError::Invalid(e)) => {
                (e[0].pointer.clone(), e[0].detail.get(crate::render::Lang::En).to_owned())
            }
            other => panic!("{body}: {other:?}"),
        };
        assert_eq!(invalid(r#"{"kind":null,"n":1}"#), ("/kind".into(), "must be one of: A, B".into()));
        assert_eq!(invalid(r#"{"kind":3,"n":1}"#).0, "/kind");
        assert_eq!(invalid(r#"{"kind":"A","n":1e400}"#).0, "/n");
        assert_eq!(invalid(r#"{"kind":"A","n":1,"n":2}"#).0, "/n");
        assert!(matches!(parse::<K>(br#"{"kind":nul,"n":1}"#), Err(AppError::Malformed(_))));
    }

    /// A body with `n` unknown fields after `items`, padded by a long string in `items` to
    /// about `pad` bytes.
    fn unknown_fields(n: usize, pad: usize) -> String {
        let unknown: String = (0..n).map(|i| format!(",\"u{i}\":{i}")).collect();
        format!(r#"{{"items":[{{"x":1}}],"pad":"{}"{unknown}}}"#, "p".repeat(pad))
    }

    fn pointers_of(r: Result<Outer, AppError>) -> Vec<String> {
        match r {
            Err(AppError::Invalid(e)) => e.into_iter().map(|i| i.pointer).collect(),
            other => panic!("{other:?}"),
        }
    }

    /// Every wrong shape of a small body is listed, up to 50, within the default budget: the
    /// first in body order, the others in the order of the tree's keys (sorted).
    #[test]
    fn a_small_body_lists_every_problem_up_to_the_cap() {
        let all = pointers_of(parse::<Outer>(unknown_fields(60, 0).as_bytes()));
        let mut unknown: Vec<String> = (0..60).map(|i| format!("/u{i}")).collect();
        unknown.sort();
        let expected: Vec<String> =
            ["/pad".to_owned()].into_iter().chain(unknown.into_iter().take(49)).collect();
        assert_eq!(all, expected);
    }

    /// Reading a refused body again is charged: a budget that affords no further pass lists
    /// the first problem only, and a large body gets fewer passes than a small one (issue 25:
    /// 1 MiB with 50 unknown fields cost 500 ms of CPU when every pass was made).
    #[test]
    fn passes_after_the_first_problem_are_charged_to_the_budget() {
        let body = unknown_fields(50, 100);
        let mut none = Budget::new(0);
        assert_eq!(pointers_of(parse_within(body.as_bytes(), &mut none)), ["/pad"]);
        let mut default = Budget::new(crate::limits::Limits::default().work_budget);
        assert_eq!(pointers_of(parse_within(body.as_bytes(), &mut default)).len(), 50);
        // 1 MiB: a plain read costs half a unit per byte, a read with its path one. The
        // default budget (5,000,000 units) pays the refused parse, the syntax check, the
        // path-tracked read and the tree (about 2 units per byte, 2.2 M), then two passes over the
        // tree: the first finds `/pad` again and removes it, the second finds `/u0`.
        let big = unknown_fields(50, 1 << 20);
        let found = pointers_of(parse::<Outer>(big.as_bytes()));
        assert_eq!(found, ["/pad", "/u0"]);
        let mut cancelled = Budget::with_cancel(u64::MAX, std::sync::Arc::new(true.into()));
        assert_eq!(
            pointers_of(parse_within(body.as_bytes(), &mut cancelled)),
            ["/pad"],
            "a cancel stops them"
        );
    }

    /// The passes that only look for problems read values for their shape: `shape_only` is set
    /// in them (an inline file is not converted again) and cleared after.
    #[test]
    fn shape_only_is_set_in_the_passes_after_the_first() {
        #[derive(Debug)]
        struct Seen;
        thread_local!(static SEEN: std::cell::RefCell<Vec<bool>> = const { std::cell::RefCell::new(Vec::new()) });
        impl<'de> serde::Deserialize<'de> for Seen {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                SEEN.with(|s| s.borrow_mut().push(shape_only()));
                IgnoredAny::deserialize(d).map(|_| Seen)
            }
        }
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Holder {
            seen: Seen,
        }
        let r = parse::<Holder>(br#"{"seen":{"a":1},"u1":1,"u2":2}"#);
        let AppError::Invalid(e) = r.unwrap_err() else { panic!() };
        assert_eq!(e.iter().map(|i| i.pointer.as_str()).collect::<Vec<_>>(), ["/u1", "/u2"]);
        // The plain parse, then the path-tracked one and three passes over the tree (`/u1`
        // again, `/u2`, then none).
        assert_eq!(SEEN.with(|s| s.borrow().clone()), [false, true, true, true, true]);
        assert!(!shape_only(), "cleared after the parse");
    }
}
