//! Credits in lots (issue 14): the lot that expires first is used first, a cancel returns the
//! credit to its lot, expiry removes unused credits once even with two sweeps racing, a
//! reminder 14 days before, the admin extends a lot with a reason, and refunds of payments
//! (PayTabs through the stand-in, and offline) are bounded by unused credits and paid money.

use serde_json::{Value, json};

use crate::payments::{admin, client, credits, hosted_page, post_return, press};
use crate::support::{TestApp, assert_ledger_verifies, error_of, spawn_app, user_id};
use api::domain::credits::{debit_one, refund_one};

/// An offline payment of `sessions` credits lasting `months`; returns the payment's id.
async fn pay_offline(
    app: &TestApp,
    boss: &reqwest::Client,
    client_id: &str,
    sessions: i64,
    months: i64,
) -> String {
    let r = app
        .post_as(boss, "/api/admin/payments", json!({
            "clientId": client_id, "amount": 1000 * sessions, "sessionsPurchased": sessions,
            // The day as the coach's calendar (Cairo) has it, as the admin's form sends it: near
            // midnight UTC that is already the next day.
            "paymentDate": chrono::Utc::now().with_timezone(&chrono_tz::Africa::Cairo).format("%Y-%m-%d").to_string(),
            "paymentMethod": "cash",
            "validityMonths": months
        }))
        .await;
    assert_eq!(r.status(), 201);
    let body: Value = r.json().await.unwrap();
    body["id"].as_str().unwrap().to_string()
}

