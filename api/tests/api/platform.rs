//! What every route shares: health, the error shape, CSRF, role extractors, OpenAPI.

use std::time::Duration;

use axum::routing::get;
use serde_json::{Value, json};

use api::extract::{AdminUser, AuthUser};

use crate::support::{error_of, new_client, spawn_app};

#[tokio::test]
async fn health_checks_the_database() {
    let app = spawn_app().await;
    let body: Value = app.get("/api/health").await.json().await.unwrap();
    assert_eq!(body, json!({"status": "ok", "database": "ok"}));
}

/// The container's HEALTHCHECK runs `api health`: 0 when the API answers healthy, non-zero
/// with the reason when nothing answers.
#[tokio::test]
async fn api_health_asks_the_running_server() {
    let app = spawn_app().await;
    let port = app.base.rsplit(':').next().unwrap().to_string();
    // On the blocking pool: the server under test answers on this test's runtime meanwhile.
    let health = |port: String| async move {
        tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_api"))
                .args(["health", "--port", &port])
                .env_clear()
                .output()
                .unwrap()
        })
        .await
        .unwrap()
    };
    let out = health(port).await;
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains(r#""database":"ok""#));

    // A port nobody listens on (bound, then released).
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed = free.local_addr().unwrap().port().to_string();
    drop(free);
    let out = health(closed).await;
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("did not answer"),
        "{out:?}"
    );
}

/// SIGTERM stops the API promptly, whatever its background workers are doing at that moment:
/// here they are still at their first round of work (the outbox, the sweeps, the alerts) when
/// the stop comes, as they may be in production. A container that does not stop is killed
/// after its grace period, mid-write.
#[tokio::test]
async fn the_api_stops_on_request_even_while_its_workers_are_busy() {
    let app = spawn_app().await;
    let base = app.base.clone();
    let stopped = tokio::time::timeout(Duration::from_secs(20), app.shut_down()).await;
    assert!(
        matches!(stopped, Ok(Ok(()))),
        "the API did not stop within 20 s: {stopped:?}"
    );
    assert!(
        reqwest::get(format!("{base}/api/health")).await.is_err(),
        "nothing answers once it has stopped"
    );
}

#[tokio::test]
async fn state_changing_requests_from_another_origin_or_without_one_are_refused() {
    let app = spawn_app().await;
    let body = json!({"email": "a@example.com", "password": "x"});
    let no_origin = reqwest::Client::new()
        .post(app.url("/api/auth/sign-in"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let (status, error) = error_of(no_origin).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (403, Some("Cross-site request refused"))
    );
    let foreign = reqwest::Client::new()
        .post(app.url("/api/auth/sign-in"))
        .header("Origin", "https://evil.example")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403);
}

