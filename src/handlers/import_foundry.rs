//! `POST /v1/import/foundry`.
//!
//! A scene export carries its thumbnail (a data URI), so this route reads bodies up to the
//! import limit (`ARBITER_MAX_IMPORT_BYTES`), not the questions' limit. As the Universal VTT
//! route does, it reads the body as it arrives (`import_body`), never holding it whole, each
//! list of the scene bounded while it streams and the lists it does not read skipped unbuilt;
//! the parse and the conversion run on a blocking thread under the imports' gate
//! ([`ImportGate`]): past it, 503 at once.

use axum::Extension;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::Response;

use super::import_body::ImportGate;
use super::{QuestionProblems, import_body};
use crate::error::HttpError;
use crate::negotiate::LanguageHeader;
use crate::negotiate::Negotiated;
use crate::state::AppState;
use arbiter_contract::error::AppError;
use arbiter_contract::error::Problem;
use arbiter_import::foundry::{FoundryImportRequest, FoundryImportResponse, answer_bytes};

/// A Foundry VTT scene export turned into an encounter.
///
/// Send the scene as Foundry exports it (right-click the scene, Export Data) under `scene`,
/// with the ruleset and, per token, the numbers Foundry does not carry (`creatures`: stats,
/// conditions, senses, size, side; by token `_id` or name). The answer's `encounter` is
/// ready for every question: grid squares without the scene's padding, walls and doors by
/// kind, lights, one creature per token. `warnings` lists what could not be mapped exactly
/// (one-way, terrain and proximity walls, secret doors, hidden tokens, footprints rounded),
/// each pointing into the request. Gridless and hexagonal scenes are refused.
#[utoipa::path(
    post,
    path = "/v1/import/foundry",
    tag = "imports",
    request_body = FoundryImportRequest,
    params(LanguageHeader),
    responses(
        (status = 200, description = "The encounter and the warnings", body = FoundryImportResponse),
        (status = 422, description = "The scene cannot be imported (a gridless or hexagonal grid, a token off the map, a value past its bound) or the overlay is invalid", body = Problem, content_type = "application/problem+json"),
        QuestionProblems,
        super::JsonOnly,
    )
)]
pub async fn import_foundry(
    State(state): State<AppState>,
    Extension(gate): Extension<ImportGate>,
    accept: Negotiated,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, HttpError> {
    if !crate::extract::is_json(headers.get(header::CONTENT_TYPE)) {
        return Err(AppError::UnsupportedMediaType.into());
    }
    let limits = state.config.limits.clone();
    let max_answer = state.config.max_answer_bytes;
    let lang = accept.lang;
    let job_state = state.clone();
    let answer = import_body::run(&state, &gate, body, move |job| {
        let req: FoundryImportRequest = arbiter_import::read_stream(&mut *job.body)
            .map_err(|f| import_body::failure_error(f, job.body.read_so_far(), &job_state))?;
        job.check()?;
        answer_bytes(&req, &limits, lang, max_answer)
    })
    .await?;
    Ok(super::json_bytes(answer))
}
