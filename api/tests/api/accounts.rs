use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{Options, error_of, new_client, spawn_app, spawn_app_with};

#[tokio::test]
async fn sign_up_signs_in_as_a_client_and_emails_a_working_confirmation_link() {
    let app = spawn_app().await;
    let response = app.sign_up(&app.client, "mona@example.com").await;
    assert_eq!(response.status(), 201);
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.starts_with("session=")
            && cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["profile"]["role"], "client");
    assert_eq!(body["profile"]["full_name"], "Mona Adel");
    assert_eq!(body["profile"]["phone"], "+20 100 123 4567");
    assert_eq!(body["user"]["email_confirmed"], false);

    let session: Value = app.get("/api/auth/session").await.json().await.unwrap();
    assert_eq!(session["user"]["email"], "mona@example.com");

    let mail = app
        .mail
        .wait_for("mona@example.com", "Confirm your email")
        .await;
    let link = mail.link(&format!("{}/api/auth/confirm?token=", app.base));
    let confirm = app.client.get(&link).send().await.unwrap();
    assert_eq!(confirm.status(), 303);
    assert_eq!(
        confirm.headers()["location"],
        format!("{}/auth?confirmed=1", app.base)
    );
    let session: Value = app.get("/api/auth/session").await.json().await.unwrap();
    assert_eq!(session["user"]["email_confirmed"], true);

    let again = app.client.get(&link).send().await.unwrap();
    assert_eq!(
        again.headers()["location"],
        format!("{}/auth?confirm_error=1", app.base),
        "a link works once"
    );
}

#[tokio::test]
async fn a_new_client_has_an_empty_credit_account() {
    let app = spawn_app().await;
    app.sign_up(&app.client, "omar@example.com").await;
    let (total, available, history): (i64, i64, i64) = sqlx::query_as(
        "SELECT a.total_credits, a.available_credits, a.show_payment_history FROM client_accounts a JOIN users u ON u.id = a.user_id WHERE u.email = $1",
    )
    .bind("omar@example.com")
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (total, available, history),
        (0, 0, 1),
        "payment history shown by default"
    );
}

#[tokio::test]
async fn sign_up_validation_messages_follow_the_spec() {
    let app = spawn_app().await;
    let cases = [
        (
            json!({"email": "a@example.com", "password": "nile-sunrise-42"}),
            "full_name",
            "Full name is required",
        ),
        (
            json!({"full_name": "Mona", "email": "not-an-email", "password": "nile-sunrise-42"}),
            "email",
            "Invalid email address",
        ),
        (
            json!({"full_name": "Mona", "email": "a@example.com", "password": "abc"}),
            "password",
            "Password must be at least 6 characters",
        ),
        (
            json!({"full_name": "Mona", "email": "a@example.com", "password": "password1"}),
            "password",
            "This password is too common. Please choose one that is harder to guess.",
        ),
    ];
    for (body, field, message) in cases {
        let (status, error) = error_of(app.post("/api/auth/sign-up", body).await).await;
        assert_eq!(status, 422);
        assert_eq!(error["code"], "validation_error");
        assert_eq!(error["message"], message);
        assert_eq!(error["fields"][field], message);
    }
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(count, 0, "nothing is half-written");
}

#[tokio::test]
async fn a_taken_email_is_refused_and_nothing_changes() {
    let app = spawn_app().await;
    app.sign_up(&app.client, "mona@example.com").await;
    let other = new_client();
    let (status, error) = error_of(app.sign_up(&other, "MONA@example.com").await).await;
    assert_eq!(status, 409);
    assert_eq!(error["message"], "User already registered");
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM profiles")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(count, 1);
}

#[tokio::test]
async fn sign_in_does_not_reveal_which_emails_have_accounts() {
    let app = spawn_app().await;
    app.sign_up(&new_client(), "mona@example.com").await;
    let wrong_password = app
        .post(
            "/api/auth/sign-in",
            json!({"email": "mona@example.com", "password": "wrong-password-1"}),
        )
        .await;
    let unknown_email = app
        .post(
            "/api/auth/sign-in",
            json!({"email": "nobody@example.com", "password": "wrong-password-1"}),
        )
        .await;
    let (s1, e1) = error_of(wrong_password).await;
    let (s2, e2) = error_of(unknown_email).await;
    assert_eq!((s1, &e1), (s2, &e2));
    assert_eq!(e1["message"], "Invalid login credentials");

    let (status, error) = error_of(
        app.post("/api/auth/sign-in", json!({"email": "mona@example.com"}))
            .await,
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (422, Some("Email and password are required"))
    );

    let ok = app
        .post(
            "/api/auth/sign-in",
            json!({"email": " Mona@Example.com ", "password": "nile-sunrise-42"}),
        )
        .await;
    assert_eq!(ok.status(), 200);
    let body: Value = ok.json().await.unwrap();
    assert_eq!(body["profile"]["email"], "mona@example.com");
}

