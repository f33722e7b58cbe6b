//! Paying with the methods the coach's PayTabs profile has (issue 22, item 1): the client
//! picks one of the methods the package offers (settings' `payments`, instalments only from
//! `instalments_from`), PayTabs is asked for that one alone, and the method PayTabs reports is
//! what the history, the receipt, the admin's client page and the CSV name. A method the
//! package does not offer, or no method at all, is refused naming the field, and writes nothing.

use serde_json::{Value, json};

use crate::payments::{admin, client, post_return, press_with};
use crate::support::{TestApp, assert_ledger_verifies, error_of, spawn_app};

/// content/settings.yaml: paytabs [creditcard, meezaqr, applepay, valu, souhoola, installment],
/// instalments from 9,000 EGP; content/packages.yaml: individual-5 costs 20,250, individual-1 4,500.
const FIVE: (u32, f64) = (5, 20250.0);
const ONE: (u32, f64) = (1, 4500.0);

async fn start(
    app: &TestApp,
    c: &reqwest::Client,
    (sessions, amount): (u32, f64),
    method: Value,
) -> reqwest::Response {
    app.post_as(c, "/api/payments/paytabs/create", json!({
        "packageType": "individual", "sessions": sessions, "amount": amount, "paymentMethod": method,
        "customerName": "Mona Adel", "customerEmail": "mona@example.com", "customerPhone": "+201001234567"
    }))
    .await
}

/// The hosted page's method choices (their values), then the customer pays with `method` (a
/// card by `card`'s number); returns the signed return form.
async fn pay(
    page_url: &str,
    method: &str,
    card: &str,
) -> (Vec<String>, String, Vec<(String, String)>) {
    let page = reqwest::get(page_url).await.unwrap().text().await.unwrap();
    let offered = page
        .split("name=\"method\" value=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .collect();
    let (action, fields) = press_with(
        page_url,
        &[("action", "approve"), ("method", method), ("card", card)],
    )
    .await;
    (offered, action, fields)
}

async fn buy_with(app: &TestApp, c: &reqwest::Client, method: &str, card: &str) -> Vec<String> {
    let r = start(app, c, FIVE, json!(method)).await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    let page = r.json::<Value>().await.unwrap()["redirectUrl"]
        .as_str()
        .unwrap()
        .to_string();
    let (offered, action, fields) = pay(&page, method, card).await;
    let location = post_return(&action, &fields).await;
    assert!(location.contains("/payment/success"), "{location}");
    offered
}

#[tokio::test]
async fn a_payment_with_meeza_qr_is_named_meeza_qr_in_the_history_the_admin_pages_and_the_csv() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    // PayTabs' page offers only the method the client chose.
    assert_eq!(buy_with(&app, &c, "meezaqr", "").await, ["meezaqr"]);

    let dashboard: Value = app.get_as(&c, "/api/dashboard").await.json().await.unwrap();
    let payment = &dashboard["payments"][0];
    assert_eq!(payment["paymentMethod"], "meezaqr", "{dashboard}");
    let receipt: Value = app
        .get_as(
            &c,
            &format!("/api/receipts/{}", payment["id"].as_str().unwrap()),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(receipt["paymentMethod"], "meezaqr", "{receipt}");

    let boss = admin(&app).await;
    let cairo = chrono::Utc::now().with_timezone(&chrono_tz::Africa::Cairo);
    let (from, to) = (
        (cairo - chrono::Duration::days(1)).format("%Y-%m-%d"),
        (cairo + chrono::Duration::days(1)).format("%Y-%m-%d"),
    );
    let csv = app
        .get_as(
            &boss,
            &format!("/api/admin/exports/payments?from={from}&to={to}"),
        )
        .await
        .text()
        .await
        .unwrap();
    assert!(csv.lines().any(|l| l.contains(",online_meezaqr,")), "{csv}");
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_card_is_named_by_what_paid_a_meeza_card_as_meeza() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    buy_with(&app, &c, "creditcard", "5078 0300 0000 0006").await;
    buy_with(&app, &c, "creditcard", "4111 1111 1111 1111").await;
    let methods: Vec<String> = sqlx::query_scalar(
        "SELECT payment_method FROM payment_records ORDER BY created_at, payment_method",
    )
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap();
    let mut sorted = methods.clone();
    sorted.sort();
    assert_eq!(sorted, ["card", "meeza"]);
    // A card payment stays refundable online (the admin's Refund goes to PayTabs).
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn without_a_choice_the_page_offers_every_method_of_the_package_and_instalments_only_from_their_amount()
 {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    let page_of = |r: Value| r["redirectUrl"].as_str().unwrap().to_string();
    let five = page_of(
        start(&app, &c, FIVE, Value::Null)
            .await
            .json()
            .await
            .unwrap(),
    );
    let (offered, _, _) = pay(&five, "valu", "").await;
    assert_eq!(
        offered,
        [
            "creditcard",
            "meezaqr",
            "applepay",
            "valu",
            "souhoola",
            "installment"
        ]
    );
    let one = page_of(
        start(&app, &c, ONE, Value::Null)
            .await
            .json()
            .await
            .unwrap(),
    );
    let (offered, _, _) = pay(&one, "creditcard", "").await;
    assert_eq!(offered, ["creditcard", "meezaqr", "applepay"]);
}

#[tokio::test]
async fn a_method_the_package_does_not_offer_is_refused_naming_the_field_and_writes_nothing() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    for (package, method, message) in [
        // Instalments start at 9,000 EGP.
        (
            ONE,
            json!("valu"),
            "This payment method is not offered for this package",
        ),
        // Not switched on in the settings (Forsa), or not a method at all.
        (
            FIVE,
            json!("forsa"),
            "This payment method is not offered for this package",
        ),
        (FIVE, json!("pigeon"), "Unknown payment method"),
        (
            FIVE,
            json!("creditcard'; DROP TABLE users; --"),
            "Unknown payment method",
        ),
    ] {
        let r = start(&app, &c, package, method.clone()).await;
        let (status, error) = error_of(r).await;
        assert_eq!(status, 422, "{method}: {error}");
        assert_eq!(
            error["fields"]["paymentMethod"], message,
            "{method}: {error}"
        );
    }
    let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payment_transactions")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(orders, 0);
}

#[tokio::test]
async fn paytabs_page_speaks_the_clients_language() {
    let app = spawn_app().await;
    let c = client(&app, "mona@example.com").await;
    let page_lang = |r: Value| async move {
        let page = r["redirectUrl"].as_str().unwrap().to_string();
        let html = reqwest::get(&page).await.unwrap().text().await.unwrap();
        html.split("data-paypage-lang=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_string()
    };
    let english = start(&app, &c, FIVE, json!("creditcard"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page_lang(english).await, "en");
    let r = c
        .put(app.url("/api/auth/language"))
        .header("Origin", &app.base)
        .json(&json!({"language": "ar"}))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    let arabic = start(&app, &c, FIVE, json!("creditcard"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page_lang(arabic).await, "ar");
}
