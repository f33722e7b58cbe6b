//! The emails, in the recipient's language (issue 21: English and Arabic).
//!
//! Each email is one struct of what it says and one function that fills it in and names the
//! subject. Its words are in templates, one pair per language, under `api/templates/email/`
//! (askama, compiled in): `<name>.txt` and `<name>.html` for English, `ar/<name>.txt` and
//! `ar/<name>.html` for Arabic. So each text is translated once, where a translator reads the
//! whole email in order (Arabic sentences do not follow English word order, which a table of
//! fragments would force), and an English template never changes when Arabic does. The few
//! words that are chosen in code (subjects, a phrase that depends on a count or a case) sit in
//! the function beside their English, in a `match` on [`Language`]; how each language writes
//! days, times, money and counts is `super::locale`.
//!
//! Each HTML template extends its language's frame: `layout.html`, or `ar/layout.html`, which
//! is right to left for Gmail and Outlook alike (`<html lang="ar" dir="rtl">`, `dir="rtl"` and
//! `align="right"` on every block, since Outlook ignores CSS direction on some elements), with
//! addresses, numbers and names set apart (`<span dir="ltr">`, `<span dir="auto">`) so they
//! keep their order inside Arabic sentences.
//!
//! HTML escaping is by construction: every value a template writes goes through askama's HTML
//! escaper (no template marks one `safe`), so a visitor's name or message can never become
//! markup.

use super::OutgoingEmail;
pub use super::invitation::SessionDetails;
use super::invitation::{self, Method};
use super::locale;
pub use crate::domain::Language;

/// HTML-escapes `s` for the few pages written by hand (the newsletter's answer page, the
/// devkit's stand-in pages). The emails do not use it: their templates escape every value.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Renders an email's data struct through its templates in the recipient's language: the
/// English `.txt` and `.html`, then the Arabic ones. Answers (text, html).
macro_rules! email_templates {
    ($data:ident, $text:tt, $html:tt, $ar_text:tt, $ar_html:tt) => {
        impl $data<'_> {
            fn render(&self, lang: $crate::domain::Language) -> (String, String) {
                #[derive(askama::Template)]
                #[template(path = $text)]
                struct Text<'x, 'a> {
                    e: &'x $data<'a>,
                }
                #[derive(askama::Template)]
                #[template(path = $html)]
                struct Html<'x, 'a> {
                    e: &'x $data<'a>,
                }
                #[derive(askama::Template)]
                #[template(path = $ar_text)]
                struct ArText<'x, 'a> {
                    e: &'x $data<'a>,
                }
                #[derive(askama::Template)]
                #[template(path = $ar_html)]
                struct ArHtml<'x, 'a> {
                    e: &'x $data<'a>,
                }
                // Rendering fails only when a value's `Display` does; ours are strings.
                let (text, html) = match lang {
                    $crate::domain::Language::En => (
                        askama::Template::render(&Text { e: self }),
                        askama::Template::render(&Html { e: self }),
                    ),
                    $crate::domain::Language::Ar => (
                        askama::Template::render(&ArText { e: self }),
                        askama::Template::render(&ArHtml { e: self }),
                    ),
                };
                let mut text = text.expect("an email's text renders");
                // A text part ends with a line end (the template file's last one is dropped).
                text.push('\n');
                (text, html.expect("an email's HTML renders"))
            }
        }
    };
}
pub(super) use email_templates;

/// Money as every English email writes it: grouped thousands, decimals only when there are
/// piastres, then the currency (`20,250 EGP`, `4,500.50 EGP`). Other languages:
/// `locale::money`.
pub fn money(minor: i64, currency: &str) -> String {
    locale::money(Language::En, minor, currency)
}

/// `1 session credit`, `3 session credits`.
pub(super) fn credits_phrase(n: i64) -> String {
    if n == 1 {
        "1 session credit".into()
    } else {
        format!("{n} session credits")
    }
}

fn mail(to: &str, subject: String, (text, html): (String, String)) -> OutgoingEmail {
    OutgoingEmail {
        to: to.into(),
        subject,
        text,
        html,
        ..Default::default()
    }
}

struct EmailConfirmation<'a> {
    site: &'a str,
    name: &'a str,
    link: &'a str,
}
email_templates!(
    EmailConfirmation,
    "email/email_confirmation.txt",
    "email/email_confirmation.html",
    "email/ar/email_confirmation.txt",
    "email/ar/email_confirmation.html"
);

