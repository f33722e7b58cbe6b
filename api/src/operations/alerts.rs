//! The minute check of the outbox: when mail has waited there for over an hour, the coach is
//! emailed once, and not again until the outbox has had no such mail (the incident over).
//! Webhook alerts go as their deliveries are recorded (`webhooks`).
//!
//! The alert itself goes through the outbox: when the mail server refuses everything it waits
//! with the rest, and the status page is where the coach sees it. When only some mail is
//! refused (a recipient, a message), it goes out.

use std::time::Duration;

use chrono::Utc;
use tokio_util::sync::CancellationToken;

use super::jobs::{self, Job};
use crate::domain::{now, parse_ts, ts};
use crate::email::{alert_templates, enqueue};
use crate::state::AppState;

/// How long an email may wait in the outbox before the coach is told.
pub const STUCK_AFTER: chrono::TimeDelta = chrono::TimeDelta::hours(1);

/// One check; answers how many alerts it queued (0 or 1).
pub async fn check_outbox(state: &AppState) -> anyhow::Result<usize> {
    let cutoff = ts(Utc::now() - STUCK_AFTER);
    let (count, oldest): (i64, Option<String>) = sqlx::query_as(
        "SELECT COUNT(*), MIN(created_at) FROM email_outbox WHERE status = 'pending' AND created_at < $1",
    )
    .bind(&cutoff)
    .fetch_one(&state.db.pool)
    .await?;
    let Some(oldest) = oldest.filter(|_| count > 0) else {
        // Nothing waits that long: the incident, if there was one, is over.
        sqlx::query("DELETE FROM operation_alerts WHERE kind = 'outbox'")
            .execute(&state.db.pool)
            .await?;
        return Ok(0);
    };
    let mut tx = state.db.pool.begin().await?;
    let opened = sqlx::query(
        "INSERT INTO operation_alerts (kind, alerted_at) VALUES ('outbox', $1) ON CONFLICT (kind) DO NOTHING",
    )
    .bind(now())
    .execute(&mut *tx)
    .await?;
    if opened.rows_affected() == 0 {
        // Told already, for this incident.
        return Ok(0);
    }
    let site = state.site();
    let lang = crate::domain::accounts::language_of_email(&mut tx, &site.coach_email).await?;
    let mail = alert_templates::outbox_stuck(
        lang,
        &site.name,
        &site.coach_email,
        &alert_templates::Stuck {
            count,
            oldest: parse_ts(&oldest).unwrap_or_else(Utc::now),
            time_zone: site.time_zone,
            status_url: &lang.page(&state.config.public_base_url, "/admin#system"),
        },
    );
    enqueue(&mut tx, &mail).await?;
    tx.commit().await?;
    state.mail_wake.notify_one();
    tracing::warn!(count, "mail stuck in the outbox: the coach is told");
    Ok(1)
}

/// Every minute until shutdown.
pub async fn run(state: AppState, shutdown: CancellationToken) {
    loop {
        if let Err(e) =
            jobs::run(&state.db, &state.metrics, Job::Alerts, check_outbox(&state)).await
        {
            tracing::error!(error = format!("{e:#}"), "the outbox check failed");
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(60)) => {}
            _ = shutdown.cancelled() => break,
        }
    }
}
