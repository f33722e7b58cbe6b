//! One module per resource, each exporting `router()`: an `OpenApiRouter` in which every route
//! is registered once, by its handler, for the router and the OpenAPI document alike. Merged
//! here; `startup` serves them and `openapi` documents them.

pub mod admin;
pub mod auth;
pub mod bookings;
pub mod cancellations;
pub mod contact;
pub mod dashboard;
pub mod health;
pub mod newsletter;
pub mod payments;
pub mod receipts;
pub mod webhooks;

use serde::Serialize;
use utoipa::ToSchema;
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
        .merge(webhooks::router())
        .merge(dashboard::router())
        .merge(bookings::router())
        .merge(cancellations::router())
        .merge(receipts::router())
        .merge(admin::router())
}

/// `{ "status": "…" }`: the answer of routes whose only news is that they worked.
#[derive(Serialize, ToSchema)]
pub struct Status {
    pub status: &'static str,
}

/// Trims optional text; empty becomes `None`.
pub fn optional(s: Option<String>) -> Option<String> {
    s.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}
