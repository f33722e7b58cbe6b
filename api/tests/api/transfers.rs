//! Paying by InstaPay or bank transfer (issue 22, item 3): the order is opened at the server's
//! price with a short reference and the coach's details (content/settings.yaml's
//! `payments.transfer`), emailed; no credits move until an admin confirms, which credits once
//! even when two admins confirm at the same moment and sends the receipt; the client may
//! cancel, the admin may reject, and an order nobody confirmed lapses with an email. Another
//! client's order is not found. After each test the ledger equals the accounts.

use serde_json::{Value, json};

use crate::payments::{admin, client, credits};
use crate::support::{TestApp, assert_ledger_verifies, error_of, spawn_app};

async fn order(app: &TestApp, c: &reqwest::Client, email: &str) -> reqwest::Response {
    app.post_as(
        c,
        "/api/payments/transfer/create",
        json!({
            "packageType": "individual", "sessions": 5, "amount": 20250,
            "customerName": "Mona Adel", "customerEmail": email, "customerPhone": "+201001234567"
        }),
    )
    .await
}

async fn opened(app: &TestApp, c: &reqwest::Client, email: &str) -> Value {
    let r = order(app, c, email).await;
    assert_eq!(r.status(), 201);
    r.json().await.unwrap()
}

async fn confirm(app: &TestApp, boss: &reqwest::Client, order_id: &str) -> reqwest::Response {
    app.post_as(
        boss,
        &format!("/api/admin/transfers/{order_id}/confirm"),
        json!({"bankReference": "FT26112500731"}),
    )
    .await
}

