//! One real server on an ephemeral port, spoken to over TCP.

use std::io::{Read, Write};
use std::net::TcpStream;

use arbiter::config::Config;
use arbiter::{AppState, app};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_server_on_port_zero() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server =
        tokio::spawn(async move { axum::serve(listener, app(AppState::new(Config::for_tests()))).await });
    let body = serde_json::to_string(&super::support::range_request()).unwrap();
    let response = tokio::task::spawn_blocking(move || {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(
            s,
            "POST /v1/range HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    })
    .await
    .unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"distance_ft\":40"), "{response}");
    server.abort();
}

mod connections {
    //! The listener of `arbiter::serve`: header timeout, connection cap, shutdown sequence.
    use std::io::{Read, Write};
    use std::net::{SocketAddr, TcpStream};
    use std::time::Duration;

    use arbiter::AppState;
    use arbiter::config::Config;
    use arbiter::serve::{ConnLimits, Connections, Shutdown, serve};
    use tokio::sync::oneshot;

    /// A server on port 0 that stops accepting when the sender fires.
    async fn start(
        state: AppState,
        limits: ConnLimits,
    ) -> (SocketAddr, oneshot::Sender<()>, tokio::task::JoinHandle<Connections>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        let server = tokio::spawn(serve(listener, state, limits, async move {
            let _ = rx.await;
        }));
        (addr, tx, server)
    }

    fn limits(max_connections: usize, header_secs: u64) -> ConnLimits {
        ConnLimits {
            max_connections,
            header_read_timeout: Duration::from_secs(header_secs),
            idle_timeout: Duration::from_secs(30),
        }
    }

