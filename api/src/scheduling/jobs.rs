//! Every minute: confirmed sessions that have ended become completed; a reminder goes out once
//! for each confirmed session starting within 24 hours; and Calendly bookings still without a
//! Google Meet link get it from Calendly's API (the link often appears after the webhook).

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::Notify;

use super::bookings::stored_session_details;
use crate::domain::{now, ts};
use crate::email::{enqueue, templates};
use crate::state::AppState;

/// Confirmed sessions whose end has passed → completed. Returns how many.
pub async fn complete_past_sessions(state: &AppState) -> anyhow::Result<u64> {
    let now = now();
    let done = sqlx::query(
        "UPDATE bookings SET status = 'completed'
          WHERE status = 'confirmed' AND COALESCE(session_end, session_date) < $1",
    )
    .bind(&now)
    .execute(&state.db.pool)
    .await?;
    Ok(done.rows_affected())
}

/// A confirmed session due for its reminder, with its client's address.
#[derive(sqlx::FromRow)]
struct ReminderRow {
    id: String,
    session_date: String,
    session_end: Option<String>,
    google_meet_link: Option<String>,
    session_notes: Option<String>,
    email: String,
    full_name: String,
}

/// Sends each reminder exactly once: the row is claimed (reminder_sent_at set) in the same
/// transaction that queues the email, so a crash sends none rather than two.
pub async fn send_reminders(state: &AppState) -> anyhow::Result<usize> {
    let now_t = Utc::now();
    let (now, horizon) = (ts(now_t), ts(now_t + chrono::Duration::hours(24)));
    let mut tx = state.db.pool.begin().await?;
    let due: Vec<ReminderRow> = sqlx::query_as(
        "UPDATE bookings SET reminder_sent_at = $1
          WHERE status = 'confirmed' AND reminder_sent_at IS NULL AND client_id IS NOT NULL
            AND session_date > $1 AND session_date <= $2
        RETURNING id, session_date, session_end, google_meet_link, session_notes,
                  (SELECT email FROM profiles p WHERE p.user_id = bookings.client_id) AS email,
                  (SELECT full_name FROM profiles p WHERE p.user_id = bookings.client_id) AS full_name",
    )
    .bind(&now)
    .bind(&horizon)
    .fetch_all(&mut *tx)
    .await?;
    for row in &due {
        let Some(details) = stored_session_details(
            state,
            &row.id,
            &row.session_date,
            row.session_end.as_deref(),
            row.session_notes.as_deref(),
            row.google_meet_link.as_deref(),
        ) else {
            continue;
        };
        let mail =
            templates::booking_reminder(&state.site().name, &row.email, &row.full_name, &details);
        enqueue(&mut tx, &mail).await?;
    }
    tx.commit().await?;
    if !due.is_empty() {
        state.mail_wake.notify_one();
    }
    Ok(due.len())
}

/// Fills in Google Meet links that Calendly had not created yet when it sent the webhook.
pub async fn refresh_meeting_links(state: &AppState) -> anyhow::Result<usize> {
    let Some(calendly) = &state.calendly else {
        return Ok(0);
    };
    let since = ts(Utc::now() - chrono::Duration::days(2));
    let missing: Vec<(String, String)> = sqlx::query_as(
        "SELECT id, calendly_event_uri FROM bookings
          WHERE google_meet_link IS NULL AND calendly_event_uri IS NOT NULL AND status IN ('confirmed', 'pending')
            AND session_date > $1 AND created_at > $2 LIMIT 20",
    )
    .bind(now())
    .bind(&since)
    .fetch_all(&state.db.pool)
    .await?;
    let mut filled = 0;
    for (id, event_uri) in missing {
        match calendly.scheduled_event(&event_uri).await {
            Ok(event) => {
                let location = &event["location"];
                if location["type"].as_str() == Some("google_conference")
                    && let Some(link) = location["join_url"].as_str()
                {
                    sqlx::query("UPDATE bookings SET google_meet_link = $1 WHERE id = $2 AND google_meet_link IS NULL")
                        .bind(link)
                        .bind(&id)
                        .execute(&state.db.pool)
                        .await?;
                    filled += 1;
                }
            }
            Err(e) => tracing::warn!(
                booking = id,
                error = format!("{e:#}"),
                "could not refresh the meeting link"
            ),
        }
    }
    Ok(filled)
}

pub async fn run(state: AppState, shutdown: Arc<Notify>) {
    loop {
        for (name, result) in [
            (
                "complete past sessions",
                complete_past_sessions(&state).await.map(|n| n as usize),
            ),
            ("send reminders", send_reminders(&state).await),
            ("refresh meeting links", refresh_meeting_links(&state).await),
        ] {
            if let Err(e) = result {
                tracing::error!(
                    job = name,
                    error = format!("{e:#}"),
                    "scheduling job failed"
                );
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(60)) => {}
            _ = shutdown.notified() => break,
        }
    }
}
