//! The admin dashboard's API (spec §2 /admin, §3, §5): stats, clients, creating users, phone
//! bookings, sessions, cancelling and no-shows. Every route takes `AdminUser` (403 for clients).

use std::collections::BTreeMap;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::{Datelike, NaiveDate, NaiveTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::optional;
use crate::domain::accounts::{NewUser, Role, insert_user};
use crate::domain::credits::{self, Applied};
use crate::domain::{Email, Password, hash_password, new_id, new_token, now, parse_ts, ts};
use crate::email::{enqueue, templates};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson};
use crate::scheduling::bookings::session_details;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/admin/stats", get(stats))
        .route("/api/admin/clients", get(clients))
        .route("/api/admin/users", post(create_user))
        .route("/api/admin/bookings", post(phone_booking))
        .route("/api/admin/bookings/recent", get(recent_bookings))
        .route("/api/admin/bookings/{id}/cancel", post(cancel_booking))
        .route("/api/admin/bookings/{id}/no-show", post(mark_no_show))
        .route("/api/admin/sessions", get(sessions))
}

// --- stats

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    total_clients: i64,
    /// Credits sold: the sum of every client's total credits.
    total_credits: i64,
    /// Confirmed sessions at or after now.
    upcoming_sessions: i64,
    completed_sessions: i64,
    /// Since the 1st of this month in the coach's time zone, in EGP with 2 decimals.
    revenue_this_month: f64,
}

#[utoipa::path(get, path = "/api/admin/stats", tag = "admin",
    responses((status = 200, body = Stats), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn stats(State(state): State<AppState>, _admin: AdminUser) -> AppResult<Json<Stats>> {
    let pool = state.db.reader();
    let total_clients: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM profiles WHERE role = 'client'")
            .fetch_one(pool)
            .await?;
    let total_credits: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(a.total_credits), 0) AS BIGINT) FROM client_accounts a JOIN profiles p ON p.user_id = a.user_id WHERE p.role = 'client'",
    )
    .fetch_one(pool)
    .await?;
    let upcoming: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM bookings WHERE status = 'confirmed' AND session_date >= $1",
    )
    .bind(now())
    .fetch_one(pool)
    .await?;
    let completed: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM bookings WHERE status = 'completed'")
            .fetch_one(pool)
            .await?;
    let local_now = Utc::now().with_timezone(&state.site.time_zone);
    let first = state
        .site
        .time_zone
        .with_ymd_and_hms(local_now.year(), local_now.month(), 1, 0, 0, 0)
        .earliest()
        .map(|d| ts(d.with_timezone(&Utc)))
        .unwrap_or_else(now);
    let revenue: i64 = sqlx::query_scalar("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payment_records WHERE payment_date >= $1")
        .bind(&first)
        .fetch_one(pool)
        .await?;
    Ok(Json(Stats {
        total_clients,
        total_credits,
        upcoming_sessions: upcoming,
        completed_sessions: completed,
        revenue_this_month: revenue as f64 / 100.0,
    }))
}

// --- clients

#[derive(Deserialize, utoipa::IntoParams)]
pub struct ClientSearch {
    /// Part of a name or an email, any case.
    search: Option<String>,
}

#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct ClientRow {
    user_id: String,
    full_name: String,
    email: String,
    phone: Option<String>,
    created_at: String,
    total_credits: i64,
    used_credits: i64,
    available_credits: i64,
    /// Bookings that are not cancelled.
    session_count: i64,
    completed_sessions: i64,
    /// Confirmed bookings.
    upcoming_sessions: i64,
}

