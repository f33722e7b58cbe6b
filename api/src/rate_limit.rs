//! Fixed-window counters per (scope, key): per IP and per account on sign-in, sign-up,
//! password reset, contact and newsletter. In memory, per process: with several replicas
//! each enforces its own share, which still bounds guessing.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
    pub const SIGN_IN_ACCOUNT: Limit = Limit::per_minutes(10, 15);
    pub const SIGN_UP_IP: Limit = Limit::per_minutes(10, 60);
    pub const SIGN_UP_ACCOUNT: Limit = Limit::per_minutes(5, 60);
    pub const RESET_IP: Limit = Limit::per_minutes(10, 60);
    pub const RESET_ACCOUNT: Limit = Limit::per_minutes(3, 60);
    pub const CONTACT_IP: Limit = Limit::per_minutes(5, 10);
    pub const NEWSLETTER_IP: Limit = Limit::per_minutes(10, 60);
    pub const NEWSLETTER_EMAIL: Limit = Limit::per_minutes(3, 60);
}

/// (scope, key) → (window start, attempts in the window).
type Windows = HashMap<(&'static str, String), (Instant, u32)>;

pub struct RateLimiter {
    enabled: bool,
    windows: Mutex<Windows>,
}

impl RateLimiter {
    pub fn new(enabled: bool) -> RateLimiter {
        RateLimiter {
            enabled,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one attempt; refuses with the seconds until the window ends once `max` is passed.
    pub fn check(&self, scope: &'static str, key: &str, limit: Limit) -> Result<(), AppError> {
        if !self.enabled {
            return Ok(());
        }
        let now = Instant::now();
        let mut windows = self.windows.lock().expect("rate limiter poisoned");
        if windows.len() > 100_000 {
            windows.retain(|_, (start, _)| now.duration_since(*start) < Duration::from_secs(3600));
        }
        let entry = windows.entry((scope, key.to_string())).or_insert((now, 0));
        if now.duration_since(entry.0) >= limit.window {
            *entry = (now, 0);
        }
        entry.1 += 1;
        if entry.1 > limit.max {
            let retry_after = limit
                .window
                .saturating_sub(now.duration_since(entry.0))
                .as_secs()
                .max(1);
            return Err(AppError::RateLimited { retry_after });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_attempt_after_the_limit_is_refused_with_a_retry_time() {
        let r = RateLimiter::new(true);
        let limit = Limit::per_minutes(2, 1);
        assert!(r.check("t", "k", limit).is_ok());
        assert!(r.check("t", "k", limit).is_ok());
        match r.check("t", "k", limit) {
            Err(AppError::RateLimited { retry_after }) => assert!((1..=60).contains(&retry_after)),
            other => panic!("{other:?}"),
        }
        assert!(
            r.check("t", "other", limit).is_ok(),
            "keys are counted apart"
        );
        assert!(
            RateLimiter::new(false)
                .check("t", "k", Limit::per_minutes(0, 1))
                .is_ok()
        );
    }
}
