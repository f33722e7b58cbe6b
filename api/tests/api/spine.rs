//! The API's boundary, as a hostile client meets it: text no database should store, numbers
//! past any sensible bound, bodies and query strings of the wrong shape, the documented
//! contract, and the ledger check. Every answer is the one error shape, the same on SQLite and
//! PostgreSQL, and nothing is half-written.

use serde_json::{Value, json};

use crate::support::{
    TestApp, admin_client, cairo_day, error_of, ledger_verify_command, new_client, spawn_app,
};

async fn signed_in_client(app: &TestApp, email: &str) -> (reqwest::Client, String) {
    let c = new_client();
    assert_eq!(app.sign_up(&c, email).await.status(), 201);
    let id: String = sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    (c, id)
}

/// A NUL byte used to reach PostgreSQL and come back as a 500 (SQLite took it).
#[tokio::test]
async fn a_nul_byte_anywhere_is_refused_with_the_field_named() {
    let app = spawn_app().await;
    let (mona, mona_id) = signed_in_client(&app, "mona@example.com").await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let anon = new_client();
    let nul = "a\u{0}b";
    let bodies: Vec<(&reqwest::Client, &str, Value, &str)> = vec![
        (
            &anon,
            "/api/auth/sign-in",
            json!({"email": nul, "password": "whatever-1"}),
            "email",
        ),
        (
            &anon,
            "/api/auth/sign-up",
            json!({"full_name": nul, "email": "x@example.com", "password": "nile-sunrise-42"}),
            "full_name",
        ),
        (
            &anon,
            "/api/auth/sign-up",
            json!({"full_name": "Omar", "email": "y@example.com", "password": "nile-sunrise-42", "phone": nul}),
            "phone",
        ),
        (
            &anon,
            "/api/contact",
            json!({"name": "Omar", "email": "o@example.com", "message": nul, "form_type": "general"}),
            "message",
        ),
        (
            &anon,
            "/api/newsletter/subscribe",
            json!({"email": "o@example.com", "source": nul}),
            "source",
        ),
        (
            &boss,
            "/api/admin/users",
            json!({"fullName": nul, "email": "z@example.com", "password": "nile-sunrise-42"}),
            "fullName",
        ),
        (
            &boss,
            "/api/admin/payments",
            json!({"clientId": mona_id, "amount": 10, "sessionsPurchased": 1, "paymentDate": "2026-11-20", "notes": nul}),
            "notes",
        ),
        (
            &boss,
            "/api/admin/bookings",
            json!({"clientId": nul, "sessionDate": "2026-12-01", "sessionTime": "10:00"}),
            "clientId",
        ),
    ];
    for (client, path, body, field) in bodies {
        let (status, error) = error_of(app.post_as(client, path, body).await).await;
        assert_eq!(status, 422, "{path}: {error}");
        assert!(error["fields"][field].is_string(), "{path}: {error}");
    }
    for (client, path, field) in [
        (&boss, "/api/admin/clients?search=%00", "search"),
        (&boss, "/api/admin/sessions?client_id=%00", "client_id"),
        (&mona, "/api/dashboard?status=%00", "status"),
        (&anon, "/api/newsletter/unsubscribe?t=%00", "t"),
    ] {
        let (status, error) = error_of(client.get(app.url(path)).send().await.unwrap()).await;
        assert_eq!(status, 422, "{path}: {error}");
        assert!(error["fields"][field].is_string(), "{path}: {error}");
    }
    for (client, path) in [
        (&mona, "/api/payments/by-cart/%00"),
        (&boss, "/api/admin/bookings/%00/cancel"),
    ] {
        let r = if path.ends_with("cancel") {
            app.post_as(client, path, json!({})).await
        } else {
            client.get(app.url(path)).send().await.unwrap()
        };
        let (status, error) = error_of(r).await;
        assert_eq!(status, 422, "{path}: {error}");
    }
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(users, 2, "nothing was written");
}

