//! The client's own data: the dashboard (credits, upcoming sessions, payments), the payment
//! history preference (the only change a client makes), and the booking page's data.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::bookings::cancel::FREE_CANCELLATION_HOURS;
use crate::domain::accounts::Role;
use crate::domain::{BookingStatus, MoneyView, now, parse_ts, ts};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppJson, AppQuery, AuthUser};
use crate::providers::calendly::client_reference;
use crate::read_cache::CachedBody;
use crate::state::AppState;
use chrono::Duration;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(dashboard))
        .routes(routes!(set_payment_history))
        .routes(routes!(book_session))
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
    /// The credits that expire first ("N credits expire on MMM dd, yyyy"); `null` without
    /// unused credits.
    next_expiry: Option<ExpiryView>,
}

/// The unused credits of the lots that expire first (on the same day).
#[derive(Serialize, ToSchema, sqlx_macros::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct ExpiryView {
    credits: i64,
    /// The last day they can be used (`YYYY-MM-DD`, the coach's time zone).
    expires_on: String,
}

/// One of the client's sessions, or a pending booking made on the scheduling page with the
/// client's (confirmed) email but without proof that the client made it: that one is not
/// theirs yet, so it carries no links, and the client may use a credit for it (`canClaim`) or
/// say it was not them (`canDisown`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    id: String,
    session_date: String,
    session_end: Option<String>,
    status: BookingStatus,
    session_notes: Option<String>,
    google_meet_link: Option<String>,
    cancel_url: Option<String>,
    reschedule_url: Option<String>,
    /// "Use 1 credit for this session" applies (POST /api/bookings/{id}/claim).
    can_claim: bool,
    /// "This wasn't me" applies (POST /api/bookings/{id}/disown).
    can_disown: bool,
    /// Cancel applies (POST /api/bookings/{id}/cancel): the client's own confirmed session.
    can_cancel: bool,
    /// Cancelling until then gives the credit back; later the credit stays used (24 hours
    /// before the start).
    free_cancellation_until: Option<String>,
}

#[derive(sqlx_macros::FromRow)]
struct SessionRow {
    id: String,
    client_id: Option<String>,
    session_date: String,
    session_end: Option<String>,
    status: BookingStatus,
    session_notes: Option<String>,
    google_meet_link: Option<String>,
    cancel_url: Option<String>,
    reschedule_url: Option<String>,
}

impl From<SessionRow> for SessionView {
    fn from(r: SessionRow) -> SessionView {
        let pending = r.status == BookingStatus::Pending;
        if r.client_id.is_none() {
            // Matched by email only: no meeting, cancel or reschedule link until it is theirs.
            return SessionView {
                id: r.id,
                session_date: r.session_date,
                session_end: r.session_end,
                status: r.status,
                session_notes: r.session_notes,
                google_meet_link: None,
                cancel_url: None,
                reschedule_url: None,
                can_claim: pending,
                can_disown: pending,
                can_cancel: false,
                free_cancellation_until: None,
            };
        }
        let free_cancellation_until = parse_ts(&r.session_date)
            .map(|start| ts(start - Duration::hours(FREE_CANCELLATION_HOURS)));
        SessionView {
            id: r.id,
            session_date: r.session_date,
            session_end: r.session_end,
            status: r.status,
            session_notes: r.session_notes,
            google_meet_link: r.google_meet_link,
            cancel_url: r.cancel_url,
            reschedule_url: r.reschedule_url,
            can_claim: pending,
            can_disown: false,
            can_cancel: r.status == BookingStatus::Confirmed,
            free_cancellation_until,
        }
    }
}

const SESSION_COLUMNS: &str = "id, client_id, session_date, session_end, status, session_notes, google_meet_link, cancel_url, reschedule_url";

