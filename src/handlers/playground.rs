//! `GET /playground`: a page where a GM tries the questions in a browser. Its HTML, script and
//! style are hand-written files of `src/playground/`, embedded in the binary: the page needs no
//! network access beyond this server (no framework, no CDN, no build step), and its
//! Content-Security-Policy forbids anything else, inline scripts included.

use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

use crate::state::AppState;

/// One embedded file of the playground.
#[derive(Debug)]
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its media type.
    pub content_type: &'static str,
    /// Its text.
    pub body: &'static str,
    /// Its strong validator: a hash of the text, so a new build's file is a new ETag.
    pub etag: u64,
}

impl Asset {
    const fn new(path: &'static str, content_type: &'static str, body: &'static str) -> Asset {
        Asset { path, content_type, body, etag: fnv1a(body.as_bytes()) }
    }
}

/// The page (first) and every file it loads, which are all it needs.
pub static ASSETS: [Asset; 4] = [
    Asset::new("/playground", "text/html; charset=utf-8", include_str!("../playground/index.html")),
    Asset::new(
        "/playground/playground.js",
        "text/javascript; charset=utf-8",
        include_str!("../playground/playground.js"),
    ),
    Asset::new(
        "/playground/playground.css",
        "text/css; charset=utf-8",
        include_str!("../playground/playground.css"),
    ),
    Asset::new("/playground/icon.svg", "image/svg+xml", include_str!("../playground/icon.svg")),
];

/// Only this server: scripts and styles from its files (no inline script, no `eval`), the
/// questions asked of it, and the drawings it answers shown as `blob:` images (an image runs no
/// script).
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// FNV-1a, 64 bits: a `const` hash, so each ETag is computed at compile time.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

/// The playground, a page to try the questions in a browser.
///
/// Load an encounter (an example, pasted JSON or a map file), drag creatures, pick a question,
/// and see the answer, its trace (en / fr) and its drawing from this server. The page needs
/// no other host.
#[utoipa::path(
    get,
    path = "/playground",
    tag = "playground",
    responses(
        (status = 200, description = "The playground page (its script and style are served beside it, under /playground/)", body = String, content_type = "text/html"),
        (status = 304, description = "Not modified (`If-None-Match` names the current ETag)")
    )
)]
pub async fn playground(headers: HeaderMap) -> Response {
    serve(&ASSETS[0], &headers)
}

/// The page's script and style (the page itself is routed with its OpenAPI path), and
/// `/playground/`, which would resolve the page's relative links wrongly, sent to the page.
pub fn assets() -> Router<AppState> {
    let mut router =
        Router::new().route("/playground/", get(|| async { Redirect::permanent("../playground") }));
    for asset in &ASSETS[1..] {
        router =
            router.route(asset.path, get(move |headers: HeaderMap| async move { serve(asset, &headers) }));
    }
    router
}

/// One asset with its validator; `304` when the client's copy is current. `no-cache`: the
/// browser keeps its copy but asks each time, so a new build is seen at once (the asset URLs
/// carry no version).
fn serve(asset: &'static Asset, headers: &HeaderMap) -> Response {
    let etag = format!("\"{:016x}\"", asset.etag);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let common = [
        (header::ETAG, HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"\""))),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
    ];
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    (common, [(header::CONTENT_TYPE, asset.content_type)], asset.body).into_response()
}
