//! Every email, rendered from fixed data (no clock): the text and HTML snapshots under
//! `snapshots/` are what a recipient reads. A wording change shows up as a snapshot diff.

use chrono::{TimeZone, Utc};
use icalendar::{Component, EventLike};

use super::OutgoingEmail;
use super::credit_templates::*;
use super::templates::*;

const SITE: &str = "Nadine Kamel Executive Coaching";

/// The headers and the text part, as a mail client shows them.
fn text(mail: &OutgoingEmail) -> String {
    let mut out = format!("To: {}\n", mail.to);
    if let Some(r) = &mail.reply_to {
        out.push_str(&format!("Reply-To: {r}\n"));
    }
    for (k, v) in &mail.headers {
        out.push_str(&format!("{k}: {v}\n"));
    }
    out.push_str(&format!("Subject: {}\n\n{}", mail.subject, mail.text));
    out
}

fn check(name: &str, mail: &OutgoingEmail) {
    insta::assert_snapshot!(format!("{name}.txt"), text(mail));
    insta::assert_snapshot!(format!("{name}.html"), mail.html);
}

fn session<'a>(link: Option<&'a str>) -> SessionDetails<'a> {
    SessionDetails {
        booking_id: "b-42",
        title: "Coaching Session",
        start: Utc.with_ymd_and_hms(2026, 12, 3, 13, 0, 0).unwrap(),
        end: Utc.with_ymd_and_hms(2026, 12, 3, 14, 0, 0).unwrap(),
        meet_link: link,
        time_zone: chrono_tz::Africa::Cairo,
        invitation: super::invitation::Invitation::new(
            "b-42",
            "https://coach.example.com",
            SITE,
            "coach@example.com",
        ),
    }
}

fn contact(discovery_call: bool) -> ContactDetails<'static> {
    ContactDetails {
        name: "Mona Adel",
        email: "mona@example.com",
        phone: Some("+20 122 555 0000"),
        company: Some("Nile Logistics"),
        message: "I lead a team of 40.\nCan we talk about coaching?",
        interested_in: Some("Executive coaching"),
        objective: None,
        discovery_call,
    }
}

#[test]
fn email_confirmation_snapshot() {
    check(
        "email_confirmation",
        &email_confirmation(
            SITE,
            "mona@example.com",
            "Mona Adel",
            "https://coach.example.com/auth/confirm?token=abc",
        ),
    );
}

#[test]
fn password_reset_snapshot() {
    check(
        "password_reset",
        &password_reset(
            SITE,
            "mona@example.com",
            "https://coach.example.com/auth/reset?token=abc",
        ),
    );
}

#[test]
fn contact_notification_snapshots() {
    check(
        "contact_notification",
        &contact_notification(SITE, "coach@example.com", &contact(false)),
    );
    check(
        "contact_notification_discovery",
        &contact_notification(SITE, "coach@example.com", &contact(true)),
    );
}

#[test]
fn contact_acknowledgement_snapshots() {
    check(
        "contact_acknowledgement",
        &contact_acknowledgement(SITE, &contact(false)),
    );
    check(
        "contact_acknowledgement_discovery",
        &contact_acknowledgement(SITE, &contact(true)),
    );
}

#[test]
fn newsletter_confirmation_snapshot() {
    check(
        "newsletter_confirmation",
        &newsletter_confirmation(
            SITE,
            "reader@example.com",
            "https://coach.example.com/api/newsletter/confirm?token=abc",
            "https://coach.example.com/api/newsletter/unsubscribe?token=def",
        ),
    );
}

#[test]
fn purchase_receipt_snapshot() {
    check(
        "purchase_receipt",
        &purchase_receipt(
            SITE,
            "mona@example.com",
            "Mona Adel",
            "Executive Package",
            6,
            2_025_000,
            "EGP",
            "ord-7",
            "https://coach.example.com",
            "https://coach.example.com/receipts/r-1",
        ),
    );
}

#[test]
fn payment_receipt_snapshot() {
    check(
        "payment_receipt",
        &payment_receipt(
            SITE,
            "mona@example.com",
            "Mona Adel",
            &ReceiptSummary {
                number: "R-000001",
                package: "Single Session",
                sessions: 1,
                amount: 450_050,
                currency: "EGP",
                method: "bank_transfer",
            },
            "https://coach.example.com/receipts/r-1",
        ),
    );
}

