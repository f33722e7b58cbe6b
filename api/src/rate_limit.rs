//! Fixed-window counters per (scope, key): per IP and per account on sign-in, sign-up,
//! password reset, contact and newsletter.
//!
//! Where they live follows the deployment: a SQLite deployment is one process, so its windows
//! are in memory; on PostgreSQL several replicas may serve behind a load balancer, so the
//! windows are rows of `rate_limits` that every replica counts in (one upsert an attempt;
//! ended windows are pruned as it goes). Either way the same limits hold for the whole API.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chrono::Utc;
use rand::Rng;
use sqlx::AnyPool;

use crate::db::{Backend, Db};
use crate::domain::{parse_ts, ts};
use crate::error::AppError;

#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub max: u32,
    pub window: Duration,
}

impl Limit {
    pub const fn per_minutes(max: u32, minutes: u64) -> Limit {
        Limit {
            max,
            window: Duration::from_secs(minutes * 60),
        }
    }
}

pub mod limits {
    use super::Limit;
    pub const SIGN_IN_IP: Limit = Limit::per_minutes(20, 15);
    /// Wrong passwords for one account; a completed password reset clears it.
    pub const SIGN_IN_ACCOUNT: Limit = Limit::per_minutes(10, 15);
    pub const SIGN_UP_IP: Limit = Limit::per_minutes(10, 60);
    pub const SIGN_UP_ACCOUNT: Limit = Limit::per_minutes(5, 60);
    pub const RESET_IP: Limit = Limit::per_minutes(10, 60);
    pub const RESET_ACCOUNT: Limit = Limit::per_minutes(3, 60);
    pub const CONFIRM_RESEND_ACCOUNT: Limit = Limit::per_minutes(3, 60);
    pub const CONTACT_IP: Limit = Limit::per_minutes(5, 10);
    pub const NEWSLETTER_IP: Limit = Limit::per_minutes(10, 60);
    pub const NEWSLETTER_EMAIL: Limit = Limit::per_minutes(3, 60);
}