pub fn email_confirmation(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    link: &str,
) -> OutgoingEmail {
    let e = EmailConfirmation { site, name, link };
    let subject = match lang {
        Language::En => format!("Confirm your email for {site}"),
        Language::Ar => format!("تأكيد بريدك الإلكتروني لدى {site}"),
    };
    mail(to, subject, e.render(lang))
}

struct PasswordReset<'a> {
    site: &'a str,
    link: &'a str,
}
email_templates!(
    PasswordReset,
    "email/password_reset.txt",
    "email/password_reset.html",
    "email/ar/password_reset.txt",
    "email/ar/password_reset.html"
);

pub fn password_reset(lang: Language, site: &str, to: &str, link: &str) -> OutgoingEmail {
    let e = PasswordReset { site, link };
    let subject = match lang {
        Language::En => format!("Reset your password for {site}"),
        Language::Ar => format!("إعادة تعيين كلمة المرور لدى {site}"),
    };
    mail(to, subject, e.render(lang))
}

/// What the contact form sent, for both emails it causes.
pub struct ContactDetails<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub phone: Option<&'a str>,
    pub company: Option<&'a str>,
    pub message: &'a str,
    pub interested_in: Option<&'a str>,
    pub objective: Option<&'a str>,
    pub discovery_call: bool,
}

struct ContactNotification<'a> {
    site: &'a str,
    kind: &'a str,
    /// The fields the visitor filled in, labelled.
    rows: Vec<(&'a str, &'a str)>,
    message: &'a str,
    name: &'a str,
}
email_templates!(
    ContactNotification,
    "email/contact_notification.txt",
    "email/contact_notification.html",
    "email/ar/contact_notification.txt",
    "email/ar/contact_notification.html"
);

/// To the coach (in `lang`, the coach's), with Reply-To set to the sender so replying just
/// works.
pub fn contact_notification(
    lang: Language,
    site: &str,
    coach: &str,
    c: &ContactDetails,
) -> OutgoingEmail {
    let (kind, labels) = match (lang, c.discovery_call) {
        (Language::En, true) => ("Discovery call request", EN_CONTACT_LABELS),
        (Language::En, false) => ("New message", EN_CONTACT_LABELS),
        (Language::Ar, true) => ("طلب مكالمة تعارفية", AR_CONTACT_LABELS),
        (Language::Ar, false) => ("رسالة جديدة", AR_CONTACT_LABELS),
    };
    let rows = labels
        .into_iter()
        .zip([
            Some(c.name),
            Some(c.email),
            c.phone,
            c.company,
            c.interested_in,
            c.objective,
        ])
        .filter_map(|(k, v)| v.filter(|v| !v.is_empty()).map(|v| (k, v)))
        .collect();
    let e = ContactNotification {
        site,
        kind,
        rows,
        message: c.message,
        name: c.name,
    };
    let subject = match lang {
        Language::En => format!("{kind} from {}", c.name),
        Language::Ar => format!("{kind} من {}", c.name),
    };
    OutgoingEmail {
        reply_to: Some(c.email.into()),
        ..mail(coach, subject, e.render(lang))
    }
}

/// The contact notification's labels, in the order of its rows.
const EN_CONTACT_LABELS: [&str; 6] = [
    "Name",
    "Email",
    "Mobile",
    "Company",
    "Interested in",
    "Objective",
];
const AR_CONTACT_LABELS: [&str; 6] = [
    "الاسم",
    "البريد الإلكتروني",
    "الهاتف المحمول",
    "الشركة",
    "مجال الاهتمام",
    "الهدف",
];

struct ContactAcknowledgement<'a> {
    site: &'a str,
    name: &'a str,
    what: &'a str,
    message: &'a str,
}
email_templates!(
    ContactAcknowledgement,
    "email/contact_acknowledgement.txt",
    "email/contact_acknowledgement.html",
    "email/ar/contact_acknowledgement.txt",
    "email/ar/contact_acknowledgement.html"
);

pub fn contact_acknowledgement(lang: Language, site: &str, c: &ContactDetails) -> OutgoingEmail {
    let what = match (lang, c.discovery_call) {
        (Language::En, true) => "your discovery call request",
        (Language::En, false) => "your message",
        (Language::Ar, true) => "طلبك لمكالمة تعارفية",
        (Language::Ar, false) => "رسالتك",
    };
    let e = ContactAcknowledgement {
        site,
        name: c.name,
        what,
        message: c.message,
    };
    let subject = match lang {
        Language::En => format!("We received {what}"),
        Language::Ar => format!("استلمنا {what}"),
    };
    mail(c.email, subject, e.render(lang))
}

