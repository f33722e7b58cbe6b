//! Calendly webhooks → bookings and credits, and the client's dashboard.

use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};

use crate::support::{CALENDLY_KEY, TestApp, error_of, new_client, spawn_app};

pub fn invitee_uri(n: &str) -> String {
    format!("https://api.calendly.com/scheduled_events/EVT{n}/invitees/INV{n}")
}

pub fn payload(kind: &str, n: &str, email: &str, start: DateTime<Utc>, extra: Value) -> Value {
    let fmt = |t: DateTime<Utc>| t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string();
    let mut p = json!({
        "uri": invitee_uri(n),
        "email": email, "name": "Mona Adel", "status": if kind == "invitee.created" { "active" } else { "canceled" },
        "event": format!("https://api.calendly.com/scheduled_events/EVT{n}"),
        "rescheduled": false, "old_invitee": null, "new_invitee": null,
        "cancel_url": format!("https://calendly.com/cancellations/INV{n}"),
        "reschedule_url": format!("https://calendly.com/reschedulings/INV{n}"),
        "tracking": {"utm_content": null},
        "scheduled_event": {
            "uri": format!("https://api.calendly.com/scheduled_events/EVT{n}"),
            "name": "Executive Coaching Session", "status": "active",
            "start_time": fmt(start), "end_time": fmt(start + Duration::minutes(60)),
            "location": {"type": "google_conference", "status": "pushed", "join_url": format!("https://meet.google.com/abc-{n}")}
        }
    });
    if let (Some(obj), Some(extra)) = (p.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            obj.insert(k.clone(), v.clone());
        }
    }
    json!({"event": kind, "created_at": fmt(Utc::now()), "payload": p})
}

pub async fn deliver(app: &TestApp, body: &Value) -> u16 {
    deliver_at(app, body, Utc::now().timestamp()).await
}

pub async fn deliver_at(app: &TestApp, body: &Value, t: i64) -> u16 {
    send_webhook(app.url("/api/webhooks/calendly"), body, t).await
}

