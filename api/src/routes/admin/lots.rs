//! A client's lots of credits (with their expiry) for the admin, extending a lot with a
//! reason, and refunding the payment a lot was bought with (issue 14, points 1 and 3).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::credits::{self, Extended};
use crate::domain::money::AmountError;
use crate::domain::validity::Validity;
use crate::domain::{AmountInput, FieldError, Notes, RecordId};
use crate::email::enqueue_all;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson, AppPath};
use crate::payments::refunds::{self, RefundAsked, RefundRow, Refundable};
use crate::state::AppState;
use content_model::payments::Provider;

/// The sponsor's engagement a lot's credits came from.
#[derive(Serialize, ToSchema)]
pub struct LotEngagement {
    id: String,
    title: String,
    sponsor: String,
}

/// One lot of a client's credits.
#[derive(Serialize, ToSchema, sqlx_macros::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct LotView {
    id: String,
    /// purchase, offline_payment, admin_adjustment, engagement (a sponsor's) or migrated
    /// (credits from before lots).
    source: String,
    /// The payment it was bought with (refunds start there).
    payment_record_id: Option<String>,
    granted: i64,
    /// Unused credits.
    remaining: i64,
    /// The last day its credits can be used (`YYYY-MM-DD`, the coach's time zone).
    expires_on: String,
    /// When its unused credits left; `null` while it is live.
    expired_at: Option<String>,
    created_at: String,
    /// The sponsor's engagement it came from (source `engagement`).
    #[sqlx(skip)]
    engagement: Option<LotEngagement>,
    #[serde(skip)]
    engagement_id: Option<String>,
    #[serde(skip)]
    engagement_title: Option<String>,
    #[serde(skip)]
    sponsor_name: Option<String>,
}

impl LotView {
    /// Names the engagement the lot came from, from the columns read with it.
    fn named(mut self) -> LotView {
        if let (Some(id), Some(title), Some(sponsor)) = (
            self.engagement_id.take(),
            self.engagement_title.take(),
            self.sponsor_name.take(),
        ) {
            self.engagement = Some(LotEngagement { id, title, sponsor });
        }
        self
    }
}

const LOT_COLUMNS: &str = "id, source, payment_record_id, granted, remaining, expires_on, expired_at, created_at, engagement_id,
     (SELECT e.title FROM engagements e WHERE e.id = credit_lots.engagement_id) AS engagement_title,
     (SELECT s.name FROM engagements e JOIN sponsors s ON s.id = e.sponsor_id WHERE e.id = credit_lots.engagement_id) AS sponsor_name";

fn record_id(raw: &str, what: &str) -> AppResult<RecordId> {
    RecordId::parse(raw).ok_or_else(|| AppError::NotFound(format!("{what} not found")))
}

#[utoipa::path(get, path = "/api/admin/clients/{id}/lots", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = [LotView], description = "Newest first"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn client_lots(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<Vec<LotView>>> {
    let id = record_id(&raw_id, "Client")?;
    let lots: Vec<LotView> = sqlx::query_as(&format!(
        "SELECT {LOT_COLUMNS} FROM credit_lots WHERE user_id = $1 ORDER BY created_at DESC, id"
    ))
    .bind(id.as_str())
    .fetch_all(state.db.reader())
    .await?;
    Ok(Json(lots.into_iter().map(LotView::named).collect()))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtendLot {
    /// The new last day (`YYYY-MM-DD`), later than the current one, at most 60 months ahead.
    expires_on: Option<String>,
    /// Why (kept with the lot), 3 to 500 characters.
    reason: Option<String>,
}

#[utoipa::path(post, path = "/api/admin/lots/{id}/extend", tag = "admin", params(("id" = String, Path)), request_body = ExtendLot,
    responses((status = 200, body = LotView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "The lot has expired"),
              (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
              (status = 422, body = ErrorBody, description = "A date that is not later, or a missing reason")))]
pub async fn extend_lot(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw_id): AppPath,
    AppJson(body): AppJson<ExtendLot>,
) -> AppResult<Json<LotView>> {
    let id = record_id(&raw_id, "Lot")?;
    let day = body.expires_on.as_deref().map(str::trim).unwrap_or("");
    let day = NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .map_err(|_| AppError::field("expiresOn", "Choose the new expiry date"))?;
    let today = chrono::Utc::now()
        .with_timezone(&state.site().time_zone)
        .date_naive();
    let latest = today
        .checked_add_months(chrono::Months::new(
            crate::domain::validity::MAX_VALIDITY_MONTHS,
        ))
        .unwrap_or(today);
    if day > latest {
        return Err(AppError::field(
            "expiresOn",
            "The new expiry date must be within 60 months",
        ));
    }
    let reason = Notes::parse_optional("reason", body.reason.as_deref(), 500)?
        .filter(|r| r.as_str().chars().count() >= 3)
        .ok_or_else(|| AppError::field("reason", "Give a reason (at least 3 characters)"))?;
    let validity = Validity::through(day, state.site().time_zone);
    let mut tx = state.db.pool.begin().await?;
    match credits::extend_lot(
        &mut tx,
        state.db.backend,
        id.as_str(),
        &validity,
        reason.as_str(),
        &admin.user_id,
    )
    .await?
    {
        Extended::Yes => {}
        Extended::NoSuchLot => return Err(AppError::NotFound("Lot not found".into())),
        Extended::AlreadyExpired => {
            return Err(AppError::Conflict(
                "These credits have already expired; grant new credits instead".into(),
            ));
        }
        Extended::NotLater => {
            return Err(AppError::field(
                "expiresOn",
                "The new expiry date must be later than the current one",
            ));
        }
    }
    let lot: LotView = sqlx::query_as(&format!(
        "SELECT {LOT_COLUMNS} FROM credit_lots WHERE id = $1"
    ))
    .bind(id.as_str())
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(lot = id.as_str(), expires_on = %lot.expires_on, by = %admin.user_id, "lot extended");
    Ok(Json(lot.named()))
}

