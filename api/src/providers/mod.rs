//! The outside services the API talks to, each a client that knows its provider's protocol
//! and signatures and nothing of the app: PayTabs and Paymob (payments) and Calendly
//! (scheduling). The flows that use them (`payments`, `scheduling`) sit above; the app's state
//! holds the clients; `Answer` is what `api doctor` reads of each. The local stand-ins for
//! development and tests are in the `devkit` crate.

pub mod calendly;
pub mod paymob;
pub mod paytabs;

/// A provider's answer to a call made to check our settings (`operations::doctor`): its
/// status, its JSON body (`Null` when there is none) and the time its server said it was (the
/// `Date` header), to compare our clock with.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: reqwest::StatusCode,
    pub body: serde_json::Value,
    pub date: Option<chrono::DateTime<chrono::Utc>>,
}

impl Answer {
    /// Reads a response (its body at most 1 MiB).
    pub async fn read(response: reqwest::Response) -> Answer {
        let status = response.status();
        let date = response
            .headers()
            .get(reqwest::header::DATE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| chrono::DateTime::parse_from_rfc2822(v).ok())
            .map(|d| d.with_timezone(&chrono::Utc));
        let bytes = response.bytes().await.unwrap_or_default();
        let body = if bytes.len() <= 1024 * 1024 {
            serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null)
        } else {
            serde_json::Value::Null
        };
        Answer { status, body, date }
    }

    /// The provider's words in a refusal: `message`, `detail` or `title`, else the status.
    pub fn message(&self) -> String {
        ["message", "detail", "title"]
            .iter()
            .find_map(|k| self.body[*k].as_str().filter(|m| !m.trim().is_empty()))
            .map(|m| m.chars().take(200).collect())
            .unwrap_or_else(|| self.status.to_string())
    }
}
