//! Several replicas on one PostgreSQL database, as the README says the API can run: two real
//! `api serve` processes (beside the test's own app, a third replica) take payment callbacks,
//! booking webhooks and sign-ins in any order, and drain one outbox. Every payment is credited
//! once, credits never go below zero, every email leaves exactly once, and the limits are the
//! same for all. (SQLite is one process by design: these tests run on PostgreSQL only.)

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use chrono::Utc;
use serde_json::{Value, json};

use crate::bookings::payload;
use crate::support::{
    CALENDLY_KEY, Options, PAYTABS_KEY, TestApp, assert_ledger_verifies, error_of, new_client,
    spawn_app_with, using_postgres,
};

const APP_SECRET: &str = "test-app-secret-test-app-secret-0123456789";

/// A running `api serve` on the test app's database, stopped when dropped.
struct Replica {
    base: String,
    child: Child,
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn start_replica(app: &TestApp) -> Replica {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let child = Command::new(env!("CARGO_BIN_EXE_api"))
        .arg("serve")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs([
            ("APP_ENV", "development"),
            ("HOST", "127.0.0.1"),
            ("PORT", &port.to_string()),
            ("DATABASE_URL", &app.database_url),
            ("PUBLIC_BASE_URL", &base),
            ("COOKIE_SECURE", "false"),
            ("RATE_LIMITS", "true"),
            ("SMTP_HOST", "127.0.0.1"),
            ("SMTP_PORT", &app.mail.port.to_string()),
            ("SMTP_TLS", "none"),
            (
                "MAIL_FROM",
                "Nadine Kamel Coaching <no-reply@coach.example.com>",
            ),
            ("CONTENT_DIR", &content.display().to_string()),
            ("PAYTABS_PROFILE_ID", "4242"),
            ("PAYTABS_SERVER_KEY", PAYTABS_KEY),
            ("PAYTABS_BASE_URL", &format!("{}/paytabs-standin", app.base)),
            ("CALENDLY_SIGNING_KEYS", CALENDLY_KEY),
            ("APP_SECRET", APP_SECRET),
            ("RUST_LOG", "warn"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the api binary starts");
    let replica = Replica { base, child };
    for _ in 0..200 {
        let up = reqwest::get(format!("{}/api/health", replica.base)).await;
        if up.is_ok_and(|r| r.status().is_success()) {
            return replica;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the replica on {} did not start", replica.base);
}

async fn post(base: &str, c: &reqwest::Client, path: &str, body: Value) -> reqwest::Response {
    c.post(format!("{base}{path}"))
        .header("Origin", base)
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn scalar(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn two_replicas_credit_once_never_overdraw_send_each_email_once_and_share_limits() {
    if !using_postgres() {
        return; // one SQLite file is served by one process; see the module comment
    }
    let app = spawn_app_with(Options {
        rate_limits: true,
        ..Options::default()
    })
    .await;
    let (a, b) = (start_replica(&app).await, start_replica(&app).await);
    let bases = [a.base.clone(), b.base.clone()];

    // A client signs up on one replica and starts a purchase on the other.
    let mona = new_client();
    let r = post(
        &bases[0],
        &mona,
        "/api/auth/sign-up",
        json!({
            "full_name": "Mona Adel", "email": "mona@example.com", "password": "nile-sunrise-42"
        }),
    )
    .await;
    assert_eq!(r.status(), 201);
    let r = post(
        &bases[0],
        &mona,
        "/api/auth/sign-in",
        json!({
            "email": "mona@example.com", "password": "nile-sunrise-42"
        }),
    )
    .await;
    assert_eq!(r.status(), 200);
    let r = post(&bases[1], &mona, "/api/payments/paytabs/create", json!({
        "packageType": "individual", "sessions": 5, "amount": 20250,
        "customerName": "Mona Adel", "customerEmail": "mona@example.com", "customerPhone": "+201001234567", "isGuest": false
    }))
    .await;
    assert_eq!(r.status(), 200, "{:?}", r.text().await);
    let (cart, tran_ref): (String, String) =
        sqlx::query_as("SELECT cart_id, tran_ref FROM payment_transactions")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();

    // PayTabs' approval arrives ten times, on both replicas at once.
    let callback = serde_json::to_vec(&json!({
        "tran_ref": tran_ref, "cart_id": cart, "cart_currency": "EGP", "cart_amount": "20250.00",
        "tran_currency": "EGP", "tran_total": "20250.00", "tran_type": "Sale",
        "payment_result": {"response_status": "A", "response_code": "G1", "response_message": "Authorised"}
    }))
    .unwrap();
    let signature = api::payments::paytabs::sign(PAYTABS_KEY, &callback);
    let mut handles = Vec::new();
    for i in 0..10 {
        let (url, body, sig) = (
            format!("{}/api/payments/paytabs/callback", bases[i % 2]),
            callback.clone(),
            signature.clone(),
        );
        handles.push(tokio::spawn(async move {
            reqwest::Client::new()
                .post(url)
                .header("Content-Type", "application/json")
                .header("Signature", sig)
                .body(body)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }));
    }
    for h in handles {
        assert_eq!(h.await.unwrap(), 200);
    }
    let user: String = sqlx::query_scalar("SELECT id FROM users")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(
        scalar(&app, "SELECT total_credits FROM client_accounts").await,
        5
    );
    assert_eq!(
        scalar(
            &app,
            "SELECT COUNT(*) FROM credit_ledger WHERE kind = 'purchase'"
        )
        .await,
        1
    );

    // Twelve bookings with the client's signed reference, split over both replicas, on five
    // credits: five confirmed, seven waiting, never below zero.
    let reference = api::scheduling::calendly::client_reference(APP_SECRET, &user);
    let mut handles = Vec::new();
    for i in 0..12 {
        let body = payload(
            "invitee.created",
            &format!("r{i}"),
            "mona@example.com",
            Utc::now() + chrono::Duration::days(2) + chrono::Duration::hours(i),
            json!({"tracking": {"utm_content": reference}}),
        );
        let url = format!("{}/api/webhooks/calendly", bases[i as usize % 2]);
        handles.push(tokio::spawn(async move {
            let bytes = serde_json::to_vec(&body).unwrap();
            reqwest::Client::new()
                .post(url)
                .header("Content-Type", "application/json")
                .header(
                    "Calendly-Webhook-Signature",
                    api::scheduling::calendly::signature_header(
                        CALENDLY_KEY,
                        Utc::now().timestamp(),
                        &bytes,
                    ),
                )
                .body(bytes)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }));
    }
    for h in handles {
        assert_eq!(h.await.unwrap(), 200);
    }
    assert_eq!(
        scalar(
            &app,
            "SELECT COUNT(*) FROM bookings WHERE status = 'confirmed'"
        )
        .await,
        5
    );
    assert_eq!(
        scalar(
            &app,
            "SELECT COUNT(*) FROM bookings WHERE status = 'pending'"
        )
        .await,
        7
    );
    assert_eq!(
        scalar(&app, "SELECT available_credits FROM client_accounts").await,
        0
    );
    assert_ledger_verifies(&app).await;

    // Three replicas drain one outbox: every queued email is delivered once.
    let queued = scalar(&app, "SELECT COUNT(*) FROM email_outbox").await;
    assert!(
        queued >= 14,
        "sign-up, receipt, 5 confirmations, 7 notices: {queued}"
    );
    for _ in 0..400 {
        if scalar(
            &app,
            "SELECT COUNT(*) FROM email_outbox WHERE status <> 'sent'",
        )
        .await
            == 0
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        scalar(
            &app,
            "SELECT COUNT(*) FROM email_outbox WHERE status = 'sent'"
        )
        .await,
        queued
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let received = app.mail.received.lock().unwrap().len() as i64;
    assert_eq!(received, queued, "each email exactly once");

    // Wrong passwords counted on either replica lock the account on both.
    let guesser = new_client();
    for i in 0..10 {
        let r = post(
            &bases[i % 2],
            &guesser,
            "/api/auth/sign-in",
            json!({
                "email": "mona@example.com", "password": "wrong-guess-1"
            }),
        )
        .await;
        assert_eq!(r.status(), 400);
    }
    for base in &bases {
        let r = post(
            base,
            &guesser,
            "/api/auth/sign-in",
            json!({
                "email": "mona@example.com", "password": "nile-sunrise-42"
            }),
        )
        .await;
        assert_eq!(error_of(r).await.0, 429);
    }
}
