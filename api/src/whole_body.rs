//! Every request body is read before the request is handled.
//!
//! An answer given before the body was read (a 401 from the session check, the Origin check's
//! 403, a route that ignores its body) left the unread bytes on the connection. hyper then
//! closes a kept-alive connection after the answer without sending `Connection: close`, so the
//! next request a proxy (Netlify's keeps connections to the API alive) had already sent on it
//! got no answer at all: a failed sign-in, payment or booking for a real person. Reading the
//! body first, within the size limit every route has, leaves the connection clean whatever the
//! handler does; a body over the limit gets 413 with `Connection: close`, so nothing more is
//! read from that connection.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// The most any route reads: axum's default body limit, which the JSON and raw-bytes
/// extractors apply too.
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

pub async fn read_whole_body(req: Request, next: Next) -> Response {
    let has_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0");
    if !has_body {
        return next.run(req).await;
    }
    // The coach's editor uploads images (10 MB, base64): its one route reads more.
    let limit = if req.uri().path() == crate::content_editor::PATH {
        crate::content_editor::BODY_LIMIT
    } else {
        BODY_LIMIT
    };
    let (parts, body) = req.into_parts();
    match to_bytes(body, limit).await {
        Ok(bytes) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err(e) => {
            let too_large = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            let error = if too_large {
                AppError::PayloadTooLarge
            } else {
                AppError::BadRequest("The request body could not be read".into())
            };
            let mut response = error.into_response();
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}
