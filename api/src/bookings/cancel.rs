//! The cancellation policy (content/legal/cancellation-policy.md): a session cancelled by the
//! client (on the dashboard, or as the invitee on Calendly's page) at least 24 hours before it
//! starts gives its credit back; later, the credit stays used unless the admin waives it, once.
//! A cancellation by the coach (the host) always gives the credit back. A reschedule is not a
//! cancellation: the credit moves with the booking.
//!
//! [`cancel`] is the one way a booking is cancelled, whoever asks: [`by_client`] (the
//! dashboard), [`by_admin`] (Booking Management), [`by_calendly`] (the host or the invitee on
//! Calendly, through its webhook). The caller locks the booking (`store::hold`) and talks to
//! Calendly; this applies the rule, the credit and the invitation, and returns the email to
//! send as a value.

use chrono::{DateTime, Duration, Utc};
use sqlx::AnyConnection;

use super::{Context, Held, Mail, recipient, store};
use crate::domain::accounts::language_for;
use crate::domain::{BookingStatus, credits, parse_ts};
use crate::email::templates::{self, CancelCredit};

/// How long before the start a client may cancel and get the credit back.
pub const FREE_CANCELLATION_HOURS: i64 = 24;

/// Who cancelled, as stored in `bookings.cancelled_by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CancelledBy {
    /// The client, from the dashboard.
    Client,
    /// The invitee, on Calendly's cancellation page.
    Invitee,
    /// The coach: in Calendly, or in Booking Management.
    Host,
}

impl CancelledBy {
    pub fn as_str(self) -> &'static str {
        match self {
            CancelledBy::Client => "client",
            CancelledBy::Invitee => "invitee",
            CancelledBy::Host => "host",
        }
    }

    /// Calendly's `canceler_type` (`host` or `invitee`). Anything else (absent, unknown) is
    /// taken as the host's: the client is never charged on a guess.
    pub fn from_calendly(canceler_type: Option<&str>) -> CancelledBy {
        match canceler_type {
            Some("invitee") => CancelledBy::Invitee,
            _ => CancelledBy::Host,
        }
    }
}

/// Whether a cancellation by `by` at `at` of a session starting at `start` gives the credit back.
pub fn gives_credit_back(by: CancelledBy, start: DateTime<Utc>, at: DateTime<Utc>) -> bool {
    by == CancelledBy::Host || start - at >= Duration::hours(FREE_CANCELLATION_HOURS)
}

/// What a cancellation did.
pub struct Cancellation {
    /// The credit came back to the client.
    pub refunded: bool,
    /// The cancellation email (with its invitation's CANCEL), when someone is to be told.
    pub mail: Mail,
}

/// Nothing happened (the booking was cancelled already, by another path that got there first).
const NOTHING: Cancellation = Cancellation {
    refunded: false,
    mail: Vec::new(),
};

/// Cancels `booking`, cancelled `by` someone at `at`, in the caller's transaction: the credit
/// comes back by the rule ([`gives_credit_back`]; never on a reschedule, where it follows the
/// new booking), once, through the ledger's `cancel:{id}` reference, whichever path gets there
/// first; the invitation's SEQUENCE moves on and the email to `to` (email, name) says what
/// became of the credit.
pub async fn cancel(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    booking: &Held,
    by: CancelledBy,
    at: DateTime<Utc>,
    rescheduled: bool,
    to: Option<&(String, String)>,
) -> Result<Cancellation, sqlx::Error> {
    let id = booking.id.as_str();
    let holds = booking.holds_credit();
    let start = parse_ts(&booking.session_date).unwrap_or(ctx.now);
    let refunded = holds && !rescheduled && gives_credit_back(by, start, at);
    let by_text = (!rescheduled).then_some(by.as_str());
    store::set_cancelled(conn, id, holds && !refunded, by_text, ctx.now).await?;
    if refunded && let Some(client) = &booking.client_id {
        credits::refund_one(conn, ctx.backend, client, id, &format!("cancel:{id}")).await?;
    }
    let mut mail = Vec::new();
    if let (Some((email, name)), Some(mut details)) = (to, ctx.stored_details(booking)) {
        details.meet_link = None;
        store::advance_invitation(conn, &mut details.invitation, id).await?;
        let credit = match (holds, refunded) {
            (_, true) => CancelCredit::Returned,
            (true, false) => CancelCredit::KeptLate,
            (false, false) => CancelCredit::NoneHeld,
        };
        // The client's language, or the invitee's account's, or the default.
        let lang = language_for(conn, booking.client_id.as_deref(), email).await?;
        mail.push(templates::booking_cancellation(
            lang,
            &ctx.site.name,
            email,
            name,
            &details,
            credit,
        ));
    }
    tracing::info!(
        booking = id,
        by = by.as_str(),
        rescheduled,
        credit_returned = refunded,
        "booking cancelled"
    );
    Ok(Cancellation { refunded, mail })
}

