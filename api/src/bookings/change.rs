//! What happens to a booking after it is made, besides a cancel: the admin waives a late
//! cancellation or marks a no-show, the clock completes it, a client disowns it or asks to
//! cancel it.

use chrono::{DateTime, Utc};
use sqlx::AnyConnection;

use super::{Context, Held, store};
use crate::domain::credits::{self, Applied};
use crate::domain::{BookingStatus, DomainError, ts};

/// Gives back the credit of a late cancellation by the client (or the invitee), once: the
/// credit stayed used because they cancelled less than 24 hours ahead.
pub async fn waive(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    booking: &Held,
) -> Result<(), DomainError> {
    let refused = DomainError::Conflict(
        "Only a late cancellation whose credit stayed used can be waived, once",
    );
    let late = booking.status == BookingStatus::Cancelled
        && booking.holds_credit()
        && booking.late_cancel_waived_at.is_none()
        && matches!(booking.cancelled_by.as_deref(), Some("client" | "invitee"));
    let Some(client) = booking.client_id.as_deref().filter(|_| late) else {
        return Err(refused);
    };
    let id = booking.id.as_str();
    let reference = format!("waive:{id}");
    if credits::refund_one(conn, ctx.backend, client, id, &reference).await? != Applied::Yes {
        return Err(refused);
    }
    store::set_waived(conn, id, ctx.now).await?;
    Ok(())
}

/// The client did not come: the credit stays used. Only a confirmed or completed booking.
pub async fn no_show(conn: &mut AnyConnection, id: &str) -> Result<(), DomainError> {
    if store::set_no_show(conn, id).await? {
        return Ok(());
    }
    Err(DomainError::Conflict(
        "Only confirmed or completed bookings can be marked as no-show",
    ))
}

/// Confirmed sessions that have ended become completed. Answers how many.
pub async fn complete_ended(
    conn: &mut AnyConnection,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    store::complete_ended(conn, now).await
}

/// "This wasn't me": the booking leaves the client's dashboard and waits for the admin. No
/// credit moves.
pub async fn disown(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    booking: &Held,
) -> Result<(), sqlx::Error> {
    store::set_disowned(conn, &booking.id, ctx.now).await?;
    tracing::info!(
        booking = booking.id,
        "a client said a booking with their email was not theirs"
    );
    Ok(())
}

/// The client asks to cancel a Calendly booking: marked before Calendly hears of it, since
/// its webhook (which calls this a host cancellation) may land before Calendly answers us and
/// must apply the client's rule. Answers when they asked (the first time counts).
pub async fn ask_to_cancel(
    conn: &mut AnyConnection,
    booking: &Held,
    at: DateTime<Utc>,
) -> Result<String, sqlx::Error> {
    let asked = booking
        .client_cancel_requested_at
        .clone()
        .unwrap_or_else(|| ts(at));
    store::set_cancel_request(conn, &booking.id, &asked).await?;
    Ok(asked)
}

/// Calendly refused the client's cancel: the booking stays as it was.
pub async fn withdraw_cancel(conn: &mut AnyConnection, id: &str) -> Result<(), sqlx::Error> {
    store::withdraw_cancel_request(conn, id).await
}