#[tokio::test]
async fn sign_out_deletes_the_session_on_the_server() {
    let app = spawn_app().await;
    let response = app.sign_up(&app.client, "mona@example.com").await;
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let out = app.post("/api/auth/sign-out", json!({})).await;
    assert_eq!(out.status(), 204);
    assert!(
        out.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    // Replaying the old cookie from another browser gets nothing.
    let replay = reqwest::Client::new()
        .get(app.url("/api/auth/session"))
        .header("Cookie", cookie)
        .send()
        .await
        .unwrap();
    let (status, error) = error_of(replay).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (401, Some("Authentication required"))
    );
}

#[tokio::test]
async fn an_idle_session_expires() {
    let app = spawn_app_with(Options {
        session_idle: Duration::from_secs(1),
        ..Default::default()
    })
    .await;
    app.sign_up(&app.client, "mona@example.com").await;
    assert_eq!(app.get("/api/auth/session").await.status(), 200);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(app.get("/api/auth/session").await.status(), 401);
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(left, 0, "an expired session is deleted when seen");
}

#[tokio::test]
async fn an_absolute_expiry_ends_even_an_active_session() {
    let app = spawn_app().await;
    app.sign_up(&app.client, "mona@example.com").await;
    sqlx::query("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000000Z'")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(app.get("/api/auth/session").await.status(), 401);
}

#[tokio::test]
async fn password_reset_emails_a_single_use_link_and_ends_every_session() {
    let app = spawn_app().await;
    let first_browser = new_client();
    app.sign_up(&first_browser, "mona@example.com").await;

    let known = app
        .post(
            "/api/auth/password-reset",
            json!({"email": "mona@example.com"}),
        )
        .await;
    let unknown = app
        .post(
            "/api/auth/password-reset",
            json!({"email": "nobody@example.com"}),
        )
        .await;
    assert_eq!(known.status(), 202);
    assert_eq!(unknown.status(), 202);
    assert_eq!(
        known.text().await.unwrap(),
        unknown.text().await.unwrap(),
        "same answer for unknown emails"
    );

    let mail = app
        .mail
        .wait_for("mona@example.com", "Reset your password")
        .await;
    let link = mail.link(&format!("{}/auth?reset=", app.base));
    let token = link.split("reset=").nth(1).unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(app.mail.count_to("nobody@example.com"), 0);

    let (status, error) = error_of(
        app.post(
            "/api/auth/password-reset/confirm",
            json!({"token": token, "password": "abc"}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (422, Some("Password must be at least 6 characters"))
    );

    let done = app
        .post(
            "/api/auth/password-reset/confirm",
            json!({"token": token, "password": "red-sea-breeze-7"}),
        )
        .await;
    assert_eq!(done.status(), 200, "signs in with the new password");
    let reuse = app
        .post(
            "/api/auth/password-reset/confirm",
            json!({"token": token, "password": "red-sea-breeze-8"}),
        )
        .await;
    assert_eq!(
        error_of(reuse).await.1["message"],
        "This reset link is invalid or has expired."
    );

    let old = first_browser
        .get(app.url("/api/auth/session"))
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), 401, "the other browser's session ended");
    let old_password = app
        .post_as(
            &new_client(),
            "/api/auth/sign-in",
            json!({"email": "mona@example.com", "password": "nile-sunrise-42"}),
        )
        .await;
    assert_eq!(old_password.status(), 400);
    let new_password = app
        .post_as(
            &new_client(),
            "/api/auth/sign-in",
            json!({"email": "mona@example.com", "password": "red-sea-breeze-7"}),
        )
        .await;
    assert_eq!(new_password.status(), 200);
}

#[tokio::test]
async fn changing_the_password_ends_the_other_sessions_only() {
    let app = spawn_app().await;
    let other = new_client();
    app.sign_up(&app.client, "mona@example.com").await;
    app.post_as(
        &other,
        "/api/auth/sign-in",
        json!({"email": "mona@example.com", "password": "nile-sunrise-42"}),
    )
    .await;
    let wrong = app
        .post(
            "/api/auth/password",
            json!({"current_password": "nope-nope-1", "new_password": "red-sea-breeze-7"}),
        )
        .await;
    assert_eq!(
        error_of(wrong).await.1["message"],
        "Current password is incorrect"
    );
    let changed = app
        .post(
            "/api/auth/password",
            json!({"current_password": "nile-sunrise-42", "new_password": "red-sea-breeze-7"}),
        )
        .await;
    assert_eq!(changed.status(), 204);
    assert_eq!(
        app.get("/api/auth/session").await.status(),
        200,
        "this browser stays signed in"
    );
    assert_eq!(
        other
            .get(app.url("/api/auth/session"))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
}

#[tokio::test]
async fn sign_in_attempts_are_rate_limited_per_account() {
    let app = spawn_app_with(Options {
        rate_limits: true,
        ..Default::default()
    })
    .await;
    for _ in 0..10 {
        let r = app
            .post(
                "/api/auth/sign-in",
                json!({"email": "target@example.com", "password": "guess-guess-1"}),
            )
            .await;
        assert_eq!(r.status(), 400);
    }
    let limited = app
        .post(
            "/api/auth/sign-in",
            json!({"email": "target@example.com", "password": "guess-guess-1"}),
        )
        .await;
    assert_eq!(limited.status(), 429);
    let retry: u64 = limited.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=900).contains(&retry));
    assert_eq!(error_of(limited).await.1["code"], "rate_limited");
}

