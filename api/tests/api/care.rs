//! The coach's view of one client (profile, credits, deactivation), receipts and the
//! accounting export.

use chrono::Utc;
use serde_json::{Value, json};

use crate::bookings::{balance, client_with_credits};
use crate::support::{
    TestApp, admin_client, assert_ledger_verifies, error_of, new_client, spawn_app,
};

fn today() -> String {
    Utc::now()
        .with_timezone(&chrono_tz::Africa::Cairo)
        .format("%Y-%m-%d")
        .to_string()
}

async fn record_payment(
    app: &TestApp,
    boss: &reqwest::Client,
    client: &str,
    amount: f64,
) -> String {
    let r = app
        .post_as(
            boss,
            "/api/admin/payments",
            json!({"clientId": client, "amount": amount, "sessionsPurchased": 3, "paymentDate": today(),
                   "paymentMethod": "bank_transfer", "referenceNumber": "TRX-9"}),
        )
        .await;
    assert_eq!(r.status(), 201);
    r.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn get(c: &reqwest::Client, app: &TestApp, path: &str) -> reqwest::Response {
    c.get(app.url(path)).send().await.unwrap()
}

#[tokio::test]
async fn a_deactivated_client_is_signed_out_everywhere_and_cannot_sign_in_until_reactivated() {
    let app = spawn_app().await;
    let (mona, id) = client_with_credits(&app, "mona@example.com", 2).await;
    let second_browser = new_client();
    let sign_in = json!({"email": "mona@example.com", "password": "nile-sunrise-42"});
    assert_eq!(
        app.post_as(&second_browser, "/api/auth/sign-in", sign_in.clone())
            .await
            .status(),
        200
    );
    let boss = admin_client(&app, "boss@coach.example.com").await;

    let r = app
        .post_as(
            &boss,
            &format!("/api/admin/clients/{id}/deactivate"),
            json!({}),
        )
        .await;
    assert_eq!(r.status(), 200);
    assert!(r.json::<Value>().await.unwrap()["deactivatedAt"].is_string());
    assert_eq!(get(&mona, &app, "/api/dashboard").await.status(), 401);
    assert_eq!(
        get(&second_browser, &app, "/api/dashboard").await.status(),
        401
    );
    let (status, error) = error_of(
        app.post_as(&new_client(), "/api/auth/sign-in", sign_in.clone())
            .await,
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(
        error["message"],
        "This account has been deactivated. Please contact the coach to reactivate it."
    );
    // A wrong password still gets the usual answer: nothing is said about the account.
    let (status, _) = error_of(
        app.post_as(
            &new_client(),
            "/api/auth/sign-in",
            json!({"email": "mona@example.com", "password": "wrong-password"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 400);
    // The history stays.
    assert_eq!(balance(&app, &id).await, (2, 0, 2));
    assert_eq!(
        app.post_as(
            &boss,
            &format!("/api/admin/clients/{id}/deactivate"),
            json!({})
        )
        .await
        .status(),
        200,
        "sent again, nothing changes"
    );
    let boss_id: String =
        sqlx::query_scalar("SELECT id FROM users WHERE email = 'boss@coach.example.com'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    let (status, _) = error_of(
        app.post_as(
            &boss,
            &format!("/api/admin/clients/{boss_id}/deactivate"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 409, "an admin cannot lock themselves out");

    assert_eq!(
        app.post_as(
            &boss,
            &format!("/api/admin/clients/{id}/reactivate"),
            json!({})
        )
        .await
        .status(),
        200
    );
    assert_eq!(
        app.post_as(&new_client(), "/api/auth/sign-in", sign_in)
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn the_admin_edits_a_profile_and_adjusts_credits_with_a_reason() {
    let app = spawn_app().await;
    let (mona, id) = client_with_credits(&app, "mona@example.com", 2).await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let path = format!("/api/admin/clients/{id}");
    let r = boss
        .put(app.url(&path))
        .header("Origin", &app.base)
        .json(
            &json!({"fullName": "Mona Adel Fahmy", "phone": "+20 111 222 3333", "role": "client"}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let d: Value = r.json().await.unwrap();
    assert_eq!(
        (d["fullName"].as_str(), d["phone"].as_str()),
        (Some("Mona Adel Fahmy"), Some("+20 111 222 3333"))
    );
    let (status, error) = error_of(
        boss.put(app.url(&path))
            .header("Origin", &app.base)
            .json(&json!({"fullName": "M", "role": "client"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (422, Some("Full name must be at least 2 characters"))
    );

    let credits_path = format!("/api/admin/clients/{id}/credits");
    let adjust = |delta: i64, reason: &str| {
        app.post_as(
            &boss,
            &credits_path,
            json!({"delta": delta, "reason": reason}),
        )
    };
    let (status, error) = error_of(adjust(1, "  ").await).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (422, Some("Please give a reason for the adjustment"))
    );
    let r = adjust(3, "Goodwill after a rescheduled retreat").await;
    assert_eq!(r.status(), 200);
    let d: Value = r.json().await.unwrap();
    assert_eq!(d["account"]["availableCredits"], 5);
    assert_eq!(d["ledger"][0]["kind"], "admin_adjustment");
    assert!(
        d["ledger"][0]["note"]
            .as_str()
            .unwrap()
            .starts_with("Goodwill after a rescheduled retreat")
    );
    let (status, _) = error_of(adjust(-6, "too many").await).await;
    assert_eq!(status, 409, "never below what is available");
    assert_eq!(adjust(-5, "Correction").await.status(), 200);
    assert_eq!(balance(&app, &id).await, (0, 0, 0));
    // Clients cannot use any of it.
    let (status, _) = error_of(get(&mona, &app, &path).await).await;
    assert_eq!(status, 403);
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn every_payment_has_a_numbered_receipt_only_its_owner_and_the_admin_can_open() {
    let app = spawn_app().await;
    let (mona, id) = client_with_credits(&app, "mona@example.com", 0).await;
    let (omar, omar_id) = client_with_credits(&app, "omar@example.com", 0).await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let first = record_payment(&app, &boss, &id, 4500.5).await;
    let second = record_payment(&app, &boss, &omar_id, 100.0).await;

    let mail = app
        .mail
        .wait_for("mona@example.com", "Your receipt from")
        .await;
    assert!(mail.subject().contains("R-000001"), "{}", mail.subject());
    let link = mail.link(&format!("{}/receipt?id=", app.base));
    assert!(link.ends_with(&first), "{link}");

    let r: Value = get(&mona, &app, &format!("/api/receipts/{first}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["receiptNumber"], "R-000001");
    assert_eq!(r["business"]["name"], "Nadine Kamel Coaching LLC");
    assert_eq!(r["business"]["taxId"], "512-384-976");
    assert!(
        r["business"]["address"]
            .as_str()
            .unwrap()
            .contains("New Cairo")
    );
    assert_eq!(
        (
            r["amount"]["minor"].as_i64(),
            r["amount"]["currency"].as_str()
        ),
        (Some(450050), Some("EGP"))
    );
    assert_eq!(
        (r["sessions"].as_i64(), r["paymentMethod"].as_str()),
        (Some(3), Some("bank_transfer"))
    );
    assert_eq!(r["package"], "Coaching sessions");
    assert_eq!(
        r["paymentDay"],
        today(),
        "the day the admin entered, in the coach's zone"
    );
    assert_eq!(r["clientName"], "Mona Adel");
    let admin_view: Value = get(&boss, &app, &format!("/api/receipts/{second}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        admin_view["receiptNumber"], "R-000002",
        "numbers follow each other"
    );

    let (status, _) = error_of(get(&omar, &app, &format!("/api/receipts/{first}")).await).await;
    assert_eq!(status, 404, "another client cannot open it");
    let (status, _) =
        error_of(get(&new_client(), &app, &format!("/api/receipts/{first}")).await).await;
    assert_eq!(status, 401);
    // The client page lists the payment with its receipt.
    let d: Value = get(&boss, &app, &format!("/api/admin/clients/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(d["payments"][0]["receiptNumber"], "R-000001");
    // Opening it again does not renumber it.
    let again: Value = get(&mona, &app, &format!("/api/receipts/{first}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(again["receiptNumber"], "R-000001");
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn the_accounting_export_is_csv_with_one_quoted_row_per_payment_in_the_range() {
    let app = spawn_app().await;
    let (_, id) = client_with_credits(&app, "mona@example.com", 0).await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    sqlx::query("UPDATE profiles SET full_name = 'Adel, Mona \"MA\"' WHERE user_id = $1")
        .bind(&id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    record_payment(&app, &boss, &id, 4500.5).await;
    record_payment(&app, &boss, &id, 0.05).await;
    let day = today();
    let r = get(
        &boss,
        &app,
        &format!("/api/admin/exports/payments?from={day}&to={day}"),
    )
    .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        r.headers()["content-disposition"].to_str().unwrap(),
        format!("attachment; filename=\"payments-{day}-to-{day}.csv\"")
    );
    let text = r.text().await.unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = rows.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header[..8],
        [
            "kind",
            "date",
            "receipt_number",
            "client_name",
            "client_email",
            "sessions",
            "amount",
            "currency"
        ]
    );
    let records: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 2, "{text}");
    assert_eq!(
        &records[0][3], "Adel, Mona \"MA\"",
        "quoted, and read back whole"
    );
    let mut amounts: Vec<&str> = records.iter().map(|r| &r[6]).collect();
    amounts.sort();
    assert_eq!(amounts, ["0.05", "4500.50"]);
    assert!(
        records
            .iter()
            .all(|r| &r[0] == "payment" && &r[1] == day.as_str() && &r[7] == "EGP")
    );
    assert!(
        text.contains("\"Adel, Mona \"\"MA\"\"\""),
        "RFC 4180 quoting: {text}"
    );

    let empty = get(
        &boss,
        &app,
        "/api/admin/exports/payments?from=2020-01-01&to=2020-01-31",
    )
    .await
    .text()
    .await
    .unwrap();
    assert_eq!(empty.lines().count(), 1, "only the header");
    let (status, _) = error_of(
        get(
            &boss,
            &app,
            &format!("/api/admin/exports/payments?from={day}&to=2020-01-01"),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422);
    let (mona, _) = (new_client(), ());
    let (status, _) = error_of(
        get(
            &mona,
            &app,
            &format!("/api/admin/exports/payments?from={day}&to={day}"),
        )
        .await,
    )
    .await;
    assert_eq!(status, 401);
}
