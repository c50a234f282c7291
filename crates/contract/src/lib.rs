//! Arbiter's wire contract, both ways: what a client may send (request types with their
//! bounds, validated with a JSON pointer per problem before any work) and what it is answered
//! (answer types, the trace's wire form and its text in English and French, the glossary).
//! The mapping between these types and the rules crate's lives here too, so that the server,
//! the importers and the fixture runners share one.
//!
//! No HTTP: the server (`arbiter`) turns an [`error::AppError`] into a status and headers, and
//! reads the language from `Accept-Language`.

pub mod api;
pub mod capped;
mod closed;
pub mod drawing;
pub mod error;
pub mod lang;
pub mod limits;
pub mod parse;
pub mod problems;
pub mod render;
pub mod rules_text;
pub mod warnings;
pub mod wire;
