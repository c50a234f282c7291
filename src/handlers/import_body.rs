//! The body of an import, read as it arrives by a parser on a blocking thread: the discipline
//! both import routes share.
//!
//! The body is never held whole: its pieces go through a small channel to a [`Read`] that
//! the parser reads, so that a file of megabytes costs the memory of what the parser keeps
//! (bounded by the wire types' list bounds, `crate::capped`), not of the file. The byte
//! count enforces `ARBITER_MAX_IMPORT_BYTES` (past it the reader fails, and the 413 names the
//! pointer being read), the body read timeout bounds a slow upload.
//!
//! The job, not the handler, holds the import gate's permit: a handler that goes away (client
//! gone, request timeout, shutdown) leaves the permit with the parse until it has stopped, so
//! the gate never admits more parses than its number. It stops at its next read: the handler's
//! going sets the job's cancel flag and closes the channel. During a drain, once the grace
//! period is over, the handler answers 503 `shutting-down` at once, as a question does.

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use http_body_util::BodyExt;
use tokio::sync::{Semaphore, mpsc};

use crate::questions::CancelOnDrop;
use crate::state::AppState;
use arbiter_contract::error::{AppError, Text};
use arbiter_import::Failure;

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
    /// The request went away (client gone, timeout, shutdown): nobody waits for the answer.
    Cancelled,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::TooLarge => f.write_str("the body is over the import limit"),
            Stop::Timeout => f.write_str("the body arrived too slowly"),
            Stop::Broken(e) => write!(f, "the body could not be read: {e}"),
            Stop::Cancelled => f.write_str("the request was cancelled"),
        }
    }
}

impl std::error::Error for Stop {}

/// What an import job is given: the body as a [`Read`] and the request's cancel flag (for
/// the work after the parse).
pub struct Job<'a> {
    /// The body.
    pub body: &'a mut BodyReader,
    /// Set when the request went away.
    pub cancel: &'a AtomicBool,
}

impl Job<'_> {
    /// An error when the request went away (nobody will read the answer).
    pub fn check(&self) -> Result<(), AppError> {
        if self.cancel.load(Ordering::Relaxed) { Err(AppError::ShuttingDown) } else { Ok(()) }
    }
}

/// Runs `job` on a blocking thread with the request's body, under the import gate (503 at
/// once when its places are taken) and the lists' settings of the configuration. Its result
/// is the answer's bytes.
pub async fn run(
    state: &AppState,
    gate: &ImportGate,
    body: Body,
    job: impl FnOnce(Job<'_>) -> Result<Vec<u8>, AppError> + Send + 'static,
) -> Result<Vec<u8>, AppError> {
    let permit = gate.0.clone().try_acquire_owned().map_err(|_| AppError::Overloaded)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    let limits = state.config.limits.clone();
    let (tx, rx) = mpsc::channel::<Result<Bytes, Stop>>(4);
    let flag = cancel.clone();
    let parse = tokio::task::spawn_blocking(move || {
        // Given back when the parse has stopped, whenever the handler went.
        let _permit = permit;
        let mut body = BodyReader { rx, chunk: Bytes::new(), read: 0, cancel: flag.clone() };
        arbiter_contract::capped::within(&limits, || job(Job { body: &mut body, cancel: &flag }))
    });
    let limit = state.config.limits.max_import_bytes;
    let feed = feed(body, tx, limit, state.config.body_read_timeout());
    let work = async {
        tokio::pin!(parse, feed);
        tokio::select! {
            done = &mut parse => done,
            () = &mut feed => parse.await,
        }
    };
    let mut shutdown = state.cancel_all.subscribe();
    let done = tokio::select! {
        done = work => done,
        _ = shutdown.wait_for(|cancelled| *cancelled) => return Err(AppError::ShuttingDown),
    };
    done.map_err(|e| AppError::Internal(format!("an import thread failed: {e}")))?
}

/// The problem of a file that could not be read (`read` bytes of it were).
pub fn failure_error(failure: Failure, read: usize, state: &AppState) -> AppError {
    match failure {
        Failure::Invalid(issues) => AppError::Invalid(issues),
        Failure::Malformed(e) => {
            // The `malformed` texts tell an empty body from a cut one by its bytes.
            let seen: &[u8] = if read == 0 { b"" } else { b"{" };
            AppError::Malformed(arbiter_contract::parse::malformed(seen, &e))
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
            Some(Stop::Cancelled) => AppError::ShuttingDown,
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
            crate::questions::linger(body, timeout);
            return;
        }
        total += data.len();
        if tx.send(Ok(data)).await.is_err() {
            // The parser is done (a problem found early): the rest lingers.
            crate::questions::linger(body, timeout);
            return;
        }
    }
}

/// The body as a [`Read`], piece by piece from the channel (on a blocking thread); it fails
/// once the request went away.
pub struct BodyReader {
    rx: mpsc::Receiver<Result<Bytes, Stop>>,
    chunk: Bytes,
    read: usize,
    cancel: Arc<AtomicBool>,
}

impl BodyReader {
    /// The bytes read so far.
    pub fn read_so_far(&self) -> usize {
        self.read
    }
}

impl Read for BodyReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(std::io::Error::other(Stop::Cancelled));
        }
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
