//! The emails of sponsored coaching: a company (the sponsor) pays, through an engagement and
//! its invoice, for its executives' sessions. One invites an executive; three go to the
//! sponsor's billing contact about an invoice (sent, paid, overdue). Their templates are
//! `api/templates/email/engagement_invitation.*` and `invoice_{sent,paid,overdue}.*` (Arabic:
//! `email/ar/…`); see `templates` for how the languages are laid out.

use chrono::NaiveDate;

use super::OutgoingEmail;
use super::locale;
use super::templates::{credits_phrase, email_templates};
use crate::domain::Language;

/// What the invoice emails say about an invoice.
pub struct InvoiceMail<'a> {
    /// Printed number, e.g. "INV-000001".
    pub number: &'a str,
    /// The sponsor (company) name.
    pub sponsor: &'a str,
    /// The engagement's title, e.g. "Leadership programme 2027".
    pub engagement: &'a str,
    /// Total in minor units (piastres) and its currency.
    pub total: i64,
    pub currency: &'a str,
    pub due_on: NaiveDate,
    /// The invoice's page (view, print, pay), no account needed.
    pub link: &'a str,
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

struct EngagementInvitation<'a> {
    site: &'a str,
    /// The invited address: the one to sign up with.
    to: &'a str,
    sponsor: &'a str,
    engagement: &'a str,
    /// `6 session credits`, `6 جلسات` (after رصيد).
    what: String,
    signup_link: &'a str,
}
email_templates!(
    EngagementInvitation,
    "email/engagement_invitation.txt",
    "email/engagement_invitation.html",
    "email/ar/engagement_invitation.txt",
    "email/ar/engagement_invitation.html"
);

/// To an executive invited by email: `sponsor` pays for `credits` coaching sessions in
/// `engagement`; sign up with this email at `signup_link` to receive them.
pub fn engagement_invitation(
    lang: Language,
    site: &str,
    to: &str,
    sponsor: &str,
    engagement: &str,
    credits: i64,
    signup_link: &str,
) -> OutgoingEmail {
    let e = EngagementInvitation {
        site,
        to,
        sponsor,
        engagement,
        what: match lang {
            Language::En => credits_phrase(credits),
            Language::Ar => locale::ar_sessions(credits),
        },
        signup_link,
    };
    let subject = match lang {
        Language::En => format!("{sponsor} has booked coaching for you with {site}"),
        Language::Ar => format!("جلسات كوتشينج لك لدى {site} على نفقة {sponsor}"),
    };
    mail(to, subject, e.render(lang))
}

/// An invoice as its emails write it: the total and the days in the recipient's language.
struct Invoice<'a> {
    site: &'a str,
    name: &'a str,
    number: &'a str,
    sponsor: &'a str,
    engagement: &'a str,
    /// e.g. `162,000 EGP`, `162,000 ج.م`.
    total: String,
    due_on: String,
    /// The day it was paid (the paid email only).
    paid_on: String,
    link: &'a str,
}

impl<'a> Invoice<'a> {
    fn new(lang: Language, site: &'a str, name: &'a str, inv: &InvoiceMail<'a>) -> Self {
        Invoice {
            site,
            name,
            number: inv.number,
            sponsor: inv.sponsor,
            engagement: inv.engagement,
            total: locale::money(lang, inv.total, inv.currency),
            due_on: locale::day(lang, inv.due_on),
            paid_on: String::new(),
            link: inv.link,
        }
    }
}

/// One email's templates over the shared [`Invoice`] data.
macro_rules! invoice_email {
    ($name:ident, $text:tt, $html:tt, $ar_text:tt, $ar_html:tt) => {
        struct $name<'a>(Invoice<'a>);
        impl<'a> std::ops::Deref for $name<'a> {
            type Target = Invoice<'a>;
            fn deref(&self) -> &Invoice<'a> {
                &self.0
            }
        }
        email_templates!($name, $text, $html, $ar_text, $ar_html);
    };
}

invoice_email!(
    InvoiceSent,
    "email/invoice_sent.txt",
    "email/invoice_sent.html",
    "email/ar/invoice_sent.txt",
    "email/ar/invoice_sent.html"
);
invoice_email!(
    InvoicePaid,
    "email/invoice_paid.txt",
    "email/invoice_paid.html",
    "email/ar/invoice_paid.txt",
    "email/ar/invoice_paid.html"
);
invoice_email!(
    InvoiceOverdue,
    "email/invoice_overdue.txt",
    "email/invoice_overdue.html",
    "email/ar/invoice_overdue.txt",
    "email/ar/invoice_overdue.html"
);

/// To the billing contact: the invoice, its total, due date and the link to view, print and
/// pay it (card on PayTabs, or bank transfer).
pub fn invoice_sent(
    lang: Language,
    site: &str,
    to: &str,
    contact_name: &str,
    inv: &InvoiceMail,
) -> OutgoingEmail {
    let e = InvoiceSent(Invoice::new(lang, site, contact_name, inv));
    let subject = match lang {
        Language::En => format!("Invoice {} from {site}", inv.number),
        Language::Ar => format!("الفاتورة رقم {} من {site}", inv.number),
    };
    mail(to, subject, e.render(lang))
}

/// To the billing contact: the invoice is paid (its receipt): number, total, paid on
/// `paid_on`, the link to print it; the executives' credits are now on their accounts.
pub fn invoice_paid(
    lang: Language,
    site: &str,
    to: &str,
    contact_name: &str,
    inv: &InvoiceMail,
    paid_on: NaiveDate,
) -> OutgoingEmail {
    let e = InvoicePaid(Invoice {
        paid_on: locale::day(lang, paid_on),
        ..Invoice::new(lang, site, contact_name, inv)
    });
    let subject = match lang {
        Language::En => format!("Receipt for invoice {}", inv.number),
        Language::Ar => format!("إيصال سداد الفاتورة رقم {}", inv.number),
    };
    mail(to, subject, e.render(lang))
}

/// To the billing contact, once: the invoice is past its due date; the link to pay it.
pub fn invoice_overdue(
    lang: Language,
    site: &str,
    to: &str,
    contact_name: &str,
    inv: &InvoiceMail,
) -> OutgoingEmail {
    let e = InvoiceOverdue(Invoice::new(lang, site, contact_name, inv));
    let subject = match lang {
        Language::En => format!("Invoice {} is overdue", inv.number),
        Language::Ar => format!("تأخر سداد الفاتورة رقم {}", inv.number),
    };
    mail(to, subject, e.render(lang))
}