/// What an admin may cancel: a confirmed booking, or one that needs attention.
pub const ADMIN_CANCELLABLE: [BookingStatus; 2] =
    [BookingStatus::Confirmed, BookingStatus::Pending];

/// The coach cancels in Booking Management: the credit always comes back. The client is told
/// (or, for a booking that names no client, the invitee). A booking that is no longer
/// cancellable (Calendly's own webhook got there first) is left as it is.
pub async fn by_admin(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    booking: &Held,
) -> Result<Cancellation, sqlx::Error> {
    if !ADMIN_CANCELLABLE.contains(&booking.status) {
        return Ok(NOTHING);
    }
    let to = match &booking.client_id {
        Some(client) => recipient(conn, client).await?,
        None => booking.invitee_email.clone().map(|e| (e, String::new())),
    };
    cancel(
        conn,
        ctx,
        booking,
        CancelledBy::Host,
        ctx.now,
        false,
        to.as_ref(),
    )
    .await
}

/// The client cancels their confirmed session from the dashboard, as of when they asked.
pub async fn by_client(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    booking: &Held,
    asked_at: DateTime<Utc>,
) -> Result<Cancellation, sqlx::Error> {
    let Some(client) = &booking.client_id else {
        return Ok(NOTHING);
    };
    let to = recipient(conn, client).await?;
    cancel(
        conn,
        ctx,
        booking,
        CancelledBy::Client,
        asked_at,
        false,
        to.as_ref(),
    )
    .await
}

/// What Calendly's cancel webhook says.
pub struct CalendlyCancel<'a> {
    /// `host` or `invitee`.
    pub canceler_type: Option<&'a str>,
    /// When it was cancelled at Calendly, for the 24-hour rule.
    pub cancelled_at: Option<DateTime<Utc>>,
    /// A reschedule: the credit stays until the new booking takes it, and the new booking
    /// takes over the invitation (no cancellation email).
    pub rescheduled: bool,
    /// The invitee's email and name, who is told.
    pub invitee: &'a (String, String),
}

/// Calendly says the event was cancelled, by its host or its invitee. Calendly reports our own
/// API cancellation as the host's: a booking the client is cancelling from the dashboard
/// follows the client's rule, at the time they asked.
pub async fn by_calendly(
    conn: &mut AnyConnection,
    ctx: &Context<'_>,
    booking: &Held,
    event: &CalendlyCancel<'_>,
) -> Result<Cancellation, sqlx::Error> {
    if booking.status == BookingStatus::Cancelled {
        return Ok(NOTHING);
    }
    let asked = booking
        .client_cancel_requested_at
        .as_deref()
        .and_then(parse_ts);
    let (by, at) = match asked {
        Some(asked) => (CancelledBy::Client, asked),
        None => (
            CancelledBy::from_calendly(event.canceler_type),
            event.cancelled_at.unwrap_or(ctx.now),
        ),
    };
    let to = (!event.rescheduled).then_some(event.invitee);
    cancel(conn, ctx, booking, by, at, event.rescheduled, to).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn exactly_24_hours_ahead_is_still_free_and_a_second_later_is_not() {
        let start = at("2026-12-10T15:00:00Z");
        let client = CancelledBy::Client;
        assert!(gives_credit_back(client, start, at("2026-12-09T15:00:00Z")));
        assert!(!gives_credit_back(
            client,
            start,
            at("2026-12-09T15:00:01Z")
        ));
        assert!(!gives_credit_back(
            CancelledBy::Invitee,
            start,
            at("2026-12-10T14:00:00Z")
        ));
    }

    #[test]
    fn the_host_always_gives_the_credit_back_and_unknown_cancelers_count_as_host() {
        let start = at("2026-12-10T15:00:00Z");
        assert!(gives_credit_back(
            CancelledBy::Host,
            start,
            at("2026-12-10T14:59:00Z")
        ));
        assert_eq!(CancelledBy::from_calendly(None), CancelledBy::Host);
        assert_eq!(
            CancelledBy::from_calendly(Some("invitee")),
            CancelledBy::Invitee
        );
    }
}
