//! The emails. Each one is a struct of what it says, rendered through two compiled templates
//! of `api/templates/email/` (askama): `<name>.txt` for the text part and `<name>.html`, which
//! extends the shared `layout.html`, for the HTML part. HTML escaping is by construction: every
//! value a template writes goes through askama's HTML escaper (no template marks one `safe`),
//! so a visitor's name or message can never become markup.

use super::OutgoingEmail;
pub use super::invitation::SessionDetails;
use super::invitation::{self, Method};

/// HTML-escapes `s` for the few pages written by hand (the newsletter's answer page, the
/// devkit's stand-in pages). The emails do not use it: their templates escape every value.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Renders an email's data struct through its `.txt` and `.html` templates: (text, html).
macro_rules! email_templates {
    ($data:ident, $text:tt, $html:tt) => {
        impl $data<'_> {
            fn render(&self) -> (String, String) {
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
                // Rendering fails only when a value's `Display` does; ours are strings.
                let mut text =
                    askama::Template::render(&Text { e: self }).expect("an email's text renders");
                // A text part ends with a line end (the template file's last one is dropped).
                text.push('\n');
                let html =
                    askama::Template::render(&Html { e: self }).expect("an email's HTML renders");
                (text, html)
            }
        }
    };
}
pub(super) use email_templates;

/// Money as every email writes it: grouped thousands, decimals only when there are piastres,
/// then the currency (`20,250 EGP`, `4,500.50 EGP`).
pub fn money(minor: i64, currency: &str) -> String {
    format!(
        "{} {currency}",
        content_model::model::Money(minor).display()
    )
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
    "email/email_confirmation.html"
);

pub fn email_confirmation(site: &str, to: &str, name: &str, link: &str) -> OutgoingEmail {
    let e = EmailConfirmation { site, name, link };
    mail(to, format!("Confirm your email for {site}"), e.render())
}

struct PasswordReset<'a> {
    site: &'a str,
    link: &'a str,
}
email_templates!(
    PasswordReset,
    "email/password_reset.txt",
    "email/password_reset.html"
);

pub fn password_reset(site: &str, to: &str, link: &str) -> OutgoingEmail {
    let e = PasswordReset { site, link };
    mail(to, format!("Reset your password for {site}"), e.render())
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
    "email/contact_notification.html"
);

/// To the coach, with Reply-To set to the sender so replying just works.
pub fn contact_notification(site: &str, coach: &str, c: &ContactDetails) -> OutgoingEmail {
    let kind = if c.discovery_call {
        "Discovery call request"
    } else {
        "New message"
    };
    let rows = [
        ("Name", Some(c.name)),
        ("Email", Some(c.email)),
        ("Mobile", c.phone),
        ("Company", c.company),
        ("Interested in", c.interested_in),
        ("Objective", c.objective),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.filter(|v| !v.is_empty()).map(|v| (k, v)))
    .collect();
    let e = ContactNotification {
        site,
        kind,
        rows,
        message: c.message,
        name: c.name,
    };
    OutgoingEmail {
        reply_to: Some(c.email.into()),
        ..mail(coach, format!("{kind} from {}", c.name), e.render())
    }
}

struct ContactAcknowledgement<'a> {
    site: &'a str,
    name: &'a str,
    what: &'a str,
    message: &'a str,
}
email_templates!(
    ContactAcknowledgement,
    "email/contact_acknowledgement.txt",
    "email/contact_acknowledgement.html"
);

pub fn contact_acknowledgement(site: &str, c: &ContactDetails) -> OutgoingEmail {
    let what = if c.discovery_call {
        "your discovery call request"
    } else {
        "your message"
    };
    let e = ContactAcknowledgement {
        site,
        name: c.name,
        what,
        message: c.message,
    };
    mail(c.email, format!("We received {what}"), e.render())
}

struct NewsletterConfirmation<'a> {
    site: &'a str,
    confirm_link: &'a str,
    unsubscribe_link: &'a str,
}
email_templates!(
    NewsletterConfirmation,
    "email/newsletter_confirmation.txt",
    "email/newsletter_confirmation.html"
);

