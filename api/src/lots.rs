//! The lots' background work, run every minute by each API process (and `api credits expire`
//! from cron): lots whose expiry has passed lose their unused credits, once; and each lot
//! with unused credits gets one "credits expire on …" email 14 days before, in its client's
//! language.

use std::time::Duration;

use chrono::Utc;
use tokio_util::sync::CancellationToken;

use crate::db::Db;
use crate::domain::credits::{self, Expired};
use crate::domain::{Language, now, ts};
use crate::email::{credit_templates, enqueue};
use crate::operations::jobs::{self, Job};
use crate::state::AppState;

/// How long before a lot expires its reminder goes out.
pub const REMINDER_DAYS: i64 = 14;

/// Expires every due lot, each in its own transaction. Two processes sweeping at once expire
/// each lot once: the account lock orders them, the loser finds the lot expired, and the
/// ledger's unique `expiry:{lot}` reference is the last guard. Returns the credits removed.
pub async fn expire_due(db: &Db) -> anyhow::Result<i64> {
    let due: Vec<String> = sqlx::query_scalar(
        "SELECT id FROM credit_lots WHERE expired_at IS NULL AND expires_at <= $1 ORDER BY expires_at LIMIT 500",
    )
    .bind(now())
    .fetch_all(&db.pool)
    .await?;
    let mut removed = 0;
    for lot in due {
        // SQLite across processes: a transaction that read before another process wrote is
        // refused (SQLITE_BUSY_SNAPSHOT); a fresh one then sees the other's result.
        let mut last_error = None;
        for _ in 0..3 {
            match expire_one(db, &lot).await {
                Ok(n) => {
                    removed += n;
                    last_error = None;
                    break;
                }
                Err(e) => last_error = Some(e),
            }
        }
        if let Some(e) = last_error {
            tracing::error!(lot, error = format!("{e:#}"), "could not expire a lot");
        }
    }
    Ok(removed)
}

async fn expire_one(db: &Db, lot: &str) -> anyhow::Result<i64> {
    let mut tx = db.pool.begin().await?;
    let expired = credits::expire_lot(&mut tx, db.backend, lot).await?;
    tx.commit().await?;
    Ok(match expired {
        Expired::Now { credits } => {
            tracing::info!(lot, credits, "lot expired");
            credits
        }
        Expired::NotThisTime => 0,
    })
}

#[derive(sqlx_macros::FromRow)]
struct Reminder {
    remaining: i64,
    expires_on: String,
    email: String,
    full_name: String,
    language: Language,
}

/// Queues the 14-day email for every lot that needs it, each exactly once: the lot is claimed
/// (`reminded_at`) in the same transaction that queues its email.
pub async fn send_expiry_reminders(state: &AppState) -> anyhow::Result<usize> {
    let now_t = Utc::now();
    let horizon = ts(now_t + chrono::Duration::days(REMINDER_DAYS));
    let due: Vec<String> = sqlx::query_scalar(
        "SELECT id FROM credit_lots
          WHERE reminded_at IS NULL AND expired_at IS NULL AND remaining > 0
            AND expires_at > $1 AND expires_at <= $2",
    )
    .bind(ts(now_t))
    .bind(&horizon)
    .fetch_all(&state.db.pool)
    .await?;
    let mut sent = 0;
    for lot in due {
        let mut tx = state.db.pool.begin().await?;
        let claimed: Option<Reminder> = sqlx::query_as(
            "UPDATE credit_lots SET reminded_at = $1
              WHERE id = $2 AND reminded_at IS NULL AND expired_at IS NULL AND remaining > 0
            RETURNING remaining, expires_on,
                      (SELECT email FROM profiles p WHERE p.user_id = credit_lots.user_id) AS email,
                      (SELECT full_name FROM profiles p WHERE p.user_id = credit_lots.user_id) AS full_name,
                      (SELECT preferred_language FROM users u WHERE u.id = credit_lots.user_id) AS language",
        )
        .bind(now())
        .bind(&lot)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(r) = claimed {
            let Ok(day) = chrono::NaiveDate::parse_from_str(&r.expires_on, "%Y-%m-%d") else {
                // Never written so (`Validity`); the claim rolls back and nothing is sent.
                tracing::error!(
                    lot,
                    expires_on = r.expires_on,
                    "a lot's expiry is not a day"
                );
                continue;
            };
            let mail = credit_templates::credits_expiring(
                r.language,
                &state.site().name,
                &r.email,
                &r.full_name,
                r.remaining,
                day,
                &state.config.public_base_url,
            );
            enqueue(&mut tx, &mail).await?;
            sent += 1;
        }
        tx.commit().await?;
    }
    if sent > 0 {
        state.mail_wake.notify_one();
    }
    Ok(sent)
}

pub async fn run(state: AppState, shutdown: CancellationToken) {
    loop {
        if let Err(e) = jobs::run(
            &state.db,
            &state.metrics,
            Job::ExpirySweep,
            expire_due(&state.db),
        )
        .await
        {
            tracing::error!(error = format!("{e:#}"), "expiring lots failed");
        }
        if let Err(e) = jobs::run(
            &state.db,
            &state.metrics,
            Job::ExpiryReminders,
            send_expiry_reminders(&state),
        )
        .await
        {
            tracing::error!(error = format!("{e:#}"), "expiry reminders failed");
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(60)) => {}
            _ = shutdown.cancelled() => break,
        }
    }
}
