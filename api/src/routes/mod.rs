//! One module per resource, each exporting `router()`; merged in `startup`.

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

/// `{ "status": "…" }`: the answer of routes whose only news is that they worked.
#[derive(Serialize, ToSchema)]
pub struct Status {
    pub status: &'static str,
}

/// Trims optional text; empty becomes `None`.
pub fn optional(s: Option<String>) -> Option<String> {
    s.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}