/// One session as the client's dashboard shows it, once it is theirs (after a claim).
pub async fn session_by_id(state: &AppState, id: &str) -> AppResult<SessionView> {
    let row: Option<SessionRow> = sqlx::query_as(&format!(
        "SELECT {SESSION_COLUMNS} FROM bookings WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(&state.db.pool)
    .await?;
    row.map(SessionView::from)
        .ok_or_else(|| AppError::NotFound("Booking not found".into()))
}

/// One line of the client's payment history.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRecordView {
    id: String,
    amount: MoneyView,
    sessions_purchased: i64,
    payment_date: String,
    payment_method: String,
    reference_number: Option<String>,
    /// `payment`, or `refund` (of an earlier payment: `amount` went back, `sessionsPurchased`
    /// credits were removed; only refunds done or waiting for PayTabs are listed).
    kind: String,
    /// The payment this line belongs to: its own id for a payment, the refunded payment's for a
    /// refund. Its receipt is `/receipt?id={paymentId}` (a refund has no receipt of its own).
    payment_id: String,
}

#[derive(sqlx_macros::FromRow)]
struct PaymentRow {
    id: String,
    payment_id: String,
    amount: i64,
    currency: String,
    sessions_purchased: i64,
    payment_date: String,
    payment_method: String,
    reference_number: Option<String>,
    kind: String,
}

impl From<PaymentRow> for PaymentRecordView {
    fn from(r: PaymentRow) -> PaymentRecordView {
        PaymentRecordView {
            id: r.id,
            amount: MoneyView::new(r.amount, &r.currency),
            sessions_purchased: r.sessions_purchased,
            payment_date: r.payment_date,
            payment_method: r.payment_method,
            reference_number: r.reference_number,
            kind: r.kind,
            payment_id: r.payment_id,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DashboardView {
    full_name: String,
    email: String,
    phone: Option<String>,
    role: Role,
    account: AccountView,
    /// Sessions at or after now, oldest first, filtered by `status`.
    upcoming_sessions: Vec<SessionView>,
    /// The 10 most recent payments.
    payments: Vec<PaymentRecordView>,
    scheduler_name: String,
    scheduler_url: String,
    /// The credits an employer's engagement gave this client (issue 23); empty for most.
    sponsored: Vec<SponsoredView>,
}

/// Credits from a sponsor's engagement, as the client's dashboard names them.
#[derive(Serialize, ToSchema, sqlx_macros::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct SponsoredView {
    /// The company's name.
    sponsor: String,
    /// The engagement's title.
    engagement: String,
    /// The engagement's credits that reached this account.
    credits: i64,
    /// Of them, unused in live lots.
    remaining: i64,
}

/// The engagements that gave `user_id` credits.
async fn sponsored(state: &AppState, user_id: &str) -> AppResult<Vec<SponsoredView>> {
    Ok(sqlx::query_as(
        "SELECT s.name AS sponsor, e.title AS engagement, m.granted AS credits,
                CAST(COALESCE((SELECT SUM(k.remaining) FROM credit_lots k
                                WHERE k.user_id = m.client_id AND k.engagement_id = e.id
                                  AND k.expired_at IS NULL AND k.expires_at > $2), 0) AS BIGINT) AS remaining
           FROM engagement_members m JOIN engagements e ON e.id = m.engagement_id
           JOIN sponsors s ON s.id = e.sponsor_id
          WHERE m.client_id = $1 AND m.granted > 0
          ORDER BY e.created_at",
    )
    .bind(user_id)
    .bind(now())
    .fetch_all(state.db.reader())
    .await?)
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DashboardQuery {
    /// all (default), confirmed, cancelled or pending.
    status: Option<String>,
}

#[derive(sqlx_macros::FromRow)]
struct AccountRow {
    available_credits: i64,
    total_credits: i64,
    used_credits: i64,
    last_payment_date: Option<String>,
    show_payment_history: i64,
    sessions_completed: i64,
}

/// The client's credits and completed sessions, in one query (the dashboard is the API's
/// busiest read).
pub async fn account(state: &AppState, user_id: &str) -> AppResult<AccountView> {
    let row: Option<AccountRow> = sqlx::query_as(
        "SELECT available_credits, total_credits, used_credits, last_payment_date, show_payment_history,
                (SELECT COUNT(*) FROM bookings WHERE client_id = $1 AND status = $2) AS sessions_completed
           FROM client_accounts WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(BookingStatus::Completed.as_str())
    .fetch_optional(state.db.reader())
    .await?;
    let next_expiry: Option<ExpiryView> = sqlx::query_as(
        "SELECT CAST(SUM(remaining) AS BIGINT) AS credits, expires_on FROM credit_lots
          WHERE user_id = $1 AND expired_at IS NULL AND remaining > 0
            AND expires_on = (SELECT MIN(expires_on) FROM credit_lots
                               WHERE user_id = $1 AND expired_at IS NULL AND remaining > 0)
          GROUP BY expires_on",
    )
    .bind(user_id)
    .fetch_optional(state.db.reader())
    .await?;
    let row = row.unwrap_or(AccountRow {
        available_credits: 0,
        total_credits: 0,
        used_credits: 0,
        last_payment_date: None,
        show_payment_history: 1,
        sessions_completed: 0,
    });
    Ok(AccountView {
        available_credits: row.available_credits,
        total_credits: row.total_credits,
        used_credits: row.used_credits,
        sessions_completed: row.sessions_completed,
        last_payment_date: row.last_payment_date,
        show_payment_history: row.show_payment_history == 1,
        next_expiry,
    })
}

#[utoipa::path(get, path = "/api/dashboard", tag = "client", params(DashboardQuery),
    responses((status = 200, body = DashboardView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 422, body = ErrorBody)))]
pub async fn dashboard(
    State(state): State<AppState>,
    user: AuthUser,
    AppQuery(q): AppQuery<DashboardQuery>,
) -> AppResult<Response> {
    let status = status_filter(q.status.as_deref())?;
    // The busiest read: served from `read_cache` while nothing was written since it was read
    // (and the user was read at that same moment), until its first session starts.
    let generation = state.db.generation_since(user.read_at);
    let key = (
        user.user_id.clone(),
        status.map_or("all", BookingStatus::as_str),
    );
    let cached = |g: u64| {
        state.dashboards.get(&key, g).filter(|hit| {
            hit.valid_until
                .as_deref()
                .is_none_or(|t| now().as_str() <= t)
        })
    };
    if let Some(hit) = generation.and_then(cached) {
        return Ok(json_body(hit.body));
    }
    // Requests that missed together load it once (`ReadCache::loading`).
    let _loading = match generation {
        Some(g) => {
            let loading = state.dashboards.loading(&key).await;
            if let Some(hit) = cached(g) {
                return Ok(json_body(hit.body));
            }
            Some(loading)
        }
        None => None,
    };
    let sessions = upcoming_sessions(&state, &user, status).await?;
    let payments = recent_payments(&state, &user.user_id).await?;
    let valid_until = sessions.first().map(|s| s.session_date.clone());
    let view = DashboardView {
        full_name: user.full_name.clone(),
        email: user.email.clone(),
        phone: user.phone.clone(),
        role: user.role,
        account: account(&state, &user.user_id).await?,
        upcoming_sessions: sessions.into_iter().map(SessionView::from).collect(),
        payments: payments.into_iter().map(PaymentRecordView::from).collect(),
        scheduler_name: state.site().scheduler_name.clone(),
        scheduler_url: scheduling_page(&state),
        sponsored: sponsored(&state, &user.user_id).await?,
    };
    let body = Bytes::from(serde_json::to_vec(&view).map_err(anyhow::Error::from)?);
    if let Some(g) = generation {
        let cached = CachedBody {
            body: body.clone(),
            valid_until,
        };
        state.dashboards.put(key, g, cached);
    }
    Ok(json_body(body))
}

/// The `status` filter: `None` for all (also when empty or absent), else confirmed,
/// cancelled or pending.
fn status_filter(raw: Option<&str>) -> AppResult<Option<BookingStatus>> {
    let listed = [
        BookingStatus::Confirmed,
        BookingStatus::Cancelled,
        BookingStatus::Pending,
    ];
    match raw.map(str::trim).unwrap_or("all") {
        "all" | "" => Ok(None),
        s => BookingStatus::parse(s)
            .filter(|s| listed.contains(s))
            .map(Some)
            .ok_or_else(|| {
                AppError::field(
                    "status",
                    "status must be all, confirmed, cancelled or pending",
                )
            }),
    }
}

/// The client's own sessions from now on, and the pending bookings that name no client but
/// were made with this client's confirmed email (unless they said it was not them).
async fn upcoming_sessions(
    state: &AppState,
    user: &AuthUser,
    status: Option<BookingStatus>,
) -> AppResult<Vec<SessionRow>> {
    let linking_email = if user.email_confirmed && user.role == Role::Client {
        user.email.as_str()
    } else {
        ""
    };
    let sessions = sqlx::query_as(&format!(
        "SELECT {SESSION_COLUMNS}
           FROM bookings
          WHERE session_date >= $2 AND ($3 = 'all' OR status = $3)
            AND (client_id = $1
                 OR (client_id IS NULL AND $4 <> '' AND invitee_email = $4 AND status = $5 AND disowned_at IS NULL))
          ORDER BY session_date, id"
    ))
    .bind(&user.user_id)
    .bind(now())
    .bind(status.map_or("all", BookingStatus::as_str))
    .bind(linking_email)
    .bind(BookingStatus::Pending.as_str())
    .fetch_all(state.db.reader())
    .await?;
    Ok(sessions)
}

/// The 10 most recent payments and refunds (not failed ones), newest first.
async fn recent_payments(state: &AppState, user_id: &str) -> AppResult<Vec<PaymentRow>> {
    let payments = sqlx::query_as(
        "SELECT id, payment_id, amount, currency, sessions_purchased, payment_date, payment_method, reference_number, kind FROM (
             SELECT id, id AS payment_id, amount, currency, sessions_purchased, payment_date, payment_method,
                    reference_number, 'payment' AS kind, created_at
               FROM payment_records WHERE client_id = $1
             UNION ALL
             SELECT f.id, f.payment_record_id, f.amount, f.currency, f.credits, f.created_at, r.payment_method,
                    f.tran_ref, 'refund' AS kind, f.created_at
               FROM payment_refunds f JOIN payment_records r ON r.id = f.payment_record_id
              WHERE f.client_id = $1 AND f.status <> 'failed'
           ) history ORDER BY payment_date DESC, created_at DESC, id LIMIT 10",
    )
    .bind(user_id)
    .fetch_all(state.db.reader())
    .await?;
    Ok(payments)
}

fn json_body(body: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
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
        state.site().booking_url.clone()
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
        scheduler_name: state.site().scheduler_name.clone(),
    }))
}
