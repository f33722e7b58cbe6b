//! `devserver --api HOST:PORT`: `/api/*` forwarded to an API that is already running, as
//! Netlify's `/api/*` proxy does in production. One pooled HTTP client keeps its connections
//! to the API open between requests; bodies stream through both ways; the status, headers and
//! every `Set-Cookie` come back as the API sent them, and redirects go back to the browser.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE, HeaderName, TRANSFER_ENCODING};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;

struct Upstream {
    client: reqwest::Client,
    /// `http://host:port`, without a trailing slash.
    origin: String,
}

/// Routes `/api/*` to the API at `addr` (`host:port`, optionally with `http://`).
pub fn router(addr: &str) -> Router {
    let client = reqwest::Client::builder()
        // The browser follows the API's redirects itself (e.g. after a payment).
        .redirect(reqwest::redirect::Policy::none())
        // The API is on this machine: a proxy from the environment must not come between.
        .no_proxy()
        .build()
        .expect("an HTTP client with no TLS settings always builds");
    let upstream = Arc::new(Upstream {
        client,
        origin: format!("http://{}", addr.trim_start_matches("http://"))
            .trim_end_matches('/')
            .to_string(),
    });
    Router::new()
        .route("/api/", any(forward))
        .route("/api/{*rest}", any(forward))
        .with_state(upstream)
}

/// Headers that describe one connection, not the message: never passed on (RFC 9110 §7.6.1).
fn is_hop_by_hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection"
            | "keep-alive"
            | "proxy-authenticate"
            | "proxy-authorization"
            | "proxy-connection"
            | "te"
            | "trailer"
            | "transfer-encoding"
            | "upgrade"
    )
}

fn end_to_end(headers: &HeaderMap) -> HeaderMap {
    let mut out = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers.iter().filter(|(n, _)| !is_hop_by_hop(n)) {
        out.append(name.clone(), value.clone());
    }
    out
}

async fn forward(State(upstream): State<Arc<Upstream>>, req: Request) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let (parts, body) = req.into_parts();
    let path = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/");
    let mut headers = end_to_end(&parts.headers);
    // The Host stays the browser's (the API checks Origin against it); the client's address
    // is appended as a proxy does.
    if let Some(ip) = peer
        && let Ok(value) = HeaderValue::from_str(&ip.to_string())
    {
        headers.append("x-forwarded-for", value);
    }
    let has_body =
        parts.headers.contains_key(CONTENT_LENGTH) || parts.headers.contains_key(TRANSFER_ENCODING);
    let mut request = upstream
        .client
        .request(parts.method, format!("{}{path}", upstream.origin))
        .headers(headers);
    if has_body {
        request = request.body(reqwest::Body::wrap_stream(body.into_data_stream()));
    }
    match request.send().await {
        Ok(answer) => {
            let (status, headers) = (answer.status(), end_to_end(answer.headers()));
            let mut response = Response::new(Body::from_stream(answer.bytes_stream()));
            *response.status_mut() = status;
            *response.headers_mut() = headers;
            response
        }
        Err(_) => (
            StatusCode::BAD_GATEWAY,
            [(CONTENT_TYPE, "application/json")],
            r#"{"error":{"code":"bad_gateway","message":"The API is not running"}}"#,
        )
            .into_response(),
    }
}
