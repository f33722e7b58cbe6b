//! The coach's status page (admin -> System, issue 24): the providers' webhooks and their
//! refusals, the mail waiting in or failed from the outbox with Retry, the scheduled jobs' last
//! runs, the catalogue loaded, `ledger verify`, and the checks of `api doctor`.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;

use crate::email::outbox::{self, SendNow, WaitingEmail};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppPath};
use crate::operations::catalogue::{self, CatalogueStatus};
use crate::operations::doctor::{self, Report};
use crate::operations::jobs::{self, JobRun};
use crate::operations::webhooks::{self, ProviderStatus, Refusal};
use crate::state::AppState;

/// How many refusals and outbox rows the page lists.
const LISTED: i64 = 100;

/// What the status page shows.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SystemView {
    /// Each provider's last webhook (only those that have sent one).
    webhooks: Vec<ProviderStatus>,
    /// The newest webhooks not applied, newest first, with their reason.
    refusals: Vec<Refusal>,
    /// Emails waiting in the outbox or failed from it, oldest first.
    outbox: Vec<WaitingEmail>,
    /// Whether Retry can send (a mail server is configured).
    can_send_mail: bool,
    /// Each scheduled job's last run.
    jobs: Vec<JobRun>,
    /// The catalogue loaded from the site.
    catalogue: CatalogueStatus,
}

/// Everything the page shows but the checks, which it runs on request.
#[utoipa::path(get, path = "/api/admin/system", tag = "admin",
    responses((status = 200, body = SystemView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn system(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<SystemView>> {
    let db = &state.db;
    Ok(Json(SystemView {
        webhooks: webhooks::providers(db).await?,
        refusals: webhooks::refusals(db, LISTED).await?,
        outbox: outbox::waiting(db, LISTED).await?,
        can_send_mail: state.mail.is_some(),
        jobs: jobs::last_runs(db).await?,
        catalogue: catalogue::status(db).await?,
    }))
}

/// What Retry did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RetryView {
    /// `sent`, or `pending` / `failed` when the mail server refused it again.
    status: String,
    /// The mail server's answer when it refused.
    error: Option<String>,
}

/// Sends a waiting or failed email now, through the mail server the outbox uses.
#[utoipa::path(post, path = "/api/admin/system/outbox/{id}/retry", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = RetryView, description = "Sent, or refused again by the mail server (it stays in the outbox)"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "Sent already, being sent right now, or no mail server is configured")))]
pub async fn retry_email(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(id): AppPath,
) -> AppResult<Json<RetryView>> {
    let Some(transport) = &state.mail else {
        return Err(AppError::Conflict(
            "No mail server is configured (SMTP_HOST): email waits in the outbox".into(),
        ));
    };
    let answer = outbox::send_now(&state.db, transport, &state.config.mail_from, &id).await?;
    tracing::info!(email_id = %id, by = %admin.user_id, outcome = ?answer, "outbox retry");
    match answer {
        SendNow::Sent => Ok(Json(RetryView {
            status: "sent".into(),
            error: None,
        })),
        SendNow::Refused(error) => {
            let status: String =
                sqlx::query_scalar("SELECT status FROM email_outbox WHERE id = $1")
                    .bind(&id)
                    .fetch_one(&state.db.pool)
                    .await?;
            Ok(Json(RetryView {
                status,
                error: Some(error),
            }))
        }
        SendNow::NotFound => Err(AppError::NotFound("Email not found".into())),
        SendNow::AlreadySent => Err(AppError::Conflict("This email was sent already".into())),
        SendNow::Busy => Err(AppError::Conflict(
            "This email is being sent right now; refresh in a moment".into(),
        )),
    }
}

/// An account whose totals differ from its ledger.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountDifference {
    user_id: String,
    client_name: Option<String>,
    total_credits: i64,
    used_credits: i64,
    available_credits: i64,
    ledger_total: i64,
    ledger_used: i64,
    lots_remaining: i64,
}

/// A lot whose remaining credits differ from its moves.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LotDifference {
    lot_id: String,
    user_id: String,
    remaining: i64,
    moved: i64,
}

/// An engagement whose executives' credits differ from the lots it made.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EngagementDifference {
    engagement_id: String,
    members_granted: i64,
    lots_granted: i64,
    moved: i64,
}

/// `api ledger verify`'s answer.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LedgerReport {
    /// Every account equals its ledger, every lot its moves, every engagement its lots.
    ok: bool,
    accounts_checked: i64,
    accounts: Vec<AccountDifference>,
    lots: Vec<LotDifference>,
    engagements: Vec<EngagementDifference>,
}

/// Recomputes every account from the ledger and every lot from its moves, as `api ledger
/// verify` does.
#[utoipa::path(post, path = "/api/admin/system/ledger-verify", tag = "admin",
    responses((status = 200, body = LedgerReport), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn verify_ledger(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<LedgerReport>> {
    let pool = &state.db.pool;
    let (accounts, lots) = crate::domain::credits::verify(pool).await?;
    let engagements = crate::sponsors::engagements::verify(pool).await?;
    let checked: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM client_accounts")
        .fetch_one(pool)
        .await?;
    let mut differences = Vec::with_capacity(accounts.len());
    for m in accounts {
        let client_name: Option<String> =
            sqlx::query_scalar("SELECT full_name FROM profiles WHERE user_id = $1")
                .bind(&m.user_id)
                .fetch_optional(pool)
                .await?;
        differences.push(AccountDifference {
            user_id: m.user_id,
            client_name,
            total_credits: m.total_credits,
            used_credits: m.used_credits,
            available_credits: m.available_credits,
            ledger_total: m.ledger_total,
            ledger_used: m.ledger_used,
            lots_remaining: m.lots_remaining,
        });
    }
    Ok(Json(LedgerReport {
        ok: differences.is_empty() && lots.is_empty() && engagements.is_empty(),
        accounts_checked: checked,
        accounts: differences,
        lots: lots
            .into_iter()
            .map(|l| LotDifference {
                lot_id: l.lot_id,
                user_id: l.user_id,
                remaining: l.remaining,
                moved: l.moved,
            })
            .collect(),
        engagements: engagements
            .into_iter()
            .map(|e| EngagementDifference {
                engagement_id: e.engagement_id,
                members_granted: e.members_granted,
                lots_granted: e.lots_granted,
                moved: e.moved,
            })
            .collect(),
    }))
}

/// Runs `api doctor`'s checks from the API, with its own configuration and database.
#[utoipa::path(post, path = "/api/admin/system/doctor", tag = "admin",
    responses((status = 200, body = Report), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn run_doctor(State(state): State<AppState>, _admin: AdminUser) -> Json<Report> {
    Json(doctor::run(&state.config, Some(&state.db)).await)
}
