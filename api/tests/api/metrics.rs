//! `/metrics`: behind its bearer token, and counting what happened, exactly. Each test app has
//! its own recorder (`monitoring`), so tests running side by side never see each other's counts.

use std::collections::BTreeMap;

use chrono::{Duration, Utc};
use serde_json::json;

use crate::bookings::{deliver, deliver_at, from_book_session, payload};
use crate::payments::{client, hosted_page, post_return, press};
use crate::support::{
    METRICS_TOKEN, Options, PAYTABS_KEY, TestApp, error_of, spawn_app, spawn_app_with, user_id,
};

/// Every sample of a scrape: `name{label="value",…}` (labels sorted) → value.
#[derive(Debug)]
struct Scrape {
    samples: BTreeMap<String, f64>,
    text: String,
}

impl Scrape {
    /// The sample of `name` with exactly these labels (0 when absent).
    fn get(&self, name: &str, labels: &[(&str, &str)]) -> f64 {
        self.samples.get(&key(name, labels)).copied().unwrap_or(0.0)
    }
}

fn key(name: &str, labels: &[(&str, &str)]) -> String {
    let mut labels: Vec<String> = labels.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
    labels.sort();
    if labels.is_empty() {
        name.to_string()
    } else {
        format!("{name}{{{}}}", labels.join(","))
    }
}

async fn scrape(app: &TestApp) -> Scrape {
    let r = reqwest::Client::new()
        .get(app.url("/metrics"))
        .bearer_auth(METRICS_TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = r.text().await.unwrap();
    let samples = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let (series, value) = line.rsplit_once(' ').expect("`series value`");
            let (name, labels) = match series.split_once('{') {
                Some((name, rest)) => {
                    let inner = rest.strip_suffix('}').expect("labels end with }");
                    let pairs: Vec<(&str, &str)> = inner
                        .split("\",")
                        .map(|p| {
                            let (k, v) = p.split_once("=\"").expect("label=\"value\"");
                            (k, v.trim_end_matches('"'))
                        })
                        .collect();
                    (name, pairs)
                }
                None => (series, vec![]),
            };
            (key(name, &labels), value.parse().expect("a number"))
        })
        .collect();
    Scrape { samples, text }
}

/// Scrapes until `done` holds (the stand-ins' callbacks travel on their own), at most 10 s.
async fn scrape_until(app: &TestApp, done: impl Fn(&Scrape) -> bool) -> Scrape {
    for _ in 0..100 {
        let s = scrape(app).await;
        if done(&s) {
            return s;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the metrics never showed it:\n{}", scrape(app).await.text);
}

fn webhooks<'a>(provider: &'a str, outcome: &'a str) -> [(&'a str, &'a str); 2] {
    [("provider", provider), ("outcome", outcome)]
}

#[tokio::test]
async fn metrics_need_the_token_and_without_one_configured_there_is_no_route() {
    let app = spawn_app().await;
    let url = app.url("/metrics");
    let anonymous = reqwest::Client::new().get(&url).send().await.unwrap();
    assert_eq!(
        anonymous.headers()["www-authenticate"].to_str().unwrap(),
        "Bearer"
    );
    let (status, error) = error_of(anonymous).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (401, Some("unauthorized"))
    );
    let guesses = [
        format!("Bearer {}", &METRICS_TOKEN[..METRICS_TOKEN.len() - 1]),
        format!("Bearer {METRICS_TOKEN}x"),
        format!("Basic {METRICS_TOKEN}"),
        METRICS_TOKEN.to_string(),
    ];
    for guess in guesses {
        let r = reqwest::Client::new()
            .get(&url)
            .header("Authorization", &guess)
            .send()
            .await
            .unwrap();
        let (status, _) = error_of(r).await;
        assert_eq!(status, 401, "{guess}");
    }
    let scraped = scrape(&app).await;
    assert!(scraped.text.contains("# TYPE http_requests_total counter"));
    assert_eq!(
        scraped.get(
            "http_requests_total",
            &[("method", "GET"), ("route", "/metrics"), ("status", "401")]
        ),
        5.0,
        "the refused scrapes are counted too"
    );

    // Without METRICS_TOKEN the route is as absent as any unknown one, token or not.
    let unmonitored = spawn_app_with(Options {
        metrics: false,
        ..Options::default()
    })
    .await;
    let r = reqwest::Client::new()
        .get(unmonitored.url("/metrics"))
        .bearer_auth(METRICS_TOKEN)
        .send()
        .await
        .unwrap();
    let (status, error) = error_of(r).await;
    let (_, unknown) = error_of(unmonitored.get("/api/no-such-route").await).await;
    assert_eq!((status, &error), (404, &unknown));
}

