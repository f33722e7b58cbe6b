//! Offline payments recorded by the admin (spec /admin/add-payment, §5): a payment record and
//! its credits, written by `domain::payments::record_offline_payment` like Add User's payment.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::common::start_of_local_day;
use crate::domain::credits::MAX_CREDITS_PER_CHANGE;
use crate::domain::money::AmountError;
use crate::domain::payments::{OfflinePayment, record_offline_payment};
use crate::domain::text::short_text;
use crate::domain::validity::Validity;
use crate::domain::{AmountInput, Money, MoneyView, Notes, RecordId};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson};
use crate::routes::receipts::issue_and_send;
use crate::state::AppState;

pub const METHODS: [&str; 6] = [
    "bank_transfer",
    "credit_card",
    "cash",
    "check",
    "paypal",
    "other",
];

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddPayment {
    client_id: Option<String>,
    /// In the currency's major unit, 2-decimal steps (e.g. 4500.50), 0 to 10,000,000.
    #[serde(default)]
    amount: AmountInput,
    /// 1 to 1,000.
    sessions_purchased: Option<i64>,
    /// `YYYY-MM-DD`.
    payment_date: Option<String>,
    /// bank_transfer, credit_card, cash, check, paypal or other (default cash).
    payment_method: Option<String>,
    reference_number: Option<String>,
    notes: Option<String>,
    /// How many months the credits last from the payment date, 1 to 60 (default: settings
    /// `credits.default_validity_months`).
    validity_months: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordedPaymentView {
    id: String,
    client_id: String,
    amount: MoneyView,
    sessions_purchased: i64,
    payment_date: String,
    payment_method: String,
    reference_number: Option<String>,
    available_credits: i64,
    /// The last day the credits can be used (`YYYY-MM-DD`, the coach's time zone).
    expires_on: String,
}

/// The spec's message when a required field is missing.
fn required() -> AppError {
    AppError::Validation {
        message: "Please fill in all required fields".into(),
        fields: Default::default(),
    }
}

/// An offline payment as the admin typed it, checked in the form's order.
struct OfflineRequest {
    client: RecordId,
    amount: Money,
    sessions: i64,
    day: NaiveDate,
    method: &'static str,
    validity_months: Option<i64>,
    reference: Option<String>,
    notes: Option<Notes>,
}

impl TryFrom<AddPayment> for OfflineRequest {
    type Error = AppError;

    fn try_from(body: AddPayment) -> Result<OfflineRequest, AppError> {
        let client_id = body.client_id.as_deref().map(str::trim).unwrap_or("");
        let date = body.payment_date.as_deref().map(str::trim).unwrap_or("");
        let (Some(amount), Some(sessions)) = (body.amount.read(), body.sessions_purchased) else {
            return Err(required());
        };
        if client_id.is_empty() || date.is_empty() {
            return Err(required());
        }
        let amount = amount.map_err(|e| match e {
            AmountError::TooLarge => {
                AppError::field("amount", "Amount must be at most 10,000,000.00")
            }
            AmountError::NotAnAmount => {
                AppError::field("amount", "Amount must be 0 or more, in steps of 0.01")
            }
        })?;
        if sessions < 1 {
            return Err(AppError::field(
                "sessionsPurchased",
                "Sessions purchased must be at least 1",
            ));
        }
        if sessions > MAX_CREDITS_PER_CHANGE {
            return Err(AppError::field(
                "sessionsPurchased",
                "Sessions purchased must be at most 1,000",
            ));
        }
        let day = NaiveDate::parse_from_str(date, "%Y-%m-%d").map_err(|_| {
            AppError::field("paymentDate", "Payment date must be a date (YYYY-MM-DD)")
        })?;
        let method = body
            .payment_method
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .unwrap_or("cash");
        let method = METHODS.iter().find(|m| **m == method).ok_or_else(|| {
            AppError::field(
                "paymentMethod",
                "Payment method must be bank_transfer, credit_card, cash, check, paypal or other",
            )
        })?;
        let validity_months = body.validity_months;
        super::common::validity_months_in_range(validity_months)?;
        let reference = short_text("referenceNumber", body.reference_number.as_deref(), 100)?;
        let notes = Notes::parse_optional("notes", body.notes.as_deref(), 2_000)?;
        let client = RecordId::parse(client_id)
            .ok_or_else(|| AppError::NotFound("Client not found".into()))?;
        Ok(OfflineRequest {
            client,
            amount,
            sessions,
            day,
            method,
            validity_months,
            reference,
            notes,
        })
    }
}

#[utoipa::path(post, path = "/api/admin/payments", tag = "admin", request_body = AddPayment,
    responses((status = 201, body = RecordedPaymentView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody, description = "Client not found"),
              (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
              (status = 422, body = ErrorBody, description = "'Please fill in all required fields' and the field rules")))]
pub async fn add_payment(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppJson(body): AppJson<AddPayment>,
) -> AppResult<(StatusCode, Json<RecordedPaymentView>)> {
    let OfflineRequest {
        client,
        amount,
        sessions,
        day,
        method,
        validity_months,
        reference,
        notes,
    } = OfflineRequest::try_from(body)?;
    let months = super::common::validity_months(&state, validity_months)?;
    // The payment date is a day in the coach's time zone; stored as its start in UTC.
    let payment_date = start_of_local_day(&state, day);
    let paid_at = crate::domain::parse_ts(&payment_date).unwrap_or_else(chrono::Utc::now);
    let validity = Validity::months_from(paid_at, months, state.site().time_zone);

    let mut tx = state.db.pool.begin().await?;
    let payment = OfflinePayment {
        client_id: client.as_str(),
        amount,
        currency: &state.site().currency,
        sessions,
        payment_date: &payment_date,
        method,
        reference: reference.as_deref(),
        notes: notes.as_ref().map(Notes::as_str),
        recorded_by: &admin.user_id,
        validity: &validity,
    };
    let id = record_offline_payment(&mut tx, state.db.backend, &payment)
        .await?
        .ok_or_else(|| AppError::NotFound("Client not found".into()))?;
    issue_and_send(&mut tx, &state, &id).await?;
    let available: i64 =
        sqlx::query_scalar("SELECT available_credits FROM client_accounts WHERE user_id = $1")
            .bind(client.as_str())
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    state.mail_wake.notify_one();
    tracing::info!(client_id = client.as_str(), sessions, recorded_by = %admin.user_id, "offline payment recorded");
    Ok((
        StatusCode::CREATED,
        Json(RecordedPaymentView {
            id,
            client_id: client.as_str().to_string(),
            amount: MoneyView::new(amount.minor(), &state.site().currency),
            sessions_purchased: sessions,
            payment_date,
            payment_method: method.to_string(),
            reference_number: reference,
            available_credits: available,
            expires_on: validity.expires_on_text(),
        }),
    ))
}
