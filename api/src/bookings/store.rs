//! Every statement that writes the `bookings` table, and the locked reads the changes start
//! from. The functions of `create`, `cancel` and `change` decide; these only write.

use chrono::{DateTime, Utc};
use sqlx::AnyConnection;

use crate::db::Backend;
use crate::domain::{BookingSource, BookingStatus, Language, ts};
use crate::email::invitation::Invitation;

/// A booking as its changes read it, locked until the transaction ends: an admin and a client
/// (or a webhook) changing it at once run one after the other, so a credit is never used,
/// moved or given back twice.
#[derive(sqlx_macros::FromRow)]
pub struct Held {
    pub id: String,
    pub client_id: Option<String>,
    pub status: BookingStatus,
    /// Whether it holds a credit (`credit_debited`).
    #[sqlx(rename = "credit_debited")]
    pub holds_credit: Bit,
    /// The lot its credit came from (a reschedule carries it to the new booking).
    pub credit_lot_id: Option<String>,
    pub session_date: String,
    pub session_end: Option<String>,
    pub session_notes: Option<String>,
    pub google_meet_link: Option<String>,
    pub invitee_email: Option<String>,
    pub calendly_event_uri: Option<String>,
    /// When the client whose email the invitee typed said "This wasn't me".
    pub disowned_at: Option<String>,
    /// When the client asked to cancel from the dashboard (before Calendly answered).
    pub client_cancel_requested_at: Option<String>,
    /// client, invitee or host, once cancelled.
    pub cancelled_by: Option<String>,
    pub late_cancel_waived_at: Option<String>,
}

/// A 0/1 column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bit(pub bool);

crate::db::column_via!(Bit, i64);

impl From<i64> for Bit {
    fn from(v: i64) -> Bit {
        Bit(v == 1)
    }
}

impl Held {
    pub fn holds_credit(&self) -> bool {
        self.holds_credit.0
    }
}

const HELD_COLUMNS: &str = "id, client_id, status, credit_debited, credit_lot_id, session_date, session_end, session_notes,
    google_meet_link, invitee_email, calendly_event_uri, disowned_at, client_cancel_requested_at, cancelled_by,
    late_cancel_waived_at";

/// The booking `id`, locked.
pub async fn hold(
    conn: &mut AnyConnection,
    backend: Backend,
    id: &str,
) -> Result<Option<Held>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {HELD_COLUMNS} FROM bookings WHERE id = $1{}",
        backend.for_update()
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// The booking of Calendly invitee `uri`, locked.
pub async fn hold_invitee(
    conn: &mut AnyConnection,
    backend: Backend,
    uri: &str,
) -> Result<Option<Held>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT {HELD_COLUMNS} FROM bookings WHERE calendly_invitee_uri = $1{}",
        backend.for_update()
    ))
    .bind(uri)
    .fetch_optional(conn)
    .await
}

/// What Calendly tells of a booking made on its scheduling page.
#[derive(Default, Clone, Copy)]
pub struct CalendlyRef<'a> {
    pub invitee_uri: &'a str,
    pub invitee_email: &'a str,
    pub invitee_name: &'a str,
    pub event_uri: Option<&'a str>,
    pub cancel_url: Option<&'a str>,
    pub reschedule_url: Option<&'a str>,
}

/// A booking to write, whichever way it was made.
pub struct NewBooking<'a> {
    pub id: &'a str,
    pub client_id: Option<&'a str>,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub status: BookingStatus,
    pub source: BookingSource,
    pub holds_credit: bool,
    /// The lot its credit came from, written with the row.
    pub credit_lot_id: Option<&'a str>,
    pub notes: Option<&'a str>,
    pub meet_link: Option<&'a str>,
    /// The admin who wrote a phone booking.
    pub created_by: Option<&'a str>,
    pub calendly: Option<CalendlyRef<'a>>,
    pub disowned_at: Option<&'a str>,
}

