//! Buying a package through PayTabs (the local stand-in plays PayTabs and signs like it).

use serde_json::{Value, json};

use crate::support::{
    Options, PAYTABS_KEY, TestApp, cairo_day, error_of, new_client, spawn_app, spawn_app_with,
};

const FIVE: (&str, u32, f64) = ("individual", 5, 20250.0); // content/packages.yaml: individual-5

pub(crate) async fn client(app: &TestApp, email: &str) -> reqwest::Client {
    let c = new_client();
    assert_eq!(app.sign_up(&c, email).await.status(), 201);
    c
}

pub(crate) async fn admin(app: &TestApp) -> reqwest::Client {
    crate::support::admin_client(app, "admin@coach.example.com").await
}

async fn start_purchase(
    app: &TestApp,
    c: &reqwest::Client,
    (kind, sessions, amount): (&str, u32, f64),
) -> reqwest::Response {
    app.post_as(c, "/api/payments/paytabs/create", json!({
        "packageType": kind, "sessions": sessions, "amount": amount,
        "customerName": "Mona Adel", "customerEmail": "mona@example.com", "customerPhone": "+201001234567", "isGuest": false
    }))
    .await
}

/// Starts a purchase and returns the hosted page URL.
pub(crate) async fn hosted_page(app: &TestApp, c: &reqwest::Client) -> String {
    let r = start_purchase(app, c, FIVE).await;
    assert_eq!(r.status(), 200);
    let body: Value = r.json().await.unwrap();
    body["redirectUrl"].as_str().unwrap().to_string()
}

/// The customer presses a button on the hosted page; returns the signed return form
/// `(action, fields)` that the page posts back to us.
pub(crate) async fn press(page_url: &str, action: &str) -> (String, Vec<(String, String)>) {
    press_with(page_url, &[("action", action)]).await
}

