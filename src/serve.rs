//! The listener and its connections: a cap on open connections, a header read timeout, an
//! inactivity timeout, and the shutdown sequence (unready period, drain, cancel, exit).
//!
//! Written on hyper directly rather than `axum::serve` because the latter exposes none of
//! these knobs.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

use crate::config::{Config, PROBE_CONNECTIONS};
use crate::state::AppState;

/// Connection settings, from the configuration.
#[derive(Debug, Clone, Copy)]
pub struct ConnLimits {
    /// Most open connections.
    pub max_connections: usize,
    /// Time for a request's headers to arrive (also the keep-alive idle time).
    pub header_read_timeout: Duration,
    /// Time without any byte read or written after which a connection is closed.
    pub idle_timeout: Duration,
}

impl ConnLimits {
    /// The limits a configuration asks for. The inactivity timeout is kept above the request
    /// timeout: a connection waiting for its answer moves no bytes.
    pub fn from_config(c: &Config) -> ConnLimits {
        let idle = Duration::from_secs(c.idle_timeout_secs.max(1));
        ConnLimits {
            max_connections: c.max_connections.clamp(1, 1 << 20),
            header_read_timeout: Duration::from_secs(c.header_read_timeout_secs.max(1)),
            idle_timeout: idle.max(c.request_timeout() + Duration::from_secs(1)),
        }
    }
}

impl ConnLimits {
    /// The limits of the probe listener: [`PROBE_CONNECTIONS`] connections, and a few seconds
    /// for a probe's headers and between its bytes (a probe is answered at once), so that
    /// connections left open there are soon given back.
    pub fn for_probes() -> ConnLimits {
        ConnLimits {
            max_connections: PROBE_CONNECTIONS,
            header_read_timeout: PROBE_TIMEOUT,
            idle_timeout: PROBE_TIMEOUT,
        }
    }
}

/// How long a probe connection may stay silent.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// Serves the app of `state` on `listener` until `stop` resolves, then stops accepting, asks every
/// connection to finish its current request and close, and returns a handle to wait for them.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    limits: ConnLimits,
    stop: impl Future<Output = ()>,
) -> Connections {
    let app = crate::app(state.clone());
    serve_app(listener, app, state, limits, stop).await
}

/// Serves `/healthz`, `/readyz` and `/metrics` of `state` on `listener` for as long as the
/// process runs (`ARBITER_PROBE_ADDR`): its connections are not counted in the client
/// connections' cap, so a replica whose clients fill it still answers its liveness probe,
/// and its readiness follows the shutdown sequence as on the main listener.
pub async fn serve_probes(listener: TcpListener, state: AppState) {
    use crate::handlers::health;
    let app = axum::Router::new()
        .route("/healthz", axum::routing::get(health::healthz))
        .route("/readyz", axum::routing::get(health::readyz))
        .route("/metrics", axum::routing::get(health::metrics))
        .fallback(|| async { crate::error::HttpError(arbiter_contract::error::AppError::NotFound) })
        .with_state(state.clone());
    serve_app(listener, app, state, ConnLimits::for_probes(), std::future::pending()).await;
}