/// `paymentAmount: 1e300` or 2^63-1 credits used to be accepted, and then the stats answered
/// 500 for good.
#[tokio::test]
async fn admin_amounts_and_credits_are_bounded_and_the_stats_keep_working() {
    let app = spawn_app().await;
    let (_, mona_id) = signed_in_client(&app, "mona@example.com").await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let max = i64::MAX;
    let cases = [
        (
            "/api/admin/payments",
            json!({"clientId": mona_id, "amount": 1e300, "sessionsPurchased": 1, "paymentDate": "2026-11-20"}),
            "amount",
        ),
        (
            "/api/admin/payments",
            json!({"clientId": mona_id, "amount": "10000000.01", "sessionsPurchased": 1, "paymentDate": "2026-11-20"}),
            "amount",
        ),
        (
            "/api/admin/payments",
            json!({"clientId": mona_id, "amount": 100.005, "sessionsPurchased": 1, "paymentDate": "2026-11-20"}),
            "amount",
        ),
        (
            "/api/admin/payments",
            json!({"clientId": mona_id, "amount": 100, "sessionsPurchased": max, "paymentDate": "2026-11-20"}),
            "sessionsPurchased",
        ),
        (
            "/api/admin/payments",
            json!({"clientId": mona_id, "amount": 100, "sessionsPurchased": 1001, "paymentDate": "2026-11-20"}),
            "sessionsPurchased",
        ),
        (
            "/api/admin/users",
            json!({"fullName": "Aly", "email": "a@example.com", "password": "nile-sunrise-42", "initialCredits": max}),
            "initialCredits",
        ),
        (
            "/api/admin/users",
            json!({"fullName": "Aly", "email": "a@example.com", "password": "nile-sunrise-42", "initialCredits": 5, "paymentAmount": 1e300}),
            "paymentAmount",
        ),
    ];
    for (path, body, field) in cases {
        let (status, error) = error_of(app.post_as(&boss, path, body.clone()).await).await;
        assert_eq!(status, 422, "{body}: {error}");
        assert!(error["fields"][field].is_string(), "{body}: {error}");
    }
    // The largest amounts that are allowed, as a number and as text, add up without overflow.
    for amount in [json!(10_000_000), json!("10000000.00")] {
        let body = json!({"clientId": mona_id, "amount": amount, "sessionsPurchased": 1000, "paymentDate": cairo_day(0)});
        assert_eq!(
            app.post_as(&boss, "/api/admin/payments", body)
                .await
                .status(),
            201
        );
    }
    let r = boss.get(app.url("/api/admin/stats")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let stats: Value = r.json().await.unwrap();
    assert_eq!(stats["totalCredits"], 2000);
    let (total, available): (i64, i64) = sqlx::query_as(
        "SELECT total_credits, available_credits FROM client_accounts WHERE user_id = $1",
    )
    .bind(&mona_id)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!((total, available), (2000, 2000));
    crate::support::assert_ledger_verifies(&app).await;
}

/// axum's own rejections and a wrong method used to answer text/plain or nothing at all.
#[tokio::test]
async fn every_refusal_under_api_has_the_one_error_shape() {
    let app = spawn_app().await;
    let (mona, _) = signed_in_client(&app, "mona@example.com").await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let cases: Vec<(reqwest::RequestBuilder, u16, &str)> = vec![
        (
            app.client
                .delete(app.url("/api/contact"))
                .header("Origin", &app.base),
            405,
            "method_not_allowed",
        ),
        (
            app.client.get(app.url("/api/contact")),
            405,
            "method_not_allowed",
        ),
        (
            app.client
                .post(app.url("/api/contact"))
                .header("Origin", &app.base)
                .header("Content-Type", "application/json")
                .body(format!(
                    "{{\"message\":\"{}\"}}",
                    "x".repeat(3 * 1024 * 1024)
                )),
            413,
            "payload_too_large",
        ),
        (
            app.client
                .post(app.url("/api/contact"))
                .header("Origin", &app.base)
                .header("Content-Type", "text/plain")
                .body("{}"),
            415,
            "unsupported_media_type",
        ),
        (
            app.client
                .post(app.url("/api/contact"))
                .header("Origin", &app.base)
                .header("Content-Type", "application/json")
                .body("[1, 2"),
            400,
            "bad_request",
        ),
        (
            boss.get(app.url("/api/admin/clients?search=a&search=b")),
            400,
            "bad_request",
        ),
        (
            boss.get(app.url("/api/admin/clients?search=%zz")),
            400,
            "bad_request",
        ),
        (
            mona.get(app.url("/api/dashboard?status=%ff")),
            400,
            "bad_request",
        ),
        (
            app.client.get(app.url("/api/no/such/route")),
            404,
            "not_found",
        ),
    ];
    for (request, want_status, want_code) in cases {
        let r = request.send().await.unwrap();
        let content_type = r.headers()["content-type"].to_str().unwrap().to_string();
        assert!(
            content_type.starts_with("application/json"),
            "{want_status}: {content_type}"
        );
        let (status, error) = error_of(r).await;
        assert_eq!(
            (status, error["code"].as_str()),
            (want_status, Some(want_code)),
            "{error}"
        );
    }
}

/// Two `SessionView` and two `PaymentRecordView` types used to collide, documenting routes
/// with other routes' shapes.
#[tokio::test]
async fn the_served_openapi_names_each_routes_own_shapes() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let schema = |path: &str, method: &str, status: &str| {
        doc["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]["$ref"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        schema("/api/auth/session", "get", "200"),
        "#/components/schemas/AuthSessionView"
    );
    assert_eq!(
        schema("/api/admin/payments", "post", "201"),
        "#/components/schemas/RecordedPaymentView"
    );
    assert_eq!(
        schema("/api/dashboard", "get", "200"),
        "#/components/schemas/DashboardView"
    );
    let session = &doc["components"]["schemas"]["AuthSessionView"]["properties"];
    assert!(
        session["user"].is_object() && session["profile"].is_object(),
        "{session}"
    );
    let money = &doc["components"]["schemas"]["Money"]["properties"];
    assert_eq!(money["minor"]["type"], "integer");
    for status in ["400", "413", "415"] {
        assert!(doc["paths"]["/api/contact"]["post"]["responses"][status].is_object());
    }
    assert!(doc["paths"]["/api/auth/sign-in"]["post"]["responses"]["429"].is_object());
}

#[tokio::test]
async fn ledger_verify_names_an_account_whose_totals_differ_from_its_ledger() {
    let app = spawn_app().await;
    let (_, mona_id) = signed_in_client(&app, "mona@example.com").await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let body = json!({"clientId": mona_id, "amount": 900, "sessionsPurchased": 3, "paymentDate": cairo_day(0)});
    assert_eq!(
        app.post_as(&boss, "/api/admin/payments", body)
            .await
            .status(),
        201
    );
    crate::support::assert_ledger_verifies(&app).await;
    // Someone edits the totals by hand, bypassing the ledger.
    sqlx::query(
        "UPDATE client_accounts SET total_credits = 4, available_credits = 4 WHERE user_id = $1",
    )
    .bind(&mona_id)
    .execute(&app.state.db.pool)
    .await
    .unwrap();
    let (ok, output) = ledger_verify_command(&app);
    assert!(!ok, "{output}");
    assert!(output.contains(&mona_id), "{output}");
    let (mismatches, _) = api::domain::credits::verify(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(mismatches.len(), 1);
    assert_eq!(
        (mismatches[0].total_credits, mismatches[0].ledger_total),
        (4, 3)
    );
}
