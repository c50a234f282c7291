//! Request middleware: timeouts, metrics, the instance header, problem documents for errors
//! made by other layers, request bodies decoded, answers refused before any work (406).
//! (Load shedding is the rules pool's: `questions::questions`.)

mod decode;

use std::future::Future;
use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::state::AppState;
use arbiter_contract::error::{AppError, Text};

/// The service's own layers around every route, in one middleware (each `from_fn` layer
/// boxes and clones the inner service per request): [`observe`] outermost, then
/// [`answer_memory`], [`problems`], [`admit`], and the request timeout innermost. Every
/// answer carries `X-Content-Type-Options: nosniff`: drawings and problems hold client text,
/// which a browser must never sniff into HTML.
pub async fn edge(State(state): State<AppState>, req: Request, next: Next) -> Response {
    // Problems are made in both languages wherever they arise (often on a rules worker);
    // here, knowing the request, the one asked for is sent.
    let lang = crate::negotiate::lang(req.headers());
    let question = req.method() == Method::POST;
    let res = observe(&state, req, |req| async {
        let res = problems(req, |req| async {
            match admit(req) {
                Ok(req) => timeout(&state, next.run(req)).await,
                Err(refused) => *refused,
            }
        })
        .await;
        answer_memory(&state, res)
    })
    .await;
    let mut res = crate::error::localise(res, lang);
    res.headers_mut().insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if question { said_in(res, lang) } else { res }
}

/// The 406 of a route of the API that draws nothing, to a client that accepts a drawing and no
/// JSON.
pub fn json_only() -> AppError {
    let drawn = arbiter_draw::DRAWN.join(", ");
    crate::error::status_problem(
        StatusCode::NOT_ACCEPTABLE,
        Text::new(
            format!("this route answers JSON only (drawings: {drawn}); accept application/json"),
            format!("cette route ne répond qu'en JSON (dessins : {drawn}) ; acceptez application/json"),
        ),
    )
}

/// What is settled before any work: a client of the API that accepts a drawing and no JSON
/// where nothing is drawn is a 406; a body in a coding not spoken is a 415, one in a coding
/// spoken is decoded as it is read.
fn admit(req: Request) -> Result<Request, Box<Response>> {
    let route = req.extensions().get::<MatchedPath>().map_or("", MatchedPath::as_str);
    if route.starts_with("/v1/")
        && !arbiter_draw::DRAWN.contains(&route)
        && crate::negotiate::svg_only(req.headers())
    {
        return Err(Box::new(crate::error::response(&json_only())));
    }
    if req.method() == Method::POST { decode::decoded(req) } else { Ok(req) }
}

/// Marks a question's answer with the language its texts are in, and tells caches that the
/// answer depends on `Accept` (JSON or a drawing) and `Accept-Language`.
fn said_in(mut res: Response, lang: arbiter_contract::lang::Lang) -> Response {
    let headers = res.headers_mut();
    if !headers.contains_key(header::CONTENT_LANGUAGE) {
        headers.insert(header::CONTENT_LANGUAGE, HeaderValue::from_static(lang.tag()));
    }
    if headers.contains_key(header::VARY) {
        headers.append(header::VARY, HeaderValue::from_static("accept-language"));
    } else {
        headers.insert(header::VARY, HeaderValue::from_static("accept, accept-language"));
    }
    res
}

/// Bounds the time of a request; the rules' work budget bounds their CPU time.
async fn timeout(state: &AppState, run: impl Future<Output = Response>) -> Response {
    match tokio::time::timeout(state.config.request_timeout(), run).await {
        Ok(res) => res,
        Err(_) => crate::error::HttpError(AppError::Timeout).into_response(),
    }
}

