//! Problems as HTTP answers: an [`AppError`] (the contract's, which knows no HTTP) rendered as
//! RFC 9457 `application/problem+json` with its status and headers.
//!
//! The answer is rendered in English with the French body beside it in the response's
//! extensions; the outermost middleware, which reads `Accept-Language`, sends the French one
//! when asked (a handler runs on a rules worker thread, far from the request's headers).

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use arbiter_contract::error::AppError;
use arbiter_contract::lang::{Lang, Text};
use arbiter_rules::error::RulesError;

/// What a handler, an extractor or a layer fails with: a contract error, answered over HTTP.
#[derive(Debug)]
pub struct HttpError(pub AppError);

impl From<AppError> for HttpError {
    fn from(e: AppError) -> HttpError {
        HttpError(e)
    }
}

impl From<RulesError> for HttpError {
    fn from(e: RulesError) -> HttpError {
        HttpError(e.into())
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        response(&self.0)
    }
}

/// The French body of a problem answer (rendered in English), for the middleware that knows
/// the request's language.
#[derive(Debug, Clone)]
pub struct FrenchProblem(pub axum::body::Bytes);

/// The problem type of an answer, left in its extensions for the metrics.
#[derive(Debug, Clone, Copy)]
pub struct ProblemKind(pub &'static str);

/// The problem rendered as a response: the English body, the French one in the extensions
/// ([`FrenchProblem`]), `Content-Language: en`.
pub fn response(e: &AppError) -> Response {
    if let AppError::Internal(d) = e {
        tracing::error!(detail = %d, "internal error");
    }
    // Every status the contract names is a valid one; a layer's comes from a `StatusCode`.
    let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = serde_json::to_vec(&e.problem(Lang::En)).unwrap_or_default();
    let french = serde_json::to_vec(&e.problem(Lang::Fr)).unwrap_or_default();
    let mut res = (status, body).into_response();
    res.extensions_mut().insert(ProblemKind(e.kind()));
    res.extensions_mut().insert(FrenchProblem(french.into()));
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
    headers.insert(header::CONTENT_LANGUAGE, HeaderValue::from_static(Lang::En.tag()));
    if matches!(e, AppError::BodyTimeout(_)) {
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    if e.retry_soon() {
        headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    res
}

/// A problem answer in the client's language: the French body replaces the English one when
/// `lang` is French (any other answer is left as it is).
pub fn localise(mut res: Response, lang: Lang) -> Response {
    if lang == Lang::Fr
        && let Some(FrenchProblem(body)) = res.extensions_mut().remove::<FrenchProblem>()
    {
        let (mut parts, _) = res.into_parts();
        parts.headers.insert(header::CONTENT_LANGUAGE, HeaderValue::from_static(Lang::Fr.tag()));
        parts.headers.remove(header::CONTENT_LENGTH);
        res = Response::from_parts(parts, Body::from(body));
    }
    res
}

/// The problem of an error status a layer answered (not a handler), with its detail.
pub fn status_problem(status: StatusCode, detail: Text) -> AppError {
    let (en, fr) = reason(status);
    AppError::Status { code: status.as_u16(), title: Text::new(en, fr), detail }
}

/// The reason phrase of a status a layer answered, in English and French.
pub fn reason(status: StatusCode) -> (&'static str, &'static str) {
    let en = status.canonical_reason().unwrap_or("HTTP error");
    let fr = match status.as_u16() {
        400 => "Requête incorrecte",
        404 => "Ressource introuvable",
        405 => "Méthode non autorisée",
        406 => "Non acceptable",
        408 => "Délai de la requête dépassé",
        411 => "Longueur requise",
        413 => "Corps trop volumineux",
        414 => "URI trop longue",
        415 => "Type de média non pris en charge",
        429 => "Trop de requêtes",
        431 => "En-têtes trop volumineux",
        500 => "Erreur interne",
        501 => "Non implémenté",
        503 => "Service indisponible",
        504 => "Délai de la passerelle dépassé",
        _ => "Erreur HTTP",
    };
    (en, fr)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem answer carries its French body, sent by `localise` only for French.
    #[test]
    fn problems_are_sent_in_the_language_asked() {
        let body = |res: Response| {
            let lang = res.headers()[header::CONTENT_LANGUAGE].to_str().unwrap().to_owned();
            let bytes = body_bytes(res);
            (lang, serde_json::from_slice::<serde_json::Value>(&bytes).unwrap()["title"].clone())
        };
        let (lang, title) = body(localise(response(&AppError::NotFound), Lang::Fr));
        assert_eq!((lang.as_str(), title.as_str()), ("fr", Some("Ressource introuvable")));
        let (lang, title) = body(localise(response(&AppError::NotFound), Lang::En));
        assert_eq!((lang.as_str(), title.as_str()), ("en", Some("No such resource")));
    }

    fn body_bytes(res: Response) -> Vec<u8> {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(async { axum::body::to_bytes(res.into_body(), usize::MAX).await.unwrap().to_vec() })
    }
}
