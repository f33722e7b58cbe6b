//! Waiving a late cancellation: the client cancelled less than 24 hours before the session, so
//! the credit stayed used; the coach may give it back, once per booking.

use axum::Json;
use axum::extract::State;

use super::bookings::{AdminBookingView, booking_by_id, booking_id};
use crate::bookings::{change, store};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppPath};
use crate::state::AppState;

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
    let site = state.site();
    let ctx = state.context(&site);
    let mut tx = state.db.pool.begin().await?;
    let booking = store::hold(&mut tx, ctx.backend, id)
        .await?
        .ok_or_else(|| AppError::NotFound("Booking not found".into()))?;
    change::waive(&mut tx, &ctx, &booking).await?;
    tx.commit().await?;
    tracing::info!(booking = id, waived_by = %admin.user_id, "late cancellation waived; credit returned");
    Ok(Json(booking_by_id(&state, id).await?))
}
