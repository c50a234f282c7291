//! The warnings of a map's conversion: what an importer could not map or had to decide, each
//! pointing into the source file, capped per kind.

use serde::Serialize;
use utoipa::ToSchema;

use crate::lang::{Lang, Text};

/// Something an importer could not map, or had to decide, pointing into the source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Stable machine-readable kind (`freestanding_portal`), for clients to filter on.
    pub code: &'static str,
    /// JSON pointer (RFC 6901) into the imported file.
    pub pointer: String,
    /// What was done, in both languages.
    pub text: Text,
}

impl Warning {
    /// A warning of kind `code` at `pointer`.
    pub fn new(code: &'static str, pointer: impl Into<String>, text: Text) -> Warning {
        Warning { code, pointer: pointer.into(), text }
    }

    /// The warning as sent, in `lang`.
    pub fn render(&self, lang: Lang) -> WarningOut {
        WarningOut {
            code: self.code.to_owned(),
            pointer: self.pointer.clone(),
            message: self.text.get(lang).to_owned(),
        }
    }
}

/// Warnings listed per kind before the rest of that kind are counted in one.
pub const MAX_PER_CODE: usize = 20;

/// The warnings, at most [`MAX_PER_CODE`] of each kind in their order, then for each kind
/// with more one warning that counts the rest (pointer `""`).
pub fn capped(warnings: Vec<Warning>) -> Vec<Warning> {
    let mut out = Warnings::default();
    for w in warnings {
        out.push(w.code, || w.pointer, || w.text);
    }
    out.finish()
}

/// A collector of warnings, at most [`MAX_PER_CODE`] of each kind (then one that counts the
/// rest); a warning past the cap is never built.
#[derive(Default)]
pub struct Warnings {
    list: Vec<Warning>,
    counts: Vec<(&'static str, usize)>,
}

impl Warnings {
    /// Adds a warning of kind `code`, built only while its kind is under the cap.
    pub fn push(
        &mut self,
        code: &'static str,
        pointer: impl FnOnce() -> String,
        text: impl FnOnce() -> Text,
    ) {
        let n = match self.counts.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.counts.push((code, 1));
                1
            }
        };
        if n <= MAX_PER_CODE {
            self.list.push(Warning::new(code, pointer(), text()));
        }
    }

    /// The warnings kept, then one per kind past the cap that counts the rest.
    pub fn finish(mut self) -> Vec<Warning> {
        for (code, n) in self.counts {
            if n > MAX_PER_CODE {
                let more = n - MAX_PER_CODE;
                self.list.push(Warning::new(
                    code,
                    "",
                    Text::new(
                        format!("and {more} more warnings of this kind, not listed"),
                        format!("et {more} autres avertissements de ce type, non listés"),
                    ),
                ));
            }
        }
        self.list
    }
}

/// Something the importer could not map, or had to decide.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WarningOut {
    /// Stable kind of the warning, for clients to filter on (`freestanding_portal`); README.md
    /// "Importing a map" lists each importer's kinds.
    pub code: String,
    /// JSON pointer (RFC 6901) into the imported file (`/portals/3`).
    pub pointer: String,
    /// What was done about it, in the language of `Accept-Language`.
    pub message: String,
}