/// Signs and posts a webhook like Calendly; owns its arguments so that it can run in a task.
pub async fn send_webhook(url: String, body: &Value, t: i64) -> u16 {
    let bytes = serde_json::to_vec(body).unwrap();
    reqwest::Client::new()
        .post(url)
        .header("Content-Type", "application/json")
        .header(
            "Calendly-Webhook-Signature",
            api::scheduling::calendly::signature_header(CALENDLY_KEY, t, &bytes),
        )
        .body(bytes)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// A signed-up client with `credits` credits (an offline adjustment), and its user id.
pub async fn client_with_credits(
    app: &TestApp,
    email: &str,
    credits: i64,
) -> (reqwest::Client, String) {
    let c = new_client();
    assert_eq!(app.sign_up(&c, email).await.status(), 201);
    let id: String = sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    if credits > 0 {
        let mut tx = app.state.db.pool.begin().await.unwrap();
        api::domain::credits::adjust(
            &mut tx,
            app.state.db.backend,
            &id,
            credits,
            &crate::support::six_months(),
            &format!("grant:{id}"),
            "test grant",
        )
        .await
        .unwrap();
        tx.commit().await.unwrap();
    }
    (c, id)
}

/// The app secret of `spawn_app` (support.rs), which signs client references.
pub const APP_SECRET: &str = "test-app-secret-test-app-secret-0123456789";

/// The signed client reference that /book-session puts into the scheduler link of `user`.
pub fn reference(user: &str) -> String {
    api::scheduling::calendly::client_reference(APP_SECRET, user)
}

/// `extra` plus the tracking of a booking made from /book-session by `user`: proof of who the
/// client is.
pub fn from_book_session(user: &str, extra: Value) -> Value {
    let mut extra = extra;
    extra["tracking"] = json!({"utm_content": reference(user)});
    extra
}

pub async fn balance(app: &TestApp, user: &str) -> (i64, i64, i64) {
    sqlx::query_as("SELECT total_credits, used_credits, available_credits FROM client_accounts WHERE user_id = $1").bind(user).fetch_one(&app.state.db.pool).await.unwrap()
}

async fn status_of(app: &TestApp, n: &str) -> (String, i64) {
    sqlx::query_as("SELECT status, credit_debited FROM bookings WHERE calendly_invitee_uri = $1")
        .bind(invitee_uri(n))
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

fn soon() -> DateTime<Utc> {
    Utc::now() + Duration::days(3)
}

#[tokio::test]
async fn webhooks_need_a_fresh_valid_signature_and_a_replay_changes_nothing() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 2).await;
    let body = payload(
        "invitee.created",
        "1",
        "mona@example.com",
        soon(),
        from_book_session(&user, json!({})),
    );
    let bytes = serde_json::to_vec(&body).unwrap();
    let unsigned = reqwest::Client::new()
        .post(app.url("/api/webhooks/calendly"))
        .body(bytes.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(unsigned.status(), 401);
    let wrong = reqwest::Client::new()
        .post(app.url("/api/webhooks/calendly"))
        .header(
            "Calendly-Webhook-Signature",
            api::scheduling::calendly::signature_header(
                "another-key",
                Utc::now().timestamp(),
                &bytes,
            ),
        )
        .body(bytes)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    assert_eq!(
        deliver_at(&app, &body, Utc::now().timestamp() - 181).await,
        401,
        "outside the 180 s tolerance"
    );
    assert_eq!(
        balance(&app, &user).await,
        (2, 0, 2),
        "refused deliveries change nothing"
    );

    assert_eq!(deliver(&app, &body).await, 200);
    for _ in 0..3 {
        assert_eq!(
            deliver(&app, &body).await,
            200,
            "a redelivery is acknowledged"
        );
    }
    assert_eq!(balance(&app, &user).await, (2, 1, 1), "debited once");
    assert_eq!(status_of(&app, "1").await, ("confirmed".into(), 1));
    let (link, notes): (Option<String>, Option<String>) =
        sqlx::query_as("SELECT google_meet_link, session_notes FROM bookings")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(link.as_deref(), Some("https://meet.google.com/abc-1"));
    assert_eq!(notes.as_deref(), Some("Executive Coaching Session"));
    let mail = app
        .mail
        .wait_for("mona@example.com", "Session confirmed")
        .await;
    assert!(
        mail.raw.contains("text/calendar") && mail.raw.contains("session.ics"),
        "an .ics invitation is attached:\n{}",
        mail.raw
    );
}

#[tokio::test]
async fn twenty_concurrent_bookings_with_five_credits_confirm_exactly_five() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 5).await;
    let bodies: Vec<Value> = (0..20)
        .map(|i| {
            payload(
                "invitee.created",
                &format!("c{i}"),
                "mona@example.com",
                soon() + Duration::hours(i),
                from_book_session(&user, json!({})),
            )
        })
        .collect();
    let mut handles = Vec::new();
    for body in bodies {
        let (base, body) = (app.base.clone(), body);
        handles.push(tokio::spawn(async move {
            let bytes = serde_json::to_vec(&body).unwrap();
            reqwest::Client::new()
                .post(format!("{base}/api/webhooks/calendly"))
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
    let confirmed: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM bookings WHERE status = 'confirmed'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    let pending: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM bookings WHERE status = 'pending'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!((confirmed, pending), (5, 15));
    assert_eq!(
        balance(&app, &user).await,
        (5, 5, 0),
        "available never below 0"
    );
    // A refused debit writes nothing: the ledger holds the five debits that happened.
    let debits: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM credit_ledger WHERE kind = 'booking_debit'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(debits, 5);
    crate::support::assert_ledger_verifies(&app).await;
    app.mail
        .wait_for("hello@coach.example.com", "Booking needs attention")
        .await;
}

/// Calendly may already have cancelled the event (the invitee did, or its webhook was lost):
/// the admin's cancel still cancels here and gives the credit back, exactly once.
#[tokio::test]
async fn an_admin_cancel_of_an_event_calendly_already_cancelled_refunds_once() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 2).await;
    let calendly = app.calendly_standin.clone();
    let reference = reference(&user);
    let booked = calendly
        .book("Mona Adel", "mona@example.com", Some(&reference), soon())
        .await
        .unwrap();
    assert_eq!(balance(&app, &user).await, (2, 1, 1));
    let id: String = sqlx::query_scalar("SELECT id FROM bookings WHERE calendly_invitee_uri = $1")
        .bind(&booked.invitee_uri)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    // The invitee cancels on Calendly, and Calendly's webhook is lost: undo what it did here,
    // so this database is as it would be had it never arrived.
    calendly
        .cancel(&booked.invitee_uri, false, "Cannot make it")
        .await
        .unwrap();
    assert_eq!(balance(&app, &user).await, (2, 0, 2));
    let pool = &app.state.db.pool;
    for undo in [
        "DELETE FROM credit_ledger WHERE kind = 'booking_refund'",
        "DELETE FROM webhook_events WHERE event_key LIKE 'invitee.canceled%'",
        "UPDATE client_accounts SET used_credits = 1, available_credits = 1",
        // (the refund's lot move went with its ledger row)
        "UPDATE credit_lots SET remaining = 1",
        "UPDATE bookings SET status = 'confirmed', cancelled_at = NULL, credit_debited = 1",
    ] {
        sqlx::query(undo).execute(pool).await.unwrap();
    }
    assert_eq!(balance(&app, &user).await, (2, 1, 1));

    // Calendly answers 403 "Event is already canceled"; the cancel goes on here.
    let boss = crate::support::admin_client(&app, "boss@coach.example.com").await;
    let cancel = format!("/api/admin/bookings/{id}/cancel");
    let r = app.post_as(&boss, &cancel, json!({})).await;
    assert_eq!(r.status(), 200);
    let view: Value = r.json().await.unwrap();
    assert_eq!(view["status"], "cancelled");
    assert_eq!(balance(&app, &user).await, (2, 0, 2), "refunded");
    // Again: nothing more to cancel, nothing refunded twice.
    let (status, _) = error_of(app.post_as(&boss, &cancel, json!({})).await).await;
    assert_eq!(status, 409);
    assert_eq!(balance(&app, &user).await, (2, 0, 2));
    crate::support::assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_reschedule_moves_the_credit_whichever_webhook_comes_first() {
    for cancel_first in [false, true] {
        let app = spawn_app().await;
        let (_, user) = client_with_credits(&app, "mona@example.com", 1).await;
        deliver(
            &app,
            &payload(
                "invitee.created",
                "old",
                "mona@example.com",
                soon(),
                from_book_session(&user, json!({})),
            ),
        )
        .await;
        assert_eq!(balance(&app, &user).await, (1, 1, 0));
        let cancel = payload(
            "invitee.canceled",
            "old",
            "mona@example.com",
            soon(),
            json!({"rescheduled": true, "new_invitee": invitee_uri("new")}),
        );
        let create = payload(
            "invitee.created",
            "new",
            "mona@example.com",
            soon() + Duration::days(1),
            json!({"old_invitee": invitee_uri("old")}),
        );
        let order = if cancel_first {
            [&cancel, &create]
        } else {
            [&create, &cancel]
        };
        for body in order {
            assert_eq!(deliver(&app, body).await, 200);
        }
        assert_eq!(
            status_of(&app, "old").await,
            ("cancelled".into(), 0),
            "cancel_first={cancel_first}"
        );
        assert_eq!(
            status_of(&app, "new").await,
            ("confirmed".into(), 1),
            "cancel_first={cancel_first}"
        );
        assert_eq!(
            balance(&app, &user).await,
            (1, 1, 0),
            "one credit in all: cancel_first={cancel_first}"
        );
    }
}

#[tokio::test]
async fn a_cancel_delivered_ten_times_refunds_once() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 5).await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "1",
            "mona@example.com",
            soon(),
            from_book_session(&user, json!({})),
        ),
    )
    .await;
    assert_eq!(balance(&app, &user).await, (5, 1, 4));
    let cancel = payload(
        "invitee.canceled",
        "1",
        "mona@example.com",
        soon(),
        json!({"cancellation": {"canceler_type": "invitee", "reason": "travel"}}),
    );
    for _ in 0..10 {
        assert_eq!(deliver(&app, &cancel).await, 200);
    }
    assert_eq!(balance(&app, &user).await, (5, 0, 5));
    let refunds: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM credit_ledger WHERE kind = 'booking_refund'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(refunds, 1);
    app.mail
        .wait_for("mona@example.com", "Session cancelled")
        .await;
}

