//! The OpenAPI 3.1 document, generated from the handlers' annotations, at `/api/openapi.json`.

use axum::routing::get;
use axum::{Json, Router};
use utoipa::OpenApi;

use crate::routes::{
    admin, admin_payments, auth, contact, dashboard, health, newsletter, payments, webhooks,
};
use crate::state::AppState;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Coaching portal API",
        description = "Accounts, contact, newsletter, purchases, credits, bookings, admin; every error is `{ error: { code, message, fields? } }`."
    ),
    paths(
        health::health,
        auth::sign_up,
        auth::sign_in,
        auth::sign_out,
        auth::session,
        auth::confirm_email,
        auth::request_password_reset,
        auth::confirm_password_reset,
        auth::change_password,
        contact::send_contact,
        newsletter::subscribe,
        newsletter::confirm,
        newsletter::unsubscribe_page,
        newsletter::unsubscribe,
        payments::create,
        payments::callback,
        payments::browser_return,
        payments::by_cart,
        payments::latest,
        admin_payments::add_payment,
        webhooks::calendly_webhook,
        dashboard::dashboard,
        dashboard::set_payment_history,
        dashboard::book_session,
        admin::stats,
        admin::clients,
        admin::create_user,
        admin::phone_booking,
        admin::recent_bookings,
        admin::sessions,
        admin::cancel_booking,
        admin::mark_no_show,
    ),
    components(schemas(
        crate::error::ErrorBody,
        crate::error::ErrorDetail,
        crate::routes::Status
    ))
)]
pub struct ApiDoc;

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/api/openapi.json",
        get(|| async { Json(ApiDoc::openapi()) }),
    )
}
