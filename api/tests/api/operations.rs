//! The coach's status page (admin -> System, issue 24) and `api doctor`: the webhooks refused
//! with their reason, the mail stuck in the outbox and its Retry through the real SMTP server of
//! the tests, the jobs' last runs, the catalogue loaded, `ledger verify`, the alerts emailed to
//! the coach once per incident, and the checks that name each broken setting with its fix.

use std::time::Duration;

use chrono::Utc;
use serde_json::{Value, json};

use crate::bookings::{deliver_at, payload};
use crate::payments::{callback_for, client, hosted_page, press, send_callback};
use crate::support::{
    CALENDLY_KEY, MailServer, PAYMOB_HMAC, PAYTABS_KEY, TestApp, admin_client, error_of,
    new_client, spawn_app,
};

/// settings.yaml's `coach_email`: the alerts go there.
const COACH: &str = "hello@coach.example.com";

async fn boss(app: &TestApp) -> reqwest::Client {
    admin_client(app, "admin@coach.example.com").await
}

async fn system(app: &TestApp, boss: &reqwest::Client) -> Value {
    let r = app.get_as(boss, "/api/admin/system").await;
    assert_eq!(r.status(), 200);
    r.json().await.unwrap()
}

/// Waits (up to 10 s) until the status page shows what `ready` looks for.
async fn system_until(
    app: &TestApp,
    boss: &reqwest::Client,
    ready: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..100 {
        let view = system(app, boss).await;
        if ready(&view) {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "the status page never showed it: {}",
        system(app, boss).await
    );
}

fn provider<'a>(view: &'a Value, name: &str) -> &'a Value {
    view["webhooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["provider"] == name)
        .unwrap_or_else(|| panic!("no {name} in {view}"))
}

