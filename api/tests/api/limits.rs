//! The throttles: they stop guessing, never strand the owner, cannot be dodged with a forged
//! `X-Forwarded-For`, and hold for the whole API however many replicas serve it.

use serde_json::json;

use crate::support::{Options, TestApp, error_of, new_client, spawn_app_with, using_postgres};

const PASSWORD: &str = "nile-sunrise-42";

fn limited() -> Options {
    Options {
        rate_limits: true,
        ..Options::default()
    }
}

async fn sign_in(
    app: &TestApp,
    c: &reqwest::Client,
    email: &str,
    password: &str,
) -> reqwest::Response {
    app.post_as(
        c,
        "/api/auth/sign-in",
        json!({"email": email, "password": password}),
    )
    .await
}

#[tokio::test]
async fn ten_wrong_passwords_lock_sign_in_until_a_password_reset_lifts_it() {
    let app = spawn_app_with(limited()).await;
    let owner = new_client();
    assert_eq!(app.sign_up(&owner, "mona@example.com").await.status(), 201);
    let guesser = new_client();
    for _ in 0..10 {
        let r = sign_in(&app, &guesser, "mona@example.com", "wrong-guess-1").await;
        assert_eq!(r.status(), 400);
    }
    // Even the right password is refused now, with what to do about it.
    let (status, error) = error_of(sign_in(&app, &owner, "mona@example.com", PASSWORD).await).await;
    assert_eq!(status, 429);
    assert_eq!(
        error["message"],
        "Too many attempts. Try again in 15 minutes, or reset your password."
    );
    // Another account is not affected.
    let omar = new_client();
    assert_eq!(app.sign_up(&omar, "omar@example.com").await.status(), 201);
    assert_eq!(
        sign_in(&app, &omar, "omar@example.com", PASSWORD)
            .await
            .status(),
        200
    );

    // The owner resets the password from the emailed link and is let in at once.
    let r = app
        .post_as(
            &owner,
            "/api/auth/password-reset",
            json!({"email": "mona@example.com"}),
        )
        .await;
    assert_eq!(r.status(), 202);
    let mail = app
        .mail
        .wait_for("mona@example.com", "Reset your password")
        .await;
    let link = mail.link(&format!("{}/auth?reset=", app.base));
    let token = link.split("reset=").nth(1).unwrap();
    let r = app
        .post_as(
            &owner,
            "/api/auth/password-reset/confirm",
            json!({"token": token, "password": "red-sea-breeze-7"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let again = new_client();
    let r = sign_in(&app, &again, "mona@example.com", "red-sea-breeze-7").await;
    assert_eq!(r.status(), 200, "the lock is lifted");
}

#[tokio::test]
async fn a_forged_forwarded_for_does_not_escape_the_per_address_limit() {
    let app = spawn_app_with(Options {
        trust_proxy: true,
        ..limited()
    })
    .await;
    let attacker = new_client();
    let mut refused = 0;
    for i in 0..30 {
        // The caller writes the left part; the proxy appends the address it saw.
        let r = attacker
            .post(app.url("/api/auth/sign-in"))
            .header("Origin", &app.base)
            .header(
                "X-Forwarded-For",
                format!("10.0.{}.{}, 203.0.113.9", i / 250, i % 250),
            )
            .json(&json!({"email": format!("guess{i}@example.com"), "password": "wrong-guess-1"}))
            .send()
            .await
            .unwrap();
        if r.status() == 429 {
            refused += 1;
        }
    }
    assert_eq!(
        refused, 10,
        "20 attempts per address in 15 minutes, whatever the header says"
    );
    // Another client behind the same proxy is counted apart.
    let r = new_client()
        .post(app.url("/api/auth/sign-in"))
        .header("Origin", &app.base)
        .header("X-Forwarded-For", "198.51.100.4")
        .json(&json!({"email": "someone@example.com", "password": "wrong-guess-1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
}

/// On PostgreSQL the windows are rows every replica counts in. (A SQLite deployment is one
/// process; there is no second replica to test.)
#[tokio::test]
async fn two_replicas_share_one_limit() {
    if !using_postgres() {
        return;
    }
    let first = spawn_app_with(limited()).await;
    let second = spawn_app_with(Options {
        database_url: Some(first.database_url.clone()),
        ..limited()
    })
    .await;
    let c = new_client();
    for i in 0..10 {
        let app = if i % 2 == 0 { &first } else { &second };
        let r = sign_in(app, &c, "mona@example.com", "wrong-guess-1").await;
        assert_eq!(r.status(), 400);
    }
    for app in [&first, &second] {
        let (status, _) =
            error_of(sign_in(app, &c, "mona@example.com", "wrong-guess-1").await).await;
        assert_eq!(
            status, 429,
            "the lock counted on both replicas holds on each"
        );
    }
}
