//! Applying Calendly's webhooks (docs/integrations.md §2.4, §2.8) to bookings and credits, each in one
//! transaction together with the `webhook_events` row that makes a redelivery a no-op.
//!
//! - `invitee.created`: the client is the one named by the signed reference in `utm_content`
//!   (docs/ARCHITECTURE.md, decision 7). An email typed into the scheduling form proves nothing, so it
//!   never picks a client. A reschedule (`old_invitee`) takes over the old booking's credit;
//!   otherwise one credit is debited. Without a valid reference, or without a credit, the
//!   booking is pending ("Needs attention"), no credit moves and the coach is told: the admin
//!   assigns or cancels it, or the client whose confirmed account email is the invitee's uses
//!   a credit for it (or says it was not them) on the dashboard.
//! - `invitee.canceled`: cancelled; the credit comes back by the cancellation policy
//!   (`cancellation`: the host's always, the invitee's at least 24 hours ahead), never on a
//!   reschedule (the credit follows the new booking). A cancel that arrives before its create leaves a tombstone, so
//!   the late create changes nothing.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::AnyConnection;

use super::cancellation::{CancelledBy, Cancelling, Notice, cancel};
use crate::domain::credits::{self, Applied};
use crate::domain::{BookingStatus, new_id, now, parse_ts, ts};
use crate::email::{OutgoingEmail, enqueue, templates};
use crate::providers::calendly::verify_client_reference;
use crate::state::AppState;

/// Why a booking without a valid signed reference waits for the admin (the coach's email).
const NO_PROOF: &str = "it was booked without the client reference of /book-session, so nothing proves who the client is and no credit was used; assign it to a client or cancel it in Booking Management";

#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Duplicate,
    Ignored(&'static str),
    Confirmed,
    Pending(&'static str),
    Cancelled {
        refunded: bool,
    },
    /// The cancel arrived first; this create found its tombstone.
    AlreadyCancelled,
    Rescheduled,
}

struct Invitee<'a> {
    uri: &'a str,
    email: String,
    name: String,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    event_uri: Option<&'a str>,
    event_name: Option<&'a str>,
    meet_link: Option<&'a str>,
    cancel_url: Option<&'a str>,
    reschedule_url: Option<&'a str>,
    utm_content: Option<&'a str>,
    /// `host` or `invitee`, from `payload.cancellation` or the event's (same shape).
    canceler_type: Option<&'a str>,
    /// When it was cancelled at Calendly, for the 24-hour rule.
    cancelled_at: Option<DateTime<Utc>>,
}

fn read(payload: &Value) -> Option<Invitee<'_>> {
    let event = &payload["scheduled_event"];
    let start = parse_ts(event["start_time"].as_str()?)?;
    let end = event["end_time"]
        .as_str()
        .and_then(parse_ts)
        .unwrap_or(start + chrono::Duration::minutes(60));
    let location = &event["location"];
    let cancellation = if payload["cancellation"].is_object() {
        &payload["cancellation"]
    } else {
        &event["cancellation"]
    };
    Some(Invitee {
        uri: payload["uri"].as_str()?,
        email: payload["email"]
            .as_str()
            .unwrap_or_default()
            .trim()
            .to_lowercase(),
        name: payload["name"].as_str().unwrap_or_default().to_string(),
        start,
        end,
        event_uri: event["uri"].as_str().or(payload["event"].as_str()),
        event_name: event["name"].as_str(),
        meet_link: (location["type"].as_str() == Some("google_conference"))
            .then(|| location["join_url"].as_str())
            .flatten(),
        cancel_url: payload["cancel_url"].as_str(),
        reschedule_url: payload["reschedule_url"].as_str(),
        utm_content: payload["tracking"]["utm_content"].as_str(),
        canceler_type: cancellation["canceler_type"].as_str(),
        cancelled_at: cancellation["created_at"].as_str().and_then(parse_ts),
    })
}

