//! Several replicas on one PostgreSQL database, as the README says the API can run: two real
//! `api serve` processes (beside the test's own app, a third replica) take payment callbacks,
//! booking webhooks and sign-ins in any order, and drain one outbox. Every payment is credited
//! once, credits never go below zero, every email leaves exactly once, and the limits are the
//! same for all. (SQLite is one process by design: these tests run on PostgreSQL only.)

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use chrono::Utc;
use serde_json::{Value, json};

use crate::bookings::{payload, send_webhook};
use crate::support::{
    CALENDLY_KEY, Options, PAYTABS_KEY, TestApp, assert_ledger_verifies, error_of, new_client,
    spawn_app, spawn_app_with, using_postgres,
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
            send_webhook(url, &body, Utc::now().timestamp()).await
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

/// The caches of `read_cache` on PostgreSQL (`api::data_generation`): a write through one
/// process shows on the very next read through any other, however warm its caches are. The
/// test's own app is one replica (its caches can be looked at), beside two `api serve`.
#[tokio::test]
async fn a_write_through_one_replica_shows_on_the_next_read_through_any_other() {
    if !using_postgres() {
        return; // one SQLite file is served by one process; see the module comment
    }
    let app = spawn_app().await;
    let (a, b) = (start_replica(&app).await, start_replica(&app).await);
    let boss = crate::support::admin_client(&app, "boss@coach.example.com").await;
    let (mona, id) = crate::bookings::client_with_credits(&app, "mona@example.com", 0).await;
    let today = Utc::now()
        .with_timezone(&chrono_tz::Africa::Cairo)
        .format("%Y-%m-%d")
        .to_string();
    let readers_of = |base: &str| format!("{base}/api/dashboard");
    let credits = |base: String, c: reqwest::Client| async move {
        let r = c.get(format!("{base}/api/dashboard")).send().await.unwrap();
        assert_eq!(r.status(), 200);
        r.json::<Value>().await.unwrap()["account"]["availableCredits"].clone()
    };
    // Readers keep every replica's caches warm the whole time.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut readers = Vec::new();
    for base in [&app.base, &a.base, &b.base, &a.base] {
        let (url, mona, stop) = (readers_of(base), mona.clone(), stop.clone());
        readers.push(tokio::spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = mona.get(&url).send().await;
            }
        }));
    }
    let bases = [app.base.clone(), a.base.clone(), b.base.clone()];
    let mut served_from_memory = 0;
    for expected in 1..=12_i64 {
        // The test app's dashboard is cached at the current generation before the write.
        let mut warm = false;
        for _ in 0..100 {
            let generation = app.state.db.read_generation().await;
            if generation
                .and_then(|g| app.state.dashboards.get(&(id.clone(), "all"), g))
                .is_some()
            {
                warm = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        served_from_memory += i64::from(warm);
        let writer = &bases[expected as usize % 3];
        let r = post(
            writer,
            &boss,
            "/api/admin/payments",
            json!({"clientId": id, "amount": 100, "sessionsPurchased": 1, "paymentDate": today}),
        )
        .await;
        assert_eq!(r.status(), 201, "{:?}", r.text().await);
        for base in &bases {
            assert_eq!(
                credits(base.clone(), mona.clone()).await,
                expected,
                "after payment {expected} through {writer}, read through {base}"
            );
        }
    }
    assert!(
        served_from_memory >= 10,
        "the caches were warm before only {served_from_memory} of 12 writes"
    );
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for r in readers {
        r.await.unwrap();
    }
    // A sign-out through one replica is refused at once by the others, warm as they are.
    let plain = reqwest::Client::new();
    let r = post(
        &a.base,
        &plain,
        "/api/auth/sign-in",
        json!({"email": "mona@example.com", "password": "nile-sunrise-42"}),
    )
    .await;
    assert_eq!(r.status(), 200);
    let cookie = r.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let read = |base: &String| plain.get(readers_of(base)).header("Cookie", &cookie).send();
    for base in bases.iter().chain(&bases) {
        assert_eq!(read(base).await.unwrap().status(), 200);
    }
    let r = plain
        .post(format!("{}/api/auth/sign-out", b.base))
        .header("Origin", &b.base)
        .header("Cookie", &cookie)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);
    for base in &bases {
        assert_eq!(read(base).await.unwrap().status(), 401, "through {base}");
    }
}