#[test]
fn booking_confirmation_snapshots() {
    let with_link = session(Some("https://meet.google.com/abc-defg-hij"));
    check(
        "booking_confirmation",
        &booking_confirmation(SITE, "mona@example.com", "Mona Adel", &with_link),
    );
    let without = session(None);
    check(
        "booking_confirmation_no_link",
        &booking_confirmation(SITE, "mona@example.com", "Mona Adel", &without),
    );
}

#[test]
fn booking_cancellation_snapshots() {
    for (name, credit) in [
        ("booking_cancellation_returned", CancelCredit::Returned),
        ("booking_cancellation_kept_late", CancelCredit::KeptLate),
        ("booking_cancellation_none_held", CancelCredit::NoneHeld),
    ] {
        check(
            name,
            &booking_cancellation(
                SITE,
                "mona@example.com",
                "Mona Adel",
                &session(None),
                credit,
            ),
        );
    }
}

#[test]
fn booking_reminder_snapshot() {
    let s = session(Some("https://meet.google.com/abc-defg-hij"));
    check(
        "booking_reminder",
        &booking_reminder(SITE, "mona@example.com", "Mona Adel", &s),
    );
}

#[test]
fn booking_needs_attention_snapshot() {
    check(
        "booking_needs_attention",
        &booking_needs_attention(
            SITE,
            "coach@example.com",
            "Mona Adel <mona@example.com>",
            "Dec 03, 2026 15:00",
            "the client has no credit available, so none was used; assign it once they have one, or cancel it",
            "https://coach.example.com/admin",
        ),
    );
}

#[test]
fn welcome_set_password_snapshot() {
    check(
        "welcome_set_password",
        &welcome_set_password(
            SITE,
            "mona@example.com",
            "Mona Adel",
            "https://coach.example.com/auth/set-password?token=abc",
        ),
    );
}

#[test]
fn credits_expiring_snapshots() {
    check(
        "credits_expiring",
        &credits_expiring(
            SITE,
            "mona@example.com",
            "Mona Adel",
            3,
            "Dec 17, 2026",
            "https://coach.example.com",
        ),
    );
    check(
        "credits_expiring_one",
        &credits_expiring(
            SITE,
            "mona@example.com",
            "Mona Adel",
            1,
            "Dec 17, 2026",
            "https://coach.example.com",
        ),
    );
}

#[test]
fn payment_refunded_snapshots() {
    check(
        "payment_refunded_online",
        &payment_refunded(
            SITE,
            "mona@example.com",
            "Mona Adel",
            1_215_000,
            "EGP",
            3,
            "Nov 02, 2026",
            true,
        ),
    );
    check(
        "payment_refunded_offline",
        &payment_refunded(
            SITE,
            "mona@example.com",
            "Mona Adel",
            40_050,
            "EGP",
            0,
            "Nov 02, 2026",
            false,
        ),
    );
}

const HOSTILE: &str = "<script>alert(1)</script> & \"x\"";