#[tokio::test]
async fn a_transfer_order_credits_nothing_until_the_admin_confirms_it_and_then_once() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    let t = opened(&app, &c, "mona@example.com").await;
    let reference = t["reference"].as_str().unwrap();
    assert!(reference.starts_with("TR-") && reference.len() == 9, "{t}");
    assert_eq!(t["amount"], json!({"minor": 2_025_000, "currency": "EGP"}));
    assert_eq!(t["instapay"], "nadinekamel@instapay");
    assert_eq!(t["iban"], "EG38 0019 0005 0000 0000 2631 8000 2");
    let mail = app.mail.wait_for("mona@example.com", reference).await;
    assert!(
        mail.text().contains("nadinekamel@instapay") && mail.text().contains("20,250 EGP"),
        "{}",
        mail.text()
    );
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
    let mine: Value = app
        .get_as(&c, "/api/payments/transfers")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(mine.as_array().unwrap().len(), 1);

    let boss = admin(&app).await;
    let pending: Value = app
        .get_as(&boss, "/api/admin/transfers")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(pending[0]["reference"], reference);
    assert_eq!(pending[0]["clientEmail"], "mona@example.com");
    let order_id = t["orderId"].as_str().unwrap();
    assert_eq!(confirm(&app, &boss, order_id).await.status(), 204);
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
    app.mail.wait_for("mona@example.com", "Your receipt").await;
    let (method, reference_number): (String, String) =
        sqlx::query_as("SELECT payment_method, reference_number FROM payment_records")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(
        (method.as_str(), reference_number.as_str()),
        ("instapay", reference)
    );

    // Over: a second confirm, a reject or the client's cancel changes nothing.
    let (status, e) = error_of(confirm(&app, &boss, order_id).await).await;
    assert_eq!(
        (status, e["message"].as_str().unwrap()),
        (409, "This transfer is already confirmed")
    );
    let reject = app
        .post_as(
            &boss,
            &format!("/api/admin/transfers/{order_id}/reject"),
            json!({}),
        )
        .await;
    assert_eq!(reject.status(), 409);
    let cancel = app
        .post_as(
            &c,
            &format!("/api/payments/transfer/{order_id}/cancel"),
            json!({}),
        )
        .await;
    assert_eq!(cancel.status(), 409);
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
    let left: Value = app
        .get_as(&boss, "/api/admin/transfers")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(left, json!([]));
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn two_admins_confirming_at_the_same_moment_credit_once() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let other = crate::support::admin_client(&app, "second.admin@coach.example.com").await;
    for _ in 0..3 {
        let t = opened(&app, &c, "mona@example.com").await;
        let id = t["orderId"].as_str().unwrap();
        let (a, b) = tokio::join!(confirm(&app, &boss, id), confirm(&app, &other, id));
        let mut statuses = [a.status().as_u16(), b.status().as_u16()];
        statuses.sort();
        assert_eq!(statuses, [204, 409]);
    }
    assert_eq!(credits(&app, "mona@example.com").await, (15, 0, 15));
    let records: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payment_records")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(records, 3);
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_client_cancels_their_own_order_but_finds_no_one_elses() {
    let app = spawn_app().await;
    let mona = client(&app, "mona@example.com").await;
    let omar = client(&app, "omar@example.com").await;
    let t = opened(&app, &mona, "mona@example.com").await;
    let id = t["orderId"].as_str().unwrap();
    // Omar knows the order's id (or its reference): it is not his to see or cancel.
    let (status, _) = error_of(
        app.post_as(
            &omar,
            &format!("/api/payments/transfer/{id}/cancel"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 404);
    let reference = t["reference"].as_str().unwrap();
    let (status, _) = error_of(
        app.post_as(
            &omar,
            &format!("/api/payments/transfer/{reference}/cancel"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 404);
    let his: Value = app
        .get_as(&omar, "/api/payments/transfers")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(his, json!([]));

    assert_eq!(
        app.post_as(
            &mona,
            &format!("/api/payments/transfer/{id}/cancel"),
            json!({})
        )
        .await
        .status(),
        204
    );
    let boss = admin(&app).await;
    let (status, e) = error_of(confirm(&app, &boss, id).await).await;
    assert_eq!(
        (status, e["message"].as_str().unwrap()),
        (409, "This order was cancelled")
    );
    // A client may not reach the admin's list or confirm.
    assert_eq!(
        app.get_as(&mona, "/api/admin/transfers").await.status(),
        403
    );
    assert_eq!(confirm(&app, &mona, id).await.status(), 403);
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn an_order_nobody_confirmed_lapses_after_the_settings_days_with_an_email() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    let t = opened(&app, &c, "mona@example.com").await;
    let id = t["orderId"].as_str().unwrap();
    let now = chrono::Utc::now();
    // content/settings.yaml: lapse_days 3. After two days it still waits.
    let lapsed = api::payments::transfers::lapse_due(&app.state, now + chrono::Duration::days(2))
        .await
        .unwrap();
    assert_eq!(lapsed, 0);
    let lapsed = api::payments::transfers::lapse_due(
        &app.state,
        now + chrono::Duration::days(3) + chrono::Duration::minutes(1),
    )
    .await
    .unwrap();
    assert_eq!(lapsed, 1);
    let mail = app.mail.wait_for("mona@example.com", "has lapsed").await;
    assert!(mail.text().contains(t["reference"].as_str().unwrap()));
    let boss = admin(&app).await;
    let (status, e) = error_of(confirm(&app, &boss, id).await).await;
    assert_eq!(
        (status, e["message"].as_str().unwrap()),
        (409, "This order has lapsed")
    );
    let reject = app
        .post_as(
            &boss,
            &format!("/api/admin/transfers/{id}/reject"),
            json!({}),
        )
        .await;
    assert_eq!(reject.status(), 409);
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn bad_input_is_refused_naming_the_field_and_writes_nothing() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    // The price the page showed is compared with the catalogue's, as for a card.
    let stale = app
        .post_as(&c, "/api/payments/transfer/create", json!({
            "packageType": "individual", "sessions": 5, "amount": 100,
            "customerName": "Mona Adel", "customerEmail": "mona@example.com", "customerPhone": "+201001234567"
        }))
        .await;
    assert_eq!(stale.status(), 409);
    let (status, e) = error_of(
        app.post_as(
            &c,
            "/api/payments/transfer/create",
            json!({"packageType": "individual", "sessions": 5}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422);
    assert!(e["fields"]["customerName"].is_string(), "{e}");
    assert_eq!(new_client_order(&app).await, 401);
    let boss = admin(&app).await;
    let t = opened(&app, &c, "mona@example.com").await;
    let id = t["orderId"].as_str().unwrap();
    let bad_via = app
        .post_as(
            &boss,
            &format!("/api/admin/transfers/{id}/confirm"),
            json!({"via": "cash"}),
        )
        .await;
    let (status, e) = error_of(bad_via).await;
    assert_eq!((status, e["fields"]["via"].is_string()), (422, true));
    let (status, _) = error_of(confirm(&app, &boss, "ec_not-an-order").await).await;
    assert_eq!(status, 404);
    let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payment_transactions")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(orders, 1);
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
}

/// A signed-out visitor's order: refused.
async fn new_client_order(app: &TestApp) -> u16 {
    order(app, &crate::support::new_client(), "x@example.com")
        .await
        .status()
        .as_u16()
}