#[tokio::test]
async fn a_cancel_that_arrives_before_its_create_leaves_a_tombstone() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 2).await;
    deliver(
        &app,
        &payload(
            "invitee.canceled",
            "1",
            "mona@example.com",
            soon(),
            json!({}),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "1",
            "mona@example.com",
            soon(),
            from_book_session(&user, json!({})),
        ),
    )
    .await;
    assert_eq!(status_of(&app, "1").await, ("cancelled".into(), 0));
    assert_eq!(
        balance(&app, &user).await,
        (2, 0, 2),
        "nothing debited for a cancelled booking"
    );
}

#[tokio::test]
async fn the_signed_reference_names_the_client_and_a_stranger_stays_pending() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 1).await;
    let reference = reference(&user);
    // She typed her personal email in the scheduler; the reference still finds her.
    deliver(
        &app,
        &payload(
            "invitee.created",
            "1",
            "mona.personal@example.com",
            soon(),
            json!({"tracking": {"utm_content": reference}}),
        ),
    )
    .await;
    assert_eq!(status_of(&app, "1").await, ("confirmed".into(), 1));
    assert_eq!(balance(&app, &user).await, (1, 1, 0));
    // A forged reference is ignored; the email matches nobody: pending, for the coach.
    deliver(
        &app,
        &payload(
            "invitee.created",
            "2",
            "stranger@example.com",
            soon(),
            json!({"tracking": {"utm_content": "dXNlcg.forged"}}),
        ),
    )
    .await;
    let (status, client): (String, Option<String>) =
        sqlx::query_as("SELECT status, client_id FROM bookings WHERE calendly_invitee_uri = $1")
            .bind(invitee_uri("2"))
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!((status.as_str(), client), ("pending", None));
    let alert = app
        .mail
        .wait_for("hello@coach.example.com", "Booking needs attention")
        .await;
    assert!(alert.text().contains("stranger@example.com"));
}

