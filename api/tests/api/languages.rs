//! The account's language (issue 21): chosen at sign-up or by the admin's Add User, changed by
//! the client, edited by the admin, answered by the session; every email the account is sent
//! (confirmation, reset, welcome, receipts, bookings with their invitations, cancellations,
//! reminders, the expiry notice) is written in it, and English ones stay as they were.

use chrono::{Duration, Utc};
use serde_json::{Value, json};

use crate::bookings::{client_with_credits, reference};
use crate::payments::{hosted_page, post_return, press};
use crate::support::{
    ReceivedMail, TestApp, admin_client, error_of, new_client, spawn_app, user_id,
};

/// Arabic letters: which language a text is in.
fn has_arabic(s: &str) -> bool {
    s.chars().any(|c| ('\u{0600}'..='\u{06FF}').contains(&c))
}

fn assert_arabic(mail: &ReceivedMail) {
    let (subject, text, html) = (mail.subject(), mail.text(), mail.html());
    assert!(has_arabic(&subject), "subject: {subject}");
    assert!(has_arabic(&text), "text:\n{text}");
    assert!(
        html.contains("<html lang=\"ar\" dir=\"rtl\">") && html.contains("<body dir=\"rtl\""),
        "html:\n{html}"
    );
    assert!(!text.contains("Hello") && !html.contains("Hello"), "{text}");
}

fn assert_english(mail: &ReceivedMail) {
    let (subject, text, html) = (mail.subject(), mail.text(), mail.html());
    assert!(!has_arabic(&subject), "subject: {subject}");
    assert!(!has_arabic(&text), "text:\n{text}");
    assert!(html.contains("<html lang=\"en\">"), "html:\n{html}");
}

async fn sign_up_in(
    app: &TestApp,
    c: &reqwest::Client,
    email: &str,
    language: Option<Value>,
) -> reqwest::Response {
    let mut body = json!({
        "full_name": "Layla Hassan", "email": email, "password": "nile-sunrise-42", "phone": "+20 100 123 4567"
    });
    if let Some(language) = language {
        body["language"] = language;
    }
    app.post_as(c, "/api/auth/sign-up", body).await
}

