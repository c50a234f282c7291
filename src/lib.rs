//! Arbiter: a stateless HTTP JSON service that settles the geometry-and-modifier questions of
//! d20 tactical combat on a square grid. See `ARCHITECTURE.md` for the codemap.
//!
//! [`app`] builds the whole router (tested in-process); `main.rs` only adds the listener,
//! logging and signal handling.

pub mod cli;
pub mod config;
pub mod doc;
pub mod error;
pub mod extract;
pub mod handlers;
pub mod metrics;
pub mod middleware;
pub mod negotiate;
pub mod pool;
pub mod questions;
pub mod serve;
pub mod state;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::response::IntoResponse;
use axum::{Extension, Router};
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use utoipa_swagger_ui::SwaggerUi;

use arbiter_contract::error::AppError;

use crate::config::Config;
use crate::error::HttpError;
use crate::extract::BodyLimit;
pub use crate::state::AppState;

/// The OpenAPI document's top level; paths and schemas come from the routes.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Arbiter",
        description = "Stateless rules resolution for d20 tactical combat on a square grid: send the whole encounter and one question, get the resolved answer, the exact odds, the dice and a trace citing every rule. Errors are RFC 9457 problem documents with a JSON pointer per offending field.",
        license(name = "MIT OR Apache-2.0")
    ),
    tags(
        (name = "questions", description = "Rules questions about an encounter snapshot"),
        (name = "imports", description = "Maps exported by virtual tabletops, turned into encounters"),
        (name = "catalog", description = "Rulesets and the rule catalog"),
        (name = "operations", description = "Health, readiness and metrics"),
        (name = "playground", description = "A page to try the questions in a browser")
    ),
    components(schemas(
        arbiter_contract::error::Problem,
        arbiter_contract::error::FieldError,
        arbiter_contract::wire::LanguageId
    ))
)]
struct ApiDoc;

fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(handlers::range::range))
        .routes(routes!(handlers::cover::cover))
        .routes(routes!(handlers::flanking::flanking))
        .routes(routes!(handlers::concealment::concealment))
        .routes(routes!(handlers::attack::attack))
        .routes(routes!(handlers::maneuver::maneuvers))
        .routes(routes!(handlers::movement::movement))
        .routes(routes!(handlers::initiative::initiative))
        .routes(routes!(handlers::analyze::analyze))
}

/// The map imports: their bodies are files of megabytes (a picture, a thumbnail), read under
/// `ARBITER_MAX_IMPORT_BYTES` rather than the questions' limit; their handlers keep their
/// work off the async workers themselves.
fn import_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::import_uvtt::import_uvtt))
        .routes(routes!(handlers::import_foundry::import_foundry))
}

fn catalog_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::catalog::rules))
        .routes(routes!(handlers::catalog::rulesets))
        .routes(routes!(handlers::health::healthz))
        .routes(routes!(handlers::health::readyz))
        .routes(routes!(handlers::health::metrics))
        .routes(routes!(handlers::playground::playground))
}

/// The OpenAPI document, generated from the types and finished by [`doc::finish`]
/// (committed as `openapi/openapi.json`).
pub fn openapi() -> serde_json::Value {
    let (_, api) = routes().merge(import_routes()).merge(catalog_routes()).split_for_parts();
    finished(api)
}

/// The finished document served at `/openapi.json`: the same for every app of the process (it
/// states the default limits, not the configured ones), so it is finished once; tests build
/// hundreds of apps.
fn document(api: utoipa::openapi::OpenApi) -> serde_json::Value {
    static DOCUMENT: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    DOCUMENT.get_or_init(|| finished(api)).clone()
}

fn finished(api: utoipa::openapi::OpenApi) -> serde_json::Value {
    // A document of derived types always serialises; `Null` would only show an empty page.
    let mut doc = serde_json::to_value(api).unwrap_or_default();
    doc::finish(&mut doc);
    doc
}

