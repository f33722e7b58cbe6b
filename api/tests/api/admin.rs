//! The admin API, and who may call what: every client and admin route against anonymous, the
//! client, another client and an admin.

use chrono::{Duration, Utc};
use serde_json::{Value, json};

use crate::bookings::{balance, client_with_credits, deliver, from_book_session, payload};
use crate::support::{TestApp, cairo_day, cairo_to_utc, error_of, new_client, spawn_app};

async fn admin(app: &TestApp) -> reqwest::Client {
    crate::support::admin_client(app, "boss@coach.example.com").await
}

async fn post(app: &TestApp, c: &reqwest::Client, path: &str, body: Value) -> reqwest::Response {
    app.post_as(c, path, body).await
}

#[tokio::test]
async fn stats_count_clients_credits_sessions_and_this_months_revenue() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 4).await;
    client_with_credits(&app, "omar@example.com", 0).await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "1",
            "mona@example.com",
            Utc::now() + Duration::days(2),
            from_book_session(&mona, json!({})),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "2",
            "mona@example.com",
            Utc::now() - Duration::days(2),
            from_book_session(&mona, json!({})),
        ),
    )
    .await;
    api::scheduling::jobs::complete_past_sessions(&app.state)
        .await
        .unwrap();
    let today = cairo_day(0);
    let r = post(
        &app,
        &boss,
        "/api/admin/payments",
        json!({"clientId": mona, "amount": 1500.25, "sessionsPurchased": 1, "paymentDate": today}),
    )
    .await;
    assert_eq!(r.status(), 201);
    let s: Value = boss
        .get(app.url("/api/admin/stats"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(s["totalClients"], 2, "admins are not clients");
    assert_eq!(s["totalCredits"], 5);
    assert_eq!(s["upcomingSessions"], 1);
    assert_eq!(s["completedSessions"], 1);
    assert_eq!(
        s["revenueThisMonth"],
        json!({"minor": 150_025, "currency": "EGP"})
    );
}

#[tokio::test]
async fn clients_are_searchable_with_their_session_counts() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 3).await;
    client_with_credits(&app, "omar@example.com", 0).await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "1",
            "mona@example.com",
            Utc::now() + Duration::days(2),
            from_book_session(&mona, json!({})),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "2",
            "mona@example.com",
            Utc::now() + Duration::days(3),
            from_book_session(&mona, json!({})),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.canceled",
            "2",
            "mona@example.com",
            Utc::now() + Duration::days(3),
            json!({}),
        ),
    )
    .await;
    let all: Vec<Value> = boss
        .get(app.url("/api/admin/clients"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(all.len(), 2);
    let mona: Vec<Value> = boss
        .get(app.url("/api/admin/clients?search=MONA@"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(mona.len(), 1);
    assert_eq!(mona[0]["session_count"], 1, "non-cancelled");
    assert_eq!(mona[0]["upcoming_sessions"], 1, "confirmed");
    assert_eq!(mona[0]["completed_sessions"], 0);
    let none: Vec<Value> = boss
        .get(app.url("/api/admin/clients?search=zzz"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(none.is_empty());
}

#[tokio::test]
async fn creating_a_user_follows_the_spec_rules_and_emails_a_password_link() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    for (body, message) in [
        (
            json!({"fullName": "A", "email": "a@example.com", "password": "nile-sunrise-42"}),
            "Full name must be at least 2 characters",
        ),
        (
            json!({"fullName": "Aly", "email": "nope", "password": "nile-sunrise-42"}),
            "Invalid email address",
        ),
        (
            json!({"fullName": "Aly", "email": "a@example.com", "password": "123"}),
            "Password must be at least 6 characters",
        ),
        (
            json!({"fullName": "Aly", "email": "a@example.com", "password": "nile-sunrise-42", "paymentAmount": 500}),
            "Initial credits must be greater than 0 when payment amount is provided",
        ),
    ] {
        let (status, error) = error_of(post(&app, &boss, "/api/admin/users", body).await).await;
        assert_eq!((status, error["message"].as_str()), (422, Some(message)));
    }
    let r = post(&app, &boss, "/api/admin/users", json!({
        "fullName": "Hala Samir", "email": "hala@example.com", "phone": "+20 111", "password": "nile-sunrise-42",
        "initialCredits": 5, "paymentAmount": 20250, "paymentMethod": "bank_transfer", "paymentDate": cairo_day(-3), "paymentNotes": "Invoice 12"
    })).await;
    assert_eq!(r.status(), 201);
    let created: Value = r.json().await.unwrap();
    assert_eq!(
        (
            created["success"].as_bool(),
            created["role"].as_str(),
            created["availableCredits"].as_i64()
        ),
        (Some(true), Some("client"), Some(5))
    );
    let user = created["userId"].as_str().unwrap().to_string();
    assert_eq!(balance(&app, &user).await, (5, 0, 5));
    let (amount, method): (i64, String) =
        sqlx::query_as("SELECT amount, payment_method FROM payment_records WHERE client_id = $1")
            .bind(&user)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!((amount, method.as_str()), (2_025_000, "bank_transfer"));
    let mail = app
        .mail
        .wait_for("hala@example.com", "Your client account")
        .await;
    let link = mail.link(&format!("{}/auth?reset=", app.base));
    let token = link.split("reset=").nth(1).unwrap();
    let set = app
        .post_as(
            &new_client(),
            "/api/auth/password-reset/confirm",
            json!({"token": token, "password": "hala-own-pass-9"}),
        )
        .await;
    assert_eq!(set.status(), 200, "the emailed link sets her own password");

    let (status, _) = error_of(
        post(
            &app,
            &boss,
            "/api/admin/users",
            json!({"fullName": "Hala", "email": "HALA@example.com", "password": "nile-sunrise-42"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 409);
    let r = post(&app, &boss, "/api/admin/users", json!({"fullName": "Second Admin", "email": "admin2@example.com", "password": "nile-sunrise-42", "role": "admin"})).await;
    assert_eq!(r.json::<Value>().await.unwrap()["role"], "admin");
}

#[tokio::test]
async fn a_phone_booking_needs_a_credit_and_debits_it() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let (_, broke) = client_with_credits(&app, "omar@example.com", 0).await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 1).await;
    // An upcoming session, the next day with none and the day after, on the coach's calendar.
    let (day, next_day, day_after) = (cairo_day(30), cairo_day(31), cairo_day(32));
    for (body, message) in [
        (
            json!({"sessionDate": "2026-12-03", "sessionTime": "15:00"}),
            "Please select a client",
        ),
        (
            json!({"clientId": mona, "sessionTime": "15:00"}),
            "Session date is required",
        ),
        (
            json!({"clientId": mona, "sessionDate": "2026-12-03"}),
            "Session time is required",
        ),
        (
            json!({"clientId": mona, "sessionDate": "2026-12-03", "sessionTime": "15:00", "googleMeetLink": "meet me"}),
            "Meet link must be a URL",
        ),
    ] {
        let (status, error) = error_of(post(&app, &boss, "/api/admin/bookings", body).await).await;
        assert_eq!((status, error["message"].as_str()), (422, Some(message)));
    }
    let (status, error) = error_of(
        post(
            &app,
            &boss,
            "/api/admin/bookings",
            json!({"clientId": broke, "sessionDate": day, "sessionTime": "15:00"}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (409, Some("Insufficient Credits"))
    );

    let r = post(&app, &boss, "/api/admin/bookings", json!({"clientId": mona, "sessionDate": day, "sessionTime": "15:00", "googleMeetLink": "https://meet.google.com/xyz", "sessionNotes": "Phone booking"})).await;
    assert_eq!(r.status(), 201);
    let booking: Value = r.json().await.unwrap();
    assert_eq!(booking["status"], "confirmed");
    assert_eq!(
        booking["sessionDate"],
        cairo_to_utc(&day, "15:00").as_str(),
        "15:00 in Cairo, saved with seconds, in UTC"
    );
    assert_eq!(booking["source"], "phone");
    assert_eq!(balance(&app, &mona).await, (1, 1, 0));
    let (status, _) = error_of(
        post(
            &app,
            &boss,
            "/api/admin/bookings",
            json!({"clientId": mona, "sessionDate": next_day, "sessionTime": "15:00"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 409, "no credit left");

    // Cancel: confirmed (or pending) only; the credit comes back.
    let id = booking["id"].as_str().unwrap();
    let r = post(
        &app,
        &boss,
        &format!("/api/admin/bookings/{id}/cancel"),
        json!({}),
    )
    .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "cancelled");
    assert_eq!(balance(&app, &mona).await, (1, 0, 1));
    let (status, error) = error_of(
        post(
            &app,
            &boss,
            &format!("/api/admin/bookings/{id}/cancel"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (
            409,
            Some("Only confirmed or pending bookings can be cancelled")
        )
    );
    assert_eq!(balance(&app, &mona).await, (1, 0, 1), "no second refund");

    let sessions: Vec<Value> = boss
        .get(app.url(&format!("/api/admin/sessions?client_id={mona}&date={day}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(sessions.len(), 1);
    let other_day: Vec<Value> = boss
        .get(app.url(&format!("/api/admin/sessions?date={day_after}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(other_day.is_empty());
    let recent: Vec<Value> = boss
        .get(app.url("/api/admin/bookings/recent"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(recent.len(), 1);
    assert_eq!(recent[0]["clientName"], "Mona Adel");
}

#[tokio::test]
async fn an_admin_marks_a_no_show_and_the_credit_stays_used() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 1).await;
    let r = post(
        &app,
        &boss,
        "/api/admin/bookings",
        json!({"clientId": mona, "sessionDate": cairo_day(30), "sessionTime": "10:30"}),
    )
    .await;
    let id = r.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = post(
        &app,
        &boss,
        &format!("/api/admin/bookings/{id}/no-show"),
        json!({}),
    )
    .await;
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "no_show");
    assert_eq!(balance(&app, &mona).await, (1, 1, 0));
    assert_eq!(
        post(&app, &boss, "/api/admin/bookings/nope/no-show", json!({}))
            .await
            .status(),
        404
    );
}

/// Every client and admin route × anonymous, the client, another client, an admin.
#[tokio::test]
async fn the_authorization_matrix_holds_for_every_route() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let (mona, mona_id) = client_with_credits(&app, "mona@example.com", 2).await;
    let (omar, _) = client_with_credits(&app, "omar@example.com", 0).await;
    let anonymous = new_client();
    let r = post(
        &app,
        &boss,
        "/api/admin/bookings",
        json!({"clientId": mona_id, "sessionDate": cairo_day(30), "sessionTime": "10:30"}),
    )
    .await;
    let booking = r.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();

    // (method, path, body): admin routes
    let admin_routes: Vec<(&str, String, Value)> = vec![
        ("GET", "/api/admin/stats".into(), json!(null)),
        ("GET", "/api/admin/clients".into(), json!(null)),
        ("GET", "/api/admin/sessions".into(), json!(null)),
        ("GET", "/api/admin/bookings/recent".into(), json!(null)),
        (
            "GET",
            "/api/admin/bookings/needs-attention".into(),
            json!(null),
        ),
        (
            "POST",
            format!("/api/admin/bookings/{booking}/assign"),
            json!({"clientId": mona_id}),
        ),
        (
            "POST",
            "/api/admin/users".into(),
            json!({"fullName": "Zed Zed", "email": "zed@example.com", "password": "nile-sunrise-42"}),
        ),
        (
            "POST",
            "/api/admin/bookings".into(),
            json!({"clientId": mona_id, "sessionDate": cairo_day(31), "sessionTime": "10:30"}),
        ),
        (
            "POST",
            "/api/admin/payments".into(),
            json!({"clientId": mona_id, "amount": 1, "sessionsPurchased": 1, "paymentDate": cairo_day(0)}),
        ),
        (
            "POST",
            format!("/api/admin/bookings/{booking}/no-show"),
            json!({}),
        ),
        (
            "POST",
            format!("/api/admin/bookings/{booking}/cancel"),
            json!({}),
        ),
    ];
    let call = |c: &reqwest::Client, method: &str, path: &str, body: &Value| {
        let req = if method == "GET" {
            c.get(app.url(path))
        } else {
            c.post(app.url(path)).header("Origin", &app.base).json(body)
        };
        req.send()
    };
    for (method, path, body) in &admin_routes {
        assert_eq!(
            call(&anonymous, method, path, body).await.unwrap().status(),
            401,
            "anonymous {method} {path}"
        );
        assert_eq!(
            call(&mona, method, path, body).await.unwrap().status(),
            403,
            "client {method} {path}"
        );
        assert_eq!(
            call(&omar, method, path, body).await.unwrap().status(),
            403,
            "another client {method} {path}"
        );
    }
    for (method, path, body) in &admin_routes {
        let status = call(&boss, method, path, body)
            .await
            .unwrap()
            .status()
            .as_u16();
        assert!(
            (200..300).contains(&status) || status == 409,
            "admin {method} {path}: {status}"
        );
    }

    // Client routes: anonymous 401; each client sees only their own data.
    for path in [
        "/api/dashboard",
        "/api/book-session",
        "/api/payments/latest",
        "/api/auth/session",
    ] {
        assert_eq!(
            anonymous.get(app.url(path)).send().await.unwrap().status(),
            401,
            "{path}"
        );
    }
    let mona_view: Value = mona
        .get(app.url("/api/dashboard"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let omar_view: Value = omar
        .get(app.url("/api/dashboard"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(mona_view["email"], "mona@example.com");
    assert_eq!(omar_view["email"], "omar@example.com");
    assert!(
        omar_view["upcomingSessions"].as_array().unwrap().is_empty(),
        "omar does not see mona's sessions"
    );
    assert!(
        omar_view["payments"].as_array().unwrap().is_empty(),
        "nor her payments"
    );
    let put = anonymous
        .put(app.url("/api/dashboard/payment-history"))
        .header("Origin", &app.base)
        .json(&json!({"show": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(put.status(), 401);
}