async fn serve_app(
    listener: TcpListener,
    app: axum::Router,
    state: AppState,
    limits: ConnLimits,
    stop: impl Future<Output = ()>,
) -> Connections {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    // Refusals are bounded too: past this many at once a new connection is closed unanswered.
    let refusals = Arc::new(Semaphore::new(REFUSALS));
    let (closing_tx, closing) = watch::channel(false);
    let service = TowerToHyperService::new(app);
    // One builder for every connection: the same settings, no per-connection set-up.
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(limits.header_read_timeout);
    tokio::pin!(stop);
    loop {
        let (stream, _peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors or a connection reset before accept: back off
                    // briefly instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            state.metrics.refused();
            if let Ok(refusal) = refusals.clone().try_acquire_owned() {
                let draining = state.draining.load(Ordering::Relaxed);
                tokio::spawn(async move {
                    refuse(stream, draining).await;
                    drop(refusal);
                });
            }
            continue;
        };
        let service = service.clone();
        let http = http.clone();
        let mut closing = closing.clone();
        tokio::spawn(async move {
            let last = Arc::new(AtomicU64::new(0));
            let start = Instant::now();
            let io = TokioIo::new(Watched { inner: stream, last: last.clone(), start });
            let conn = http.serve_connection(io, service);
            tokio::pin!(conn);
            let mut asked_to_close = false;
            loop {
                tokio::select! {
                    _ = conn.as_mut() => break,
                    _ = closing.wait_for(|c| *c), if !asked_to_close => {
                        conn.as_mut().graceful_shutdown();
                        asked_to_close = true;
                    }
                    () = inactive(&last, start, limits.idle_timeout) => {
                        tracing::debug!("closing an inactive connection");
                        break;
                    }
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    let _ = closing_tx.send(true);
    Connections { slots, max: limits.max_connections, _closing: closing_tx }
}

/// The connections still open after the listener closed.
#[derive(Debug)]
pub struct Connections {
    slots: Arc<Semaphore>,
    max: usize,
    _closing: watch::Sender<bool>,
}

impl Connections {
    /// Connections still open.
    pub fn open(&self) -> usize {
        self.max - self.slots.available_permits()
    }

    /// Waits until every connection has closed.
    pub async fn closed(&self) {
        let n = u32::try_from(self.max).unwrap_or(u32::MAX);
        let _ = self.slots.acquire_many(n).await;
    }
}

/// Connections being refused at once, at most.
const REFUSALS: usize = 64;

/// At the connection cap: a 503 problem and close. The request head is read first (briefly,
/// bounded), and the rest for a moment after the answer, so that closing does not reset the
/// connection before the client reads the answer,
/// and so that the probes get their own answers: `/healthz` 200 (the process is alive), and
/// `/readyz` 503 (at capacity: send no more).
async fn refuse(mut stream: TcpStream, draining: bool) {
    const FULL: &str = r#"{"type":"urn:arbiter:problem:overloaded","title":"The service is at capacity","status":503,"detail":"too many open connections; retry shortly"}"#;
    let mut head = [0u8; 4096];
    let mut seen = 0;
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        while seen < head.len() {
            match stream.read(&mut head[seen..]).await {
                Ok(0) | Err(_) => break,
                Ok(n) => seen += n,
            }
            if head[..seen].windows(4).any(|w| w == b"\r\n\r\n") {
                break;
            }
        }
    })
    .await;
    let line = head[..seen].split(|b| *b == b'\r').next().unwrap_or(&[]);
    let (status, kind, body) = if line.starts_with(b"GET /healthz ") && !draining {
        ("200 OK", "application/json", r#"{"status":"ok"}"#)
    } else if line.starts_with(b"GET /healthz ") {
        ("200 OK", "application/json", r#"{"status":"draining"}"#)
    } else {
        ("503 Service Unavailable", "application/problem+json", FULL)
    };
    let answer = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
        // A lingering close: what the client still sends (a body) is read and dropped for a
        // moment, as closing with unread bytes would reset the connection and lose the answer.
        let mut drained = 0;
        while drained < LINGER_BYTES {
            match stream.read(&mut head).await {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    })
    .await;
}

/// Bytes a refused connection may still send after its answer (one largest default body).
const LINGER_BYTES: usize = 1 << 20;

/// Resolves once nothing was read or written for `idle`.
async fn inactive(last: &AtomicU64, start: Instant, idle: Duration) {
    loop {
        let seen = Duration::from_millis(last.load(Ordering::Relaxed));
        let quiet_until = start + seen + idle;
        if Instant::now() >= quiet_until {
            return;
        }
        tokio::time::sleep_until(quiet_until.into()).await;
    }
}

/// A stream that records when it last moved a byte (milliseconds since `start`).
struct Watched {
    inner: TcpStream,
    last: Arc<AtomicU64>,
    start: Instant,
}

impl Watched {
    fn touch(&self) {
        let ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(ms, Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let res = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(res, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        res
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let res = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(res, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        res
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let res = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(res, Poll::Ready(Ok(n)) if n > 0) {
            self.touch();
        }
        res
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Raises the soft file-descriptor limit to the hard one, so that the connection cap, not
/// the limit, decides; returns the soft limit in force.
pub fn raise_fd_limit() -> Option<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if let (Some(soft), Some(hard)) = (limit.current, limit.maximum)
        && soft < hard
    {
        limit.current = Some(hard);
        if setrlimit(Resource::Nofile, limit).is_ok() {
            return Some(hard);
        }
    }
    getrlimit(Resource::Nofile).current
}

/// The shutdown sequence after the signal: `/readyz` answers 503 for the unready period
/// while requests are still served, then the listener closes (`stop_accepting`), in-flight
/// requests drain for the grace period, and what still runs is cancelled.
#[derive(Debug, Clone, Copy)]
pub struct Shutdown {
    /// Unready period.
    pub unready: Duration,
    /// Drain deadline after the listener closed.
    pub grace: Duration,
}

impl Shutdown {
    /// From the configuration.
    pub fn from_config(c: &Config) -> Shutdown {
        Shutdown {
            unready: Duration::from_secs(c.unready_secs),
            grace: Duration::from_secs(c.shutdown_grace_secs),
        }
    }

    /// Marks the state unready and waits out the unready period.
    pub async fn begin(&self, state: &AppState) {
        state.draining.store(true, Ordering::Relaxed);
        tracing::info!(unready_secs = self.unready.as_secs(), "shutting down: readiness now 503");
        tokio::time::sleep(self.unready).await;
    }

    /// Drains `connections` for the grace period, then cancels the work still running and
    /// gives the cancelled answers a moment to go out. Returns whether the drain finished.
    pub async fn drain(&self, state: &AppState, connections: &Connections) -> bool {
        tracing::info!(
            grace_secs = self.grace.as_secs(),
            open = connections.open(),
            "listener closed; draining"
        );
        if tokio::time::timeout(self.grace, connections.closed()).await.is_ok() {
            return true;
        }
        tracing::warn!(
            open = connections.open(),
            "drain deadline reached; cancelling the work still running"
        );
        let _ = state.cancel_all.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(1), connections.closed()).await;
        false
    }
}
