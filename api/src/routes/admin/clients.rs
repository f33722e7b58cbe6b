//! The admin's client list, with a search over names and emails.

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::SearchTerm;
use crate::error::{AppResult, ErrorBody};
use crate::extract::{AdminUser, AppQuery};
use crate::state::AppState;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ClientSearch {
    /// Part of a name or an email, any case (at most 100 characters).
    search: Option<String>,
}

#[derive(Serialize, ToSchema, sqlx_macros::FromRow)]
pub struct ClientRow {
    user_id: String,
    full_name: String,
    email: String,
    phone: Option<String>,
    created_at: String,
    total_credits: i64,
    used_credits: i64,
    available_credits: i64,
    /// Bookings that are not cancelled.
    session_count: i64,
    completed_sessions: i64,
    /// Confirmed bookings.
    upcoming_sessions: i64,
    /// The sponsors whose engagements pay for this client (issue 23).
    #[sqlx(skip)]
    sponsors: Vec<String>,
}

#[utoipa::path(get, path = "/api/admin/clients", tag = "admin", params(ClientSearch),
    responses((status = 200, body = [ClientRow]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn clients(
    State(state): State<AppState>,
    _admin: AdminUser,
    AppQuery(q): AppQuery<ClientSearch>,
) -> AppResult<Json<Vec<ClientRow>>> {
    let pattern = SearchTerm::parse_optional("search", q.search.as_deref())?
        .map(|s| s.like_pattern())
        .unwrap_or_else(|| "%".into());
    let rows: Vec<ClientRow> = sqlx::query_as(
        "SELECT p.user_id, p.full_name, p.email, p.phone, p.created_at,
                a.total_credits, a.used_credits, a.available_credits,
                (SELECT COUNT(*) FROM bookings b WHERE b.client_id = p.user_id AND b.status <> 'cancelled') AS session_count,
                (SELECT COUNT(*) FROM bookings b WHERE b.client_id = p.user_id AND b.status = 'completed') AS completed_sessions,
                (SELECT COUNT(*) FROM bookings b WHERE b.client_id = p.user_id AND b.status = 'confirmed') AS upcoming_sessions
           FROM profiles p JOIN client_accounts a ON a.user_id = p.user_id
          WHERE p.role = 'client' AND (LOWER(p.full_name) LIKE $1 ESCAPE '\\' OR LOWER(p.email) LIKE $1 ESCAPE '\\')
          ORDER BY p.full_name, p.user_id",
    )
    .bind(&pattern)
    .fetch_all(state.db.reader())
    .await?;
    let paid_for: Vec<(String, String)> = sqlx::query_as(
        "SELECT DISTINCT m.client_id, s.name FROM engagement_members m
           JOIN engagements e ON e.id = m.engagement_id JOIN sponsors s ON s.id = e.sponsor_id
          WHERE m.client_id IS NOT NULL ORDER BY s.name",
    )
    .fetch_all(state.db.reader())
    .await?;
    let mut rows = rows;
    for row in &mut rows {
        row.sponsors = paid_for
            .iter()
            .filter(|(client, _)| *client == row.user_id)
            .map(|(_, name)| name.clone())
            .collect();
    }
    Ok(Json(rows))
}
