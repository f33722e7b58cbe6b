//! The outbox: `enqueue` inside the caller's transaction; `run_worker` claims due rows, sends
//! them and records the result, retrying with exponential back-off. `waiting` lists what is not
//! sent for the status page, and `send_now` is its Retry of one message.
//!
//! Claiming is one conditional UPDATE (portable to SQLite): a row is taken only while it is
//! unlocked, so two workers on PostgreSQL never send the same message.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use sqlx::AnyConnection;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::OutgoingEmail;
use super::transport::{MailTransport, Queued};
use crate::db::Db;
use crate::domain::{new_id, now, ts};

const MAX_ATTEMPTS: i64 = 8;
const LEASE_SECONDS: i64 = 120;

/// Queues `mail`; it is sent after the surrounding transaction commits.
pub async fn enqueue(conn: &mut AnyConnection, mail: &OutgoingEmail) -> Result<(), sqlx::Error> {
    let now = now();
    let headers = serde_json::to_string(&mail.headers).unwrap_or_else(|_| "[]".into());
    let attachments = serde_json::to_string(&mail.attachments).unwrap_or_else(|_| "[]".into());
    sqlx::query(
        "INSERT INTO email_outbox (id, to_address, reply_to, subject, text_body, html_body, headers_json, attachments_json,
                                   status, attempts, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $9, 'pending', 0, $8, $8)",
    )
    .bind(new_id())
    .bind(&mail.to)
    .bind(&mail.reply_to)
    .bind(&mail.subject)
    .bind(&mail.text)
    .bind(&mail.html)
    .bind(headers)
    .bind(&now)
    .bind(attachments)
    .execute(conn)
    .await?;
    Ok(())
}

/// Queues every email a change asked for, in the transaction that made the change.
pub async fn enqueue_all(
    conn: &mut AnyConnection,
    mail: &[OutgoingEmail],
) -> Result<(), sqlx::Error> {
    for m in mail {
        enqueue(&mut *conn, m).await?;
    }
    Ok(())
}

/// A claimed outbox row.
#[derive(sqlx_macros::FromRow)]
struct Row {
    id: String,
    to_address: String,
    reply_to: Option<String>,
    subject: String,
    text_body: String,
    html_body: String,
    headers_json: String,
    created_at: String,
    attempts: i64,
    attachments_json: String,
}

/// Claims up to `limit` due messages for this worker.
async fn claim(db: &Db, limit: i64) -> Result<Vec<(Queued, i64)>, sqlx::Error> {
    let now_t = Utc::now();
    let now = ts(now_t);
    let lease = ts(now_t + chrono::Duration::seconds(LEASE_SECONDS));
    let rows: Vec<Row> = sqlx::query_as(
        "UPDATE email_outbox SET locked_until = $1, attempts = attempts + 1
          WHERE status = 'pending' AND next_attempt_at <= $2
            AND (locked_until IS NULL OR locked_until < $2)
            AND id IN (SELECT id FROM email_outbox
                        WHERE status = 'pending' AND next_attempt_at <= $2
                          AND (locked_until IS NULL OR locked_until < $2)
                        ORDER BY next_attempt_at LIMIT $3)
        RETURNING id, to_address, reply_to, subject, text_body, html_body, headers_json, created_at, attempts, attachments_json",
    )
    .bind(&lease)
    .bind(&now)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let attempts = row.attempts;
            (queued(row), attempts)
        })
        .collect())
}

fn queued(row: Row) -> Queued {
    Queued {
        id: row.id,
        to: row.to_address,
        reply_to: row.reply_to,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        headers: serde_json::from_str(&row.headers_json).unwrap_or_default(),
        attachments: serde_json::from_str(&row.attachments_json).unwrap_or_default(),
        created_at: row.created_at,
    }
}

/// Sends everything due now; returns how many were handled.
pub async fn drain_once(
    db: &Db,
    transport: &dyn MailTransport,
    from: &str,
) -> Result<usize, sqlx::Error> {
    let batch = claim(db, 20).await?;
    let n = batch.len();
    for (mail, attempts) in batch {
        deliver(db, transport, from, &mail, attempts).await?;
    }
    Ok(n)
}

