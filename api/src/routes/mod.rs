//! One module per resource, each exporting `router()`: an `OpenApiRouter` in which every route
//! is registered once, by its handler, for the router and the OpenAPI document alike. Merged
//! here; `startup` serves them and `openapi` documents them. `metrics` (for Prometheus, not
//! the site) is a plain router that `startup` serves beside them, undocumented.

pub mod admin;
pub mod auth;
pub mod bookings;
pub mod cancellations;
pub mod common;
pub mod contact;
pub mod dashboard;
pub mod discounts;
pub mod health;
pub mod metrics;
pub mod newsletter;
pub mod payments;
pub mod paymob;
pub mod receipts;
pub mod sponsors;
pub mod transfers;
pub mod webhooks;

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

/// Every route of the API.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(health::router())
        .merge(auth::router())
        .merge(contact::router())
        .merge(newsletter::router())
        .merge(payments::router())
        .merge(paymob::router())
        .merge(transfers::router())
        .merge(sponsors::router())
        .merge(discounts::router())
        .merge(webhooks::router())
        .merge(dashboard::router())
        .merge(bookings::router())
        .merge(cancellations::router())
        .merge(receipts::router())
        .merge(admin::router())
}