/// The refusals as (provider, outcome, reason), newest first.
fn refusals(view: &Value) -> Vec<(String, String, String)> {
    view["refusals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["provider"].as_str().unwrap().to_string(),
                r["outcome"].as_str().unwrap().to_string(),
                r["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn triple(p: &str, o: &str, r: &str) -> (String, String, String) {
    (p.into(), o.into(), r.into())
}

async fn forged_paytabs_callback(app: &TestApp) -> u16 {
    let (body, _) = callback_for("c_forged", "TST1", "A", "20250.00");
    send_callback(app, &body, "0000").await
}

#[tokio::test]
async fn the_status_page_and_its_actions_are_for_admins_only() {
    let app = spawn_app().await;
    let visitor = new_client();
    let member = client(&app, "mona@example.com").await;
    for who in [&visitor, &member] {
        let (status, _) = error_of(app.get_as(who, "/api/admin/system").await).await;
        assert!(status == 401 || status == 403, "{status}");
        for path in [
            "/api/admin/system/doctor",
            "/api/admin/system/ledger-verify",
            "/api/admin/system/outbox/x/retry",
        ] {
            let (status, _) = error_of(app.post_as(who, path, json!({})).await).await;
            assert!(status == 401 || status == 403, "{path}: {status}");
        }
    }
    assert_eq!(
        error_of(app.get_as(&visitor, "/api/admin/system").await)
            .await
            .0,
        401
    );
    assert_eq!(
        error_of(app.get_as(&member, "/api/admin/system").await)
            .await
            .0,
        403
    );
    // The admin's own browser, from another site: refused before anything runs.
    let admin = boss(&app).await;
    let r = admin
        .post(app.url("/api/admin/system/ledger-verify"))
        .header("Origin", "https://evil.example")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(r).await.0, 403);
}

#[tokio::test]
async fn a_refused_webhook_appears_with_its_reason_and_one_that_gets_through_resets_the_count() {
    let app = spawn_app().await;
    let admin = boss(&app).await;
    let view = system(&app, &admin).await;
    assert_eq!(view["webhooks"], json!([]), "no webhook yet");
    assert_eq!(view["refusals"], json!([]));

    // PayTabs: a forged signature (400), then a signed callback that is not JSON.
    assert_eq!(forged_paytabs_callback(&app).await, 400);
    let garbage = b"not json".to_vec();
    let signed = api::payments::paytabs::sign(PAYTABS_KEY, &garbage);
    assert_eq!(send_callback(&app, &garbage, &signed).await, 400);
    // Paymob: a callback whose HMAC is not Paymob's.
    let r = reqwest::Client::new()
        .post(app.url("/api/payments/paymob/callback?hmac=00"))
        .json(&json!({"type": "TRANSACTION", "obj": {"id": 1}}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    // Calendly: a wrong key, a signature from ten minutes ago, an event we do not handle, and
    // a booking without the client's signed reference.
    let start = Utc::now() + chrono::Duration::days(3);
    let body = payload(
        "invitee.created",
        "S1",
        "stranger@example.com",
        start,
        json!({}),
    );
    let bytes = serde_json::to_vec(&body).unwrap();
    let t = Utc::now().timestamp();
    let r = reqwest::Client::new()
        .post(app.url("/api/webhooks/calendly"))
        .header("Content-Type", "application/json")
        .header(
            "Calendly-Webhook-Signature",
            api::scheduling::calendly::signature_header("not-our-key", t, &bytes),
        )
        .body(bytes)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
    assert_eq!(deliver_at(&app, &body, t - 600).await, 401);
    let no_show = json!({"event": "invitee_no_show.created", "payload": {"uri": "https://api.calendly.com/x/1"}});
    assert_eq!(deliver_at(&app, &no_show, t).await, 200);
    assert_eq!(deliver_at(&app, &body, t).await, 200);

    let view = system_until(&app, &admin, |v| {
        v["refusals"].as_array().unwrap().len() == 7
    })
    .await;
    assert_eq!(
        refusals(&view),
        vec![
            triple("calendly", "ignored", "unknown_client"),
            triple("calendly", "ignored", "unknown_event"),
            triple("calendly", "refused", "stale_signature"),
            triple("calendly", "refused", "bad_signature"),
            triple("paymob", "refused", "bad_signature"),
            triple("paytabs", "refused", "not_json"),
            triple("paytabs", "refused", "bad_signature"),
        ]
    );
    assert_eq!(view["refusals"][1]["detail"], "invitee_no_show.created");
    let paytabs = provider(&view, "paytabs");
    assert_eq!(paytabs["lastOutcome"], "refused");
    assert_eq!(paytabs["lastReason"], "not_json");
    assert_eq!(paytabs["failuresInRow"], 2);
    // A booking that waits for the admin is not a failing webhook.
    assert_eq!(provider(&view, "calendly")["failuresInRow"], 0);
    assert_eq!(provider(&view, "calendly")["lastOutcome"], "ignored");

    // A real purchase: PayTabs' stand-in calls back, signed, and it is applied.
    let c = client(&app, "mona@example.com").await;
    let page = hosted_page(&app, &c).await;
    press(&page, "approve").await;
    let view = system_until(&app, &admin, |v| {
        provider(v, "paytabs")["lastOutcome"] == "applied"
    })
    .await;
    let paytabs = provider(&view, "paytabs");
    assert_eq!(paytabs["failuresInRow"], 0);
    assert_eq!(paytabs["lastReason"], Value::Null);
    assert_eq!(
        refusals(&view).len(),
        7,
        "an applied callback is no refusal"
    );
}

#[tokio::test]
async fn three_failed_webhooks_in_a_row_email_the_coach_once_per_incident() {
    let app = spawn_app().await;
    let admin = boss(&app).await;
    for _ in 0..4 {
        assert_eq!(forged_paytabs_callback(&app).await, 400);
    }
    let alert = app
        .mail
        .wait_for(COACH, "PayTabs webhooks are failing")
        .await;
    assert!(
        alert.text().contains("The last 3 webhooks PayTabs sent"),
        "{}",
        alert.text()
    );
    assert!(
        alert
            .text()
            .contains("its signature does not match our key"),
        "{}",
        alert.text()
    );
    assert!(
        alert.text().contains(&format!("{}/admin#system", app.base)),
        "{}",
        alert.text()
    );
    let view = system(&app, &admin).await;
    assert_eq!(provider(&view, "paytabs")["failuresInRow"], 4);
    assert!(provider(&view, "paytabs")["alertedAt"].is_string());
    // A fifth: still the same incident.
    assert_eq!(forged_paytabs_callback(&app).await, 400);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let alerts = || {
        app.mail
            .received
            .lock()
            .unwrap()
            .iter()
            .filter(|m| m.subject().contains("webhooks are failing"))
            .count()
    };
    assert_eq!(alerts(), 1, "one alert per incident");

    // One gets through (a signed callback, for a cart we do not have): the incident is over.
    let (body, signature) = callback_for("c_not_ours", "TST2", "A", "20250.00");
    assert_eq!(send_callback(&app, &body, &signature).await, 200);
    let view = system(&app, &admin).await;
    assert_eq!(provider(&view, "paytabs")["failuresInRow"], 0);
    assert_eq!(provider(&view, "paytabs")["alertedAt"], Value::Null);
    // Two more failures are not an incident yet; the third is a new one.
    for _ in 0..2 {
        assert_eq!(forged_paytabs_callback(&app).await, 400);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(alerts(), 1);
    assert_eq!(forged_paytabs_callback(&app).await, 400);
    for _ in 0..100 {
        if alerts() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(alerts(), 2, "a new incident, a new alert");
}

/// The outbox row of the newest email to `to`: (id, status, attempts, last error).
async fn outbox_row(app: &TestApp, to: &str) -> (String, String, i64, Option<String>) {
    sqlx::query_as(
        "SELECT id, status, attempts, last_error FROM email_outbox WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1",
    )
    .bind(to)
    .fetch_one(&app.state.db.pool)
    .await
    .unwrap()
}

/// Signs `email` up while the mail server refuses mail to it: its confirmation email is
/// tried once, refused, and waits in the outbox; answers its outbox id.
async fn stuck_confirmation(app: &TestApp, email: &str) -> String {
    app.mail.refuse(email, true);
    assert_eq!(app.sign_up(&new_client(), email).await.status(), 201);
    for _ in 0..100 {
        let (id, status, attempts, error) = outbox_row(app, email).await;
        if attempts >= 1 && error.is_some() {
            assert_eq!(status, "pending");
            return id;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the confirmation to {email} was never tried");
}

#[tokio::test]
async fn a_stuck_email_is_listed_and_retry_sends_it_through_the_mail_server() {
    let app = spawn_app().await;
    let admin = boss(&app).await;
    let id = stuck_confirmation(&app, "stuck@example.com").await;
    let view = system(&app, &admin).await;
    assert_eq!(view["canSendMail"], true);
    let listed = view["outbox"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == id.as_str())
        .unwrap_or_else(|| panic!("{view}"));
    assert_eq!(listed["toAddress"], "stuck@example.com");
    assert!(
        listed["subject"]
            .as_str()
            .unwrap()
            .contains("Confirm your email")
    );
    assert_eq!(listed["status"], "pending");
    assert!(
        listed["lastError"]
            .as_str()
            .unwrap()
            .contains("Mailbox busy"),
        "the mail server's own answer: {listed}"
    );

    // Still refused: Retry says so, and the email stays.
    let retry = format!("/api/admin/system/outbox/{id}/retry");
    let r = app.post_as(&admin, &retry, json!({})).await;
    assert_eq!(r.status(), 200);
    let answer: Value = r.json().await.unwrap();
    assert_eq!(answer["status"], "pending");
    assert!(
        answer["error"].as_str().unwrap().contains("Mailbox busy"),
        "{answer}"
    );
    assert_eq!(
        outbox_row(&app, "stuck@example.com").await.2,
        2,
        "a second try"
    );

    // The mailbox takes mail again: Retry sends it now, through SMTP.
    app.mail.refuse("stuck@example.com", false);
    let r = app.post_as(&admin, &retry, json!({})).await;
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.json::<Value>().await.unwrap(),
        json!({"status": "sent", "error": null})
    );
    let mail = app
        .mail
        .wait_for("stuck@example.com", "Confirm your email")
        .await;
    assert!(mail.text().contains("/auth/confirm"), "{}", mail.text());
    assert_eq!(app.mail.count_to("stuck@example.com"), 1);
    let view = system(&app, &admin).await;
    assert!(
        !view["outbox"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["id"] == id.as_str())
    );
    // Once sent it is not sent again; an unknown id is not found.
    let (status, e) = error_of(app.post_as(&admin, &retry, json!({})).await).await;
    assert_eq!(
        (status, e["message"].as_str().unwrap()),
        (409, "This email was sent already")
    );
    let (status, _) = error_of(
        app.post_as(&admin, "/api/admin/system/outbox/nope/retry", json!({}))
            .await,
    )
    .await;
    assert_eq!(status, 404);

    // A failed one (given up after 8 tries) is listed as failed, and Retry sends it too.
    let id = stuck_confirmation(&app, "given-up@example.com").await;
    sqlx::query("UPDATE email_outbox SET status = 'failed', attempts = 8 WHERE id = $1")
        .bind(&id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    let view = system(&app, &admin).await;
    let failed = view["outbox"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == id.as_str())
        .unwrap();
    assert_eq!(failed["status"], "failed");
    app.mail.refuse("given-up@example.com", false);
    let r = app
        .post_as(
            &admin,
            &format!("/api/admin/system/outbox/{id}/retry"),
            json!({}),
        )
        .await;
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "sent");
    app.mail
        .wait_for("given-up@example.com", "Confirm your email")
        .await;
}

#[tokio::test]
async fn mail_waiting_over_an_hour_emails_the_coach_once_per_incident() {
    let app = spawn_app().await;
    let check = || api::operations::alerts::check_outbox(&app.state);
    let id = stuck_confirmation(&app, "stuck@example.com").await;
    assert_eq!(check().await.unwrap(), 0, "a few seconds is not stuck");
    let two_hours_ago = api::domain::ts(Utc::now() - chrono::Duration::hours(2));
    sqlx::query("UPDATE email_outbox SET created_at = $1 WHERE id = $2")
        .bind(&two_hours_ago)
        .bind(&id)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(check().await.unwrap(), 1);
    let alert = app
        .mail
        .wait_for(COACH, "Emails are stuck in the outbox")
        .await;
    assert!(
        alert
            .text()
            .contains("1 email has waited in the outbox for over an hour"),
        "{}",
        alert.text()
    );
    assert_eq!(check().await.unwrap(), 0, "once per incident");
    assert_eq!(check().await.unwrap(), 0);

    // Sent at last: the incident is over, and the next stuck mail is a new one.
    app.mail.refuse("stuck@example.com", false);
    let admin = boss(&app).await;
    let r = app
        .post_as(
            &admin,
            &format!("/api/admin/system/outbox/{id}/retry"),
            json!({}),
        )
        .await;
    assert_eq!(r.json::<Value>().await.unwrap()["status"], "sent");
    assert_eq!(check().await.unwrap(), 0);
    let again = stuck_confirmation(&app, "stuck-again@example.com").await;
    sqlx::query("UPDATE email_outbox SET created_at = $1 WHERE id = $2")
        .bind(&two_hours_ago)
        .bind(&again)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(check().await.unwrap(), 1);
    let stuck_alerts = app
        .mail
        .received
        .lock()
        .unwrap()
        .iter()
        .filter(|m| m.subject().contains("stuck in the outbox"))
        .count();
    assert!(stuck_alerts >= 1);
    for _ in 0..100 {
        if app
            .mail
            .received
            .lock()
            .unwrap()
            .iter()
            .filter(|m| m.subject().contains("stuck in the outbox"))
            .count()
            == 2
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no second alert");
}

#[tokio::test]
async fn each_jobs_last_run_is_recorded_with_its_outcome() {
    use api::operations::jobs::{Job, run};
    let app = spawn_app().await;
    let admin = boss(&app).await;
    // The minute loops run once as the API starts.
    let view = system_until(&app, &admin, |v| v["jobs"].as_array().unwrap().len() == 7).await;
    let jobs: Vec<&str> = view["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["job"].as_str().unwrap())
        .collect();
    assert_eq!(
        jobs,
        [
            "expiry_sweep",
            "expiry_reminders",
            "session_reminders",
            "complete_sessions",
            "meeting_links",
            "reconciliation",
            "alerts"
        ]
    );
    for j in view["jobs"].as_array().unwrap() {
        assert_eq!(j["outcome"], "ok", "{j}");
        assert_eq!(j["lastOkAt"], j["finishedAt"], "{j}");
        assert_eq!(j["items"], 0, "nothing to do in a new database: {j}");
    }
    let sweep_ok = view["jobs"][0]["finishedAt"].clone();

    // A run that fails is shown with its error; the last good one stays.
    let failed = run(&app.state.db, &app.state.metrics, Job::ExpirySweep, async {
        anyhow::Result::<i64>::Err(anyhow::anyhow!("the database is locked"))
    })
    .await;
    assert!(failed.is_err(), "the job's own result comes back");
    let view = system(&app, &admin).await;
    let sweep = &view["jobs"][0];
    assert_eq!(
        (sweep["outcome"].as_str(), sweep["error"].as_str()),
        (Some("failed"), Some("the database is locked"))
    );
    assert_eq!(sweep["lastOkAt"], sweep_ok);
    assert_eq!(sweep["items"], Value::Null);

    // `api credits expire` from cron is a run of the sweep too.
    let out = tokio::task::spawn_blocking({
        let url = app.database_url.clone();
        move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_api"))
                .args(["credits", "expire"])
                .env("DATABASE_URL", url)
                .env("APP_ENV", "development")
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let view = system(&app, &admin).await;
    assert_eq!(view["jobs"][0]["outcome"], "ok");
    assert_eq!(view["jobs"][0]["error"], Value::Null);
}

#[tokio::test]
async fn the_catalogue_loaded_is_shown_with_when() {
    let app = spawn_app().await;
    let admin = boss(&app).await;
    let view = system_until(&app, &admin, |v| v["catalogue"]["version"].is_string()).await;
    assert_eq!(
        view["catalogue"]["version"],
        app.state.catalogue.current().version.as_str()
    );
    assert!(view["catalogue"]["loadedAt"].as_str().unwrap() <= api::domain::now().as_str());
    assert!(
        view["catalogue"]["source"]
            .as_str()
            .unwrap()
            .ends_with("content")
    );
    assert_eq!(view["catalogue"]["error"], Value::Null);
}

#[tokio::test]
async fn ledger_verify_from_the_page_names_an_account_that_differs() {
    let app = spawn_app().await;
    let admin = boss(&app).await;
    client(&app, "mona@example.com").await;
    let r = app
        .post_as(&admin, "/api/admin/system/ledger-verify", json!({}))
        .await;
    assert_eq!(r.status(), 200);
    let report: Value = r.json().await.unwrap();
    assert_eq!(report["ok"], true, "{report}");
    assert_eq!(report["accountsChecked"], 2, "the admin's and Mona's");
    // Totals written past the ledger (what verify exists to catch).
    let mona = crate::support::user_id(&app, "mona@example.com").await;
    sqlx::query(
        "UPDATE client_accounts SET total_credits = 3, available_credits = 3 WHERE user_id = $1",
    )
    .bind(&mona)
    .execute(&app.state.db.pool)
    .await
    .unwrap();
    let report: Value = app
        .post_as(&admin, "/api/admin/system/ledger-verify", json!({}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(report["ok"], false);
    assert_eq!(report["accounts"].as_array().unwrap().len(), 1);
    let account = &report["accounts"][0];
    assert_eq!(account["userId"], mona.as_str());
    assert_eq!(account["clientName"], "Mona Adel");
    assert_eq!(
        (
            account["totalCredits"].as_i64(),
            account["ledgerTotal"].as_i64()
        ),
        (Some(3), Some(0))
    );
    let (ok, output) = crate::support::ledger_verify_command(&app);
    assert!(
        !ok && output.contains("totals 0/3 used"),
        "the CLI agrees: {output}"
    );
}

/// A check of a report, by name: (status, code).
fn check<'a>(report: &'a Value, name: &str) -> (&'a str, &'a str) {
    let c = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == name)
        .unwrap_or_else(|| panic!("no {name} in {report}"));
    (c["status"].as_str().unwrap(), c["code"].as_str().unwrap())
}

#[tokio::test]
async fn the_page_runs_the_doctors_checks_and_names_a_calendly_subscription_that_stopped() {
    let app = spawn_app().await;
    let admin = boss(&app).await;
    let doctor = || async {
        let r = app
            .post_as(&admin, "/api/admin/system/doctor", json!({}))
            .await;
        assert_eq!(r.status(), 200);
        r.json::<Value>().await.unwrap()
    };
    let report = doctor().await;
    assert_eq!(report["failed"], 0, "{report}");
    assert_eq!(check(&report, "database"), ("ok", "database_ok"));
    assert_eq!(check(&report, "smtp"), ("ok", "smtp_ok_no_login"));
    assert_eq!(check(&report, "paytabs"), ("ok", "paytabs_ok"));
    assert_eq!(check(&report, "paymob"), ("ok", "paymob_ok"));
    assert_eq!(check(&report, "calendly"), ("ok", "calendly_ok"));
    assert_eq!(check(&report, "catalogue"), ("ok", "catalogue_ok"));
    assert_eq!(check(&report, "clock"), ("ok", "clock_ok"));
    let calendly = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "calendly")
        .unwrap();
    assert_eq!(
        calendly["values"]["address"],
        format!("{}/api/webhooks/calendly", app.base)
    );

    app.calendly_standin.set_subscription(Some("disabled"));
    let report = doctor().await;
    assert_eq!(report["failed"], 1);
    assert_eq!(
        check(&report, "calendly"),
        ("failed", "calendly_subscription_disabled")
    );
    app.calendly_standin.set_subscription(None);
    let report = doctor().await;
    assert_eq!(
        check(&report, "calendly"),
        ("failed", "calendly_no_subscription")
    );
    let fix = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "calendly")
        .unwrap()["fix"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        fix.contains("invitee.created") && fix.contains("/api/webhooks/calendly"),
        "{fix}"
    );
}

/// Runs `api doctor` with the tests' settings (the app's database, its stand-ins, `mail`),
/// changed by `changes`: (exit 0, what it printed).
async fn doctor_command(
    app: &TestApp,
    mail: &MailServer,
    changes: &[(&str, &str)],
) -> (bool, String) {
    let base = app.base.clone();
    let mut vars: Vec<(String, String)> = [
        ("APP_ENV", "development".to_string()),
        ("DATABASE_URL", app.database_url.clone()),
        ("PUBLIC_BASE_URL", base.clone()),
        (
            "CONTENT_DIR",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../content").to_string(),
        ),
        ("SMTP_HOST", "127.0.0.1".into()),
        ("SMTP_PORT", mail.port.to_string()),
        ("SMTP_TLS", "none".into()),
        ("SMTP_USERNAME", "coach-mailer".into()),
        ("SMTP_PASSWORD", "right-smtp-password".into()),
        ("PAYTABS_BASE_URL", format!("{base}/paytabs-standin")),
        ("PAYTABS_PROFILE_ID", "4242".into()),
        ("PAYTABS_SERVER_KEY", PAYTABS_KEY.into()),
        ("PAYMOB_BASE_URL", format!("{base}/paymob-standin")),
        ("PAYMOB_SECRET_KEY", "egy_sk_test_apitests".into()),
        ("PAYMOB_PUBLIC_KEY", "egy_pk_test_apitests".into()),
        ("PAYMOB_HMAC_SECRET", PAYMOB_HMAC.into()),
        ("PAYMOB_INTEGRATIONS", "wallet=4751001,kiosk=4751002".into()),
        ("CALENDLY_API_BASE", format!("{base}/calendly-standin/api")),
        ("CALENDLY_TOKEN", "calendly-test-token".into()),
        ("CALENDLY_SIGNING_KEYS", CALENDLY_KEY.into()),
        ("RUST_LOG", "error".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    for (k, v) in changes {
        vars.retain(|(name, _)| name != k);
        vars.push((k.to_string(), v.to_string()));
    }
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_api"))
            .arg("doctor")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs(vars)
            .output()
            .expect("the api binary runs")
    })
    .await
    .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[tokio::test]
async fn api_doctor_passes_when_every_setting_is_right() {
    let app = spawn_app().await;
    let mail = MailServer::start_with_login("coach-mailer", "right-smtp-password").await;
    let (ok, out) = doctor_command(&app, &mail, &[]).await;
    assert!(ok, "{out}");
    for line in [
        "ok      database  ",
        "ok      smtp      The mail server 127.0.0.1:",
        "accepts our login as coach-mailer",
        "ok      paytabs   PayTabs accepts the server key of profile 4242",
        "ok      paymob    Paymob accepts the secret key",
        "ok      calendly  Calendly accepts the token",
        "ok      catalogue ",
        "ok      clock     The clock agrees with 127.0.0.1",
        "every check passed",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    assert!(mail.received.lock().unwrap().is_empty(), "a login, no mail");
}

#[tokio::test]
async fn api_doctor_names_each_broken_setting_with_its_fix_and_no_secret() {
    let app = spawn_app().await;
    let mail = MailServer::start_with_login("coach-mailer", "right-smtp-password").await;
    let (ok, out) = doctor_command(
        &app,
        &mail,
        &[
            ("SMTP_PASSWORD", "wrong-smtp-password"),
            ("PAYTABS_SERVER_KEY", "SWRONGKEY1-WRONGKEY02-WRONGKEY03"),
            ("PAYMOB_SECRET_KEY", "egy_sk_test_wrong_key"),
            ("CALENDLY_TOKEN", "wrong-calendly-token"),
            (
                "CATALOGUE_URL",
                &format!("{}/no-such-site/catalogue.json", app.base),
            ),
        ],
    )
    .await;
    assert!(!ok, "a failed check exits non-zero:\n{out}");
    for expected in [
        "FAILED  smtp      SMTP login refused by 127.0.0.1:",
        "(535): 5.7.8 Authentication credentials invalid",
        "fix: Check SMTP_USERNAME / SMTP_PASSWORD",
        "FAILED  paytabs   PayTabs refused the server key: Authentication failed. Check authentication header.",
        "fix: Check PAYTABS_SERVER_KEY, and that PAYTABS_BASE_URL",
        "FAILED  paymob    Paymob refused the secret key: Invalid token.",
        "fix: Check PAYMOB_SECRET_KEY",
        "FAILED  calendly  Calendly refused the token: The access token is invalid",
        "fix: Check CALENDLY_TOKEN",
        "/no-such-site/catalogue.json answered 404 Not Found",
        "fix: Check CATALOGUE_URL",
        "ok      database",
        "5 check(s) failed",
    ] {
        assert!(out.contains(expected), "{expected}\n{out}");
    }
    for secret in [
        "wrong-smtp-password",
        "SWRONGKEY1-WRONGKEY02-WRONGKEY03",
        "egy_sk_test_wrong_key",
        "wrong-calendly-token",
        PAYMOB_HMAC,
        CALENDLY_KEY,
    ] {
        assert!(!out.contains(secret), "{secret} printed:\n{out}");
    }

    // The database's own problems: unreachable, and migrations not applied.
    let (ok, out) = doctor_command(
        &app,
        &mail,
        &[(
            "DATABASE_URL",
            "postgres://nobody:db-secret-pw@127.0.0.1:1/none",
        )],
    )
    .await;
    assert!(!ok);
    assert!(
        out.contains("FAILED  database  The database cannot be reached"),
        "{out}"
    );
    assert!(out.contains("fix: Check DATABASE_URL"), "{out}");
    assert!(!out.contains("db-secret-pw"), "{out}");
    let empty = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/new.db", empty.path().display());
    let (ok, out) = doctor_command(&app, &mail, &[("DATABASE_URL", &url)]).await;
    assert!(!ok);
    let all = api::db::MIGRATOR
        .iter()
        .filter(|m| m.migration_type.is_up_migration())
        .count();
    let pending = format!(
        "FAILED  database  {all} migrations of this build are not applied yet (the first: 1 (init))"
    );
    assert!(out.contains(&pending), "{pending}\n{out}");
    assert!(out.contains("fix: Run `api migrate`"), "{out}");
}
