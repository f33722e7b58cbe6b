//! A value that must never reach a log line: a server key, a password, the app secret. Its own
//! module because the configuration and the provider clients (PayTabs, Calendly) all hold
//! secrets, and neither should import the other for it.

use std::fmt;

/// A value that must never reach a log line: `Debug` prints `Secret(****)`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(****)")
    }
}
