//! Refunds under pressure (issue 20, defects 1 and 2): racing refunds of one payment never
//! refund more than was paid, refunds racing bookings end in a business answer, and a refund
//! PayTabs refuses ends failed with the credits back and PayTabs' reason for the admin.

use std::sync::atomic::Ordering;

use serde_json::{Value, json};

use crate::payments::{admin, client, credits, hosted_page, post_return, press};
use crate::support::{
    TestApp, assert_ledger_verifies, error_of, pay_offline_today, spawn_app, user_id,
};

/// `n` refund requests sent at the same moment; their statuses.
async fn race_refunds(app: &TestApp, boss: &reqwest::Client, path: &str, body: Value) -> Vec<u16> {
    let n = 12;
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(n));
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            let (c, url, origin, body, barrier) = (
                boss.clone(),
                app.url(path),
                app.url(""),
                body.clone(),
                barrier.clone(),
            );
            tokio::spawn(async move {
                barrier.wait().await;
                c.post(url)
                    .header("Origin", origin)
                    .json(&body)
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    statuses
}

async fn refunded_total(app: &TestApp, payment: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM payment_refunds
          WHERE payment_record_id = $1 AND status <> 'failed'",
    )
    .bind(payment)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn racing_refunds_of_one_payment_never_refund_more_than_was_paid() {
    let app = spawn_app().await;
    client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let id = user_id(&app, "mona@example.com").await;
    let payment = pay_offline_today(&app, &boss, &id, "400.00", 4).await;
    let path = format!("/api/admin/payments/{payment}/refund");

    let statuses = race_refunds(
        &app,
        &boss,
        &path,
        json!({"credits": 0, "amount": "400.00"}),
    )
    .await;
    assert_eq!(
        statuses.iter().filter(|s| **s == 201).count(),
        1,
        "exactly one full refund: {statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 201 || *s == 422),
        "the others get the business answer, never a 500: {statuses:?}"
    );
    assert_eq!(refunded_total(&app, &payment).await, 40_000);
    let bounds: Value = app.get_as(&boss, &path).await.json().await.unwrap();
    assert_eq!(bounds["maxAmount"]["minor"], 0);
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn refunds_of_credits_racing_bookings_end_in_a_business_answer() {
    let app = spawn_app().await;
    client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let id = user_id(&app, "mona@example.com").await;
    let payment = pay_offline_today(&app, &boss, &id, "6000.00", 6).await;
    let path = format!("/api/admin/payments/{payment}/refund");

    // Six bookings take a credit each while twelve refunds of one credit each are asked for.
    let bookings: Vec<_> = (0..6)
        .map(|i| {
            let (db, id) = (app.state.db.clone(), id.clone());
            tokio::spawn(async move {
                let mut tx = db.pool.begin().await.unwrap();
                let applied = api::domain::credits::debit_one(
                    &mut tx,
                    db.backend,
                    &id,
                    &format!("booking:race-{i}"),
                )
                .await
                .unwrap();
                tx.commit().await.unwrap();
                applied
            })
        })
        .collect();
    let statuses = race_refunds(&app, &boss, &path, json!({"credits": 1, "amount": "1.00"})).await;
    let mut booked = 0;
    for b in bookings {
        if b.await.unwrap() == api::domain::credits::Applied::Yes {
            booked += 1;
        }
    }
    assert!(
        statuses.iter().all(|s| *s == 201 || *s == 422),
        "every refund gets 201 or the business answer, never a 500: {statuses:?}"
    );
    let refunded = statuses.iter().filter(|s| **s == 201).count() as i64;
    assert_eq!(
        booked + refunded,
        6,
        "every credit is either booked or refunded, none twice"
    );
    assert_eq!(
        credits(&app, "mona@example.com").await,
        (6 - refunded, booked, 0)
    );
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_refund_paytabs_refuses_fails_gives_the_credits_back_and_says_why() {
    let app = spawn_app().await;
    let mona = client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let page = hosted_page(&app, &mona).await;
    let (action, fields) = press(&page, "approve").await;
    assert!(
        post_return(&action, &fields)
            .await
            .contains("/payment/success")
    );
    let payment: String =
        sqlx::query_scalar("SELECT id FROM payment_records ORDER BY created_at DESC LIMIT 1")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
    app.paytabs_standin
        .refuse_refunds
        .store(true, Ordering::Relaxed);

    let path = format!("/api/admin/payments/{payment}/refund");
    let (status, e) = error_of(
        app.post_as(&boss, &path, json!({"credits": 5, "amount": "20250"}))
            .await,
    )
    .await;
    assert_eq!(status, 409, "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("Transaction can not be refunded"),
        "the admin is told PayTabs' reason: {e}"
    );
    let (state,): (String,) = sqlx::query_as("SELECT status FROM payment_refunds")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(state, "failed");
    assert_eq!(
        credits(&app, "mona@example.com").await,
        (5, 0, 5),
        "the credits are back"
    );
    // Nothing counts as refunded, so the whole payment can still be refunded later.
    let bounds: Value = app.get_as(&boss, &path).await.json().await.unwrap();
    assert_eq!(bounds["maxAmount"]["minor"], 2_025_000);
    assert_eq!(bounds["unusedCredits"], 5);
    assert_ledger_verifies(&app).await;
}
