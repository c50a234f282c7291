//! `GET /playground`: served from the binary, with a Content-Security-Policy that allows this
//! server only, and nothing in it that would need another host (the offline guarantee). The
//! page itself is tried in a real browser by `scripts/browser-test.sh`.

use axum::body::Body;
use axum::http::{Request, header};

use super::support::*;

/// Every `src="..."` and `href="..."` of an HTML text.
fn links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["src=\"", "href=\""] {
        for (at, _) in html.match_indices(attr) {
            let rest = &html[at + attr.len()..];
            out.push(rest[..rest.find('"').unwrap()].to_owned());
        }
    }
    out
}

/// `link` as the browser resolves it from `/playground` (a relative URL replaces the last
/// path segment).
fn resolve(link: &str) -> String {
    assert!(!link.starts_with('/') && !link.contains(':'), "{link}: not a relative URL");
    format!("/{link}")
}

#[tokio::test]
async fn playground_is_html_with_a_strict_csp_and_a_validator() {
    let res = get(test_app(), "/playground").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.content_type(), "text/html; charset=utf-8");
    let csp = res.headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    for directive in ["default-src 'self'", "script-src 'self'", "connect-src 'self'", "object-src 'none'"] {
        assert!(csp.split(';').any(|d| d.trim() == directive), "CSP {csp} lacks {directive}");
    }
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{csp}");
    assert_eq!(res.headers[header::CACHE_CONTROL], "no-cache");
    assert_eq!(res.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    let etag = res.headers[header::ETAG].to_str().unwrap().to_owned();
    assert!(etag.starts_with('"') && etag.ends_with('"') && etag.len() > 2, "{etag}");
    let html = String::from_utf8(res.body).unwrap();
    assert!(html.contains("<title>Arbiter playground</title>"));

    // The browser's copy is current: 304, no body; any other tag: the page again.
    let again = Request::get("/playground").header(header::IF_NONE_MATCH, &etag).body(Body::empty()).unwrap();
    let again = send(test_app(), again).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.headers[header::ETAG], etag.as_str());
    let other =
        Request::get("/playground").header(header::IF_NONE_MATCH, "\"0\"").body(Body::empty()).unwrap();
    assert_eq!(send(test_app(), other).await.status, 200);
}

#[tokio::test]
async fn every_asset_the_page_references_is_served_by_the_binary() {
    let html = String::from_utf8(get(test_app(), "/playground").await.body).unwrap();
    let links = links(&html);
    for wanted in ["playground/playground.js", "playground/playground.css", "playground/icon.svg", "docs/"] {
        assert!(links.iter().any(|l| l == wanted), "the page does not link {wanted}: {links:?}");
    }
    for link in &links {
        let res = get(test_app(), &resolve(link)).await;
        assert_eq!(res.status, 200, "{link}");
        assert!(!res.body.is_empty(), "{link}");
        let expected = match link.rsplit('.').next().unwrap() {
            "js" => "text/javascript; charset=utf-8",
            "css" => "text/css; charset=utf-8",
            "svg" => "image/svg+xml",
            _ => "text/html",
        };
        assert!(res.content_type().starts_with(expected), "{link}: {}", res.content_type());
    }
    // `/playground/` would resolve those relative links one level too deep.
    let slash = get(test_app(), "/playground/").await;
    assert_eq!(slash.status, 308);
    assert_eq!(slash.headers[header::LOCATION], "../playground");
}

#[tokio::test]
async fn no_asset_needs_another_host_or_an_inline_script() {
    let html = String::from_utf8(get(test_app(), "/playground").await.body).unwrap();
    let mut texts = vec![("/playground".to_owned(), html.clone())];
    for link in links(&html).iter().filter(|l| l.starts_with("playground/")) {
        let path = resolve(link);
        texts.push((path.clone(), String::from_utf8(get(test_app(), &path).await.body).unwrap()));
    }
    assert_eq!(texts.len(), 4, "the page and its script, style and icon");
    for (path, text) in &texts {
        // The SVG namespace is a name, never fetched; any other absolute URL would be.
        let outside = text.replace("http://www.w3.org/2000/svg", "");
        for scheme in ["http://", "https://", "//cdn", "@import"] {
            assert!(!outside.contains(scheme), "{path} references {scheme}");
        }
    }
    // Scripts only from files (the CSP would refuse an inline one), styles only from the sheet.
    assert_eq!(html.matches("<script").count(), 1);
    assert!(html.contains("<script src=\"playground/playground.js\" defer></script>"));
    assert!(!html.contains("<style") && !html.contains(" style="), "inline style");
    let handler = html.match_indices(" on").any(|(at, _)| {
        let rest = &html[at + 3..];
        let name = rest.bytes().take_while(u8::is_ascii_lowercase).count();
        name > 0 && rest[name..].starts_with("=\"")
    });
    assert!(!handler, "an inline event handler (the CSP would refuse it)");
    let total: usize = texts.iter().map(|(_, t)| t.len()).sum();
    assert!(total < 60 * 1024, "the playground is {total} bytes, more than 60 KiB");
}

#[tokio::test]
async fn openapi_documents_the_playground_and_links_it_from_docs() {
    let doc = get(test_app(), "/openapi.json").await.json();
    let op = &doc["paths"]["/playground"]["get"];
    assert!(op["responses"]["200"]["content"]["text/html"].is_object(), "{op}");
    let description = doc["info"]["description"].as_str().unwrap();
    assert!(description.contains("[the playground](../playground)"), "{description}");
}
