//! The command line: `arbiter` serves; `arbiter import uvtt FILE` and `arbiter import foundry
//! FILE` print a map export converted into Arbiter's JSON, as the import routes answer it, so
//! a GM can turn a map into an encounter and then ask questions with curl.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};
use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::config::{Config, Limits};
use arbiter_contract::api::encounter::RulesetIn;
use arbiter_contract::error::{AppError, Issue, Text};
use arbiter_contract::lang::Lang;
use arbiter_import::{foundry, uvtt};

/// The `arbiter` command line.
#[derive(Debug, Parser)]
#[command(name = "arbiter", version, about = "Stateless rules-resolution service for d20 tactical combat")]
pub struct Cli {
    /// What to do (nothing: serve).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The service's configuration (also read by `import`, for its limits).
    #[command(flatten)]
    pub config: Config,
}

/// A command other than serving.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Convert a map export into Arbiter's JSON and print it on stdout.
    Import {
        /// The export's format.
        #[command(subcommand)]
        format: ImportFormat,
    },
}

/// The map formats `import` reads.
#[derive(Debug, Subcommand)]
pub enum ImportFormat {
    /// A Universal VTT file (`.dd2vtt`, `.uvtt`, `.df2vtt`): prints `{grid, warnings}`, the
    /// answer of `POST /v1/import/uvtt`.
    Uvtt {
        /// The file (`-`: standard input).
        file: PathBuf,
        /// Language of the warnings and problems.
        #[arg(long, value_enum, default_value = "en")]
        lang: LangArg,
    },
    /// A Foundry VTT scene export, or a whole import request `{scene, ruleset, creatures}`:
    /// prints `{encounter, tokens, warnings}`, the answer of `POST /v1/import/foundry`.
    Foundry {
        /// The file (`-`: standard input).
        file: PathBuf,
        /// The encounter's ruleset, for a bare scene export (a request names its own).
        #[arg(long)]
        ruleset: Option<String>,
        /// Language of the warnings and problems.
        #[arg(long, value_enum, default_value = "en")]
        lang: LangArg,
    },
}

/// A language of the command line's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// English.
    En,
    /// French.
    Fr,
}

impl From<LangArg> for Lang {
    fn from(l: LangArg) -> Lang {
        match l {
            LangArg::En => Lang::En,
            LangArg::Fr => Lang::Fr,
        }
    }
}

/// What a command printed, and how the process ends.
#[derive(Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Standard output: the converted JSON.
    pub stdout: String,
    /// Standard error: a problem document, or why the file could not be read.
    pub stderr: String,
    /// The exit status: 0 done, 1 the file cannot be imported, 2 it cannot be read.
    pub code: u8,
}

impl Outcome {
    fn printed(value: &impl serde::Serialize) -> Outcome {
        match serde_json::to_string_pretty(value) {
            Ok(json) => Outcome { stdout: json + "\n", stderr: String::new(), code: 0 },
            Err(e) => Outcome { stdout: String::new(), stderr: format!("arbiter: {e}\n"), code: 1 },
        }
    }

    fn refused(e: &AppError, lang: Lang) -> Outcome {
        let problem = e.problem(lang);
        let text = serde_json::to_string_pretty(&problem).unwrap_or_else(|_| problem.detail.clone());
        Outcome { stdout: String::new(), stderr: text + "\n", code: 1 }
    }

    fn unreadable(path: &Path, e: &std::io::Error) -> Outcome {
        Outcome {
            stdout: String::new(),
            stderr: format!("arbiter: cannot read {}: {e}\n", path.display()),
            code: 2,
        }
    }
}

