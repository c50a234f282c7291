//! Map importers: Universal VTT files (`.dd2vtt`, `.uvtt`, `.df2vtt`) and Foundry VTT scene
//! exports, turned into Arbiter's grid and encounter. The conversions are pure (no I/O): the
//! import routes, the inline `grid.uvtt` of every question and `arbiter import` call them.

pub mod foundry;
pub mod uvtt;

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::Text;
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