/// The whole service.
pub fn app(state: AppState) -> Router {
    let config = state.config.clone();
    let (questions, api) = routes().split_for_parts();
    let (catalog, catalog_api) = catalog_routes().split_for_parts();
    let (imports, imports_api) = import_routes().split_for_parts();
    let mut api = api;
    api.merge(imports_api);
    api.merge(catalog_api);

    // Outermost first: buffer the body (decoded by `middleware::edge`), then run the handler on
    // the pool. One composed layer, not one `Router::layer` per middleware: each of those boxes
    // every route once more, and every request clones the whole chain of boxes.
    let questions = questions.layer(
        ServiceBuilder::new()
            .layer(axum::middleware::from_fn_with_state(state.clone(), questions::questions))
            .layer(Extension(BodyLimit(config.limits.max_body_bytes)))
            .layer(DefaultBodyLimit::max(config.limits.max_body_bytes)),
    );

    let imports = imports.layer(
        ServiceBuilder::new()
            // Both imports read up to ARBITER_MAX_IMPORT_BYTES themselves; the gate bounds how
            // many bodies of that size are read at once.
            .layer(Extension(handlers::import_body::ImportGate::new(config.workers()))),
    );

    let request_id = HeaderName::from_static("x-request-id");
    Router::new()
        .merge(questions)
        .merge(imports)
        .merge(catalog)
        .merge(handlers::playground::assets())
        .merge(docs(document(api)))
        .fallback(|| async { HttpError(AppError::NotFound) })
        .method_not_allowed_fallback(|| async { HttpError(AppError::MethodNotAllowed) })
        // Outermost first, composed into one layer (see above).
        .layer(
            ServiceBuilder::new()
                .layer(SetRequestIdLayer::new(request_id.clone(), MakeRequestUuid))
                .layer(PropagateRequestIdLayer::new(request_id))
                .layer(
                    TraceLayer::new_for_http()
                        .make_span_with(|req: &Request| {
                            let id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
                            tracing::info_span!("request", method = %req.method(), uri = %req.uri(), request_id = %id)
                        })
                        // Not one ERROR line per shed request under overload: 500s are logged
                        // where they are made (`AppError::response`), 503s are counted in the
                        // metrics.
                        .on_failure(()),
                )
                .layer(CatchPanicLayer::custom(|_| HttpError(AppError::Internal("a handler panicked".into())).into_response()))
                .layer(cors(&config))
                .layer(CompressionLayer::new().compress_when(SizeAbove::new(1024).and(NotForContentType::GRPC)))
                .layer(axum::middleware::from_fn_with_state(state.clone(), middleware::edge)),
        )
        .with_state(state)
}

/// Swagger UI's policy: its files only (the vendored page loads its scripts from files, none
/// inline, and needs no `eval`); inline styles, which its React components set; the SVG and PNG
/// icons of its sheet as `data:`, answers shown as `blob:` images; requests to this server only.
pub const DOCS_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// `/docs/` (Swagger UI, vendored) and the OpenAPI document it reads, with [`DOCS_CSP`]. Its
/// validator badge is off: it would load an image from validator.swagger.io.
fn docs(api: serde_json::Value) -> Router<AppState> {
    let ui = SwaggerUi::new("/docs")
        .external_url_unchecked("/openapi.json", api)
        .config(utoipa_swagger_ui::Config::default().validator_url("none"));
    Router::from(ui).layer(axum::middleware::map_response(|mut res: axum::response::Response| async {
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(DOCS_CSP));
        res
    }))
}

fn cors(config: &Config) -> CorsLayer {
    let origins: Vec<HeaderValue> =
        config.cors_origins.iter().filter_map(|o| HeaderValue::from_str(o.trim()).ok()).collect();
    let allow = if config.cors_origins.iter().any(|o| o.trim() == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins)
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::ACCEPT_LANGUAGE,
            HeaderName::from_static("x-request-id"),
        ])
        .expose_headers([
            HeaderName::from_static("x-request-id"),
            HeaderName::from_static("x-arbiter-instance"),
        ])
}
