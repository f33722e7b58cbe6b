use serde_json::json;

use crate::support::{error_of, spawn_app};

async fn status_of(app: &crate::support::TestApp, email: &str) -> Option<String> {
    sqlx::query_scalar("SELECT status FROM newsletter_subscribers WHERE email = $1")
        .bind(email)
        .fetch_optional(&app.state.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn double_opt_in_subscribes_only_after_the_emailed_confirmation() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/api/newsletter/subscribe",
            json!({"email": "Leila@Example.com", "source": "footer"}),
        )
        .await;
    assert_eq!(r.status(), 202);
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["status"],
        "check_your_email"
    );
    assert_eq!(
        status_of(&app, "leila@example.com").await.as_deref(),
        Some("pending")
    );

    let mail = app
        .mail
        .wait_for("leila@example.com", "Please confirm your subscription")
        .await;
    let unsubscribe = mail.header("List-Unsubscribe").unwrap();
    assert!(
        unsubscribe.starts_with(&format!("<{}/api/newsletter/unsubscribe?t=", app.base)),
        "{unsubscribe}"
    );
    assert_eq!(
        mail.header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let link = mail.link(&format!("{}/newsletter/confirm?token=", app.base));
    let token = link.split("token=").nth(1).unwrap();

    let confirmed = app
        .post("/api/newsletter/confirm", json!({"token": token}))
        .await;
    assert_eq!(confirmed.status(), 200);
    assert_eq!(
        status_of(&app, "leila@example.com").await.as_deref(),
        Some("subscribed")
    );
    let (status, error) = error_of(
        app.post("/api/newsletter/confirm", json!({"token": "forged"}))
            .await,
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (
            400,
            Some("This confirmation link is invalid or has expired.")
        )
    );
}

#[tokio::test]
async fn the_answer_is_the_same_for_new_pending_and_subscribed_addresses() {
    let app = spawn_app().await;
    let first = app
        .post(
            "/api/newsletter/subscribe",
            json!({"email": "amr@example.com"}),
        )
        .await
        .text()
        .await
        .unwrap();
    let mail = app.mail.wait_for("amr@example.com", "confirm").await;
    let token = mail
        .link(&format!("{}/newsletter/confirm?token=", app.base))
        .split("token=")
        .nth(1)
        .unwrap()
        .to_string();
    app.post("/api/newsletter/confirm", json!({"token": token}))
        .await;
    let again = app
        .post(
            "/api/newsletter/subscribe",
            json!({"email": "amr@example.com"}),
        )
        .await
        .text()
        .await
        .unwrap();
    let stranger = app
        .post(
            "/api/newsletter/subscribe",
            json!({"email": "new@example.com"}),
        )
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(first, again);
    assert_eq!(first, stranger);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        app.mail.count_to("amr@example.com"),
        1,
        "a subscriber is not emailed again"
    );
}

#[tokio::test]
async fn one_click_unsubscribe_works_without_a_cookie_or_origin() {
    let app = spawn_app().await;
    app.post(
        "/api/newsletter/subscribe",
        json!({"email": "hana@example.com"}),
    )
    .await;
    let mail = app.mail.wait_for("hana@example.com", "confirm").await;
    let header = mail.header("List-Unsubscribe").unwrap();
    let url = header.trim_start_matches('<').trim_end_matches('>');
    // What a mail client sends for RFC 8058 one-click.
    let r = reqwest::Client::new()
        .post(url)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        status_of(&app, "hana@example.com").await.as_deref(),
        Some("unsubscribed")
    );
    let page = reqwest::get(url).await.unwrap().text().await.unwrap();
    assert!(
        page.contains("<button type=\"submit\""),
        "a GET only shows the button"
    );
}

#[tokio::test]
async fn newsletter_validation_messages_follow_the_spec() {
    let app = spawn_app().await;
    let (status, error) = error_of(
        app.post("/api/newsletter/subscribe", json!({"email": ""}))
            .await,
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (422, Some("Email address is required to subscribe."))
    );
    let (_, error) = error_of(
        app.post(
            "/api/newsletter/subscribe",
            json!({"email": "not-an-address"}),
        )
        .await,
    )
    .await;
    assert_eq!(error["message"], "Please enter a valid email address.");
}
