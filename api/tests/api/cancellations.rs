//! The 24-hour cancellation rule: a client's cancel from the dashboard, Calendly's webhooks by
//! invitee and host, and the admin's waiver of a late cancellation.

use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};

use crate::bookings::{
    balance, client_with_credits, deliver, from_book_session, payload, reference,
};
use crate::support::{TestApp, admin_client, assert_ledger_verifies, error_of, spawn_app};

/// Books `start` on the Calendly stand-in from /book-session; the booking's id.
async fn book(app: &TestApp, user: &str, start: DateTime<Utc>) -> String {
    let booked = app
        .calendly_standin
        .book(
            "Mona Adel",
            "mona@example.com",
            Some(&reference(user)),
            start,
        )
        .await
        .unwrap();
    sqlx::query_scalar("SELECT id FROM bookings WHERE calendly_invitee_uri = $1")
        .bind(&booked.invitee_uri)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

/// Waits (up to 20 s) until Calendly's own `invitee.canceled` webhook has been applied.
async fn calendly_webhook_applied(app: &TestApp) {
    for _ in 0..400 {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM webhook_events WHERE event_key LIKE 'invitee.canceled%'",
        )
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
        if n > 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("Calendly's cancellation webhook never arrived");
}

async fn refunds(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM credit_ledger WHERE kind = 'booking_refund'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

async fn cancel(app: &TestApp, c: &reqwest::Client, id: &str) -> reqwest::Response {
    app.post_as(c, &format!("/api/bookings/{id}/cancel"), json!({}))
        .await
}

#[tokio::test]
async fn an_early_cancel_from_the_dashboard_cancels_on_calendly_and_refunds_once() {
    let app = spawn_app().await;
    let (c, user) = client_with_credits(&app, "mona@example.com", 2).await;
    let id = book(&app, &user, Utc::now() + Duration::days(3)).await;
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
    assert_eq!(session["canCancel"], true);
    assert!(
        session["rescheduleUrl"]
            .as_str()
            .unwrap()
            .contains("/reschedulings/")
    );
    assert!(session["freeCancellationUntil"].as_str().unwrap() > Utc::now().to_rfc3339().as_str());

    let r = cancel(&app, &c, &id).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["creditReturned"], true);
    assert_eq!(body["session"]["status"], "cancelled");
    // Calendly cancelled the event, and its webhook (a "host" cancel) changes nothing more.
    calendly_webhook_applied(&app).await;
    assert_eq!(balance(&app, &user).await, (2, 0, 2));
    assert_eq!(refunds(&app).await, 1);
    // Sent again: the same answer, nothing more.
    let again: Value = cancel(&app, &c, &id).await.json().await.unwrap();
    assert_eq!(again["creditReturned"], true);
    assert_eq!(refunds(&app).await, 1);
    let mail = app
        .mail
        .wait_for("mona@example.com", "Session cancelled")
        .await;
    assert!(mail.text().contains("credit is back"), "{}", mail.text());
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_late_cancel_keeps_the_credit_used_until_the_admin_waives_it_once() {
    let app = spawn_app().await;
    let (c, user) = client_with_credits(&app, "mona@example.com", 2).await;
    let id = book(&app, &user, Utc::now() + Duration::hours(5)).await;
    let r = cancel(&app, &c, &id).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["creditReturned"], false);
    // Calendly calls our API cancel the host's; the client's rule still holds.
    calendly_webhook_applied(&app).await;
    assert_eq!(
        balance(&app, &user).await,
        (2, 1, 1),
        "the credit stays used"
    );
    assert_eq!(refunds(&app).await, 0);
    let mail = app
        .mail
        .wait_for("mona@example.com", "Session cancelled")
        .await;
    assert!(mail.text().contains("stays used"), "{}", mail.text());
    assert_ledger_verifies(&app).await;

    // A client cannot waive; the admin can, once.
    let (status, _) = error_of(
        app.post_as(&c, &format!("/api/admin/bookings/{id}/waive"), json!({}))
            .await,
    )
    .await;
    assert_eq!(status, 403);
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let sessions: Value = boss
        .get(app.url(&format!("/api/admin/sessions?client_id={user}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(sessions[0]["canWaive"], true);
    assert_eq!(sessions[0]["cancelledBy"], "client");
    let r = app
        .post_as(&boss, &format!("/api/admin/bookings/{id}/waive"), json!({}))
        .await;
    assert_eq!(r.status(), 200);
    let waived: Value = r.json().await.unwrap();
    assert_eq!(waived["canWaive"], false);
    assert_eq!(balance(&app, &user).await, (2, 0, 2));
    let (status, _) = error_of(
        app.post_as(&boss, &format!("/api/admin/bookings/{id}/waive"), json!({}))
            .await,
    )
    .await;
    assert_eq!(status, 409, "a second waiver is refused");
    assert_eq!(balance(&app, &user).await, (2, 0, 2));
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn an_invitees_late_cancel_keeps_the_credit_and_a_hosts_late_cancel_refunds() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 3).await;
    let soon = Utc::now() + Duration::hours(3);
    for n in ["1", "2"] {
        deliver(
            &app,
            &payload(
                "invitee.created",
                n,
                "mona@example.com",
                soon,
                from_book_session(&user, json!({})),
            ),
        )
        .await;
    }
    assert_eq!(balance(&app, &user).await, (3, 2, 1));
    let by = |who: &str| json!({"cancellation": {"canceler_type": who, "reason": "r", "created_at": Utc::now().to_rfc3339()}});
    assert_eq!(
        deliver(
            &app,
            &payload(
                "invitee.canceled",
                "1",
                "mona@example.com",
                soon,
                by("invitee")
            )
        )
        .await,
        200
    );
    assert_eq!(
        balance(&app, &user).await,
        (3, 2, 1),
        "the invitee cancelled late"
    );
    assert_eq!(
        deliver(
            &app,
            &payload(
                "invitee.canceled",
                "2",
                "mona@example.com",
                soon,
                by("host")
            )
        )
        .await,
        200
    );
    assert_eq!(balance(&app, &user).await, (3, 1, 2), "the coach cancelled");
    // The cancellation only in the scheduled event (Calendly's other place for it) counts too.
    let early = Utc::now() + Duration::days(2);
    deliver(
        &app,
        &payload(
            "invitee.created",
            "3",
            "mona@example.com",
            early,
            from_book_session(&user, json!({})),
        ),
    )
    .await;
    let mut cancel = payload(
        "invitee.canceled",
        "3",
        "mona@example.com",
        early,
        json!({}),
    );
    cancel["payload"]["scheduled_event"]["cancellation"] =
        json!({"canceler_type": "invitee", "created_at": Utc::now().to_rfc3339()});
    deliver(&app, &cancel).await;
    assert_eq!(
        balance(&app, &user).await,
        (3, 1, 2),
        "24 hours ahead: refunded"
    );
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_client_cannot_cancel_another_clients_booking_or_a_cancelled_one() {
    let app = spawn_app().await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 1).await;
    let (omar, _) = client_with_credits(&app, "omar@example.com", 1).await;
    let id = book(&app, &mona, Utc::now() + Duration::days(3)).await;
    let (status, error) = error_of(cancel(&app, &omar, &id).await).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (404, Some("Booking not found"))
    );
    let anonymous = crate::support::new_client();
    assert_eq!(cancel(&app, &anonymous, &id).await.status(), 401);
    assert_eq!(balance(&app, &mona).await, (1, 1, 0));
    let status: String = sqlx::query_scalar("SELECT status FROM bookings WHERE id = $1")
        .bind(&id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(status, "confirmed");
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_reschedule_moves_the_booking_without_touching_credits() {
    let app = spawn_app().await;
    let (_, user) = client_with_credits(&app, "mona@example.com", 2).await;
    let booked = app
        .calendly_standin
        .book(
            "Mona Adel",
            "mona@example.com",
            Some(&reference(&user)),
            Utc::now() + Duration::hours(3),
        )
        .await
        .unwrap();
    // Even inside 24 hours: a reschedule is not a cancellation.
    app.calendly_standin
        .reschedule(&booked.invitee_uri, Utc::now() + Duration::days(4), true)
        .await
        .unwrap();
    assert_eq!(balance(&app, &user).await, (2, 1, 1));
    let confirmed: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM bookings WHERE client_id = $1 AND status = 'confirmed' AND credit_debited = 1",
    )
    .bind(&user)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(confirmed, 1);
    assert_ledger_verifies(&app).await;
}
