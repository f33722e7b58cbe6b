//! Pending transfers (issue 22, item 3): the InstaPay and bank transfer orders waiting for the
//! coach to see the money arrive, with Confirm (the credits, the receipt and its email, once,
//! whoever else confirms at the same moment) and Reject.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{MoneyView, ts};
use crate::email::enqueue_all;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson, AppPath, text_problem};
use crate::payments::transfers::{self, Via};
use crate::state::AppState;

/// A transfer order waiting for its money.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingTransferView {
    order_id: String,
    reference: String,
    client_id: String,
    client_name: String,
    client_email: String,
    amount: MoneyView,
    package_id: String,
    /// In the site's default language.
    package_name: String,
    sessions: i64,
    created_at: String,
    expires_at: String,
}

#[derive(sqlx_macros::FromRow)]
struct PendingRow {
    order_id: String,
    reference: String,
    client_id: String,
    client_name: String,
    client_email: String,
    minor: i64,
    currency: String,
    package_id: String,
    sessions: i64,
    created_at: String,
    expires_at: String,
}

impl PendingTransferView {
    fn new(state: &AppState, r: PendingRow) -> PendingTransferView {
        PendingTransferView {
            amount: MoneyView::new(r.minor, &r.currency),
            package_name: state
                .catalogue
                .package_name(&r.package_id, crate::domain::Language::En)
                .unwrap_or_else(|| r.package_id.clone()),
            order_id: r.order_id,
            reference: r.reference,
            client_id: r.client_id,
            client_name: r.client_name,
            client_email: r.client_email,
            package_id: r.package_id,
            sessions: r.sessions,
            created_at: r.created_at,
            expires_at: r.expires_at,
        }
    }
}

/// The transfers waiting for confirmation, oldest first (the first to lapse on top).
#[utoipa::path(get, path = "/api/admin/transfers", tag = "admin",
    responses((status = 200, body = Vec<PendingTransferView>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn pending_transfers(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<Vec<PendingTransferView>>> {
    let rows: Vec<PendingRow> = sqlx::query_as(
        "SELECT t.cart_id AS order_id, t.transfer_reference AS reference, t.client_id, p.full_name AS client_name,
                p.email AS client_email, t.amount AS minor, t.currency, t.package_id, t.sessions_purchased AS sessions,
                t.created_at, t.expires_at
           FROM payment_transactions t JOIN profiles p ON p.user_id = t.client_id
          WHERE t.provider = 'transfer' AND t.status = 'pending' AND t.expires_at > $1
          ORDER BY t.expires_at LIMIT 200",
    )
    .bind(ts(chrono::Utc::now()))
    .fetch_all(&state.db.pool)
    .await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| PendingTransferView::new(&state, r))
            .collect(),
    ))
}

/// What the admin saw on the statement (optional).
#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmTransfer {
    /// The bank's or InstaPay's reference of the transfer, kept with the order.
    #[schema(max_length = 100)]
    bank_reference: Option<String>,
    /// `instapay` (default) or `bank_transfer`: how the money came, as the receipt names it.
    via: Option<String>,
}

/// Confirms the transfer arrived: the client's credits, the receipt and its email.
#[utoipa::path(post, path = "/api/admin/transfers/{order_id}/confirm", tag = "admin", params(("order_id" = String, Path)),
    request_body = ConfirmTransfer,
    responses((status = 204, description = "Confirmed: credited, receipt issued and sent"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "Already confirmed, rejected, cancelled or lapsed"),
              (status = 422, body = ErrorBody)))]
pub async fn confirm_transfer(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(order_id): AppPath,
    AppJson(body): AppJson<ConfirmTransfer>,
) -> AppResult<StatusCode> {
    let bank_reference = body
        .bank_reference
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty());
    if let Some(p) = bank_reference.and_then(|r| text_problem(r, 100, false)) {
        return Err(AppError::field("bankReference", &p));
    }
    let via = Via::parse(body.via.as_deref())
        .ok_or_else(|| AppError::field("via", "via must be instapay or bank_transfer"))?;
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let mail = transfers::confirm(
        &mut tx,
        &ctx,
        &state.catalogue,
        &order_id,
        &admin.user_id,
        bank_reference,
        via,
    )
    .await?;
    enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    tracing::info!(cart_id = %order_id, confirmed_by = %admin.user_id, "transfer confirmed and credited");
    Ok(StatusCode::NO_CONTENT)
}

/// Rejects the order: no transfer arrived, or not the right one. Nothing is credited.
#[utoipa::path(post, path = "/api/admin/transfers/{order_id}/reject", tag = "admin", params(("order_id" = String, Path)),
    responses((status = 204, description = "Rejected"), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "Already confirmed, rejected, cancelled or lapsed")))]
pub async fn reject_transfer(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(order_id): AppPath,
) -> AppResult<StatusCode> {
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    transfers::reject(&mut tx, &ctx, &order_id, &admin.user_id).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