struct NewsletterConfirmation<'a> {
    site: &'a str,
    confirm_link: &'a str,
    unsubscribe_link: &'a str,
}
email_templates!(
    NewsletterConfirmation,
    "email/newsletter_confirmation.txt",
    "email/newsletter_confirmation.html",
    "email/ar/newsletter_confirmation.txt",
    "email/ar/newsletter_confirmation.html"
);

/// Double opt-in, with the one-click unsubscribe headers of RFC 8058.
pub fn newsletter_confirmation(
    lang: Language,
    site: &str,
    to: &str,
    confirm_link: &str,
    unsubscribe_link: &str,
) -> OutgoingEmail {
    let e = NewsletterConfirmation {
        site,
        confirm_link,
        unsubscribe_link,
    };
    let subject = match lang {
        Language::En => format!("Please confirm your subscription to {site}"),
        Language::Ar => format!("يُرجى تأكيد اشتراكك في نشرة {site}"),
    };
    OutgoingEmail {
        headers: vec![
            ("List-Unsubscribe".into(), format!("<{unsubscribe_link}>")),
            (
                "List-Unsubscribe-Post".into(),
                "List-Unsubscribe=One-Click".into(),
            ),
        ],
        ..mail(to, subject, e.render(lang))
    }
}

struct PurchaseReceipt<'a> {
    site: &'a str,
    name: &'a str,
    package: &'a str,
    credits: String,
    amount: String,
    order_id: &'a str,
    receipt_url: &'a str,
    book: String,
    dashboard: String,
}
email_templates!(
    PurchaseReceipt,
    "email/purchase_receipt.txt",
    "email/purchase_receipt.html",
    "email/ar/purchase_receipt.txt",
    "email/ar/purchase_receipt.html"
);

/// What was bought online, for its receipt email.
pub struct Purchase<'a> {
    /// The package's name in the recipient's language (`catalogue::package_name`).
    pub package: &'a str,
    pub sessions: i64,
    /// In minor units (piastres).
    pub amount: i64,
    pub currency: &'a str,
    pub order_id: &'a str,
}

/// Sent when an online purchase completes. `base_url` is the site's address: the links lead to
/// its pages in `lang`.
pub fn purchase_receipt(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    p: &Purchase,
    base_url: &str,
    receipt_url: &str,
) -> OutgoingEmail {
    let e = PurchaseReceipt {
        site,
        name,
        package: p.package,
        credits: match lang {
            Language::En => credits_phrase(p.sessions),
            Language::Ar => locale::ar_sessions_alone(p.sessions),
        },
        amount: locale::money(lang, p.amount, p.currency),
        order_id: p.order_id,
        receipt_url,
        book: lang.page(base_url, "/book-session"),
        dashboard: lang.page(base_url, "/dashboard"),
    };
    let subject = match lang {
        Language::En => format!("Your receipt from {site}: {}", p.package),
        Language::Ar => format!("إيصال الدفع من {site}: {}", p.package),
    };
    mail(to, subject, e.render(lang))
}

/// What a receipt email says about the payment.
pub struct ReceiptSummary<'a> {
    pub number: &'a str,
    /// The package's name in the recipient's language.
    pub package: &'a str,
    pub sessions: i64,
    pub amount: i64,
    pub currency: &'a str,
    pub method: &'a str,
}

struct PaymentReceipt<'a> {
    site: &'a str,
    name: &'a str,
    number: &'a str,
    package: &'a str,
    sessions: String,
    amount: String,
    method: String,
    receipt_url: &'a str,
}
email_templates!(
    PaymentReceipt,
    "email/payment_receipt.txt",
    "email/payment_receipt.html",
    "email/ar/payment_receipt.txt",
    "email/ar/payment_receipt.html"
);

/// Sent when the admin records a payment: what was paid, and a link to the printable receipt.
pub fn payment_receipt(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    r: &ReceiptSummary,
    receipt_url: &str,
) -> OutgoingEmail {
    let e = PaymentReceipt {
        site,
        name,
        number: r.number,
        package: r.package,
        sessions: match lang {
            Language::En if r.sessions == 1 => "1 session".to_string(),
            Language::En => format!("{} sessions", r.sessions),
            Language::Ar => r.sessions.to_string(),
        },
        amount: locale::money(lang, r.amount, r.currency),
        method: locale::payment_method(lang, r.method),
        receipt_url,
    };
    let subject = match lang {
        Language::En => format!("Your receipt from {site}: {}", r.number),
        Language::Ar => format!("إيصال الدفع من {site}: {}", r.number),
    };
    mail(to, subject, e.render(lang))
}