/// (scope, key) → (window start, attempts in the window).
type Windows = HashMap<(&'static str, String), (Instant, u32)>;

enum Store {
    Memory(Mutex<Windows>),
    Shared(AnyPool),
}

pub struct RateLimiter {
    enabled: bool,
    store: Store,
}

/// Attempts counted so far in a window, and the seconds until it ends.
struct Window {
    attempts: u32,
    retry_after: u64,
}

impl RateLimiter {
    /// Windows in this process's memory (one process: SQLite, and unit tests).
    pub fn in_memory(enabled: bool) -> RateLimiter {
        RateLimiter {
            enabled,
            store: Store::Memory(Mutex::new(HashMap::new())),
        }
    }

    /// The store the deployment needs: the database on PostgreSQL, memory on SQLite.
    pub fn for_database(db: &Db, enabled: bool) -> RateLimiter {
        match db.backend {
            Backend::Postgres => RateLimiter {
                enabled,
                store: Store::Shared(db.pool.clone()),
            },
            Backend::Sqlite => RateLimiter::in_memory(enabled),
        }
    }

    /// Counts one attempt; refuses with the seconds until the window ends once `max` is passed.
    pub async fn check(
        &self,
        scope: &'static str,
        key: &str,
        limit: Limit,
    ) -> Result<(), AppError> {
        if !self.enabled {
            return Ok(());
        }
        let window = self.count(scope, key, limit).await?;
        if window.attempts > limit.max {
            return Err(AppError::RateLimited {
                retry_after: window.retry_after,
                reset_hint: false,
            });
        }
        Ok(())
    }

    /// Refuses when `max` attempts were already counted in the current window, counting none.
    /// `reset_hint`: the refusal tells the owner that a password reset lifts it.
    pub async fn refuse_if_spent(
        &self,
        scope: &'static str,
        key: &str,
        limit: Limit,
        reset_hint: bool,
    ) -> Result<(), AppError> {
        if !self.enabled {
            return Ok(());
        }
        match self.current(scope, key, limit).await? {
            Some(w) if w.attempts >= limit.max => Err(AppError::RateLimited {
                retry_after: w.retry_after,
                reset_hint,
            }),
            _ => Ok(()),
        }
    }

    /// Counts one attempt without refusing (e.g. a wrong password, counted after the fact).
    pub async fn record(
        &self,
        scope: &'static str,
        key: &str,
        limit: Limit,
    ) -> Result<(), AppError> {
        if self.enabled {
            self.count(scope, key, limit).await?;
        }
        Ok(())
    }

    /// Forgets a window (a completed password reset lifts the account's sign-in lock).
    pub async fn clear(&self, scope: &'static str, key: &str) -> Result<(), AppError> {
        match &self.store {
            Store::Memory(windows) => {
                lock(windows).remove(&(scope, key.to_string()));
            }
            Store::Shared(pool) => {
                sqlx::query("DELETE FROM rate_limits WHERE scope = $1 AND key = $2")
                    .bind(scope)
                    .bind(key)
                    .execute(pool)
                    .await?;
            }
        }
        Ok(())
    }

    async fn count(
        &self,
        scope: &'static str,
        key: &str,
        limit: Limit,
    ) -> Result<Window, AppError> {
        match &self.store {
            Store::Memory(windows) => {
                let now = Instant::now();
                let mut windows = lock(windows);
                if windows.len() > 100_000 {
                    windows.retain(|_, (start, _)| {
                        now.duration_since(*start) < Duration::from_secs(3600)
                    });
                }
                let entry = windows.entry((scope, key.to_string())).or_insert((now, 0));
                if now.duration_since(entry.0) >= limit.window {
                    *entry = (now, 0);
                }
                entry.1 += 1;
                let left = limit.window.saturating_sub(now.duration_since(entry.0));
                Ok(Window {
                    attempts: entry.1,
                    retry_after: left.as_secs().max(1),
                })
            }
            Store::Shared(pool) => {
                let now_t = Utc::now();
                let now = ts(now_t);
                let ends = ts(now_t + chrono::Duration::from_std(limit.window).unwrap_or_default());
                // One statement, so two replicas counting at once both count.
                let (attempts, expires_at): (i64, String) = sqlx::query_as(
                    "INSERT INTO rate_limits (scope, key, window_start, attempts, expires_at)
                     VALUES ($1, $2, $3, 1, $4)
                     ON CONFLICT (scope, key) DO UPDATE SET
                        window_start = CASE WHEN rate_limits.expires_at <= $3 THEN $3 ELSE rate_limits.window_start END,
                        attempts = CASE WHEN rate_limits.expires_at <= $3 THEN 1 ELSE rate_limits.attempts + 1 END,
                        expires_at = CASE WHEN rate_limits.expires_at <= $3 THEN $4 ELSE rate_limits.expires_at END
                     RETURNING attempts, expires_at",
                )
                .bind(scope)
                .bind(key)
                .bind(&now)
                .bind(&ends)
                .fetch_one(pool)
                .await?;
                if rand::thread_rng().gen_ratio(1, 64) {
                    sqlx::query("DELETE FROM rate_limits WHERE expires_at <= $1")
                        .bind(&now)
                        .execute(pool)
                        .await?;
                }
                Ok(Window {
                    attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
                    retry_after: seconds_until(&expires_at),
                })
            }
        }
    }

    async fn current(
        &self,
        scope: &'static str,
        key: &str,
        limit: Limit,
    ) -> Result<Option<Window>, AppError> {
        match &self.store {
            Store::Memory(windows) => {
                let now = Instant::now();
                let windows = lock(windows);
                Ok(windows
                    .get(&(scope, key.to_string()))
                    .map(|(start, attempts)| {
                        let elapsed = now.duration_since(*start);
                        Window {
                            attempts: if elapsed >= limit.window {
                                0
                            } else {
                                *attempts
                            },
                            retry_after: limit.window.saturating_sub(elapsed).as_secs().max(1),
                        }
                    }))
            }
            Store::Shared(pool) => {
                let row: Option<(i64, String)> = sqlx::query_as(
                    "SELECT attempts, expires_at FROM rate_limits WHERE scope = $1 AND key = $2 AND expires_at > $3",
                )
                .bind(scope)
                .bind(key)
                .bind(ts(Utc::now()))
                .fetch_optional(pool)
                .await?;
                Ok(row.map(|(attempts, expires_at)| Window {
                    attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
                    retry_after: seconds_until(&expires_at),
                }))
            }
        }
    }
}

fn lock(windows: &Mutex<Windows>) -> std::sync::MutexGuard<'_, Windows> {
    windows
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn seconds_until(when: &str) -> u64 {
    parse_ts(when)
        .map(|t| (t - Utc::now()).num_seconds().max(1) as u64)
        .unwrap_or(60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_attempt_after_the_limit_is_refused_with_a_retry_time() {
        let r = RateLimiter::in_memory(true);
        let limit = Limit::per_minutes(2, 1);
        assert!(r.check("t", "k", limit).await.is_ok());
        assert!(r.check("t", "k", limit).await.is_ok());
        match r.check("t", "k", limit).await {
            Err(AppError::RateLimited { retry_after, .. }) => {
                assert!((1..=60).contains(&retry_after))
            }
            other => panic!("{other:?}"),
        }
        assert!(
            r.check("t", "other", limit).await.is_ok(),
            "keys are counted apart"
        );
        r.clear("t", "k").await.unwrap();
        assert!(
            r.check("t", "k", limit).await.is_ok(),
            "a cleared window starts again"
        );
        assert!(
            RateLimiter::in_memory(false)
                .check("t", "k", Limit::per_minutes(0, 1))
                .await
                .is_ok()
        );
    }
}