/// Counts and times every request by route template and status; adds `x-arbiter-instance`.
async fn observe<F: Future<Output = Response>>(
    state: &AppState,
    req: Request,
    next: impl FnOnce(Request) -> F,
) -> Response {
    let start = Instant::now();
    let method = method_label(req.method());
    let matched = req.extensions().get::<MatchedPath>().cloned();
    let route = matched.as_ref().map_or("unmatched", MatchedPath::as_str);
    let mut guard = InFlight { state, method, route, start, done: false };
    state.metrics.in_flight(1);
    let mut res = next(req).await;
    guard.done = true;
    drop(guard);
    if let Some(kind) = res.extensions().get::<crate::error::ProblemKind>() {
        state.metrics.problem(kind.0);
    }
    state.metrics.observe(method, route, res.status().as_u16(), start.elapsed());
    if let Some(v) = &state.instance_header {
        res.headers_mut().insert("x-arbiter-instance", v.clone());
    }
    if state.draining.load(Ordering::Relaxed) {
        // Tell keep-alive clients (and proxies) to reconnect elsewhere while we drain.
        res.headers_mut().insert(axum::http::header::CONNECTION, HeaderValue::from_static("close"));
    }
    res
}

/// Keeps the in-flight gauge true when a request's future is dropped before it answers
/// (client gone, inactivity, shutdown): such a request is counted with status 499, as nginx
/// names a request its client closed.
struct InFlight<'a> {
    state: &'a AppState,
    method: &'static str,
    route: &'a str,
    start: Instant,
    done: bool,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.state.metrics.in_flight(-1);
        if !self.done {
            self.state.metrics.observe(self.method, self.route, 499, self.start.elapsed());
        }
    }
}

/// The metrics label of a method: the standard ones, and `other` for any other token, so
/// that clients cannot mint label values.
fn method_label(m: &Method) -> &'static str {
    match *m {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::TRACE => "TRACE",
        Method::CONNECT => "CONNECT",
        _ => "other",
    }
}

/// Makes every error answer a problem document: a layer that answers an error of its own
/// (request decompression's 415 for an unknown `Content-Encoding`, ...) gets its bare
/// answer replaced by a problem of the same status.
async fn problems<F: Future<Output = Response>>(req: Request, next: impl FnOnce(Request) -> F) -> Response {
    let res = next(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    // Bare answers only: no media type, or plain text. A JSON answer (the readiness 503's
    // `{"status": "draining"}`) or a problem document is left as it is.
    let bare =
        res.headers().get(header::CONTENT_TYPE).is_none_or(|v| v.as_bytes().starts_with(b"text/plain"));
    if !bare {
        return res;
    }
    let detail = match res.headers().get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()) {
        Some(accepted) if status == StatusCode::UNSUPPORTED_MEDIA_TYPE => Text::new(
            format!("unsupported Content-Encoding; send the body plain or as one of: {accepted}"),
            format!(
                "Content-Encoding non pris en charge ; envoyez le corps tel quel ou en l'un de : {accepted}"
            ),
        ),
        _ => {
            let (en, fr) = crate::error::reason(status);
            Text::new(en.to_lowercase(), fr.to_lowercase())
        }
    };
    let mut out = crate::error::response(&crate::error::status_problem(status, detail));
    for (name, v) in res.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().append(name.clone(), v.clone());
        }
    }
    out
}

/// Answers from this size on hold permits of the answer memory until they are sent.
const LARGE_ANSWER: u64 = 64 * 1024;

/// Bounds the memory of large answers waiting to be sent, over all requests: one client that
/// does not read holds its answer, many must not hold the process's memory. Past
/// `ARBITER_ANSWER_MEMORY_BYTES` a new large answer is a 503 (small ones always pass).
fn answer_memory(state: &AppState, res: Response) -> Response {
    use axum::body::HttpBody;
    let size = res.body().size_hint().upper().unwrap_or_else(|| res.body().size_hint().lower());
    if size < LARGE_ANSWER {
        return res;
    }
    let permits = u32::try_from(size).unwrap_or(u32::MAX);
    let Ok(permit) = state.answer_memory.clone().try_acquire_many_owned(permits) else {
        state.metrics.shed();
        return crate::error::HttpError(AppError::AnswersPending).into_response();
    };
    let (parts, body) = res.into_parts();
    Response::from_parts(parts, axum::body::Body::new(Held { inner: body, _permit: permit }))
}

/// A body that holds answer-memory permits until it is dropped (sent, or the client left).
struct Held {
    inner: axum::body::Body,
    _permit: tokio::sync::OwnedSemaphorePermit,
}

impl http_body::Body for Held {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}
