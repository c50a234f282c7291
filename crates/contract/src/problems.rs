//! Problem texts every layer shares: the collector of a walk's problems, the sentences of
//! bounds ("must be between…", "at most…", "one of: …") in both languages, and JSON pointer
//! escaping. A leaf: below the wire types, the mapping, the parse and the importers.

use crate::error::{Issue, Text};

/// Collects problems while mapping.
#[derive(Debug, Default)]
pub struct Problems(pub Vec<Issue>);

impl Problems {
    /// Records one problem.
    pub fn push(&mut self, pointer: impl Into<String>, detail: Text) {
        self.0.push(Issue::new(pointer, detail));
    }
    /// Whether none were recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Whether a problem was recorded at `pointer` (a field already reported is not
    /// checked again: no follow-on problems).
    pub fn reported(&self, pointer: &str) -> bool {
        self.0.iter().any(|i| i.pointer == pointer)
    }
}

/// The most names a "one of: …" list shows: a ruleset of 40 conditions must not make a
/// paragraph of every problem.
pub const MAX_LISTED_NAMES: usize = 12;

/// `a, b, c` (at most [`MAX_LISTED_NAMES`], then "…"), for "one of: …" in both languages.
/// Callers say something else when there is no name at all.
pub fn names<S: AsRef<str>>(all: &[S]) -> String {
    let mut out: Vec<&str> = all.iter().take(MAX_LISTED_NAMES).map(AsRef::as_ref).collect();
    if all.len() > MAX_LISTED_NAMES {
        out.push("…");
    }
    out.join(", ")
}

/// "must be between `lo` and `hi`".
pub fn between(lo: impl std::fmt::Display, hi: impl std::fmt::Display) -> Text {
    Text::new(format!("must be between {lo} and {hi}"), format!("doit être entre {lo} et {hi}"))
}

/// "at most `n` `what`" (`what` in English and French).
pub fn at_most(n: usize, what: (&str, &str)) -> Text {
    Text::new(format!("at most {n} {}", what.0), format!("au plus {n} {}", what.1))
}

/// "must be 1 to `max` bytes".
pub fn bytes_between(max: usize) -> Text {
    Text::new(format!("must be 1 to {max} bytes"), format!("doit faire de 1 à {max} octets"))
}

/// What is wrong with an id (a creature's, a side, `mounted_on`, one of a list), if anything:
/// 1 to `max` bytes, not only white space (an id of spaces names nothing a reader can see).
pub fn id_fault(id: &str, max: usize) -> Option<Text> {
    if id.is_empty() || id.len() > max {
        Some(bytes_between(max))
    } else if id.trim().is_empty() {
        Some(Text::new("must hold more than white space", "doit contenir autre chose que des espaces"))
    } else {
        None
    }
}

/// "must be a number between 0 and `max`".
pub fn number_between(max: i64) -> Text {
    Text::new(
        format!("must be a number between 0 and {max}"),
        format!("doit être un nombre entre 0 et {max}"),
    )
}

/// JSON pointer escaping (RFC 6901).
pub fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