struct BookingConfirmation<'a> {
    site: &'a str,
    name: &'a str,
    title: &'a str,
    when: String,
    meet_link: Option<&'a str>,
}
email_templates!(
    BookingConfirmation,
    "email/booking_confirmation.txt",
    "email/booking_confirmation.html",
    "email/ar/booking_confirmation.txt",
    "email/ar/booking_confirmation.html"
);

/// To the client, with the invitation (METHOD:REQUEST) attached.
pub fn booking_confirmation(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    s: &SessionDetails,
) -> OutgoingEmail {
    let e = BookingConfirmation {
        site,
        name,
        title: locale::session_title(lang, s.title),
        when: s.when_in(lang),
        meet_link: s.meet_link,
    };
    let subject = match lang {
        Language::En => format!("Session confirmed: {}", e.when),
        Language::Ar => format!("تأكيد الجلسة: {}", e.when),
    };
    OutgoingEmail {
        attachments: vec![invitation::attachment(
            lang,
            s,
            site,
            Method::Request,
            (name, to),
            chrono::Utc::now(),
        )],
        ..mail(to, subject, e.render(lang))
    }
}

/// What became of a cancelled session's credit, for the cancellation email.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CancelCredit {
    Returned,
    /// Cancelled less than 24 hours before the start: the credit stays used.
    KeptLate,
    /// The booking held no credit.
    NoneHeld,
}

impl CancelCredit {
    /// The sentence the cancellation email says it in.
    fn sentence(self, lang: Language) -> &'static str {
        match (lang, self) {
            (Language::En, CancelCredit::Returned) => "The session credit is back in your account.",
            (Language::En, CancelCredit::KeptLate) => {
                "It was cancelled less than 24 hours before the start, so under the cancellation policy the session credit stays used."
            }
            (Language::Ar, CancelCredit::Returned) => "وقد أُعيد رصيد الجلسة إلى حسابك.",
            (Language::Ar, CancelCredit::KeptLate) => {
                "ولأن الإلغاء تم قبل أقل من 24 ساعة من موعد بدايتها، يُحتسب رصيد الجلسة مستخدمًا وفقًا لسياسة الإلغاء."
            }
            (_, CancelCredit::NoneHeld) => "",
        }
    }
}

struct BookingCancellation<'a> {
    site: &'a str,
    name: &'a str,
    when: String,
    credit: &'a str,
}
email_templates!(
    BookingCancellation,
    "email/booking_cancellation.txt",
    "email/booking_cancellation.html",
    "email/ar/booking_cancellation.txt",
    "email/ar/booking_cancellation.html"
);

/// To the client, with the invitation's cancellation (METHOD:CANCEL) attached: `s.invitation`
/// must carry the next SEQUENCE (`Invitation::advance`), or calendars ignore it.
pub fn booking_cancellation(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    s: &SessionDetails,
    credit: CancelCredit,
) -> OutgoingEmail {
    let e = BookingCancellation {
        site,
        name,
        when: s.when_in(lang),
        credit: credit.sentence(lang),
    };
    let subject = match lang {
        Language::En => format!("Session cancelled: {}", e.when),
        Language::Ar => format!("إلغاء الجلسة: {}", e.when),
    };
    OutgoingEmail {
        attachments: vec![invitation::attachment(
            lang,
            s,
            site,
            Method::Cancel,
            (name, to),
            chrono::Utc::now(),
        )],
        ..mail(to, subject, e.render(lang))
    }
}

struct BookingReminder<'a> {
    site: &'a str,
    name: &'a str,
    when: String,
    meet_link: Option<&'a str>,
}
email_templates!(
    BookingReminder,
    "email/booking_reminder.txt",
    "email/booking_reminder.html",
    "email/ar/booking_reminder.txt",
    "email/ar/booking_reminder.html"
);

pub fn booking_reminder(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    s: &SessionDetails,
) -> OutgoingEmail {
    let e = BookingReminder {
        site,
        name,
        when: s.when_in(lang),
        meet_link: s.meet_link,
    };
    let subject = match lang {
        Language::En => format!("Reminder: your session {}", e.when),
        Language::Ar => format!("تذكير بموعد جلستك: {}", e.when),
    };
    mail(to, subject, e.render(lang))
}

struct BookingNeedsAttention<'a> {
    site: &'a str,
    who: &'a str,
    when: &'a str,
    reason: &'a str,
    admin_url: &'a str,
}
email_templates!(
    BookingNeedsAttention,
    "email/booking_needs_attention.txt",
    "email/booking_needs_attention.html",
    "email/ar/booking_needs_attention.txt",
    "email/ar/booking_needs_attention.html"
);

