//! Map importers: Universal VTT files (`.dd2vtt`, `.uvtt`, `.df2vtt`) and Foundry VTT scene
//! exports, turned into Arbiter's grid and encounter. Pure (no HTTP, no I/O but the reader it
//! is given): the import routes and `arbiter import` call them. The Universal VTT format itself
//! is in `arbiter_contract::uvtt`, since a question's grid may be such a file.

pub mod foundry;
pub mod uvtt;

use std::io::Read;

use serde::de::DeserializeOwned;

use arbiter_contract::error::Issue;

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
    let file = match serde_path_to_error::deserialize::<_, T>(arbiter_contract::parse::Strict(&mut de)) {
        Ok(file) => file,
        Err(e) => {
            let issue = arbiter_contract::parse::shape_issue(&e);
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
