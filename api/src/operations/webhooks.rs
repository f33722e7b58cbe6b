//! The providers' webhooks as the status page shows them: each provider's last delivery, and
//! the recent ones that were not applied with their reason. Three refused or failed in a row
//! email the coach, once per incident; the next delivery that gets through ends it.
//!
//! A handler starts a [`Delivery`] when a webhook arrives and ends it in one line where it
//! answers (`applied`, `ignored`, `refused`). One that ends otherwise, by an error of the API's
//! own (a `?`), is recorded as failed when it is dropped. The same ending is counted in
//! `/metrics` (`webhooks_total`: what was applied, the reason it was not, or `error`).

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::{Language, new_id, now};
use crate::email::{alert_templates, enqueue};
use crate::state::AppState;

/// How many refused or failed deliveries in a row make an incident.
pub const ALERT_AFTER: i64 = 3;
/// How many refusals the status page keeps.
const KEEP: i64 = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WebhookProvider)]
pub enum Provider {
    Paytabs,
    Paymob,
    Calendly,
}

impl Provider {
    pub const ALL: [Provider; 3] = [Provider::Paytabs, Provider::Paymob, Provider::Calendly];

    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Paytabs => "paytabs",
            Provider::Paymob => "paymob",
            Provider::Calendly => "calendly",
        }
    }

    /// As the coach knows it.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Paytabs => "PayTabs",
            Provider::Paymob => "Paymob",
            Provider::Calendly => "Calendly",
        }
    }

    pub fn parse(s: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

/// Why a delivery was not applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = WebhookReason)]
pub enum Reason {
    /// Missing, malformed, or signed with another key.
    BadSignature,
    /// Signed too long ago (a replay, or a clock that is off).
    StaleSignature,
    NotJson,
    /// JSON, but not what the provider sends.
    UnexpectedShape,
    /// An event we do not subscribe to.
    UnknownEvent,
    /// About a cart or order we do not have.
    UnknownCart,
    /// A booking that does not prove which client made it: it waits in Needs attention.
    UnknownClient,
    /// A booking of a client without a credit: it waits in Needs attention.
    NoCredit,
    /// The provider's keys are not set, so nothing it sends can be verified.
    NotConfigured,
    /// The API failed while applying it (see its log); the provider will deliver it again.
    Error,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::BadSignature => "bad_signature",
            Reason::StaleSignature => "stale_signature",
            Reason::NotJson => "not_json",
            Reason::UnexpectedShape => "unexpected_shape",
            Reason::UnknownEvent => "unknown_event",
            Reason::UnknownCart => "unknown_cart",
            Reason::UnknownClient => "unknown_client",
            Reason::NoCredit => "no_credit",
            Reason::NotConfigured => "not_configured",
            Reason::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Reason> {
        use Reason::*;
        [
            BadSignature,
            StaleSignature,
            NotJson,
            UnexpectedShape,
            UnknownEvent,
            UnknownCart,
            UnknownClient,
            NoCredit,
            NotConfigured,
            Error,
        ]
        .into_iter()
        .find(|r| r.as_str() == s)
    }

    /// The reason in an alert email, after "refused:" or "مرفوض:".
    pub fn describe(self, lang: Language) -> &'static str {
        match (self, lang) {
            (Reason::BadSignature, Language::En) => "its signature does not match our key",
            (Reason::BadSignature, Language::Ar) => "توقيعه لا يطابق مفتاحنا",
            (Reason::StaleSignature, Language::En) => {
                "it was signed too long ago (check the server's clock)"
            }
            (Reason::StaleSignature, Language::Ar) => "وُقّع منذ وقت طويل (راجع ساعة الخادم)",
            (Reason::NotJson, Language::En) => "its body is not JSON",
            (Reason::NotJson, Language::Ar) => "محتواه ليس بصيغة JSON",
            (Reason::UnexpectedShape, Language::En) => "it is not shaped as the provider sends",
            (Reason::UnexpectedShape, Language::Ar) => "شكله لا يطابق ما يرسله مزوّد الخدمة",
            (Reason::UnknownEvent, Language::En) => "an event we do not handle",
            (Reason::UnknownEvent, Language::Ar) => "حدث لا نتعامل معه",
            (Reason::UnknownCart, Language::En) => "a payment we have no order for",
            (Reason::UnknownCart, Language::Ar) => "دفعة لا يوجد لدينا طلب لها",
            (Reason::UnknownClient, Language::En) => "nothing proves which client booked",
            (Reason::UnknownClient, Language::Ar) => "لا شيء يثبت أي عميل حجز",
            (Reason::NoCredit, Language::En) => "the client has no credit",
            (Reason::NoCredit, Language::Ar) => "لا يتوفر لدى العميل رصيد",
            (Reason::NotConfigured, Language::En) => "its keys are not set on the API",
            (Reason::NotConfigured, Language::Ar) => "مفاتيحه غير مضبوطة في الخادم",
            (Reason::Error, Language::En) => "the API failed while applying it",
            (Reason::Error, Language::Ar) => "تعطّل الخادم أثناء تطبيقه",
        }
    }
}

