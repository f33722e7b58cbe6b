//! Calendly (docs/integrations.md §2): `Calendly-Webhook-Signature: t=<unix>,v1=<hex>` where
//! v1 = HMAC-SHA256(signing key, "{t}.{raw body}"), a tolerance on `t`, several keys for
//! rotation; the API client (scheduled event, cancellation); the signed client reference.

use std::time::Duration;

use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;

pub use crate::configuration::CalendlyConfig;
use crate::secret::Secret;

type HmacSha256 = Hmac<Sha256>;

/// `t=…,v1=…` for `body` at `t` (the stand-in signs with it; tests too).
pub fn signature_header(key: &str, t: i64, body: &[u8]) -> String {
    let mut mac = HmacSha256::new_from_slice(key.as_bytes()).expect("any key length");
    mac.update(format!("{t}.").as_bytes());
    mac.update(body);
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

#[derive(Debug, PartialEq, Eq)]
pub enum SignatureError {
    Missing,
    Malformed,
    /// The timestamp is outside the tolerance: a replay or a badly wrong clock.
    Stale,
    Mismatch,
}

/// Checks the header against the raw body with any of `keys`, at `now` (Unix seconds).
pub fn verify(
    header: Option<&str>,
    body: &[u8],
    keys: &[Secret],
    tolerance: i64,
    now: i64,
) -> Result<(), SignatureError> {
    let header = header.ok_or(SignatureError::Missing)?;
    let mut t = None;
    let mut v1 = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => t = value.parse::<i64>().ok(),
            Some(("v1", value)) => v1.push(value.to_string()),
            _ => {}
        }
    }
    let (Some(t), false) = (t, v1.is_empty()) else {
        return Err(SignatureError::Malformed);
    };
    if (now - t).abs() > tolerance {
        return Err(SignatureError::Stale);
    }
    for key in keys {
        for candidate in &v1 {
            let Ok(expected) = hex::decode(candidate) else {
                continue;
            };
            let mut mac =
                HmacSha256::new_from_slice(key.expose().as_bytes()).expect("any key length");
            mac.update(format!("{t}.").as_bytes());
            mac.update(body);
            if mac.verify_slice(&expected).is_ok() {
                return Ok(());
            }
        }
    }
    Err(SignatureError::Mismatch)
}

/// `base64url(user_id) . base64url(HMAC(secret, user_id)[..16])`: names a client in the booking
/// link's `utm_content` so that nobody can book against another client's credits by editing it.
pub fn client_reference(secret: &str, user_id: &str) -> String {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let mut mac = HmacSha256::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(user_id.as_bytes());
    let tag = mac.finalize().into_bytes();
    format!("{}.{}", b64.encode(user_id), b64.encode(&tag[..16]))
}

/// The user id in a genuine reference; `None` for a forged or garbled one.
pub fn verify_client_reference(secret: &str, reference: &str) -> Option<String> {
    let (id, _) = reference.split_once('.')?;
    let user_id = String::from_utf8(
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(id)
            .ok()?,
    )
    .ok()?;
    let expected = client_reference(secret, &user_id);
    // Constant-time enough: both are short strings of the same construction.
    (expected.len() == reference.len()
        && expected
            .bytes()
            .zip(reference.bytes())
            .fold(0u8, |a, (x, y)| a | (x ^ y))
            == 0)
        .then_some(user_id)
}

/// The last path segment of a Calendly URI (`…/scheduled_events/EVT` → `EVT`).
pub fn uuid_of(uri: &str) -> &str {
    uri.trim_end_matches('/').rsplit('/').next().unwrap_or(uri)
}

#[derive(Clone)]
pub struct Client {
    config: CalendlyConfig,
    http: reqwest::Client,
}

impl Client {
    pub fn new(config: CalendlyConfig) -> Client {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(15))
            .build()
            .expect("a TLS backend is available");
        Client { config, http }
    }

    pub fn config(&self) -> &CalendlyConfig {
        &self.config
    }

    fn token(&self) -> anyhow::Result<&str> {
        self.config
            .token
            .as_ref()
            .map(Secret::expose)
            .ok_or_else(|| anyhow::anyhow!("CALENDLY_TOKEN is not set"))
    }

    /// `GET /scheduled_events/{uuid}` → the event resource.
    pub async fn scheduled_event(&self, event_uri: &str) -> anyhow::Result<Value> {
        let url = format!(
            "{}/scheduled_events/{}",
            self.config.api_base.trim_end_matches('/'),
            uuid_of(event_uri)
        );
        let r = self
            .http
            .get(&url)
            .bearer_auth(self.token()?)
            .send()
            .await
            .map_err(|e| anyhow::anyhow!("Calendly: {}", e.without_url()))?;
        let status = r.status();
        let body: Value = r.json().await?;
        anyhow::ensure!(status.is_success(), "Calendly answered {status}: {body}");
        Ok(body["resource"].clone())
    }

    /// `POST /scheduled_events/{uuid}/cancellation`. Calendly answers 403 "Event is already
    /// canceled" for an event cancelled before (by the invitee, the host, or an earlier try):
    /// for us that is a success too, so cancelling is idempotent.
    pub async fn cancel_event(&self, event_uri: &str, reason: &str) -> anyhow::Result<Cancelled> {
        let url = format!(
            "{}/scheduled_events/{}/cancellation",
            self.config.api_base.trim_end_matches('/'),
            uuid_of(event_uri)
        );
        let r = self
            .http
            .post(&url)
            .bearer_auth(self.token()?)
            .json(&serde_json::json!({"reason": reason}))
            .send()
            .await
            .map_err(|e| anyhow::anyhow!("Calendly: {}", e.without_url()))?;
        let status = r.status();
        if status.is_success() {
            return Ok(Cancelled::Now);
        }
        let body = r.text().await.unwrap_or_default();
        let message = serde_json::from_str::<Value>(&body)
            .ok()
            .and_then(|v| v["message"].as_str().map(str::to_ascii_lowercase))
            .unwrap_or_default();
        if status == reqwest::StatusCode::FORBIDDEN && message.contains("already canceled") {
            return Ok(Cancelled::Already);
        }
        anyhow::bail!("Calendly refused the cancellation: {status} {body}")
    }
}