/// To the coach when a booking could not be paid with a credit or the invitee is not a client.
/// `when` and `reason` are in `lang` already (`locale::short_time`).
pub fn booking_needs_attention(
    lang: Language,
    site: &str,
    to: &str,
    who: &str,
    when: &str,
    reason: &str,
    admin_url: &str,
) -> OutgoingEmail {
    let e = BookingNeedsAttention {
        site,
        who,
        when,
        reason,
        admin_url,
    };
    let subject = match lang {
        Language::En => format!("Booking needs attention: {who}"),
        Language::Ar => format!("حجز يحتاج إلى متابعة: {who}"),
    };
    mail(to, subject, e.render(lang))
}

struct WelcomeSetPassword<'a> {
    site: &'a str,
    name: &'a str,
    link: &'a str,
}
email_templates!(
    WelcomeSetPassword,
    "email/welcome_set_password.txt",
    "email/welcome_set_password.html",
    "email/ar/welcome_set_password.txt",
    "email/ar/welcome_set_password.html"
);

/// To a user an admin created: a link to choose their own password.
pub fn welcome_set_password(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    link: &str,
) -> OutgoingEmail {
    let e = WelcomeSetPassword { site, name, link };
    let subject = match lang {
        Language::En => format!("Your client account at {site}"),
        Language::Ar => format!("حسابك في بوابة العملاء لدى {site}"),
    };
    mail(to, subject, e.render(lang))
}

/// How to pay a transfer order: where to send the money and the reference to write.
pub struct Transfer<'a> {
    pub package: &'a str,
    pub amount: i64,
    pub currency: &'a str,
    pub reference: &'a str,
    /// The last day the order waits, in the coach's time zone.
    pub expires: chrono::NaiveDate,
    pub instapay: Option<&'a str>,
    pub iban: Option<&'a str>,
    pub account_name: &'a str,
    pub bank: Option<&'a str>,
}

struct TransferInstructions<'a> {
    site: &'a str,
    name: &'a str,
    package: &'a str,
    amount: String,
    reference: &'a str,
    expires: String,
    instapay: Option<&'a str>,
    iban: Option<&'a str>,
    account_name: &'a str,
    bank: Option<&'a str>,
    dashboard: String,
}
email_templates!(
    TransferInstructions,
    "email/transfer_instructions.txt",
    "email/transfer_instructions.html",
    "email/ar/transfer_instructions.txt",
    "email/ar/transfer_instructions.html"
);

/// The transfer order's instructions (issue 22, item 3): nothing is credited until the coach
/// confirms the transfer.
pub fn transfer_instructions(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    t: &Transfer,
    base_url: &str,
) -> OutgoingEmail {
    let e = TransferInstructions {
        site,
        name,
        package: t.package,
        amount: locale::money(lang, t.amount, t.currency),
        reference: t.reference,
        expires: locale::day(lang, t.expires),
        instapay: t.instapay,
        iban: t.iban,
        account_name: t.account_name,
        bank: t.bank,
        dashboard: lang.page(base_url, "/dashboard"),
    };
    let subject = match lang {
        Language::En => format!(
            "How to pay your order {}: InstaPay or bank transfer",
            t.reference
        ),
        Language::Ar => format!("طريقة دفع طلبك {}: InstaPay أو تحويل بنكي", t.reference),
    };
    mail(to, subject, e.render(lang))
}

struct TransferLapsed<'a> {
    site: &'a str,
    name: &'a str,
    package: &'a str,
    amount: String,
    reference: &'a str,
    pricing: String,
}
email_templates!(
    TransferLapsed,
    "email/transfer_lapsed.txt",
    "email/transfer_lapsed.html",
    "email/ar/transfer_lapsed.txt",
    "email/ar/transfer_lapsed.html"
);

/// A transfer order nobody confirmed in time has lapsed.
pub fn transfer_lapsed(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    t: &Transfer,
    base_url: &str,
) -> OutgoingEmail {
    let e = TransferLapsed {
        site,
        name,
        package: t.package,
        amount: locale::money(lang, t.amount, t.currency),
        reference: t.reference,
        pricing: lang.page(base_url, "/pricing"),
    };
    let subject = match lang {
        Language::En => format!("Your order {} has lapsed", t.reference),
        Language::Ar => format!("انتهت صلاحية طلبك {}", t.reference),
    };
    mail(to, subject, e.render(lang))
}
