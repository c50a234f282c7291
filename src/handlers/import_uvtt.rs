//! `POST /v1/import/uvtt`: a Universal VTT file, as exported, to a grid.
//!
//! The body is never held whole: its pieces go through a small channel to a
//! [`std::io::Read`] that the parser reads on a blocking thread, so a picture of megabytes
//! costs no memory (the `image` is skipped as it streams by). The byte count enforces
//! `ARBITER_MAX_IMPORT_BYTES`: past it the parser's reader fails, and the 413 names the
//! pointer it was reading. Imports run on blocking threads, never on the async workers, at
//! most [`ImportGate`]'s number at once (the next one answers 503 at once), and outside the
//! rules pool: a slow upload holds a blocking thread waiting on the network, not a rules worker.

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::Response;
use http_body_util::BodyExt;
use tokio::sync::{Semaphore, mpsc};

use super::QuestionProblems;
use crate::AppState;
use crate::error::{AppError, Problem, Text};
use crate::extract::Negotiated;
use crate::extract::negotiate::LanguageHeader;
use crate::import::uvtt::{self, Failure, ImportUvttResponse, UvttFile};

/// The imports that may run at once (shared by the import routes of one app).
#[derive(Debug, Clone)]
pub struct ImportGate(pub Arc<Semaphore>);

impl ImportGate {
    /// Room for `n` imports at once (at least one).
    pub fn new(n: usize) -> ImportGate {
        ImportGate(Arc::new(Semaphore::new(n.max(1))))
    }
}

/// Why the body stopped before its end.
#[derive(Debug)]
enum Stop {
    /// Past the import limit.
    TooLarge,
    /// Not all there within the body read timeout.
    Timeout,
    /// The connection or its decoding failed.
    Broken(String),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::TooLarge => f.write_str("the body is over the import limit"),
            Stop::Timeout => f.write_str("the body arrived too slowly"),
            Stop::Broken(e) => write!(f, "the body could not be read: {e}"),
        }
    }
}

impl std::error::Error for Stop {}

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
) -> Result<Response, AppError> {
    if !crate::extract::is_json(req.headers().get(header::CONTENT_TYPE)) {
        return Err(AppError::UnsupportedMediaType);
    }
    let permit = gate.0.clone().try_acquire_owned().map_err(|_| AppError::Overloaded)?;
    let limits = state.config.limits.clone();
    let (tx, rx) = mpsc::channel::<Result<Bytes, Stop>>(4);
    let lang = accept.lang;
    let parse = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut reader = ChunkReader { rx, chunk: Bytes::new(), read: 0 };
        let file = uvtt::read_stream(&mut reader);
        let read = reader.read;
        file.map_err(|f| (f, read))
            .map(|file| uvtt::finish(&file, &limits).and_then(|i| uvtt::answer_bytes(&i, lang)))
    });
    let feed =
        feed(req.into_body(), tx, state.config.limits.max_import_bytes, state.config.body_read_timeout());
    tokio::pin!(parse, feed);
    let done = tokio::select! {
        done = &mut parse => done,
        () = &mut feed => parse.await,
    };
    let answer = match done {
        Ok(Ok(answer)) => answer?,
        Ok(Err((failure, read))) => return Err(failure_error(failure, read, &state)),
        Err(e) => return Err(AppError::Internal(format!("an import thread failed: {e}"))),
    };
    Ok(super::json_bytes(answer))
}

/// The problem of a file that could not be read.
fn failure_error(failure: Failure, read: usize, state: &AppState) -> AppError {
    match failure {
        Failure::Invalid(issues) => AppError::Invalid(issues),
        Failure::Malformed(e) => {
            // The `malformed` texts tell an empty body from a cut one by its bytes.
            let seen: &[u8] = if read == 0 { b"" } else { b"{" };
            AppError::Malformed(crate::extract::malformed(seen, &e))
        }
        Failure::Io { pointer, error } => match error.get_ref().and_then(|e| e.downcast_ref::<Stop>()) {
            Some(Stop::TooLarge) => {
                AppError::ImportTooLarge { limit: state.config.limits.max_import_bytes, pointer }
            }
            Some(Stop::Timeout) => AppError::BodyTimeout(state.config.body_read_timeout().as_secs()),
            Some(Stop::Broken(e)) => AppError::Malformed(Text::new(
                format!("the body could not be read: {e}"),
                "le corps n'a pas pu être lu (encodage ou connexion)",
            )),
            None => AppError::Internal(format!("the import reader failed: {error}")),
        },
    }
}

/// Sends the body's pieces to the parser, at most `limit` bytes, within `timeout`; then the
/// reason it stopped early, if it did. Returns when the body ends or the parser is done.
async fn feed(mut body: Body, tx: mpsc::Sender<Result<Bytes, Stop>>, limit: usize, timeout: Duration) {
    let deadline = tokio::time::Instant::now() + timeout;
    let mut total = 0usize;
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => Err(Stop::Timeout),
            Ok(None) => return,
            Ok(Some(Err(e))) => Err(Stop::Broken(e.to_string())),
            Ok(Some(Ok(frame))) => match frame.into_data() {
                Ok(data) => Ok(data),
                Err(_) => continue, // trailers
            },
        };
        let data = match frame {
            Ok(data) => data,
            Err(stop) => {
                let _ = tx.send(Err(stop)).await;
                return;
            }
        };
        let room = limit - total;
        if data.len() > room {
            // The parser reads up to the limit, then learns why the body stops there.
            let _ = tx.send(Ok(data.slice(..room))).await;
            let _ = tx.send(Err(Stop::TooLarge)).await;
            return;
        }
        total += data.len();
        if tx.send(Ok(data)).await.is_err() {
            return; // the parser is done
        }
    }
}

/// The body as a [`Read`], piece by piece from the channel (on a blocking thread).
struct ChunkReader {
    rx: mpsc::Receiver<Result<Bytes, Stop>>,
    chunk: Bytes,
    read: usize,
}

impl Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.chunk.is_empty() {
            match self.rx.blocking_recv() {
                Some(Ok(data)) => self.chunk = data,
                Some(Err(stop)) => return Err(std::io::Error::other(stop)),
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len());
        buf[..n].copy_from_slice(&self.chunk[..n]);
        self.chunk = self.chunk.slice(n..);
        self.read += n;
        Ok(n)
    }
}
