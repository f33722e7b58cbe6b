//! Who is asking: a session cookie's token looked up (through the exact cache of
//! `read_cache`), with idle and absolute expiry enforced and the idle expiry slid. The extractors
//! of `extract` call [`load`]; this module knows nothing of requests or of the app's state.

use std::time::Duration;

use chrono::Utc;

use crate::db::Db;
use crate::domain::accounts::Role;
use crate::domain::{Language, hash_token, parse_ts, ts};
use crate::read_cache::ReadCache;

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
    /// The language the user's emails are written in.
    pub language: Language,
    /// The generation this user was read at (`Db::read_generation`): a read made for this
    /// request may be cached only under it (`Db::generation_since`, `read_cache`).
    pub read_at: Option<u64>,
}

impl AuthUser {
    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }
}

/// A session and its user as stored: what `read_cache` keeps for the session lookup.
#[derive(sqlx_macros::FromRow, Clone)]
pub struct SessionRow {
    user_id: String,
    email: String,
    full_name: String,
    phone: Option<String>,
    role: Role,
    email_confirmed_at: Option<String>,
    preferred_language: Language,
    idle_expires_at: String,
    expires_at: String,
    last_seen_at: String,
}

/// Looks the session up, enforces idle and absolute expiry, and slides the idle expiry.
pub async fn load(
    db: &Db,
    cache: &ReadCache<String, SessionRow>,
    idle: Duration,
    token: &str,
) -> Result<Option<AuthUser>, sqlx::Error> {
    let id = hash_token(token);
    let generation = db.read_generation().await;
    if let Some(row) = generation.and_then(|g| cache.get(&id, g)) {
        return check(db, idle, id, row, generation).await;
    }
    let loading = match generation {
        Some(g) => {
            let loading = cache.loading(&id).await;
            if let Some(row) = cache.get(&id, g) {
                drop(loading);
                return check(db, idle, id, row, generation).await;
            }
            Some(loading)
        }
        None => None,
    };
    let row: Option<SessionRow> = sqlx::query_as(
        "SELECT s.user_id, u.email, p.full_name, p.phone, p.role, u.email_confirmed_at, u.preferred_language,
                s.idle_expires_at, s.expires_at, s.last_seen_at
           FROM sessions s
           JOIN users u ON u.id = s.user_id
           JOIN profiles p ON p.user_id = s.user_id
          WHERE s.id = $1 AND u.deactivated_at IS NULL",
    )
    .bind(&id)
    .fetch_optional(db.reader())
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    if let Some(g) = generation {
        cache.put(id.clone(), g, row.clone());
    }
    drop(loading);
    check(db, idle, id, row, generation).await
}

/// Enforces idle and absolute expiry on a stored session, and slides the idle expiry.
async fn check(
    db: &Db,
    idle: Duration,
    id: String,
    row: SessionRow,
    generation: Option<u64>,
) -> Result<Option<AuthUser>, sqlx::Error> {
    let (expires, idle_expires) = (&row.expires_at, &row.idle_expires_at);
    let now = Utc::now();
    let now_ts = ts(now);
    if now_ts >= *idle_expires || now_ts >= *expires {
        sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(&id)
            .execute(&db.pool)
            .await?;
        return Ok(None);
    }
    // Slide the idle expiry at most once a minute, not on every request.
    if parse_ts(&row.last_seen_at).is_none_or(|t| (now - t).num_seconds() >= 60) {
        let idle = ts(now + chrono::Duration::from_std(idle).unwrap_or_default());
        let idle = if idle > *expires {
            expires.clone()
        } else {
            idle
        };
        sqlx::query("UPDATE sessions SET last_seen_at = $1, idle_expires_at = $2 WHERE id = $3")
            .bind(&now_ts)
            .bind(&idle)
            .bind(&id)
            .execute(&db.pool)
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
        language: row.preferred_language,
        read_at: generation,
    }))
}
