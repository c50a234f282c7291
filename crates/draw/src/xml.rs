//! The two leaves every drawing writes with: text escaped for XML, and numbers printed short.

use std::fmt;

/// Escapes text for XML content and attributes: every piece of client text drawn goes through
/// here, so that a drawing is well-formed XML whatever the ids and sides hold.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids (§2.2: C0 controls but tab, LF and CR; U+FFFE and
            // U+FFFF; a Rust string holds no surrogate) are shown as U+FFFD rather than making
            // the document ill-formed.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate written with at most one decimal (the drawing needs no more, and the answer
/// stays small).
#[derive(Debug, Clone, Copy)]
pub struct N(pub f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = (self.0 * 10.0).round() / 10.0;
        if r == r.trunc() { write!(f, "{}", r as i64) } else { write!(f, "{r:.1}") }
    }
}