#[tokio::test]
async fn a_form_post_or_bad_json_gets_the_one_error_shape() {
    let app = spawn_app().await;
    let form = app
        .client
        .post(app.url("/api/contact"))
        .header("Origin", &app.base)
        .form(&[("name", "A")])
        .send()
        .await
        .unwrap();
    let (status, error) = error_of(form).await;
    assert_eq!(
        (status, error["code"].as_str()),
        (415, Some("unsupported_media_type"))
    );
    let broken = app
        .client
        .post(app.url("/api/contact"))
        .header("Origin", &app.base)
        .header("Content-Type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(broken).await.0, 400);
    let (status, error) = error_of(app.get("/api/nowhere").await).await;
    assert_eq!((status, error["code"].as_str()), (404, Some("not_found")));
}

/// The role extractors on a route of their own, with the real app state and sessions.
#[tokio::test]
async fn roles_are_enforced_by_the_extractors() {
    let app = spawn_app().await;
    let router = axum::Router::new()
        .route("/who", get(|u: AuthUser| async move { u.role.as_str() }))
        .route(
            "/admin-only",
            get(|AdminUser(u): AdminUser| async move { u.email }),
        )
        .with_state(app.state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let probe = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });

    let anonymous = new_client();
    let (status, _) = error_of(
        anonymous
            .get(format!("{probe}/admin-only"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 401);

    let client = new_client();
    let cookie = app.sign_up(&client, "client@example.com").await.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let as_client = reqwest::Client::new();
    let who = as_client
        .get(format!("{probe}/who"))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(who, "client");
    let (status, error) = error_of(
        as_client
            .get(format!("{probe}/admin-only"))
            .header("Cookie", &cookie)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (403, Some("Admin access required"))
    );

    sqlx::query("UPDATE profiles SET role = 'admin'")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let ok = as_client
        .get(format!("{probe}/admin-only"))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.text().await.unwrap(), "client@example.com");
}

#[tokio::test]
async fn the_openapi_document_lists_every_route_with_its_errors() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    let paths = doc["paths"].as_object().unwrap();
    for route in [
        "/api/health",
        "/api/auth/sign-up",
        "/api/auth/sign-in",
        "/api/auth/sign-out",
        "/api/auth/session",
        "/api/auth/confirm",
        "/api/auth/password-reset",
        "/api/auth/password-reset/confirm",
        "/api/auth/password",
        "/api/auth/language",
        "/api/contact",
        "/api/newsletter/subscribe",
        "/api/newsletter/confirm",
        "/api/newsletter/unsubscribe",
        "/api/payments/paytabs/create",
        "/api/payments/paytabs/callback",
        "/api/payments/paytabs/return",
        "/api/payments/by-cart/{cart_id}",
        "/api/payments/latest",
        "/api/admin/payments",
        "/api/webhooks/calendly",
        "/api/dashboard",
        "/api/dashboard/payment-history",
        "/api/book-session",
        "/api/admin/stats",
        "/api/admin/clients",
        "/api/admin/users",
        "/api/admin/bookings",
        "/api/admin/bookings/recent",
        "/api/admin/sessions",
        "/api/admin/bookings/{id}/cancel",
        "/api/admin/bookings/{id}/no-show",
    ] {
        assert!(
            paths.contains_key(route),
            "{route} missing from the OpenAPI document"
        );
    }
    let sign_up = &paths["/api/auth/sign-up"]["post"]["responses"];
    for code in ["201", "409", "422", "429"] {
        assert!(sign_up.get(code).is_some(), "sign-up documents {code}");
    }
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
}

/// The worker keeps a message when the SMTP server cannot be reached, backs off, and sends it
/// once the server answers. Driven step by step on a database no app worker reads.
#[tokio::test]
async fn the_outbox_retries_with_back_off_until_the_server_answers() {
    use api::configuration::{SmtpConfig, SmtpTls};
    use api::email::outbox::drain_once;
    use api::email::transport::SmtpTransport;

    let (url, _dir) = crate::support::fresh_database().await;
    let db = api::db::Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    let transport = |port| {
        SmtpTransport::new(&SmtpConfig {
            host: "127.0.0.1".into(),
            port,
            tls: SmtpTls::None,
            username: None,
            password: None,
        })
        .unwrap()
    };
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut conn = db.pool.acquire().await.unwrap();
    let mail = api::email::OutgoingEmail {
        to: "retry@example.com".into(),
        subject: "Retry me".into(),
        text: "t".into(),
        html: "<p>t</p>".into(),
        ..Default::default()
    };
    api::email::enqueue(&mut conn, &mail).await.unwrap();
    drop(conn);
    let from = "Coach <no-reply@coach.example.com>";
    let row = || async {
        sqlx::query_as::<_, (String, i64, Option<String>, String)>(
            "SELECT status, attempts, last_error, next_attempt_at FROM email_outbox",
        )
        .fetch_one(&db.pool)
        .await
        .unwrap()
    };

    assert_eq!(drain_once(&db, &transport(closed), from).await.unwrap(), 1);
    let (status, attempts, error, next) = row().await;
    assert_eq!((status.as_str(), attempts), ("pending", 1));
    assert!(error.is_some_and(|e| !e.is_empty()));
    assert!(next > api::domain::now(), "the next attempt waits");
    assert_eq!(
        drain_once(&db, &transport(closed), from).await.unwrap(),
        0,
        "not before its time"
    );

    sqlx::query("UPDATE email_outbox SET next_attempt_at = '2000-01-01T00:00:00.000000Z'")
        .execute(&db.pool)
        .await
        .unwrap();
    let server = crate::support::MailServer::start().await;
    assert_eq!(
        drain_once(&db, &transport(server.port), from)
            .await
            .unwrap(),
        1
    );
    let (status, attempts, error, _) = row().await;
    assert_eq!((status.as_str(), attempts, error), ("sent", 2, None));
    server.wait_for("retry@example.com", "Retry me").await;
}
