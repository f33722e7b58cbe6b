//! Calendly's webhook: verified on the raw bytes, applied once (see `scheduling::webhook`).

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;

use super::common::Status;
use crate::bookings::create::NO_PROOF;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::operations::webhooks::{Delivery, Provider, Reason};
use crate::scheduling::calendly;
use crate::scheduling::webhook::{self, Outcome};
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
    let delivery = Delivery::start(&state, Provider::Calendly);
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
        delivery
            .refused(refusal_reason(&e, config.signing_keys.is_empty()))
            .await;
        return Err(AppError::Unauthorized("Invalid webhook signature".into()));
    }
    let Ok(json) = serde_json::from_slice::<serde_json::Value>(&body) else {
        delivery.refused(Reason::NotJson).await;
        return Err(AppError::BadRequest("The body is not JSON".into()));
    };
    let outcome = webhook::apply(&state, &json).await?;
    let event = json["event"].as_str().unwrap_or("");
    tracing::info!(?outcome, event, "Calendly webhook applied");
    match outcome {
        Outcome::Ignored("not a booking event") => {
            delivery.ignored(Reason::UnknownEvent, event).await
        }
        Outcome::Ignored(_) => delivery.ignored(Reason::UnexpectedShape, event).await,
        Outcome::Pending(NO_PROOF) => delivery.ignored(Reason::UnknownClient, event).await,
        Outcome::Pending(_) => delivery.ignored(Reason::NoCredit, event).await,
        applied => delivery.applied(applied.label()).await,
    }
    Ok(Json(Status { status: "ok" }))
}

/// Why a signature was refused, as the status page names it.
fn refusal_reason(e: &calendly::SignatureError, no_keys: bool) -> Reason {
    match e {
        _ if no_keys => Reason::NotConfigured,
        calendly::SignatureError::Stale => Reason::StaleSignature,
        _ => Reason::BadSignature,
    }
}
