//! Bookings as the admin sees them: phone bookings, the recent list, the bookings that need
//! attention (pending: no proof of the client, or no credit) with Assign to client, sessions
//! by client or day, cancelling (credit back if one was used, Calendly told) and no-shows
//! (credit stays used).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::{NaiveDate, NaiveTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::common::start_of_local_day;
use crate::bookings::cancel::{self, ADMIN_CANCELLABLE};
use crate::bookings::{change, create, store};
use crate::domain::credits::Applied;
use crate::domain::text::short_text;
use crate::domain::{BookingSource, BookingStatus, DomainError, FieldError, Notes, RecordId};
use crate::email::enqueue_all;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson, AppPath, AppQuery};
use crate::providers::calendly::Cancelled;
use crate::state::AppState;

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

/// A booking in the admin's lists, with the client's (or the invitee's) name and email.
#[derive(Serialize, ToSchema, sqlx_macros::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct AdminBookingView {
    id: String,
    client_id: Option<String>,
    client_name: Option<String>,
    client_email: Option<String>,
    session_date: String,
    status: BookingStatus,
    created_at: String,
    cancelled_at: Option<String>,
    google_meet_link: Option<String>,
    session_notes: Option<String>,
    source: BookingSource,
    /// When the client whose email the invitee typed said "This wasn't me".
    disowned_at: Option<String>,
    /// client, invitee or host, once cancelled.
    cancelled_by: Option<String>,
    /// A late cancellation by the client that kept its credit: the admin may waive it once
    /// (POST /api/admin/bookings/{id}/waive).
    #[schema(value_type = bool)]
    can_waive: Flag,
}

/// A 0/1 column computed in SQL, answered as a JSON boolean.
#[derive(Serialize, Clone, Copy)]
#[serde(transparent)]
pub struct Flag(pub bool);

crate::db::column_via!(Flag, i64);

impl From<i64> for Flag {
    fn from(v: i64) -> Flag {
        Flag(v == 1)
    }
}

const BOOKING_COLUMNS: &str = "b.id, b.client_id, COALESCE(p.full_name, b.invitee_name) AS client_name,
    COALESCE(p.email, b.invitee_email) AS client_email, b.session_date, b.status, b.created_at, b.cancelled_at,
    b.google_meet_link, b.session_notes, b.source, b.disowned_at, b.cancelled_by,
    CAST(CASE WHEN b.status = 'cancelled' AND b.credit_debited = 1 AND b.client_id IS NOT NULL
                   AND b.cancelled_by IN ('client', 'invitee') AND b.late_cancel_waived_at IS NULL
              THEN 1 ELSE 0 END AS BIGINT) AS can_waive";

pub(super) async fn booking_by_id(state: &AppState, id: &str) -> AppResult<AdminBookingView> {
    let row: Option<AdminBookingView> = sqlx::query_as(&format!("SELECT {BOOKING_COLUMNS} FROM bookings b LEFT JOIN profiles p ON p.user_id = b.client_id WHERE b.id = $1"))
        .bind(id)
        .fetch_optional(&state.db.pool)
        .await?;
    row.ok_or_else(|| AppError::NotFound("Booking not found".into()))
}

/// A booking id from the path; anything that is not one is a booking that does not exist.
pub(super) fn booking_id(raw: &str) -> AppResult<RecordId> {
    RecordId::parse(raw).ok_or_else(|| AppError::NotFound("Booking not found".into()))
}

/// A phone booking as the admin typed it, checked field by field in the form's order.
struct PhoneRequest {
    client: RecordId,
    day: NaiveDate,
    clock: NaiveTime,
    status: BookingStatus,
    link: Option<String>,
    notes: Option<Notes>,
}

impl TryFrom<PhoneBooking> for PhoneRequest {
    type Error = DomainError;