#[utoipa::path(get, path = "/api/admin/clients", tag = "admin", params(ClientSearch),
    responses((status = 200, body = [ClientRow]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn clients(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(q): Query<ClientSearch>,
) -> AppResult<Json<Vec<ClientRow>>> {
    let pattern = format!(
        "%{}%",
        q.search
            .unwrap_or_default()
            .trim()
            .to_lowercase()
            .replace(['%', '_'], "")
    );
    let rows: Vec<ClientRow> = sqlx::query_as(
        "SELECT p.user_id, p.full_name, p.email, p.phone, p.created_at,
                a.total_credits, a.used_credits, a.available_credits,
                (SELECT COUNT(*) FROM bookings b WHERE b.client_id = p.user_id AND b.status <> 'cancelled') AS session_count,
                (SELECT COUNT(*) FROM bookings b WHERE b.client_id = p.user_id AND b.status = 'completed') AS completed_sessions,
                (SELECT COUNT(*) FROM bookings b WHERE b.client_id = p.user_id AND b.status = 'confirmed') AS upcoming_sessions
           FROM profiles p JOIN client_accounts a ON a.user_id = p.user_id
          WHERE p.role = 'client' AND (LOWER(p.full_name) LIKE $1 OR LOWER(p.email) LIKE $1)
          ORDER BY p.full_name",
    )
    .bind(&pattern)
    .fetch_all(state.db.reader())
    .await?;
    Ok(Json(rows))
}

// --- create user

/// The create-user payload of spec §3.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateUser {
    full_name: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    /// client (default) or admin.
    role: Option<String>,
    password: Option<String>,
    initial_credits: Option<i64>,
    payment_amount: Option<f64>,
    /// cash (default), card, bank_transfer or other.
    payment_method: Option<String>,
    /// YYYY-MM-DD, default today.
    payment_date: Option<String>,
    payment_notes: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedUser {
    success: bool,
    user_id: String,
    email: String,
    role: String,
    available_credits: i64,
}

fn start_of_local_day(state: &AppState, day: NaiveDate) -> String {
    state
        .site
        .time_zone
        .from_local_datetime(&day.and_time(NaiveTime::MIN))
        .earliest()
        .map(|d| ts(d.with_timezone(&Utc)))
        .unwrap_or_else(now)
}

#[utoipa::path(post, path = "/api/admin/users", tag = "admin", request_body = CreateUser,
    responses((status = 201, body = CreatedUser), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "The email is taken"), (status = 422, body = ErrorBody)))]
