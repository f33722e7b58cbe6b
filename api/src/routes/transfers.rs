//! "Pay by InstaPay or bank transfer" for the client (issue 22, item 3): open an order at the
//! server's price and get where to send the money with the order's reference, see one's
//! orders still waiting for their transfer, and cancel one. The admin's side (confirm, reject)
//! is `admin::transfers`; the rules are `payments::transfers`.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::payments::{Purchase, PurchaseRequest};
use crate::domain::accounts::language_of;
use crate::domain::{Language, MoneyView, ts};
use crate::email::enqueue_all;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppJson, AppPath, AuthUser};
use crate::payments::{catalogue, discounts, transfers};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_transfer))
        .routes(routes!(waiting_transfers))
        .routes(routes!(cancel_transfer))
}

/// A transfer order waiting for its money: what to send, where, and the reference to write.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferView {
    order_id: String,
    /// Written in the transfer's note, e.g. `TR-7KQ2M9`.
    reference: String,
    amount: MoneyView,
    package_id: String,
    /// In the client's language.
    package_name: String,
    sessions: i64,
    /// When the order lapses unless its transfer is confirmed (RFC 3339, UTC).
    expires_at: String,
    instapay: Option<String>,
    iban: Option<String>,
    account_name: String,
    bank: Option<String>,
}

impl TransferView {
    fn new(state: &AppState, row: WaitingRow, lang: Language) -> TransferView {
        let site = state.site();
        let transfer = site.transfer.as_ref();
        let field = |f: fn(&content_model::model::TransferSettings) -> &Option<String>| {
            transfer
                .and_then(|t| f(t).clone())
                .filter(|s| !s.trim().is_empty())
        };
        TransferView {
            order_id: row.cart_id,
            reference: row.transfer_reference,
            amount: MoneyView::new(row.amount, &row.currency),
            package_name: state
                .catalogue
                .package_name(&row.package_id, lang)
                .unwrap_or_else(|| row.package_id.clone()),
            package_id: row.package_id,
            sessions: row.sessions_purchased,
            expires_at: row.expires_at,
            instapay: field(|t| &t.instapay),
            iban: field(|t| &t.iban),
            account_name: transfer.map(|t| t.account_name.clone()).unwrap_or_default(),
            bank: field(|t| &t.bank),
        }
    }
}

#[derive(sqlx_macros::FromRow)]
struct WaitingRow {
    cart_id: String,
    transfer_reference: String,
    amount: i64,
    currency: String,
    package_id: String,
    sessions_purchased: i64,
    expires_at: String,
}

const WAITING: &str = "SELECT cart_id, transfer_reference, amount, currency, package_id, sessions_purchased, expires_at
                         FROM payment_transactions
                        WHERE provider = 'transfer' AND status = 'pending' AND client_id = $1 AND expires_at > $2";

/// Opens a transfer order: priced from the catalogue as a card purchase is, nothing credited
/// until an admin confirms the money arrived. The instructions are emailed too.
#[utoipa::path(post, path = "/api/payments/transfer/create", tag = "payments", request_body = PurchaseRequest,
    responses((status = 201, body = TransferView),
              (status = 401, body = ErrorBody, description = "Authentication required"),
              (status = 409, body = ErrorBody, description = "The price shown is stale, or the package is gone or changed"),
              (status = 422, body = ErrorBody, description = "A field is missing or invalid, or the site offers no transfers (paymentMethod)")))]
pub async fn create_transfer(
    State(state): State<AppState>,
    user: AuthUser,
    AppJson(body): AppJson<PurchaseRequest>,
) -> AppResult<(StatusCode, Json<TransferView>)> {
    let purchase = Purchase::try_from(body)?;
    let site = state.site();
    let Some(transfer) = site.transfer.clone() else {
        return Err(AppError::field(
            "paymentMethod",
            "This payment method is not offered for this package",
        ));
    };
    let asked = catalogue::Asked {
        package_type: &purchase.package_type,
        sessions: purchase.sessions,
        shown: purchase.shown,
        version: purchase.version.as_deref(),
    };
    let package = catalogue::price(&state, &asked).await?;
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let priced = discounts::reserve(
        &mut tx,
        &ctx,
        &user.user_id,
        &package.id,
        package.price,
        purchase.discount_code.as_deref(),
    )
    .await??;
    let order = super::payments::new_order(&user.user_id, &package, &site, &purchase, &priced);
    let lang = language_of(&mut tx, &user.user_id).await?;
    let name = crate::catalogue::package_name(&package, lang);
    let (opened, mail) = transfers::open(&mut tx, &ctx, &order, &transfer, &name).await?;
    enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    tracing::info!(cart_id = %opened.cart_id, reference = %opened.reference, "transfer order opened");
    let row = WaitingRow {
        cart_id: opened.cart_id,
        transfer_reference: opened.reference,
        amount: order.amount,
        currency: site.currency.clone(),
        package_id: package.id.clone(),
        sessions_purchased: order.sessions,
        expires_at: ts(opened.expires_at),
    };
    Ok((
        StatusCode::CREATED,
        Json(TransferView::new(&state, row, lang)),
    ))
}

/// The signed-in client's transfer orders still waiting for their money, newest first.
#[utoipa::path(get, path = "/api/payments/transfers", tag = "payments",
    responses((status = 200, body = Vec<TransferView>), (status = 401, body = ErrorBody)))]
pub async fn waiting_transfers(
    State(state): State<AppState>,
    user: AuthUser,
) -> AppResult<Json<Vec<TransferView>>> {
    let mut conn = state.db.pool.acquire().await?;
    let rows: Vec<WaitingRow> =
        sqlx::query_as(&format!("{WAITING} ORDER BY created_at DESC LIMIT 20"))
            .bind(&user.user_id)
            .bind(ts(chrono::Utc::now()))
            .fetch_all(&mut *conn)
            .await?;
    let lang = language_of(&mut conn, &user.user_id).await?;
    Ok(Json(
        rows.into_iter()
            .map(|r| TransferView::new(&state, r, lang))
            .collect(),
    ))
}

/// The client cancels their order while it waits; another client's order is not found.
#[utoipa::path(post, path = "/api/payments/transfer/{order_id}/cancel", tag = "payments", params(("order_id" = String, Path)),
    responses((status = 204, description = "Cancelled"), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "No such order of this client"),
              (status = 409, body = ErrorBody, description = "Already confirmed, rejected, cancelled or lapsed")))]
pub async fn cancel_transfer(
    State(state): State<AppState>,
    user: AuthUser,
    AppPath(order_id): AppPath,
) -> AppResult<StatusCode> {
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    transfers::cancel(&mut tx, &ctx, &user.user_id, &order_id).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}
