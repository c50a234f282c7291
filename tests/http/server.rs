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
