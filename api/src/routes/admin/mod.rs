//! The admin dashboard's API (spec §2 /admin, §3, §5), one module per resource. Every route
//! takes `AdminUser` (401 signed out, 403 for a client).

mod bookings;
mod client_page;
mod clients;
mod exports;
mod lots;
mod payments;
mod stats;
mod users;
mod waive;

use axum::Router;
use axum::routing::{get, post};
use chrono::{NaiveDate, NaiveTime, TimeZone, Utc};

pub use bookings::{AdminBookingView, AssignBooking, PhoneBooking, SessionFilter};
pub use clients::{ClientRow, ClientSearch};
pub use lots::{ExtendLot, LotView, RefundPayment};
pub use payments::{AddPayment, RecordedPaymentView};
pub use stats::Stats;
pub use users::{CreateUser, CreatedUser};

use crate::domain::validity::MAX_VALIDITY_MONTHS;
use crate::domain::{now, ts};
use crate::error::AppError;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/admin/stats", get(stats::stats))
        .route("/api/admin/clients", get(clients::clients))
        .route(
            "/api/admin/clients/{id}",
            get(client_page::client_detail).put(client_page::edit_profile),
        )
        .route(
            "/api/admin/clients/{id}/credits",
            post(client_page::adjust_credits),
        )
        .route(
            "/api/admin/clients/{id}/deactivate",
            post(client_page::deactivate),
        )
        .route(
            "/api/admin/clients/{id}/reactivate",
            post(client_page::reactivate),
        )
        .route("/api/admin/exports/payments", get(exports::payments_csv))
        .route("/api/admin/users", post(users::create_user))
        .route("/api/admin/payments", post(payments::add_payment))
        .route("/api/admin/bookings", post(bookings::phone_booking))
        .route("/api/admin/bookings/recent", get(bookings::recent_bookings))
        .route(
            "/api/admin/bookings/needs-attention",
            get(bookings::needs_attention),
        )
        .route(
            "/api/admin/bookings/{id}/assign",
            post(bookings::assign_booking),
        )
        .route(
            "/api/admin/bookings/{id}/cancel",
            post(bookings::cancel_booking),
        )
        .route(
            "/api/admin/bookings/{id}/no-show",
            post(bookings::mark_no_show),
        )
        .route("/api/admin/sessions", get(bookings::sessions))
        .route("/api/admin/clients/{id}/lots", get(lots::client_lots))
        .route("/api/admin/lots/{id}/extend", post(lots::extend_lot))
        .route(
            "/api/admin/payments/{id}/refund",
            get(lots::refundable).post(lots::refund_payment),
        )
        .route(
            "/api/admin/bookings/{id}/waive",
            post(waive::waive_late_cancellation),
        )
}

/// A day in the coach's time zone, as the UTC timestamp of its first instant.
fn start_of_local_day(state: &AppState, day: NaiveDate) -> String {
    state
        .site()
        .time_zone
        .from_local_datetime(&day.and_time(NaiveTime::MIN))
        .earliest()
        .map(|d| ts(d.with_timezone(&Utc)))
        .unwrap_or_else(now)
}

/// The validity the admin picked for granted credits, or the settings' default.
fn validity_months(state: &AppState, picked: Option<i64>) -> Result<u32, AppError> {
    let max = i64::from(MAX_VALIDITY_MONTHS);
    match picked {
        None => Ok(state.site().default_validity_months),
        Some(m) if (1..=max).contains(&m) => Ok(m as u32),
        Some(_) => Err(AppError::field(
            "validityMonths",
            "Credits must be valid for 1 to 60 months",
        )),
    }
}

/// The OpenAPI paths of this module, for `openapi.rs`.
pub mod paths {
    pub use super::bookings::{
        __path_assign_booking, __path_cancel_booking, __path_mark_no_show, __path_needs_attention,
        __path_phone_booking, __path_recent_bookings, __path_sessions,
    };
    pub use super::client_page::{
        __path_adjust_credits, __path_client_detail, __path_deactivate, __path_edit_profile,
        __path_reactivate,
    };
    pub use super::clients::__path_clients;
    pub use super::exports::__path_payments_csv;
    pub use super::lots::{
        __path_client_lots, __path_extend_lot, __path_refund_payment, __path_refundable,
    };
    pub use super::payments::__path_add_payment;
    pub use super::stats::__path_stats;
    pub use super::users::__path_create_user;
    pub use super::waive::__path_waive_late_cancellation;
}