async fn lot_of_payment(app: &TestApp, payment: &str) -> (String, i64) {
    sqlx::query_as("SELECT id, remaining FROM credit_lots WHERE payment_record_id = $1")
        .bind(payment)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

async fn remaining(app: &TestApp, lot: &str) -> i64 {
    sqlx::query_scalar("SELECT remaining FROM credit_lots WHERE id = $1")
        .bind(lot)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

/// `n` bookings take a credit each (`booking:1` … `booking:n`), through the ledger.
async fn debit(app: &TestApp, client_id: &str, n: usize) {
    let db = &app.state.db;
    let mut tx = db.pool.begin().await.unwrap();
    for i in 1..=n {
        debit_one(&mut tx, db.backend, client_id, &format!("booking:{i}"))
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
}

/// A confirmed booking that took its credit from `lot` is cancelled: the credit goes back.
async fn cancel_booking_on(
    app: &TestApp,
    client_id: &str,
    lot: &str,
    booking: &str,
    reference: &str,
) {
    let db = &app.state.db;
    // An upcoming session, booked now.
    let now = chrono::Utc::now();
    sqlx::query(
        "INSERT INTO bookings (id, client_id, session_date, status, created_at, source, credit_debited, credit_lot_id)
         VALUES ($1, $2, $3, 'confirmed', $4, 'phone', 1, $5)",
    )
    .bind(booking)
    .bind(client_id)
    .bind(api::domain::ts(now + chrono::Duration::days(30)))
    .bind(api::domain::ts(now))
    .bind(lot)
    .execute(&db.pool)
    .await
    .unwrap();
    let mut tx = db.pool.begin().await.unwrap();
    refund_one(&mut tx, db.backend, client_id, booking, reference)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// Time passes: the lot's last day was yesterday.
async fn make_due(app: &TestApp, lot: &str) {
    let past = api::domain::ts(chrono::Utc::now() - chrono::Duration::minutes(1));
    sqlx::query("UPDATE credit_lots SET expires_at = $1 WHERE id = $2")
        .bind(past)
        .bind(lot)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
}

async fn count(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn bookings_use_the_lot_that_expires_first_and_a_cancel_returns_the_credit_there() {
    let app = spawn_app().await;
    let mona = client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let id = user_id(&app, "mona@example.com").await;
    let long = pay_offline(&app, &boss, &id, 2, 12).await;
    let short = pay_offline(&app, &boss, &id, 2, 3).await;
    let (long_lot, _) = lot_of_payment(&app, &long).await;
    let (short_lot, _) = lot_of_payment(&app, &short).await;

    // The dashboard names the credits that expire first.
    let dash: Value = app
        .get_as(&mona, "/api/dashboard")
        .await
        .json()
        .await
        .unwrap();
    let expiry = &dash["account"]["nextExpiry"];
    assert_eq!(expiry["credits"], 2, "{dash}");
    let in_three_months = chrono::Utc::now()
        .with_timezone(&chrono_tz::Africa::Cairo)
        .date_naive()
        .checked_add_months(chrono::Months::new(3))
        .unwrap();
    assert_eq!(
        expiry["expiresOn"],
        in_three_months.format("%Y-%m-%d").to_string()
    );

    debit(&app, &id, 3).await;
    // Two from the 3-month lot, then one from the 12-month lot.
    assert_eq!(remaining(&app, &short_lot).await, 0);
    assert_eq!(remaining(&app, &long_lot).await, 1);
    let dash: Value = app
        .get_as(&mona, "/api/dashboard")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(dash["account"]["nextExpiry"]["credits"], 1);

    // A booking that took the first credit is cancelled: it goes back to the 3-month lot.
    cancel_booking_on(
        &app,
        &id,
        &short_lot,
        "b0000000000000000000000000000001",
        "cancel:1",
    )
    .await;
    assert_eq!(remaining(&app, &short_lot).await, 1);
    assert_eq!(remaining(&app, &long_lot).await, 1);
    assert_eq!(credits(&app, "mona@example.com").await, (4, 2, 2));
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn two_sweeps_racing_expire_a_lot_exactly_once() {
    let app = spawn_app().await;
    client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let id = user_id(&app, "mona@example.com").await;
    let payment = pay_offline(&app, &boss, &id, 5, 6).await;
    let (lot, _) = lot_of_payment(&app, &payment).await;
    debit(&app, &id, 1).await;
    make_due(&app, &lot).await;
    let db = &app.state.db;

    // Two API processes: two connections to the one database, sweeping at once.
    let other = api::db::Db::connect(&app.database_url).await.unwrap();
    let (a, b) = tokio::join!(api::lots::expire_due(db), api::lots::expire_due(&other));
    assert_eq!(
        a.unwrap() + b.unwrap(),
        4,
        "the 4 unused credits leave once"
    );
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM credit_ledger WHERE kind = 'expiry'"
        )
        .await,
        1
    );
    assert_eq!(credits(&app, "mona@example.com").await, (1, 1, 0));
    assert_eq!(remaining(&app, &lot).await, 0);
    // Sweeping again changes nothing.
    assert_eq!(api::lots::expire_due(db).await.unwrap(), 0);
    assert_ledger_verifies(&app).await;

    // The booking is cancelled after its lot expired: the credit comes back and leaves again
    // at once, both visible in the ledger.
    cancel_booking_on(
        &app,
        &id,
        &lot,
        "b0000000000000000000000000000002",
        "cancel:late",
    )
    .await;
    assert_eq!(credits(&app, "mona@example.com").await, (0, 0, 0));
    assert_eq!(
        count(
            &app,
            "SELECT COUNT(*) FROM credit_ledger WHERE kind = 'expiry'"
        )
        .await,
        2
    );
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn an_email_goes_out_once_fourteen_days_before_a_lot_expires() {
    let app = spawn_app().await;
    client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let id = user_id(&app, "mona@example.com").await;
    let payment = pay_offline(&app, &boss, &id, 3, 6).await;
    let (lot, _) = lot_of_payment(&app, &payment).await;
    assert_eq!(
        api::lots::send_expiry_reminders(&app.state).await.unwrap(),
        0,
        "six months away: no email yet"
    );
    let in_13_days = chrono::Utc::now() + chrono::Duration::days(13);
    sqlx::query("UPDATE credit_lots SET expires_at = $1, expires_on = $2 WHERE id = $3")
        .bind(api::domain::ts(in_13_days))
        .bind(in_13_days.format("%Y-%m-%d").to_string())
        .bind(&lot)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(
        api::lots::send_expiry_reminders(&app.state).await.unwrap(),
        1
    );
    assert_eq!(
        api::lots::send_expiry_reminders(&app.state).await.unwrap(),
        0
    );
    let day = in_13_days.format("%b %d, %Y").to_string();
    let mail = app
        .mail
        .wait_for(
            "mona@example.com",
            &format!("3 session credits expire on {day}"),
        )
        .await;
    assert!(mail.text().contains("/book-session"), "{}", mail.text());
}

#[tokio::test]
async fn the_admin_extends_a_live_lot_with_a_reason() {
    let app = spawn_app().await;
    let mona = client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let id = user_id(&app, "mona@example.com").await;
    let payment = pay_offline(&app, &boss, &id, 2, 1).await;
    let (lot, _) = lot_of_payment(&app, &payment).await;
    let lots: Value = app
        .get_as(&boss, &format!("/api/admin/clients/{id}/lots"))
        .await
        .json()
        .await
        .unwrap();
    let old_day = lots[0]["expiresOn"].as_str().unwrap().to_string();
    let extend = format!("/api/admin/lots/{lot}/extend");
    let new_day = (chrono::Utc::now() + chrono::Duration::days(120))
        .format("%Y-%m-%d")
        .to_string();

    let (status, e) = error_of(
        app.post_as(&boss, &extend, json!({"expiresOn": new_day, "reason": ""}))
            .await,
    )
    .await;
    assert_eq!(
        (status, e["fields"]["reason"].is_string()),
        (422, true),
        "{e}"
    );
    let (status, e) = error_of(
        app.post_as(
            &boss,
            &extend,
            json!({"expiresOn": old_day, "reason": "Travel"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        e["message"],
        "The new expiry date must be later than the current one"
    );
    let (status, _) = error_of(
        app.post_as(
            &mona,
            &extend,
            json!({"expiresOn": "2030-01-01", "reason": "Travel"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 403, "clients cannot extend");

    let r = app
        .post_as(
            &boss,
            &extend,
            json!({"expiresOn": new_day, "reason": "Client on medical leave"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let view: Value = r.json().await.unwrap();
    assert_eq!(view["expiresOn"], new_day.as_str());
    let (reason, from): (String, String) = sqlx::query_as(
        "SELECT reason, old_expires_on FROM credit_lot_extensions WHERE lot_id = $1",
    )
    .bind(&lot)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(
        (reason.as_str(), from),
        ("Client on medical leave", old_day)
    );
    let dash: Value = app
        .get_as(&mona, "/api/dashboard")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(dash["account"]["nextExpiry"]["expiresOn"], new_day.as_str());

    // An expired lot cannot be extended: its credits have left.
    make_due(&app, &lot).await;
    api::lots::expire_due(&app.state.db).await.unwrap();
    let (status, _) = error_of(
        app.post_as(
            &boss,
            &extend,
            json!({"expiresOn": new_day, "reason": "Too late"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 409);
    assert_ledger_verifies(&app).await;
}

/// A purchase of the 5-session package (20,250.00 EGP) through the stand-in; its payment id.
async fn buy_five(app: &TestApp, c: &reqwest::Client) -> String {
    let page = hosted_page(app, c).await;
    let (action, fields) = press(&page, "approve").await;
    assert!(
        post_return(&action, &fields)
            .await
            .contains("/payment/success")
    );
    sqlx::query_scalar("SELECT id FROM payment_records ORDER BY created_at DESC LIMIT 1")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_paytabs_refund_takes_only_unused_credits_and_a_replayed_notification_changes_nothing() {
    let app = spawn_app().await;
    let mona = client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let id = user_id(&app, "mona@example.com").await;
    let payment = buy_five(&app, &mona).await;
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
    debit(&app, &id, 2).await;

    let refund = format!("/api/admin/payments/{payment}/refund");
    let bounds: Value = app.get_as(&boss, &refund).await.json().await.unwrap();
    assert_eq!(bounds["method"], "paytabs");
    assert_eq!(bounds["unusedCredits"], 3);
    assert_eq!(bounds["maxAmount"]["minor"], 2_025_000);
    assert_eq!(
        bounds["suggestedAmount"]["minor"], 1_215_000,
        "3/5 of the price"
    );

    let (status, e) = error_of(
        app.post_as(&boss, &refund, json!({"credits": 4, "amount": "100"}))
            .await,
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(e["message"], "At most 3 unused credits can be removed");
    let (status, e) = error_of(
        app.post_as(&boss, &refund, json!({"credits": 3, "amount": "20250.01"}))
            .await,
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(e["message"], "At most 20,250.00 EGP can be refunded");
    assert_eq!(
        credits(&app, "mona@example.com").await,
        (5, 2, 3),
        "a refused refund changes nothing"
    );

    let r = app
        .post_as(
            &boss,
            &refund,
            json!({"credits": 3, "amount": "12150.00", "reason": "Moved abroad"}),
        )
        .await;
    assert_eq!(r.status(), 201);
    let done: Value = r.json().await.unwrap();
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(credits(&app, "mona@example.com").await, (2, 2, 0));
    let mail = app.mail.wait_for("mona@example.com", "Your refund").await;
    assert!(mail.text().contains("12,150 EGP"), "{}", mail.text());
    assert!(
        mail.text().contains("3 session credits removed"),
        "{}",
        mail.text()
    );

    // The stand-in's own signed notification arrives, and then a replay of it.
    let (cart, tran_ref): (String, String) =
        sqlx::query_as("SELECT cart_id, tran_ref FROM payment_refunds")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    for _ in 0..3 {
        let body = serde_json::to_vec(&json!({
            "tran_ref": tran_ref, "previous_tran_ref": "x", "cart_id": cart, "cart_currency": "EGP",
            "cart_amount": "12150.00", "tran_currency": "EGP", "tran_total": "12150.00", "tran_type": "Refund",
            "payment_result": {"response_status": "D", "response_code": "D1", "response_message": "late"}
        }))
        .unwrap();
        let r = app.paytabs_callback(body).await;
        assert_eq!(r.status(), 200);
    }
    assert_eq!(
        credits(&app, "mona@example.com").await,
        (2, 2, 0),
        "a settled refund stays settled"
    );

    // The client's history shows the refund as its own line.
    let dash: Value = app
        .get_as(&mona, "/api/dashboard")
        .await
        .json()
        .await
        .unwrap();
    let kinds: Vec<&str> = dash["payments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["refund", "payment"], "{dash}");
    assert_eq!(dash["payments"][0]["amount"]["minor"], 1_215_000);

    // What is left: no unused credits, 8,100.00 EGP of money.
    let bounds: Value = app.get_as(&boss, &refund).await.json().await.unwrap();
    assert_eq!(
        (
            bounds["unusedCredits"].as_i64(),
            bounds["maxAmount"]["minor"].as_i64()
        ),
        (Some(0), Some(810_000))
    );
    let (status, _) = error_of(
        app.post_as(&boss, &refund, json!({"credits": 0, "amount": "8100.01"}))
            .await,
    )
    .await;
    assert_eq!(status, 422);
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_declined_paytabs_refund_gives_the_credits_back() {
    let app = spawn_app().await;
    let mona = client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let payment = buy_five(&app, &mona).await;
    app.paytabs_standin
        .decline_refunds
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let r = app
        .post_as(
            &boss,
            &format!("/api/admin/payments/{payment}/refund"),
            json!({"credits": 5, "amount": "20250"}),
        )
        .await;
    assert_eq!(r.status(), 201);
    let row: Value = r.json().await.unwrap();
    assert_eq!(row["status"], "failed");
    assert_eq!(credits(&app, "mona@example.com").await, (5, 0, 5));
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn an_offline_payment_refund_is_recorded_by_the_admin() {
    let app = spawn_app().await;
    client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let id = user_id(&app, "mona@example.com").await;
    let payment = pay_offline(&app, &boss, &id, 4, 6).await;
    let refund = format!("/api/admin/payments/{payment}/refund");
    let bounds: Value = app.get_as(&boss, &refund).await.json().await.unwrap();
    assert_eq!(bounds["method"], "offline");
    let r = app
        .post_as(
            &boss,
            &refund,
            json!({"credits": 2, "amount": "2000", "reason": "Moving abroad"}),
        )
        .await;
    assert_eq!(r.status(), 201);
    let row: Value = r.json().await.unwrap();
    assert_eq!(row["status"], "completed");
    assert_eq!(credits(&app, "mona@example.com").await, (2, 0, 2));
    app.mail.wait_for("mona@example.com", "Your refund").await;
    // The coach's page of the client lists the refund as its own line.
    let page: Value = app
        .get_as(&boss, &format!("/api/admin/clients/{id}"))
        .await
        .json()
        .await
        .unwrap();
    let refunds = page["refunds"].as_array().unwrap();
    assert_eq!(refunds.len(), 1, "{page}");
    assert_eq!(refunds[0]["paymentRecordId"], payment.as_str());
    assert_eq!(
        (
            refunds[0]["credits"].as_i64(),
            refunds[0]["amount"].as_i64()
        ),
        (Some(2), Some(200_000))
    );
    // The ledger line of the credits the refund took carries the admin's reason.
    let ledger = page["ledger"].as_array().unwrap();
    let removed = ledger
        .iter()
        .find(|l| l["kind"] == "payment_refund")
        .unwrap_or_else(|| panic!("a refund line in {page}"));
    assert_eq!(
        (removed["deltaTotal"].as_i64(), removed["note"].as_str()),
        (Some(-2), Some("Moving abroad"))
    );
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn a_completed_refund_is_its_own_negative_row_in_the_accounting_export() {
    let app = spawn_app().await;
    client(&app, "mona@example.com").await;
    let boss = admin(&app).await;
    let id = user_id(&app, "mona@example.com").await;
    let payment = pay_offline(&app, &boss, &id, 4, 6).await;
    let refund = format!("/api/admin/payments/{payment}/refund");
    let r = app
        .post_as(&boss, &refund, json!({"credits": 2, "amount": "1500.50"}))
        .await;
    assert_eq!(r.status(), 201);
    let cairo = chrono::Utc::now().with_timezone(&chrono_tz::Africa::Cairo);
    let (from, to) = (
        (cairo - chrono::Duration::days(1)).format("%Y-%m-%d"),
        (cairo + chrono::Duration::days(1)).format("%Y-%m-%d"),
    );
    let r = app
        .get_as(
            &boss,
            &format!("/api/admin/exports/payments?from={from}&to={to}"),
        )
        .await;
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let kinds: Vec<(&str, &str, &str)> = rows.iter().map(|r| (&r[0], &r[5], &r[6])).collect();
    assert_eq!(
        kinds,
        [("payment", "4", "4000.00"), ("refund", "-2", "-1500.50")],
        "{text}"
    );
    assert_eq!(
        rows[0][2], rows[1][2],
        "the refund carries the payment's receipt number"
    );
    assert_eq!(&rows[1][8], "cash");
}
