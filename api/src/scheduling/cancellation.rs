//! The cancellation policy (content/legal/cancellation-policy.md): a session cancelled by the
//! client (on the dashboard, or as the invitee on Calendly's page) at least 24 hours before it
//! starts gives its credit back; later, the credit stays used unless the admin waives it, once.
//! A cancellation by the coach (the host) always gives the credit back. A reschedule is not a
//! cancellation: the credit moves with the booking.
//!
//! [`cancel`] is the one way a booking is cancelled, whoever asks (the client on the dashboard,
//! the admin in Booking Management, the host or invitee on Calendly through its webhook): the
//! caller finds and locks the booking and talks to Calendly; this applies the rule, the credit
//! and the invitation, and returns the email to send as a value.

use chrono::{DateTime, Duration, Utc};
use sqlx::AnyConnection;

use crate::db::Backend;
use crate::domain::{BookingStatus, credits, now};
use crate::email::OutgoingEmail;
use crate::email::templates::{self, CancelCredit, SessionDetails};

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

/// A booking being cancelled, as its caller read it under the row's lock.
pub struct Cancelling<'a> {
    pub id: &'a str,
    pub client_id: Option<&'a str>,
    /// Whether the booking holds a credit (`bookings.credit_debited`).
    pub holds_credit: bool,
    pub start: DateTime<Utc>,
}

/// Who is told, and about which session.
pub struct Notice<'a> {
    pub site_name: &'a str,
    pub email: &'a str,
    pub name: &'a str,
    pub details: SessionDetails<'a>,
}

impl<'a> Notice<'a> {
    /// A notice when there is both someone to tell (email, name) and a session to name.
    pub fn to(
        site_name: &'a str,
        recipient: Option<&'a (String, String)>,
        details: Option<SessionDetails<'a>>,
    ) -> Option<Notice<'a>> {
        let ((email, name), details) = (recipient?, details?);
        Some(Notice {
            site_name,
            email,
            name,
            details,
        })
    }
}

/// What a cancellation did.
pub struct Cancellation {
    /// The credit came back to the client.
    pub refunded: bool,
    /// The cancellation email (with its invitation's CANCEL), when someone is to be told.
    pub mail: Option<OutgoingEmail>,
}

/// Cancels `booking`, cancelled `by` someone at `at`, in the caller's transaction: the credit
/// comes back by the rule ([`gives_credit_back`]; never on a reschedule, where it follows the
/// new booking), once, through the ledger's `cancel:{id}` reference, whichever path gets there
/// first; the invitation's SEQUENCE moves on and the email says what became of the credit.
pub async fn cancel(
    conn: &mut AnyConnection,
    backend: Backend,
    booking: &Cancelling<'_>,
    by: CancelledBy,
    at: DateTime<Utc>,
    rescheduled: bool,
    notice: Option<Notice<'_>>,
) -> Result<Cancellation, sqlx::Error> {
    let refunded = booking.holds_credit && !rescheduled && gives_credit_back(by, booking.start, at);
    sqlx::query(
        "UPDATE bookings SET status = $1, cancelled_at = $2, credit_debited = $3, cancelled_by = $4 WHERE id = $5",
    )
    .bind(BookingStatus::Cancelled.as_str())
    .bind(now())
    .bind(i64::from(booking.holds_credit && !refunded))
    .bind((!rescheduled).then_some(by.as_str()))
    .bind(booking.id)
    .execute(&mut *conn)
    .await?;
    if refunded && let Some(client) = booking.client_id {
        credits::refund_one(
            conn,
            backend,
            client,
            booking.id,
            &format!("cancel:{}", booking.id),
        )
        .await?;
    }
    let mut mail = None;
    if let Some(mut notice) = notice {
        notice.details.invitation.advance(conn, booking.id).await?;
        let credit = match (booking.holds_credit, refunded) {
            (_, true) => CancelCredit::Returned,
            (true, false) => CancelCredit::KeptLate,
            (false, false) => CancelCredit::NoneHeld,
        };
        mail = Some(templates::booking_cancellation(
            notice.site_name,
            notice.email,
            notice.name,
            &notice.details,
            credit,
        ));
    }
    tracing::info!(
        booking = booking.id,
        by = by.as_str(),
        rescheduled,
        credit_returned = refunded,
        "booking cancelled"
    );
    Ok(Cancellation { refunded, mail })
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
