//! A booking's life, as `domain::credits` is the ledger's: every change a booking goes through
//! is one function here, and every SQL statement that writes the `bookings` table is in
//! [`store`].
//!
//! - made ([`create`]): from Calendly's webhook (with the reschedule that moves a credit and the
//!   tombstone of a cancel that came first), by phone in Booking Management, or confirmed from
//!   pending with a credit (the client's claim, the admin's Assign);
//! - cancelled ([`cancel`]): whoever asks (client, admin, host or invitee on Calendly), by the
//!   24-hour rule;
//! - changed afterwards ([`change`]): a late cancellation waived, a no-show, completed once it
//!   has ended, disowned ("This wasn't me"), a client's cancel asked for before Calendly hears.
//!
//! Each takes the caller's transaction and a [`Context`] (the database's dialect, the time, the
//! site's settings), never the application state, and returns what happened with the emails
//! to send as values: the caller queues them in the same transaction, so a rolled-back change
//! sends nothing. Talking to Calendly stays with the callers (routes, webhook), outside any
//! transaction.

pub mod cancel;
pub mod change;
pub mod create;
pub mod store;

use chrono::{DateTime, Utc};
use sqlx::AnyConnection;

use crate::domain::parse_ts;
use crate::email::invitation::Invitation;
use crate::email::templates::SessionDetails;

pub use crate::domain::{Context, Mail};
pub use store::Held;

/// The title of a session that has no notes or event name (the emails translate it).
pub use crate::email::locale::DEFAULT_TITLE;

/// Minutes a session lasts when nothing else says so (phone bookings, old rows without an end).
const DEFAULT_MINUTES: i64 = 60;

/// A booking's session in an email.
impl Context<'_> {
    /// A session's details for an email, with its first invitation (UID of its own,
    /// SEQUENCE 0; [`store`] loads the stored ones).
    pub fn details<'b>(
        &self,
        booking_id: &'b str,
        title: &'b str,
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        meet_link: Option<&'b str>,
    ) -> SessionDetails<'b> {
        SessionDetails {
            booking_id,
            title,
            start,
            end,
            meet_link,
            time_zone: self.site.time_zone,
            invitation: Invitation::new(
                booking_id,
                self.base_url,
                &self.site.name,
                &self.site.coach_email,
            ),
        }
    }

    /// A stored booking's details: its times as stored (60 minutes when no end was recorded)
    /// and its notes as the title. `None` when the stored start cannot be read.
    pub fn stored_details<'b>(&self, b: &'b Held) -> Option<SessionDetails<'b>> {
        let start = parse_ts(&b.session_date)?;
        let end = b
            .session_end
            .as_deref()
            .and_then(parse_ts)
            .unwrap_or(start + chrono::Duration::minutes(DEFAULT_MINUTES));
        let title = b.session_notes.as_deref().unwrap_or(DEFAULT_TITLE);
        Some(self.details(&b.id, title, start, end, b.google_meet_link.as_deref()))
    }
}

/// A client's email and name, to write to them.
pub async fn recipient(
    conn: &mut AnyConnection,
    client_id: &str,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query_as("SELECT email, full_name FROM profiles WHERE user_id = $1")
        .bind(client_id)
        .fetch_optional(conn)
        .await
}