#[test]
fn a_visitors_markup_is_escaped_in_every_html_part_and_kept_as_typed_in_the_text() {
    let c = ContactDetails {
        name: HOSTILE,
        message: "Hi & <b>bye</b>",
        ..contact(false)
    };
    let s = session(Some("https://meet.google.com/abc-defg-hij"));
    let mails = [
        contact_notification(SITE, "coach@example.com", &c),
        contact_acknowledgement(SITE, &c),
        email_confirmation(SITE, "m@example.com", HOSTILE, "https://x.example/?a=1&b=2"),
        welcome_set_password(SITE, "m@example.com", HOSTILE, "https://x.example/"),
        booking_confirmation(SITE, "m@example.com", HOSTILE, &s),
        booking_cancellation(SITE, "m@example.com", HOSTILE, &s, CancelCredit::Returned),
        booking_reminder(SITE, "m@example.com", HOSTILE, &s),
        booking_needs_attention(
            SITE,
            "c@example.com",
            HOSTILE,
            "Dec 03",
            "no credit",
            "https://x.example/admin",
        ),
        credits_expiring(
            SITE,
            "m@example.com",
            HOSTILE,
            2,
            "Dec 17, 2026",
            "https://x.example",
        ),
        payment_refunded(
            SITE,
            "m@example.com",
            HOSTILE,
            100,
            "EGP",
            0,
            "Nov 02, 2026",
            true,
        ),
        purchase_receipt(
            SITE,
            "m@example.com",
            HOSTILE,
            HOSTILE,
            1,
            100,
            "EGP",
            "o",
            "https://x.example",
            "https://x.example/r",
        ),
    ];
    for mail in &mails {
        assert!(
            !mail.html.contains("<script>"),
            "{}: {}",
            mail.subject,
            mail.html
        );
        assert!(
            mail.html
                .contains("&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;x&#34;"),
            "{}: {}",
            mail.subject,
            mail.html
        );
        assert!(
            mail.text.contains(HOSTILE),
            "{}: {}",
            mail.subject,
            mail.text
        );
    }
    let note = &mails[0];
    assert!(
        note.html.contains("Hi &#38; &#60;b&#62;bye&#60;/b&#62;"),
        "{}",
        note.html
    );
    assert!(note.text.contains("Hi & <b>bye</b>"));
    assert_eq!(note.reply_to.as_deref(), Some("mona@example.com"));
    // An address in an attribute cannot break out of its quotes.
    assert!(
        mails[2]
            .html
            .contains("href=\"https://x.example/?a=1&#38;b=2\""),
        "{}",
        mails[2].html
    );
}

#[test]
fn a_site_name_with_markup_is_escaped_in_the_layout() {
    let mail = password_reset(HOSTILE, "m@example.com", "https://x.example/");
    assert!(!mail.html.contains("<script>"), "{}", mail.html);
}

#[test]
fn money_is_grouped_with_decimals_only_when_there_are_piastres() {
    assert_eq!(money(2_025_000, "EGP"), "20,250 EGP");
    assert_eq!(money(450_050, "EGP"), "4,500.50 EGP");
    assert_eq!(money(5, "EGP"), "0.05 EGP");
}

// -- the invitation

fn stamp() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 9, 30, 0).unwrap()
}

/// The parsed calendar and its one event.
fn parse(ics: &str) -> icalendar::Calendar {
    let unfolded = icalendar::parser::unfold(ics);
    icalendar::parser::read_calendar(&unfolded)
        .expect("the invitation parses")
        .into()
}

fn param<'a>(p: &'a icalendar::Property, key: &str) -> Option<&'a str> {
    p.params().get(key).map(|p| p.value())
}

#[test]
fn a_request_names_the_coach_the_client_a_stable_uid_and_its_sequence() {
    let s = session(Some("https://meet.google.com/abc-defg-hij"));
    let text = super::invitation::ics(
        &s,
        SITE,
        super::invitation::Method::Request,
        ("Mona Adel", "mona@example.com"),
        stamp(),
    );
    insta::assert_snapshot!("invitation_request.ics", text.replace("\r\n", "\n"));
    assert!(
        text.ends_with("\r\n") && !text.replace("\r\n", "").contains('\n'),
        "CRLF only"
    );
    let cal = parse(&text);
    assert_eq!(cal.property_value("METHOD"), Some("REQUEST"));
    assert_eq!(cal.property_value("VERSION"), Some("2.0"));
    let event = cal.events().next().expect("one VEVENT");
    assert_eq!(event.get_uid(), Some("booking-b-42@coach.example.com"));
    assert_eq!(event.get_sequence(), Some(0));
    assert_eq!(event.get_summary(), Some("Coaching Session"));
    assert_eq!(event.property_value("STATUS"), Some("CONFIRMED"));
    assert_eq!(
        event.property_value("DTSTART"),
        Some("20261203T130000Z"),
        "UTC"
    );
    assert_eq!(
        event.property_value("DTEND"),
        Some("20261203T140000Z"),
        "UTC"
    );
    assert_eq!(event.property_value("DTSTAMP"), Some("20261120T093000Z"));
    let organizer = event.properties().get("ORGANIZER").expect("an ORGANIZER");
    assert_eq!(organizer.value(), "mailto:coach@example.com");
    assert_eq!(param(organizer, "CN"), Some(SITE));
    let attendees = &event.multi_properties()["ATTENDEE"];
    assert_eq!(attendees.len(), 1);
    assert_eq!(attendees[0].value(), "mailto:mona@example.com");
    assert_eq!(param(&attendees[0], "CN"), Some("Mona Adel"));
    assert_eq!(param(&attendees[0], "ROLE"), Some("REQ-PARTICIPANT"));
    assert_eq!(
        event.get_location(),
        Some("https://meet.google.com/abc-defg-hij")
    );
}

