//! Passwords: at least 6 characters (spec §5), not one of the 10,000 most common (the list
//! Django ships, from Royce Williams' compilation), hashed with argon2id (19 MiB, t=2, p=1:
//! OWASP's recommended minimum).

use std::collections::HashSet;
use std::sync::OnceLock;

use argon2::password_hash::{
    PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng,
};
use argon2::{Algorithm, Argon2, Params, Version};

use super::error::FieldError;

pub const MIN_LEN: usize = 6;

static COMMON: OnceLock<HashSet<&'static str>> = OnceLock::new();

fn common() -> &'static HashSet<&'static str> {
    COMMON.get_or_init(|| include_str!("common-passwords.txt").lines().collect())
}

/// A password that passed the rules. Its `Debug` hides it.
pub struct Password(String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(****)")
    }
}

impl Password {
    pub fn parse(raw: &str, field: &str) -> Result<Password, FieldError> {
        if raw.chars().count() < MIN_LEN {
            return Err(FieldError::new(
                field,
                "Password must be at least 6 characters",
            ));
        }
        if raw.len() > 1024 {
            return Err(FieldError::new(
                field,
                "Password must be at most 1024 characters",
            ));
        }
        if common().contains(raw.to_lowercase().as_str()) {
            return Err(FieldError::new(
                field,
                "This password is too common. Please choose one that is harder to guess.",
            ));
        }
        Ok(Password(raw.to_string()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

fn hasher() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes on a blocking thread: argon2 takes tens of milliseconds by design.
pub async fn hash_password(password: &Password) -> anyhow::Result<String> {
    let raw = password.0.clone();
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        hasher()
            .hash_password(raw.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| anyhow::anyhow!("hashing failed: {e}"))
    })
    .await?
}

/// Verifies on a blocking thread. `None` (no hash: an unknown user or one who never set a
/// password) still spends the same time, so response times do not reveal accounts.
pub async fn verify_password(raw: &str, hash: Option<&str>) -> bool {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let dummy = DUMMY
        .get_or_init(|| {
            let salt = SaltString::generate(&mut OsRng);
            hasher()
                .hash_password(b"timing-equaliser", &salt)
                .map(|h| h.to_string())
                .unwrap_or_default()
        })
        .clone();
    let known = hash.is_some();
    let hash = hash.map(str::to_string).unwrap_or(dummy);
    let raw = raw.to_string();
    tokio::task::spawn_blocking(move || {
        let ok = PasswordHash::new(&hash)
            .map(|parsed| hasher().verify_password(raw.as_bytes(), &parsed).is_ok())
            .unwrap_or(false);
        ok && known
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_common_passwords_are_refused() {
        assert!(Password::parse("abc12", "password").is_err());
        assert!(Password::parse("password", "password").is_err());
        assert!(
            Password::parse("Qwerty123", "password").is_err(),
            "case does not save a common password"
        );
        assert!(Password::parse("nile-sunrise-42", "password").is_ok());
    }

    #[tokio::test]
    async fn hashes_are_argon2id_and_verify() {
        let p = Password::parse("nile-sunrise-42", "password").unwrap();
        let h = hash_password(&p).await.unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("nile-sunrise-42", Some(&h)).await);
        assert!(!verify_password("nile-sunrise-43", Some(&h)).await);
        assert!(!verify_password("anything", None).await);
    }
}
