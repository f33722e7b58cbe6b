//! The cancellation policy (content/legal/cancellation-policy.md): a session cancelled by the
//! client (on the dashboard, or as the invitee on Calendly's page) at least 24 hours before it
//! starts gives its credit back; later, the credit stays used unless the admin waives it, once.
//! A cancellation by the coach (the host) always gives the credit back. A reschedule is not a
//! cancellation: the credit moves with the booking.

use chrono::{DateTime, Duration, Utc};

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