/// [`press`] with the page's other fields (the method chosen, the card number).
pub(crate) async fn press_with(
    page_url: &str,
    form: &[(&str, &str)],
) -> (String, Vec<(String, String)>) {
    let browser = reqwest::Client::new();
    let page = browser
        .get(page_url)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("Approve") && page.contains("Decline") && page.contains("Cancel"));
    let html = browser
        .post(page_url)
        .form(form)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let form_action = html
        .split("action=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .replace("&#x2F;", "/");
    let fields = html
        .split("<input type=\"hidden\" ")
        .skip(1)
        .map(|i| {
            let name = i
                .split("name=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .to_string();
            let value = i
                .split("value=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .replace("&#39;", "'")
                .replace("&amp;", "&");
            (name, value)
        })
        .collect();
    (form_action, fields)
}

/// The browser posting the return form (cross-site: no cookie, no Origin of ours).
pub(crate) async fn post_return(action: &str, fields: &[(String, String)]) -> String {
    let r = new_client().post(action).form(fields).send().await.unwrap();
    assert_eq!(r.status(), 303);
    r.headers()["location"].to_str().unwrap().to_string()
}

pub(crate) async fn credits(app: &TestApp, email: &str) -> (i64, i64, i64) {
    sqlx::query_as("SELECT a.total_credits, a.used_credits, a.available_credits FROM client_accounts a JOIN users u ON u.id = a.user_id WHERE u.email = $1")
        .bind(email)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

fn cart_of(location: &str) -> String {
    location.split("cart_id=").nth(1).unwrap().to_string()
}

/// A callback body as PayTabs sends it, and its signature.
pub(crate) fn callback_for(
    cart_id: &str,
    tran_ref: &str,
    status: &str,
    total: &str,
) -> (Vec<u8>, String) {
    let body = serde_json::to_vec(&json!({
        "tran_ref": tran_ref, "cart_id": cart_id, "cart_currency": "EGP", "cart_amount": total,
        "tran_currency": "EGP", "tran_total": total, "tran_type": "Sale",
        "payment_result": {"response_status": status, "response_code": "G1", "response_message": "x"}
    }))
    .unwrap();
    let signature = api::payments::paytabs::sign(PAYTABS_KEY, &body);
    (body, signature)
}

pub(crate) async fn send_callback(app: &TestApp, body: &[u8], signature: &str) -> u16 {
    reqwest::Client::new()
        .post(app.url("/api/payments/paytabs/callback"))
        .header("Content-Type", "application/json")
        .header("Signature", signature)
        .body(body.to_vec())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn pending_cart(app: &TestApp) -> (String, String) {
    sqlx::query_as(
        "SELECT cart_id, tran_ref FROM payment_transactions ORDER BY created_at DESC LIMIT 1",
    )
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_client_buys_a_package_and_the_credits_appear_once() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    let page = hosted_page(&app, &c).await;
    assert!(
        page.starts_with(&format!("{}/paytabs-standin/payment/page/TST", app.base)),
        "{page}"
    );
    let (action, fields) = press(&page, "approve").await;
    assert_eq!(action, app.url("/api/payments/paytabs/return"));
    let location = post_return(&action, &fields).await;
    assert!(
        location.starts_with(&format!("{}/payment/success?cart_id=ec_", app.base)),
        "{location}"
    );

    let result: Value = c
        .get(app.url(&format!("/api/payments/by-cart/{}", cart_of(&location))))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(result["status"], "completed");
    assert_eq!(result["sessions"], 5);
    assert_eq!(
        result["amount"],
        json!({"minor": 2_025_000, "currency": "EGP"})
    );
    assert_eq!(result["amount"]["currency"], "EGP");
    assert_eq!(result["packageName"], "Momentum Package");
    assert_eq!(result["orderId"], cart_of(&location));

    // The stand-in's callback arrives too; whichever came first, 5 credits once.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
    assert_eq!(count(&app, "SELECT COUNT(*) FROM payment_records WHERE payment_method = 'card' AND amount = 2025000").await, 1);
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM credit_ledger WHERE kind = 'purchase'"
        )
        .await,
        1
    );
    let last: Option<String> = sqlx::query_scalar("SELECT last_payment_date FROM client_accounts a JOIN users u ON u.id = a.user_id WHERE u.email = 'mona@example.com'").fetch_one(&app.state.db.pool).await.unwrap();
    assert!(last.is_some());
    let receipt = app.mail.wait_for("mona@example.com", "Your receipt").await;
    assert!(
        receipt.text().contains("Momentum Package") && receipt.text().contains("20,250 EGP"),
        "{}",
        receipt.text()
    );

    let latest: Value = c
        .get(app.url("/api/payments/latest"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(latest["cartId"], cart_of(&location));
}

#[tokio::test]
async fn a_declined_or_cancelled_payment_lands_on_the_failed_page_and_credits_nothing() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    for action in ["decline", "cancel"] {
        let page = hosted_page(&app, &c).await;
        let (url, fields) = press(&page, action).await;
        let location = post_return(&url, &fields).await;
        assert!(
            location.starts_with(&format!("{}/payment/failed?cart_id=ec_", app.base)),
            "{action}: {location}"
        );
        let result: Value = c
            .get(app.url(&format!("/api/payments/by-cart/{}", cart_of(&location))))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(result["status"], "failed");
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
}

#[tokio::test]
async fn purchases_need_a_signed_in_client() {
    let app = spawn_app().await;
    let (status, error) = error_of(start_purchase(&app, &new_client(), FIVE).await).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (401, Some("Authentication required"))
    );
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM payment_transactions").await,
        0
    );
}

#[tokio::test]
async fn the_server_prices_from_the_catalogue_and_refuses_a_stale_price() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    let (status, error) = error_of(start_purchase(&app, &c, ("individual", 5, 100.0)).await).await;
    assert_eq!(status, 409);
    assert_eq!(
        error["message"],
        "The price of this package has changed to 20,250 EGP. Please refresh the page to see the current price."
    );
    let (status, _) = error_of(start_purchase(&app, &c, ("individual", 7, 30000.0)).await).await;
    assert_eq!(status, 409, "no such package");
    let (status, error) =
        error_of(start_purchase(&app, &c, ("individual", 3, 12825.0)).await).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (
            409,
            Some("This package is no longer available. Please refresh the page and choose again.")
        ),
        "inactive package"
    );
    let missing = app.post_as(&c, "/api/payments/paytabs/create", json!({"packageType": "individual", "sessions": 5, "amount": 20250, "customerName": "Mona"})).await;
    let (status, error) = error_of(missing).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (422, Some("Please fill in all required fields"))
    );
    assert!(error["fields"]["customerPhone"].is_string());
    assert_eq!(
        count(&app, "SELECT COUNT(*) FROM payment_transactions").await,
        0
    );
}