async fn put_as(app: &TestApp, c: &reqwest::Client, path: &str, body: Value) -> reqwest::Response {
    c.put(app.url(path))
        .header("Origin", &app.base)
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn session_language(app: &TestApp, c: &reqwest::Client) -> Value {
    let session: Value = app
        .get_as(c, "/api/auth/session")
        .await
        .json()
        .await
        .unwrap();
    session["language"].clone()
}

async fn stored_language(app: &TestApp, email: &str) -> String {
    sqlx::query_scalar("SELECT preferred_language FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn signing_up_in_arabic_sends_the_confirmation_in_arabic_and_its_link_leads_to_arabic_pages()
{
    let app = spawn_app().await;
    let layla = new_client();
    let r = sign_up_in(&app, &layla, "layla@example.com", Some(json!("ar"))).await;
    assert_eq!(r.status(), 201);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["language"], "ar");
    assert_eq!(session_language(&app, &layla).await, "ar");
    assert_eq!(stored_language(&app, "layla@example.com").await, "ar");

    let mail = app
        .mail
        .wait_for("layla@example.com", "تأكيد بريدك الإلكتروني")
        .await;
    assert_arabic(&mail);
    assert!(
        mail.text().contains("مرحبًا Layla Hassan،"),
        "{}",
        mail.text()
    );
    assert!(
        mail.text().contains("الرابط صالح لمدة 48 ساعة"),
        "{}",
        mail.text()
    );
    let link = mail.link(&format!("{}/api/auth/confirm?token=", app.base));
    let confirm = app.client.get(&link).send().await.unwrap();
    assert_eq!(confirm.status(), 303);
    assert_eq!(
        confirm.headers()["location"],
        format!("{}/ar/auth?confirmed=1", app.base)
    );
    let again = app.client.get(&link).send().await.unwrap();
    assert_eq!(
        again.headers()["location"],
        format!("{}/ar/auth?confirm_error=1", app.base),
        "a used link still leads to the account's language"
    );

    // Without a language, and with an explicit English one: English, as always.
    let mona = new_client();
    let r = sign_up_in(&app, &mona, "mona@example.com", None).await;
    assert_eq!(r.status(), 201);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["language"], "en");
    let mail = app
        .mail
        .wait_for("mona@example.com", "Confirm your email for")
        .await;
    assert_english(&mail);
    assert!(
        mail.text().starts_with("Hello Layla Hassan,"),
        "{}",
        mail.text()
    );
    let link = mail.link(&format!("{}/api/auth/confirm?token=", app.base));
    let confirm = app.client.get(&link).send().await.unwrap();
    assert_eq!(
        confirm.headers()["location"],
        format!("{}/auth?confirmed=1", app.base)
    );
    let omar = new_client();
    assert_eq!(
        sign_up_in(&app, &omar, "omar@example.com", Some(json!("en")))
            .await
            .status(),
        201
    );
    assert_eq!(session_language(&app, &omar).await, "en");
}

#[tokio::test]
async fn a_language_other_than_en_or_ar_is_refused_with_its_field() {
    let app = spawn_app().await;
    for bad in [json!("fr"), json!("AR"), json!("ar-EG")] {
        let (status, error) =
            error_of(sign_up_in(&app, &new_client(), "x@example.com", Some(bad)).await).await;
        assert_eq!(status, 422);
        assert_eq!(error["code"], "validation_error");
        assert_eq!(
            error["fields"]["language"],
            "Language must be en (English) or ar (Arabic)"
        );
    }
    // Not a string at all: the body is not of the expected shape.
    let (status, _) =
        error_of(sign_up_in(&app, &new_client(), "x@example.com", Some(json!(7))).await).await;
    assert_eq!(status, 400);
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(users, 0, "nothing was written");

    let boss = admin_client(&app, "boss@coach.example.com").await;
    let mona = new_client();
    assert_eq!(app.sign_up(&mona, "mona@example.com").await.status(), 201);
    let mona_id = user_id(&app, "mona@example.com").await;
    let refused = [
        put_as(&app, &mona, "/api/auth/language", json!({"language": "de"})).await,
        put_as(&app, &mona, "/api/auth/language", json!({})).await,
        put_as(&app, &mona, "/api/auth/language", json!({"language": ""})).await,
        app.post_as(
            &boss,
            "/api/admin/users",
            json!({"fullName": "Sara Nabil", "email": "sara@example.com", "password": "nile-sunrise-42", "language": "xx"}),
        )
        .await,
        put_as(
            &app,
            &boss,
            &format!("/api/admin/clients/{mona_id}"),
            json!({"fullName": "Mona Adel", "role": "client", "language": "EN"}),
        )
        .await,
        app.post(
            "/api/contact",
            json!({"name": "Sara", "email": "sara@example.com", "message": "Hello", "language": "fr"}),
        )
        .await,
        app.post(
            "/api/newsletter/subscribe",
            json!({"email": "sara@example.com", "language": "fr"}),
        )
        .await,
    ];
    for r in refused {
        let (status, error) = error_of(r).await;
        assert_eq!(status, 422, "{error}");
        assert!(error["fields"]["language"].is_string(), "{error}");
    }
    assert_eq!(stored_language(&app, "mona@example.com").await, "en");
}

#[tokio::test]
async fn a_client_changes_language_and_the_next_email_follows() {
    let app = spawn_app().await;
    let mona = new_client();
    assert_eq!(app.sign_up(&mona, "mona@example.com").await.status(), 201);
    assert_eq!(session_language(&app, &mona).await, "en");

    let r = put_as(&app, &mona, "/api/auth/language", json!({"language": "ar"})).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), json!({"language": "ar"}));
    assert_eq!(session_language(&app, &mona).await, "ar");

    let r = app
        .post_as(&mona, "/api/auth/confirm/resend", json!({}))
        .await;
    assert_eq!(r.status(), 202);
    let mail = app
        .mail
        .wait_for("mona@example.com", "تأكيد بريدك الإلكتروني")
        .await;
    assert_arabic(&mail);
    let r = app
        .post(
            "/api/auth/password-reset",
            json!({"email": "mona@example.com"}),
        )
        .await;
    assert_eq!(r.status(), 202);
    let mail = app
        .mail
        .wait_for("mona@example.com", "إعادة تعيين كلمة المرور")
        .await;
    assert_arabic(&mail);
    mail.link(&format!("{}/ar/auth?reset=", app.base));

    // And back: the next email is English again.
    let r = put_as(&app, &mona, "/api/auth/language", json!({"language": "en"})).await;
    assert_eq!(r.json::<Value>().await.unwrap(), json!({"language": "en"}));
    app.post_as(&mona, "/api/auth/confirm/resend", json!({}))
        .await;
    let mail = app
        .mail
        .wait_for("mona@example.com", "Confirm your email for")
        .await;
    assert_english(&mail);

    // Signed in only, and from the site's own origin only.
    let (status, _) = error_of(
        put_as(
            &app,
            &new_client(),
            "/api/auth/language",
            json!({"language": "ar"}),
        )
        .await,
    )
    .await;
    assert_eq!(status, 401);
    let cross_site = mona
        .put(app.url("/api/auth/language"))
        .header("Origin", "https://evil.example")
        .json(&json!({"language": "ar"}))
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(cross_site).await.0, 403);
    let form = mona
        .put(app.url("/api/auth/language"))
        .header("Origin", &app.base)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("language=ar")
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(form).await.0, 415);
    assert_eq!(session_language(&app, &mona).await, "en");
}

