//! A booking uses a credit only with proof of who the client is (docs/ARCHITECTURE.md, decision 7):
//! without the signed reference of /book-session it "needs attention" (pending, no credit,
//! no client) until the admin assigns or cancels it, or the client whose confirmed email the
//! invitee typed uses a credit for it or says it was not them.

use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};

use crate::bookings::{
    balance, client_with_credits, deliver, from_book_session, invitee_uri, payload, reference,
};
use crate::support::{TestApp, admin_client, error_of, new_client, spawn_app};

fn soon() -> DateTime<Utc> {
    Utc::now() + Duration::days(3)
}

const COACH: &str = "hello@coach.example.com";

#[derive(sqlx_macros::FromRow, Debug, PartialEq)]
struct Row {
    id: String,
    status: String,
    client_id: Option<String>,
    credit_debited: i64,
    invitee_email: Option<String>,
    invitee_name: Option<String>,
}

async fn booking(app: &TestApp, n: &str) -> Row {
    sqlx::query_as("SELECT id, status, client_id, credit_debited, invitee_email, invitee_name FROM bookings WHERE calendly_invitee_uri = $1")
        .bind(invitee_uri(n))
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

async fn ledger_rows(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM credit_ledger WHERE kind <> 'admin_adjustment'")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

/// Confirms the account's email through the link of the confirmation email.
async fn confirm_email(app: &TestApp, email: &str) {
    let mail = app.mail.wait_for(email, "Confirm your email").await;
    let link = mail.link(&format!("{}/api/auth/confirm?token=", app.base));
    let r = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(link)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 303);
}

async fn dashboard(app: &TestApp, c: &reqwest::Client) -> Vec<Value> {
    let d: Value = c
        .get(app.url("/api/dashboard"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    d["upcomingSessions"].as_array().unwrap().clone()
}

async fn needs_attention(app: &TestApp, boss: &reqwest::Client) -> Vec<Value> {
    let r = boss
        .get(app.url("/api/admin/bookings/needs-attention"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    r.json().await.unwrap()
}

#[tokio::test]
async fn a_booking_without_a_valid_reference_debits_nobody_and_needs_attention() {
    let app = spawn_app().await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 2).await;
    let forged_elsewhere = api::scheduling::calendly::client_reference("another-secret", &mona);
    let tampered = format!("{}x", reference(&mona));
    let stranger_ref = reference("0123456789abcdef0123456789abcdef");
    // Her email typed in the public form, with no reference, a forged one, a tampered one, and
    // one properly signed for an id that is nobody.
    let cases = [
        ("none", json!({})),
        (
            "forged",
            json!({"tracking": {"utm_content": forged_elsewhere}}),
        ),
        ("tampered", json!({"tracking": {"utm_content": tampered}})),
        ("nobody", json!({"tracking": {"utm_content": stranger_ref}})),
    ];
    for (n, extra) in &cases {
        let body = payload(
            "invitee.created",
            n,
            "mona@example.com",
            soon(),
            extra.clone(),
        );
        for _ in 0..3 {
            assert_eq!(
                deliver(&app, &body).await,
                200,
                "{n}: a replay is acknowledged"
            );
        }
        let row = booking(&app, n).await;
        assert_eq!(
            (
                row.status.as_str(),
                row.client_id.as_deref(),
                row.credit_debited
            ),
            ("pending", None, 0),
            "{n}"
        );
        assert_eq!(row.invitee_email.as_deref(), Some("mona@example.com"));
        assert_eq!(row.invitee_name.as_deref(), Some("Mona Adel"));
    }
    assert_eq!(balance(&app, &mona).await, (2, 0, 2), "nobody was debited");
    assert_eq!(ledger_rows(&app).await, 0);
    let alert = app
        .mail
        .wait_for(COACH, "Booking needs attention: Mona Adel")
        .await;
    assert!(
        alert.text().contains("nothing proves who the client is"),
        "{}",
        alert.text()
    );
    // She got no "Session confirmed" for a session she may never have booked.
    let to_her: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM email_outbox WHERE to_address = 'mona@example.com' AND subject LIKE 'Session%'",
    )
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(to_her, 0);

    let boss = admin_client(&app, "boss@coach.example.com").await;
    let listed = needs_attention(&app, &boss).await;
    assert_eq!(listed.len(), 4);
    assert!(listed.iter().all(|b| b["status"] == "pending"
        && b["clientId"].is_null()
        && b["clientEmail"] == "mona@example.com"));
    crate::support::assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn assign_debits_one_credit_once_and_refuses_without_a_credit() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let (_, omar) = client_with_credits(&app, "omar@example.com", 0).await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 1).await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "1",
            "mona.personal@example.com",
            soon(),
            json!({}),
        ),
    )
    .await;
    let id = booking(&app, "1").await.id;
    let assign = format!("/api/admin/bookings/{id}/assign");

    let (status, error) = error_of(app.post_as(&boss, &assign, json!({})).await).await;
    assert_eq!(
        (status, error["fields"]["clientId"].as_str()),
        (422, Some("Please select a client"))
    );
    let (status, error) = error_of(
        app.post_as(
            &boss,
            &assign,
            json!({"clientId": "0123456789abcdef0123456789abcdef"}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (status, error["message"].as_str()),
        (404, Some("Client not found"))
    );
    let (status, error) =
        error_of(app.post_as(&boss, &assign, json!({"clientId": omar})).await).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (409, Some("Insufficient Credits"))
    );
    assert_eq!(booking(&app, "1").await.status, "pending", "unchanged");
    assert_eq!(ledger_rows(&app).await, 0, "a refused debit writes nothing");
    let (status, _) = error_of(
        app.post_as(
            &boss,
            "/api/admin/bookings/0123456789abcdef0123456789abcdef/assign",
            json!({"clientId": mona}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 404);

    let r = app.post_as(&boss, &assign, json!({"clientId": mona})).await;
    assert_eq!(r.status(), 200);
    let view: Value = r.json().await.unwrap();
    assert_eq!(view["status"], "confirmed");
    assert_eq!(view["clientId"], mona.as_str());
    assert_eq!(view["clientName"], "Mona Adel");
    assert_eq!(view["clientEmail"], "mona@example.com");
    assert_eq!(balance(&app, &mona).await, (1, 1, 0));
    app.mail
        .wait_for("mona@example.com", "Session confirmed")
        .await;
    // Replayed: the booking as it is, nothing used twice; another client: refused.
    for _ in 0..2 {
        let r = app.post_as(&boss, &assign, json!({"clientId": mona})).await;
        assert_eq!(r.status(), 200);
    }
    let (status, _) = error_of(app.post_as(&boss, &assign, json!({"clientId": omar})).await).await;
    assert_eq!(status, 409);
    assert_eq!(balance(&app, &mona).await, (1, 1, 0));
    assert_eq!(balance(&app, &omar).await, (0, 0, 0));
    assert_eq!(ledger_rows(&app).await, 1);
    assert!(needs_attention(&app, &boss).await.is_empty());

    // The assigned booking is rescheduled on Calendly: the credit follows the new time.
    deliver(
        &app,
        &payload(
            "invitee.canceled",
            "1",
            "mona.personal@example.com",
            soon(),
            json!({"rescheduled": true, "new_invitee": invitee_uri("2")}),
        ),
    )
    .await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "2",
            "mona.personal@example.com",
            soon() + Duration::days(1),
            json!({"old_invitee": invitee_uri("1")}),
        ),
    )
    .await;
    let new = booking(&app, "2").await;
    assert_eq!(
        (
            new.status.as_str(),
            new.client_id.as_deref(),
            new.credit_debited
        ),
        ("confirmed", Some(mona.as_str()), 1)
    );
    assert_eq!(booking(&app, "1").await.status, "cancelled");
    assert_eq!(balance(&app, &mona).await, (1, 1, 0));
    crate::support::assert_ledger_verifies(&app).await;
}

/// Through the Calendly stand-in's public page, as a visitor books without a reference.
#[tokio::test]
async fn an_admin_cancel_of_a_booking_that_needs_attention_cancels_it_in_calendly_and_moves_no_credit()
 {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 1).await;
    let visitor = new_client();
    let page = visitor
        .get(app.url("/calendly-standin/book"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200, "the public page needs no reference");
    let html = page.text().await.unwrap();
    let slot = html
        .split("name=\"start\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a free slot")
        .to_string();
    let booked = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .post(app.url("/calendly-standin/book"))
        .form(&[
            ("name", "Somebody"),
            ("email", "mona@example.com"),
            ("utm_content", ""),
            ("start", slot.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(booked.status(), 303, "booked");
    let listed = needs_attention(&app, &boss).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["clientName"], "Somebody");
    let id = listed[0]["id"].as_str().unwrap().to_string();
    assert_eq!(balance(&app, &mona).await, (1, 0, 1));

    let cancel = format!("/api/admin/bookings/{id}/cancel");
    let r = app.post_as(&boss, &cancel, json!({})).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "cancelled");
    // Calendly cancelled the event: its own cancel webhook comes back (wait up to 20 s).
    let mut webhooks = 0;
    for _ in 0..400 {
        webhooks = sqlx::query_scalar(
            "SELECT COUNT(*) FROM webhook_events WHERE event_key LIKE 'invitee.canceled%'",
        )
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
        if webhooks > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(webhooks, 1, "Calendly cancelled the event");
    let (status, _) = error_of(app.post_as(&boss, &cancel, json!({})).await).await;
    assert_eq!(status, 409, "nothing more to cancel");
    let assign = format!("/api/admin/bookings/{id}/assign");
    let (status, _) = error_of(app.post_as(&boss, &assign, json!({"clientId": mona})).await).await;
    assert_eq!(status, 409, "a cancelled booking cannot be assigned");
    assert_eq!(balance(&app, &mona).await, (1, 0, 1), "no credit moved");
    assert_eq!(ledger_rows(&app).await, 0);
    crate::support::assert_ledger_verifies(&app).await;
}

#[tokio::test]
async fn only_the_client_whose_email_it_is_may_claim_or_disown_it() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let (mona_c, mona) = client_with_credits(&app, "mona@example.com", 1).await;
    let (omar_c, omar) = client_with_credits(&app, "omar@example.com", 5).await;
    for n in ["a", "b"] {
        deliver(
            &app,
            &payload("invitee.created", n, "mona@example.com", soon(), json!({})),
        )
        .await;
    }
    let (a, b) = (booking(&app, "a").await.id, booking(&app, "b").await.id);
    let claim = |id: &str| format!("/api/bookings/{id}/claim");
    let disown = |id: &str| format!("/api/bookings/{id}/disown");

    // Her email is not confirmed yet: nothing links the booking to her account.
    assert!(dashboard(&app, &mona_c).await.is_empty());
    let (status, _) = error_of(app.post_as(&mona_c, &claim(&a), json!({})).await).await;
    assert_eq!(status, 404);
    confirm_email(&app, "mona@example.com").await;
    confirm_email(&app, "omar@example.com").await;

    let shown = dashboard(&app, &mona_c).await;
    assert_eq!(shown.len(), 2);
    for s in &shown {
        assert_eq!(s["status"], "pending");
        assert_eq!(
            (s["canClaim"].as_bool(), s["canDisown"].as_bool()),
            (Some(true), Some(true))
        );
        assert!(
            s["googleMeetLink"].is_null() && s["cancelUrl"].is_null(),
            "not hers yet: {s}"
        );
    }
    assert!(dashboard(&app, &omar_c).await.is_empty(), "not omar's");

    // Anyone else: signed out 401; another client, an admin, a made-up id: 404.
    assert_eq!(
        app.post_as(&new_client(), &claim(&a), json!({}))
            .await
            .status(),
        401
    );
    assert_eq!(
        app.post_as(&new_client(), &disown(&a), json!({}))
            .await
            .status(),
        401
    );
    for (who, c) in [("omar", &omar_c), ("admin", &boss)] {
        for path in [claim(&a), disown(&a)] {
            let (status, _) = error_of(app.post_as(c, &path, json!({})).await).await;
            assert_eq!(status, 404, "{who} {path}");
        }
    }
    for path in [claim("nope"), disown("0123456789abcdef0123456789abcdef")] {
        let (status, _) = error_of(app.post_as(&mona_c, &path, json!({})).await).await;
        assert_eq!(status, 404, "{path}");
    }
    assert_eq!(balance(&app, &omar).await, (5, 0, 5));
    assert_eq!(ledger_rows(&app).await, 0);

    // "Use 1 credit for this session": hers, confirmed, once.
    for _ in 0..3 {
        let r = app.post_as(&mona_c, &claim(&a), json!({})).await;
        assert_eq!(r.status(), 200);
        let s: Value = r.json().await.unwrap();
        assert_eq!(s["status"], "confirmed");
        assert_eq!(s["canClaim"], false);
        assert!(
            s["googleMeetLink"]
                .as_str()
                .unwrap()
                .starts_with("https://meet.google.com/")
        );
    }
    assert_eq!(balance(&app, &mona).await, (1, 1, 0));
    assert_eq!(ledger_rows(&app).await, 1);
    let row = booking(&app, "a").await;
    assert_eq!(
        (row.client_id.as_deref(), row.credit_debited),
        (Some(mona.as_str()), 1)
    );
    app.mail
        .wait_for("mona@example.com", "Session confirmed")
        .await;
    let (status, _) = error_of(app.post_as(&omar_c, &claim(&a), json!({})).await).await;
    assert_eq!(status, 404, "now hers: never another client's");
    let (status, _) = error_of(app.post_as(&mona_c, &disown(&a), json!({})).await).await;
    assert_eq!(status, 404, "hers now: nothing to disown");

    // No credit left for the second.
    let (status, error) = error_of(app.post_as(&mona_c, &claim(&b), json!({})).await).await;
    assert_eq!(
        (status, error["message"].as_str()),
        (409, Some("Insufficient Credits"))
    );
    assert_eq!(booking(&app, "b").await.status, "pending");

    // "This wasn't me": off her dashboard, still the admin's to handle; replays change nothing.
    for _ in 0..2 {
        let r = app.post_as(&mona_c, &disown(&b), json!({})).await;
        assert_eq!(r.status(), 200);
        assert_eq!(r.json::<Value>().await.unwrap()["status"], "disowned");
    }
    let shown = dashboard(&app, &mona_c).await;
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0]["id"], a.as_str());
    let (status, _) = error_of(app.post_as(&mona_c, &claim(&b), json!({})).await).await;
    assert_eq!(status, 404, "disowned: no longer hers to claim");
    let listed = needs_attention(&app, &boss).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["id"], b.as_str());
    assert!(listed[0]["disownedAt"].is_string());
    assert_eq!(balance(&app, &mona).await, (1, 1, 0));
    assert_eq!(balance(&app, &omar).await, (5, 0, 5));
    crate::support::assert_ledger_verifies(&app).await;
}

