//! The middleware of every question route ([`questions`]): the body read on the async side
//! (bounded in size, time and the shared body memory), a slot of the rules pool, the whole
//! handler run on a rules worker with its [`Work`] (budget and cancel flag), the answer bounded
//! in size. Refused bodies linger ([`linger`]) so that a client sending its whole body still
//! reads its answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use tokio::sync::OwnedSemaphorePermit;

use arbiter_contract::error::{AnswerSize, AppError, Hint};
use arbiter_rules::budget::Budget;

use crate::pool::PoolError;
use crate::state::AppState;

/// What one question may spend: the work budget and the flag that cancels it. Handlers take
/// it as an extractor and build their [`Budget`] from it.
#[derive(Debug, Clone)]
pub struct Work {
    limit: u64,
    cancel: Arc<AtomicBool>,
}

impl Work {
    /// The question's budget, cancelled with the request.
    pub fn budget(&self) -> Budget {
        Budget::with_cancel(self.limit, self.cancel.clone())
    }
}

impl FromRequestParts<AppState> for Work {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        // Outside `questions` (never on a real route) the budget still holds, uncancellable.
        Ok(parts.extensions.get::<Work>().cloned().unwrap_or_else(|| Work {
            limit: state.config.limits.work_budget,
            cancel: Arc::new(AtomicBool::new(false)),
        }))
    }
}

