//! The client's own data: the dashboard (credits, upcoming sessions, payments), the payment
//! history preference (the only change a client makes), and the booking page's data.

use axum::extract::{Query, State};
use axum::routing::{get, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::now;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppJson, AuthUser};
use crate::scheduling::calendly::client_reference;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/dashboard", get(dashboard))
        .route("/api/dashboard/payment-history", put(set_payment_history))
        .route("/api/book-session", get(book_session))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    available_credits: i64,
    total_credits: i64,
    used_credits: i64,
    sessions_completed: i64,
    last_payment_date: Option<String>,
    show_payment_history: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    id: String,
    session_date: String,
    session_end: Option<String>,
    /// confirmed, completed, cancelled, no_show or pending.
    status: String,
    session_notes: Option<String>,
    google_meet_link: Option<String>,
    cancel_url: Option<String>,
    reschedule_url: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRecordView {
    id: String,
    amount: f64,
    currency: String,
    sessions_purchased: i64,
    payment_date: String,
    payment_method: String,
    reference_number: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardView {
    full_name: String,
    email: String,
    phone: Option<String>,
    role: String,
    account: AccountView,
    /// Sessions at or after now, oldest first, filtered by `status`.
    upcoming_sessions: Vec<SessionView>,
    /// The 10 most recent payments.
    payments: Vec<PaymentRecordView>,
    scheduler_name: String,
    scheduler_url: String,
}

#[derive(Deserialize, utoipa::IntoParams)]
pub struct DashboardQuery {
    /// all (default), confirmed, cancelled or pending.
    status: Option<String>,
}

type PaymentRow = (String, i64, String, i64, String, String, Option<String>);
type SessionRow = (
    String,
    String,
    Option<String>,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

pub async fn account(state: &AppState, user_id: &str) -> AppResult<AccountView> {
    let row: Option<(i64, i64, i64, Option<String>, i64)> = sqlx::query_as(
        "SELECT available_credits, total_credits, used_credits, last_payment_date, show_payment_history FROM client_accounts WHERE user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(state.db.reader())
    .await?;
    let (available, total, used, last, show) = row.unwrap_or((0, 0, 0, None, 1));
    let completed: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM bookings WHERE client_id = $1 AND status = 'completed'",
    )
    .bind(user_id)
    .fetch_one(state.db.reader())
    .await?;
    Ok(AccountView {
        available_credits: available,
        total_credits: total,
        used_credits: used,
        sessions_completed: completed,
        last_payment_date: last,
        show_payment_history: show == 1,
    })
}

#[utoipa::path(get, path = "/api/dashboard", tag = "client", params(DashboardQuery),
    responses((status = 200, body = DashboardView), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn dashboard(
    State(state): State<AppState>,
    user: AuthUser,
    Query(q): Query<DashboardQuery>,
) -> AppResult<Json<DashboardView>> {
    let status = q.status.as_deref().unwrap_or("all");
    if !["all", "confirmed", "cancelled", "pending"].contains(&status) {
        return Err(AppError::field(
            "status",
            "status must be all, confirmed, cancelled or pending",
        ));
    }
    let sessions: Vec<SessionRow> = sqlx::query_as(
        "SELECT id, session_date, session_end, status, session_notes, google_meet_link, cancel_url, reschedule_url
           FROM bookings WHERE client_id = $1 AND session_date >= $2 AND ($3 = 'all' OR status = $3)
          ORDER BY session_date",
    )
    .bind(&user.user_id)
    .bind(now())
    .bind(status)
    .fetch_all(state.db.reader())
    .await?;
    let payments: Vec<PaymentRow> = sqlx::query_as(
        "SELECT id, amount, currency, sessions_purchased, payment_date, payment_method, reference_number
           FROM payment_records WHERE client_id = $1 ORDER BY payment_date DESC, created_at DESC LIMIT 10",
    )
    .bind(&user.user_id)
    .fetch_all(state.db.reader())
    .await?;
    Ok(Json(DashboardView {
        full_name: user.full_name.clone(),
        email: user.email.clone(),
        phone: user.phone.clone(),
        role: user.role.clone(),
        account: account(&state, &user.user_id).await?,
        upcoming_sessions: sessions
            .into_iter()
            .map(
                |(
                    id,
                    session_date,
                    session_end,
                    status,
                    session_notes,
                    google_meet_link,
                    cancel_url,
                    reschedule_url,
                )| SessionView {
                    id,
                    session_date,
                    session_end,
                    status,
                    session_notes,
                    google_meet_link,
                    cancel_url,
                    reschedule_url,
                },
            )
            .collect(),
        payments: payments
            .into_iter()
            .map(
                |(
                    id,
                    amount,
                    currency,
                    sessions_purchased,
                    payment_date,
                    payment_method,
                    reference_number,
                )| PaymentRecordView {
                    id,
                    amount: amount as f64 / 100.0,
                    currency,
                    sessions_purchased,
                    payment_date,
                    payment_method,
                    reference_number,
                },
            )
            .collect(),
        scheduler_name: state.site.scheduler_name.clone(),
        scheduler_url: scheduling_page(&state),
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct PaymentHistory {
    show: bool,
}

/// The only change a client makes (spec §4).
#[utoipa::path(put, path = "/api/dashboard/payment-history", tag = "client", request_body = PaymentHistory,
    responses((status = 200, body = AccountView), (status = 401, body = ErrorBody)))]
pub async fn set_payment_history(
    State(state): State<AppState>,
    user: AuthUser,
    AppJson(body): AppJson<PaymentHistory>,
) -> AppResult<Json<AccountView>> {
    sqlx::query(
        "UPDATE client_accounts SET show_payment_history = $1, updated_at = $2 WHERE user_id = $3",
    )
    .bind(i64::from(body.show))
    .bind(now())
    .bind(&user.user_id)
    .execute(&state.db.pool)
    .await?;
    Ok(Json(account(&state, &user.user_id).await?))
}

fn scheduling_page(state: &AppState) -> String {
    let configured = &state.config.calendly.scheduling_url;
    if configured.is_empty() {
        state.site.booking_url.clone()
    } else {
        configured.clone()
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BookSessionView {
    available_credits: i64,
    /// The scheduling page with the client's name and email prefilled and a signed reference.
    scheduler_url: String,
    scheduler_name: String,
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[utoipa::path(get, path = "/api/book-session", tag = "client",
    responses((status = 200, body = BookSessionView), (status = 401, body = ErrorBody)))]
pub async fn book_session(
    State(state): State<AppState>,
    user: AuthUser,
) -> AppResult<Json<BookSessionView>> {
    let account = account(&state, &user.user_id).await?;
    let base = scheduling_page(&state);
    let sep = if base.contains('?') { '&' } else { '?' };
    let reference = client_reference(state.config.app_secret.expose(), &user.user_id);
    Ok(Json(BookSessionView {
        available_credits: account.available_credits,
        scheduler_url: format!(
            "{base}{sep}hide_gdpr_banner=1&name={}&email={}&utm_content={}",
            encode(&user.full_name),
            encode(&user.email),
            encode(&reference)
        ),
        scheduler_name: state.site.scheduler_name.clone(),
    }))
}