/// The client this invitee is, when the signed reference proves it; nobody otherwise.
async fn find_client(
    conn: &mut AnyConnection,
    state: &AppState,
    inv: &Invitee<'_>,
) -> Result<Option<(String, String)>, sqlx::Error> {
    if let Some(user_id) = inv
        .utm_content
        .and_then(|r| verify_client_reference(state.config.app_secret.expose(), r))
    {
        // A deactivated account's own link proves who booked but spends nothing: the booking
        // waits for the admin like one without proof.
        return sqlx::query_as(
            "SELECT p.user_id, p.full_name FROM profiles p
               JOIN client_accounts a ON a.user_id = p.user_id
               JOIN users u ON u.id = p.user_id
              WHERE p.user_id = $1 AND u.deactivated_at IS NULL",
        )
        .bind(&user_id)
        .fetch_optional(&mut *conn)
        .await;
    }
    Ok(None)
}

pub fn session_details<'a>(
    state: &AppState,
    booking_id: &'a str,
    title: &'a str,
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    meet_link: Option<&'a str>,
) -> templates::SessionDetails<'a> {
    templates::SessionDetails {
        booking_id,
        title,
        start,
        end,
        meet_link,
        time_zone: state.site().time_zone,
        invitation: crate::email::invitation::Invitation::new(
            booking_id,
            &state.config.public_base_url,
            &state.site().name,
            &state.site().coach_email,
        ),
    }
}

/// The title of a session that has no notes or event name.
pub const DEFAULT_TITLE: &str = "Coaching Session";

/// A stored booking's details for an email: its times as stored (60 minutes when no end was
/// recorded) and its notes as the title. `None` when the stored start cannot be read.
pub fn stored_session_details<'a>(
    state: &AppState,
    booking_id: &'a str,
    session_date: &str,
    session_end: Option<&str>,
    notes: Option<&'a str>,
    meet_link: Option<&'a str>,
) -> Option<templates::SessionDetails<'a>> {
    let start = parse_ts(session_date)?;
    let end = session_end
        .and_then(parse_ts)
        .unwrap_or(start + chrono::Duration::minutes(60));
    let title = notes.unwrap_or(DEFAULT_TITLE);
    Some(session_details(
        state, booking_id, title, start, end, meet_link,
    ))
}

pub async fn apply(state: &AppState, body: &Value) -> anyhow::Result<Outcome> {
    let kind = body["event"].as_str().unwrap_or_default();
    let payload = &body["payload"];
    let Some(uri) = payload["uri"].as_str() else {
        return Ok(Outcome::Ignored("no invitee uri"));
    };
    if kind != "invitee.created" && kind != "invitee.canceled" {
        return Ok(Outcome::Ignored("not a booking event"));
    }
    let mut tx = state.db.pool.begin().await?;
    let fresh = sqlx::query("INSERT INTO webhook_events (id, provider, event_key, received_at) VALUES ($1, 'calendly', $2, $3) ON CONFLICT (provider, event_key) DO NOTHING")
        .bind(new_id())
        .bind(format!("{kind} {uri}"))
        .bind(now())
        .execute(&mut *tx)
        .await?;
    if fresh.rows_affected() == 0 {
        return Ok(Outcome::Duplicate);
    }
    let Some(inv) = read(payload) else {
        return Ok(Outcome::Ignored("no scheduled event times"));
    };
    let mut mail: Vec<OutgoingEmail> = Vec::new();
    let outcome = if kind == "invitee.created" {
        created(
            &mut tx,
            state,
            &inv,
            payload["old_invitee"].as_str(),
            &mut mail,
        )
        .await?
    } else {
        canceled(
            &mut tx,
            state,
            &inv,
            payload["rescheduled"].as_bool().unwrap_or(false),
            &mut mail,
        )
        .await?
    };
    for m in &mail {
        enqueue(&mut tx, m).await?;
    }
    tx.commit().await?;
    if !mail.is_empty() {
        state.mail_wake.notify_one();
    }
    Ok(outcome)
}

