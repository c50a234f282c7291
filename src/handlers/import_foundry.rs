//! `POST /v1/import/foundry`.
//!
//! A scene export carries its thumbnail (a data URI), so this route reads bodies up to the
//! import limit (`ARBITER_MAX_IMPORT_BYTES`), not the questions' limit; the parse and the
//! conversion run on the rules pool, off the async workers, like a question. It shares the
//! imports' gate ([`ImportGate`]) with the Universal VTT route: past it, 503 at once.

use axum::Extension;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use http_body_util::{BodyExt, LengthLimitError, Limited};

use super::QuestionProblems;
use super::import_uvtt::ImportGate;
use crate::AppState;
use crate::error::{AppError, Problem, Text};
use crate::extract::Negotiated;
use crate::extract::negotiate::LanguageHeader;
use crate::import::foundry::{FoundryImportRequest, FoundryImportResponse, import_bytes};
use crate::pool::PoolError;

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
) -> Result<Response, AppError> {
    if !crate::extract::is_json(headers.get(header::CONTENT_TYPE)) {
        return Err(AppError::UnsupportedMediaType);
    }
    // Held while the body is buffered and converted: at most the gate's number of import
    // bodies are in memory at once, as for the Universal VTT import.
    let _permit = gate.0.clone().try_acquire_owned().map_err(|_| AppError::Overloaded)?;
    let bytes = read(&state, body).await?;
    let limits = state.config.limits.clone();
    let max_answer = state.config.max_answer_bytes;
    let lang = accept.lang;
    let job = move || -> Result<Vec<u8>, AppError> {
        let answer = import_bytes(&bytes, &limits)?.answer(lang);
        let body = serde_json::to_vec(&answer).map_err(|e| AppError::Internal(e.to_string()))?;
        if body.len() > max_answer {
            let size = crate::error::AnswerSize::Exact(body.len() as u64);
            return Err(AppError::AnswerTooLarge {
                size,
                limit: max_answer,
                hint: crate::error::Hint::Smaller,
            });
        }
        Ok(body)
    };
    match state.pool.run(job).await {
        Ok(answer) => Ok(super::json_bytes(answer?)),
        Err(PoolError::Full) => {
            state.metrics.shed();
            Err(AppError::Overloaded)
        }
        Err(PoolError::Panicked) => Err(AppError::Internal("the Foundry import panicked".into())),
    }
}

/// The whole body, within the import limit and the body read timeout.
async fn read(state: &AppState, body: Body) -> Result<Bytes, AppError> {
    let limit = state.config.limits.max_import_bytes;
    let timeout = state.config.body_read_timeout();
    match tokio::time::timeout(timeout, Limited::new(body, limit).collect()).await {
        Err(_) => Err(AppError::BodyTimeout(timeout.as_secs())),
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => Err(AppError::TooLarge(limit)),
        Ok(Err(e)) => Err(AppError::Malformed(Text::new(
            format!("the body could not be read: {e}"),
            "le corps n'a pas pu être lu (encodage ou connexion)",
        ))),
    }
}