    fn try_from(body: PhoneBooking) -> Result<PhoneRequest, DomainError> {
        let text = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        let required = |field: &str, message: &str| FieldError::new(field, message);
        let client_id =
            text(&body.client_id).ok_or_else(|| required("clientId", "Please select a client"))?;
        let date = text(&body.session_date)
            .ok_or_else(|| required("sessionDate", "Session date is required"))?;
        let time = text(&body.session_time)
            .ok_or_else(|| required("sessionTime", "Session time is required"))?;
        let status = match text(&body.status) {
            None => BookingStatus::Confirmed,
            Some(s) => BookingStatus::parse(&s)
                .filter(|s| *s != BookingStatus::Pending)
                .ok_or_else(|| {
                    required(
                        "status",
                        "Status must be confirmed, completed, cancelled or no_show",
                    )
                })?,
        };
        let link = short_text("googleMeetLink", body.google_meet_link.as_deref(), 500)?;
        if let Some(l) = &link
            && !(l.starts_with("https://") || l.starts_with("http://"))
        {
            return Err(required("googleMeetLink", "Meet link must be a URL").into());
        }
        let day = NaiveDate::parse_from_str(&date, "%Y-%m-%d")
            .map_err(|_| required("sessionDate", "Session date is required"))?;
        let clock = NaiveTime::parse_from_str(&time, "%H:%M")
            .or_else(|_| NaiveTime::parse_from_str(&time, "%H:%M:%S"))
            .map_err(|_| required("sessionTime", "Session time is required"))?;
        let notes = Notes::parse_optional("sessionNotes", body.session_notes.as_deref(), 2_000)?;
        let client =
            RecordId::parse(&client_id).ok_or(DomainError::NotFound("Client not found"))?;
        Ok(PhoneRequest {
            client,
            day,
            clock,
            status,
            link,
            notes,
        })
    }
}