/// How a delivery ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// With what it did, for `/metrics` (`confirmed`, `replay`, `completed`…).
    Applied(&'static str),
    /// Accepted (200), with nothing to apply or waiting for the admin.
    Ignored(Reason),
    /// Answered 4xx: nothing changed, and the provider may try again.
    Refused(Reason),
    /// The API's own error (5xx).
    Failed,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Applied(_) => "applied",
            Outcome::Ignored(_) => "ignored",
            Outcome::Refused(_) => "refused",
            Outcome::Failed => "failed",
        }
    }

    fn reason(self) -> Option<Reason> {
        match self {
            Outcome::Applied(_) => None,
            Outcome::Ignored(r) | Outcome::Refused(r) => Some(r),
            Outcome::Failed => Some(Reason::Error),
        }
    }

    /// Counts towards an incident: the provider's deliveries are not getting through.
    fn is_failure(self) -> bool {
        matches!(self, Outcome::Refused(_) | Outcome::Failed)
    }
}

/// One webhook delivery, from its arrival to its answer (see the module's documentation).
pub struct Delivery {
    state: Option<AppState>,
    provider: Provider,
}

impl Delivery {
    pub fn start(state: &AppState, provider: Provider) -> Delivery {
        Delivery {
            state: Some(state.clone()),
            provider,
        }
    }

    /// Applied (or recognised as a redelivery of one that was); `what` names its effect in
    /// `/metrics` (the booking's or the payment's outcome).
    pub async fn applied(mut self, what: &'static str) {
        self.end(Outcome::Applied(what), None).await;
    }

    /// Accepted with nothing to apply, or waiting for the admin; `detail` says what it was
    /// about (an event kind, a cart id), never a secret.
    pub async fn ignored(mut self, reason: Reason, detail: &str) {
        self.end(Outcome::Ignored(reason), Some(detail)).await;
    }

    /// Answered with a refusal: nothing changed.
    pub async fn refused(mut self, reason: Reason) {
        self.end(Outcome::Refused(reason), None).await;
    }

    async fn end(&mut self, outcome: Outcome, detail: Option<&str>) {
        if let Some(state) = self.state.take() {
            record(&state, self.provider, outcome, detail).await;
        }
    }
}

impl Drop for Delivery {
    /// Ended by an error of the API's own: recorded as failed, after the answer.
    fn drop(&mut self) {
        if let Some(state) = self.state.take() {
            let provider = self.provider;
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(async move { record(&state, provider, Outcome::Failed, None).await });
            }
        }
    }
}

/// Records a delivery; a recording that fails is logged, never the webhook's problem.
async fn record(state: &AppState, provider: Provider, outcome: Outcome, detail: Option<&str>) {
    state.metrics.webhook(
        provider.as_str(),
        match outcome {
            Outcome::Applied(what) => what,
            Outcome::Ignored(reason) | Outcome::Refused(reason) => reason.as_str(),
            Outcome::Failed => "error",
        },
    );
    match write(state, provider, outcome, detail).await {
        Ok(alerted) => {
            if alerted {
                state.mail_wake.notify_one();
            }
        }
        Err(e) => tracing::warn!(
            provider = provider.as_str(),
            error = format!("{e:#}"),
            "could not record a webhook delivery"
        ),
    }
}

