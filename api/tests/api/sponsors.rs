//! Companies that pay for their executives' coaching (issue 23): a sponsor, an engagement for
//! named executives, invited ones and a pool, its invoice paid through PayTabs' Invoices API
//! (the stand-in keeps the invoice under its `invoice_link`) or by transfer, credits granted exactly once, pool splits and moves bounded, and
//! the sponsor's report link showing nothing across sponsors and nothing private. Runs on
//! SQLite, and on PostgreSQL with TEST_DATABASE=postgres.

use serde_json::{Value, json};

use crate::payments::{admin, client, credits, post_return, press};
use crate::support::{
    PAYTABS_KEY, TestApp, assert_ledger_verifies, error_of, new_client, spawn_app, user_id,
};

const MONA: &str = "mona@example.com";
const KARIM: &str = "karim@example.com";
const INVITED: &str = "salma@example.com";

async fn sponsor(app: &TestApp, boss: &reqwest::Client, name: &str, contact: &str) -> Value {
    let r = app
        .post_as(boss, "/api/admin/sponsors", json!({
            "name": name, "contactName": "Rana Fathy", "contactEmail": contact,
            "contactPhone": "+20 100 000 0001", "address": "Smart Village, Giza", "taxId": "123-456-789",
            "notes": "Renewal talks in March"
        }))
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    r.json().await.unwrap()
}

/// An engagement of 10 credits at 45,000 EGP: Mona 4, an invited executive 2, a pool of 4.
async fn engagement(app: &TestApp, boss: &reqwest::Client, sponsor_id: &str, mona: &str) -> Value {
    let r = app
        .post_as(boss, "/api/admin/engagements", json!({
            "sponsorId": sponsor_id, "title": "Leadership programme 2027", "credits": 10, "price": "45000",
            "validityMonths": 12, "startsOn": "2026-01-01", "dueDays": 14,
            "members": [{"clientId": mona, "credits": 4}, {"email": INVITED, "credits": 2}]
        }))
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    r.json().await.unwrap()
}

async fn setup(app: &TestApp) -> (reqwest::Client, reqwest::Client, Value, Value) {
    let boss = admin(app).await;
    let mona = client(app, MONA).await;
    let s = sponsor(app, &boss, "Nile Pharma", "billing@nilepharma.example").await;
    let mona_id = user_id(app, MONA).await;
    let e = engagement(app, &boss, s["id"].as_str().unwrap(), &mona_id).await;
    (boss, mona, s, e)
}

fn token_of(url: &str) -> String {
    url.split("token=").nth(1).unwrap().to_string()
}

/// The billing contact pays the sent invoice on PayTabs' page; answers where the browser lands.
async fn pay_by_card(app: &TestApp, boss: &reqwest::Client, invoice: &Value) -> String {
    let id = invoice["id"].as_str().unwrap();
    let sent = app
        .post_as(boss, &format!("/api/admin/invoices/{id}/send"), json!({}))
        .await;
    assert_eq!(sent.status(), 200, "{}", sent.text().await.unwrap());
    let token = token_of(invoice["payUrl"].as_str().unwrap());
    let r = new_client()
        .post(app.url(&format!("/api/invoices/by-token/{token}/pay")))
        .header("Origin", &app.base)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    let page: Value = r.json().await.unwrap();
    let (action, fields) = press(page["redirectUrl"].as_str().unwrap(), "approve").await;
    post_return(&action, &fields).await
}