/// A client proven by the reference but without a credit at the time: pending, theirs, and
/// claimable once they have one (never disownable: the reference says they booked it).
#[tokio::test]
async fn a_verified_booking_without_a_credit_is_claimed_once_a_credit_is_there() {
    let app = spawn_app().await;
    let (c, mona) = client_with_credits(&app, "mona@example.com", 0).await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "1",
            "mona@example.com",
            soon(),
            from_book_session(&mona, json!({})),
        ),
    )
    .await;
    let row = booking(&app, "1").await;
    assert_eq!(
        (
            row.status.as_str(),
            row.client_id.as_deref(),
            row.credit_debited
        ),
        ("pending", Some(mona.as_str()), 0)
    );
    let shown = dashboard(&app, &c).await;
    assert_eq!(shown.len(), 1, "hers, with or without a confirmed email");
    assert_eq!(
        (
            shown[0]["canClaim"].as_bool(),
            shown[0]["canDisown"].as_bool()
        ),
        (Some(true), Some(false))
    );
    let claim = format!("/api/bookings/{}/claim", row.id);
    let (status, _) = error_of(app.post_as(&c, &claim, json!({})).await).await;
    assert_eq!(status, 409);
    let (status, _) = error_of(
        app.post_as(&c, &format!("/api/bookings/{}/disown", row.id), json!({}))
            .await,
    )
    .await;
    assert_eq!(status, 404);
    let mut tx = app.state.db.pool.begin().await.unwrap();
    api::domain::credits::adjust(
        &mut tx,
        app.state.db.backend,
        &mona,
        1,
        &crate::support::six_months(),
        "grant:late",
        "test",
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let r = app.post_as(&c, &claim, json!({})).await;
    assert_eq!(r.status(), 200);
    assert_eq!(balance(&app, &mona).await, (1, 1, 0));
    crate::support::assert_ledger_verifies(&app).await;
}

/// A disowned booking that its invitee reschedules stays off the client's dashboard.
#[tokio::test]
async fn a_disowned_booking_stays_disowned_when_it_is_rescheduled() {
    let app = spawn_app().await;
    let (c, _) = client_with_credits(&app, "mona@example.com", 1).await;
    confirm_email(&app, "mona@example.com").await;
    deliver(
        &app,
        &payload(
            "invitee.created",
            "1",
            "mona@example.com",
            soon(),
            json!({}),
        ),
    )
    .await;
    let id = booking(&app, "1").await.id;
    let r = app
        .post_as(&c, &format!("/api/bookings/{id}/disown"), json!({}))
        .await;
    assert_eq!(r.status(), 200);
    deliver(
        &app,
        &payload(
            "invitee.created",
            "2",
            "mona@example.com",
            soon() + Duration::days(1),
            json!({"old_invitee": invitee_uri("1")}),
        ),
    )
    .await;
    assert_eq!(booking(&app, "2").await.status, "pending");
    assert!(dashboard(&app, &c).await.is_empty());
}
