//! The coach's view of one client (issue 14 point 4): profile (edit name, phone, role, the
//! language of the client's emails), credits
//! and the ledger, payments with their receipts (sessions come from /api/admin/sessions?clientId),
//! credit adjustments with a reason (through `credits::adjust`), and deactivation: a deactivated
//! account is signed out everywhere and cannot sign in; its history stays.
//!
//! Credit lots with expiry and refunds are another branch's work: they join this view as
//! their own fields when they land.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::accounts::Role;
use crate::domain::accounts::set_language;
use crate::domain::credits::{self, Applied, MAX_CREDITS_PER_CHANGE};
use crate::domain::receipts::display_number;
use crate::domain::validity::Validity;
use crate::domain::{Language, MoneyView, Notes, PersonName, Phone, RecordId, new_id, now};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson, AppPath};
use crate::routes::dashboard::{AccountView, account};
use crate::state::AppState;

#[derive(Serialize, ToSchema, sqlx_macros::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntryView {
    id: String,
    /// purchase, offline_payment, booking_debit, booking_refund, admin_adjustment (and the kinds
    /// later migrations add).
    kind: String,
    delta_total: i64,
    delta_used: i64,
    note: Option<String>,
    created_at: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientPaymentView {
    id: String,
    amount: MoneyView,
    sessions_purchased: i64,
    payment_date: String,
    payment_method: String,
    reference_number: Option<String>,
    notes: Option<String>,
    /// `R-000042`; the receipt opens at /receipt?id={id}.
    receipt_number: Option<String>,
}

#[derive(sqlx_macros::FromRow)]
struct PaymentRow {
    id: String,
    amount: i64,
    currency: String,
    sessions_purchased: i64,
    payment_date: String,
    payment_method: String,
    reference_number: Option<String>,
    notes: Option<String>,
    number: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientDetailView {
    user_id: String,
    full_name: String,
    email: String,
    phone: Option<String>,
    role: Role,
    created_at: String,
    email_confirmed: bool,
    /// Set when the account is deactivated: no sign-in, no sessions.
    deactivated_at: Option<String>,
    /// The language the client's emails are written in.
    language: Language,
    account: AccountView,
    /// Newest first.
    ledger: Vec<LedgerEntryView>,
    /// Newest first.
    payments: Vec<ClientPaymentView>,
    /// Refunds of those payments (pending, completed or failed), newest first.
    refunds: Vec<crate::payments::refunds::RefundRow>,
}

#[derive(sqlx_macros::FromRow)]
struct ProfileRow {
    user_id: String,
    full_name: String,
    email: String,
    phone: Option<String>,
    role: Role,
    created_at: String,
    email_confirmed_at: Option<String>,
    deactivated_at: Option<String>,
    preferred_language: Language,
}

fn not_found() -> AppError {
    AppError::NotFound("Client not found".into())
}

fn user_id(raw: &str) -> AppResult<RecordId> {
    RecordId::parse(raw).ok_or_else(not_found)
}

async fn detail(state: &AppState, id: &str) -> AppResult<ClientDetailView> {
    let pool = &state.db.pool;
    let p: ProfileRow = sqlx::query_as(
        "SELECT p.user_id, p.full_name, p.email, p.phone, p.role, p.created_at, u.email_confirmed_at, u.deactivated_at,
                u.preferred_language
           FROM profiles p JOIN users u ON u.id = p.user_id WHERE p.user_id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?
    .ok_or_else(not_found)?;
    let ledger: Vec<LedgerEntryView> = sqlx::query_as(
        "SELECT id, kind, delta_total, delta_used, note, created_at FROM credit_ledger
          WHERE user_id = $1 ORDER BY created_at DESC, id",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    let payments: Vec<PaymentRow> = sqlx::query_as(
        "SELECT pr.id, pr.amount, pr.currency, pr.sessions_purchased, pr.payment_date, pr.payment_method,
                pr.reference_number, pr.notes, r.number
           FROM payment_records pr LEFT JOIN receipts r ON r.payment_record_id = pr.id
          WHERE pr.client_id = $1 ORDER BY pr.payment_date DESC, pr.created_at DESC, pr.id",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    let refunds = {
        let mut conn = pool.acquire().await?;
        crate::payments::refunds::of_client(&mut conn, id).await?
    };
    Ok(ClientDetailView {
        refunds,
        account: account(state, id).await?,
        user_id: p.user_id,
        full_name: p.full_name,
        email: p.email,
        phone: p.phone,
        role: p.role,
        created_at: p.created_at,
        email_confirmed: p.email_confirmed_at.is_some(),
        deactivated_at: p.deactivated_at,
        language: p.preferred_language,
        ledger,
        payments: payments
            .into_iter()
            .map(|r| ClientPaymentView {
                amount: MoneyView::new(r.amount, &r.currency),
                id: r.id,
                sessions_purchased: r.sessions_purchased,
                payment_date: r.payment_date,
                payment_method: r.payment_method,
                reference_number: r.reference_number,
                notes: r.notes,
                receipt_number: r.number.map(display_number),
            })
            .collect(),
    })
}

#[utoipa::path(get, path = "/api/admin/clients/{id}", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = ClientDetailView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn client_detail(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<ClientDetailView>> {
    let id = user_id(&raw_id)?;
    Ok(Json(detail(&state, id.as_str()).await?))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditProfile {
    full_name: Option<String>,
    /// Empty removes it.
    phone: Option<String>,
    /// admin or client.
    role: Option<String>,
    /// The language of the client's emails, `en` or `ar`; absent keeps it.
    #[schema(value_type = Option<Language>)]
    language: Option<String>,
}

#[utoipa::path(put, path = "/api/admin/clients/{id}", tag = "admin", params(("id" = String, Path)), request_body = EditProfile,
    responses((status = 200, body = ClientDetailView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "An admin cannot remove their own admin role"),
              (status = 422, body = ErrorBody)))]
