//! Applying Calendly's webhooks (docs/integrations.md §2.4, §2.8) to bookings, each in one
//! transaction together with the `webhook_events` row that makes a redelivery a no-op. This is
//! the adapter: it reads Calendly's payload and proves who the client is; what happens to the
//! booking and its credit is `bookings`'.
//!
//! - `invitee.created`: the client is the one named by the signed reference in `utm_content`
//!   (docs/ARCHITECTURE.md, decision 7). An email typed into the scheduling form proves nothing, so it
//!   never picks a client. A reschedule (`old_invitee`) takes over the old booking's credit;
//!   otherwise one credit is debited. Without a valid reference, or without a credit, the
//!   booking is pending ("Needs attention"), no credit moves and the coach is told: the admin
//!   assigns or cancels it, or the client whose confirmed account email is the invitee's uses
//!   a credit for it (or says it was not them) on the dashboard.
//! - `invitee.canceled`: cancelled; the credit comes back by the cancellation policy
//!   (`bookings::cancel`: the host's always, the invitee's at least 24 hours ahead), never on a
//!   reschedule (the credit follows the new booking). A cancel that arrives before its create
//!   leaves a tombstone, so the late create changes nothing.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::AnyConnection;

use crate::bookings::cancel::{CalendlyCancel, by_calendly};
use crate::bookings::create::{Invitee, ProvenClient, from_calendly, tombstone};
use crate::bookings::{Context, store};
use crate::domain::{new_id, now, parse_ts};
use crate::email::enqueue_all;
use crate::providers::calendly::verify_client_reference;
use crate::state::AppState;

pub use crate::bookings::create::Outcome;

/// What a webhook's payload says, beyond the booking itself.
struct Payload<'a> {
    invitee: Invitee<'a>,
    utm_content: Option<&'a str>,
    /// `host` or `invitee`, from `payload.cancellation` or the event's (same shape).
    canceler_type: Option<&'a str>,
    /// When it was cancelled at Calendly, for the 24-hour rule.
    cancelled_at: Option<DateTime<Utc>>,
}

fn read(payload: &Value) -> Option<Payload<'_>> {
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
    let invitee = Invitee {
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
    };
    Some(Payload {
        invitee,
        utm_content: payload["tracking"]["utm_content"].as_str(),
        canceler_type: cancellation["canceler_type"].as_str(),
        cancelled_at: cancellation["created_at"].as_str().and_then(parse_ts),
    })
}

/// The client this invitee is, when the signed reference proves it; nobody otherwise.
async fn find_client(
    conn: &mut AnyConnection,
    state: &AppState,
    utm_content: Option<&str>,
) -> Result<Option<ProvenClient>, sqlx::Error> {
    let secret = state.config.app_secret.expose();
    let Some(user_id) = utm_content.and_then(|r| verify_client_reference(secret, r)) else {
        return Ok(None);
    };
    // A deactivated account's own link proves who booked but spends nothing: the booking
    // waits for the admin like one without proof.
    sqlx::query_as(
        "SELECT p.user_id, p.full_name FROM profiles p
           JOIN client_accounts a ON a.user_id = p.user_id
           JOIN users u ON u.id = p.user_id
          WHERE p.user_id = $1 AND u.deactivated_at IS NULL",
    )
    .bind(&user_id)
    .fetch_optional(&mut *conn)
    .await
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
    let Some(p) = read(payload) else {
        return Ok(Outcome::Ignored("no scheduled event times"));
    };
    let site = state.site();
    let ctx = state.context(&site);
    let (outcome, mail) = if kind == "invitee.created" {
        let client = find_client(&mut tx, state, p.utm_content).await?;
        let old = payload["old_invitee"].as_str();
        from_calendly(&mut tx, &ctx, &p.invitee, client.as_ref(), old).await?
    } else {
        let rescheduled = payload["rescheduled"].as_bool().unwrap_or(false);
        canceled(&mut tx, state, &ctx, &p, rescheduled).await?
    };
    enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    Ok(outcome)
}

async fn canceled(
    tx: &mut AnyConnection,
    state: &AppState,
    ctx: &Context<'_>,
    p: &Payload<'_>,
    rescheduled: bool,
) -> anyhow::Result<(Outcome, crate::bookings::Mail)> {
    let inv = &p.invitee;
    let Some(booking) = store::hold_invitee(tx, ctx.backend, inv.uri).await? else {
        // The cancel came first: a tombstone, so the late create is recognised.
        let client = find_client(tx, state, p.utm_content).await?;
        tombstone(tx, ctx, inv, client.as_ref().map(|c| c.0.as_str())).await?;
        return Ok((Outcome::Cancelled { refunded: false }, Vec::new()));
    };
    let invitee = (inv.email.clone(), inv.name.clone());
    let event = CalendlyCancel {
        canceler_type: p.canceler_type,
        cancelled_at: p.cancelled_at,
        rescheduled,
        invitee: &invitee,
    };
    let done = by_calendly(tx, ctx, &booking, &event).await?;
    Ok((
        Outcome::Cancelled {
            refunded: done.refunded,
        },
        done.mail,
    ))
}
