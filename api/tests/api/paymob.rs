//! Paying through Paymob (issue 22, item 2): a mobile wallet or a kiosk, which PayTabs has not
//! got. The purchase goes to Paymob because the settings list the method under
//! `payments.paymob`; Paymob's signed callback and the browser's signed redirect settle it
//! through the same settlement as PayTabs', once. The security properties the PayTabs tests
//! prove hold here too: a forged or altered notification changes nothing, a replay credits
//! once, a tampered amount or another currency credits nothing and is flagged, and a signed
//! result for another Paymob order is not believed. Refunds go back through Paymob's refund API.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{Value, json};

use crate::payments::{admin, client, credits, futures_join_all};
use crate::support::{
    PAYMOB_HMAC, PAYMOB_WALLET_INTEGRATION, TestApp, assert_ledger_verifies, error_of, new_client,
    spawn_app,
};

const MONA: &str = "mona@example.com";

/// Starts a purchase of the 5-session package (20,250 EGP) with `method`; the checkout URL.
async fn start(app: &TestApp, c: &reqwest::Client, method: &str) -> String {
    let r = app
        .post_as(c, "/api/payments/paytabs/create", json!({
            "packageType": "individual", "sessions": 5, "amount": 20250, "paymentMethod": method,
            "customerName": "Mona Adel", "customerEmail": MONA, "customerPhone": "+201001234567"
        }))
        .await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    r.json::<Value>().await.unwrap()["redirectUrl"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The order just opened: its cart id and Paymob's order id for it.
async fn order(app: &TestApp) -> (String, String, String) {
    sqlx::query_as(
        "SELECT cart_id, provider, COALESCE(provider_order_id, '') FROM payment_transactions ORDER BY created_at DESC LIMIT 1",
    )
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

/// The value of `name="…"`/`action="…"` after `marker` in an HTML page.
fn attribute_after<'a>(html: &'a str, marker: &str) -> &'a str {
    let rest = &html[html
        .find(marker)
        .unwrap_or_else(|| panic!("{marker} in {html}"))
        + marker.len()..];
    &rest[..rest.find('"').unwrap()]
}

/// The client pays with a wallet on Paymob's checkout and enters `otp`; answers where the
/// browser is sent back (our return URL with the signed transaction).
async fn pay_by_wallet(checkout: &str, otp: &str) -> String {
    let browser = new_client();
    let page = browser
        .get(checkout)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let secret = attribute_after(&page, "name=\"client_secret\" value=\"").to_string();
    let base = &checkout[..checkout.find("/paymob-standin").unwrap()];
    let otp_page = browser
        .post(format!("{base}/paymob-standin/unifiedcheckout/pay"))
        .form(&[
            ("client_secret", secret.as_str()),
            ("method", "wallet"),
            ("wallet_number", "01001234567"),
        ])
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let action = attribute_after(&otp_page, "<form method=\"post\" action=\"");
    let r = browser
        .post(format!("{base}{action}"))
        .form(&[("action", "verify"), ("otp", otp)])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 303, "{}", r.text().await.unwrap());
    r.headers()["location"].to_str().unwrap().to_string()
}

/// The browser following Paymob's redirect to us: where we send it.
async fn follow(url: &str) -> String {
    let r = new_client().get(url).send().await.unwrap();
    assert_eq!(r.status(), 303);
    r.headers()["location"].to_str().unwrap().to_string()
}

