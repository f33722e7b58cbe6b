//! The stand-in against the checks our own code makes: every webhook is verified the way our
//! handler verifies it, and the API calls go through our production Calendly client.

mod pages;
mod rest;
mod webhooks;

use std::sync::atomic::Ordering;

use api::scheduling::calendly::{CalendlyConfig, Client, verify};
use api::secret::Secret;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use tokio::sync::mpsc;

use super::pages::parse_start;
use super::*;

const KEY: &str = "standin-test-signing-key";
const TOKEN: &str = "standin-test-token";

/// Each delivery, verified like our webhook handler verifies it: the parsed JSON, or why not.
type Delivery = Result<Value, String>;

async fn serve(listener: tokio::net::TcpListener, app: Router) {
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
}

async fn listener() -> (tokio::net::TcpListener, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    (listener, format!("http://{addr}"))
}

/// A webhook receiver that checks the signature with `key`; returns its URL.
async fn receiver(key: &'static str) -> (String, mpsc::UnboundedReceiver<Delivery>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let app = Router::new().route(
        "/webhook",
        post(move |headers: HeaderMap, body: Bytes| {
            let tx = tx.clone();
            async move {
                let header = headers
                    .get("Calendly-Webhook-Signature")
                    .and_then(|v| v.to_str().ok());
                let verdict = verify(
                    header,
                    &body,
                    &[Secret::new(key)],
                    180,
                    Utc::now().timestamp(),
                )
                .map_err(|e| format!("{e:?}"))
                .and_then(|()| serde_json::from_slice::<Value>(&body).map_err(|e| e.to_string()));
                let status = if verdict.is_ok() {
                    StatusCode::OK
                } else {
                    StatusCode::UNAUTHORIZED
                };
                let _ = tx.send(verdict);
                status
            }
        }),
    );
    let (l, url) = listener().await;
    serve(l, app).await;
    (format!("{url}/webhook"), rx)
}

fn config(public_base: String, webhook_url: String) -> StandInConfig {
    StandInConfig {
        public_base,
        webhook_url,
        signing_key: KEY.to_string(),
        token: TOKEN.to_string(),
        time_zone: chrono_tz::Africa::Cairo,
        host_email: "mona.coach@example.com".to_string(),
        event_name: "Executive Coaching Session (60 min)".to_string(),
    }
}

/// A stand-in whose router is served, and the receiver of its webhooks.
async fn setup() -> (
    Arc<CalendlyStandIn>,
    String,
    mpsc::UnboundedReceiver<Delivery>,
) {
    let (webhook_url, rx) = receiver(KEY).await;
    let (l, origin) = listener().await;
    let standin = CalendlyStandIn::new(config(format!("{origin}/calendly-standin"), webhook_url));
    serve(l, router(Arc::clone(&standin))).await;
    (standin, origin, rx)
}

async fn next(rx: &mut mpsc::UnboundedReceiver<Delivery>) -> Value {
    tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .expect("a webhook within 5 s")
        .expect("receiver open")
        .expect("the webhook verifies")
}

/// Noon UTC `days` from now: in the future, and on the hour.
fn future(days: u64) -> DateTime<Utc> {
    let date = Utc::now()
        .date_naive()
        .checked_add_days(Days::new(days))
        .unwrap();
    Utc.from_utc_datetime(&date.and_hms_opt(12, 0, 0).unwrap())
}

fn client(origin: &str) -> Client {
    Client::new(CalendlyConfig {
        signing_keys: vec![Secret::new(KEY)],
        tolerance_seconds: 180,
        api_base: format!("{origin}/calendly-standin/api"),
        token: Some(Secret::new(TOKEN)),
        scheduling_url: format!("{origin}/calendly-standin/book"),
    })
}

fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}