/// Sets the flag when dropped: the request's future went away (client gone, timeout,
/// shutdown), so its work should stop at the next budget check.
pub(crate) struct CancelOnDrop(pub(crate) Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The middleware of every question route: buffer the body, take a pool slot, run the
/// handler on a worker, bound the answer.
pub async fn questions(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    let mut shutdown = state.cancel_all.subscribe();
    let read = tokio::select! {
        read = read_body(&state, body) => read,
        _ = shutdown.wait_for(|cancelled| *cancelled) => return crate::error::HttpError(AppError::ShuttingDown).into_response(),
    };
    let (bytes, reserved) = match read {
        Ok(b) => b,
        Err(e) => return crate::error::HttpError(e).into_response(),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    let mut req = Request::from_parts(parts, Body::from(bytes));
    req.extensions_mut().insert(Work { limit: state.config.limits.work_budget, cancel: cancel.clone() });
    let svg = crate::negotiate::wants_svg(req.headers());
    let route = req.uri().path().to_owned();
    let handle = tokio::runtime::Handle::current();
    // The body's share of the body memory goes with the job: given back when the job is
    // done, or dropped unstarted (the body goes with it either way).
    let job = state.pool.run(move || {
        let _reserved = reserved;
        handle.block_on(next.run(req))
    });
    let res = tokio::select! {
        res = job => res,
        _ = shutdown.wait_for(|cancelled| *cancelled) => return crate::error::HttpError(AppError::ShuttingDown).into_response(),
    };
    match res {
        Ok(res) => bound_answer(&state, res, &route, svg),
        Err(PoolError::Full) => {
            state.metrics.shed();
            crate::error::HttpError(AppError::Overloaded).into_response()
        }
        Err(PoolError::Panicked) => {
            crate::error::HttpError(AppError::Internal("a rules worker panicked".into())).into_response()
        }
    }
}

/// Reads the whole body within the size limit and the body timeout, holding its
/// share of the body memory (`ARBITER_BODY_MEMORY_BYTES`) for as long as the body lives.
async fn read_body(state: &AppState, body: Body) -> Result<(Bytes, OwnedSemaphorePermit), AppError> {
    let timeout = state.config.body_read_timeout();
    match tokio::time::timeout(timeout, read_within(state, body)).await {
        Err(_) => Err(AppError::BodyTimeout(timeout.as_secs())),
        Ok(read) => read,
    }
}

/// The body into one buffer whose capacity is reserved in the body memory before it is
/// allocated: all of it at once when the size is declared, as the buffer grows otherwise
/// (a compressed body, a chunked one). A reservation that does not fit is a 503 at once.
async fn read_within(state: &AppState, mut body: Body) -> Result<(Bytes, OwnedSemaphorePermit), AppError> {
    use axum::body::HttpBody;
    let limit = state.config.limits.max_body_bytes;
    let memory = &state.body_memory;
    let declared = body.size_hint().exact().map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    if declared.is_some_and(|n| n > limit) {
        linger(body, state.config.body_read_timeout());
        return Err(AppError::TooLarge(limit));
    }
    let reserve = |n: usize| memory.clone().try_acquire_many_owned(u32::try_from(n).unwrap_or(u32::MAX));
    let Ok(mut reserved) = reserve(declared.unwrap_or(0)) else {
        return Err(refuse_body(state, body));
    };
    let mut buf: Vec<u8> = Vec::with_capacity(declared.unwrap_or(0));
    while let Some(frame) = body.frame().await {
        let Ok(data) = frame.map_err(|e| body_error(&e))?.into_data() else { continue };
        let needed = buf.len() + data.len();
        if needed > limit {
            linger(body, state.config.body_read_timeout());
            return Err(AppError::TooLarge(limit));
        }
        if needed > buf.capacity() {
            // Doubling, as `Vec` would, but never past the limit.
            let capacity = needed.max(2 * buf.capacity()).min(limit);
            let held = reserved.num_permits();
            if capacity > held {
                let Ok(more) = reserve(capacity - held) else {
                    return Err(refuse_body(state, body));
                };
                reserved.merge(more);
            }
            buf.reserve_exact(capacity - buf.len());
        }
        buf.extend_from_slice(&data);
    }
    Ok((Bytes::from(buf), reserved))
}

/// A body refused for want of body memory: answered 503 at once, the rest of it lingering.
fn refuse_body(state: &AppState, body: Body) -> AppError {
    state.metrics.shed();
    linger(body, state.config.body_read_timeout());
    AppError::BodiesPending
}

/// Bytes of a refused body read and dropped after its answer; a client sending more has its
/// connection closed (and may see a reset instead of the answer).
pub const LINGER_BYTES: usize = 4 << 20;

/// Reads and drops the rest of a refused body, chunk by chunk, for at most [`LINGER_BYTES`]
/// and `timeout`, so that a client still sending it reads the answer: closing a connection
/// with unread bytes resets it, and the client then loses the answer already sent (Node's
/// `fetch` fails outright). Nothing is kept, so lingering costs no memory.
pub fn linger(mut body: Body, timeout: Duration) {
    tokio::spawn(tokio::time::timeout(timeout, async move {
        let mut seen = 0;
        while let Some(Ok(frame)) = body.frame().await {
            seen += frame.data_ref().map_or(0, Bytes::len);
            if seen > LINGER_BYTES {
                break;
            }
        }
    }));
}

/// A body that could not be read: a decoding failure (`Content-Encoding` that lies) is the
/// client's, anything else is a broken connection.
fn body_error(e: &(dyn std::error::Error + 'static)) -> AppError {
    AppError::Malformed(arbiter_contract::error::Text::new(
        format!("the body could not be read: {e}"),
        "le corps n'a pas pu être lu (encodage ou connexion)",
    ))
}

/// Replaces an answer larger than `max_answer_bytes` by a 422 that says what to turn off.
fn bound_answer(state: &AppState, res: Response, route: &str, svg: bool) -> Response {
    use axum::body::HttpBody;
    let limit = state.config.max_answer_bytes;
    let size = res.body().size_hint().exact().unwrap_or_else(|| res.body().size_hint().lower());
    if size <= limit as u64 {
        return res;
    }
    let hint = if svg {
        Hint::Svg
    } else if route.ends_with("/analyze") {
        Hint::Analyze
    } else {
        Hint::Smaller
    };
    let mut out =
        crate::error::response(&AppError::AnswerTooLarge { size: AnswerSize::Exact(size), limit, hint });
    if let Some(id) = res.headers().get("x-request-id") {
        out.headers_mut().insert("x-request-id", id.clone());
    }
    out.headers_mut().insert(header::VARY, HeaderValue::from_static("accept"));
    out
}