#[tokio::test]
async fn the_first_admin_is_created_from_the_command_line() {
    use std::io::Write;
    let app = spawn_app().await;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
        .args([
            "admin",
            "create",
            "--email",
            "Nadine@Coach.example.com",
            "--name",
            "Nadine Kamel",
        ])
        .env("DATABASE_URL", &app.database_url)
        .env(
            "CONTENT_DIR",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../content"),
        )
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"gold-and-navy-2026\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let signed_in = app
        .post(
            "/api/auth/sign-in",
            json!({"email": "nadine@coach.example.com", "password": "gold-and-navy-2026"}),
        )
        .await;
    let body: Value = signed_in.json().await.unwrap();
    assert_eq!(body["profile"]["role"], "admin");
    assert_eq!(body["user"]["email_confirmed"], true);
}

/// Every `Set-Cookie` of a response, whole.
fn set_cookies(response: &reqwest::Response) -> Vec<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_signed_in_hint_follows_the_session_and_grants_nothing() {
    let app = spawn_app().await;
    let up = app.sign_up(&app.client, "mona@example.com").await;
    let cookies = set_cookies(&up);
    let hint = cookies
        .iter()
        .find(|c| c.starts_with("signed_in="))
        .expect("a hint beside the session");
    assert!(
        hint.starts_with("signed_in=client;") && !hint.contains("HttpOnly"),
        "readable by the page script: {hint}"
    );
    assert!(
        cookies
            .iter()
            .any(|c| c.starts_with("session=") && c.contains("HttpOnly"))
    );

    // The session check renews it; signing out clears it.
    let session = app.get("/api/auth/session").await;
    assert!(
        set_cookies(&session)
            .iter()
            .any(|c| c.starts_with("signed_in=client;"))
    );
    let out = app.post("/api/auth/sign-out", json!({})).await;
    assert!(
        set_cookies(&out)
            .iter()
            .any(|c| c.starts_with("signed_in=;") && c.contains("Max-Age=0")),
        "{:?}",
        set_cookies(&out)
    );
    // A stale hint is cleared by the session check, and a forged one opens nothing.
    let forged = reqwest::Client::new()
        .get(app.url("/api/auth/session"))
        .header("Cookie", "signed_in=admin")
        .send()
        .await
        .unwrap();
    assert!(
        set_cookies(&forged)
            .iter()
            .any(|c| c.starts_with("signed_in=;"))
    );
    assert_eq!(error_of(forged).await.0, 401);
    let admin = reqwest::Client::new()
        .get(app.url("/api/admin/stats"))
        .header("Cookie", "signed_in=admin")
        .send()
        .await
        .unwrap();
    assert_eq!(admin.status(), 401);
}

#[tokio::test]
async fn a_signed_in_client_can_have_the_confirmation_email_sent_again() {
    let app = spawn_app().await;
    app.sign_up(&app.client, "mona@example.com").await;
    app.mail
        .wait_for("mona@example.com", "Confirm your email")
        .await;
    let resend = app.post("/api/auth/confirm/resend", json!({})).await;
    assert_eq!(resend.status(), 202);
    let body: Value = resend.json().await.unwrap();
    assert_eq!(body["status"], "check_your_email");
    for _ in 0..50 {
        if app.mail.count_to("mona@example.com") == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(app.mail.count_to("mona@example.com"), 2);
    let mail = app
        .mail
        .wait_for("mona@example.com", "Confirm your email")
        .await;
    let link = mail.link(&format!("{}/api/auth/confirm?token=", app.base));
    let confirm = app.client.get(&link).send().await.unwrap();
    assert_eq!(
        confirm.headers()["location"],
        format!("{}/auth?confirmed=1", app.base)
    );
    let again = app.post("/api/auth/confirm/resend", json!({})).await;
    let body: Value = again.json().await.unwrap();
    assert_eq!(body["status"], "already_confirmed");

    // Signed out: nothing to resend.
    let stranger = new_client();
    let (status, _) = error_of(
        app.post_as(&stranger, "/api/auth/confirm/resend", json!({}))
            .await,
    )
    .await;
    assert_eq!(status, 401);
}