pub async fn create_user(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppJson(body): AppJson<CreateUser>,
) -> AppResult<(StatusCode, Json<CreatedUser>)> {
    let mut fields = BTreeMap::new();
    let full_name = optional(body.full_name).unwrap_or_default();
    if full_name.chars().count() < 2 {
        fields.insert(
            "fullName".to_string(),
            "Full name must be at least 2 characters".to_string(),
        );
    }
    let email = Email::parse(body.email.as_deref().unwrap_or(""));
    if email.is_none() {
        fields.insert("email".into(), "Invalid email address".into());
    }
    let role = optional(body.role).unwrap_or_else(|| "client".into());
    let role_kind = Role::parse(&role);
    if role_kind.is_none() {
        fields.insert("role".into(), "Role must be admin or client".into());
    }
    let password = match Password::parse(body.password.as_deref().unwrap_or(""), "password") {
        Ok(p) => Some(p),
        Err(AppError::Validation { message, .. }) => {
            fields.insert("password".into(), message);
            None
        }
        Err(e) => return Err(e),
    };
    let credits = body.initial_credits.unwrap_or(0);
    if credits < 0 {
        fields.insert(
            "initialCredits".into(),
            "Initial credits must be 0 or more".into(),
        );
    }
    let amount = body.payment_amount.unwrap_or(0.0);
    if amount.is_nan() || amount < 0.0 {
        fields.insert(
            "paymentAmount".into(),
            "Payment amount must be 0 or more".into(),
        );
    }
    if role == "client" && amount > 0.0 && credits <= 0 {
        fields.insert(
            "initialCredits".into(),
            "Initial credits must be greater than 0 when payment amount is provided".into(),
        );
    }
    let method = optional(body.payment_method).unwrap_or_else(|| "cash".into());
    if !["cash", "card", "bank_transfer", "other"].contains(&method.as_str()) {
        fields.insert(
            "paymentMethod".into(),
            "Payment method must be cash, card, bank_transfer or other".into(),
        );
    }
    let today = Utc::now().with_timezone(&state.site.time_zone).date_naive();
    let day = match optional(body.payment_date) {
        None => Some(today),
        Some(d) => NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok(),
    };
    if day.is_none() {
        fields.insert(
            "paymentDate".into(),
            "Payment date must be a date (YYYY-MM-DD)".into(),
        );
    }
    if let Some(first) = fields.values().next().cloned() {
        return Err(AppError::Validation {
            message: first,
            fields,
        });
    }
    let (email, password, day, role_kind) = (
        email.expect("checked"),
        password.expect("checked"),
        day.expect("checked"),
        role_kind.expect("checked"),
    );
    let hash = hash_password(&password).await?;
    let phone = optional(body.phone);
    let notes = optional(body.payment_notes);
    let now = now();

    let mut tx = state.db.pool.begin().await?;
    let new_user = NewUser {
        email: &email,
        full_name: &full_name,
        phone: phone.as_deref(),
        password_hash: &hash,
        role: role_kind,
        email_confirmed: false,
    };
    let user_id = insert_user(&mut tx, &new_user).await?.ok_or_else(|| {
        AppError::Conflict("A user with this email address has already been registered".into())
    })?;
    if role == "client" && credits > 0 {
        let payment_date = start_of_local_day(&state, day);
        if amount > 0.0 {
            let record_id = new_id();
            sqlx::query(
                "INSERT INTO payment_records (id, client_id, amount, currency, sessions_purchased, payment_date, payment_method, reference_number, notes, recorded_by, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $9, $10)",
            )
            .bind(&record_id)
            .bind(&user_id)
            .bind((amount * 100.0).round() as i64)
            .bind(&state.site.currency)
            .bind(credits)
            .bind(&payment_date)
            .bind(&method)
            .bind(&notes)
            .bind(&admin.user_id)
            .bind(&now)
            .execute(&mut *tx)
            .await?;
            credits::add_purchased(
                &mut tx,
                &user_id,
                credits,
                credits::Kind::OfflinePayment,
                &format!("offline:{record_id}"),
                &payment_date,
            )
            .await?;
        } else {
            // Credits without a payment: an adjustment, not revenue, no last payment date.
            sqlx::query(
                "INSERT INTO credit_ledger (id, user_id, kind, delta_total, delta_used, external_ref, note, created_at) VALUES ($1, $2, 'admin_adjustment', $3, 0, $4, 'initial credits', $5)",
            )
            .bind(new_id())
            .bind(&user_id)
            .bind(credits)
            .bind(format!("initial:{user_id}"))
            .bind(&now)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE client_accounts SET total_credits = $1, available_credits = $1, updated_at = $2 WHERE user_id = $3")
                .bind(credits)
                .bind(&now)
                .bind(&user_id)
                .execute(&mut *tx)
                .await?;
        }
    }
    // The admin chose a starting password; the user gets a link to set their own.
    let (token, token_hash) = new_token();
    sqlx::query("INSERT INTO auth_tokens (id, user_id, purpose, expires_at, created_at) VALUES ($1, $2, 'password_reset', $3, $4)")
        .bind(&token_hash)
        .bind(&user_id)
        .bind(ts(Utc::now() + chrono::Duration::days(7)))
        .bind(&now)
        .execute(&mut *tx)
        .await?;
    let link = format!("{}/auth?reset={token}", state.config.public_base_url);
    enqueue(
        &mut tx,
        &templates::welcome_set_password(&state.site.name, email.as_str(), &full_name, &link),
    )
    .await?;
    let available: i64 =
        sqlx::query_scalar("SELECT available_credits FROM client_accounts WHERE user_id = $1")
            .bind(&user_id)
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    state.mail_wake.notify_one();
    tracing::info!(user_id, role, created_by = %admin.user_id, "user created by an admin");
    Ok((
        StatusCode::CREATED,
        Json(CreatedUser {
            success: true,
            user_id,
            email: email.to_string(),
            role,
            available_credits: available,
        }),
    ))
}