/// Double opt-in, with the one-click unsubscribe headers of RFC 8058.
pub fn newsletter_confirmation(
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
    OutgoingEmail {
        headers: vec![
            ("List-Unsubscribe".into(), format!("<{unsubscribe_link}>")),
            (
                "List-Unsubscribe-Post".into(),
                "List-Unsubscribe=One-Click".into(),
            ),
        ],
        ..mail(
            to,
            format!("Please confirm your subscription to {site}"),
            e.render(),
        )
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
    "email/purchase_receipt.html"
);

/// Sent when an online purchase completes.
#[allow(clippy::too_many_arguments)]
pub fn purchase_receipt(
    site: &str,
    to: &str,
    name: &str,
    package: &str,
    sessions: i64,
    amount: i64,
    currency: &str,
    order_id: &str,
    base_url: &str,
    receipt_url: &str,
) -> OutgoingEmail {
    let e = PurchaseReceipt {
        site,
        name,
        package,
        credits: credits_phrase(sessions),
        amount: money(amount, currency),
        order_id,
        receipt_url,
        book: format!("{base_url}/book-session"),
        dashboard: format!("{base_url}/dashboard"),
    };
    mail(
        to,
        format!("Your receipt from {site}: {package}"),
        e.render(),
    )
}

/// What a receipt email says about the payment.
pub struct ReceiptSummary<'a> {
    pub number: &'a str,
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
    "email/payment_receipt.html"
);

/// Sent when the admin records a payment: what was paid, and a link to the printable receipt.
pub fn payment_receipt(
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
        sessions: if r.sessions == 1 {
            "1 session".to_string()
        } else {
            format!("{} sessions", r.sessions)
        },
        amount: money(r.amount, r.currency),
        method: r.method.replace('_', " "),
        receipt_url,
    };
    mail(
        to,
        format!("Your receipt from {site}: {}", r.number),
        e.render(),
    )
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
    "email/booking_confirmation.html"
);

/// To the client, with the invitation (METHOD:REQUEST) attached.
pub fn booking_confirmation(site: &str, to: &str, name: &str, s: &SessionDetails) -> OutgoingEmail {
    let e = BookingConfirmation {
        site,
        name,
        title: s.title,
        when: s.when(),
        meet_link: s.meet_link,
    };
    OutgoingEmail {
        attachments: vec![invitation::attachment(
            s,
            site,
            Method::Request,
            (name, to),
            chrono::Utc::now(),
        )],
        ..mail(to, format!("Session confirmed: {}", e.when), e.render())
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

struct BookingCancellation<'a> {
    site: &'a str,
    name: &'a str,
    when: String,
    credit: &'a str,
}
email_templates!(
    BookingCancellation,
    "email/booking_cancellation.txt",
    "email/booking_cancellation.html"
);

/// To the client, with the invitation's cancellation (METHOD:CANCEL) attached: `s.invitation`
/// must carry the next SEQUENCE (`Invitation::advance`), or calendars ignore it.
pub fn booking_cancellation(
    site: &str,
    to: &str,
    name: &str,
    s: &SessionDetails,
    credit: CancelCredit,
) -> OutgoingEmail {
    let credit = match credit {
        CancelCredit::Returned => "The session credit is back in your account.",
        CancelCredit::KeptLate => {
            "It was cancelled less than 24 hours before the start, so under the cancellation policy the session credit stays used."
        }
        CancelCredit::NoneHeld => "",
    };
    let e = BookingCancellation {
        site,
        name,
        when: s.when(),
        credit,
    };
    OutgoingEmail {
        attachments: vec![invitation::attachment(
            s,
            site,
            Method::Cancel,
            (name, to),
            chrono::Utc::now(),
        )],
        ..mail(to, format!("Session cancelled: {}", e.when), e.render())
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
    "email/booking_reminder.html"
);

pub fn booking_reminder(site: &str, to: &str, name: &str, s: &SessionDetails) -> OutgoingEmail {
    let e = BookingReminder {
        site,
        name,
        when: s.when(),
        meet_link: s.meet_link,
    };
    mail(to, format!("Reminder: your session {}", e.when), e.render())
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
    "email/booking_needs_attention.html"
);

/// To the coach when a booking could not be paid with a credit or the invitee is not a client.
pub fn booking_needs_attention(
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
    mail(to, format!("Booking needs attention: {who}"), e.render())
}

struct WelcomeSetPassword<'a> {
    site: &'a str,
    name: &'a str,
    link: &'a str,
}
email_templates!(
    WelcomeSetPassword,
    "email/welcome_set_password.txt",
    "email/welcome_set_password.html"
);

/// To a user an admin created: a link to choose their own password.
pub fn welcome_set_password(site: &str, to: &str, name: &str, link: &str) -> OutgoingEmail {
    let e = WelcomeSetPassword { site, name, link };
    mail(to, format!("Your client account at {site}"), e.render())
}