impl Client {
    /// `GET /users/me`: the token's user (`resource.uri`, `resource.current_organization`), or
    /// 401 for a token Calendly does not accept (`api doctor`).
    pub async fn me(&self) -> anyhow::Result<super::Answer> {
        let url = format!("{}/users/me", self.config.api_base.trim_end_matches('/'));
        self.get_answer(&url, &[]).await
    }

    /// `GET /webhook_subscriptions` of `organization` in `scope` (`user` with `user`, or
    /// `organization`): `collection[]` of `{callback_url, state, events, …}` (`api doctor`).
    pub async fn webhook_subscriptions(
        &self,
        organization: &str,
        scope: &str,
        user: Option<&str>,
    ) -> anyhow::Result<super::Answer> {
        let url = format!(
            "{}/webhook_subscriptions",
            self.config.api_base.trim_end_matches('/')
        );
        let mut query = vec![
            ("organization", organization),
            ("scope", scope),
            ("count", "100"),
        ];
        if let Some(user) = user {
            query.push(("user", user));
        }
        self.get_answer(&url, &query).await
    }

    async fn get_answer(&self, url: &str, query: &[(&str, &str)]) -> anyhow::Result<super::Answer> {
        let response = self
            .http
            .get(url)
            .query(query)
            .bearer_auth(self.token()?)
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .map_err(|e| anyhow::anyhow!("{}", e.without_url()))?;
        Ok(super::Answer::read(response).await)
    }
}

/// How a cancellation went at Calendly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cancelled {
    /// Calendly cancelled it now (and will send `invitee.canceled`).
    Now,
    /// It was cancelled before.
    Already,
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &[u8] = br#"{"event":"invitee.created","payload":{"email":"a@b.com"}}"#;

    #[test]
    fn the_documented_test_vector_signs_and_verifies() {
        let header = signature_header("calendly-test-signing-key", 1719921600, BODY);
        assert_eq!(
            header,
            "t=1719921600,v1=bb6b227ba53eea6d268f0293aadccc8a27557ebc857611724cfe98fca24ec850"
        );
        let keys = [
            Secret::new("old-key"),
            Secret::new("calendly-test-signing-key"),
        ];
        assert_eq!(
            verify(Some(&header), BODY, &keys, 180, 1719921600 + 100),
            Ok(()),
            "any rotated key verifies"
        );
    }

    #[test]
    fn stale_tampered_and_missing_signatures_are_refused() {
        let keys = [Secret::new("calendly-test-signing-key")];
        let header = signature_header("calendly-test-signing-key", 1719921600, BODY);
        assert_eq!(
            verify(Some(&header), BODY, &keys, 180, 1719921600 + 181),
            Err(SignatureError::Stale)
        );
        assert_eq!(
            verify(Some(&header), b"{}", &keys, 180, 1719921600),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify(None, BODY, &keys, 180, 0),
            Err(SignatureError::Missing)
        );
        assert_eq!(
            verify(Some("v1=abc"), BODY, &keys, 180, 0),
            Err(SignatureError::Malformed)
        );
        assert_eq!(
            verify(
                Some(&header),
                BODY,
                &[Secret::new("other")],
                180,
                1719921600
            ),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn client_references_cannot_be_forged() {
        let r = client_reference("secret", "user-1");
        assert_eq!(
            verify_client_reference("secret", &r).as_deref(),
            Some("user-1")
        );
        let forged = format!(
            "{}.{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode("user-2"),
            r.split('.').nth(1).unwrap()
        );
        assert_eq!(verify_client_reference("secret", &forged), None);
        assert_eq!(verify_client_reference("other-secret", &r), None);
        assert_eq!(verify_client_reference("secret", "garbage"), None);
    }
}
