//! Extractors: who is asking (`AuthUser`, `AdminUser`, `MaybeAuthUser`), from where
//! (`ClientIp`), and what the request sends (`AppJson`, `AppQuery`, `AppPath`: see `input`).

use std::net::{IpAddr, SocketAddr};

use crate::error::AppError;
pub use crate::sessions::AuthUser;
use crate::state::AppState;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::header;
use axum::http::request::Parts;

mod input;
pub use input::{
    AppJson, AppPath, AppQuery, MAX_TEXT_CHARS, refused_text, sends_json, text_problem,
};

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

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = session_token(parts).ok_or_else(AppError::unauthenticated)?;
        crate::sessions::load(
            &state.db,
            &state.sessions,
            state.config.session_idle,
            &token,
        )
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
            Some(token) => Ok(MaybeAuthUser(
                crate::sessions::load(
                    &state.db,
                    &state.sessions,
                    state.config.session_idle,
                    &token,
                )
                .await?,
            )),
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