/// What a webhook needs to know of the booking it is about.
#[derive(sqlx::FromRow)]
struct BookingRow {
    id: String,
    client_id: Option<String>,
    #[sqlx(try_from = "String")]
    status: BookingStatus,
    credit_debited: i64,
    disowned_at: Option<String>,
    /// The lot its credit came from (a reschedule carries it to the new booking).
    credit_lot_id: Option<String>,
    client_cancel_requested_at: Option<String>,
}

/// The booking of an invitee, locked until the transaction ends: an admin's cancel (or another
/// webhook) that changes it meanwhile waits, so a credit is never refunded or moved twice.
async fn booking_by_invitee(
    conn: &mut AnyConnection,
    state: &AppState,
    uri: &str,
) -> Result<Option<BookingRow>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT id, client_id, status, credit_debited, disowned_at, credit_lot_id, client_cancel_requested_at FROM bookings WHERE calendly_invitee_uri = $1{}",
        state.db.backend.for_update()
    ))
    .bind(uri)
    .fetch_optional(conn)
    .await
}

async fn created(
    tx: &mut AnyConnection,
    state: &AppState,
    inv: &Invitee<'_>,
    old_invitee: Option<&str>,
    mail: &mut Vec<OutgoingEmail>,
) -> anyhow::Result<Outcome> {
    if let Some(existing) = booking_by_invitee(tx, state, inv.uri).await? {
        return Ok(if existing.status == BookingStatus::Cancelled {
            Outcome::AlreadyCancelled
        } else {
            Outcome::Duplicate
        });
    }
    let client = find_client(tx, state, inv).await?;
    let booking_id = new_id();
    let title = inv.event_name.unwrap_or(DEFAULT_TITLE);
    // A reschedule takes the old booking's credit, whichever webhook came first. A booking
    // that held no credit moves nothing, but a client's "This wasn't me" stays with it.
    let mut disowned_at = None;
    let mut credit_lot = None;
    let moved = match old_invitee {
        Some(old) => match booking_by_invitee(tx, state, old).await? {
            Some(old) if old.credit_debited == 1 => {
                credit_lot = old.credit_lot_id.clone();
                sqlx::query("UPDATE bookings SET credit_debited = 0, status = 'cancelled', cancelled_at = COALESCE(cancelled_at, $1) WHERE id = $2")
                    .bind(now())
                    .bind(&old.id)
                    .execute(&mut *tx)
                    .await?;
                Some(old.client_id)
            }
            Some(old) => {
                disowned_at = old.disowned_at;
                None
            }
            None => None,
        },
        None => None,
    };
    let (client_id, status, debited, outcome) = match (moved, &client) {
        (Some(old_client), _) => (
            old_client.or(client.as_ref().map(|c| c.0.clone())),
            "confirmed",
            1,
            Outcome::Rescheduled,
        ),
        (None, Some((user_id, _))) => {
            let reference = format!("calendly:{}", inv.uri);
            match credits::debit_one(tx, state.db.backend, user_id, &reference).await? {
                Applied::Yes | Applied::AlreadyApplied => {
                    credit_lot = credits::lot_of(tx, &reference).await?;
                    (Some(user_id.clone()), "confirmed", 1, Outcome::Confirmed)
                }
                Applied::Insufficient | Applied::NoAccount => (
                    Some(user_id.clone()),
                    "pending",
                    0,
                    Outcome::Pending(
                        "the client has no credit available, so none was used; assign it once they have one, or cancel it",
                    ),
                ),
            }
        }
        (None, None) => (None, "pending", 0, Outcome::Pending(NO_PROOF)),
    };
    sqlx::query(
        "INSERT INTO bookings (id, client_id, session_date, session_end, status, created_at, google_meet_link, session_notes, source,
                               credit_debited, invitee_email, invitee_name, calendly_event_uri, calendly_invitee_uri, cancel_url, reschedule_url, disowned_at,
                               credit_lot_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'calendly', $9, $10, $11, $12, $13, $14, $15, $16, $17)",
    )
    .bind(&booking_id)
    .bind(&client_id)
    .bind(ts(inv.start))
    .bind(ts(inv.end))
    .bind(status)
    .bind(now())
    .bind(inv.meet_link)
    .bind(title)
    .bind(debited)
    .bind(&inv.email)
    .bind(&inv.name)
    .bind(inv.event_uri)
    .bind(inv.uri)
    .bind(inv.cancel_url)
    .bind(inv.reschedule_url)
    .bind(&disowned_at)
    // The lot its credit came from (a cancel gives it back there), written with the row.
    .bind(credit_lot.as_deref())
    .execute(&mut *tx)
    .await?;
    let mut details = session_details(state, &booking_id, title, inv.start, inv.end, inv.meet_link);
    if let Some(old) = old_invitee {
        // The rescheduled event keeps its UID in the client's calendar, with the next SEQUENCE.
        details.invitation.take_over(tx, &booking_id, old).await?;
    }
    match &outcome {
        Outcome::Pending(reason) => {
            let when = details
                .start
                .with_timezone(&state.site().time_zone)
                .format("%b %d, %Y %H:%M")
                .to_string();
            let who = format!("{} <{}>", inv.name, inv.email);
            mail.push(templates::booking_needs_attention(
                &state.site().name,
                &state.site().coach_email,
                &who,
                &when,
                reason,
                &format!("{}/admin", state.config.public_base_url),
            ));
        }
        _ => {
            let name = client
                .as_ref()
                .map(|c| c.1.clone())
                .unwrap_or_else(|| inv.name.clone());
            mail.push(templates::booking_confirmation(
                &state.site().name,
                &inv.email,
                &name,
                &details,
            ));
        }
    }
    tracing::info!(booking_id, ?outcome, "Calendly booking recorded");
    Ok(outcome)
}