#[utoipa::path(get, path = "/api/admin/payments/{id}/refund", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = Refundable, description = "What can still be refunded"), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn refundable(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<Refundable>> {
    let id = record_id(&raw_id, "Payment")?;
    let mut conn = state.db.reader().acquire().await?;
    refunds::refundable(&mut conn, id.as_str())
        .await?
        .map(Json)
        .ok_or_else(|| AppError::NotFound("Payment not found".into()))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundPayment {
    /// Unused credits to remove, 0 to the payment's unused credits.
    credits: Option<i64>,
    /// In the currency's major unit, 2-decimal steps, up to what was paid minus earlier refunds.
    #[serde(default)]
    amount: AmountInput,
    reason: Option<String>,
}

/// A refund as the admin asked for it: credits, an amount in minor units, a reason.
struct RefundRequest {
    credits: i64,
    amount: i64,
    reason: Option<Notes>,
}

impl TryFrom<RefundPayment> for RefundRequest {
    type Error = FieldError;

    fn try_from(body: RefundPayment) -> Result<RefundRequest, FieldError> {
        let amount = match body.amount.read() {
            None => 0,
            Some(Ok(m)) => m.minor(),
            Some(Err(AmountError::TooLarge | AmountError::NotAnAmount)) => {
                return Err(FieldError::new(
                    "amount",
                    "Amount must be 0 or more, in steps of 0.01",
                ));
            }
        };
        Ok(RefundRequest {
            credits: body.credits.unwrap_or(0),
            amount,
            reason: Notes::parse_optional("reason", body.reason.as_deref(), 500)?,
        })
    }
}

#[utoipa::path(post, path = "/api/admin/payments/{id}/refund", tag = "admin", params(("id" = String, Path)), request_body = RefundPayment,
    responses((status = 201, body = RefundRow, description = "Online: sent to the provider that took it, PayTabs or Paymob (completed, or pending until it answers); offline: recorded"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "The provider refused the refund (its message); the refund failed and its credits are back"),
              (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
              (status = 422, body = ErrorBody, description = "More credits than are unused, or more money than is left to refund")))]
pub async fn refund_payment(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw_id): AppPath,
    AppJson(body): AppJson<RefundPayment>,
) -> AppResult<(StatusCode, Json<RefundRow>)> {
    let id = record_id(&raw_id, "Payment")?;
    let RefundRequest {
        credits,
        amount,
        reason,
    } = RefundRequest::try_from(body)?;
    let mut tx = state.db.pool.begin().await?;
    let not_found = || AppError::NotFound("Payment not found".into());
    if !refunds::lock_payment(&mut tx, state.db.backend, id.as_str()).await? {
        return Err(not_found());
    }
    let payment = refunds::refundable(&mut tx, id.as_str())
        .await?
        .ok_or_else(not_found)?;
    payment.check(credits, amount)?;
    let provider = match payment.method.as_str() {
        "paymob" => Some(Provider::Paymob),
        "paytabs" => Some(Provider::Paytabs),
        _ => None,
    };
    let online = match (payment.sale_tran_ref(), provider) {
        (Some(sale), Some(provider)) if state.gateway(provider).is_some() => {
            Some((sale.to_string(), provider))
        }
        (Some(_), Some(provider)) => {
            return Err(AppError::BadGateway(format!(
                "Payments are not configured, so {} cannot refund",
                provider.name()
            )));
        }
        _ => None,
    };
    let asked = RefundAsked {
        credits,
        amount,
        reason: reason.as_ref().map(Notes::as_str),
        admin_id: &admin.user_id,
    };
    let site = state.site();
    let (row, mail) = refunds::record(&mut tx, &state.context(&site), &payment, &asked).await?;
    enqueue_all(&mut tx, &mail).await?;
    tx.commit().await?;
    state.wake_mail(&mail);
    tracing::info!(payment = id.as_str(), refund = %row.id, credits, amount, by = %admin.user_id, "refund asked");
    let row = match online.and_then(|(sale, p)| state.gateway(p).map(|g| (sale, g))) {
        Some((sale, gateway)) => match refunds::send(&state, gateway, &row.id, &sale).await? {
            refunds::Sent::Row(row) => row,
            refunds::Sent::Refused(why) => {
                return Err(AppError::Conflict(format!(
                    "{} refused the refund: {why}. Nothing was refunded and the credits are back on the client's account.",
                    gateway.provider().name()
                )));
            }
        },
        None => row,
    };
    Ok((StatusCode::CREATED, Json(row)))
}
