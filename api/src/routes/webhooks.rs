//! Calendly's webhook: verified on the raw bytes, applied once (see `scheduling::webhook`).

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;

use super::common::Status;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::scheduling::{calendly, webhook};
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(calendly_webhook))
}

#[utoipa::path(post, path = "/api/webhooks/calendly", tag = "webhooks",
    request_body(content = String, content_type = "application/json", description = "Calendly's webhook; header `Calendly-Webhook-Signature: t=…,v1=…`"),
    responses((status = 200, body = Status, description = "Applied, or a redelivery recognised"),
              (status = 400, body = ErrorBody, description = "Not JSON"),
              (status = 401, body = ErrorBody, description = "Missing, stale or invalid signature: nothing changes")))]
pub async fn calendly_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<Json<Status>> {
    let config = &state.config.calendly;
    let header = headers
        .get("calendly-webhook-signature")
        .and_then(|v| v.to_str().ok());
    if let Err(e) = calendly::verify(
        header,
        &body,
        &config.signing_keys,
        config.tolerance_seconds,
        chrono::Utc::now().timestamp(),
    ) {
        tracing::warn!(reason = ?e, "Calendly webhook refused");
        let stale = e == calendly::SignatureError::Stale;
        state.metrics.webhook(
            "calendly",
            if stale {
                "stale_signature"
            } else {
                "bad_signature"
            },
        );
        return Err(AppError::Unauthorized("Invalid webhook signature".into()));
    }
    let json: serde_json::Value = serde_json::from_slice(&body).map_err(|_| {
        state.metrics.webhook("calendly", "bad_body");
        AppError::BadRequest("The body is not JSON".into())
    })?;
    let outcome = webhook::apply(&state, &json).await;
    state.metrics.webhook(
        "calendly",
        outcome.as_ref().map_or("error", webhook::Outcome::label),
    );
    let outcome = outcome?;
    tracing::info!(
        ?outcome,
        event = json["event"].as_str().unwrap_or(""),
        "Calendly webhook applied"
    );
    Ok(Json(Status { status: "ok" }))
}