async fn ledger_rows(app: &TestApp, kind: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM credit_ledger WHERE kind = $1")
        .bind(kind)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_paid_invoice_grants_the_executives_credits_exactly_once_and_emails_the_receipt() {
    let app = spawn_app().await;
    let (boss, mona, _, e) = setup(&app).await;
    assert_eq!(e["pool"], 4);
    assert_eq!(e["invoice"]["status"], "draft");
    assert!(e["invoice"]["number"].as_str().unwrap().starts_with("INV-"));
    assert_eq!(e["invoice"]["total"]["minor"], 4_500_000);
    // Nothing reaches anyone before the invoice is paid.
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));
    // The invited executive was emailed a sign-up link.
    app.mail
        .wait_for(INVITED, "has booked coaching for you")
        .await;

    let landing = pay_by_card(&app, &boss, &e["invoice"]).await;
    assert!(
        landing.contains("/invoice?token=") && landing.ends_with("&paid=1"),
        "{landing}"
    );
    assert_eq!(credits(&app, MONA).await, (4, 0, 4));
    app.mail
        .wait_for("billing@nilepharma.example", "Receipt for invoice")
        .await;

    // PayTabs' callback for the same payment (and replays of it) changes nothing.
    let (cart_id, tran_ref): (String, String) =
        sqlx::query_as("SELECT cart_id, tran_ref FROM invoices")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
    let body = serde_json::to_vec(&json!({
        "tran_ref": tran_ref, "cart_id": cart_id, "cart_currency": "EGP", "cart_amount": "45000.00",
        "tran_currency": "EGP", "tran_total": "45000.00", "tran_type": "Sale",
        "payment_result": {"response_status": "A", "response_code": "G1", "response_message": "Authorised"}
    }))
    .unwrap();
    let signature = api::payments::paytabs::sign(PAYTABS_KEY, &body);
    for _ in 0..5 {
        let r = reqwest::Client::new()
            .post(app.url("/api/payments/paytabs/callback"))
            .header("Content-Type", "application/json")
            .header("Signature", &signature)
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
    }
    assert_eq!(credits(&app, MONA).await, (4, 0, 4));
    assert_eq!(ledger_rows(&app, "engagement_grant").await, 1);
    // The dashboard says where the credits come from.
    let dashboard: Value = app
        .get_as(&mona, "/api/dashboard")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        dashboard["sponsored"][0]["sponsor"], "Nile Pharma",
        "{dashboard}"
    );
    assert_eq!(dashboard["sponsored"][0]["remaining"], 4);
    // Paid twice by transfer: refused, nothing changes.
    let id = e["invoice"]["id"].as_str().unwrap();
    let (status, error) = error_of(
        app.post_as(
            &boss,
            &format!("/api/admin/invoices/{id}/mark-paid"),
            json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (409, Some("This invoice is already paid"))
    );
    assert_eq!(credits(&app, MONA).await, (4, 0, 4));
    // The accounting CSV has the invoice's payment, once.
    let today = chrono::Utc::now().date_naive();
    let (from, to) = (
        today - chrono::Duration::days(2),
        today + chrono::Duration::days(2),
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
    let invoice_rows: Vec<&str> = csv
        .lines()
        .filter(|l| l.starts_with("invoice_payment,"))
        .collect();
    assert_eq!(invoice_rows.len(), 1, "{csv}");
    assert!(invoice_rows[0].contains("Nile Pharma") && invoice_rows[0].contains("45000.00"));
    assert!(invoice_rows[0].contains("invoice_paytabs") && invoice_rows[0].ends_with("INV-000001"));
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn an_invited_executive_joins_on_confirming_their_email_and_receives_the_released_credits() {
    let app = spawn_app().await;
    let (boss, _, _, e) = setup(&app).await;
    let id = e["invoice"]["id"].as_str().unwrap();
    let r = app
        .post_as(
            &boss,
            &format!("/api/admin/invoices/{id}/mark-paid"),
            json!({"bankReference": "NBE-7781"}),
        )
        .await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    let invoice: Value = r.json().await.unwrap();
    assert_eq!(
        (invoice["status"].as_str(), invoice["paidVia"].as_str()),
        (Some("paid"), Some("transfer"))
    );

    let salma = new_client();
    assert_eq!(app.sign_up(&salma, INVITED).await.status(), 201);
    // Signed up, not yet confirmed: not joined (someone else could have typed the address).
    assert_eq!(credits(&app, INVITED).await, (0, 0, 0));
    let mail = app.mail.wait_for(INVITED, "Confirm your email").await;
    let link = mail.link(&format!("{}/api/auth/confirm?token=", app.base));
    assert_eq!(salma.get(&link).send().await.unwrap().status(), 303);
    assert_eq!(credits(&app, INVITED).await, (2, 0, 2));
    let detail: Value = app
        .get_as(
            &boss,
            &format!("/api/admin/engagements/{}", e["id"].as_str().unwrap()),
        )
        .await
        .json()
        .await
        .unwrap();
    let joined: Vec<bool> = detail["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["joined"].as_bool().unwrap())
        .collect();
    assert_eq!(joined, [true, true]);
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn pool_splits_and_moves_are_bounded_need_a_reason_and_stay_inside_the_engagement() {
    let app = spawn_app().await;
    let (boss, _, _, e) = setup(&app).await;
    let karim = client(&app, KARIM).await;
    drop(karim);
    let outsider = client(&app, "outsider@example.com").await;
    drop(outsider);
    let (mona_id, karim_id, outsider_id) = (
        user_id(&app, MONA).await,
        user_id(&app, KARIM).await,
        user_id(&app, "outsider@example.com").await,
    );
    let eid = e["id"].as_str().unwrap();
    // Release on credit: the invoice stays open.
    let released: Value = app
        .post_as(
            &boss,
            &format!("/api/admin/engagements/{eid}/release"),
            json!({}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(released["released"], true);
    assert_eq!(released["invoice"]["status"], "draft");
    assert_eq!(credits(&app, MONA).await, (4, 0, 4));
    let again = app
        .post_as(
            &boss,
            &format!("/api/admin/engagements/{eid}/release"),
            json!({}),
        )
        .await;
    assert_eq!(again.status(), 409);

    // The pool holds 4: 5 is refused, 3 is given (at once, since the credits are released).
    let allocate = format!("/api/admin/engagements/{eid}/allocate");
    let (status, error) = error_of(
        app.post_as(
            &boss,
            &allocate,
            json!({"clientId": karim_id, "credits": 5}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, error["fields"]["credits"].as_str()),
        (422, Some("Only 4 credits are left in the pool"))
    );
    let r = app
        .post_as(
            &boss,
            &allocate,
            json!({"clientId": karim_id, "credits": 3}),
        )
        .await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    assert_eq!(credits(&app, KARIM).await, (3, 0, 3));

    let moves = format!("/api/admin/engagements/{eid}/move");
    for (body, field, message) in [
        (
            json!({"fromClientId": mona_id, "toClientId": karim_id, "credits": 1}),
            "reason",
            "A reason is required",
        ),
        (
            json!({"fromClientId": mona_id, "toClientId": outsider_id, "credits": 1, "reason": "x"}),
            "toClientId",
            "This client is not in the engagement",
        ),
        (
            json!({"fromClientId": mona_id, "toClientId": karim_id, "credits": 5, "reason": "x"}),
            "credits",
            "Mona Adel has only 4 unused credits from this engagement",
        ),
    ] {
        let (status, error) = error_of(app.post_as(&boss, &moves, body).await).await;
        assert_eq!(
            (status, error["fields"][field].as_str()),
            (422, Some(message)),
            "{error}"
        );
    }
    assert_eq!(
        credits(&app, MONA).await,
        (4, 0, 4),
        "refused moves change nothing"
    );
    assert_eq!(credits(&app, "outsider@example.com").await, (0, 0, 0));

    let r = app
        .post_as(&boss, &moves, json!({"fromClientId": mona_id, "toClientId": karim_id, "credits": 2, "reason": "Mona's role changed"}))
        .await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    let after: Value = r.json().await.unwrap();
    assert_eq!(after["moves"][0]["reason"], "Mona's role changed");
    assert_eq!(credits(&app, MONA).await, (2, 0, 2));
    assert_eq!(credits(&app, KARIM).await, (5, 0, 5));
    // The ledger shows the move on both sides, with its reason.
    let notes: Vec<String> = sqlx::query_scalar(
        "SELECT note FROM credit_ledger WHERE kind = 'engagement_move' ORDER BY delta_total",
    )
    .fetch_all(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(notes, ["Mona's role changed", "Mona's role changed"]);
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn an_archived_sponsor_gets_no_new_engagement_and_bad_sponsor_fields_are_named() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let (status, error) = error_of(
        app.post_as(
            &boss,
            "/api/admin/sponsors",
            json!({"name": "", "contactEmail": "nope", "taxId": "12"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(error["fields"]["name"], "Company name is required");
    assert_eq!(
        error["fields"]["contactName"],
        "Billing contact name is required"
    );
    assert_eq!(error["fields"]["contactEmail"], "Invalid email address");
    assert_eq!(
        error["fields"]["taxId"],
        "Enter the 9-digit tax registration number"
    );

    let s = sponsor(&app, &boss, "Delta Foods", "ap@deltafoods.example").await;
    let id = s["id"].as_str().unwrap();
    assert_eq!(
        app.post_as(
            &boss,
            &format!("/api/admin/sponsors/{id}/archive"),
            json!({})
        )
        .await
        .status(),
        200
    );
    let r = app
        .post_as(&boss, "/api/admin/engagements", json!({
            "sponsorId": id, "title": "Another", "credits": 5, "price": "1000", "validityMonths": 6,
            "startsOn": "2026-12-01", "members": []
        }))
        .await;
    let (status, error) = error_of(r).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (409, Some("This sponsor is archived"))
    );
    // Members' credits over the engagement's are refused too, naming the field.
    let live = sponsor(&app, &boss, "Cairo Cement", "ap@cairocement.example").await;
    let mona = client(&app, MONA).await;
    drop(mona);
    let r = app
        .post_as(&boss, "/api/admin/engagements", json!({
            "sponsorId": live["id"], "title": "Too many", "credits": 3, "price": "1000", "validityMonths": 6,
            "startsOn": "2026-12-01", "members": [{"clientId": user_id(&app, MONA).await, "credits": 4}]
        }))
        .await;
    let (status, error) = error_of(r).await;
    assert_eq!(status, 422);
    assert_eq!(
        error["fields"]["members"],
        "The executives' credits add up to more than the engagement's"
    );
    let engagements: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM engagements")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(engagements, 0, "nothing written");
    // A client never reaches the admin's sponsors.
    let c = client(&app, "nosy@example.com").await;
    assert_eq!(app.get_as(&c, "/api/admin/sponsors").await.status(), 403);
}

#[tokio::test]
async fn the_report_shows_only_its_sponsors_executives_and_nothing_private_and_dies_when_revoked() {
    let app = spawn_app().await;
    let (boss, _, s, e) = setup(&app).await;
    // Another sponsor with Karim.
    let _karim = client(&app, KARIM).await;
    sqlx::query("UPDATE profiles SET full_name = 'Karim Said' WHERE email = $1")
        .bind(KARIM)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let other = sponsor(&app, &boss, "Delta Foods", "ap@deltafoods.example").await;
    engagement(
        &app,
        &boss,
        other["id"].as_str().unwrap(),
        &user_id(&app, KARIM).await,
    )
    .await;
    let eid = e["id"].as_str().unwrap();
    app.post_as(
        &boss,
        &format!("/api/admin/engagements/{eid}/release"),
        json!({}),
    )
    .await;
    // Mona's session, booked with the engagement's credit, with private notes.
    let mona_id = user_id(&app, MONA).await;
    let lot: String = sqlx::query_scalar("SELECT id FROM credit_lots WHERE user_id = $1")
        .bind(&mona_id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let when = api::domain::ts(chrono::Utc::now() + chrono::Duration::days(3));
    sqlx::query(
        "INSERT INTO bookings (id, client_id, session_date, status, created_at, session_notes, source, credit_debited, credit_lot_id)
         VALUES ('b1', $1, $2, 'confirmed', $2, 'Discussed the divorce', 'admin', 0, $3)",
    )
    .bind(&mona_id)
    .bind(&when)
    .bind(&lot)
    .execute(&app.state.db.pool)
    .await
    .unwrap();

    let sid = s["id"].as_str().unwrap();
    let link: Value = app
        .post_as(
            &boss,
            &format!("/api/admin/sponsors/{sid}/report-links"),
            json!({"days": 7}),
        )
        .await
        .json()
        .await
        .unwrap();
    let token = token_of(link["url"].as_str().unwrap());
    // No account needed.
    let r = new_client()
        .get(app.url(&format!("/api/sponsor-reports/{token}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    let report: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = report["executives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Mona Adel"],
        "only this sponsor's joined executives"
    );
    assert_eq!(
        report["executives"][0]["upcomingSessions"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    for private in [
        "divorce",
        "Renewal talks",
        KARIM,
        "Karim",
        "Delta Foods",
        "meet.google",
    ] {
        assert!(
            !text.contains(private),
            "the report leaks {private}: {text}"
        );
    }
    let csv = new_client()
        .get(app.url(&format!("/api/sponsor-reports/{token}/csv")))
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), 200);
    assert!(
        csv.text()
            .await
            .unwrap()
            .contains("Mona Adel,Leadership programme 2027,4,0,4")
    );

    // Another sponsor's link does not open this one's report, a tampered token opens nothing.
    let other_link: Value = app
        .post_as(
            &boss,
            &format!(
                "/api/admin/sponsors/{}/report-links",
                other["id"].as_str().unwrap()
            ),
            json!({}),
        )
        .await
        .json()
        .await
        .unwrap();
    let other_report: Value = new_client()
        .get(app.url(&format!(
            "/api/sponsor-reports/{}",
            token_of(other_link["url"].as_str().unwrap())
        )))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(other_report["sponsor"], "Delta Foods");
    assert!(!other_report.to_string().contains("Mona"), "{other_report}");
    assert_eq!(other_report["executives"][0]["name"], "Karim Said");
    let mut tampered = token.clone();
    let last = tampered.pop().unwrap();
    tampered.push(if last == '0' { '1' } else { '0' });
    let (status, error) = error_of(
        new_client()
            .get(app.url(&format!("/api/sponsor-reports/{tampered}")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (
            404,
            Some("This report link is not valid, has expired or was revoked")
        )
    );

    // Revoked: the link opens nothing any more.
    let revoke = app
        .post_as(
            &boss,
            &format!(
                "/api/admin/report-links/{}/revoke",
                link["id"].as_str().unwrap()
            ),
            json!({}),
        )
        .await;
    assert_eq!(revoke.status(), 200);
    let r = new_client()
        .get(app.url(&format!("/api/sponsor-reports/{token}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn an_invoice_link_opens_only_its_invoice_and_a_tampered_one_nothing() {
    let app = spawn_app().await;
    let (_, _, _, e) = setup(&app).await;
    let token = token_of(e["invoice"]["payUrl"].as_str().unwrap());
    let invoice: Value = new_client()
        .get(app.url(&format!("/api/invoices/by-token/{token}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(invoice["sponsor"]["name"], "Nile Pharma");
    assert_eq!(invoice["business"]["name"], "Nadine Kamel Coaching LLC");
    assert!(
        !invoice.to_string().contains("Renewal talks"),
        "the admin's notes stay private"
    );
    // A draft cannot be paid yet.
    let r = new_client()
        .post(app.url(&format!("/api/invoices/by-token/{token}/pay")))
        .header("Origin", &app.base)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 409);
    let id = e["invoice"]["id"].as_str().unwrap();
    let forged = format!("{id}.{}", "ab".repeat(32));
    let r = new_client()
        .get(app.url(&format!("/api/invoices/by-token/{forged}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
}

/// Pay asks PayTabs' Invoices API for the invoice once: the same link every time, a declined
/// try leaves it open, and voiding ours cancels PayTabs' so its link takes nothing more.
#[tokio::test]
async fn the_invoice_is_paid_through_the_one_paytabs_invoice_link_and_voiding_cancels_it() {
    let app = spawn_app().await;
    let (boss, _, _, e) = setup(&app).await;
    let id = e["invoice"]["id"].as_str().unwrap();
    let sent = app
        .post_as(&boss, &format!("/api/admin/invoices/{id}/send"), json!({}))
        .await;
    assert_eq!(sent.status(), 200);
    let token = token_of(e["invoice"]["payUrl"].as_str().unwrap());
    let pay = || async {
        let r = new_client()
            .post(app.url(&format!("/api/invoices/by-token/{token}/pay")))
            .header("Origin", &app.base)
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json::<Value>().await.unwrap())
    };
    let (status, first) = pay().await;
    assert_eq!(status, 200, "{first}");
    let link = first["redirectUrl"].as_str().unwrap().to_string();
    assert!(link.contains("/payment/invoice/"), "{link}");
    assert_eq!(
        pay().await.1["redirectUrl"],
        link.as_str(),
        "one PayTabs invoice"
    );
    // PayTabs lists the invoice's line and its total.
    let page = reqwest::get(&link).await.unwrap().text().await.unwrap();
    assert!(
        page.contains("10 coaching sessions: Leadership programme 2027"),
        "{page}"
    );
    assert!(page.contains("45000.00 EGP"), "{page}");

    // Declined: nothing is paid and the link still takes a payment.
    let (action, fields) = press(&link, "decline").await;
    let landing = post_return(&action, &fields).await;
    assert!(!landing.ends_with("&paid=1"), "{landing}");
    let mona_id = user_id(&app, MONA).await;
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));

    // A second sponsor's invoice is voided before it is paid: PayTabs' link dies with it.
    let other = sponsor(&app, &boss, "Delta Foods", "ap@deltafoods.example").await;
    let e2 = engagement(&app, &boss, other["id"].as_str().unwrap(), &mona_id).await;
    let id2 = e2["invoice"]["id"].as_str().unwrap();
    app.post_as(&boss, &format!("/api/admin/invoices/{id2}/send"), json!({}))
        .await;
    let token2 = token_of(e2["invoice"]["payUrl"].as_str().unwrap());
    let r: Value = new_client()
        .post(app.url(&format!("/api/invoices/by-token/{token2}/pay")))
        .header("Origin", &app.base)
        .json(&json!({}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let link2 = r["redirectUrl"].as_str().unwrap().to_string();
    let voided = app
        .post_as(&boss, &format!("/api/admin/invoices/{id2}/void"), json!({}))
        .await;
    assert_eq!(voided.status(), 200, "{}", voided.text().await.unwrap());
    let dead = reqwest::Client::new()
        .post(&link2)
        .form(&[("action", "approve")])
        .send()
        .await
        .unwrap();
    assert_eq!(dead.status(), 410, "PayTabs' invoice was cancelled");
    // Even a signed approval for the void invoice's cart (had PayTabs' cancel failed) releases
    // nothing.
    let cart: String = sqlx::query_scalar("SELECT cart_id FROM invoices WHERE id = $1")
        .bind(id2)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let body = serde_json::to_vec(&json!({
        "tran_ref": "TST0000000000077", "cart_id": cart, "cart_currency": "EGP", "cart_amount": "45000.00",
        "tran_currency": "EGP", "tran_total": "45000.00", "tran_type": "Sale",
        "payment_result": {"response_status": "A", "response_code": "G1", "response_message": "Authorised"}
    }))
    .unwrap();
    let r = app.paytabs_callback(body).await;
    assert_eq!(r.status(), 200);
    assert_eq!(credits(&app, MONA).await, (0, 0, 0));
    let (status, error) = error_of(
        new_client()
            .post(app.url(&format!("/api/invoices/by-token/{token2}/pay")))
            .header("Origin", &app.base)
            .json(&json!({}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (409, Some("This invoice is void"))
    );

    // The first invoice, paid on its link at last: the credits arrive once.
    let (action, fields) = press(&link, "approve").await;
    let landing = post_return(&action, &fields).await;
    assert!(landing.ends_with("&paid=1"), "{landing}");
    assert_eq!(credits(&app, MONA).await, (4, 0, 4));
    let again = reqwest::Client::new()
        .post(&link)
        .form(&[("action", "approve")])
        .send()
        .await
        .unwrap();
    assert_eq!(
        again.status(),
        409,
        "a paid PayTabs invoice takes nothing more"
    );
    assert_ledger_verifies(&app).await;
}

/// Migration 0012 rebuilds the ledger and the lots (SQLite cannot change a CHECK constraint):
/// a database with credits, lots, their moves and extensions keeps every row.
#[tokio::test]
async fn the_sponsors_migration_keeps_every_credit_lot_move_and_extension() {
    use std::borrow::Cow;
    let (url, _dir) = crate::support::fresh_database().await;
    let db = api::db::Db::connect(&url).await.unwrap();
    let before_0012: Vec<_> = api::db::MIGRATOR
        .iter()
        .filter(|m| m.version < 12)
        .cloned()
        .collect();
    let old = sqlx::migrate::Migrator {
        migrations: Cow::Owned(before_0012),
        ..sqlx::migrate::Migrator::DEFAULT
    };
    old.run(&db.pool).await.unwrap();
    for sql in [
        "INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ('u1', 'a@example.com', 'x', 't', 't')",
        "INSERT INTO client_accounts (user_id, total_credits, used_credits, available_credits, updated_at) VALUES ('u1', 5, 1, 4, 't')",
        "INSERT INTO credit_ledger (id, user_id, kind, delta_total, delta_used, external_ref, note, created_at) VALUES ('g1', 'u1', 'purchase', 5, 0, 'paytabs:T1', NULL, 't')",
        "INSERT INTO credit_ledger (id, user_id, kind, delta_total, delta_used, external_ref, note, created_at) VALUES ('g2', 'u1', 'booking_debit', 0, 1, 'booking:b1', NULL, 't')",
        "INSERT INTO credit_lots (id, user_id, source, source_ref, payment_record_id, granted, remaining, expires_on, expires_at, created_at) VALUES ('l1', 'u1', 'purchase', 'paytabs:T1', NULL, 5, 4, '2027-01-01', '2027-01-01T22:00:00Z', 't')",
        "INSERT INTO credit_lot_moves (id, ledger_id, lot_id, delta, created_at) VALUES ('m1', 'g1', 'l1', 5, 't')",
        "INSERT INTO credit_lot_moves (id, ledger_id, lot_id, delta, created_at) VALUES ('m2', 'g2', 'l1', -1, 't')",
        "INSERT INTO credit_lot_extensions (id, lot_id, old_expires_on, new_expires_on, reason, created_at) VALUES ('x1', 'l1', '2026-12-01', '2027-01-01', 'Travel', 't')",
    ] {
        sqlx::query(sql).execute(&db.pool).await.unwrap();
    }
    db.migrate().await.unwrap();
    let count = |table: &'static str| {
        let pool = db.pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {table}"))
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    assert_eq!(count("credit_ledger").await, 2);
    assert_eq!(count("credit_lots").await, 1);
    assert_eq!(count("credit_lot_moves").await, 2);
    assert_eq!(count("credit_lot_extensions").await, 1);
    let (remaining, source): (i64, String) =
        sqlx::query_as("SELECT remaining, source FROM credit_lots WHERE id = 'l1'")
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!((remaining, source.as_str()), (4, "purchase"));
    let (mismatches, lots) = api::domain::credits::verify(&db.pool).await.unwrap();
    assert!(
        mismatches.is_empty() && lots.is_empty(),
        "{mismatches:?} {lots:?}"
    );
    // The rebuilt tables still cascade and refuse what they refused.
    let duplicate = sqlx::query("INSERT INTO credit_ledger (id, user_id, kind, delta_total, delta_used, external_ref, created_at) VALUES ('g3', 'u1', 'purchase', 1, 0, 'paytabs:T1', 't')")
        .execute(&db.pool)
        .await;
    assert!(duplicate.is_err(), "the ledger's reference stays unique");
}
