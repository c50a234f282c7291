//! Request bodies sent with a `Content-Encoding`: decoded as they are read, so that the body
//! limits bound the decoded size.
//!
//! Not tower-http's `RequestDecompressionLayer`: it compares the coding byte for byte (`GZIP`
//! and `x-gzip` were 415, where RFC 9110 §8.4.1 makes codings case-insensitive and `x-gzip`
//! gzip) and decodes only the first member of a gzip body (RFC 1952 §2.2 allows several,
//! as `cat a.gz b.gz` makes).

use async_compression::tokio::bufread::{BrotliDecoder, GzipDecoder, ZlibDecoder};
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use tokio_util::io::{ReaderStream, StreamReader};

/// The codings a body may be sent in, as the 415 lists them (`Accept-Encoding`, RFC 9110
/// §12.5.3).
pub const ACCEPTED: &str = "gzip, deflate, br";

/// A content coding this server decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coding {
    Identity,
    Gzip,
    /// HTTP's `deflate` is the zlib format (RFC 9110 §8.4.1.2).
    Deflate,
    Brotli,
}

impl Coding {
    /// Reads one coding name, whatever its case; `None` for any other (a list of several
    /// codings included).
    fn parse(value: &HeaderValue) -> Option<Coding> {
        let name = value.to_str().ok()?.trim();
        let is = |s: &str| name.eq_ignore_ascii_case(s);
        if is("gzip") || is("x-gzip") {
            Some(Coding::Gzip)
        } else if is("deflate") {
            Some(Coding::Deflate)
        } else if is("br") {
            Some(Coding::Brotli)
        } else if is("identity") {
            Some(Coding::Identity)
        } else {
            None
        }
    }
}

/// The request with its body decoded while it is read, or a bare 415 naming the accepted
/// codings (made a problem document by the edge layer).
pub fn decoded(req: Request) -> Result<Request, Box<Response>> {
    let Some(value) = req.headers().get(header::CONTENT_ENCODING) else { return Ok(req) };
    let Some(coding) = Coding::parse(value) else {
        let refused = (StatusCode::UNSUPPORTED_MEDIA_TYPE, [(header::ACCEPT_ENCODING, ACCEPTED)]);
        return Err(Box::new(refused.into_response()));
    };
    let (mut parts, body) = req.into_parts();
    parts.headers.remove(header::CONTENT_ENCODING);
    if coding != Coding::Identity {
        // The encoded length is not the length of what is read now.
        parts.headers.remove(header::CONTENT_LENGTH);
    }
    let body = match coding {
        Coding::Identity => body,
        Coding::Gzip => {
            let mut gzip = GzipDecoder::new(reader(body));
            gzip.multiple_members(true);
            Body::from_stream(ReaderStream::new(gzip))
        }
        Coding::Deflate => Body::from_stream(ReaderStream::new(ZlibDecoder::new(reader(body)))),
        Coding::Brotli => Body::from_stream(ReaderStream::new(BrotliDecoder::new(reader(body)))),
    };
    Ok(Request::from_parts(parts, body))
}

/// The body as bytes read by a decoder; its errors (a connection broken) are the decoder's.
fn reader(body: Body) -> impl tokio::io::AsyncBufRead {
    StreamReader::new(body.map_err(std::io::Error::other).into_data_stream())
}
