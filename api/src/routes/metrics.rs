//! `GET /metrics`: every metric in Prometheus' text format (`monitoring`), for the operator's
//! Prometheus, behind `Authorization: Bearer {METRICS_TOKEN}`. Without `METRICS_TOKEN` it
//! answers the 404 of any unknown route, so nothing tells it exists. It is not in the OpenAPI
//! document: no page calls it, and it answers text, not JSON.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use subtle::ConstantTimeEq;

use crate::error::AppError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/metrics", get(scrape))
}

async fn scrape(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(token) = &state.config.metrics_token else {
        return AppError::NotFound("No such API route".into()).into_response();
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    // In constant time: how much of a guess matched must not show in the answer's timing.
    let valid = given.is_some_and(|t| bool::from(t.as_bytes().ct_eq(token.expose().as_bytes())));
    if !valid {
        let mut refused =
            AppError::Unauthorized("A valid metrics token is required".into()).into_response();
        refused
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return refused;
    }
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(&state.db).await,
    )
        .into_response()
}
