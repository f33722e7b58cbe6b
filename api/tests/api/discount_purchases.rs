//! Buying with a discount code (issue 22, item 4): the dialog's preview is the server's price;
//! the purchase prices the order again with the code, PayTabs charges that price, and the
//! code's use counts once, when the payment settles. A pending order holds one of the code's
//! uses, so 20 purchases at once with a 5-use code price at most 5 orders. Receipts and the CSV
//! show the discount.

use serde_json::{Value, json};

use crate::payments::{admin, client, credits, post_return, press};
use crate::support::{TestApp, assert_ledger_verifies, error_of, spawn_app};

async fn new_code(app: &TestApp, boss: &reqwest::Client, body: Value) -> Value {
    let r = app.post_as(boss, "/api/admin/discount-codes", body).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    r.json().await.unwrap()
}

fn purchase(code: &str) -> Value {
    json!({
        "packageType": "individual", "sessions": 5, "amount": 20250, "discountCode": code,
        "customerName": "Mona Adel", "customerEmail": "mona@example.com", "customerPhone": "+201001234567"
    })
}

async fn uses(app: &TestApp, code: &str) -> i64 {
    sqlx::query_scalar("SELECT uses FROM discount_codes WHERE code = $1")
        .bind(code)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_code_prices_the_order_and_its_use_counts_once_when_the_payment_settles() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    new_code(
        &app,
        &boss,
        json!({"code": "spring10", "kind": "percent", "percent": 10, "maxUses": 3}),
    )
    .await;
    let c = client(&app, "mona@example.com").await;

    let preview = app
        .post_as(
            &c,
            "/api/payments/discount/preview",
            json!({"packageType": "individual", "sessions": 5, "amount": 20250, "discountCode": " Spring10 "}),
        )
        .await;
    assert_eq!(preview.status(), 200);
    let preview: Value = preview.json().await.unwrap();
    assert_eq!(preview["code"], "SPRING10");
    assert_eq!(
        preview["price"],
        json!({"minor": 1_822_500, "currency": "EGP"})
    );
    assert_eq!(
        preview["discount"],
        json!({"minor": 202_500, "currency": "EGP"})
    );

    let r = app
        .post_as(&c, "/api/payments/paytabs/create", purchase("spring10"))
        .await;
    assert_eq!(r.status(), 200);
    let page = r.json::<Value>().await.unwrap()["redirectUrl"]
        .as_str()
        .unwrap()
        .to_string();
    let html = reqwest::get(&page).await.unwrap().text().await.unwrap();
    assert!(
        html.contains("18225.00 EGP"),
        "PayTabs is asked for the discounted price: {html}"
    );
    assert_eq!(
        uses(&app, "SPRING10").await,
        0,
        "a use counts when the payment settles"
    );

    let (action, fields) = press(&page, "approve").await;
    post_return(&action, &fields).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await; // the callback arrives too
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
    assert_eq!(uses(&app, "SPRING10").await, 1);
    let (amount, code, off): (i64, Option<String>, i64) =
        sqlx::query_as("SELECT amount, discount_code, discount_amount FROM payment_records")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(
        (amount, code.as_deref(), off),
        (1_822_500, Some("SPRING10"), 202_500)
    );
    // The CSV's columns: … amount (6) … discount_code (12), discount_amount (13).
    let csv = crate::exports::export(&app, &boss).await;
    let row = &csv[0];
    assert_eq!(
        (&row[6], &row[12], &row[13]),
        ("18225.00", "SPRING10", "2025.00")
    );
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn twenty_purchases_at_once_with_a_five_use_code_price_at_most_five_orders() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    new_code(
        &app,
        &boss,
        json!({"code": "FIVE", "kind": "fixed", "amountOff": 500, "maxUses": 5}),
    )
    .await;
    let mut clients = Vec::new();
    for i in 0..20 {
        clients.push(client(&app, &format!("buyer{i}@example.com")).await);
    }
    let mut at_once = tokio::task::JoinSet::new();
    for c in &clients {
        let request = c
            .post(app.url("/api/payments/paytabs/create"))
            .header("Origin", &app.base)
            .json(&purchase("FIVE"));
        at_once.spawn(async move { request.send().await.unwrap().status().as_u16() });
    }
    let statuses: Vec<u16> = at_once.join_all().await;
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        5,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 422),
        "{statuses:?}"
    );
    let discounted: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM payment_transactions WHERE discount_code_id IS NOT NULL",
    )
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(discounted, 5);
    let (_, e) = error_of(
        app.post_as(
            &clients[0],
            "/api/payments/paytabs/create",
            purchase("FIVE"),
        )
        .await,
    )
    .await;
    assert_eq!(
        e["fields"]["discountCode"],
        "This discount code has no uses left"
    );
}