async fn canceled(
    tx: &mut AnyConnection,
    state: &AppState,
    inv: &Invitee<'_>,
    rescheduled: bool,
    mail: &mut Vec<OutgoingEmail>,
) -> anyhow::Result<Outcome> {
    let now = now();
    let Some(BookingRow {
        id,
        client_id,
        status,
        credit_debited: debited,
        client_cancel_requested_at,
        ..
    }) = booking_by_invitee(tx, state, inv.uri).await?
    else {
        // The cancel came first: a tombstone, so the late create is recognised.
        let client = find_client(tx, state, inv).await?;
        sqlx::query(
            "INSERT INTO bookings (id, client_id, session_date, session_end, status, created_at, cancelled_at, session_notes, source,
                                   credit_debited, invitee_email, invitee_name, calendly_event_uri, calendly_invitee_uri)
             VALUES ($1, $2, $3, $4, 'cancelled', $5, $5, $6, 'calendly', 0, $7, $8, $9, $10)",
        )
        .bind(new_id())
        .bind(client.map(|c| c.0))
        .bind(ts(inv.start))
        .bind(ts(inv.end))
        .bind(&now)
        .bind(inv.event_name.unwrap_or(DEFAULT_TITLE))
        .bind(&inv.email)
        .bind(&inv.name)
        .bind(inv.event_uri)
        .bind(inv.uri)
        .execute(&mut *tx)
        .await?;
        return Ok(Outcome::Cancelled { refunded: false });
    };
    if status == BookingStatus::Cancelled {
        return Ok(Outcome::Cancelled { refunded: false });
    }
    // Calendly reports our own API cancellation as the host's: a booking the client is
    // cancelling from the dashboard follows the client's rule, at the time they asked.
    let (by, at) = match client_cancel_requested_at.as_deref().and_then(parse_ts) {
        Some(asked) => (CancelledBy::Client, asked),
        None => (
            CancelledBy::from_calendly(inv.canceler_type),
            inv.cancelled_at.unwrap_or_else(Utc::now),
        ),
    };
    // A reschedule keeps the credit on this booking until the new booking takes it, and its
    // invitation is taken over by the new booking (no cancellation email).
    let site = state.site();
    let notice = (!rescheduled).then(|| Notice {
        site_name: &site.name,
        email: &inv.email,
        name: &inv.name,
        details: session_details(
            state,
            &id,
            inv.event_name.unwrap_or(DEFAULT_TITLE),
            inv.start,
            inv.end,
            None,
        ),
    });
    let booking = Cancelling {
        id: &id,
        client_id: client_id.as_deref(),
        holds_credit: debited == 1,
        start: inv.start,
    };
    let done = cancel(tx, state.db.backend, &booking, by, at, rescheduled, notice).await?;
    let refund = done.refunded;
    mail.extend(done.mail);
    Ok(Outcome::Cancelled { refunded: refund })
}

