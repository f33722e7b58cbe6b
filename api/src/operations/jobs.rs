//! Each scheduled job's last run, for the status page: the minute loops of `lots`,
//! `scheduling::jobs`, `payments::reconcile` and `alerts`, and `api credits expire` from cron.
//! A call site wraps the job's future in [`run`], which times it, records how it ended and
//! hands its result back unchanged.

use std::future::Future;

use chrono::Utc;
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::Db;
use crate::domain::ts;
use crate::monitoring::Metrics;

/// The jobs the status page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Job {
    /// Lots past their expiry lose their unused credits (`lots::expire_due`).
    ExpirySweep,
    /// "Your credits expire on …" emails, 14 days ahead (`lots::send_expiry_reminders`).
    ExpiryReminders,
    /// Session reminders, 24 hours ahead (`scheduling::jobs::send_reminders`).
    SessionReminders,
    /// Ended sessions become completed.
    CompleteSessions,
    /// Google Meet links Calendly added after its webhook.
    MeetingLinks,
    /// Pending payments asked of PayTabs, lapsed transfers, overdue invoices.
    Reconciliation,
    /// The outbox's hour-old mail, told to the coach (`operations::alerts`).
    Alerts,
}

impl Job {
    pub const ALL: [Job; 7] = [
        Job::ExpirySweep,
        Job::ExpiryReminders,
        Job::SessionReminders,
        Job::CompleteSessions,
        Job::MeetingLinks,
        Job::Reconciliation,
        Job::Alerts,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Job::ExpirySweep => "expiry_sweep",
            Job::ExpiryReminders => "expiry_reminders",
            Job::SessionReminders => "session_reminders",
            Job::CompleteSessions => "complete_sessions",
            Job::MeetingLinks => "meeting_links",
            Job::Reconciliation => "reconciliation",
            Job::Alerts => "alerts",
        }
    }

    pub fn parse(s: &str) -> Option<Job> {
        Job::ALL.into_iter().find(|j| j.as_str() == s)
    }
}

/// Runs `work` as a run of `job` and records it: when it started and ended, how many things it
/// did (what its result counts: credits removed, emails queued…) or why it failed, and in
/// `/metrics` (`task_last_run_timestamp_seconds{task="<job>"}`). The result is `work`'s own.
pub async fn run<T, F>(db: &Db, metrics: &Metrics, job: Job, work: F) -> anyhow::Result<T>
where
    F: Future<Output = anyhow::Result<T>>,
    T: Copy + TryInto<i64>,
{
    let started = Utc::now();
    let result = work.await;
    metrics.task_ran(job.as_str(), result.is_ok());
    let (items, error) = match &result {
        Ok(n) => ((*n).try_into().ok(), None),
        Err(e) => (None, Some(format!("{e:#}"))),
    };
    if let Err(e) = record(db, job, started, items, error.as_deref()).await {
        tracing::warn!(
            job = job.as_str(),
            error = format!("{e:#}"),
            "could not record a job's run"
        );
    }
    result
}

async fn record(
    db: &Db,
    job: Job,
    started: chrono::DateTime<Utc>,
    items: Option<i64>,
    error: Option<&str>,
) -> Result<(), sqlx::Error> {
    let finished = ts(Utc::now());
    let outcome = if error.is_none() { "ok" } else { "failed" };
    sqlx::query(
        "INSERT INTO job_runs (job, started_at, finished_at, outcome, items, error, last_ok_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $4 = 'ok' THEN $3 END)
         ON CONFLICT (job) DO UPDATE SET
            started_at = excluded.started_at, finished_at = excluded.finished_at,
            outcome = excluded.outcome, items = excluded.items, error = excluded.error,
            last_ok_at = COALESCE(excluded.last_ok_at, job_runs.last_ok_at)",
    )
    .bind(job.as_str())
    .bind(ts(started))
    .bind(&finished)
    .bind(outcome)
    .bind(items)
    .bind(error)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A job's last run, as the status page shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobRun {
    pub job: Job,
    pub started_at: String,
    pub finished_at: String,
    /// `ok` or `failed`.
    pub outcome: String,
    /// What it did: credits removed, emails queued, sessions completed, links filled, payments
    /// settled, alerts sent.
    pub items: Option<i64>,
    /// Why it failed (the API's own words, English).
    pub error: Option<String>,
    /// Its last run that ended well; `null` if none has.
    pub last_ok_at: Option<String>,
}

#[derive(sqlx_macros::FromRow)]
struct Row {
    job: String,
    started_at: String,
    finished_at: String,
    outcome: String,
    items: Option<i64>,
    error: Option<String>,
    last_ok_at: Option<String>,
}

/// Every job's last run, in [`Job::ALL`]'s order; a job that has not run yet is left out.
pub async fn last_runs(db: &Db) -> Result<Vec<JobRun>, sqlx::Error> {
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT job, started_at, finished_at, outcome, items, error, last_ok_at FROM job_runs",
    )
    .fetch_all(db.reader())
    .await?;
    let mut runs: Vec<JobRun> = rows
        .into_iter()
        .filter_map(|r| {
            Some(JobRun {
                job: Job::parse(&r.job)?,
                started_at: r.started_at,
                finished_at: r.finished_at,
                outcome: r.outcome,
                items: r.items,
                error: r.error,
                last_ok_at: r.last_ok_at,
            })
        })
        .collect();
    runs.sort_by_key(|r| Job::ALL.iter().position(|j| *j == r.job));
    Ok(runs)
}
