//! Offline payments recorded by the admin (spec /admin/add-payment, §5): a payment record and
//! credits through the same ledger function as online purchases.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use chrono::{NaiveDate, NaiveTime, TimeZone};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::optional;
use crate::domain::credits::{self, Applied};
use crate::domain::{new_id, now, ts};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/admin/payments", post(add_payment))
}

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
    /// In the currency's major unit, 2-decimal steps (e.g. 4500.50).
    amount: Option<f64>,
    sessions_purchased: Option<i64>,
    /// `YYYY-MM-DD`.
    payment_date: Option<String>,
    /// bank_transfer, credit_card, cash, check, paypal or other (default cash).
    payment_method: Option<String>,
    reference_number: Option<String>,
    notes: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRecordView {
    id: String,
    client_id: String,
    amount: f64,
    sessions_purchased: i64,
    payment_date: String,
    payment_method: String,
    reference_number: Option<String>,
    available_credits: i64,
}

#[utoipa::path(post, path = "/api/admin/payments", tag = "admin", request_body = AddPayment,
    responses((status = 201, body = PaymentRecordView), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody, description = "Client not found"),
              (status = 422, body = ErrorBody, description = "'Please fill in all required fields' and the field rules")))]
pub async fn add_payment(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppJson(body): AppJson<AddPayment>,
) -> AppResult<(StatusCode, Json<PaymentRecordView>)> {
    let client_id = optional(body.client_id);
    let date = optional(body.payment_date);
    let (Some(client_id), Some(amount), Some(sessions), Some(date)) =
        (client_id, body.amount, body.sessions_purchased, date)
    else {
        return Err(AppError::Validation {
            message: "Please fill in all required fields".into(),
            fields: Default::default(),
        });
    };
    let in_cents = (amount * 100.0).round();
    if amount.is_nan() || amount < 0.0 || (in_cents - amount * 100.0).abs() > 1e-6 || amount > 1e10
    {
        return Err(AppError::field(
            "amount",
            "Amount must be 0 or more, in steps of 0.01",
        ));
    }
    if sessions < 1 {
        return Err(AppError::field(
            "sessionsPurchased",
            "Sessions purchased must be at least 1",
        ));
    }
    let day = NaiveDate::parse_from_str(&date, "%Y-%m-%d")
        .map_err(|_| AppError::field("paymentDate", "Payment date must be a date (YYYY-MM-DD)"))?;
    let method = optional(body.payment_method).unwrap_or_else(|| "cash".into());
    if !METHODS.contains(&method.as_str()) {
        return Err(AppError::field(
            "paymentMethod",
            "Payment method must be bank_transfer, credit_card, cash, check, paypal or other",
        ));
    }
    // The payment date is a day in the coach's time zone; stored as its start in UTC.
    let payment_date = state
        .site
        .time_zone
        .from_local_datetime(&day.and_time(NaiveTime::MIN))
        .earliest()
        .map(|d| ts(d.with_timezone(&chrono::Utc)))
        .unwrap_or_else(now);
    let minor = (amount * 100.0).round() as i64;
    let reference = optional(body.reference_number);
    let notes = optional(body.notes);

    let mut tx = state.db.pool.begin().await?;
    let exists: Option<String> =
        sqlx::query_scalar("SELECT user_id FROM client_accounts WHERE user_id = $1")
            .bind(&client_id)
            .fetch_optional(&mut *tx)
            .await?;
    if exists.is_none() {
        return Err(AppError::NotFound("Client not found".into()));
    }
    let id = new_id();
    sqlx::query(
        "INSERT INTO payment_records (id, client_id, amount, currency, sessions_purchased, payment_date, payment_method, reference_number, notes, recorded_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(&id)
    .bind(&client_id)
    .bind(minor)
    .bind(&state.site.currency)
    .bind(sessions)
    .bind(&payment_date)
    .bind(&method)
    .bind(&reference)
    .bind(&notes)
    .bind(&admin.user_id)
    .bind(now())
    .execute(&mut *tx)
    .await?;
    let applied = credits::add_purchased(
        &mut tx,
        &client_id,
        sessions,
        credits::Kind::OfflinePayment,
        &format!("offline:{id}"),
        &payment_date,
    )
    .await?;
    debug_assert_eq!(applied, Applied::Yes, "a new record id is a new reference");
    let available: i64 =
        sqlx::query_scalar("SELECT available_credits FROM client_accounts WHERE user_id = $1")
            .bind(&client_id)
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    tracing::info!(client_id, sessions, recorded_by = %admin.user_id, "offline payment recorded");
    Ok((
        StatusCode::CREATED,
        Json(PaymentRecordView {
            id,
            client_id,
            amount: minor as f64 / 100.0,
            sessions_purchased: sessions,
            payment_date,
            payment_method: method,
            reference_number: reference,
            available_credits: available,
        }),
    ))
}
