//! Waiving a late cancellation: the client cancelled less than 24 hours before the session, so
//! the credit stayed used; the coach may give it back, once per booking.

use axum::Json;
use axum::extract::State;

use super::bookings::{AdminBookingView, booking_by_id, booking_id};
use crate::domain::credits::{self, Applied};
use crate::domain::{BookingStatus, now};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppPath};
use crate::state::AppState;

#[derive(sqlx::FromRow)]
struct LateCancel {
    #[sqlx(try_from = "String")]
    status: BookingStatus,
    client_id: Option<String>,
    credit_debited: i64,
    cancelled_by: Option<String>,
    late_cancel_waived_at: Option<String>,
}

fn not_waivable() -> AppError {
    AppError::Conflict(
        "Only a late cancellation whose credit stayed used can be waived, once".into(),
    )
}

#[utoipa::path(post, path = "/api/admin/bookings/{id}/waive", tag = "admin", params(("id" = String, Path)),
    responses((status = 200, body = AdminBookingView, description = "The credit is back in the client's account"),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody, description = "Not a late cancellation that kept its credit, or waived before")))]
pub async fn waive_late_cancellation(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppPath(raw_id): AppPath,
) -> AppResult<Json<AdminBookingView>> {
    let id = booking_id(&raw_id)?;
    let id = id.as_str();
    let mut tx = state.db.pool.begin().await?;
    let row: Option<LateCancel> = sqlx::query_as(&format!(
        "SELECT status, client_id, credit_debited, cancelled_by, late_cancel_waived_at FROM bookings WHERE id = $1{}",
        state.db.backend.for_update()
    ))
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let row = row.ok_or_else(|| AppError::NotFound("Booking not found".into()))?;
    let late = row.status == BookingStatus::Cancelled
        && row.credit_debited == 1
        && row.late_cancel_waived_at.is_none()
        && matches!(row.cancelled_by.as_deref(), Some("client" | "invitee"));
    let Some(client) = row.client_id.filter(|_| late) else {
        return Err(not_waivable());
    };
    match credits::refund_one(
        &mut tx,
        state.db.backend,
        &client,
        id,
        &format!("waive:{id}"),
    )
    .await?
    {
        Applied::Yes => {}
        _ => return Err(not_waivable()),
    }
    sqlx::query("UPDATE bookings SET credit_debited = 0, late_cancel_waived_at = $1 WHERE id = $2")
        .bind(now())
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(booking = id, waived_by = %admin.user_id, "late cancellation waived; credit returned");
    Ok(Json(booking_by_id(&state, id).await?))
}