#[utoipa::path(post, path = "/api/admin/bookings", tag = "admin", request_body = PhoneBooking,
    responses((status = 201, body = AdminBookingView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody, description = "Client not found"),
              (status = 409, body = ErrorBody, description = "Insufficient Credits"), (status = 413, body = ErrorBody),
              (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn phone_booking(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppJson(body): AppJson<PhoneBooking>,
) -> AppResult<(StatusCode, Json<AdminBookingView>)> {
    let request = PhoneRequest::try_from(body)?;
    let site = state.site();
    // Date + time with seconds, in the coach's zone, stored in UTC.
    let start = site
        .time_zone
        .from_local_datetime(&request.day.and_time(request.clock))
        .earliest()
        .ok_or_else(|| {
            AppError::field(
                "sessionTime",
                "That time does not exist on that day (a clock change)",
            )
        })?
        .with_timezone(&Utc);
    let phone = create::PhoneBooking {
        client_id: request.client.as_str(),
        start,
        status: request.status,
        meet_link: request.link.as_deref(),
        notes: request.notes.as_ref().map(Notes::as_str),
        admin_id: &admin.user_id,
    };
    let mut tx = state.db.pool.begin().await?;
    let (id, mail) = create::by_phone(&mut tx, &state.context(&site), &phone).await?;
    enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    Ok((StatusCode::CREATED, Json(booking_by_id(&state, &id).await?)))
}

#[utoipa::path(get, path = "/api/admin/bookings/recent", tag = "admin",
    responses((status = 200, body = [AdminBookingView]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn recent_bookings(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<Vec<AdminBookingView>>> {
    let rows: Vec<AdminBookingView> = sqlx::query_as(&format!(
        "SELECT {BOOKING_COLUMNS} FROM bookings b LEFT JOIN profiles p ON p.user_id = b.client_id ORDER BY b.created_at DESC, b.id LIMIT 10"
    ))
    .fetch_all(state.db.reader())
    .await?;
    Ok(Json(rows))
}

/// Every booking that waits for the admin (status pending: made without proof of who the
/// client is, or by a client without a credit), the soonest first.
#[utoipa::path(get, path = "/api/admin/bookings/needs-attention", tag = "admin",
    responses((status = 200, body = [AdminBookingView]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn needs_attention(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<Vec<AdminBookingView>>> {
    let rows: Vec<AdminBookingView> = sqlx::query_as(&format!(
        "SELECT {BOOKING_COLUMNS} FROM bookings b LEFT JOIN profiles p ON p.user_id = b.client_id
          WHERE b.status = $1 ORDER BY b.session_date, b.id"
    ))
    .bind(BookingStatus::Pending.as_str())
    .fetch_all(state.db.reader())
    .await?;
    Ok(Json(rows))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssignBooking {
    client_id: Option<String>,
}

/// Assign to client: a pending booking uses one of the chosen client's credits now and
/// becomes theirs, confirmed; the client gets the confirmation email. Sent again for the same
/// client it answers the booking as it is and uses nothing more.
#[utoipa::path(post, path = "/api/admin/bookings/{id}/assign", tag = "admin", params(("id" = String, Path)),
    request_body = AssignBooking,
    responses((status = 200, body = AdminBookingView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "Booking not found, or Client not found"),
              (status = 409, body = ErrorBody, description = "Insufficient Credits, or the booking does not need attention"),
              (status = 422, body = ErrorBody)))]
pub async fn assign_booking(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw_id): AppPath,
    AppJson(body): AppJson<AssignBooking>,
) -> AppResult<Json<AdminBookingView>> {
    let id = booking_id(&raw_id)?;
    let id = id.as_str();
    let client = body
        .client_id
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .ok_or_else(|| AppError::field("clientId", "Please select a client"))?;
    let client =
        RecordId::parse(client).ok_or_else(|| AppError::NotFound("Client not found".into()))?;
    let client = client.as_str();
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let booking = store::hold(&mut tx, ctx.backend, id)
        .await?
        .ok_or_else(|| AppError::NotFound("Booking not found".into()))?;
    let is_client: Option<String> = sqlx::query_scalar(
        "SELECT p.user_id FROM profiles p JOIN client_accounts a ON a.user_id = p.user_id WHERE p.user_id = $1 AND p.role = 'client'",
    )
    .bind(client)
    .fetch_optional(&mut *tx)
    .await?;
    if is_client.is_none() {
        return Err(AppError::NotFound("Client not found".into()));
    }
    if booking.status != BookingStatus::Pending {
        drop(tx);
        // A replay of an assignment that happened: the booking as it is.
        if booking.status == BookingStatus::Confirmed
            && booking.client_id.as_deref() == Some(client)
        {
            return Ok(Json(booking_by_id(&state, id).await?));
        }
        return Err(AppError::Conflict(
            "Only bookings that need attention can be assigned".into(),
        ));
    }
    let reference = format!("assign:{id}");
    let (applied, mail) =
        create::confirm_with_credit(&mut tx, &ctx, &booking, client, &reference).await?;
    match applied {
        Applied::Yes => {}
        Applied::Insufficient => return Err(AppError::Conflict("Insufficient Credits".into())),
        Applied::NoAccount => return Err(AppError::NotFound("Client not found".into())),
        Applied::AlreadyApplied => {
            return Err(AppError::Conflict(
                "Only bookings that need attention can be assigned".into(),
            ));
        }
    }
    enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    Ok(Json(booking_by_id(&state, id).await?))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SessionFilter {
    client_id: Option<String>,
    /// YYYY-MM-DD: sessions on that day in the coach's time zone.
    date: Option<String>,
}

#[utoipa::path(get, path = "/api/admin/sessions", tag = "admin", params(SessionFilter),
    responses((status = 200, body = [AdminBookingView]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn sessions(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppQuery(f): AppQuery<SessionFilter>,
) -> AppResult<Json<Vec<AdminBookingView>>> {
    let (from, to) = match f.date.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        Some(d) => {
            let day = NaiveDate::parse_from_str(d, "%Y-%m-%d")
                .map_err(|_| AppError::field("date", "date must be YYYY-MM-DD"))?;
            let next = day
                .succ_opt()
                .ok_or_else(|| AppError::field("date", "date must be YYYY-MM-DD"))?;
            (
                start_of_local_day(&state, day),
                start_of_local_day(&state, next),
            )
        }
        None => ("0000".to_string(), "9999".to_string()),
    };
    let client = match f
        .client_id
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        None => String::new(),
        // No client has such an id: the list is empty, as for any unknown client.
        Some(c) => match RecordId::parse(c) {
            Some(id) => id.as_str().to_string(),
            None => return Ok(Json(Vec::new())),
        },
    };
    let rows: Vec<AdminBookingView> = sqlx::query_as(&format!(
        "SELECT {BOOKING_COLUMNS} FROM bookings b LEFT JOIN profiles p ON p.user_id = b.client_id
          WHERE ($1 = '' OR b.client_id = $1) AND b.session_date >= $2 AND b.session_date < $3
          ORDER BY b.session_date DESC, b.id"
    ))
    .bind(&client)
    .bind(&from)
    .bind(&to)
    .fetch_all(state.db.reader())
    .await?;
    Ok(Json(rows))
}

/// Cancels a confirmed booking or one that needs attention (pending): a credit it used comes
/// back once (a pending booking used none, so no credit moves), and a Calendly booking is
/// cancelled on Calendly first. If Calendly says the event is already cancelled, the cancel
/// goes on here (the coach or the invitee cancelled it there); any other refusal changes
/// nothing.
#[utoipa::path(post, path = "/api/admin/bookings/{id}/cancel", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = AdminBookingView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "Only confirmed or pending bookings can be cancelled"),
              (status = 422, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn cancel_booking(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<AdminBookingView>> {
    let id = booking_id(&raw_id)?;
    let id = id.as_str();
    let backend = state.db.backend;
    let event = {
        let mut tx = state.db.pool.begin().await?;
        let row = store::hold(&mut tx, backend, id)
            .await?
            .ok_or_else(|| AppError::NotFound("Booking not found".into()))?;
        if !ADMIN_CANCELLABLE.contains(&row.status) {
            return Err(AppError::Conflict(
                "Only confirmed or pending bookings can be cancelled".into(),
            ));
        }
        row.calendly_event_uri
    };
    if let Some(event) = &event {
        cancel_on_calendly(&state, id, event).await?;
    }
    // Calendly's own cancel webhook (or an Assign) may have landed meanwhile: read it again
    // under the lock; `by_admin` leaves a booking that is no longer cancellable as it is.
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let booking = store::hold(&mut tx, backend, id)
        .await?
        .ok_or_else(|| AppError::NotFound("Booking not found".into()))?;
    let done = cancel::by_admin(&mut tx, &ctx, &booking).await?;
    enqueue_all(&mut tx, &done.mail).await?;
    tx.commit().await?;
    state.wake_mail(&done.mail);
    Ok(Json(booking_by_id(&state, id).await?))
}

/// Cancels the event on Calendly before ours. "Already cancelled" there (the coach or the
/// invitee cancelled it) lets the cancel go on; any other refusal stops it (502).
async fn cancel_on_calendly(state: &AppState, id: &str, event: &str) -> AppResult<()> {
    let Some(calendly) = &state.calendly else {
        tracing::warn!(
            booking = id,
            "Calendly is not configured; the event stays on Calendly"
        );
        return Ok(());
    };
    match calendly.cancel_event(event, "Cancelled by the coach").await {
        Ok(Cancelled::Now) => Ok(()),
        Ok(Cancelled::Already) => {
            tracing::info!(booking = id, "the event was already cancelled on Calendly");
            Ok(())
        }
        Err(e) => {
            tracing::error!(
                booking = id,
                error = format!("{e:#}"),
                "Calendly refused the cancellation"
            );
            Err(AppError::BadGateway("Error Cancelling Booking: the scheduling service did not cancel the event. Please try again.".into()))
        }
    }
}

/// The client did not come: the credit stays used.
#[utoipa::path(post, path = "/api/admin/bookings/{id}/no-show", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = AdminBookingView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "Only confirmed or completed bookings can be marked as no-show")))]
pub async fn mark_no_show(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<AdminBookingView>> {
    let id = booking_id(&raw_id)?;
    let done = change::no_show(&mut *state.db.pool.acquire().await?, id.as_str()).await;
    if let Err(refused) = done {
        booking_by_id(&state, id.as_str()).await?; // 404 when it does not exist
        return Err(refused.into());
    }
    Ok(Json(booking_by_id(&state, id.as_str()).await?))
}
