use serde_json::json;

use crate::support::{Options, error_of, spawn_app, spawn_app_with};

const COACH: &str = "hello@coach.example.com"; // contact_info.email in content/settings.yaml

#[tokio::test]
async fn a_message_reaches_the_coach_with_reply_to_the_sender_and_is_acknowledged() {
    let app = spawn_app().await;
    let r = app.post("/api/contact", json!({
        "name": "Karim Fathy", "email": "karim@example.com", "phone": "", "company": "Nile Bank",
        "message": "We would like coaching for our new branch managers.", "form_type": "general"
    })).await;
    assert_eq!(r.status(), 200);
    let to_coach = app
        .mail
        .wait_for(COACH, "New message from Karim Fathy")
        .await;
    assert_eq!(
        to_coach.header("Reply-To").as_deref(),
        Some("karim@example.com")
    );
    assert_eq!(
        to_coach.from, "no-reply@coach.example.com",
        "sent from MAIL_FROM, not the visitor"
    );
    assert!(
        to_coach
            .text()
            .contains("We would like coaching for our new branch managers.")
    );
    assert!(to_coach.text().contains("Company: Nile Bank"));
    let ack = app
        .mail
        .wait_for("karim@example.com", "We received your message")
        .await;
    assert!(
        ack.text()
            .contains("I'll respond within 1-2 business days.")
    );
    let stored: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM contact_messages WHERE form_type = 'general'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(stored, 1);
}

#[tokio::test]
async fn a_discovery_call_needs_a_phone_and_carries_interest_and_objective() {
    let app = spawn_app().await;
    let base = json!({"name": "Dina", "email": "dina@example.com", "message": "Please call me.", "form_type": "discovery_call", "interested_in": "1-to-1 Executive Coaching", "objective": "Prepare for a CEO role"});
    let (status, error) = error_of(app.post("/api/contact", base.clone()).await).await;
    assert_eq!(status, 422);
    assert_eq!(
        error["message"],
        "Phone number is required for discovery calls."
    );
    assert_eq!(
        error["fields"]["phone"],
        "Phone number is required for discovery calls."
    );

    let mut with_phone = base;
    with_phone["phone"] = json!("+20 122 555 0000");
    assert_eq!(app.post("/api/contact", with_phone).await.status(), 200);
    let mail = app
        .mail
        .wait_for(COACH, "Discovery call request from Dina")
        .await;
    assert!(
        mail.text()
            .contains("Interested in: 1-to-1 Executive Coaching")
    );
    assert!(mail.text().contains("Objective: Prepare for a CEO role"));
    assert!(mail.text().contains("Mobile: +20 122 555 0000"));
}

#[tokio::test]
async fn missing_fields_get_the_spec_message_and_nothing_is_stored_or_sent() {
    let app = spawn_app().await;
    let (status, error) = error_of(
        app.post(
            "/api/contact",
            json!({"name": " ", "email": "", "message": "Hi"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(error["message"], "Please fill in all required fields.");
    assert!(error["fields"]["name"].is_string() && error["fields"]["email"].is_string());
    let (_, error) = error_of(
        app.post(
            "/api/contact",
            json!({"name": "A", "email": "nope", "message": "Hi"}),
        )
        .await,
    )
    .await;
    assert_eq!(error["message"], "Please enter a valid email address.");
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM contact_messages")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let queued: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM email_outbox")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!((stored, queued), (0, 0));
}

#[tokio::test]
async fn a_filled_honeypot_is_answered_politely_and_dropped() {
    let app = spawn_app().await;
    let r = app.post("/api/contact", json!({"name": "Bot", "email": "bot@example.com", "message": "Buy now", "website": "http://spam.example"})).await;
    assert_eq!(r.status(), 200);
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM contact_messages")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(stored, 0);
}

#[tokio::test]
async fn contact_is_rate_limited_per_ip() {
    let app = spawn_app_with(Options {
        rate_limits: true,
        ..Default::default()
    })
    .await;
    let body = json!({"name": "A", "email": "a@example.com", "message": "Hello"});
    for _ in 0..5 {
        assert_eq!(app.post("/api/contact", body.clone()).await.status(), 200);
    }
    assert_eq!(app.post("/api/contact", body).await.status(), 429);
}
