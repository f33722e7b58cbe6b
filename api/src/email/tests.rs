//! Every email, rendered from fixed data (no clock): the text and HTML snapshots under
//! `snapshots/` are what a recipient reads. A wording change shows up as a snapshot diff.

use chrono::{TimeZone, Utc};
use icalendar::{Component, EventLike};

use chrono::NaiveDate;

use super::OutgoingEmail;
use super::credit_templates::*;
use super::sponsor_templates::*;
use super::templates::*;

const EN: Language = Language::En;
const AR: Language = Language::Ar;

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

/// Each language and the prefix of its snapshots' names: the English snapshots keep the names
/// they always had (English output must not change), the Arabic ones start with `ar_`.
const LANGUAGES: [(Language, &str); 2] = [(EN, ""), (AR, "ar_")];

fn check_in(lang: (Language, &str), name: &str, mail: &OutgoingEmail) {
    check(&format!("{}{name}", lang.1), mail);
}

fn expiry_day() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 12, 17).unwrap()
}

fn paid_on() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 2).unwrap()
}

#[test]
fn email_confirmation_snapshot() {
    for l in LANGUAGES {
        check_in(
            l,
            "email_confirmation",
            &email_confirmation(
                l.0,
                SITE,
                "mona@example.com",
                "Mona Adel",
                "https://coach.example.com/auth/confirm?token=abc",
            ),
        );
    }
}

#[test]
fn password_reset_snapshot() {
    for l in LANGUAGES {
        check_in(
            l,
            "password_reset",
            &password_reset(
                l.0,
                SITE,
                "mona@example.com",
                "https://coach.example.com/auth/reset?token=abc",
            ),
        );
    }
}

#[test]
fn contact_notification_snapshots() {
    for l in LANGUAGES {
        check_in(
            l,
            "contact_notification",
            &contact_notification(l.0, SITE, "coach@example.com", &contact(false)),
        );
        check_in(
            l,
            "contact_notification_discovery",
            &contact_notification(l.0, SITE, "coach@example.com", &contact(true)),
        );
    }
}

#[test]
fn contact_acknowledgement_snapshots() {
    for l in LANGUAGES {
        check_in(
            l,
            "contact_acknowledgement",
            &contact_acknowledgement(l.0, SITE, &contact(false)),
        );
        check_in(
            l,
            "contact_acknowledgement_discovery",
            &contact_acknowledgement(l.0, SITE, &contact(true)),
        );
    }
}

#[test]
fn newsletter_confirmation_snapshot() {
    for l in LANGUAGES {
        check_in(
            l,
            "newsletter_confirmation",
            &newsletter_confirmation(
                l.0,
                SITE,
                "reader@example.com",
                "https://coach.example.com/api/newsletter/confirm?token=abc",
                "https://coach.example.com/api/newsletter/unsubscribe?token=def",
            ),
        );
    }
}

#[test]
fn purchase_receipt_snapshot() {
    for l in LANGUAGES {
        let package = match l.0 {
            Language::En => "Executive Package",
            Language::Ar => "الباقة التنفيذية",
        };
        check_in(
            l,
            "purchase_receipt",
            &purchase_receipt(
                l.0,
                SITE,
                "mona@example.com",
                "Mona Adel",
                &Purchase {
                    package,
                    sessions: 6,
                    amount: 2_025_000,
                    currency: "EGP",
                    order_id: "ord-7",
                },
                "https://coach.example.com",
                "https://coach.example.com/receipts/r-1",
            ),
        );
    }
}