#[tokio::test]
async fn when_paytabs_cannot_be_reached_the_spec_message_is_returned() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = spawn_app_with(Options {
        paytabs_base: Some(format!("http://127.0.0.1:{closed}")),
        ..Default::default()
    })
    .await;
    let c = client(&app, "mona@example.com").await;
    let (status, error) = error_of(start_purchase(&app, &c, FIVE).await).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (502, Some("Failed to initiate payment. Please try again."))
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM payment_transactions WHERE status = 'failed'"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn a_tampered_callback_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    hosted_page(&app, &c).await;
    let (cart, tran_ref) = pending_cart(&app).await;
    let (body, signature) = callback_for(&cart, &tran_ref, "A", "20250.00");
    let mut tampered = body.clone();
    let text = String::from_utf8(tampered.clone())
        .unwrap()
        .replace("20250.00", "20250.01");
    tampered = text.into_bytes();
    assert_eq!(send_callback(&app, &tampered, &signature).await, 400);
    assert_eq!(send_callback(&app, &body, "").await, 400, "no signature");
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
    let status: String = sqlx::query_scalar("SELECT status FROM payment_transactions")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(status, "pending");
}

#[tokio::test]
async fn one_callback_replayed_fifty_times_credits_once() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    hosted_page(&app, &c).await;
    let (cart, tran_ref) = pending_cart(&app).await;
    let (body, signature) = callback_for(&cart, &tran_ref, "A", "20250.00");
    let sends = (0..50).map(|_| send_callback(&app, &body, &signature));
    let statuses = futures_join_all(sends).await;
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
    assert_eq!(count(&app, "SELECT COUNT(*) FROM payment_records").await, 1);
    assert_eq!(count(&app, "SELECT COUNT(*) FROM credit_ledger").await, 1);
    // Wait for the receipt itself (delivery is asynchronous), then make sure it is alone.
    app.mail.wait_for("mona@example.com", "Your receipt").await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        app.mail
            .received
            .lock()
            .unwrap()
            .iter()
            .filter(|m| m.subject().contains("receipt"))
            .count(),
        1,
        "one receipt"
    );
}

#[tokio::test]
async fn callback_and_browser_return_racing_credit_once() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    for _ in 0..3 {
        let page = hosted_page(&app, &c).await;
        let (url, fields) = press(&page, "approve").await; // the stand-in's callback is on its way
        let (cart, tran_ref) = pending_cart(&app).await;
        let (body, signature) = callback_for(&cart, &tran_ref, "A", "20250.00");
        let (location, status) = tokio::join!(
            post_return(&url, &fields),
            send_callback(&app, &body, &signature)
        );
        assert!(location.contains("/payment/success"));
        assert_eq!(status, 200);
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        credits(&app, "mona@example.com").await,
        (15, 0, 15),
        "three purchases of 5"
    );
    assert_eq!(count(&app, "SELECT COUNT(*) FROM payment_records").await, 3);
}

#[tokio::test]
async fn an_amount_mismatch_credits_nothing_and_is_flagged() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    hosted_page(&app, &c).await;
    let (cart, tran_ref) = pending_cart(&app).await;
    let (body, signature) = callback_for(&cart, &tran_ref, "A", "202.50");
    assert_eq!(send_callback(&app, &body, &signature).await, 200);
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
    let (status, flagged): (String, Option<String>) =
        sqlx::query_as("SELECT status, flagged_reason FROM payment_transactions")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(status, "pending");
    assert!(flagged.unwrap().contains("amount"));
}

