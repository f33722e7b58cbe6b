//! A signed-in client's answer to a booking made on the scheduling page without proof of who
//! the client is (docs/ARCHITECTURE.md, decision 7): the booking is pending, holds no credit and names
//! no client, and its invitee typed this client's email. Only that client (with a confirmed
//! email: the only link between the booking and the account) sees it on the dashboard, and
//! may either use a credit for it ("Use 1 credit for this session", which makes it theirs and
//! confirmed) or say "This wasn't me" (it leaves their dashboard and stays for the admin). A
//! verified client's own pending booking (no credit at the time) can be claimed the same way.
//! Anyone else gets 404: the booking is not theirs to see.

use axum::Json;
use axum::extract::State;

use crate::bookings::{Held, change, create, store};
use crate::domain::accounts::Role;
use crate::domain::credits::Applied;
use crate::domain::{BookingStatus, RecordId};
use crate::email::enqueue_all;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppPath, AuthUser};
use crate::routes::common::Status;
use crate::routes::dashboard::{SessionView, session_by_id};
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(claim_booking))
        .routes(routes!(disown_booking))
}

fn not_found() -> AppError {
    AppError::NotFound("Booking not found".into())
}

/// The booking the path names, locked until `tx` ends; 404 for an id that names none.
async fn booking_in_path(
    tx: &mut sqlx::AnyConnection,
    state: &AppState,
    raw_id: &str,
) -> AppResult<Held> {
    let id = RecordId::parse(raw_id).ok_or_else(not_found)?;
    store::hold(tx, state.db.backend, id.as_str())
        .await?
        .ok_or_else(not_found)
}

/// The email that links an unassigned booking to this user: their confirmed account email.
fn linking_email(user: &AuthUser) -> Option<&str> {
    (user.role == Role::Client && user.email_confirmed).then_some(user.email.as_str())
}

/// Pending, naming no client, booked with this user's email (`disowned` or not yet).
fn unassigned_match(booking: &Held, user: &AuthUser) -> bool {
    booking.status == BookingStatus::Pending
        && booking.client_id.is_none()
        && linking_email(user).is_some_and(|e| booking.invitee_email.as_deref() == Some(e))
}

/// "Use 1 credit for this session": the booking uses one of the client's credits and becomes
/// theirs, confirmed (with the confirmation email). Sent again, it answers the session as it
/// is and uses nothing more.
#[utoipa::path(post, path = "/api/bookings/{id}/claim", tag = "client", params(("id" = String, Path)),
    responses((status = 200, body = SessionView), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "Booking not found (or not this client's to claim)"),
              (status = 409, body = ErrorBody, description = "Insufficient Credits")))]
pub async fn claim_booking(
    State(state): State<AppState>,
    user: AuthUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<SessionView>> {
    let mut tx = state.db.pool.begin().await?;
    let booking = booking_in_path(&mut tx, &state, &raw_id).await?;
    let id = booking.id.as_str();
    let mine = booking.client_id.as_deref() == Some(user.user_id.as_str());
    if mine && booking.status == BookingStatus::Confirmed {
        // Claimed before (or confirmed anyway): nothing more to do.
        drop(tx);
        return Ok(Json(session_by_id(&state, id).await?));
    }
    let claimable = booking.status == BookingStatus::Pending
        && (mine || (unassigned_match(&booking, &user) && booking.disowned_at.is_none()));
    if !claimable {
        return Err(not_found());
    }
    let site = state.site();
    let ctx = state.context(&site);
    let reference = format!("claim:{id}");
    let (applied, mail) =
        create::confirm_with_credit(&mut tx, &ctx, &booking, &user.user_id, &reference).await?;
    match applied {
        Applied::Yes => {}
        Applied::Insufficient | Applied::NoAccount => {
            return Err(AppError::Conflict("Insufficient Credits".into()));
        }
        Applied::AlreadyApplied => return Err(not_found()),
    }
    enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    Ok(Json(session_by_id(&state, id).await?))
}

/// "This wasn't me": the booking leaves this client's dashboard and waits for the admin. No
/// credit moves. Sent again, it answers the same.
#[utoipa::path(post, path = "/api/bookings/{id}/disown", tag = "client", params(("id" = String, Path)),
    responses((status = 200, body = Status), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "Booking not found (or not booked with this client's email)")))]
pub async fn disown_booking(
    State(state): State<AppState>,
    user: AuthUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<Status>> {
    let mut tx = state.db.pool.begin().await?;
    let booking = booking_in_path(&mut tx, &state, &raw_id).await?;
    if !unassigned_match(&booking, &user) {
        return Err(not_found());
    }
    let site = state.site();
    change::disown(&mut tx, &state.context(&site), &booking).await?;
    tx.commit().await?;
    Ok(Json(Status { status: "disowned" }))
}