/// Records which lot a booking's credit came from, so a cancel gives it back there.
pub async fn remember_credit_lot(
    conn: &mut AnyConnection,
    booking_id: &str,
    lot_id: Option<&str>,
) -> Result<(), sqlx::Error> {
    if lot_id.is_some() {
        sqlx::query("UPDATE bookings SET credit_lot_id = $1 WHERE id = $2")
            .bind(lot_id)
            .bind(booking_id)
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// A booking as the admin's Assign and the client's claim see it, locked until the
/// transaction ends (an admin and a client confirming it at once: the second waits, then
/// finds it confirmed).
#[derive(sqlx::FromRow)]
pub struct HeldBooking {
    pub id: String,
    pub client_id: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: BookingStatus,
    pub credit_debited: i64,
    pub invitee_email: Option<String>,
    pub disowned_at: Option<String>,
    session_date: String,
    session_end: Option<String>,
    session_notes: Option<String>,
    google_meet_link: Option<String>,
}

pub async fn hold_booking(
    conn: &mut AnyConnection,
    state: &AppState,
    id: &str,
) -> Result<Option<HeldBooking>, sqlx::Error> {
    sqlx::query_as(&format!(
        "SELECT id, client_id, status, credit_debited, invitee_email, disowned_at, session_date, session_end, session_notes, google_meet_link
           FROM bookings WHERE id = $1{}",
        state.db.backend.for_update()
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Uses one of `client_id`'s credits for a pending booking (`reference` makes a replay a
/// no-op) and, when it is used, makes the booking that client's, confirmed, and queues their
/// confirmation email. Nothing changes unless the answer is `Applied::Yes`.
pub async fn confirm_with_credit(
    conn: &mut AnyConnection,
    state: &AppState,
    booking: &HeldBooking,
    client_id: &str,
    reference: &str,
) -> Result<Applied, sqlx::Error> {
    debug_assert_eq!(booking.status, BookingStatus::Pending);
    let applied = credits::debit_one(conn, state.db.backend, client_id, reference).await?;
    if applied != Applied::Yes {
        return Ok(applied);
    }
    let lot = credits::lot_of(conn, reference).await?;
    remember_credit_lot(conn, &booking.id, lot.as_deref()).await?;
    sqlx::query(
        "UPDATE bookings SET status = $1, client_id = $2, credit_debited = 1, disowned_at = NULL WHERE id = $3",
    )
    .bind(BookingStatus::Confirmed.as_str())
    .bind(client_id)
    .bind(&booking.id)
    .execute(&mut *conn)
    .await?;
    let recipient: Option<(String, String)> =
        sqlx::query_as("SELECT email, full_name FROM profiles WHERE user_id = $1")
            .bind(client_id)
            .fetch_optional(&mut *conn)
            .await?;
    let details = stored_session_details(
        state,
        &booking.id,
        &booking.session_date,
        booking.session_end.as_deref(),
        booking.session_notes.as_deref(),
        booking.google_meet_link.as_deref(),
    );
    if let (Some((email, name)), Some(mut details)) = (recipient, details) {
        details.invitation.load(conn, &booking.id).await?;
        let mail = templates::booking_confirmation(&state.site().name, &email, &name, &details);
        enqueue(conn, &mail).await?;
    }
    Ok(Applied::Yes)
}
