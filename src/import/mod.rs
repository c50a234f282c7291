//! Map importers: Universal VTT files (`.dd2vtt`, `.uvtt`, `.df2vtt`) and Foundry VTT scene
//! exports, turned into Arbiter's grid and encounter. The conversions are pure (no I/O): the
//! import routes, the inline `grid.uvtt` of every question and `arbiter import` call them.

pub mod foundry;
pub mod uvtt;

use std::io::Read;

use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::ToSchema;

use crate::error::{Issue, Text};
use crate::lang::Lang;

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
pub(crate) struct Warnings {
    list: Vec<Warning>,
    counts: Vec<(&'static str, usize)>,
}

impl Warnings {
    pub(crate) fn push(
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

    pub(crate) fn finish(mut self) -> Vec<Warning> {
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

/// Why a file could not be read.
#[derive(Debug)]
pub enum Failure {
    /// Not JSON (serde_json's error, for its line and column).
    Malformed(serde_json::Error),
    /// JSON of the wrong shape, at its pointer.
    Invalid(Vec<Issue>),
    /// The reader failed (a body over its limit, too slow, broken) while `pointer` was read.
    Io {
        /// Where the reading was.
        pointer: String,
        /// The reader's error.
        error: std::io::Error,
    },
}

/// Reads a file from a body arriving in pieces (the import routes), never holding it whole.
pub fn read_stream<T: DeserializeOwned, R: Read>(reader: R) -> Result<T, Failure> {
    read(serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(64 * 1024, reader)))
}

/// Reads one file from `de`, its path tracked for the pointer of a failure (a file is read
/// once: there is no second pass to find it, and a list past its bound stops the reading).
pub(crate) fn read<'de, T: serde::Deserialize<'de>, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
) -> Result<T, Failure> {
    use serde_json::error::Category;
    let file = match serde_path_to_error::deserialize::<_, T>(crate::extract::Strict(&mut de)) {
        Ok(file) => file,
        Err(e) => {
            let issue = crate::extract::shape_issue(&e);
            let inner = e.into_inner();
            return Err(match inner.classify() {
                Category::Io => Failure::Io { pointer: issue.pointer, error: inner.into() },
                Category::Data => Failure::Invalid(vec![issue]),
                // serde_json calls a number too large for any type a syntax error.
                Category::Syntax if inner.to_string().starts_with("number out of range") => {
                    Failure::Invalid(vec![issue])
                }
                Category::Syntax | Category::Eof => Failure::Malformed(inner),
            });
        }
    };
    de.end().map_err(Failure::Malformed)?;
    Ok(file)
}
