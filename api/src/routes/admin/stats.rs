//! The admin's four numbers and this month's revenue, net of refunds.

use axum::Json;
use axum::extract::State;
use chrono::{Datelike, TimeZone, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::{BookingStatus, MoneyView, now, ts};
use crate::error::{AppResult, ErrorBody};
use crate::extract::AdminUser;
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    total_clients: i64,
    /// Credits sold: the sum of every client's total credits.
    total_credits: i64,
    /// Confirmed sessions at or after now.
    upcoming_sessions: i64,
    completed_sessions: i64,
    /// Payments since the 1st of this month in the coach's time zone, net of the refunds
    /// completed since then (so it can be negative when a refund outweighs the month's payments).
    revenue_this_month: MoneyView,
}

#[utoipa::path(get, path = "/api/admin/stats", tag = "admin",
    responses((status = 200, body = Stats), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn stats(State(state): State<AppState>, _admin: AdminUser) -> AppResult<Json<Stats>> {
    let pool = state.db.reader();
    let total_clients: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM profiles WHERE role = 'client'")
            .fetch_one(pool)
            .await?;
    let total_credits: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(a.total_credits), 0) AS BIGINT) FROM client_accounts a JOIN profiles p ON p.user_id = a.user_id WHERE p.role = 'client'",
    )
    .fetch_one(pool)
    .await?;
    let upcoming: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM bookings WHERE status = $1 AND session_date >= $2",
    )
    .bind(BookingStatus::Confirmed.as_str())
    .bind(now())
    .fetch_one(pool)
    .await?;
    let completed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM bookings WHERE status = $1")
        .bind(BookingStatus::Completed.as_str())
        .fetch_one(pool)
        .await?;
    let local_now = Utc::now().with_timezone(&state.site().time_zone);
    let first = state
        .site()
        .time_zone
        .with_ymd_and_hms(local_now.year(), local_now.month(), 1, 0, 0, 0)
        .earliest()
        .map(|d| ts(d.with_timezone(&Utc)))
        .unwrap_or_else(now);
    // Each amount is at most 10,000,000.00 (the boundary refuses more), so the sums fit.
    let paid: i64 = sqlx::query_scalar("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payment_records WHERE payment_date >= $1")
        .bind(&first)
        .fetch_one(pool)
        .await?;
    // Net of the refunds completed this month (whenever the payment was made): money that went
    // back is not revenue. Pending refunds still count as revenue until PayTabs settles them.
    let refunded: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payment_refunds WHERE status = 'completed' AND completed_at >= $1",
    )
    .bind(&first)
    .fetch_one(pool)
    .await?;
    let revenue = paid - refunded;
    Ok(Json(Stats {
        total_clients,
        total_credits,
        upcoming_sessions: upcoming,
        completed_sessions: completed,
        revenue_this_month: MoneyView::new(revenue, &state.site().currency),
    }))
}
