use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    status: &'static str,
    database: &'static str,
}

/// Liveness and database reachability, for load balancers and uptime checks.
#[utoipa::path(get, path = "/api/health", tag = "health",
    responses((status = 200, body = Health), (status = 503, body = Health, description = "The database does not answer")))]
pub async fn health(State(state): State<AppState>) -> (StatusCode, Json<Health>) {
    if state.db.ping().await {
        (
            StatusCode::OK,
            Json(Health {
                status: "ok",
                database: "ok",
            }),
        )
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(Health {
                status: "degraded",
                database: "unreachable",
            }),
        )
    }
}