/// Runs `command` with the service's `limits` (the import limit bounds the file read).
pub fn run(command: &Command, limits: &Limits) -> Outcome {
    match command {
        Command::Import { format: ImportFormat::Uvtt { file, lang } } => {
            let lang = Lang::from(*lang);
            match read(file, limits.max_import_bytes) {
                Ok(bytes) => match uvtt::import(&bytes, limits) {
                    Ok(imported) => Outcome::printed(&imported.answer(lang)),
                    Err(e) => Outcome::refused(&e, lang),
                },
                Err(e) => Outcome::unreadable(file, &e),
            }
        }
        Command::Import { format: ImportFormat::Foundry { file, ruleset, lang } } => {
            let lang = Lang::from(*lang);
            match read(file, limits.max_import_bytes) {
                Ok(bytes) => match import_foundry(&bytes, ruleset.as_deref(), limits) {
                    Ok(imported) => Outcome::printed(&imported.answer(lang)),
                    Err(e) => Outcome::refused(&e, lang),
                },
                Err(e) => Outcome::unreadable(file, &e),
            }
        }
    }
}

/// A file's bytes, at most `limit` of them (the import routes' bound holds here too).
fn read(path: &Path, limit: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    if path == Path::new("-") {
        std::io::stdin().lock().take(cap).read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(path)?.take(cap).read_to_end(&mut bytes)?;
    }
    if bytes.len() > limit {
        return Err(std::io::Error::other(format!(
            "the file is over the import limit of {limit} bytes (--max-import-bytes, ARBITER_MAX_IMPORT_BYTES)"
        )));
    }
    Ok(bytes)
}

/// Only whether the document is a whole request (`{"scene": ...}`) or a bare scene.
#[derive(Deserialize)]
struct Shape {
    #[serde(default)]
    scene: Option<IgnoredAny>,
}

/// Imports a request, or a bare scene export under `ruleset`; a bare scene's problems and
/// warnings point into the file itself (without the request's `/scene`).
fn import_foundry(
    bytes: &[u8],
    ruleset: Option<&str>,
    limits: &Limits,
) -> Result<foundry::Imported, AppError> {
    let ruleset = ruleset.map(ruleset_in).transpose()?;
    let whole_request = serde_json::from_slice::<Shape>(bytes).is_ok_and(|s| s.scene.is_some());
    if whole_request {
        if ruleset.is_some() {
            return Err(AppError::Invalid(vec![Issue::new(
                "/ruleset",
                Text::new(
                    "--ruleset is for a bare scene export: this file is a request, give its ruleset there",
                    "--ruleset sert pour une scène exportée seule : ce fichier est une requête, donnez-y son ruleset",
                ),
            )]));
        }
        return foundry::import_bytes(bytes, limits);
    }
    let scene = arbiter_contract::capped::within(limits, || arbiter_contract::parse::parse(bytes))?;
    let req = foundry::FoundryImportRequest {
        scene,
        ruleset,
        creatures: Vec::new(),
        invisible_walls: Default::default(),
    };
    let unscene = |p: &str| p.strip_prefix("/scene").map_or_else(|| p.to_owned(), str::to_owned);
    match foundry::import(&req, limits) {
        Ok(mut imported) => {
            for w in &mut imported.warnings {
                w.pointer = unscene(&w.pointer);
            }
            Ok(imported)
        }
        Err(issues) => Err(AppError::Invalid(
            issues.into_iter().map(|i| Issue::new(unscene(&i.pointer), i.detail)).collect(),
        )),
    }
}

/// A ruleset id given on the command line, checked as the wire checks it.
fn ruleset_in(id: &str) -> Result<RulesetIn, AppError> {
    serde_json::from_value(serde_json::Value::String(id.to_owned())).map_err(|e| {
        AppError::Invalid(vec![Issue::new(
            "/ruleset",
            Text::new(format!("--ruleset: {e}"), format!("--ruleset : {e}")),
        )])
    })
}

/// Prints an outcome and gives its exit status.
pub fn finish(outcome: &Outcome) -> std::process::ExitCode {
    // A closed stdout (`| head`) is not worth a panic; the status still says what happened.
    let _ = std::io::stdout().lock().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().lock().write_all(outcome.stderr.as_bytes());
    std::process::ExitCode::from(outcome.code)
}