#[tokio::test]
async fn a_return_with_a_bad_signature_changes_nothing() {
    let app = spawn_app().await;
    // Hold PayTabs' callback back: only the browser's return could settle this payment now.
    app.paytabs_standin
        .callback_delay_ms
        .store(600_000, std::sync::atomic::Ordering::Relaxed);
    let c = client(&app, "mona@example.com").await;
    let page = hosted_page(&app, &c).await;
    let (url, mut fields) = press(&page, "approve").await;
    let signed = fields.clone();
    fields
        .iter_mut()
        .find(|(k, _)| k == "respMessage")
        .unwrap()
        .1 = "Tampered".into();
    assert_ne!(fields, signed);
    let location = post_return(&url, &fields).await;
    assert!(location.contains("/payment/failed"), "{location}");
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM payment_transactions WHERE status = 'pending'"
        )
        .await,
        1
    );
    assert_eq!(count(&app, "SELECT COUNT(*) FROM credit_ledger").await, 0);
    // The untouched return, signed as PayTabs signed it, does settle it.
    let location = post_return(&url, &signed).await;
    assert!(location.contains("/payment/success"), "{location}");
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
}

#[tokio::test]
async fn an_unknown_cart_is_acknowledged_and_ignored() {
    let app = spawn_app().await;
    let (body, signature) = callback_for("ec_nope", "TST1", "A", "1.00");
    assert_eq!(send_callback(&app, &body, &signature).await, 200);
}

