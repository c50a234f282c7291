//! `POST /v1/import/uvtt` and `arbiter import uvtt`: a Universal VTT file read whole or from a
//! body arriving in pieces, checked, converted (`arbiter_contract::uvtt`, which the inline
//! `"grid": {"uvtt": …}` of every question shares) and answered with its warnings.

use std::io::Read;

use serde::ser::Serialize;
use utoipa::ToSchema;

use arbiter_contract::api::encounter::GridIn;
use arbiter_contract::api::uvtt::{UvttFile, bounds, convert, sizes};
use arbiter_contract::error::{AppError, Text};
use arbiter_contract::lang::Lang;
use arbiter_contract::limits::Limits;
use arbiter_contract::warnings::{Warning, WarningOut};

pub use crate::Failure;

/// A converted file.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The grid, a valid question grid.
    pub grid: GridIn,
    /// What could not be mapped or had to be decided.
    pub warnings: Vec<Warning>,
}

/// The answer of `POST /v1/import/uvtt`.
#[derive(Debug, Clone, serde::Serialize, ToSchema)]
pub struct ImportUvttResponse {
    /// The grid: send it as an encounter's `grid`.
    pub grid: GridIn,
    /// What could not be mapped or had to be decided, in file order.
    pub warnings: Vec<WarningOut>,
}

impl Imported {
    /// The answer, its warnings in `lang` (what the HTTP route and the command line print).
    pub fn answer(&self, lang: Lang) -> ImportUvttResponse {
        ImportUvttResponse {
            grid: self.grid.clone(),
            warnings: self.warnings.iter().map(|w| w.render(lang)).collect(),
        }
    }
}

/// Converts a whole file held in memory: the command line's entry (`arbiter import uvtt`).
/// Not JSON → [`AppError::Malformed`]; a wrong shape or a broken bound → [`AppError::Invalid`]
/// with pointers into the file. Both render with `AppError::problem`.
pub fn import(bytes: &[u8], limits: &Limits) -> Result<Imported, AppError> {
    let file =
        arbiter_contract::capped::within(limits, || crate::read(serde_json::Deserializer::from_slice(bytes)))
            .map_err(|f| match f {
                Failure::Malformed(e) => AppError::Malformed(arbiter_contract::parse::malformed(bytes, &e)),
                Failure::Invalid(issues) => AppError::Invalid(issues),
                Failure::Io { error, .. } => AppError::Malformed(Text::new(
                    format!("the file could not be read: {error}"),
                    "le fichier n'a pas pu être lu",
                )),
            })?;
    finish(&file, limits)
}

/// Checks and converts a file already read.
pub fn finish(file: &UvttFile, limits: &Limits) -> Result<Imported, AppError> {
    let mut problems = bounds(file);
    if problems.is_empty() {
        let (grid, warnings) = convert::convert(file, limits.max_walls as usize);
        problems = sizes(&grid, limits);
        if problems.is_empty() {
            return Ok(Imported { grid, warnings });
        }
    }
    Err(AppError::Invalid(problems))
}

/// Reads a file from a body arriving in pieces (`POST /v1/import/uvtt`), never holding it
/// whole.
pub fn read_stream<R: Read>(reader: R) -> Result<UvttFile, Failure> {
    crate::read_stream(reader)
}

/// The answer serialised, its warnings in `lang`.
pub fn answer_bytes(imported: &Imported, lang: Lang) -> Result<Vec<u8>, AppError> {
    let mut buf = Vec::with_capacity(4096);
    imported
        .answer(lang)
        .serialize(&mut serde_json::Serializer::new(&mut buf))
        .map_err(|e| AppError::Internal(format!("the import answer could not be serialised: {e}")))?;
    Ok(buf)
}