pub async fn edit_profile(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw_id): AppPath,
    AppJson(body): AppJson<EditProfile>,
) -> AppResult<Json<ClientDetailView>> {
    let id = user_id(&raw_id)?;
    let name = PersonName::parse("fullName", body.full_name.as_deref())?;
    let phone = Phone::parse_optional("phone", body.phone.as_deref())?;
    let role = Role::parse(body.role.as_deref().map(str::trim).unwrap_or(""))
        .ok_or_else(|| AppError::field("role", "Role must be admin or client"))?;
    let language = Language::parse_field("language", body.language.as_deref())?;
    if id.as_str() == admin.user_id && role != Role::Admin {
        return Err(AppError::Conflict(
            "You cannot remove your own admin role".into(),
        ));
    }
    let mut tx = state.db.pool.begin().await?;
    let updated =
        sqlx::query("UPDATE profiles SET full_name = $1, phone = $2, role = $3 WHERE user_id = $4")
            .bind(name.as_str())
            .bind(phone.as_ref().map(Phone::as_str))
            .bind(role.as_str())
            .bind(id.as_str())
            .execute(&mut *tx)
            .await?;
    if updated.rows_affected() == 0 {
        return Err(not_found());
    }
    if let Some(language) = language {
        set_language(&mut tx, id.as_str(), language).await?;
    }
    tx.commit().await?;
    tracing::info!(user_id = id.as_str(), by = %admin.user_id, "profile edited by an admin");
    Ok(Json(detail(&state, id.as_str()).await?))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdjustCredits {
    /// Credits to add (positive) or take away (negative), -1,000 to 1,000, not 0.
    delta: Option<i64>,
    /// Why (required, at most 500 characters): kept in the ledger.
    reason: Option<String>,
}

#[utoipa::path(post, path = "/api/admin/clients/{id}/credits", tag = "admin", params(("id" = String, Path)), request_body = AdjustCredits,
    responses((status = 200, body = ClientDetailView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "More than the client has available"),
              (status = 422, body = ErrorBody)))]
pub async fn adjust_credits(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw_id): AppPath,
    AppJson(body): AppJson<AdjustCredits>,
) -> AppResult<Json<ClientDetailView>> {
    let id = user_id(&raw_id)?;
    let delta = body.delta.unwrap_or(0);
    if delta == 0 || delta.abs() > MAX_CREDITS_PER_CHANGE {
        return Err(AppError::field(
            "delta",
            "Credits must be a whole number from -1,000 to 1,000, not 0",
        ));
    }
    let reason = Notes::parse_optional("reason", body.reason.as_deref(), 500)?
        .ok_or_else(|| AppError::field("reason", "Please give a reason for the adjustment"))?;
    let mut tx = state.db.pool.begin().await?;
    let reference = format!("adjust:{}", new_id());
    let note = format!("{} (by {})", reason.as_str(), admin.full_name);
    // Credits given here last the settings' default validity, from today.
    let validity = Validity::months_from(
        chrono::Utc::now(),
        state.site().default_validity_months,
        state.site().time_zone,
    );
    match credits::adjust(
        &mut tx,
        state.db.backend,
        id.as_str(),
        delta,
        &validity,
        &reference,
        &note,
    )
    .await?
    {
        Applied::Yes => {}
        Applied::NoAccount => return Err(not_found()),
        Applied::Insufficient | Applied::AlreadyApplied => {
            return Err(AppError::Conflict(
                "The client does not have that many available credits to take away".into(),
            ));
        }
    }
    tx.commit().await?;
    tracing::info!(user_id = id.as_str(), delta, by = %admin.user_id, "credits adjusted");
    Ok(Json(detail(&state, id.as_str()).await?))
}

/// Deactivates: every session of the account ends now and sign-in is refused; nothing else is
/// deleted. Sent again, it changes nothing.
#[utoipa::path(post, path = "/api/admin/clients/{id}/deactivate", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = ClientDetailView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "An admin cannot deactivate their own account")))]
pub async fn deactivate(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<ClientDetailView>> {
    let id = user_id(&raw_id)?;
    if id.as_str() == admin.user_id {
        return Err(AppError::Conflict(
            "You cannot deactivate your own account".into(),
        ));
    }
    let mut tx = state.db.pool.begin().await?;
    let updated = sqlx::query(
        "UPDATE users SET deactivated_at = COALESCE(deactivated_at, $1), updated_at = $1 WHERE id = $2",
    )
    .bind(now())
    .bind(id.as_str())
    .execute(&mut *tx)
    .await?;
    if updated.rows_affected() == 0 {
        return Err(not_found());
    }
    sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(id.as_str())
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(user_id = id.as_str(), by = %admin.user_id, "account deactivated");
    Ok(Json(detail(&state, id.as_str()).await?))
}

#[utoipa::path(post, path = "/api/admin/clients/{id}/reactivate", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = ClientDetailView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn reactivate(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<ClientDetailView>> {
    let id = user_id(&raw_id)?;
    let updated =
        sqlx::query("UPDATE users SET deactivated_at = NULL, updated_at = $1 WHERE id = $2")
            .bind(now())
            .bind(id.as_str())
            .execute(&state.db.pool)
            .await?;
    if updated.rows_affected() == 0 {
        return Err(not_found());
    }
    tracing::info!(user_id = id.as_str(), by = %admin.user_id, "account reactivated");
    Ok(Json(detail(&state, id.as_str()).await?))
}