#[tokio::test]
async fn a_purchase_and_a_booking_are_counted_exactly_and_routes_by_their_template() {
    let app = spawn_app().await;
    let before = scrape(&app).await;
    assert_eq!(
        before.get(
            "payments",
            &[("provider", "paytabs"), ("outcome", "completed")]
        ),
        0.0
    );
    assert!(
        before
            .text
            .contains("payments{provider=\"transfer\",outcome=\"failed\"} 0"),
        "every provider and outcome is reported, at 0 before the first:\n{}",
        before.text
    );

    // A purchase on the PayTabs stand-in: its callback and the browser's return both arrive.
    let c = client(&app, "mona@example.com").await;
    let page = hosted_page(&app, &c).await;
    let (action, fields) = press(&page, "approve").await;
    let location = post_return(&action, &fields).await;
    let cart = location.split("cart_id=").nth(1).unwrap().to_string();
    let bought = scrape_until(&app, |s| {
        s.get("webhooks_total", &webhooks("paytabs", "completed")) >= 1.0
    })
    .await;
    let completed = [("provider", "paytabs"), ("outcome", "completed")];
    assert_eq!(bought.get("payments", &completed), 1.0);
    assert_eq!(
        bought.get(
            "payments",
            &[("provider", "paytabs"), ("outcome", "pending")]
        ),
        0.0
    );
    assert_eq!(
        bought.get("webhooks_total", &webhooks("paytabs", "completed")),
        1.0
    );
    assert_eq!(
        bought.get("credits_granted_total", &[("kind", "purchase")]),
        5.0
    );
    let create = [
        ("method", "POST"),
        ("route", "/api/payments/paytabs/create"),
        ("status", "200"),
    ];
    assert_eq!(bought.get("http_requests_total", &create), 1.0);
    assert_eq!(
        bought.get(
            "http_requests_total",
            &[
                ("method", "POST"),
                ("route", "/api/payments/paytabs/return"),
                ("status", "303")
            ]
        ),
        1.0
    );

    // A route with an id is reported by its template, never by the id.
    let r = c
        .get(app.url(&format!("/api/payments/by-cart/{cart}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        app.get(&format!("/api/nothing-here/{cart}")).await.status(),
        404
    );
    let read = scrape(&app).await;
    let by_cart = [
        ("method", "GET"),
        ("route", "/api/payments/by-cart/{cart_id}"),
        ("status", "200"),
    ];
    assert_eq!(read.get("http_requests_total", &by_cart), 1.0);
    assert_eq!(
        read.get("http_request_duration_seconds_count", &by_cart),
        1.0
    );
    let mut bucket = by_cart.to_vec();
    bucket.push(("le", "+Inf"));
    assert_eq!(
        read.get("http_request_duration_seconds_bucket", &bucket),
        1.0
    );
    assert_eq!(
        read.get(
            "http_requests_total",
            &[("method", "GET"), ("route", "unmatched"), ("status", "404")]
        ),
        1.0
    );
    assert!(!read.text.contains(&cart), "no raw path:\n{}", read.text);

    // A booking through Calendly's webhook debits one credit; its redelivery nothing.
    let mona = user_id(&app, "mona@example.com").await;
    let start = Utc::now() + Duration::days(3);
    let booked = payload(
        "invitee.created",
        "1",
        "mona@example.com",
        start,
        from_book_session(&mona, json!({})),
    );
    assert_eq!(deliver(&app, &booked).await, 200);
    assert_eq!(deliver(&app, &booked).await, 200);
    // Refused: a bad signature, a stale one; an event we do not handle; a stranger's booking.
    assert_eq!(
        deliver_at(&app, &booked, Utc::now().timestamp() - 3600).await,
        401
    );
    let bytes = serde_json::to_vec(&booked).unwrap();
    let now = Utc::now().timestamp();
    let forged = reqwest::Client::new()
        .post(app.url("/api/webhooks/calendly"))
        .header(
            "Calendly-Webhook-Signature",
            api::scheduling::calendly::signature_header("another-key", now, &bytes),
        )
        .body(bytes)
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 401);
    let mut other = payload("invitee.created", "2", "x@example.com", start, json!({}));
    other["event"] = json!("routing_form_submission.created");
    assert_eq!(deliver(&app, &other).await, 200);
    let stranger = payload("invitee.created", "3", "x@example.com", start, json!({}));
    assert_eq!(deliver(&app, &stranger).await, 200);
    // And a tampered PayTabs callback.
    let tampered = reqwest::Client::new()
        .post(app.url("/api/payments/paytabs/callback"))
        .header(
            "Signature",
            api::payments::paytabs::sign(PAYTABS_KEY, b"{}"),
        )
        .body(r#"{"cart_id":"x"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(tampered.status(), 400);

    let after = scrape(&app).await;
    for (outcome, times) in [
        ("confirmed", 1.0),
        ("replay", 1.0),
        ("stale_signature", 1.0),
        ("bad_signature", 1.0),
        ("unknown_event", 1.0),
        ("unknown_client", 1.0),
    ] {
        assert_eq!(
            after.get("webhooks_total", &webhooks("calendly", outcome)),
            times,
            "calendly {outcome}:\n{}",
            after.text
        );
    }
    assert_eq!(
        after.get("webhooks_total", &webhooks("paytabs", "bad_signature")),
        1.0
    );
    assert_eq!(
        after.get("webhooks_total", &webhooks("paytabs", "completed")),
        1.0,
        "nothing more from PayTabs"
    );
    assert_eq!(after.get("credits_used_total", &[]), 1.0);
    assert_eq!(after.get("credits_returned_total", &[]), 0.0);
    assert_eq!(after.get("payments", &completed), 1.0);
    assert_eq!(
        after.get(
            "http_requests_total",
            &[
                ("method", "POST"),
                ("route", "/api/webhooks/calendly"),
                ("status", "401")
            ]
        ),
        2.0
    );

    // The host cancels: the credit comes back, once.
    let cancel = payload(
        "invitee.canceled",
        "1",
        "mona@example.com",
        start,
        json!({"cancellation": {"canceler_type": "host"}}),
    );
    assert_eq!(deliver(&app, &cancel).await, 200);
    let cancelled = scrape(&app).await;
    assert_eq!(
        cancelled.get("webhooks_total", &webhooks("calendly", "cancelled")),
        1.0
    );
    assert_eq!(cancelled.get("credits_returned_total", &[]), 1.0);
    assert_eq!(cancelled.get("credits_used_total", &[]), 1.0);
}

#[tokio::test]
async fn the_outbox_expired_credits_and_each_scheduled_task_are_reported() {
    let app = spawn_app().await;
    // Every background task reports its run; they all run once at start.
    let tasks = [
        "reconciliation",
        "complete_sessions",
        "session_reminders",
        "meeting_links",
        "expiry_sweep",
        "expiry_reminders",
        "alerts",
        "email_outbox",
    ];
    let started = Utc::now().timestamp() as f64;
    let ran = scrape_until(&app, |s| {
        tasks
            .iter()
            .all(|t| s.get("task_last_success_timestamp_seconds", &[("task", t)]) > 0.0)
    })
    .await;
    for task in tasks {
        let at = ran.get("task_last_run_timestamp_seconds", &[("task", task)]);
        assert!(
            (started - 120.0..=started + 120.0).contains(&at),
            "{task} ran at {at}, the test started at {started}"
        );
    }

    // An email waiting an hour (its next attempt later still): depth 1, age an hour.
    let waiting = api::email::OutgoingEmail {
        to: "late@example.com".into(),
        subject: "Waiting".into(),
        ..Default::default()
    };
    let hour_ago = api::domain::ts(Utc::now() - Duration::hours(1));
    let later = api::domain::ts(Utc::now() + Duration::hours(1));
    // In one transaction, so the mail worker never sees it due.
    let mut tx = app.state.db.pool.begin().await.unwrap();
    api::email::enqueue(&mut tx, &waiting).await.unwrap();
    sqlx::query("UPDATE email_outbox SET created_at = $1, next_attempt_at = $2 WHERE to_address = 'late@example.com'")
        .bind(&hour_ago)
        .bind(&later)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    // Credits granted by the admin, then their lot's expiry.
    let (_, mona) = crate::bookings::client_with_credits(&app, "mona@example.com", 3).await;
    sqlx::query("UPDATE credit_lots SET expires_at = $1 WHERE user_id = $2")
        .bind(api::domain::ts(Utc::now() - Duration::minutes(1)))
        .bind(&mona)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    // (The app's own minute sweep may get there first: either way they expire once.)
    api::lots::expire_due(&app.state.db).await.unwrap();

    // The sign-up's email leaves at once; the waiting one stays.
    let s = scrape_until(&app, |s| {
        s.get("outbox_emails", &[("status", "pending")]) == 1.0
    })
    .await;
    assert_eq!(s.get("outbox_emails", &[("status", "failed")]), 0.0);
    let age = s.get("outbox_oldest_pending_age_seconds", &[]);
    assert!((3590.0..3700.0).contains(&age), "{age}");
    assert_eq!(
        s.get("credits_granted_total", &[("kind", "admin_adjustment")]),
        3.0
    );
    assert_eq!(s.get("credits_expired_total", &[]), 3.0);
    assert_eq!(s.get("database_up", &[]), 1.0);
}
