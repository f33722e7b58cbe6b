//! A client cancels one of their own confirmed sessions from the dashboard. Calendly's event is
//! cancelled first (through its API), then ours, by the cancellation policy
//! (`bookings::cancel`): at least 24 hours before the start the credit comes back,
//! later it stays used (the admin may waive it). Another client's booking is 404.

use axum::Json;
use axum::extract::State;
use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use crate::bookings::{Held, cancel, change, store};
use crate::domain::{BookingStatus, RecordId, parse_ts};
use crate::email::enqueue_all;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppPath, AuthUser};
use crate::providers::calendly::Cancelled;
use crate::routes::dashboard::{SessionView, session_by_id};
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

fn not_found() -> AppError {
    AppError::NotFound("Booking not found".into())
}

/// The booking, locked, when it is this client's.
async fn own_booking(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    id: &str,
    user: &AuthUser,
) -> AppResult<Held> {
    let row = store::hold(conn, state.db.backend, id).await?;
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
        return finish(tx, &state, &booking, asked_at).await;
    };
    let asked = change::ask_to_cancel(&mut tx, &booking, asked_at).await?;
    tx.commit().await?;
    let told = match &state.calendly {
        Some(calendly) => {
            calendly
                .cancel_event(&event, "Cancelled by the client")
                .await
        }
        None => Err(anyhow::anyhow!("Calendly is not configured")),
    };
    match told {
        Err(e) => {
            tracing::error!(
                booking = id,
                error = format!("{e:#}"),
                "Calendly refused the client's cancellation"
            );
            let mut conn = state.db.pool.acquire().await?;
            change::withdraw_cancel(&mut conn, id).await?;
            return Err(AppError::BadGateway(
                "The session could not be cancelled with the scheduling service. Please try again."
                    .into(),
            ));
        }
        Ok(Cancelled::Already) => {
            tracing::info!(booking = id, "the event was already cancelled on Calendly")
        }
        Ok(Cancelled::Now) => {}
    }
    // Calendly's webhook may have finished the cancel meanwhile: re-read under the lock.
    let mut tx = state.db.pool.begin().await?;
    let booking = own_booking(&mut tx, &state, id, &user).await?;
    if booking.status != BookingStatus::Confirmed {
        drop(tx);
        return answer(&state, id).await;
    }
    let at = parse_ts(&asked).unwrap_or(asked_at);
    finish(tx, &state, &booking, at).await
}

/// Cancels the locked booking by the client's rule as of `at`, commits with its email, and
/// answers the session as it now is.
async fn finish(
    mut tx: sqlx::Transaction<'static, sqlx::Any>,
    state: &AppState,
    booking: &Held,
    at: chrono::DateTime<Utc>,
) -> AppResult<Json<CancelledSession>> {
    let site = state.site();
    let done = cancel::by_client(&mut tx, &state.context(&site), booking, at).await?;
    enqueue_all(&mut tx, &done.mail).await?;
    tx.commit().await?;
    state.wake_mail(&done.mail);
    answer(state, &booking.id).await
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
