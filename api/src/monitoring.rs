//! Metrics for Prometheus, served at `/metrics` (`routes::metrics`) when `METRICS_TOKEN` is set.
//!
//! What happens in this process is counted as it happens: requests by route template and
//! status with their latency ([`track_requests`]), webhooks by provider and outcome
//! ([`Metrics::webhook`]), and when each scheduled task last ran ([`Metrics::task_ran`]).
//! What the database knows is read from it at scrape time ([`Metrics::render`]): payments by
//! provider and outcome, the outbox, and the credits granted, used, returned and expired, summed
//! from the ledger. Those are exact across restarts and replicas (every replica reports the
//! same values), and cost one small grouped query each per scrape.
//!
//! Each application has its own recorder instead of the `metrics` crate's global one, and
//! records into it through `metrics::with_local_recorder`: the API suite runs many
//! applications in one process, and each must count only its own. Without a token the
//! recorder is off and recording does nothing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use chrono::Utc;
use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use metrics_exporter_prometheus::{
    Matcher, PrometheusBuilder, PrometheusHandle, PrometheusRecorder,
};
use tokio_util::sync::CancellationToken;

use crate::db::Db;
use crate::domain::parse_ts;

/// The process's metrics: a recorder and its handle, or nothing when metrics are off.
#[derive(Clone, Default)]
pub struct Metrics {
    inner: Option<Arc<Inner>>,
}

struct Inner {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
}

/// Upper bounds of the request latency buckets, in seconds.
const LATENCY_BUCKETS: [f64; 11] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Providers and outcomes of `payments`, all reported (as 0 before the first) so that a
/// series never appears from nowhere.
const PAYMENT_PROVIDERS: [&str; 3] = ["paytabs", "paymob", "transfer"];
const PAYMENT_OUTCOMES: [&str; 4] = ["pending", "completed", "failed", "flagged"];
/// The ledger's kinds that grant credits (a positive admin adjustment among them).
const GRANTING_KINDS: [&str; 4] = [
    "purchase",
    "offline_payment",
    "admin_adjustment",
    "engagement_grant",
];

impl Metrics {
    /// Metrics off: recording does nothing, nothing is kept.
    pub fn disabled() -> Metrics {
        Metrics::default()
    }

    /// Metrics on, with their descriptions.
    pub fn enabled() -> Metrics {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full("http_request_duration_seconds".into()),
                &LATENCY_BUCKETS,
            )
            .expect("the buckets are not empty")
            .build_recorder();
        let handle = recorder.handle();
        let metrics = Metrics {
            inner: Some(Arc::new(Inner { recorder, handle })),
        };
        metrics.record(describe);
        metrics
    }

    pub fn is_enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// Runs `f`, whose `metrics` macros record into this application's recorder.
    fn record(&self, f: impl FnOnce()) {
        if let Some(inner) = &self.inner {
            metrics::with_local_recorder(&inner.recorder, f);
        }
    }

    /// A request answered: `route` is the matched route's template (`None`: no route matched).
    fn request(&self, method: &Method, route: Option<&str>, status: u16, took: Duration) {
        // Only the standard methods, so a client cannot make up label values.
        let method = match *method {
            Method::GET => "GET",
            Method::HEAD => "HEAD",
            Method::POST => "POST",
            Method::PUT => "PUT",
            Method::PATCH => "PATCH",
            Method::DELETE => "DELETE",
            Method::OPTIONS => "OPTIONS",
            _ => "other",
        };
        let route = route.unwrap_or("unmatched").to_string();
        let status = status.to_string();
        self.record(|| {
            let labels = [
                ("method", method.to_string()),
                ("route", route),
                ("status", status),
            ];
            counter!("http_requests_total", &labels).increment(1);
            histogram!("http_request_duration_seconds", &labels).record(took.as_secs_f64());
        });
    }

    /// A provider's webhook or callback was received and ended in `outcome` (`accepted`,
    /// `bad_signature`, `replay`…; see the README's table).
    pub fn webhook(&self, provider: &'static str, outcome: &'static str) {
        self.record(|| {
            counter!("webhooks_total", "provider" => provider, "outcome" => outcome).increment(1)
        });
    }

    /// A scheduled task finished a run, successfully or not.
    pub fn task_ran(&self, task: &'static str, succeeded: bool) {
        let now = Utc::now().timestamp() as f64;
        self.record(|| {
            gauge!("task_last_run_timestamp_seconds", "task" => task).set(now);
            if succeeded {
                gauge!("task_last_success_timestamp_seconds", "task" => task).set(now);
            }
        });
    }

    /// Every metric in Prometheus' text format, with the database's values read now. A
    /// database that does not answer is logged and reported as `database_up 0`; the
    /// process's own metrics are served anyway.
    pub async fn render(&self, db: &Db) -> String {
        let Some(inner) = &self.inner else {
            return String::new();
        };
        let read = read_database(db).await;
        if let Err(e) = &read {
            tracing::error!(error = %e, "metrics: the database's values could not be read");
        }
        self.record(|| {
            gauge!("database_up").set(if read.is_ok() { 1.0 } else { 0.0 });
            if let Ok(values) = &read {
                values.record();
            }
        });
        inner.handle.render()
    }

    /// Drains the latency histograms into their buckets every few seconds (the exporter keeps
    /// samples until then), so memory stays flat between scrapes; until `shutdown`.
    pub async fn upkeep(self, shutdown: CancellationToken) {
        let Some(inner) = self.inner else {
            return;
        };
        loop {
            inner.handle.run_upkeep();
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_secs(5)) => {}
                _ = shutdown.cancelled() => break,
            }
        }
    }
}

