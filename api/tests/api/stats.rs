//! The admin's "Revenue this month" (issue 20, build item 7): payments of the month net of the
//! refunds completed in it, on SQLite and PostgreSQL.

use serde_json::{Value, json};

use crate::bookings::client_with_credits;
use crate::support::{TestApp, admin_client, pay_offline_today};

async fn revenue(app: &TestApp, boss: &reqwest::Client) -> Value {
    let s: Value = app
        .get_as(boss, "/api/admin/stats")
        .await
        .json()
        .await
        .unwrap();
    s["revenueThisMonth"].clone()
}

#[tokio::test]
async fn revenue_this_month_is_net_of_the_refunds_completed_this_month() {
    let (app, boss) = spawn_app_with_admin().await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 0).await;
    let first = pay_offline_today(&app, &boss, &mona, "4000.00", 4).await;
    pay_offline_today(&app, &boss, &mona, "1500.50", 1).await;
    assert_eq!(
        revenue(&app, &boss).await,
        json!({"minor": 550_050, "currency": "EGP"})
    );

    // An offline refund is completed at once: 1,000.25 of the first payment went back.
    let r = app
        .post_as(
            &boss,
            &format!("/api/admin/payments/{first}/refund"),
            json!({"credits": 1, "amount": "1000.25"}),
        )
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    assert_eq!(
        revenue(&app, &boss).await,
        json!({"minor": 450_025, "currency": "EGP"}),
        "the refund is taken off this month's revenue"
    );

    // A refund that failed gave nothing back, so it takes nothing off.
    sqlx::query("UPDATE payment_refunds SET status = 'failed'")
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(
        revenue(&app, &boss).await,
        json!({"minor": 550_050, "currency": "EGP"})
    );
}

async fn spawn_app_with_admin() -> (TestApp, reqwest::Client) {
    let app = crate::support::spawn_app().await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    (app, boss)
}