#[test]
fn a_cancellation_carries_the_same_uid_with_the_next_sequence() {
    let mut s = session(None);
    s.invitation.sequence = 3;
    let mail = booking_cancellation(
        SITE,
        "mona@example.com",
        "Mona Adel",
        &s,
        CancelCredit::Returned,
    );
    let attachment = &mail.attachments[0];
    assert_eq!(attachment.filename, "session.ics");
    assert_eq!(
        attachment.content_type,
        "text/calendar; charset=utf-8; method=CANCEL"
    );
    let cal = parse(&attachment.content);
    assert_eq!(cal.property_value("METHOD"), Some("CANCEL"));
    let event = cal.events().next().unwrap();
    assert_eq!(event.get_uid(), Some("booking-b-42@coach.example.com"));
    assert_eq!(event.get_sequence(), Some(3));
    assert_eq!(event.property_value("STATUS"), Some("CANCELLED"));
    assert!(event.properties().contains_key("ORGANIZER"));
    assert_eq!(
        event.multi_properties()["ATTENDEE"][0].value(),
        "mailto:mona@example.com"
    );

    let confirmed = booking_confirmation(SITE, "mona@example.com", "Mona Adel", &session(None));
    assert_eq!(
        confirmed.attachments[0].content_type,
        "text/calendar; charset=utf-8; method=REQUEST"
    );
}

#[test]
fn long_lines_are_folded_at_75_octets_never_inside_a_character() {
    // Arabic (2 bytes a letter) and an emoji (4 bytes): a fold at a fixed byte count would
    // land inside one of them.
    let title =
        "جلسة كوتشينج تنفيذي مع نادين كامل لمناقشة أهداف القيادة للربع القادم 🚀 ومتابعة الخطة";
    let name = "منى عادل عبد الرحمن محمود السيد من شركة النيل للخدمات اللوجستية والتجارة الدولية";
    let mut s = session(Some(
        "https://meet.google.com/abc-defg-hij?authuser=0&hs=122&pli=1&ijlm=1700000000000",
    ));
    s.title = title;
    let text = super::invitation::ics(
        &s,
        SITE,
        super::invitation::Method::Request,
        (name, "mona@example.com"),
        stamp(),
    );
    let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert!(
        lines.iter().any(|l| l.starts_with(' ')),
        "something was folded:\n{text}"
    );
    for line in &lines {
        assert!(line.len() <= 75, "{} octets: {line:?}", line.len());
    }
    // Unfolding gives every value back whole.
    let cal = parse(&text);
    let event = cal.events().next().unwrap();
    assert_eq!(event.get_summary(), Some(title));
    assert_eq!(
        param(&event.multi_properties()["ATTENDEE"][0], "CN"),
        Some(name)
    );
}

#[test]
fn a_name_or_an_address_cannot_add_a_line_to_the_invitation() {
    let text = super::invitation::ics(
        &session(None),
        SITE,
        super::invitation::Method::Request,
        (
            "Mona \"Boss\"\r\nATTENDEE:mailto:evil@example.com",
            "mona@example.com\r\nATTENDEE:mailto:evil2@example.com",
        ),
        stamp(),
    );
    let cal = parse(&text);
    let attendees = &cal.events().next().unwrap().multi_properties()["ATTENDEE"];
    assert_eq!(attendees.len(), 1, "{text}");
    assert!(
        attendees[0].value().starts_with("mailto:mona@example.com"),
        "{text}"
    );
    assert!(!text.contains("\nATTENDEE:mailto:evil"), "{text}");
}

#[test]
fn a_session_time_reads_as_a_person_writes_it_with_the_zone_named_plainly() {
    // 13:00 UTC is 3 PM in Cairo in December; the portal writes it the same way.
    assert_eq!(
        session(None).when(),
        "Thursday, December 3, 2026 at 3:00 PM (Cairo time)"
    );
    assert_eq!(
        super::invitation::zone_name(chrono_tz::America::New_York),
        "New York time"
    );
    assert_eq!(super::invitation::zone_name(chrono_tz::UTC), "UTC");
}