/// The one INSERT of a booking. A booking written cancelled (a phone booking recorded as
/// such, a cancel that came before its create) is cancelled as of now.
pub async fn insert(
    conn: &mut AnyConnection,
    b: &NewBooking<'_>,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    let now = ts(now);
    let calendly = b.calendly.unwrap_or_default();
    let text = |s: &str| (!s.is_empty()).then(|| s.to_string());
    sqlx::query(
        "INSERT INTO bookings (id, client_id, session_date, session_end, status, created_at, cancelled_at, google_meet_link,
                               session_notes, source, credit_debited, credit_lot_id, created_by, disowned_at,
                               invitee_email, invitee_name, calendly_event_uri, calendly_invitee_uri, cancel_url, reschedule_url)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)",
    )
    .bind(b.id)
    .bind(b.client_id)
    .bind(ts(b.start))
    .bind(ts(b.end))
    .bind(b.status.as_str())
    .bind(&now)
    .bind((b.status == BookingStatus::Cancelled).then_some(now.clone()))
    .bind(b.meet_link)
    .bind(b.notes)
    .bind(b.source.as_str())
    .bind(i64::from(b.holds_credit))
    .bind(b.credit_lot_id)
    .bind(b.created_by)
    .bind(b.disowned_at)
    .bind(b.calendly.map(|_| calendly.invitee_email.to_string()))
    .bind(b.calendly.map(|_| calendly.invitee_name.to_string()))
    .bind(calendly.event_uri)
    .bind(text(calendly.invitee_uri))
    .bind(calendly.cancel_url)
    .bind(calendly.reschedule_url)
    .execute(conn)
    .await?;
    Ok(())
}

/// Cancelled: `keeps_credit` says whether its credit stays used; `by` is who cancelled
/// (none for a reschedule, which is not a cancellation).
pub async fn set_cancelled(
    conn: &mut AnyConnection,
    id: &str,
    keeps_credit: bool,
    by: Option<&str>,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE bookings SET status = $1, cancelled_at = $2, credit_debited = $3, cancelled_by = $4 WHERE id = $5",
    )
    .bind(BookingStatus::Cancelled.as_str())
    .bind(ts(now))
    .bind(i64::from(keeps_credit))
    .bind(by)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// A rescheduled booking hands its credit to the booking that replaces it.
pub async fn hand_over_credit(
    conn: &mut AnyConnection,
    id: &str,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE bookings SET credit_debited = 0, status = $1, cancelled_at = COALESCE(cancelled_at, $2) WHERE id = $3",
    )
    .bind(BookingStatus::Cancelled.as_str())
    .bind(ts(now))
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// A pending booking becomes `client_id`'s, confirmed, holding a credit from `lot`.
pub async fn set_confirmed(
    conn: &mut AnyConnection,
    id: &str,
    client_id: &str,
    lot: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE bookings SET status = $1, client_id = $2, credit_debited = 1, disowned_at = NULL,
                             credit_lot_id = COALESCE($3, credit_lot_id)
          WHERE id = $4",
    )
    .bind(BookingStatus::Confirmed.as_str())
    .bind(client_id)
    .bind(lot)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// No-show, when it is confirmed or completed. Answers whether it changed.
