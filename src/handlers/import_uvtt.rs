//! `POST /v1/import/uvtt`: a Universal VTT file, as exported, to a grid.
//!
//! The body is read as it arrives (`import_body`), so a picture of megabytes costs no memory
//! (the `image` is skipped as it streams by), and every list of the file is bounded while it
//! streams. Imports run on blocking threads, never on the async workers, at most
//! [`ImportGate`](super::import_body::ImportGate)'s number at once (the next one answers 503
//! at once), and outside the rules pool: a slow upload holds a blocking thread waiting on the
//! network, not a rules worker.

use axum::Extension;
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::Response;

use super::QuestionProblems;
use super::import_body::{self, ImportGate};
use crate::error::HttpError;
use crate::negotiate::LanguageHeader;
use crate::negotiate::Negotiated;
use crate::state::AppState;
use arbiter_contract::api::uvtt::UvttFile;
use arbiter_contract::error::AppError;
use arbiter_contract::error::Problem;
use arbiter_import::uvtt::{self, ImportUvttResponse};

/// Converts a Universal VTT file (`.dd2vtt`, `.uvtt`, `.df2vtt`) into a grid.
///
/// Send the file as it was exported, with `Content-Type: application/json`. The answer's
/// `grid` is a valid question grid (send it as an encounter's `grid`, or send the file itself
/// as `"grid": {"uvtt": file}`); `warnings` list everything that could not be mapped or had
/// to be decided, each with a pointer into the file. The picture (`image`) is skipped as it
/// is read; the body may be up to `ARBITER_MAX_IMPORT_BYTES` (32 MiB by default), and a
/// larger one answers 413 naming the field being read.
#[utoipa::path(
    post,
    path = "/v1/import/uvtt",
    tag = "imports",
    request_body = UvttFile,
    params(LanguageHeader),
    responses(
        (status = 200, description = "The grid and the warnings", body = ImportUvttResponse),
        (status = 422, description = "The file is JSON but not a Universal VTT file Arbiter reads: a wrong format version, a value past a bound (each with its pointer)", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
        super::JsonOnly,
    )
)]
pub async fn import_uvtt(
    State(state): State<AppState>,
    Extension(gate): Extension<ImportGate>,
    accept: Negotiated,
    req: Request,
) -> Result<Response, HttpError> {
    if !crate::extract::is_json(req.headers().get(header::CONTENT_TYPE)) {
        return Err(AppError::UnsupportedMediaType.into());
    }
    let limits = state.config.limits.clone();
    let lang = accept.lang;
    let job_state = state.clone();
    let answer = import_body::run(&state, &gate, req.into_body(), move |job| {
        let file = uvtt::read_stream(&mut *job.body)
            .map_err(|f| import_body::failure_error(f, job.body.read_so_far(), &job_state))?;
        job.check()?;
        uvtt::finish(&file, &limits).and_then(|i| uvtt::answer_bytes(&i, lang))
    })
    .await?;
    Ok(super::json_bytes(answer))
}