/// Middleware: counts every answer by method, matched route template (never the raw path,
/// which holds ids and tokens) and status, with its latency.
pub async fn track_requests(State(metrics): State<Metrics>, req: Request, next: Next) -> Response {
    if !metrics.is_enabled() {
        return next.run(req).await;
    }
    let method = req.method().clone();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string());
    let started = Instant::now();
    let response = next.run(req).await;
    metrics.request(
        &method,
        route.as_deref(),
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}

fn describe() {
    describe_counter!(
        "http_requests_total",
        "Requests answered, by method, route template and status"
    );
    describe_histogram!(
        "http_request_duration_seconds",
        metrics::Unit::Seconds,
        "Time to answer a request, by method, route template and status"
    );
    describe_counter!(
        "webhooks_total",
        "Webhooks and payment callbacks received, by provider and outcome"
    );
    describe_gauge!(
        "task_last_run_timestamp_seconds",
        metrics::Unit::Seconds,
        "When each scheduled task last finished a run (Unix time)"
    );
    describe_gauge!(
        "task_last_success_timestamp_seconds",
        metrics::Unit::Seconds,
        "When each scheduled task last ran without an error (Unix time)"
    );
    describe_gauge!(
        "database_up",
        "1 when this scrape read the database's values, 0 when the database did not answer"
    );
    describe_gauge!(
        "payments",
        "Orders by provider and outcome (pending, completed, failed, flagged), from the database"
    );
    describe_gauge!(
        "outbox_emails",
        "Emails in the outbox waiting to be sent (pending) or given up on (failed)"
    );
    describe_gauge!(
        "outbox_oldest_pending_age_seconds",
        metrics::Unit::Seconds,
        "Age of the oldest email waiting in the outbox (0 when none waits)"
    );
    describe_counter!(
        "credits_granted_total",
        "Credits granted, by the ledger's kind of grant"
    );
    describe_counter!("credits_used_total", "Credits debited for bookings");
    describe_counter!(
        "credits_returned_total",
        "Credits given back by booking cancellations"
    );
    describe_counter!(
        "credits_expired_total",
        "Unused credits removed at their lot's expiry"
    );
}

/// What the database says, read in one go at scrape time.
struct DatabaseValues {
    /// (provider, outcome, orders)
    payments: Vec<(String, String, i64)>,
    /// (status, emails, oldest `created_at`)
    outbox: Vec<(String, i64, Option<String>)>,
    /// (kind, credits added, credits removed, credits used) from the ledger
    ledger: Vec<(String, i64, i64, i64)>,
}

async fn read_database(db: &Db) -> Result<DatabaseValues, sqlx::Error> {
    let pool = db.reader();
    let payments = sqlx::query_as(
        "SELECT provider, CASE WHEN flagged_reason IS NOT NULL THEN 'flagged' ELSE status END AS outcome,
                COUNT(*) AS orders
           FROM payment_transactions GROUP BY 1, 2",
    )
    .fetch_all(pool)
    .await?;
    let outbox = sqlx::query_as(
        "SELECT status, COUNT(*) AS emails, MIN(created_at) AS oldest
           FROM email_outbox WHERE status IN ('pending', 'failed') GROUP BY status",
    )
    .fetch_all(pool)
    .await?;
    let ledger = sqlx::query_as(
        "SELECT kind,
                CAST(COALESCE(SUM(CASE WHEN delta_total > 0 THEN delta_total ELSE 0 END), 0) AS BIGINT) AS added,
                CAST(COALESCE(SUM(CASE WHEN delta_total < 0 THEN -delta_total ELSE 0 END), 0) AS BIGINT) AS removed,
                CAST(COALESCE(SUM(delta_used), 0) AS BIGINT) AS used
           FROM credit_ledger GROUP BY kind",
    )
    .fetch_all(pool)
    .await?;
    Ok(DatabaseValues {
        payments,
        outbox,
        ledger,
    })
}

impl DatabaseValues {
    /// Sets the gauges and counters (inside `Metrics::record`).
    fn record(&self) {
        for provider in PAYMENT_PROVIDERS {
            for outcome in PAYMENT_OUTCOMES {
                let orders = self
                    .payments
                    .iter()
                    .find(|(p, o, _)| p == provider && o == outcome)
                    .map_or(0, |(_, _, n)| *n);
                gauge!("payments", "provider" => provider, "outcome" => outcome).set(orders as f64);
            }
        }
        let outbox = |status: &str| self.outbox.iter().find(|(s, _, _)| s == status);
        for status in ["pending", "failed"] {
            let emails = outbox(status).map_or(0, |(_, n, _)| *n);
            gauge!("outbox_emails", "status" => status).set(emails as f64);
        }
        let oldest = outbox("pending")
            .and_then(|(_, _, at)| at.as_deref().and_then(parse_ts))
            .map_or(0.0, |at| {
                (Utc::now() - at).num_milliseconds().max(0) as f64 / 1000.0
            });
        gauge!("outbox_oldest_pending_age_seconds").set(oldest);
        let ledger = |kind: &str| {
            self.ledger
                .iter()
                .find(|(k, ..)| k == kind)
                .map_or((0, 0, 0), |(_, added, removed, used)| {
                    (*added, *removed, *used)
                })
        };
        for kind in GRANTING_KINDS {
            counter!("credits_granted_total", "kind" => kind).absolute(ledger(kind).0 as u64);
        }
        counter!("credits_used_total").absolute(ledger("booking_debit").2.max(0) as u64);
        counter!("credits_returned_total").absolute((-ledger("booking_refund").2).max(0) as u64);
        counter!("credits_expired_total").absolute(ledger("expiry").1 as u64);
    }
}
