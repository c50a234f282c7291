//! `Negotiated`: what the client accepts, read once from the request's headers.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use utoipa::IntoParams;

use crate::render::Lang;

/// The language of trace texts (`Accept-Language`) and whether the client asked for an SVG
/// drawing (`Accept`). Read from the request's headers in place: no copy of the header map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Negotiated {
    /// The language of trace texts.
    pub lang: Lang,
    /// `Accept` names `image/svg+xml` (questions that draw answer a drawing).
    pub svg: bool,
}

impl Negotiated {
    /// Reads both from headers.
    pub fn from_headers(headers: &HeaderMap) -> Negotiated {
        Negotiated { lang: Lang::from_headers(headers), svg: wants_svg(headers) }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Negotiated {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Negotiated::from_headers(&parts.headers))
    }
}

/// The `Accept-Language` header [`Negotiated`] reads, as a question's documented parameter.
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
pub struct LanguageHeader {
    /// `en` (default) or `fr` for trace texts (any `Accept-Language` value is read: the
    /// supported language with the highest q-value wins, English when none is supported)
    #[param(rename = "Accept-Language", value_type = Option<crate::wire::LanguageId>)]
    pub accept_language: Option<String>,
}

/// Whether the client prefers an SVG drawing.
pub fn wants_svg(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|part| part.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("image/svg+xml")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn with(name: header::HeaderName, v: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(name, HeaderValue::from_static(v));
        h
    }

    #[test]
    fn svg_is_asked_by_media_type_whatever_its_case_and_parameters() {
        assert!(wants_svg(&with(header::ACCEPT, "text/html, Image/SVG+xml;q=0.9")));
        assert!(!wants_svg(&with(header::ACCEPT, "application/json, image/png")));
        assert!(!wants_svg(&HeaderMap::new()));
    }

    #[test]
    fn both_come_from_one_read() {
        let mut h = with(header::ACCEPT_LANGUAGE, "de, fr;q=0.8, en;q=0.5");
        h.insert(header::ACCEPT, HeaderValue::from_static("image/svg+xml"));
        assert_eq!(Negotiated::from_headers(&h), Negotiated { lang: Lang::Fr, svg: true });
        assert_eq!(Negotiated::from_headers(&HeaderMap::new()), Negotiated { lang: Lang::En, svg: false });
    }
}