// --- bookings

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PhoneBooking {
    client_id: Option<String>,
    /// YYYY-MM-DD, in the coach's time zone.
    session_date: Option<String>,
    /// HH:MM (24 h), in the coach's time zone.
    session_time: Option<String>,
    /// confirmed (default), completed, cancelled or no_show.
    status: Option<String>,
    google_meet_link: Option<String>,
    session_notes: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BookingView {
    id: String,
    client_id: Option<String>,
    client_name: Option<String>,
    client_email: Option<String>,
    session_date: String,
    status: String,
    created_at: String,
    cancelled_at: Option<String>,
    google_meet_link: Option<String>,
    session_notes: Option<String>,
    /// calendly, phone or admin.
    source: String,
}

const BOOKING_COLUMNS: &str = "b.id, b.client_id, COALESCE(p.full_name, b.invitee_name), COALESCE(p.email, b.invitee_email), b.session_date, b.status, b.created_at, b.cancelled_at, b.google_meet_link, b.session_notes, b.source";
type BookingTuple = (
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
);

fn booking_view(t: BookingTuple) -> BookingView {
    let (
        id,
        client_id,
        client_name,
        client_email,
        session_date,
        status,
        created_at,
        cancelled_at,
        google_meet_link,
        session_notes,
        source,
    ) = t;
    BookingView {
        id,
        client_id,
        client_name,
        client_email,
        session_date,
        status,
        created_at,
        cancelled_at,
        google_meet_link,
        session_notes,
        source,
    }
}

async fn booking_by_id(state: &AppState, id: &str) -> AppResult<BookingView> {
    let row: Option<BookingTuple> = sqlx::query_as(&format!("SELECT {BOOKING_COLUMNS} FROM bookings b LEFT JOIN profiles p ON p.user_id = b.client_id WHERE b.id = $1"))
        .bind(id)
        .fetch_optional(&state.db.pool)
        .await?;
    row.map(booking_view)
        .ok_or_else(|| AppError::NotFound("Booking not found".into()))
}

#[utoipa::path(post, path = "/api/admin/bookings", tag = "admin", request_body = PhoneBooking,
    responses((status = 201, body = BookingView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "Client not found"),
              (status = 409, body = ErrorBody, description = "Insufficient Credits"), (status = 422, body = ErrorBody)))]
pub async fn phone_booking(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppJson(body): AppJson<PhoneBooking>,
) -> AppResult<(StatusCode, Json<BookingView>)> {
    let client_id = optional(body.client_id)
        .ok_or_else(|| AppError::field("clientId", "Please select a client"))?;
    let date = optional(body.session_date)
        .ok_or_else(|| AppError::field("sessionDate", "Session date is required"))?;
    let time = optional(body.session_time)
        .ok_or_else(|| AppError::field("sessionTime", "Session time is required"))?;
    let status = optional(body.status).unwrap_or_else(|| "confirmed".into());
    if !["confirmed", "completed", "cancelled", "no_show"].contains(&status.as_str()) {
        return Err(AppError::field(
            "status",
            "Status must be confirmed, completed, cancelled or no_show",
        ));
    }
    let link = optional(body.google_meet_link);
    if let Some(l) = &link
        && !(l.starts_with("https://") || l.starts_with("http://"))
    {
        return Err(AppError::field("googleMeetLink", "Meet link must be a URL"));
    }
    let day = NaiveDate::parse_from_str(&date, "%Y-%m-%d")
        .map_err(|_| AppError::field("sessionDate", "Session date is required"))?;
    let clock = NaiveTime::parse_from_str(&time, "%H:%M")
        .or_else(|_| NaiveTime::parse_from_str(&time, "%H:%M:%S"))
        .map_err(|_| AppError::field("sessionTime", "Session time is required"))?;
    // Date + time with seconds, in the coach's zone, stored in UTC.
    let start = state
        .site
        .time_zone
        .from_local_datetime(&day.and_time(clock))
        .earliest()
        .ok_or_else(|| {
            AppError::field(
                "sessionTime",
                "That time does not exist on that day (a clock change)",
            )
        })?
        .with_timezone(&Utc);
    let notes = optional(body.session_notes);
    let lock = state.db.backend.for_update();
    let mut tx = state.db.pool.begin().await?;
    let available: Option<i64> = sqlx::query_scalar(&format!(
        "SELECT a.available_credits FROM client_accounts a JOIN profiles p ON p.user_id = a.user_id WHERE a.user_id = $1 AND p.role = 'client'{lock}"
    ))
    .bind(&client_id)
    .fetch_optional(&mut *tx)
    .await?;
    let available = available.ok_or_else(|| AppError::NotFound("Client not found".into()))?;
    if available <= 0 {
        return Err(AppError::Conflict("Insufficient Credits".into()));
    }
    let id = new_id();
    let debit = status == "confirmed";
    if debit
        && credits::debit_one(&mut tx, &client_id, &format!("booking:{id}")).await?
            == Applied::Insufficient
    {
        return Err(AppError::Conflict("Insufficient Credits".into()));
    }
    let now = now();
    sqlx::query(
        "INSERT INTO bookings (id, client_id, session_date, session_end, status, created_at, cancelled_at, google_meet_link, session_notes, source, credit_debited, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'phone', $10, $11)",
    )
    .bind(&id)
    .bind(&client_id)
    .bind(ts(start))
    .bind(ts(start + chrono::Duration::minutes(60)))
    .bind(&status)
    .bind(&now)
    .bind((status == "cancelled").then_some(now.clone()))
    .bind(&link)
    .bind(&notes)
    .bind(i64::from(debit))
    .bind(&admin.user_id)
    .execute(&mut *tx)
    .await?;
    if debit {
        let (email, name): (String, String) =
            sqlx::query_as("SELECT email, full_name FROM profiles WHERE user_id = $1")
                .bind(&client_id)
                .fetch_one(&mut *tx)
                .await?;
        let title = notes.clone().unwrap_or_else(|| "Coaching Session".into());
        let details = session_details(
            &state,
            &id,
            &title,
            start,
            start + chrono::Duration::minutes(60),
            link.as_deref(),
        );
        enqueue(
            &mut tx,
            &templates::booking_confirmation(&state.site.name, &email, &name, &details),
        )
        .await?;
    }
    tx.commit().await?;
    state.mail_wake.notify_one();
    Ok((StatusCode::CREATED, Json(booking_by_id(&state, &id).await?)))
}