#[tokio::test]
async fn the_dashboard_shows_credits_upcoming_sessions_and_payments() {
    let app = spawn_app().await;
    let (c, user) = client_with_credits(&app, "mona@example.com", 3).await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "1",
            "mona@example.com",
            soon(),
            from_book_session(&user, json!({})),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "2",
            "mona@example.com",
            soon() + Duration::days(1),
            from_book_session(&user, json!({})),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.canceled",
            "2",
            "mona@example.com",
            soon() + Duration::days(1),
            json!({}),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "past",
            "mona@example.com",
            Utc::now() - Duration::days(2),
            from_book_session(&user, json!({})),
        ),
    )
    .await;
    let d: Value = c
        .get(app.url("/api/dashboard"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(d["fullName"], "Mona Adel");
    assert_eq!(d["account"]["availableCredits"], 1);
    assert_eq!(d["account"]["totalCredits"], 3);
    assert_eq!(d["account"]["showPaymentHistory"], true);
    let upcoming = d["upcomingSessions"].as_array().unwrap();
    assert_eq!(
        upcoming.len(),
        2,
        "sessions at or after now only: {upcoming:?}"
    );
    assert_eq!(upcoming[0]["status"], "confirmed");
    assert_eq!(
        upcoming[0]["googleMeetLink"],
        "https://meet.google.com/abc-1"
    );
    assert_eq!(upcoming[1]["status"], "cancelled");
    let cancelled: Value = c
        .get(app.url("/api/dashboard?status=cancelled"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cancelled["upcomingSessions"].as_array().unwrap().len(), 1);
    assert_eq!(
        c.get(app.url("/api/dashboard?status=bogus"))
            .send()
            .await
            .unwrap()
            .status(),
        422
    );
    assert_eq!(d["schedulerName"], "Calendly");

    let off = app
        .client
        .put(app.url("/api/dashboard/payment-history"))
        .header("Origin", &app.base)
        .json(&json!({"show": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(off.status(), 401, "the test's default client is signed out");
    let r = c
        .put(app.url("/api/dashboard/payment-history"))
        .header("Origin", &app.base)
        .json(&json!({"show": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.json::<Value>().await.unwrap()["showPaymentHistory"],
        false
    );
    let shown: i64 =
        sqlx::query_scalar("SELECT show_payment_history FROM client_accounts WHERE user_id = $1")
            .bind(&user)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(shown, 0);
}

#[tokio::test]
async fn the_booking_page_gets_a_prefilled_link_with_a_signed_reference() {
    let app = spawn_app().await;
    let (c, user) = client_with_credits(&app, "mona@example.com", 2).await;
    let b: Value = c
        .get(app.url("/api/book-session"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(b["availableCredits"], 2);
    let url = b["schedulerUrl"].as_str().unwrap();
    assert!(
        url.starts_with(&app.url("/calendly-standin/book?")),
        "the configured scheduling page: {url}"
    );
    assert!(
        url.contains("name=Mona%20Adel") && url.contains("email=mona%40example.com"),
        "{url}"
    );
    let reference = url
        .split("utm_content=")
        .nth(1)
        .unwrap()
        .replace("%2E", ".");
    assert_eq!(
        api::scheduling::calendly::verify_client_reference(APP_SECRET, &reference).as_deref(),
        Some(user.as_str())
    );
}

#[tokio::test]
async fn past_sessions_complete_and_each_reminder_is_sent_once() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 3).await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "past",
            "mona@example.com",
            Utc::now() - Duration::hours(3),
            from_book_session(&user, json!({})),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "tomorrow",
            "mona@example.com",
            Utc::now() + Duration::hours(20),
            from_book_session(&user, json!({})),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "later",
            "mona@example.com",
            Utc::now() + Duration::days(5),
            from_book_session(&user, json!({})),
        ),
    )
    .await;
    assert_eq!(
        api::scheduling::jobs::complete_past_sessions(&app.state)
            .await
            .unwrap(),
        1
    );
    assert_eq!(status_of(&app, "past").await.0, "completed");
    assert_eq!(
        api::scheduling::jobs::send_reminders(&app.state)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        api::scheduling::jobs::send_reminders(&app.state)
            .await
            .unwrap(),
        0,
        "exactly once"
    );
    app.mail
        .wait_for("mona@example.com", "Reminder: your session")
        .await;
    let d: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM email_outbox WHERE subject LIKE 'Reminder%'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(d, 1);
    let (_, e) = error_of(
        new_client()
            .get(app.url("/api/dashboard"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(e["message"], "Authentication required");
}

/// The admin's cancel and Calendly's own cancel webhook race: the webhook waits for the admin's
/// transaction, then sees the booking cancelled and refunds nothing more (on PostgreSQL the row
/// lock does it; on SQLite the one connection does).
#[tokio::test]
async fn a_cancel_webhook_racing_an_admin_cancel_refunds_once() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 1).await;
    let created = payload(
        "invitee.created",
        "7",
        "mona@example.com",
        soon(),
        from_book_session(&user, json!({})),
    );
    assert_eq!(deliver(&app, &created).await, 200);
    assert_eq!(balance(&app, &user).await, (1, 1, 0));

    // The admin's side, as `cancel_booking` does it, held open.
    let db = &app.state.db;
    let mut tx = db.pool.begin().await.unwrap();
    let id: String = sqlx::query_scalar(&format!(
        "SELECT id FROM bookings WHERE calendly_invitee_uri = $1{}",
        db.backend.for_update()
    ))
    .bind(invitee_uri("7"))
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    sqlx::query("UPDATE bookings SET status = 'cancelled', credit_debited = 0 WHERE id = $1")
        .bind(&id)
        .execute(&mut *tx)
        .await
        .unwrap();
    api::domain::credits::refund_one(
        &mut tx,
        app.state.db.backend,
        &user,
        &id,
        &format!("cancel:{id}"),
    )
    .await
    .unwrap();

    // Calendly's cancel arrives while that transaction is open.
    let canceled = payload(
        "invitee.canceled",
        "7",
        "mona@example.com",
        soon(),
        json!({}),
    );
    let url = app.url("/api/webhooks/calendly");
    let webhook =
        tokio::spawn(async move { send_webhook(url, &canceled, Utc::now().timestamp()).await });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !webhook.is_finished(),
        "the webhook waits for the admin's cancel"
    );
    tx.commit().await.unwrap();

    assert_eq!(
        webhook.await.unwrap(),
        200,
        "the webhook is applied, not refused"
    );
    assert_eq!(balance(&app, &user).await, (1, 0, 1), "refunded once");
    let refunds: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM credit_ledger WHERE kind = 'booking_refund'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(refunds, 1);
}

/// Through the Calendly stand-in, which signs and sends webhooks like Calendly.
#[tokio::test]
async fn a_client_books_through_the_scheduler_and_an_admin_cancel_refunds_once() {
    let app = spawn_app().await;
    let (c, user) = client_with_credits(&app, "mona@example.com", 2).await;
    let calendly = app.calendly_standin.clone();
    let b: Value = c
        .get(app.url("/api/book-session"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let page = c
        .get(b["schedulerUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("Mona Adel") && page.contains("mona@example.com"),
        "the scheduler is prefilled"
    );

    let reference = reference(&user);
    let booked = calendly
        .book("Mona Adel", "mona@example.com", Some(&reference), soon())
        .await
        .unwrap();
    assert_eq!(balance(&app, &user).await, (2, 1, 1));
    let d: Value = c
        .get(app.url("/api/dashboard"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let session = &d["upcomingSessions"][0];
    assert_eq!(session["status"], "confirmed");
    assert!(
        session["googleMeetLink"]
            .as_str()
            .unwrap()
            .starts_with("https://meet.google.com/")
    );

    // The admin cancels: Calendly is asked to cancel, and its webhook comes back too.
    let boss = crate::support::admin_client(&app, "boss@coach.example.com").await;
    let id: String = sqlx::query_scalar("SELECT id FROM bookings WHERE calendly_invitee_uri = $1")
        .bind(&booked.invitee_uri)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let r = app
        .post_as(
            &boss,
            &format!("/api/admin/bookings/{id}/cancel"),
            json!({}),
        )
        .await;
    assert_eq!(r.status(), 200);
    // Calendly's own cancel webhook arrives in the background, retried on failure: wait for it
    // (up to 20 s).
    let mut webhooks = 0;
    for _ in 0..400 {
        webhooks = sqlx::query_scalar(
            "SELECT COUNT(*) FROM webhook_events WHERE event_key LIKE 'invitee.canceled%'",
        )
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
        if webhooks > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(webhooks, 1, "Calendly did send its cancellation");
    assert_eq!(balance(&app, &user).await, (2, 0, 2), "refunded once");
    let refunds: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM credit_ledger WHERE kind = 'booking_refund'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(refunds, 1);
}

#[tokio::test]
async fn a_meeting_link_that_appears_late_is_fetched_from_calendly() {
    let app = spawn_app().await;
    let (_, _) = client_with_credits(&app, "mona@example.com", 1).await;
    let calendly = app.calendly_standin.clone();
    calendly
        .join_url_late
        .store(true, std::sync::atomic::Ordering::SeqCst);
    calendly
        .book("Mona Adel", "mona@example.com", None, soon())
        .await
        .unwrap();
    let link: Option<String> = sqlx::query_scalar("SELECT google_meet_link FROM bookings")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(link, None);
    assert_eq!(
        api::scheduling::jobs::refresh_meeting_links(&app.state)
            .await
            .unwrap(),
        1
    );
    let link: Option<String> = sqlx::query_scalar("SELECT google_meet_link FROM bookings")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert!(link.unwrap().starts_with("https://meet.google.com/"));
}

#[tokio::test]
async fn a_reschedule_through_the_scheduler_keeps_one_credit() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 1).await;
    let calendly = app.calendly_standin.clone();
    let first = calendly
        .book(
            "Mona Adel",
            "mona@example.com",
            Some(&reference(&user)),
            soon(),
        )
        .await
        .unwrap();
    assert_eq!(balance(&app, &user).await, (1, 1, 0));
    let second = calendly
        .reschedule(&first.invitee_uri, soon() + Duration::days(2), true)
        .await
        .unwrap();
    let again = calendly
        .reschedule(&second.invitee_uri, soon() + Duration::days(4), false)
        .await
        .unwrap();
    let (status, debited): (String, i64) = sqlx::query_as(
        "SELECT status, credit_debited FROM bookings WHERE calendly_invitee_uri = $1",
    )
    .bind(&again.invitee_uri)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!((status.as_str(), debited), ("confirmed", 1));
    assert_eq!(balance(&app, &user).await, (1, 1, 0));
}