/// Sends one claimed message and records how it went: sent, or its error and its next try
/// (failed for good after [`MAX_ATTEMPTS`]). Answers the transport's error, if any.
async fn deliver(
    db: &Db,
    transport: &dyn MailTransport,
    from: &str,
    mail: &Queued,
    attempts: i64,
) -> Result<Option<String>, sqlx::Error> {
    match transport.send(from, mail).await {
        Ok(()) => {
            sqlx::query("UPDATE email_outbox SET status = 'sent', sent_at = $1, locked_until = NULL, last_error = NULL WHERE id = $2")
                .bind(now())
                .bind(&mail.id)
                .execute(&db.pool)
                .await?;
            tracing::info!(email_id = %mail.id, subject = %mail.subject, "email sent");
            Ok(None)
        }
        Err(e) => {
            let give_up = attempts >= MAX_ATTEMPTS;
            // 30 s, 1 min, 2 min, … capped at 1 hour.
            let delay = (30_i64 << (attempts - 1).clamp(0, 7)).min(3600);
            let next = ts(Utc::now() + chrono::Duration::seconds(delay));
            let error = format!("{e:#}");
            sqlx::query(
                "UPDATE email_outbox SET status = $1, next_attempt_at = $2, locked_until = NULL, last_error = $3 WHERE id = $4",
            )
            .bind(if give_up { "failed" } else { "pending" })
            .bind(&next)
            .bind(&error)
            .bind(&mail.id)
            .execute(&db.pool)
            .await?;
            tracing::warn!(email_id = %mail.id, attempts, give_up, error, "email not sent");
            Ok(Some(error))
        }
    }
}

/// What the admin's Retry did.
#[derive(Debug)]
pub enum SendNow {
    Sent,
    /// The mail server refused it again (its answer); it stays in the outbox.
    Refused(String),
    NotFound,
    AlreadySent,
    /// The worker is sending it at this moment.
    Busy,
}

/// Sends message `id`, waiting or failed, now: claimed as the worker claims a row (so the
/// two never send it twice), then sent and recorded as the worker does.
pub async fn send_now(
    db: &Db,
    transport: &dyn MailTransport,
    from: &str,
    id: &str,
) -> Result<SendNow, sqlx::Error> {
    let now_t = Utc::now();
    let lease = ts(now_t + chrono::Duration::seconds(LEASE_SECONDS));
    let claimed: Option<Row> = sqlx::query_as(
        "UPDATE email_outbox SET status = 'pending', locked_until = $1, attempts = attempts + 1
          WHERE id = $2 AND status IN ('pending', 'failed') AND (locked_until IS NULL OR locked_until < $3)
        RETURNING id, to_address, reply_to, subject, text_body, html_body, headers_json, created_at, attempts, attachments_json",
    )
    .bind(&lease)
    .bind(id)
    .bind(ts(now_t))
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = claimed else {
        let status: Option<String> =
            sqlx::query_scalar("SELECT status FROM email_outbox WHERE id = $1")
                .bind(id)
                .fetch_optional(&db.pool)
                .await?;
        return Ok(match status.as_deref() {
            None => SendNow::NotFound,
            Some("sent") => SendNow::AlreadySent,
            Some(_) => SendNow::Busy,
        });
    };
    let attempts = row.attempts;
    let mail = queued(row);
    Ok(match deliver(db, transport, from, &mail, attempts).await? {
        None => SendNow::Sent,
        Some(error) => SendNow::Refused(error),
    })
}

/// An email waiting in the outbox or failed from it, as the status page lists it.
#[derive(Debug, serde::Serialize, utoipa::ToSchema, sqlx_macros::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct WaitingEmail {
    pub id: String,
    pub to_address: String,
    pub subject: String,
    /// `pending` (waiting for its next try) or `failed` (given up after 8 tries).
    pub status: String,
    pub attempts: i64,
    pub created_at: String,
    /// When the worker tries again (pending only).
    pub next_attempt_at: String,
    /// The mail server's last answer.
    pub last_error: Option<String>,
}

/// The emails not sent (waiting or failed), oldest first, at most `limit`.
pub async fn waiting(db: &Db, limit: i64) -> Result<Vec<WaitingEmail>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, to_address, subject, status, attempts, created_at, next_attempt_at, last_error
           FROM email_outbox WHERE status IN ('pending', 'failed') ORDER BY created_at, id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db.reader())
    .await
}

/// Runs until `shutdown` fires: wakes when a message is queued (`wake`) or every 5 seconds.
pub async fn run_worker(
    db: Db,
    transport: Arc<dyn MailTransport>,
    from: String,
    wake: Arc<Notify>,
    shutdown: CancellationToken,
    metrics: crate::monitoring::Metrics,
) {
    loop {
        let drained = drain_once(&db, &transport, &from).await;
        metrics.task_ran("email_outbox", drained.is_ok());
        match drained {
            Ok(n) if n > 0 => continue,
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "outbox worker could not read the outbox"),
        }
        tokio::select! {
            _ = wake.notified() => {}
            _ = tokio::time::sleep(Duration::from_secs(5)) => {}
            _ = shutdown.cancelled() => break,
        }
    }
}