#[utoipa::path(get, path = "/api/admin/bookings/recent", tag = "admin",
    responses((status = 200, body = [BookingView]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn recent_bookings(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<Vec<BookingView>>> {
    let rows: Vec<BookingTuple> = sqlx::query_as(&format!(
        "SELECT {BOOKING_COLUMNS} FROM bookings b LEFT JOIN profiles p ON p.user_id = b.client_id ORDER BY b.created_at DESC LIMIT 10"
    ))
    .fetch_all(state.db.reader())
    .await?;
    Ok(Json(rows.into_iter().map(booking_view).collect()))
}

#[derive(Deserialize, utoipa::IntoParams)]
pub struct SessionFilter {
    client_id: Option<String>,
    /// YYYY-MM-DD: sessions on that day in the coach's time zone.
    date: Option<String>,
}

#[utoipa::path(get, path = "/api/admin/sessions", tag = "admin", params(SessionFilter),
    responses((status = 200, body = [BookingView]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn sessions(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(f): Query<SessionFilter>,
) -> AppResult<Json<Vec<BookingView>>> {
    let (from, to) = match optional(f.date) {
        Some(d) => {
            let day = NaiveDate::parse_from_str(&d, "%Y-%m-%d")
                .map_err(|_| AppError::field("date", "date must be YYYY-MM-DD"))?;
            (
                start_of_local_day(&state, day),
                start_of_local_day(&state, day + chrono::Duration::days(1)),
            )
        }
        None => ("0000".to_string(), "9999".to_string()),
    };
    let client = optional(f.client_id).unwrap_or_default();
    let rows: Vec<BookingTuple> = sqlx::query_as(&format!(
        "SELECT {BOOKING_COLUMNS} FROM bookings b LEFT JOIN profiles p ON p.user_id = b.client_id
          WHERE ($1 = '' OR b.client_id = $1) AND b.session_date >= $2 AND b.session_date < $3
          ORDER BY b.session_date DESC"
    ))
    .bind(&client)
    .bind(&from)
    .bind(&to)
    .fetch_all(state.db.reader())
    .await?;
    Ok(Json(rows.into_iter().map(booking_view).collect()))
}

/// status, client, credit_debited, Calendly event, start, end, notes, invitee email.
type CancelRow = (
    String,
    Option<String>,
    i64,
    Option<String>,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// Cancels a confirmed booking: the credit comes back, and a Calendly booking is cancelled on
/// Calendly first (if Calendly refuses, nothing changes here).
#[utoipa::path(post, path = "/api/admin/bookings/{id}/cancel", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = BookingView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "Only confirmed bookings can be cancelled"), (status = 502, body = ErrorBody)))]
pub async fn cancel_booking(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<String>,
) -> AppResult<Json<BookingView>> {
    let row: Option<CancelRow> = sqlx::query_as(
        "SELECT status, client_id, credit_debited, calendly_event_uri, session_date, session_end, session_notes, invitee_email FROM bookings WHERE id = $1",
    )
    .bind(&id)
    .fetch_optional(&state.db.pool)
    .await?;
    let (status, client_id, _, event_uri, session_date, session_end, notes, invitee_email) =
        row.ok_or_else(|| AppError::NotFound("Booking not found".into()))?;
    if status != "confirmed" {
        return Err(AppError::Conflict(
            "Only confirmed bookings can be cancelled".into(),
        ));
    }
    if let Some(event) = &event_uri {
        match &state.calendly {
            Some(calendly) => calendly.cancel_event(event, "Cancelled by the coach").await.map_err(|e| {
                tracing::error!(booking = id, error = format!("{e:#}"), "Calendly refused the cancellation");
                AppError::BadGateway("Error Cancelling Booking: the scheduling service did not cancel the event. Please try again.".into())
            })?,
            None => tracing::warn!(booking = id, "Calendly is not configured; the event stays on Calendly"),
        }
    }
    // Calendly's own cancel webhook may have landed meanwhile: re-read under the lock.
    let lock = state.db.backend.for_update();
    let mut tx = state.db.pool.begin().await?;
    let (status, debited): (String, i64) = sqlx::query_as(&format!(
        "SELECT status, credit_debited FROM bookings WHERE id = $1{lock}"
    ))
    .bind(&id)
    .fetch_one(&mut *tx)
    .await?;
    if status == "confirmed" {
        let now = now();
        sqlx::query("UPDATE bookings SET status = 'cancelled', cancelled_at = $1, credit_debited = 0 WHERE id = $2").bind(&now).bind(&id).execute(&mut *tx).await?;
        if debited == 1
            && let Some(client) = &client_id
        {
            credits::refund_one(&mut tx, client, &format!("cancel:{id}")).await?;
        }
        let recipient: Option<(String, String)> = match &client_id {
            Some(c) => {
                sqlx::query_as("SELECT email, full_name FROM profiles WHERE user_id = $1")
                    .bind(c)
                    .fetch_optional(&mut *tx)
                    .await?
            }
            None => invitee_email.map(|e| (e, String::new())),
        };
        if let (Some((email, name)), Some(start)) = (recipient, parse_ts(&session_date)) {
            let end = session_end
                .as_deref()
                .and_then(parse_ts)
                .unwrap_or(start + chrono::Duration::minutes(60));
            let title = notes.unwrap_or_else(|| "Coaching Session".into());
            let details = session_details(&state, &id, &title, start, end, None);
            enqueue(
                &mut tx,
                &templates::booking_cancellation(
                    &state.site.name,
                    &email,
                    &name,
                    &details,
                    debited == 1,
                ),
            )
            .await?;
        }
    }
    tx.commit().await?;
    state.mail_wake.notify_one();
    Ok(Json(booking_by_id(&state, &id).await?))
}

/// The client did not come: the credit stays used.
#[utoipa::path(post, path = "/api/admin/bookings/{id}/no-show", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = BookingView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "Only confirmed or completed bookings can be marked as no-show")))]
pub async fn mark_no_show(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<String>,
) -> AppResult<Json<BookingView>> {
    let updated = sqlx::query("UPDATE bookings SET status = 'no_show' WHERE id = $1 AND status IN ('confirmed', 'completed')")
        .bind(&id)
        .execute(&state.db.pool)
        .await?;
    if updated.rows_affected() == 0 {
        booking_by_id(&state, &id).await?; // 404 when it does not exist
        return Err(AppError::Conflict(
            "Only confirmed or completed bookings can be marked as no-show".into(),
        ));
    }
    Ok(Json(booking_by_id(&state, &id).await?))
}