/// Waits until the order's status is no longer pending (the callback is asynchronous).
async fn settled(app: &TestApp, cart_id: &str) -> String {
    for _ in 0..100 {
        let status: String =
            sqlx::query_scalar("SELECT status FROM payment_transactions WHERE cart_id = $1")
                .bind(cart_id)
                .fetch_one(&app.state.db.pool)
                .await
                .unwrap();
        if status != "pending" {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    "pending".into()
}

/// A processed callback as Paymob sends it for our order, signed with the tests' secret
/// : approved, 20,250.00 EGP by wallet, unless `change` edits it.
fn callback(
    cart_id: &str,
    paymob_order: &str,
    id: i64,
    change: impl Fn(&mut Value),
) -> (Value, String) {
    let mut obj = json!({
        "id": id, "pending": false, "success": true, "amount_cents": 2_025_000, "currency": "EGP",
        "is_auth": false, "is_capture": false, "is_standalone_payment": true, "is_voided": false,
        "is_refunded": false, "is_3d_secure": false, "integration_id": PAYMOB_WALLET_INTEGRATION,
        "has_parent_transaction": false, "error_occured": false, "is_refund": false, "is_void": false,
        "order": {"id": paymob_order.parse::<i64>().unwrap(), "merchant_order_id": cart_id},
        "created_at": "2026-06-13T11:33:44.592345", "owner": 302852,
        "source_data": {"pan": "01001234567", "type": "wallet", "sub_type": "wallet"},
        "data": {"message": "Approved"},
    });
    change(&mut obj);
    let hmac = api::providers::paymob::sign_callback(PAYMOB_HMAC, &obj);
    (json!({"type": "TRANSACTION", "obj": obj}), hmac)
}

async fn send(app: &TestApp, body: &Value, hmac: &str) -> u16 {
    reqwest::Client::new()
        .post(app.url(&format!("/api/payments/paymob/callback?hmac={hmac}")))
        .json(body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn flagged(app: &TestApp, cart_id: &str) -> Option<String> {
    sqlx::query_scalar("SELECT flagged_reason FROM payment_transactions WHERE cart_id = $1")
        .bind(cart_id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_client_pays_with_a_mobile_wallet_and_the_credits_appear_once_named_wallet() {
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    let checkout = start(&app, &c, "wallet").await;
    assert!(
        checkout.contains("/paymob-standin/unifiedcheckout/?publicKey="),
        "{checkout}"
    );
    let (cart_id, provider, paymob_order) = order(&app).await;
    assert_eq!(provider, "paymob");
    assert!(
        !paymob_order.is_empty(),
        "Paymob's order id is kept to check its results against"
    );

    let back = pay_by_wallet(&checkout, "123456").await;
    assert!(back.contains("/api/payments/paymob/return?"), "{back}");
    let landing = follow(&back).await;
    assert!(
        landing.ends_with(&format!("/payment/success?cart_id={cart_id}")),
        "{landing}"
    );
    assert_eq!(settled(&app, &cart_id).await, "completed");
    // The callback arrives too (the stand-in sends it beside the redirect): still one credit.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(credits(&app, MONA).await, (5, 0, 5));

    let dashboard: Value = app.get_as(&c, "/api/dashboard").await.json().await.unwrap();
    assert_eq!(
        dashboard["payments"][0]["paymentMethod"], "wallet",
        "{dashboard}"
    );
    let view: Value = app
        .get_as(&c, &format!("/api/payments/by-cart/{cart_id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(view["status"], "completed");
    // The purchase email went out, once.
    app.mail.wait_for(MONA, "Your receipt").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let receipts = app
        .mail
        .received
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m.subject().contains("receipt"))
        .count();
    assert_eq!(receipts, 1, "one receipt");
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_wrong_wallet_code_declines_lands_on_the_failed_page_and_credits_nothing() {
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    let checkout = start(&app, &c, "wallet").await;
    let (cart_id, _, _) = order(&app).await;
    let landing = follow(&pay_by_wallet(&checkout, "000000").await).await;
    assert!(
        landing.ends_with(&format!("/payment/failed?cart_id={cart_id}")),
        "{landing}"
    );
    assert_eq!(settled(&app, &cart_id).await, "failed");
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_kiosk_payment_stays_pending_until_the_cash_is_paid_then_credits() {
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    let checkout = start(&app, &c, "kiosk").await;
    let (cart_id, _, _) = order(&app).await;
    let browser = new_client();
    let page = browser
        .get(&checkout)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let secret = attribute_after(&page, "name=\"client_secret\" value=\"").to_string();
    let base = &checkout[..checkout.find("/paymob-standin").unwrap()];
    let kiosk = browser
        .post(format!("{base}/paymob-standin/unifiedcheckout/pay"))
        .form(&[("client_secret", secret.as_str()), ("method", "kiosk")])
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(kiosk.contains("data-bill-reference"), "{kiosk}");
    // Paymob's pending notification changes nothing but the provider's word.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (status, word): (String, Option<String>) = sqlx::query_as(
        "SELECT status, provider_status FROM payment_transactions WHERE cart_id = $1",
    )
    .bind(&cart_id)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (status.as_str(), word.as_deref()),
        ("pending", Some("pending"))
    );
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));

    let action = attribute_after(&kiosk, "<form method=\"post\" action=\"");
    browser
        .post(format!("{base}{action}"))
        .send()
        .await
        .unwrap();
    assert_eq!(settled(&app, &cart_id).await, "completed");
    assert_eq!(credits(&app, MONA).await, (5, 0, 5));
    let method: String = sqlx::query_scalar("SELECT payment_method FROM payment_records")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(method, "kiosk");
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_forged_or_altered_paymob_callback_is_refused_and_changes_nothing() {
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    start(&app, &c, "wallet").await;
    let (cart_id, _, paymob_order) = order(&app).await;
    let (body, hmac) = callback(&cart_id, &paymob_order, 9_001, |_| {});
    // No HMAC, a wrong one, or a signed body whose amount was changed afterwards.
    assert_eq!(send(&app, &body, "").await, 400);
    assert_eq!(send(&app, &body, &"0".repeat(128)).await, 400);
    let mut altered = body.clone();
    altered["obj"]["amount_cents"] = json!(100);
    assert_eq!(send(&app, &altered, &hmac).await, 400);
    // Signed with another secret (someone else's Paymob account).
    let mut other = body["obj"].clone();
    other["id"] = json!(9_002);
    let foreign = api::providers::paymob::sign_callback("another-merchant", &other);
    assert_eq!(
        send(
            &app,
            &json!({"type": "TRANSACTION", "obj": other}),
            &foreign
        )
        .await,
        400
    );
    let status: String = sqlx::query_scalar("SELECT status FROM payment_transactions")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(status, "pending");
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn one_paymob_callback_replayed_twenty_times_credits_once() {
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    start(&app, &c, "wallet").await;
    let (cart_id, _, paymob_order) = order(&app).await;
    let (body, hmac) = callback(&cart_id, &paymob_order, 9_101, |_| {});
    let sends = (0..20).map(|_| send(&app, &body, &hmac));
    let statuses = futures_join_all(sends).await;
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    assert_eq!(credits(&app, MONA).await, (5, 0, 5));
    let records: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payment_records")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(records, 1);
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_tampered_amount_another_currency_or_another_paymob_order_credits_nothing() {
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    start(&app, &c, "wallet").await;
    let (cart_id, _, paymob_order) = order(&app).await;

    // Signed by Paymob, but not the order's price: flagged, nothing credited.
    let (body, hmac) = callback(&cart_id, &paymob_order, 9_201, |o| {
        o["amount_cents"] = json!(100)
    });
    assert_eq!(send(&app, &body, &hmac).await, 200);
    assert!(flagged(&app, &cart_id).await.unwrap().contains("amount"));
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));

    // Another currency.
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    start(&app, &c, "wallet").await;
    let (cart_id, _, paymob_order) = order(&app).await;
    let (body, hmac) = callback(&cart_id, &paymob_order, 9_202, |o| {
        o["currency"] = json!("USD")
    });
    assert_eq!(send(&app, &body, &hmac).await, 200);
    assert!(flagged(&app, &cart_id).await.unwrap().contains("currency"));
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));

    // A genuine payment of another Paymob order, pointed at this one (Paymob does not sign
    // our order id): not believed, and this order is left as it was.
    let other_order = (paymob_order.parse::<i64>().unwrap() + 1).to_string();
    let (body, hmac) = callback(&cart_id, &other_order, 9_203, |_| {});
    assert_eq!(send(&app, &body, &hmac).await, 200);
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));
    let status: String =
        sqlx::query_scalar("SELECT status FROM payment_transactions WHERE cart_id = $1")
            .bind(&cart_id)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(status, "pending");
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_redirect_with_an_altered_field_changes_nothing_and_lands_on_the_failed_page() {
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    // Slow callbacks, so only the redirect could settle the order.
    app.paymob_standin
        .callback_delay_ms
        .store(5_000, Ordering::Relaxed);
    let checkout = start(&app, &c, "wallet").await;
    let (cart_id, _, _) = order(&app).await;
    let back = pay_by_wallet(&checkout, "000000").await;
    // The declined payment's redirect, turned into a success by the browser.
    let forged = back.replace("success=false", "success=true");
    assert_ne!(forged, back);
    let landing = follow(&forged).await;
    assert!(landing.contains("/payment/failed"), "{landing}");
    let status: String =
        sqlx::query_scalar("SELECT status FROM payment_transactions WHERE cart_id = $1")
            .bind(&cart_id)
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(status, "pending", "an unverified redirect settles nothing");
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));
}

#[tokio::test]
async fn a_paymob_payment_is_refunded_through_paymob_and_a_declined_refund_gives_the_credits_back()
{
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    let boss = admin(&app).await;
    let checkout = start(&app, &c, "wallet").await;
    let (cart_id, _, _) = order(&app).await;
    follow(&pay_by_wallet(&checkout, "123456").await).await;
    assert_eq!(settled(&app, &cart_id).await, "completed");
    let payment: String = sqlx::query_scalar("SELECT id FROM payment_records")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let path = format!("/api/admin/payments/{payment}/refund");
    let bounds: Value = app.get_as(&boss, &path).await.json().await.unwrap();
    assert_eq!(bounds["method"], "paymob", "{bounds}");

    // Paymob declines the first refund: it fails and the credits come back.
    app.paymob_standin
        .decline_refunds
        .store(true, Ordering::Relaxed);
    let r = app
        .post_as(&boss, &path, json!({"credits": 2, "amount": "8100"}))
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    assert_eq!(credits(&app, MONA).await, (5, 0, 5));

    // The second is approved: two credits and 8,100 EGP leave, through Paymob.
    app.paymob_standin
        .decline_refunds
        .store(false, Ordering::Relaxed);
    let row: Value = app
        .post_as(&boss, &path, json!({"credits": 2, "amount": "8100"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (row["method"].as_str(), row["status"].as_str()),
        (Some("paymob"), Some("completed")),
        "{row}"
    );
    assert_eq!(credits(&app, MONA).await, (3, 0, 3));
    // Paymob's notification of the same refund, arriving after its answer, changes nothing.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(credits(&app, MONA).await, (3, 0, 3));
    let statuses: Vec<String> =
        sqlx::query_scalar("SELECT status FROM payment_refunds ORDER BY created_at")
            .fetch_all(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(statuses, ["failed", "completed"]);
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_paymob_method_is_refused_when_the_package_or_the_provider_does_not_offer_it() {
    let app = spawn_app().await;
    let c = client(&app, MONA).await;
    let r = app
        .post_as(&c, "/api/payments/paytabs/create", json!({
            "packageType": "individual", "sessions": 5, "amount": 20250, "paymentMethod": "pigeon",
            "customerName": "Mona Adel", "customerEmail": MONA, "customerPhone": "+201001234567"
        }))
        .await;
    let (status, e) = error_of(r).await;
    assert_eq!(status, 422);
    assert_eq!(
        e["fields"]["paymentMethod"], "Unknown payment method",
        "{e}"
    );
    let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payment_transactions")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(orders, 0, "nothing written");
}