#[test]
fn payment_receipt_snapshot() {
    for l in LANGUAGES {
        check_in(
            l,
            "payment_receipt",
            &payment_receipt(
                l.0,
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
}

#[test]
fn booking_confirmation_snapshots() {
    for l in LANGUAGES {
        let with_link = session(Some("https://meet.google.com/abc-defg-hij"));
        check_in(
            l,
            "booking_confirmation",
            &booking_confirmation(l.0, SITE, "mona@example.com", "Mona Adel", &with_link),
        );
        let without = session(None);
        check_in(
            l,
            "booking_confirmation_no_link",
            &booking_confirmation(l.0, SITE, "mona@example.com", "Mona Adel", &without),
        );
    }
}

#[test]
fn booking_cancellation_snapshots() {
    for l in LANGUAGES {
        for (name, credit) in [
            ("booking_cancellation_returned", CancelCredit::Returned),
            ("booking_cancellation_kept_late", CancelCredit::KeptLate),
            ("booking_cancellation_none_held", CancelCredit::NoneHeld),
        ] {
            check_in(
                l,
                name,
                &booking_cancellation(
                    l.0,
                    SITE,
                    "mona@example.com",
                    "Mona Adel",
                    &session(None),
                    credit,
                ),
            );
        }
    }
}

#[test]
fn booking_reminder_snapshot() {
    for l in LANGUAGES {
        let s = session(Some("https://meet.google.com/abc-defg-hij"));
        check_in(
            l,
            "booking_reminder",
            &booking_reminder(l.0, SITE, "mona@example.com", "Mona Adel", &s),
        );
    }
}

#[test]
fn booking_needs_attention_snapshot() {
    check(
        "booking_needs_attention",
        &booking_needs_attention(
            EN,
            SITE,
            "coach@example.com",
            "Mona Adel <mona@example.com>",
            "Dec 03, 2026 15:00",
            "the client has no credit available, so none was used; assign it once they have one, or cancel it",
            "https://coach.example.com/admin",
        ),
    );
    check(
        "ar_booking_needs_attention",
        &booking_needs_attention(
            AR,
            SITE,
            "coach@example.com",
            "Mona Adel <mona@example.com>",
            "3 ديسمبر 2026، 15:00",
            "لا يتوفر لدى العميل رصيد، لذا لم يُخصم أي رصيد؛ يمكنك إسناده إليه بعد توفر رصيد لديه، أو إلغاؤه",
            "https://coach.example.com/ar/admin",
        ),
    );
}

#[test]
fn welcome_set_password_snapshot() {
    for l in LANGUAGES {
        check_in(
            l,
            "welcome_set_password",
            &welcome_set_password(
                l.0,
                SITE,
                "mona@example.com",
                "Mona Adel",
                "https://coach.example.com/auth/set-password?token=abc",
            ),
        );
    }
}

#[test]
fn credits_expiring_snapshots() {
    for l in LANGUAGES {
        check_in(
            l,
            "credits_expiring",
            &credits_expiring(
                l.0,
                SITE,
                "mona@example.com",
                "Mona Adel",
                3,
                expiry_day(),
                "https://coach.example.com",
            ),
        );
        check_in(
            l,
            "credits_expiring_one",
            &credits_expiring(
                l.0,
                SITE,
                "mona@example.com",
                "Mona Adel",
                1,
                expiry_day(),
                "https://coach.example.com",
            ),
        );
    }
}

#[test]
fn payment_refunded_snapshots() {
    for l in LANGUAGES {
        check_in(
            l,
            "payment_refunded_online",
            &payment_refunded(
                l.0,
                SITE,
                "mona@example.com",
                "Mona Adel",
                &Refund {
                    amount: 1_215_000,
                    currency: "EGP",
                    credits_removed: 3,
                    paid_on: paid_on(),
                    online: true,
                },
            ),
        );
        check_in(
            l,
            "payment_refunded_offline",
            &payment_refunded(
                l.0,
                SITE,
                "mona@example.com",
                "Mona Adel",
                &Refund {
                    amount: 40_050,
                    currency: "EGP",
                    credits_removed: 0,
                    paid_on: paid_on(),
                    online: false,
                },
            ),
        );
    }
}

/// Every email, in `lang`, about `name` (the visitor or client) and with `link`.
fn every_email(lang: Language, name: &'static str, link: &'static str) -> Vec<OutgoingEmail> {
    let c = ContactDetails {
        name,
        message: "Hi & <b>bye</b>",
        ..contact(false)
    };
    let s = session(Some("https://meet.google.com/abc-defg-hij"));
    vec![
        contact_notification(lang, SITE, "coach@example.com", &c),
        contact_acknowledgement(lang, SITE, &c),
        email_confirmation(lang, SITE, "m@example.com", name, link),
        welcome_set_password(lang, SITE, "m@example.com", name, link),
        booking_confirmation(lang, SITE, "m@example.com", name, &s),
        booking_cancellation(
            lang,
            SITE,
            "m@example.com",
            name,
            &s,
            CancelCredit::Returned,
        ),
        booking_reminder(lang, SITE, "m@example.com", name, &s),
        booking_needs_attention(
            lang,
            SITE,
            "c@example.com",
            name,
            "Dec 03",
            "no credit",
            "https://x.example/admin",
        ),
        credits_expiring(
            lang,
            SITE,
            "m@example.com",
            name,
            2,
            expiry_day(),
            "https://x.example",
        ),
        payment_refunded(
            lang,
            SITE,
            "m@example.com",
            name,
            &Refund {
                amount: 100,
                currency: "EGP",
                credits_removed: 0,
                paid_on: paid_on(),
                online: true,
            },
        ),
        purchase_receipt(
            lang,
            SITE,
            "m@example.com",
            name,
            &Purchase {
                package: name,
                sessions: 1,
                amount: 100,
                currency: "EGP",
                order_id: "o",
            },
            "https://x.example",
            "https://x.example/r",
        ),
        payment_receipt(
            lang,
            SITE,
            "m@example.com",
            name,
            &ReceiptSummary {
                number: "R-000001",
                package: name,
                sessions: 1,
                amount: 100,
                currency: "EGP",
                method: "cash",
            },
            link,
        ),
        password_reset(lang, SITE, "m@example.com", link),
        newsletter_confirmation(lang, SITE, "m@example.com", link, link),
    ]
}

const HOSTILE: &str = "<script>alert(1)</script> & \"x\"";

#[test]
fn a_visitors_markup_is_escaped_in_every_html_part_and_kept_as_typed_in_the_text() {
    for lang in Language::ALL {
        let mails = every_email(lang, HOSTILE, "https://x.example/?a=1&b=2");
        // The last two name nobody.
        for mail in &mails[..mails.len() - 2] {
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
}

#[test]
fn a_site_name_with_markup_is_escaped_in_the_layout() {
    for lang in Language::ALL {
        let mail = password_reset(lang, HOSTILE, "m@example.com", "https://x.example/");
        assert!(!mail.html.contains("<script>"), "{}", mail.html);
    }
}

/// Arabic letters, as a test of which language a text is in.
fn has_arabic(s: &str) -> bool {
    s.chars().any(|c| ('\u{0600}'..='\u{06FF}').contains(&c))
}

#[test]
fn every_arabic_email_is_arabic_and_right_to_left_and_every_english_one_is_not() {
    let arabic = every_email(AR, "Mona Adel", "https://x.example/");
    let english = every_email(EN, "Mona Adel", "https://x.example/");
    assert_eq!(arabic.len(), 14, "every email");
    for (ar, en) in arabic.iter().zip(&english) {
        assert!(has_arabic(&ar.subject), "{}", ar.subject);
        assert!(has_arabic(&ar.text), "{}", ar.text);
        assert!(
            ar.html
                .starts_with("<!doctype html><html lang=\"ar\" dir=\"rtl\">"),
            "{}",
            ar.html
        );
        // Outlook ignores CSS direction on some elements: every block says it twice.
        assert!(ar.html.contains("<body dir=\"rtl\""), "{}", ar.html);
        assert!(
            ar.html.contains("dir=\"rtl\" align=\"right\""),
            "{}",
            ar.html
        );
        assert!(!ar.html.contains("text-align:left"), "{}", ar.html);
        for english_only in ["Hello", "Thank you", "If the button does not work"] {
            assert!(
                !ar.html.contains(english_only),
                "{english_only}: {}",
                ar.html
            );
            assert!(
                !ar.text.contains(english_only),
                "{english_only}: {}",
                ar.text
            );
        }
        assert!(!has_arabic(&en.subject) && !has_arabic(&en.text) && !has_arabic(&en.html));
        assert!(en.html.starts_with("<!doctype html><html lang=\"en\">"));
        assert_eq!(ar.to, en.to);
        assert_eq!(ar.reply_to, en.reply_to);
        assert_eq!(ar.attachments.len(), en.attachments.len());
    }
}

#[test]
fn arabic_sets_addresses_numbers_and_amounts_apart_so_they_keep_their_order() {
    let receipt = payment_receipt(
        AR,
        SITE,
        "mona@example.com",
        "Mona Adel",
        &ReceiptSummary {
            number: "R-000042",
            package: "Single Session",
            sessions: 1,
            amount: 2_025_000,
            currency: "EGP",
            method: "bank_transfer",
        },
        "https://coach.example.com/ar/receipt?id=p-1",
    );
    assert!(
        receipt.html.contains("<span dir=\"auto\">R-000042</span>"),
        "{}",
        receipt.html
    );
    assert!(
        receipt
            .html
            .contains("<span dir=\"auto\">20,250 ج.م</span>"),
        "{}",
        receipt.html
    );
    assert!(
        receipt
            .html
            .contains("<span dir=\"ltr\" style=\"unicode-bidi:isolate\">https://coach.example.com/ar/receipt?id=p-1</span>"),
        "{}",
        receipt.html
    );
    assert!(
        receipt.text.contains("المبلغ: 20,250 ج.م"),
        "{}",
        receipt.text
    );
    assert!(
        receipt.text.contains("طريقة الدفع: تحويل بنكي"),
        "{}",
        receipt.text
    );
    let reminder = booking_reminder(AR, SITE, "m@example.com", "منى عادل", &session(None));
    assert_eq!(
        reminder.subject,
        "تذكير بموعد جلستك: الخميس 3 ديسمبر 2026 الساعة 3:00 م (بتوقيت القاهرة)"
    );
    assert!(reminder.html.contains("<span dir=\"auto\">منى عادل</span>"));
}

#[test]
fn arabic_links_lead_to_the_arabic_pages() {
    let receipt = purchase_receipt(
        AR,
        SITE,
        "m@example.com",
        "Mona",
        &Purchase {
            package: "باقة الانطلاق",
            sessions: 5,
            amount: 2_025_000,
            currency: "EGP",
            order_id: "ord-7",
        },
        "https://coach.example.com",
        "https://coach.example.com/ar/receipt?id=p-1",
    );
    assert!(
        receipt
            .text
            .contains("https://coach.example.com/ar/book-session")
    );
    assert!(
        receipt
            .text
            .contains("https://coach.example.com/ar/dashboard")
    );
    assert_eq!(
        receipt.subject,
        format!("إيصال الدفع من {SITE}: باقة الانطلاق")
    );
    let expiring = credits_expiring(
        AR,
        SITE,
        "m@example.com",
        "Mona",
        2,
        expiry_day(),
        "https://coach.example.com",
    );
    assert!(
        expiring
            .text
            .contains("https://coach.example.com/ar/book-session")
    );
    assert_eq!(
        expiring.subject,
        "تنتهي صلاحية رصيد جلستين في 17 ديسمبر 2026"
    );
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
        EN,
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
        EN,
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

    let confirmed = booking_confirmation(EN, SITE, "mona@example.com", "Mona Adel", &session(None));
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
        EN,
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
        EN,
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

#[test]
fn an_arabic_invitation_says_what_and_how_to_join_in_arabic() {
    let s = session(Some("https://meet.google.com/abc-defg-hij"));
    let text = super::invitation::ics(
        AR,
        &s,
        SITE,
        super::invitation::Method::Request,
        ("منى عادل", "mona@example.com"),
        stamp(),
    );
    insta::assert_snapshot!("ar_invitation_request.ics", text.replace("\r\n", "\n"));
    let cal = parse(&text);
    let event = cal.events().next().expect("one VEVENT");
    assert_eq!(event.get_summary(), Some("جلسة كوتشينج"));
    assert_eq!(
        event.get_description(),
        Some("رابط الانضمام إلى الاجتماع: https://meet.google.com/abc-defg-hij")
    );
    let summary = event.properties().get("SUMMARY").unwrap();
    assert_eq!(param(summary, "LANGUAGE"), Some("ar"));
    // What calendars match on does not change with the language.
    assert_eq!(event.get_uid(), Some("booking-b-42@coach.example.com"));
    assert_eq!(event.property_value("DTSTART"), Some("20261203T130000Z"));
    // A title of the coach's own stays as written.
    let mut named = session(None);
    named.title = "Executive Coaching — 90 min";
    let mail = booking_confirmation(AR, SITE, "mona@example.com", "منى", &named);
    let cal = parse(&mail.attachments[0].content);
    assert_eq!(
        cal.events().next().unwrap().get_summary(),
        Some("Executive Coaching — 90 min")
    );
    assert!(mail.text.contains("Executive Coaching — 90 min"));
    // The English invitation carries no LANGUAGE.
    let english = super::invitation::ics(
        EN,
        &s,
        SITE,
        super::invitation::Method::Request,
        ("Mona Adel", "mona@example.com"),
        stamp(),
    );
    assert!(!english.contains("LANGUAGE="), "{english}");
}

fn transfer<'a>(package: &'a str) -> Transfer<'a> {
    Transfer {
        package,
        amount: 2_025_000,
        currency: "EGP",
        reference: "TR-7KQ2M9",
        expires: expiry_day(),
        instapay: Some("nadinekamel@instapay"),
        iban: Some("EG38 0019 0005 0000 0000 2631 8000 2"),
        account_name: "Nadine Kamel Coaching LLC",
        bank: Some("National Bank of Egypt (NBE)"),
    }
}

#[test]
fn transfer_instructions_snapshot() {
    for l in LANGUAGES {
        let package = match l.0 {
            Language::En => "Momentum Package",
            Language::Ar => "باقة الانطلاق",
        };
        let mail = transfer_instructions(
            l.0,
            SITE,
            "mona@example.com",
            "Mona Adel",
            &transfer(package),
            "https://coach.example.com",
        );
        check_in(l, "transfer_instructions", &mail);
    }
}

#[test]
fn transfer_lapsed_snapshot() {
    for l in LANGUAGES {
        let mail = transfer_lapsed(
            l.0,
            SITE,
            "mona@example.com",
            "Mona Adel",
            &transfer("Momentum Package"),
            "https://coach.example.com",
        );
        check_in(l, "transfer_lapsed", &mail);
    }
}

// -- a sponsor's emails

fn invoice<'a>(sponsor: &'a str, link: &'a str) -> InvoiceMail<'a> {
    InvoiceMail {
        number: "INV-000001",
        sponsor,
        engagement: "Leadership programme 2027",
        total: 16_200_000,
        currency: "EGP",
        due_on: expiry_day(),
        link,
    }
}

const INVOICE_LINK: &str = "https://coach.example.com/invoices/inv-1?token=abc";

#[test]
fn engagement_invitation_snapshots() {
    for l in LANGUAGES {
        for (name, credits) in [
            ("engagement_invitation", 6),
            ("engagement_invitation_one", 1),
        ] {
            check_in(
                l,
                name,
                &engagement_invitation(
                    l.0,
                    SITE,
                    "mona@nile-logistics.example",
                    "Nile Logistics",
                    "Leadership programme 2027",
                    credits,
                    &l.0.page(
                        "https://coach.example.com",
                        "/auth?mode=signup&email=mona%40nile-logistics.example",
                    ),
                ),
            );
        }
    }
}

#[test]
fn invoice_sent_snapshot() {
    for l in LANGUAGES {
        check_in(
            l,
            "invoice_sent",
            &invoice_sent(
                l.0,
                SITE,
                "billing@nile-logistics.example",
                "Karim Hassan",
                &invoice("Nile Logistics", INVOICE_LINK),
            ),
        );
    }
}

#[test]
fn invoice_paid_snapshot() {
    for l in LANGUAGES {
        check_in(
            l,
            "invoice_paid",
            &invoice_paid(
                l.0,
                SITE,
                "billing@nile-logistics.example",
                "Karim Hassan",
                &invoice("Nile Logistics", INVOICE_LINK),
                paid_on(),
            ),
        );
    }
}

#[test]
fn invoice_overdue_snapshot() {
    for l in LANGUAGES {
        check_in(
            l,
            "invoice_overdue",
            &invoice_overdue(
                l.0,
                SITE,
                "billing@nile-logistics.example",
                "Karim Hassan",
                &invoice("Nile Logistics", INVOICE_LINK),
            ),
        );
    }
}

/// A sponsor's four emails, in `lang`, with `name` as the company, the engagement and the
/// billing contact.
fn sponsor_emails(lang: Language, name: &'static str) -> Vec<OutgoingEmail> {
    let inv = InvoiceMail {
        engagement: name,
        ..invoice(name, "https://x.example/?a=1&b=2")
    };
    vec![
        engagement_invitation(
            lang,
            SITE,
            "m@example.com",
            name,
            name,
            2,
            "https://x.example/?a=1&b=2",
        ),
        invoice_sent(lang, SITE, "b@example.com", name, &inv),
        invoice_paid(lang, SITE, "b@example.com", name, &inv, paid_on()),
        invoice_overdue(lang, SITE, "b@example.com", name, &inv),
    ]
}

#[test]
fn a_sponsors_emails_escape_names_and_are_in_the_recipients_language() {
    for lang in Language::ALL {
        for mail in sponsor_emails(lang, HOSTILE) {
            assert!(!mail.html.contains("<script>"), "{}", mail.html);
            assert!(
                mail.html
                    .contains("&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;x&#34;"),
                "{}",
                mail.html
            );
            assert!(
                mail.html
                    .contains("href=\"https://x.example/?a=1&#38;b=2\""),
                "{}",
                mail.html
            );
            assert!(mail.text.contains(HOSTILE), "{}", mail.text);
        }
    }
    let arabic = sponsor_emails(AR, "Nile Logistics");
    let english = sponsor_emails(EN, "Nile Logistics");
    for (ar, en) in arabic.iter().zip(&english) {
        assert!(has_arabic(&ar.subject), "{}", ar.subject);
        assert!(has_arabic(&ar.text), "{}", ar.text);
        assert!(
            ar.html
                .starts_with("<!doctype html><html lang=\"ar\" dir=\"rtl\">"),
            "{}",
            ar.html
        );
        for english_only in [
            "Hello",
            "Thank you",
            "If the button does not work",
            "Invoice",
        ] {
            assert!(
                !ar.html.contains(english_only),
                "{english_only}: {}",
                ar.html
            );
            assert!(
                !ar.text.contains(english_only),
                "{english_only}: {}",
                ar.text
            );
        }
        assert!(!has_arabic(&en.subject) && !has_arabic(&en.text) && !has_arabic(&en.html));
        assert_eq!(ar.to, en.to);
    }
    // Amounts and references keep their order inside Arabic sentences.
    let sent = &arabic[1];
    assert!(
        sent.html
            .contains("<strong><span dir=\"ltr\">INV-000001</span></strong>"),
        "{}",
        sent.html
    );
    assert!(
        sent.html
            .contains("<strong><span dir=\"ltr\">162,000 ج.م</span></strong>"),
        "{}",
        sent.html
    );
    assert!(sent.text.contains("الإجمالي: 162,000 ج.م"), "{}", sent.text);
    assert_eq!(
        english[1].subject,
        format!("Invoice INV-000001 from {SITE}")
    );
    assert_eq!(english[2].subject, "Receipt for invoice INV-000001");
    assert_eq!(english[3].subject, "Invoice INV-000001 is overdue");
    assert_eq!(
        english[0].subject,
        format!("Nile Logistics has booked coaching for you with {SITE}")
    );
}

/// The coach's two alerts (status page), in `lang`: the webhooks of PayTabs failing, and
/// `stuck` emails waiting over an hour.
fn alert_emails(lang: Language, stuck: i64) -> Vec<OutgoingEmail> {
    use super::alert_templates::*;
    let at = Utc.with_ymd_and_hms(2026, 12, 3, 13, 5, 0).unwrap();
    let status_url = match lang {
        Language::En => "https://coach.example.com/admin#system",
        Language::Ar => "https://coach.example.com/ar/admin#system",
    };
    let reason = match lang {
        Language::En => "its signature does not match our key",
        Language::Ar => "توقيعه لا يطابق مفتاحنا",
    };
    vec![
        webhooks_failing(
            lang,
            SITE,
            "coach@example.com",
            &Failing {
                provider: "PayTabs",
                failures: 3,
                reason,
                at,
                time_zone: chrono_tz::Africa::Cairo,
                status_url,
            },
        ),
        outbox_stuck(
            lang,
            SITE,
            "coach@example.com",
            &Stuck {
                count: stuck,
                oldest: at,
                time_zone: chrono_tz::Africa::Cairo,
                status_url,
            },
        ),
    ]
}

#[test]
fn alert_snapshots() {
    for lang in LANGUAGES {
        let mails = alert_emails(lang.0, 3);
        check_in(lang, "alert_webhooks", &mails[0]);
        check_in(lang, "alert_outbox", &mails[1]);
    }
}

#[test]
fn the_alerts_are_in_the_coachs_language_and_count_the_stuck_emails() {
    for (ar, en) in alert_emails(AR, 1).iter().zip(&alert_emails(EN, 1)) {
        assert!(
            has_arabic(&ar.subject) && has_arabic(&ar.text),
            "{}",
            ar.text
        );
        assert!(
            ar.html
                .starts_with("<!doctype html><html lang=\"ar\" dir=\"rtl\">"),
            "{}",
            ar.html
        );
        assert!(ar.html.contains("/ar/admin#system"), "{}", ar.html);
        assert!(!has_arabic(&en.subject) && !has_arabic(&en.text) && !has_arabic(&en.html));
        assert!(!ar.html.contains("If the button does not work"));
    }
    let one = &alert_emails(EN, 1)[1];
    assert!(one.text.starts_with("1 email has waited"), "{}", one.text);
    let many = &alert_emails(EN, 12)[1];
    assert!(
        many.text.starts_with("12 emails have waited"),
        "{}",
        many.text
    );
    assert!(alert_emails(AR, 2)[1].text.starts_with("رسالتان"));
    assert!(alert_emails(AR, 5)[1].text.starts_with("5 رسائل"));
    assert!(alert_emails(AR, 12)[1].text.starts_with("12 رسالة"));
    // The times are the coach's (Cairo, UTC+2 in December).
    assert!(
        alert_emails(EN, 1)[0]
            .text
            .contains("at Dec 03, 2026 15:05")
    );
}
