//! Paymob's two notifications of a payment (docs: `providers::paymob`): the processed
//! callback, server to server, and the browser's redirect. Both are HMAC-signed over the same
//! transaction fields and both settle through the one `settle`, so an order is credited once
//! whichever arrives first, a replay changes nothing, and a forged or altered one changes
//! nothing at all. Paymob does not sign our order id (`merchant_order_id`), only its own
//! (`order.id`), which the order recorded when the intention was made: `settle` believes a
//! result only for the order it belongs to.

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Redirect;

use crate::domain::{Language, PaymentStatus};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::operations::webhooks::{Delivery, Provider, Reason};
use crate::payments::result::PaymentResult;
use crate::payments::{refunds, settle};
use crate::providers::paymob;
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(callback))
        .routes(routes!(browser_return))
}

/// The query's decoded pairs, in order (a repeated field stays repeated, for the HMAC check).
fn query_pairs(raw: Option<&str>) -> Vec<(String, String)> {
    // `Url`'s query parser is the WHATWG one browsers use.
    reqwest::Url::parse(&format!("http://query.invalid/?{}", raw.unwrap_or("")))
        .map(|url| {
            url.query_pairs()
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// Paymob's processed callback: `{"type": "TRANSACTION", "obj": …}` with `?hmac=` over the
/// transaction's signed fields, read from the raw bytes.
#[utoipa::path(post, path = "/api/payments/paymob/callback", tag = "payments",
    params(("hmac" = String, Query, description = "Lowercase hex HMAC-SHA512 of the transaction's signed fields")),
    request_body(content = String, content_type = "application/json", description = "Paymob's processed callback"),
    responses((status = 200, description = "Applied, already applied, or about an order that is not ours (logged)"),
              (status = 400, body = ErrorBody, description = "Missing or invalid HMAC, or not a transaction: nothing changes"),
              (status = 404, body = ErrorBody, description = "Paymob is not configured")))]
pub async fn callback(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    body: Bytes,
) -> AppResult<StatusCode> {
    let delivery = Delivery::start(&state, Provider::Paymob);
    let Some(gateway) = &state.paymob else {
        delivery.refused(Reason::NotConfigured).await;
        return Err(AppError::NotFound("Payments are not configured".into()));
    };
    let fields = query_pairs(query.as_deref());
    let mut hmacs = fields.iter().filter(|(k, _)| k == "hmac");
    let hmac = match (hmacs.next(), hmacs.next()) {
        (Some((_, h)), None) => h.as_str(),
        _ => "",
    };
    let Some(tx) = paymob::verify_callback(gateway.config.hmac_secret.expose(), &body, hmac) else {
        tracing::warn!("Paymob callback with a missing or invalid HMAC refused");
        delivery.refused(Reason::BadSignature).await;
        return Err(AppError::BadRequest("Invalid signature".into()));
    };
    if tx.is_refund || tx.is_void {
        if !refunds::settle_paymob_notification(&state, &tx).await? {
            tracing::warn!(
                transaction = tx.id,
                "Paymob refund notification for an unknown refund"
            );
            delivery
                .ignored(Reason::UnknownCart, &tx.id.to_string())
                .await;
            return Ok(StatusCode::OK);
        }
        delivery.applied("refund").await;
        return Ok(StatusCode::OK);
    }
    let Ok(payload) = serde_json::from_slice::<serde_json::Value>(&body) else {
        delivery.refused(Reason::NotJson).await;
        return Err(AppError::BadRequest("The body is not JSON".into()));
    };
    let Some(result) = PaymentResult::from_paymob(&gateway.config, &tx) else {
        tracing::warn!(
            transaction = tx.id,
            "Paymob callback without our order reference"
        );
        delivery
            .ignored(Reason::UnknownCart, &tx.id.to_string())
            .await;
        return Ok(StatusCode::OK);
    };
    match settle::apply(&state, &result, &payload["obj"]).await? {
        settle::Outcome::UnknownCart => {
            tracing::warn!(cart_id = %result.cart_id, "Paymob callback for an unknown order");
            delivery.ignored(Reason::UnknownCart, &result.cart_id).await;
        }
        outcome => {
            tracing::info!(cart_id = %result.cart_id, ?outcome, "Paymob callback applied");
            delivery.applied(outcome.label()).await;
        }
    }
    Ok(StatusCode::OK)
}

/// The browser back from Paymob's checkout, the transaction in the signed query. A verified
/// redirect settles as the callback does (whichever comes first); the pages it leads to are
/// in the paying client's language.
#[utoipa::path(get, path = "/api/payments/paymob/return", tag = "payments",
    params(("hmac" = String, Query, description = "Lowercase hex HMAC-SHA512 of the transaction's signed fields")),
    responses((status = 303, description = "To /payment/success?cart_id=… or /payment/failed?cart_id=… (under /ar for an Arabic client)")))]
pub async fn browser_return(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> AppResult<Redirect> {
    let base = &state.config.public_base_url;
    let fields = query_pairs(query.as_deref());
    let cart_id: String = fields
        .iter()
        .find(|(k, _)| k == "merchant_order_id")
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(64)
        .collect();
    let failed = |language: Language| {
        Redirect::to(&language.page(base, &format!("/payment/failed?cart_id={cart_id}")))
    };
    let Some(gateway) = &state.paymob else {
        return Ok(failed(Language::En));
    };
    let verified = paymob::verify_redirect(gateway.config.hmac_secret.expose(), &fields);
    let tx = verified
        .then(|| paymob::redirect_transaction(&fields))
        .flatten();
    let found: Option<(String, String)> = sqlx::query_as(
        "SELECT t.status, u.preferred_language FROM payment_transactions t JOIN users u ON u.id = t.client_id
          WHERE t.cart_id = $1 AND t.provider = 'paymob'",
    )
    .bind(&cart_id)
    .fetch_optional(&state.db.pool)
    .await?;
    let (Some(tx), Some((status, language))) = (tx, found) else {
        tracing::warn!(
            cart_id,
            verified,
            "Paymob return with an invalid HMAC or for an unknown order; nothing changed"
        );
        return Ok(failed(Language::En));
    };
    let language = Language::parse(&language).unwrap_or_default();
    let mut status = PaymentStatus::parse(&status).unwrap_or(PaymentStatus::Failed);
    if status == PaymentStatus::Pending {
        let result = PaymentResult::from_paymob(&gateway.config, &tx).map(|r| PaymentResult {
            // The redirect's own order reference is not signed; the order id it is checked
            // against is (see `settle`).
            cart_id: cart_id.clone(),
            ..r
        });
        if let Some(result) = result {
            let payload = serde_json::json!({"redirect": fields.iter().filter(|(k, _)| k != "hmac").map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect::<serde_json::Map<_, _>>()});
            status = match settle::apply(&state, &result, &payload).await? {
                settle::Outcome::Completed => PaymentStatus::Completed,
                settle::Outcome::Failed => PaymentStatus::Failed,
                _ => PaymentStatus::Pending,
            };
        }
    }
    Ok(if status == PaymentStatus::Failed {
        failed(language)
    } else {
        Redirect::to(&language.page(base, &format!("/payment/success?cart_id={cart_id}")))
    })
}