pub async fn set_no_show(conn: &mut AnyConnection, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE bookings SET status = $1 WHERE id = $2 AND status IN ($3, $4)")
        .bind(BookingStatus::NoShow.as_str())
        .bind(id)
        .bind(BookingStatus::Confirmed.as_str())
        .bind(BookingStatus::Completed.as_str())
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Confirmed sessions whose end has passed become completed. Answers how many.
pub async fn complete_ended(
    conn: &mut AnyConnection,
    now: DateTime<Utc>,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE bookings SET status = $1 WHERE status = $2 AND COALESCE(session_end, session_date) < $3",
    )
    .bind(BookingStatus::Completed.as_str())
    .bind(BookingStatus::Confirmed.as_str())
    .bind(ts(now))
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// A confirmed session due for its reminder, with its client's address.
#[derive(sqlx_macros::FromRow)]
pub struct Due {
    #[sqlx(flatten)]
    pub booking: Held,
    pub email: String,
    pub full_name: String,
    /// The client's language, which the reminder is written in.
    pub language: Language,
}

/// Claims the reminders of confirmed sessions starting before `horizon` (each once: the row
/// is marked in the transaction that queues the email).
pub async fn claim_reminders(
    conn: &mut AnyConnection,
    now: DateTime<Utc>,
    horizon: DateTime<Utc>,
) -> Result<Vec<Due>, sqlx::Error> {
    sqlx::query_as(&format!(
        "UPDATE bookings SET reminder_sent_at = $1
          WHERE status = $3 AND reminder_sent_at IS NULL AND client_id IS NOT NULL
            AND session_date > $1 AND session_date <= $2
        RETURNING {HELD_COLUMNS},
                  (SELECT email FROM profiles p WHERE p.user_id = bookings.client_id) AS email,
                  (SELECT full_name FROM profiles p WHERE p.user_id = bookings.client_id) AS full_name,
                  (SELECT preferred_language FROM users u WHERE u.id = bookings.client_id) AS language"
    ))
    .bind(ts(now))
    .bind(ts(horizon))
    .bind(BookingStatus::Confirmed.as_str())
    .fetch_all(conn)
    .await
}

/// The meeting link Calendly created after its webhook, unless one is there already.
pub async fn fill_meet_link(
    conn: &mut AnyConnection,
    id: &str,
    link: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE bookings SET google_meet_link = $1 WHERE id = $2 AND google_meet_link IS NULL",
    )
    .bind(link)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A late cancellation's credit came back: waived, once.
pub async fn set_waived(
    conn: &mut AnyConnection,
    id: &str,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE bookings SET credit_debited = 0, late_cancel_waived_at = $1 WHERE id = $2")
        .bind(ts(now))
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// "This wasn't me" (the first time counts).
pub async fn set_disowned(
    conn: &mut AnyConnection,
    id: &str,
    now: DateTime<Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE bookings SET disowned_at = COALESCE(disowned_at, $1) WHERE id = $2")
        .bind(ts(now))
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The client asked to cancel at `at`: their rule applies, whoever Calendly says cancelled.
pub async fn set_cancel_request(
    conn: &mut AnyConnection,
    id: &str,
    at: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE bookings SET client_cancel_requested_at = $1 WHERE id = $2")
        .bind(at)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Calendly refused the client's cancel: the request of a still confirmed booking is withdrawn.
pub async fn withdraw_cancel_request(
    conn: &mut AnyConnection,
    id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE bookings SET client_cancel_requested_at = NULL WHERE id = $1 AND status = $2",
    )
    .bind(id)
    .bind(BookingStatus::Confirmed.as_str())
    .execute(conn)
    .await?;
    Ok(())
}

/// The stored UID and SEQUENCE of a booking's invitation, into `invitation`.
pub async fn load_invitation(
    conn: &mut AnyConnection,
    invitation: &mut Invitation,
    id: &str,
) -> Result<(), sqlx::Error> {
    let stored: Option<(String, i64)> =
        sqlx::query_as("SELECT COALESCE(ics_uid, id), ics_sequence FROM bookings WHERE id = $1")
            .bind(id)
            .fetch_optional(conn)
            .await?;
    invitation.set_stored(stored);
    Ok(())
}

/// One more change of a booking's invitation (a cancellation): the next SEQUENCE.
pub async fn advance_invitation(
    conn: &mut AnyConnection,
    invitation: &mut Invitation,
    id: &str,
) -> Result<(), sqlx::Error> {
    let stored: Option<(String, i64)> = sqlx::query_as(
        "UPDATE bookings SET ics_sequence = ics_sequence + 1 WHERE id = $1
         RETURNING COALESCE(ics_uid, id), ics_sequence",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?;
    invitation.set_stored(stored);
    Ok(())
}

/// A reschedule: booking `id` takes over the invitation UID of the booking of Calendly invitee
/// `old_invitee_uri`, with the next SEQUENCE, so calendars move the event. Nothing changes
/// when that booking is unknown.
pub async fn take_over_invitation(
    conn: &mut AnyConnection,
    invitation: &mut Invitation,
    id: &str,
    old_invitee_uri: &str,
) -> Result<(), sqlx::Error> {
    let stored: Option<(String, i64)> = sqlx::query_as(
        "UPDATE bookings
            SET ics_uid = (SELECT COALESCE(o.ics_uid, o.id) FROM bookings o WHERE o.calendly_invitee_uri = $2),
                ics_sequence = (SELECT o.ics_sequence + 1 FROM bookings o WHERE o.calendly_invitee_uri = $2)
          WHERE id = $1 AND EXISTS (SELECT 1 FROM bookings o WHERE o.calendly_invitee_uri = $2)
         RETURNING COALESCE(ics_uid, id), ics_sequence",
    )
    .bind(id)
    .bind(old_invitee_uri)
    .fetch_optional(conn)
    .await?;
    invitation.set_stored(stored);
    Ok(())
}
