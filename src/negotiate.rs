//! `Negotiated`: what the client accepts, read once from the request's headers.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use utoipa::IntoParams;

use arbiter_contract::drawing::DrawQuery;
use arbiter_contract::lang::Lang;

use crate::error::HttpError;

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
        Negotiated { lang: lang(headers), svg: wants_svg(headers) }
    }
}

/// The language of `Accept-Language` ([`Lang::from_accept_language`]).
pub fn lang(headers: &HeaderMap) -> Lang {
    Lang::from_accept_language(headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()))
}

/// The drawing options of the query string (`?scale=`), a 422 at `?scale` when they are wrong.
#[derive(Debug, Clone, Copy)]
pub struct Draw(pub DrawQuery);

impl<S: Send + Sync> FromRequestParts<S> for Draw {
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Draw(DrawQuery::parse(parts.uri.query())?))
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
    #[param(rename = "Accept-Language", value_type = Option<arbiter_contract::wire::LanguageId>)]
    pub accept_language: Option<String>,
}

/// Whether the client asks for an SVG drawing.
pub fn wants_svg(headers: &HeaderMap) -> bool {
    ranges(headers).any(|t| t.eq_ignore_ascii_case("image/svg+xml"))
}

/// Whether `Accept` asks for a drawing and accepts no JSON: where nothing is drawn, such a
/// client is answered 406 rather than with what it did not ask for.
pub fn svg_only(headers: &HeaderMap) -> bool {
    const JSON: [&str; 3] = ["application/json", "application/*", "*/*"];
    wants_svg(headers) && !ranges(headers).any(|t| JSON.iter().any(|j| t.eq_ignore_ascii_case(j)))
}

/// The media ranges `Accept` names, without parameters, leaving out those refused (`q=0`).
fn ranges(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter(|part| !refused(part))
        .filter_map(|part| part.split(';').next().map(str::trim))
}

/// A media range given the quality 0: "not acceptable" (RFC 9110 §12.4.2).
fn refused(range: &str) -> bool {
    range
        .split(';')
        .skip(1)
        .filter_map(|p| p.split_once('='))
        .any(|(k, v)| k.trim().eq_ignore_ascii_case("q") && v.trim().parse::<f32>().is_ok_and(|q| q <= 0.0))
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
        assert!(!wants_svg(&with(header::ACCEPT, "image/svg+xml;q=0, application/json")));
    }

    #[test]
    fn svg_only_when_no_json_is_accepted() {
        assert!(svg_only(&with(header::ACCEPT, "image/svg+xml")));
        assert!(svg_only(&with(header::ACCEPT, "image/svg+xml, application/json;q=0")));
        assert!(svg_only(&with(header::ACCEPT, "image/svg+xml, text/html")));
        for both in [
            "image/svg+xml, application/json;q=0.5",
            "image/svg+xml, */*;q=0.1",
            "Application/*, image/svg+xml",
        ] {
            assert!(!svg_only(&with(header::ACCEPT, both)), "{both}");
        }
        assert!(!svg_only(&with(header::ACCEPT, "application/json")));
        assert!(!svg_only(&HeaderMap::new()));
    }

    #[test]
    fn both_come_from_one_read() {
        let mut h = with(header::ACCEPT_LANGUAGE, "de, fr;q=0.8, en;q=0.5");
        h.insert(header::ACCEPT, HeaderValue::from_static("image/svg+xml"));
        assert_eq!(Negotiated::from_headers(&h), Negotiated { lang: Lang::Fr, svg: true });
        assert_eq!(Negotiated::from_headers(&HeaderMap::new()), Negotiated { lang: Lang::En, svg: false });
    }
}