#[tokio::test]
async fn one_client_cannot_read_another_clients_payment_but_an_admin_can() {
    let app = spawn_app().await;
    let mona = client(&app, "mona@example.com").await;
    hosted_page(&app, &mona).await;
    let (cart, _) = pending_cart(&app).await;
    let omar = client(&app, "omar@example.com").await;
    let (status, error) = error_of(
        omar.get(app.url(&format!("/api/payments/by-cart/{cart}")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (404, Some("Payment not found"))
    );
    assert_eq!(
        omar.get(app.url("/api/payments/latest"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    let boss = admin(&app).await;
    assert_eq!(
        boss.get(app.url(&format!("/api/payments/by-cart/{cart}")))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

#[tokio::test]
async fn reconciliation_settles_a_payment_whose_callback_and_return_never_came() {
    let app = spawn_app().await;
    app.paytabs_standin
        .callback_delay_ms
        .store(600_000, std::sync::atomic::Ordering::Relaxed);
    let c = client(&app, "mona@example.com").await;
    let page = hosted_page(&app, &c).await;
    press(&page, "approve").await; // the customer paid and closed the tab
    assert_eq!(
        api::payments::reconcile::run_once(&app.state)
            .await
            .unwrap(),
        0,
        "too recent to chase"
    );
    sqlx::query("UPDATE payment_transactions SET created_at = '2000-01-01T00:00:00.000000Z'")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(
        api::payments::reconcile::run_once(&app.state)
            .await
            .unwrap(),
        1
    );
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
}

#[tokio::test]
async fn available_credits_never_go_below_zero() {
    use api::domain::credits::{Applied, debit_one, refund_one};
    let app = spawn_app().await;
    client(&app, "mona@example.com").await;
    let user: String = sqlx::query_scalar("SELECT id FROM users")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let mut tx = app.state.db.pool.begin().await.unwrap();
    assert_eq!(
        debit_one(&mut tx, app.state.db.backend, &user, "booking:1")
            .await
            .unwrap(),
        Applied::Insufficient
    );
    drop(tx); // rolled back
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
    assert_eq!(count(&app, "SELECT COUNT(*) FROM credit_ledger").await, 0);
    // The database itself refuses a negative balance, whatever the code does.
    let direct = sqlx::query("UPDATE client_accounts SET used_credits = 1, available_credits = -1")
        .execute(&app.state.db.pool)
        .await;
    assert!(direct.is_err());
    let mut tx = app.state.db.pool.begin().await.unwrap();
    api::domain::credits::adjust(
        &mut tx,
        app.state.db.backend,
        &user,
        1,
        &crate::support::six_months(),
        "grant:1",
        "test grant",
    )
    .await
    .unwrap();
    assert_eq!(
        debit_one(&mut tx, app.state.db.backend, &user, "booking:2")
            .await
            .unwrap(),
        Applied::Yes
    );
    assert_eq!(
        debit_one(&mut tx, app.state.db.backend, &user, "booking:2")
            .await
            .unwrap(),
        Applied::AlreadyApplied
    );
    assert_eq!(
        refund_one(
            &mut tx,
            app.state.db.backend,
            &user,
            "booking-2",
            "refund:2"
        )
        .await
        .unwrap(),
        Applied::Yes
    );
    assert_eq!(
        refund_one(
            &mut tx,
            app.state.db.backend,
            &user,
            "booking-2",
            "refund:2"
        )
        .await
        .unwrap(),
        Applied::AlreadyApplied
    );
    tx.commit().await.unwrap();
    assert_eq!(credits(&app, "mona@example.com").await, (1, 0, 1));
}

#[tokio::test]
async fn an_admin_records_an_offline_payment_that_adds_credits() {
    let app = spawn_app().await;
    let mona = client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let mona_id: String =
        sqlx::query_scalar("SELECT id FROM users WHERE email = 'mona@example.com'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    // Paid a few days ago on the coach's calendar: its credits are valid now.
    let body = json!({"clientId": mona_id, "amount": 9000.50, "sessionsPurchased": 2, "paymentDate": cairo_day(-4), "paymentMethod": "bank_transfer", "referenceNumber": "CIB-7781"});

    let (status, error) = error_of(
        app.post_as(&mona, "/api/admin/payments", body.clone())
            .await,
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (403, Some("Admin access required"))
    );

    let r = app.post_as(&boss, "/api/admin/payments", body).await;
    assert_eq!(r.status(), 201);
    let record: Value = r.json().await.unwrap();
    assert_eq!(record["availableCredits"], 2);
    assert_eq!(
        record["amount"],
        json!({"minor": 900_050, "currency": "EGP"})
    );
    assert_eq!(credits(&app, "mona@example.com").await, (2, 0, 2));
    let (method, reference, recorded_by): (String, String, String) =
        sqlx::query_as("SELECT payment_method, reference_number, recorded_by FROM payment_records")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(
        (method.as_str(), reference.as_str()),
        ("bank_transfer", "CIB-7781")
    );
    assert_ne!(recorded_by, mona_id);

    for (bad, message) in [
        (
            json!({"clientId": mona_id, "amount": 100, "paymentDate": "2026-11-20"}),
            "Please fill in all required fields",
        ),
        (
            json!({"clientId": mona_id, "amount": 100, "sessionsPurchased": 0, "paymentDate": "2026-11-20"}),
            "Sessions purchased must be at least 1",
        ),
        (
            json!({"clientId": mona_id, "amount": 10.005, "sessionsPurchased": 1, "paymentDate": "2026-11-20"}),
            "Amount must be 0 or more, in steps of 0.01",
        ),
        (
            json!({"clientId": mona_id, "amount": 10, "sessionsPurchased": 1, "paymentDate": "2026-11-20", "paymentMethod": "bitcoin"}),
            "Payment method must be bank_transfer, credit_card, cash, check, paypal or other",
        ),
    ] {
        let (status, error) = error_of(app.post_as(&boss, "/api/admin/payments", bad).await).await;
        assert_eq!((status, error["message"].as_str()), (422, Some(message)));
    }
    let (status, _) = error_of(app.post_as(&boss, "/api/admin/payments", json!({"clientId": "nobody", "amount": 1, "sessionsPurchased": 1, "paymentDate": "2026-11-20"})).await).await;
    assert_eq!(status, 404);
    assert_eq!(
        credits(&app, "mona@example.com").await,
        (2, 0, 2),
        "refused requests change nothing"
    );
}

/// Runs the futures concurrently (like `futures::future::join_all`, without the dependency).
pub(crate) async fn futures_join_all<F: std::future::Future<Output = u16>>(
    futures: impl Iterator<Item = F>,
) -> Vec<u16> {
    use std::task::Poll;
    let mut futures: Vec<_> = futures.map(Box::pin).collect();
    let mut results: Vec<Option<u16>> = vec![None; futures.len()];
    std::future::poll_fn(move |cx| {
        let mut done = true;
        for (i, f) in futures.iter_mut().enumerate() {
            if results[i].is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => results[i] = Some(v),
                    Poll::Pending => done = false,
                }
            }
        }
        if done {
            Poll::Ready(results.iter().map(|r| r.unwrap()).collect())
        } else {
            Poll::Pending
        }
    })
    .await
}
