//! What several resources' routes share: the plain `{ "status": … }` answer and trimming of
//! optional text.

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