#[tokio::test]
async fn a_code_that_does_not_apply_is_refused_naming_the_field_and_writes_nothing() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::Africa::Cairo)
        .date_naive();
    let day = |d: i64| {
        (today + chrono::Duration::days(d))
            .format("%Y-%m-%d")
            .to_string()
    };
    new_code(&app, &boss, json!({"code": "OLD", "kind": "percent", "percent": 20, "validFrom": day(-10), "validTo": day(-1)})).await;
    new_code(
        &app,
        &boss,
        json!({"code": "SOON", "kind": "percent", "percent": 20, "validFrom": day(2)}),
    )
    .await;
    new_code(
        &app,
        &boss,
        json!({"code": "GROUPS", "kind": "percent", "percent": 20, "packageIds": ["group-5"]}),
    )
    .await;
    new_code(
        &app,
        &boss,
        json!({"code": "ONCE", "kind": "percent", "percent": 20, "oncePerClient": true}),
    )
    .await;
    let c = client(&app, "mona@example.com").await;
    for (code, message) in [
        ("NOPE", "Unknown discount code"),
        ("OLD", "This discount code has expired"),
        ("SOON", "This discount code is not valid yet"),
        (
            "GROUPS",
            "This discount code does not apply to this package",
        ),
    ] {
        let (status, e) = error_of(
            app.post_as(&c, "/api/payments/paytabs/create", purchase(code))
                .await,
        )
        .await;
        assert_eq!(
            (status, e["fields"]["discountCode"].as_str()),
            (422, Some(message)),
            "{code}"
        );
        let (status, _) = error_of(
            app.post_as(&c, "/api/payments/transfer/create", purchase(code))
                .await,
        )
        .await;
        assert_eq!(status, 422, "{code} by transfer");
    }
    let none: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM payment_transactions")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(none, 0);
    // Once per client: a second order while the first holds the code is refused.
    assert_eq!(
        app.post_as(&c, "/api/payments/transfer/create", purchase("ONCE"))
            .await
            .status(),
        201
    );
    let (status, e) = error_of(
        app.post_as(&c, "/api/payments/paytabs/create", purchase("ONCE"))
            .await,
    )
    .await;
    assert_eq!(
        (status, e["fields"]["discountCode"].as_str()),
        (422, Some("You have already used this discount code"))
    );
}

#[tokio::test]
async fn a_transfer_with_a_code_counts_its_use_when_the_admin_confirms_and_a_cancel_gives_it_back()
{
    let app = spawn_app().await;
    let boss = admin(&app).await;
    new_code(
        &app,
        &boss,
        json!({"code": "ONE", "kind": "fixed", "amountOff": 1000, "maxUses": 1}),
    )
    .await;
    let c = client(&app, "mona@example.com").await;
    let first: Value = app
        .post_as(&c, "/api/payments/transfer/create", purchase("ONE"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        first["amount"],
        json!({"minor": 1_925_000, "currency": "EGP"})
    );
    // Its only use is held: another order is refused; cancelling gives it back.
    let (status, _) = error_of(
        app.post_as(&c, "/api/payments/transfer/create", purchase("ONE"))
            .await,
    )
    .await;
    assert_eq!(status, 422);
    let id = first["orderId"].as_str().unwrap();
    assert_eq!(
        app.post_as(
            &c,
            &format!("/api/payments/transfer/{id}/cancel"),
            json!({})
        )
        .await
        .status(),
        204
    );
    let second: Value = app
        .post_as(&c, "/api/payments/transfer/create", purchase("ONE"))
        .await
        .json()
        .await
        .unwrap();
    let id = second["orderId"].as_str().unwrap();
    let confirmed = app
        .post_as(
            &boss,
            &format!("/api/admin/transfers/{id}/confirm"),
            json!({}),
        )
        .await;
    assert_eq!(confirmed.status(), 204);
    assert_eq!(uses(&app, "ONE").await, 1);
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
    assert_ledger_verifies(&app).await;
}
