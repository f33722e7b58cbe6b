//! Every minute: confirmed sessions that have ended become completed; a reminder goes out once
//! for each confirmed session starting within 24 hours; and Calendly bookings still without a
//! Google Meet link get it from Calendly's API (the link often appears after the webhook).

use std::time::Duration;

use chrono::Utc;
use tokio_util::sync::CancellationToken;

use crate::bookings::{change, store};
use crate::domain::{now, ts};
use crate::email::{enqueue_all, templates};
use crate::operations::jobs::{Job, run as run_job};
use crate::state::AppState;

/// Confirmed sessions whose end has passed → completed. Returns how many.
pub async fn complete_past_sessions(state: &AppState) -> anyhow::Result<u64> {
    let mut conn = state.db.pool.acquire().await?;
    Ok(change::complete_ended(&mut conn, Utc::now()).await?)
}

/// Sends each reminder exactly once: the row is claimed (reminder_sent_at set) in the same
/// transaction that queues the email, so a crash sends none rather than two.
pub async fn send_reminders(state: &AppState) -> anyhow::Result<usize> {
    let site = state.site();
    let ctx = state.context(&site);
    let horizon = ctx.now + chrono::Duration::hours(24);
    let mut tx = state.db.pool.begin().await?;
    let due = store::claim_reminders(&mut tx, ctx.now, horizon).await?;
    let mail: Vec<_> = due
        .iter()
        .filter_map(|row| {
            let details = ctx.stored_details(&row.booking)?;
            Some(templates::booking_reminder(
                row.language,
                &site.name,
                &row.email,
                &row.full_name,
                &details,
            ))
        })
        .collect();
    enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
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
                    let mut conn = state.db.pool.acquire().await?;
                    if store::fill_meet_link(&mut conn, &id, link).await? {
                        filled += 1;
                    }
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

pub async fn run(state: AppState, shutdown: CancellationToken) {
    loop {
        for (name, result) in [
            (
                "complete past sessions",
                run_job(
                    &state.db,
                    &state.metrics,
                    Job::CompleteSessions,
                    complete_past_sessions(&state),
                )
                .await
                .map(|n| n as usize),
            ),
            (
                "send reminders",
                run_job(
                    &state.db,
                    &state.metrics,
                    Job::SessionReminders,
                    send_reminders(&state),
                )
                .await,
            ),
            (
                "refresh meeting links",
                run_job(
                    &state.db,
                    &state.metrics,
                    Job::MeetingLinks,
                    refresh_meeting_links(&state),
                )
                .await,
            ),
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
            _ = shutdown.cancelled() => break,
        }
    }
}