#[tokio::test]
async fn the_admin_creates_and_edits_a_clients_language() {
    let app = spawn_app().await;
    let boss = admin_client(&app, "boss@coach.example.com").await;
    let r = app
        .post_as(
            &boss,
            "/api/admin/users",
            json!({
                "fullName": "Sara Nabil", "email": "sara@example.com", "password": "nile-sunrise-42",
                "language": "ar", "initialCredits": 3, "paymentAmount": 1500, "paymentMethod": "bank_transfer"
            }),
        )
        .await;
    assert_eq!(r.status(), 201);
    let id = user_id(&app, "sara@example.com").await;

    let welcome = app
        .mail
        .wait_for("sara@example.com", "حسابك في بوابة العملاء")
        .await;
    assert_arabic(&welcome);
    welcome.link(&format!("{}/ar/auth?reset=", app.base));
    let receipt = app.mail.wait_for("sara@example.com", "إيصال الدفع").await;
    assert_arabic(&receipt);
    let text = receipt.text();
    assert!(text.contains("المبلغ: 1,500 ج.م"), "{text}");
    assert!(text.contains("طريقة الدفع: تحويل بنكي"), "{text}");
    assert!(text.contains("الباقة: جلسات كوتشينج"), "{text}");
    assert!(
        text.contains(&format!("{}/ar/receipt?id=", app.base)),
        "{text}"
    );
    assert!(
        receipt
            .html()
            .contains("<span dir=\"auto\">1,500 ج.م</span>"),
        "{}",
        receipt.html()
    );

    let detail: Value = app
        .get_as(&boss, &format!("/api/admin/clients/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(detail["language"], "ar");

    // Edited to English; an edit that does not name the language keeps it.
    let r = put_as(
        &app,
        &boss,
        &format!("/api/admin/clients/{id}"),
        json!({"fullName": "Sara Nabil", "role": "client", "language": "en"}),
    )
    .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap()["language"], "en");
    let r = put_as(
        &app,
        &boss,
        &format!("/api/admin/clients/{id}"),
        json!({"fullName": "Sara N.", "role": "client"}),
    )
    .await;
    assert_eq!(r.json::<Value>().await.unwrap()["language"], "en");
    app.post(
        "/api/auth/password-reset",
        json!({"email": "sara@example.com"}),
    )
    .await;
    let reset = app
        .mail
        .wait_for("sara@example.com", "Reset your password for")
        .await;
    assert_english(&reset);
    // And back to Arabic by the admin: the next email follows.
    put_as(
        &app,
        &boss,
        &format!("/api/admin/clients/{id}"),
        json!({"fullName": "Sara N.", "role": "client", "language": "ar"}),
    )
    .await;
    assert_eq!(stored_language(&app, "sara@example.com").await, "ar");

    // The receipt page names the package in the reader's language; the default is English.
    let payment: String = sqlx::query_scalar("SELECT id FROM payment_records WHERE client_id = $1")
        .bind(&id)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let view: Value = app
        .get_as(&boss, &format!("/api/receipts/{payment}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(view["package"], "Coaching sessions");
}

#[tokio::test]
async fn an_arabic_clients_purchase_lands_on_arabic_pages_with_an_arabic_receipt() {
    let app = spawn_app().await;
    let mona = new_client();
    assert_eq!(
        sign_up_in(&app, &mona, "mona@example.com", Some(json!("ar")))
            .await
            .status(),
        201
    );
    let page = hosted_page(&app, &mona).await;
    let (action, fields) = press(&page, "approve").await;
    let location = post_return(&action, &fields).await;
    assert!(
        location.starts_with(&format!("{}/ar/payment/success?cart_id=", app.base)),
        "{location}"
    );
    let receipt = app.mail.wait_for("mona@example.com", "إيصال الدفع").await;
    assert_arabic(&receipt);
    let text = receipt.text();
    for expected in [
        "شكرًا على شرائك. تم استلام الدفعة بنجاح.",
        "الباقة: باقة الانطلاق",
        "المبلغ: 20,250 ج.م",
        "الرصيد: 5 جلسات",
        "رقم الطلب: ec_",
        "/ar/receipt?id=",
        "/ar/book-session",
        "/ar/dashboard",
    ] {
        assert!(text.contains(expected), "{expected}:\n{text}");
    }
    // The success page's answer names the package in the reader's language.
    let cart = location.split("cart_id=").nth(1).unwrap();
    let view: Value = mona
        .get(app.url(&format!("/api/payments/by-cart/{cart}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(view["packageName"], "باقة الانطلاق");
}

/// The English purchase email is the one it always was.
#[tokio::test]
async fn an_english_clients_purchase_is_unchanged() {
    let app = spawn_app().await;
    let mona = new_client();
    assert_eq!(app.sign_up(&mona, "mona@example.com").await.status(), 201);
    let page = hosted_page(&app, &mona).await;
    let (action, fields) = press(&page, "approve").await;
    let location = post_return(&action, &fields).await;
    assert!(
        location.starts_with(&format!("{}/payment/success?cart_id=", app.base)),
        "{location}"
    );
    let receipt = app
        .mail
        .wait_for("mona@example.com", "Your receipt from")
        .await;
    assert_english(&receipt);
    let text = receipt.text().replace("\r\n", "\n");
    assert!(
        text.starts_with("Hello Mona Adel,\n\nThank you for your purchase. Payment received.\n\nPackage: Momentum Package\nCredits: 5 session credits\nAmount: 20,250 EGP\nOrder ID: ec_"),
        "{text}"
    );
    assert!(text.contains(&format!(
        "Book your first session: {}/book-session\n",
        app.base
    )));
}

/// The .ics of a message, as the mail carries it.
fn invitation(mail: &ReceivedMail) -> icalendar::Calendar {
    let ics = mail.part("text/calendar");
    let unfolded = icalendar::parser::unfold(&ics);
    icalendar::parser::read_calendar(&unfolded)
        .unwrap_or_else(|e| panic!("{e}\n{ics}"))
        .into()
}

#[tokio::test]
async fn an_arabic_clients_booking_invitation_cancellation_reminder_and_expiry_notice_are_arabic() {
    use icalendar::Component;

    let app = spawn_app().await;
    let (layla, user) = client_with_credits(&app, "layla@example.com", 3).await;
    let r = put_as(
        &app,
        &layla,
        "/api/auth/language",
        json!({"language": "ar"}),
    )
    .await;
    assert_eq!(r.status(), 200);

    let start = Utc::now() + Duration::days(3);
    let booked = app
        .calendly_standin
        .book(
            "Layla Hassan",
            "layla@example.com",
            Some(&reference(&user)),
            start,
        )
        .await
        .unwrap();
    let confirmed = app.mail.wait_for("layla@example.com", "تأكيد الجلسة").await;
    assert_arabic(&confirmed);
    let text = confirmed.text();
    assert!(text.contains("تم تأكيد جلستك."), "{text}");
    assert!(
        text.contains("الساعة") && text.contains("(بتوقيت القاهرة)"),
        "{text}"
    );
    assert!(text.contains("دعوة التقويم مرفقة بهذه الرسالة."), "{text}");
    let cal = invitation(&confirmed);
    assert_eq!(cal.property_value("METHOD"), Some("REQUEST"));
    let event = cal.events().next().unwrap();
    let summary = event.properties().get("SUMMARY").expect("a SUMMARY");
    assert_eq!(
        summary.params().get("LANGUAGE").map(|p| p.value()),
        Some("ar"),
        "{summary:?}"
    );

    let id: String = sqlx::query_scalar("SELECT id FROM bookings WHERE calendly_invitee_uri = $1")
        .bind(&booked.invitee_uri)
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap();
    let r = app
        .post_as(&layla, &format!("/api/bookings/{id}/cancel"), json!({}))
        .await;
    assert_eq!(r.status(), 200);
    let cancelled = app.mail.wait_for("layla@example.com", "إلغاء الجلسة").await;
    assert_arabic(&cancelled);
    assert!(
        cancelled.text().contains("وقد أُعيد رصيد الجلسة إلى حسابك."),
        "{}",
        cancelled.text()
    );
    let cal = invitation(&cancelled);
    assert_eq!(cal.property_value("METHOD"), Some("CANCEL"));
    assert_eq!(
        cal.events().next().unwrap().get_uid(),
        event.get_uid(),
        "the same event"
    );

    // Tomorrow's session: the reminder.
    app.calendly_standin
        .book(
            "Layla Hassan",
            "layla@example.com",
            Some(&reference(&user)),
            Utc::now() + Duration::hours(20),
        )
        .await
        .unwrap();
    app.mail.wait_for("layla@example.com", "تأكيد الجلسة").await;
    assert_eq!(
        api::scheduling::jobs::send_reminders(&app.state)
            .await
            .unwrap(),
        1
    );
    let reminder = app
        .mail
        .wait_for("layla@example.com", "تذكير بموعد جلستك")
        .await;
    assert_arabic(&reminder);

    // The lot's last day comes within 14 days: the notice.
    let in_13_days = Utc::now() + Duration::days(13);
    sqlx::query("UPDATE credit_lots SET expires_at = $1, expires_on = $2 WHERE user_id = $3")
        .bind(api::domain::ts(in_13_days))
        .bind(in_13_days.format("%Y-%m-%d").to_string())
        .bind(&user)
        .execute(&app.state.db.pool)
        .await
        .unwrap();
    assert_eq!(
        api::lots::send_expiry_reminders(&app.state).await.unwrap(),
        1
    );
    let notice = app
        .mail
        .wait_for("layla@example.com", "تنتهي صلاحية رصيد")
        .await;
    assert_arabic(&notice);
    assert!(
        notice
            .text()
            .contains(&format!("{}/ar/book-session", app.base)),
        "{}",
        notice.text()
    );

    // An English client beside her: English, as always.
    let (_, omar) = client_with_credits(&app, "omar@example.com", 1).await;
    app.calendly_standin
        .book(
            "Omar Said",
            "omar@example.com",
            Some(&reference(&omar)),
            start,
        )
        .await
        .unwrap();
    let confirmed = app
        .mail
        .wait_for("omar@example.com", "Session confirmed: ")
        .await;
    assert_english(&confirmed);
    assert!(!mail_has_language_param(&confirmed));
}

fn mail_has_language_param(mail: &ReceivedMail) -> bool {
    mail.part("text/calendar").contains("LANGUAGE=")
}

#[tokio::test]
async fn visitors_get_the_contact_and_newsletter_emails_in_the_pages_language() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/api/contact",
            json!({"name": "ليلى حسن", "email": "layla@example.com", "message": "أود معرفة المزيد عن الكوتشينج التنفيذي.", "language": "ar"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let ack = app
        .mail
        .wait_for("layla@example.com", "استلمنا رسالتك")
        .await;
    assert_arabic(&ack);
    // The coach has no account yet: their notification is in the default language (the
    // visitor's Arabic words in it are theirs).
    let note = app
        .mail
        .wait_for("hello@coach.example.com", "New message from")
        .await;
    assert!(
        note.html().contains("<html lang=\"en\">"),
        "{}",
        note.html()
    );
    assert!(
        note.text().starts_with("New message via the website."),
        "{}",
        note.text()
    );
    // Once the coach's account is Arabic, so is their notification; a visitor on an English
    // page without an account gets English.
    let coach = new_client();
    assert_eq!(
        sign_up_in(&app, &coach, "hello@coach.example.com", Some(json!("ar")))
            .await
            .status(),
        201
    );
    let r = app
        .post(
            "/api/contact",
            json!({"name": "Omar Said", "email": "omar@example.com", "message": "Hi, can we talk?", "phone": "+20 122 555 0000", "form_type": "discovery_call"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let note = app
        .mail
        .wait_for("hello@coach.example.com", "طلب مكالمة تعارفية من Omar Said")
        .await;
    assert_arabic(&note);
    assert!(
        note.html()
            .contains("<span dir=\"auto\">+20 122 555 0000</span>"),
        "{}",
        note.html()
    );
    let ack = app
        .mail
        .wait_for(
            "omar@example.com",
            "We received your discovery call request",
        )
        .await;
    assert_english(&ack);

    let r = app
        .post(
            "/api/newsletter/subscribe",
            json!({"email": "reader@example.com", "language": "ar"}),
        )
        .await;
    assert_eq!(r.status(), 202);
    let mail = app
        .mail
        .wait_for("reader@example.com", "يُرجى تأكيد اشتراكك")
        .await;
    assert_arabic(&mail);
    mail.link(&format!("{}/ar/newsletter/confirm?token=", app.base));
    let unsubscribe = mail.link(&format!("{}/api/newsletter/unsubscribe?t=", app.base));
    let page = app.client.get(&unsubscribe).send().await.unwrap();
    let html = page.text().await.unwrap();
    assert!(
        html.contains("<html lang=\"ar\" dir=\"rtl\">") && html.contains("إلغاء الاشتراك"),
        "{html}"
    );
    let done = app
        .client
        .post(&unsubscribe)
        .form(&[("List-Unsubscribe", "One-Click")])
        .send()
        .await
        .unwrap();
    assert!(done.text().await.unwrap().contains("تم إلغاء اشتراكك"));
}
