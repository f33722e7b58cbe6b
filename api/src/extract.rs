//! Extractors: who is asking (`AuthUser`, `AdminUser`, `MaybeAuthUser`), from where
//! (`ClientIp`), and what the request sends (`AppJson`, `AppQuery`, `AppPath`: see `input`).

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::header;
use axum::http::request::Parts;
use chrono::Utc;

use crate::domain::accounts::Role;
use crate::domain::{hash_token, parse_ts, ts};
use crate::error::AppError;
use crate::state::AppState;

mod input;
pub use input::{AppJson, AppPath, AppQuery, MAX_TEXT_CHARS, refused_text, text_problem};

pub const SESSION_COOKIE: &str = "session";

/// The client's address: the peer, or, behind a trusted proxy (`TRUST_PROXY=true`), the
/// address that proxy appended to `X-Forwarded-For`: the right-most entry. Everything left of
/// it was written by the caller, who can put anything there, so it is never used.
#[derive(Debug, Clone)]
pub struct ClientIp(pub String);

/// The right-most address of `X-Forwarded-For` (over every header line, in order).
pub fn appended_by_proxy(parts: &Parts) -> Option<IpAddr> {
    let joined = parts
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join(",");
    joined.rsplit(',').next()?.trim().parse::<IpAddr>().ok()
}

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if state.config.trust_proxy
            && let Some(ip) = appended_by_proxy(parts)
        {
            return Ok(ClientIp(ip.to_string()));
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip().to_string());
        Ok(ClientIp(peer.unwrap_or_else(|| "unknown".into())))
    }
}

/// The signed-in user, from the session cookie. 401 without a valid session.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user_id: String,
    pub email: String,
    pub full_name: String,
    pub phone: Option<String>,
    pub role: Role,
    pub session_id: String,
    pub email_confirmed: bool,
    /// The writer's use count when this user was read (`Db::write_generation`): a read made
    /// for this request may be cached only if nothing was written since (`read_cache`).
    pub read_at: Option<u64>,
}

impl AuthUser {
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

pub fn session_token(parts: &Parts) -> Option<String> {
    parts
        .headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.to_string())
        .filter(|v| !v.is_empty())
}

/// A session and its user as stored: what `read_cache` keeps for the session lookup.
#[derive(sqlx::FromRow, Clone)]
pub struct SessionRow {
    user_id: String,
    email: String,
    full_name: String,
    phone: Option<String>,
    #[sqlx(try_from = "String")]
    role: Role,
    email_confirmed_at: Option<String>,
    idle_expires_at: String,
    expires_at: String,
    last_seen_at: String,
}

/// Looks the session up, enforces idle and absolute expiry, and slides the idle expiry.
pub async fn load_session(state: &AppState, token: &str) -> Result<Option<AuthUser>, AppError> {
    let id = hash_token(token);
    let generation = state.db.write_generation();
    if let Some(row) = generation.and_then(|g| state.sessions.get(&id, g)) {
        return check_session(state, id, row, generation).await;
    }
    let row: Option<SessionRow> = sqlx::query_as(
        "SELECT s.user_id, u.email, p.full_name, p.phone, p.role, u.email_confirmed_at,
                s.idle_expires_at, s.expires_at, s.last_seen_at
           FROM sessions s
           JOIN users u ON u.id = s.user_id
           JOIN profiles p ON p.user_id = s.user_id
          WHERE s.id = $1 AND u.deactivated_at IS NULL",
    )
    .bind(&id)
    .fetch_optional(state.db.reader())
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    if let Some(g) = generation {
        state.sessions.put(id.clone(), g, row.clone());
    }
    check_session(state, id, row, generation).await
}

/// Enforces idle and absolute expiry on a stored session, and slides the idle expiry.
async fn check_session(
    state: &AppState,
    id: String,
    row: SessionRow,
    generation: Option<u64>,
) -> Result<Option<AuthUser>, AppError> {
    let (expires, idle_expires) = (&row.expires_at, &row.idle_expires_at);
    let now = Utc::now();
    let now_ts = ts(now);
    if now_ts >= *idle_expires || now_ts >= *expires {
        sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(&id)
            .execute(&state.db.pool)
            .await?;
        return Ok(None);
    }
    // Slide the idle expiry at most once a minute, not on every request.
    if parse_ts(&row.last_seen_at).is_none_or(|t| (now - t).num_seconds() >= 60) {
        let idle =
            ts(now + chrono::Duration::from_std(state.config.session_idle).unwrap_or_default());
        let idle = if idle > *expires {
            expires.clone()
        } else {
            idle
        };
        sqlx::query("UPDATE sessions SET last_seen_at = $1, idle_expires_at = $2 WHERE id = $3")
            .bind(&now_ts)
            .bind(&idle)
            .bind(&id)
            .execute(&state.db.pool)
            .await?;
    }
    Ok(Some(AuthUser {
        user_id: row.user_id,
        email: row.email,
        full_name: row.full_name,
        phone: row.phone,
        role: row.role,
        session_id: id,
        email_confirmed: row.email_confirmed_at.is_some(),
        read_at: generation,
    }))
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = session_token(parts).ok_or_else(AppError::unauthenticated)?;
        load_session(state, &token)
            .await?
            .ok_or_else(AppError::unauthenticated)
    }
}

/// The signed-in user if there is one.
pub struct MaybeAuthUser(pub Option<AuthUser>);

impl FromRequestParts<AppState> for MaybeAuthUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        match session_token(parts) {
            Some(token) => Ok(MaybeAuthUser(load_session(state, &token).await?)),
            None => Ok(MaybeAuthUser(None)),
        }
    }
}

/// A signed-in admin: 401 when signed out, 403 for a client.
#[derive(Debug, Clone)]
pub struct AdminUser(pub AuthUser);

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let user = AuthUser::from_request_parts(parts, state).await?;
        if !user.is_admin() {
            return Err(AppError::Forbidden("Admin access required".into()));
        }
        Ok(AdminUser(user))
    }
}
