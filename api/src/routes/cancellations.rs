//! A client cancels one of their own confirmed sessions from the dashboard. Calendly's event is
//! cancelled first (through its API), then ours, by the cancellation policy
//! (`scheduling::cancellation`): at least 24 hours before the start the credit comes back,
//! later it stays used (the admin may waive it). Another client's booking is 404.

use axum::Json;
use axum::extract::State;
use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::{BookingStatus, RecordId, parse_ts, ts};
use crate::email::enqueue;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppPath, AuthUser};
use crate::providers::calendly::Cancelled;
use crate::routes::dashboard::{SessionView, session_by_id};
use crate::scheduling::bookings::stored_session_details;
use crate::scheduling::cancellation::{CancelledBy, Cancelling, Notice, cancel};
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(cancel_own_booking))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CancelledSession {
    session: SessionView,
    /// The credit came back (cancelled at least 24 hours ahead); otherwise it stays used.
    credit_returned: bool,
}

#[derive(sqlx::FromRow)]
struct OwnBooking {
    client_id: Option<String>,
    #[sqlx(try_from = "String")]
    status: BookingStatus,
    session_date: String,
    session_end: Option<String>,
    session_notes: Option<String>,
    credit_debited: i64,
    calendly_event_uri: Option<String>,
    client_cancel_requested_at: Option<String>,
    cancelled_by: Option<String>,
}

const COLUMNS: &str = "client_id, status, session_date, session_end, session_notes, credit_debited, calendly_event_uri, client_cancel_requested_at, cancelled_by";

fn not_found() -> AppError {
    AppError::NotFound("Booking not found".into())
}

async fn own_booking(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    id: &str,
    user: &AuthUser,
) -> AppResult<OwnBooking> {
    let row: Option<OwnBooking> = sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM bookings WHERE id = $1{}",
        state.db.backend.for_update()
    ))
    .bind(id)
    .fetch_optional(conn)
    .await?;
    row.filter(|b| b.client_id.as_deref() == Some(user.user_id.as_str()))
        .ok_or_else(not_found)
}

#[utoipa::path(post, path = "/api/bookings/{id}/cancel", tag = "client", params(("id" = String, Path)),
    responses((status = 200, body = CancelledSession), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "Booking not found (or not this client's)"),
              (status = 409, body = ErrorBody, description = "Not a confirmed upcoming session"),
              (status = 502, body = ErrorBody, description = "The scheduling service did not cancel the event")))]
pub async fn cancel_own_booking(
    State(state): State<AppState>,
    user: AuthUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<CancelledSession>> {
    let id = RecordId::parse(&raw_id).ok_or_else(not_found)?;
    let id = id.as_str();
    let asked_at = Utc::now();
    let mut tx = state.db.pool.begin().await?;
    let booking = own_booking(&mut tx, &state, id, &user).await?;
    if booking.status == BookingStatus::Cancelled
        && booking.cancelled_by.as_deref() == Some("client")
    {
        // Sent again (a double click, a retry): answer what the first one did.
        drop(tx);
        return answer(&state, id).await;
    }
    let start = parse_ts(&booking.session_date).ok_or_else(not_found)?;
    if booking.status != BookingStatus::Confirmed || start <= asked_at {
        return Err(AppError::Conflict(
            "Only a confirmed session that has not started can be cancelled".into(),
        ));
    }
    let Some(event) = booking.calendly_event_uri.clone() else {
        // A phone or admin booking: nothing to tell Calendly.
        finish(&mut tx, &state, id, &booking, asked_at).await?;
        tx.commit().await?;
        state.mail_wake.notify_one();
        return answer(&state, id).await;
    };
    // Mark the request before Calendly hears of it: its webhook (which calls this a host
    // cancellation) may land before Calendly answers us, and must apply the client's rule.
    let asked = booking
        .client_cancel_requested_at
        .clone()
        .unwrap_or_else(|| ts(asked_at));
    sqlx::query("UPDATE bookings SET client_cancel_requested_at = $1 WHERE id = $2")
        .bind(&asked)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    let told = match &state.calendly {
        Some(calendly) => {
            calendly
                .cancel_event(&event, "Cancelled by the client")
                .await
        }
        None => Err(anyhow::anyhow!("Calendly is not configured")),
    };
    if let Err(e) = told {
        tracing::error!(
            booking = id,
            error = format!("{e:#}"),
            "Calendly refused the client's cancellation"
        );
        sqlx::query(
            "UPDATE bookings SET client_cancel_requested_at = NULL WHERE id = $1 AND status = $2",
        )
        .bind(id)
        .bind(BookingStatus::Confirmed.as_str())
        .execute(&state.db.pool)
        .await?;
        return Err(AppError::BadGateway(
            "The session could not be cancelled with the scheduling service. Please try again."
                .into(),
        ));
    }
    if told.is_ok_and(|c| c == Cancelled::Already) {
        tracing::info!(booking = id, "the event was already cancelled on Calendly");
    }
    // Calendly's webhook may have finished the cancel meanwhile: re-read under the lock.
    let mut tx = state.db.pool.begin().await?;
    let booking = own_booking(&mut tx, &state, id, &user).await?;
    if booking.status == BookingStatus::Confirmed {
        let at = parse_ts(&asked).unwrap_or(asked_at);
        finish(&mut tx, &state, id, &booking, at).await?;
    }
    tx.commit().await?;
    state.mail_wake.notify_one();
    answer(&state, id).await
}

/// Cancels the locked booking by the client's rule at `at`, with the credit and the email.
async fn finish(
    tx: &mut sqlx::AnyConnection,
    state: &AppState,
    id: &str,
    booking: &OwnBooking,
    at: chrono::DateTime<Utc>,
) -> AppResult<()> {
    let start = parse_ts(&booking.session_date).ok_or_else(not_found)?;
    let client = booking.client_id.as_deref().ok_or_else(not_found)?;
    let recipient: Option<(String, String)> =
        sqlx::query_as("SELECT email, full_name FROM profiles WHERE user_id = $1")
            .bind(client)
            .fetch_optional(&mut *tx)
            .await?;
    let details = stored_session_details(
        state,
        id,
        &booking.session_date,
        booking.session_end.as_deref(),
        booking.session_notes.as_deref(),
        None,
    );
    let site = state.site();
    let notice = Notice::to(&site.name, recipient.as_ref(), details);
    let booking = Cancelling {
        id,
        client_id: Some(client),
        holds_credit: booking.credit_debited == 1,
        start,
    };
    let done = cancel(
        tx,
        state.db.backend,
        &booking,
        CancelledBy::Client,
        at,
        false,
        notice,
    )
    .await?;
    if let Some(mail) = done.mail {
        enqueue(tx, &mail).await?;
    }
    Ok(())
}

/// The session as it now is, and whether its credit came back.
async fn answer(state: &AppState, id: &str) -> AppResult<Json<CancelledSession>> {
    let returned: Option<String> =
        sqlx::query_scalar("SELECT id FROM credit_ledger WHERE external_ref = $1")
            .bind(format!("cancel:{id}"))
            .fetch_optional(&state.db.pool)
            .await?;
    Ok(Json(CancelledSession {
        session: session_by_id(state, id).await?,
        credit_returned: returned.is_some(),
    }))
}
