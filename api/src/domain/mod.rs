//! Values parsed once at the boundary (`Email::parse`, `Password::parse`), ids, tokens and
//! timestamps in the one format the database stores.

pub mod accounts;
pub mod credits;
pub mod discounts;
mod email;
mod error;
mod language;
pub mod money;
mod password;
pub mod payments;
pub mod receipts;
pub mod status;
pub mod text;
pub mod validity;

pub use email::Email;
pub use error::{DomainError, FieldError};
pub use language::{LANGUAGE_MESSAGE, Language};
pub use money::{AmountInput, Money, MoneyView};
pub use password::{Password, hash_password, verify_password};
pub use status::{BookingSource, BookingStatus, PaymentStatus};
pub use text::{Notes, PersonName, Phone, RecordId, SearchTerm};

/// What a domain change needs besides the caller's transaction: the database's dialect, the
/// time, the site's settings and its public address. No `AppState`, so a test or a job can
/// build one with the clock it wants (`AppState::context` builds it for a request).
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub backend: crate::db::Backend,
    pub now: DateTime<Utc>,
    pub site: &'a crate::site::SiteInfo,
    /// The site's public address: links in emails, invitation UIDs.
    pub base_url: &'a str,
}

/// The emails a change asks to send, queued by the caller in the same transaction.
pub type Mail = Vec<crate::email::OutgoingEmail>;

use base64::Engine;
use chrono::{DateTime, Utc};
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Timestamps are stored as RFC 3339 UTC text with microseconds, which sorts correctly.
pub fn ts(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

pub fn now() -> String {
    ts(Utc::now())
}

pub fn parse_ts(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

/// A random 128-bit id, hex.
pub fn new_id() -> String {
    let mut b = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut b);
    hex::encode(b)
}

/// A 256-bit random token for a cookie or an emailed link, and the SHA-256 that is stored.
pub fn new_token() -> (String, String) {
    let mut b = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut b);
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
    let hash = hash_token(&token);
    (token, hash)
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_sort_as_text() {
        let a = ts(DateTime::parse_from_rfc3339("2026-01-02T03:04:05Z")
            .unwrap()
            .with_timezone(&Utc));
        let b = ts(DateTime::parse_from_rfc3339("2026-01-02T03:04:05.5Z")
            .unwrap()
            .with_timezone(&Utc));
        assert_eq!(a, "2026-01-02T03:04:05.000000Z");
        assert!(a < b);
        assert_eq!(parse_ts(&b).unwrap().timestamp_millis() % 1000, 500);
    }

    #[test]
    fn tokens_are_256_bits_and_stored_hashed() {
        let (t, h) = new_token();
        assert_eq!(t.len(), 43);
        assert_eq!(h, hash_token(&t));
        assert_ne!(new_token().0, t);
    }
}