/// The provider's row, the refusal and, at the third failure in a row of an incident, the
/// coach's alert, in one transaction. Answers whether an alert was queued.
async fn write(
    state: &AppState,
    provider: Provider,
    outcome: Outcome,
    detail: Option<&str>,
) -> anyhow::Result<bool> {
    let at = now();
    let reason = outcome.reason().map(Reason::as_str);
    let mut tx = state.db.pool.begin().await?;
    // A failure adds to the count; anything that got through ends the incident.
    let (failures, alerted_at): (i64, Option<String>) = sqlx::query_as(
        "INSERT INTO webhook_status (provider, last_at, last_outcome, last_reason, failures_in_row, alerted_at)
         VALUES ($1, $2, $3, $4, $5, NULL)
         ON CONFLICT (provider) DO UPDATE SET
            last_at = excluded.last_at, last_outcome = excluded.last_outcome, last_reason = excluded.last_reason,
            failures_in_row = CASE WHEN $5 = 0 THEN 0 ELSE webhook_status.failures_in_row + 1 END,
            alerted_at = CASE WHEN $5 = 0 THEN NULL ELSE webhook_status.alerted_at END
         RETURNING failures_in_row, alerted_at",
    )
    .bind(provider.as_str())
    .bind(&at)
    .bind(outcome.as_str())
    .bind(reason)
    .bind(i64::from(outcome.is_failure()))
    .fetch_one(&mut *tx)
    .await?;
    if !matches!(outcome, Outcome::Applied(_)) {
        sqlx::query(
            "INSERT INTO webhook_refusals (id, provider, received_at, outcome, reason, detail)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(new_id())
        .bind(provider.as_str())
        .bind(&at)
        .bind(outcome.as_str())
        .bind(reason.unwrap_or("error"))
        .bind(detail.map(|d| d.chars().take(200).collect::<String>()))
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM webhook_refusals WHERE id NOT IN
               (SELECT id FROM webhook_refusals ORDER BY received_at DESC, id LIMIT $1)",
        )
        .bind(KEEP)
        .execute(&mut *tx)
        .await?;
    }
    let mut alerted = false;
    if failures >= ALERT_AFTER && alerted_at.is_none() {
        // The row is locked by the upsert above: one delivery claims the incident's alert.
        let claimed = sqlx::query(
            "UPDATE webhook_status SET alerted_at = $1 WHERE provider = $2 AND alerted_at IS NULL",
        )
        .bind(&at)
        .bind(provider.as_str())
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 1 {
            let site = state.site();
            let lang =
                crate::domain::accounts::language_of_email(&mut tx, &site.coach_email).await?;
            let last = outcome.reason().unwrap_or(Reason::Error);
            let mail = alert_templates::webhooks_failing(
                lang,
                &site.name,
                &site.coach_email,
                &alert_templates::Failing {
                    provider: provider.name(),
                    failures,
                    reason: last.describe(lang),
                    at: chrono::Utc::now(),
                    time_zone: site.time_zone,
                    status_url: &lang.page(&state.config.public_base_url, "/admin#system"),
                },
            );
            enqueue(&mut tx, &mail).await?;
            alerted = true;
            tracing::warn!(
                provider = provider.as_str(),
                failures,
                "webhooks failing: the coach is told"
            );
        }
    }
    tx.commit().await?;
    Ok(alerted)
}

/// A provider's last delivery, for the status page.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = WebhookStatus)]
pub struct ProviderStatus {
    pub provider: Provider,
    pub last_at: String,
    /// `applied`, `ignored`, `refused` or `failed`.
    pub last_outcome: String,
    pub last_reason: Option<Reason>,
    /// Refused or failed deliveries since the last one that got through.
    pub failures_in_row: i64,
    /// When the coach was emailed about this run of failures.
    pub alerted_at: Option<String>,
}

/// A delivery that was not applied.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = WebhookRefusal)]
pub struct Refusal {
    pub id: String,
    pub provider: Provider,
    pub received_at: String,
    /// `ignored` (accepted, nothing applied), `refused` (4xx) or `failed` (the API's error).
    pub outcome: String,
    pub reason: Reason,
    /// What it was about: an event kind, a cart id.
    pub detail: Option<String>,
}

#[derive(sqlx_macros::FromRow)]
struct StatusRow {
    provider: String,
    last_at: String,
    last_outcome: String,
    last_reason: Option<String>,
    failures_in_row: i64,
    alerted_at: Option<String>,
}

/// Each provider's last delivery (those that have sent one), in [`Provider::ALL`]'s order.
pub async fn providers(db: &crate::db::Db) -> Result<Vec<ProviderStatus>, sqlx::Error> {
    let rows: Vec<StatusRow> = sqlx::query_as(
        "SELECT provider, last_at, last_outcome, last_reason, failures_in_row, alerted_at FROM webhook_status",
    )
    .fetch_all(db.reader())
    .await?;
    let mut out: Vec<ProviderStatus> = rows
        .into_iter()
        .filter_map(|r| {
            Some(ProviderStatus {
                provider: Provider::parse(&r.provider)?,
                last_at: r.last_at,
                last_outcome: r.last_outcome,
                last_reason: r.last_reason.as_deref().and_then(Reason::parse),
                failures_in_row: r.failures_in_row,
                alerted_at: r.alerted_at,
            })
        })
        .collect();
    out.sort_by_key(|s| Provider::ALL.iter().position(|p| *p == s.provider));
    Ok(out)
}

#[derive(sqlx_macros::FromRow)]
struct RefusalRow {
    id: String,
    provider: String,
    received_at: String,
    outcome: String,
    reason: String,
    detail: Option<String>,
}

/// The newest `limit` deliveries not applied, newest first.
pub async fn refusals(db: &crate::db::Db, limit: i64) -> Result<Vec<Refusal>, sqlx::Error> {
    let rows: Vec<RefusalRow> = sqlx::query_as(
        "SELECT id, provider, received_at, outcome, reason, detail FROM webhook_refusals
          ORDER BY received_at DESC, id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db.reader())
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            Some(Refusal {
                provider: Provider::parse(&r.provider)?,
                reason: Reason::parse(&r.reason).unwrap_or(Reason::Error),
                id: r.id,
                received_at: r.received_at,
                outcome: r.outcome,
                detail: r.detail,
            })
        })
        .collect())
}
