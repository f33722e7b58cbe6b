//! Receipts (issue 14 point 5): every payment record has one, which its owner and the admin can
//! open (anyone else: 404, as if it did not exist) and print or save as PDF from the browser
//! (`/receipt?id=…`). Payments the admin records email their receipt here; online purchases
//! link to it from their purchase email. The package is named in the reader's language: the
//! signed-in viewer's on the page, the client's in the email.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use crate::domain::accounts::language_of;
use crate::domain::receipts::{display_number, issue};
use crate::domain::{Language, MoneyView, RecordId, parse_ts};
use crate::email::{enqueue, templates};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppPath, AuthUser};
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(receipt))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BusinessView {
    name: String,
    address: String,
    tax_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptView {
    /// `R-000042`: sequential, never changes.
    receipt_number: String,
    issued_at: String,
    payment_id: String,
    business: BusinessView,
    client_name: String,
    client_email: String,
    /// The package's name for an online purchase; "Coaching sessions" for a payment the admin
    /// recorded. In the signed-in viewer's language.
    package: String,
    sessions: i64,
    amount: MoneyView,
    /// card (online), or what the admin recorded: cash, bank_transfer, credit_card…
    payment_method: String,
    payment_date: String,
    /// The payment's day in the coach's time zone (YYYY-MM-DD), as the receipt prints it.
    payment_day: String,
    reference_number: Option<String>,
    /// The discount code that priced the purchase, and what it took off (`amount` is what
    /// was paid).
    discount_code: Option<String>,
    discount: Option<MoneyView>,
}

#[derive(sqlx_macros::FromRow)]
struct ReceiptRow {
    number: i64,
    issued_at: String,
    id: String,
    client_id: String,
    amount: i64,
    currency: String,
    sessions_purchased: i64,
    payment_date: String,
    payment_method: String,
    reference_number: Option<String>,
    full_name: String,
    email: String,
    package_id: Option<String>,
    discount_code: Option<String>,
    discount_amount: i64,
}

/// What a receipt of a payment the admin recorded calls its package, in `lang`.
fn offline_package(lang: Language) -> &'static str {
    match lang {
        Language::En => "Coaching sessions",
        Language::Ar => "جلسات كوتشينج",
    }
}

/// A payment's receipt, its package named in `lang`, and its client's id.
async fn load(
    conn: &mut AnyConnection,
    state: &AppState,
    id: &str,
    lang: Language,
) -> AppResult<Option<(ReceiptView, String)>> {
    let row: Option<ReceiptRow> = sqlx::query_as(
        "SELECT r.number, r.issued_at, pr.id, pr.client_id, pr.amount, pr.currency, pr.sessions_purchased,
                pr.payment_date, pr.payment_method, pr.reference_number, p.full_name, p.email, t.package_id,
                pr.discount_code, pr.discount_amount
           FROM payment_records pr
           JOIN receipts r ON r.payment_record_id = pr.id
           JOIN profiles p ON p.user_id = pr.client_id
           LEFT JOIN payment_transactions t
                  ON (pr.recorded_by IS NULL AND t.tran_ref = pr.reference_number)
                  OR (t.provider = 'transfer' AND t.transfer_reference = pr.reference_number)
          WHERE pr.id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?;
    let Some(r) = row else { return Ok(None) };
    let package = match &r.package_id {
        Some(package_id) => state
            .catalogue
            .package_name(package_id, lang)
            .unwrap_or_else(|| package_id.clone()),
        None => offline_package(lang).to_string(),
    };
    let view = ReceiptView {
        receipt_number: display_number(r.number),
        issued_at: r.issued_at,
        payment_id: r.id,
        business: BusinessView {
            name: state.site().business_name.clone(),
            address: state.site().business_address.clone(),
            tax_id: state.site().tax_id.clone(),
        },
        client_name: r.full_name,
        client_email: r.email,
        package,
        sessions: r.sessions_purchased,
        amount: MoneyView::new(r.amount, &r.currency),
        payment_method: r.payment_method,
        payment_day: parse_ts(&r.payment_date)
            .map(|t| {
                t.with_timezone(&state.site().time_zone)
                    .format("%Y-%m-%d")
                    .to_string()
            })
            .unwrap_or_else(|| r.payment_date.chars().take(10).collect()),
        payment_date: r.payment_date,
        reference_number: r.reference_number,
        discount: (r.discount_amount > 0).then(|| MoneyView::new(r.discount_amount, &r.currency)),
        discount_code: r.discount_code,
    };
    Ok(Some((view, r.client_id)))
}

#[utoipa::path(get, path = "/api/receipts/{payment_id}", tag = "client", params(("payment_id" = String, Path)),
    responses((status = 200, body = ReceiptView), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "Receipt not found (or not this user's)")))]
pub async fn receipt(
    State(state): State<AppState>,
    user: AuthUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<ReceiptView>> {
    let not_found = || AppError::NotFound("Receipt not found".into());
    let id = RecordId::parse(&raw_id).ok_or_else(not_found)?;
    let mut conn = state.db.reader().acquire().await?;
    let (view, owner) = load(&mut conn, &state, id.as_str(), user.language)
        .await?
        .ok_or_else(not_found)?;
    if owner != user.user_id && !user.is_admin() {
        return Err(not_found());
    }
    Ok(Json(view))
}

/// The receipt page of a payment, in `lang`.
pub fn receipt_url(state: &AppState, payment_id: &str, lang: Language) -> String {
    crate::domain::receipts::page_url(&state.config.public_base_url, payment_id, lang)
}

/// Issues the receipt of a payment the admin recorded and emails it to the client, in the
/// payment's transaction.
pub async fn issue_and_send(
    conn: &mut AnyConnection,
    state: &AppState,
    payment_id: &str,
) -> AppResult<()> {
    issue(&mut *conn, payment_id).await?;
    let client: String = sqlx::query_scalar("SELECT client_id FROM payment_records WHERE id = $1")
        .bind(payment_id)
        .fetch_one(&mut *conn)
        .await?;
    let lang = language_of(&mut *conn, &client).await?;
    let (view, _) = load(&mut *conn, state, payment_id, lang)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the payment {payment_id} has no receipt"))?;
    let mail = templates::payment_receipt(
        lang,
        &state.site().name,
        &view.client_email,
        &view.client_name,
        &templates::ReceiptSummary {
            number: &view.receipt_number,
            package: &view.package,
            sessions: view.sessions,
            amount: view.amount.minor,
            currency: &view.amount.currency,
            method: &view.payment_method,
        },
        &receipt_url(state, payment_id, lang),
    );
    enqueue(conn, &mail).await?;
    Ok(())
}