    /// Reads until the peer closes (or 10 s pass: a failure guard, not a measurement).
    fn read_all(mut s: TcpStream) -> String {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        read_all(s)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_connection_trickling_its_headers_is_closed() {
        let (addr, _stop, _server) = start(AppState::new(Config::for_tests()), limits(16, 1)).await;
        let closed = tokio::task::spawn_blocking(move || {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(b"GET /healthz HTTP/1.1\r\nHo").unwrap();
            // Never finish the headers: the server closes the connection on its own.
            read_all(s)
        })
        .await
        .unwrap();
        assert!(!closed.contains("200 OK"), "{closed}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn beyond_the_connection_cap_a_new_connection_gets_503() {
        let (addr, _stop, _server) = start(AppState::new(Config::for_tests()), limits(1, 10)).await;
        let answer = tokio::task::spawn_blocking(move || {
            let _first = TcpStream::connect(addr).unwrap();
            std::thread::sleep(Duration::from_millis(200));
            let answers = [get(addr, "/readyz"), get(addr, "/healthz")];
            drop(_first);
            answers
        })
        .await
        .unwrap();
        let [ready, healthy] = answer;
        assert!(ready.starts_with("HTTP/1.1 503"), "{ready}");
        assert!(ready.contains("application/problem+json") && ready.contains("retry-after: 1"), "{ready}");
        // The process is alive: liveness must not fail because the connections are full.
        assert!(healthy.starts_with("HTTP/1.1 200"), "{healthy}");
    }

    /// The probes' listener (`ARBITER_PROBE_ADDR`) is outside the clients' connection cap:
    /// with the one client connection taken, it answers liveness 200, readiness and metrics,
    /// serves nothing else, and turns unready when shutdown begins.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_probe_listener_answers_while_client_connections_are_full() {
        let state = AppState::new(Config::for_tests());
        let (addr, _stop, _server) = start(state.clone(), limits(1, 10)).await;
        let probes = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let probe = probes.local_addr().unwrap();
        let _probes = tokio::spawn(arbiter::serve::serve_probes(probes, state.clone()));
        let first = TcpStream::connect(addr).unwrap();
        let answers = tokio::task::spawn_blocking(move || {
            std::thread::sleep(Duration::from_millis(200));
            let refused = get(addr, "/v1/rules");
            [
                refused,
                get(probe, "/healthz"),
                get(probe, "/readyz"),
                get(probe, "/metrics"),
                get(probe, "/v1/rules"),
            ]
        })
        .await
        .unwrap();
        let [refused, healthy, ready, metrics, other] = answers;
        assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
        assert!(healthy.starts_with("HTTP/1.1 200") && healthy.ends_with(r#"{"status":"ok"}"#), "{healthy}");
        assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
        assert!(
            metrics.starts_with("HTTP/1.1 200") && metrics.contains("\narbiter_rules_workers 2\n"),
            "{metrics}"
        );
        assert!(other.starts_with("HTTP/1.1 404"), "{other}");
        state.draining.store(true, std::sync::atomic::Ordering::Relaxed);
        let ready = tokio::task::spawn_blocking(move || get(probe, "/readyz")).await.unwrap();
        assert!(ready.starts_with("HTTP/1.1 503") && ready.contains("draining"), "{ready}");
        drop(first);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn shutdown_turns_unready_then_drains_then_cancels() {
        let config = Config {
            rules_workers: Some(1),
            rules_queue: Some(2),
            queue_wait_ms: 60_000,
            ..Config::for_tests()
        };
        let state = AppState::new(config);
        let (addr, stop, server) = start(state.clone(), limits(16, 10)).await;
        // A question stuck behind a held worker: only the drain deadline will end it.
        let (release, _held) = crate::http::support::hold_worker(&state).await;
        let body = serde_json::to_string(&crate::http::support::range_request()).unwrap();
        let stuck = tokio::task::spawn_blocking(move || {
            let mut s = TcpStream::connect(addr).unwrap();
            write!(
                s,
                "POST /v1/range HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            read_all(s)
        });
        while state.pool.queued() == 0 {
            tokio::task::yield_now().await;
        }
        let shutdown = Shutdown { unready: Duration::from_millis(500), grace: Duration::from_millis(500) };
        let begun = tokio::spawn({
            let state = state.clone();
            async move { shutdown.begin(&state).await }
        });
        while !state.draining.load(std::sync::atomic::Ordering::Relaxed) {
            tokio::task::yield_now().await;
        }
        // Unready, but still accepting and answering.
        let ready = tokio::task::spawn_blocking(move || get(addr, "/readyz")).await.unwrap();
        assert!(ready.starts_with("HTTP/1.1 503"), "{ready}");
        assert!(ready.contains("draining"), "{ready}");
        begun.await.unwrap();
        stop.send(()).unwrap();
        let connections = server.await.unwrap();
        assert!(TcpStream::connect(addr).is_err(), "the listener is closed");
        // The stuck question outlives the grace period: it is cancelled and answered 503.
        assert!(!shutdown.drain(&state, &connections).await, "the drain should hit its deadline");
        let answer = stuck.await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
        assert!(answer.contains("shutting-down"), "{answer}");
        release.send(()).unwrap();
    }

    /// Sends a whole request, head then body in 64 KiB pieces, then reads the answer: whether
    /// every byte could be sent, and what came back.
    fn send_whole(addr: SocketAddr, head: String, body: Vec<u8>) -> (std::io::Result<()>, String) {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
        // Paced as a network would: the server has answered long before the last piece.
        let sent = s.write_all(head.as_bytes()).and_then(|()| {
            body.chunks(64 * 1024).try_for_each(|c| {
                std::thread::sleep(Duration::from_millis(2));
                s.write_all(c)
            })
        });
        (sent, read_all(s))
    }

    /// A body over the limit is refused at once, and the rest of it read and dropped, so that
    /// a client that sends it whole (Node's `fetch` does) reads the 413 instead of a reset:
    /// declared by Content-Length, chunked, and an import past the import limit.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_refused_body_sent_whole_still_reads_its_answer() {
        let config = Config {
            limits: arbiter::config::Limits { max_import_bytes: 256 * 1024, ..Config::for_tests().limits.0 }
                .into(),
            ..Config::for_tests()
        };
        let (addr, _stop, _server) = start(AppState::new(config), limits(16, 10)).await;
        let over = 1536 * 1024;
        let answers = tokio::task::spawn_blocking(move || {
            let declared = send_whole(
                addr,
                format!(
                    "POST /v1/concealment HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {over}\r\nConnection: close\r\n\r\n"
                ),
                vec![b' '; over],
            );
            let mut chunked = Vec::new();
            for piece in vec![b' '; over].chunks(32 * 1024) {
                chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
                chunked.extend_from_slice(piece);
                chunked.extend_from_slice(b"\r\n");
            }
            chunked.extend_from_slice(b"0\r\n\r\n");
            let streamed = send_whole(
                addr,
                "POST /v1/concealment HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".into(),
                chunked,
            );
            let import = send_whole(
                addr,
                format!(
                    "POST /v1/import/foundry HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {over}\r\nConnection: close\r\n\r\n"
                ),
                [b"{\"scene\":{\"name\":\"".as_slice(), &vec![b'a'; over - 18]].concat(),
            );
            [declared, streamed, import]
        })
        .await
        .unwrap();
        for (case, (sent, answer)) in ["Content-Length", "chunked", "import"].iter().zip(answers) {
            assert!(sent.is_ok(), "{case}: the body could not be sent whole: {sent:?}");
            assert!(answer.starts_with("HTTP/1.1 413"), "{case}: {answer}");
            assert!(answer.contains("body-too-large"), "{case}: {answer}");
        }
    }
}
