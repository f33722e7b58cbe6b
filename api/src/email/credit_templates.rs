//! The emails of the credit lifecycle: credits about to expire, and a refunded payment, in the
//! recipient's language. Their templates are `api/templates/email/credits_expiring.*` and
//! `payment_refunded.*` (Arabic: `email/ar/…`); see `templates` for how the languages are laid
//! out.

use chrono::NaiveDate;

use super::OutgoingEmail;
use super::locale;
use super::templates::{credits_phrase, email_templates};
use crate::domain::Language;

struct CreditsExpiring<'a> {
    site: &'a str,
    name: &'a str,
    what: String,
    day: String,
    book: String,
}
email_templates!(
    CreditsExpiring,
    "email/credits_expiring.txt",
    "email/credits_expiring.html",
    "email/ar/credits_expiring.txt",
    "email/ar/credits_expiring.html"
);

/// Sent once per lot, 14 days before its credits expire: `day` is their last day (written
/// `MMM dd, yyyy` in English, `17 ديسمبر 2026` in Arabic). `base_url` is the site's address:
/// the link leads to its booking page in `lang`.
pub fn credits_expiring(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    credits: i64,
    day: NaiveDate,
    base_url: &str,
) -> OutgoingEmail {
    let e = CreditsExpiring {
        site,
        name,
        what: match lang {
            Language::En => credits_phrase(credits),
            Language::Ar => locale::ar_sessions(credits),
        },
        day: locale::day(lang, day),
        book: lang.page(base_url, "/book-session"),
    };
    let subject = match lang {
        Language::En => format!("{} expire on {}", e.what, e.day),
        Language::Ar => format!("تنتهي صلاحية رصيد {} في {}", e.what, e.day),
    };
    let (text, html) = e.render(lang);
    OutgoingEmail {
        to: to.into(),
        subject,
        text,
        html,
        ..Default::default()
    }
}

struct PaymentRefunded<'a> {
    site: &'a str,
    name: &'a str,
    /// e.g. `12,150 EGP`, `12,150 ج.م`.
    amount: String,
    paid_on: String,
    route: &'a str,
    credits: String,
}
email_templates!(
    PaymentRefunded,
    "email/payment_refunded.txt",
    "email/payment_refunded.html",
    "email/ar/payment_refunded.txt",
    "email/ar/payment_refunded.html"
);

/// What was refunded, for the refund email.
pub struct Refund<'a> {
    /// In minor units (piastres).
    pub amount: i64,
    pub currency: &'a str,
    pub credits_removed: i64,
    /// The refunded payment's day, in the coach's time zone.
    pub paid_on: NaiveDate,
    /// Paid online (PayTabs gives it back to the card) or recorded by the admin.
    pub online: bool,
}

/// Sent when a refund of a payment is done (PayTabs approved it, or the admin recorded it).
pub fn payment_refunded(
    lang: Language,
    site: &str,
    to: &str,
    name: &str,
    r: &Refund,
) -> OutgoingEmail {
    let credits = match (lang, r.credits_removed) {
        (Language::En, 0) => "No session credits were removed.".to_string(),
        (Language::En, n) => format!("{} removed from your account.", credits_phrase(n)),
        (Language::Ar, 0) => "لم يُخصم أي رصيد جلسات من حسابك.".to_string(),
        (Language::Ar, n) => format!("تم خصم رصيد {} من حسابك.", locale::ar_sessions(n)),
    };
    let route = match (lang, r.online) {
        (Language::En, true) => {
            "It goes back to the card you paid with; your bank may take up to 14 working days to show it."
        }
        (Language::En, false) => "It is repaid the way you paid, within 14 working days.",
        (Language::Ar, true) => {
            "سيُعاد المبلغ إلى البطاقة التي استُخدمت في الدفع، وقد يستغرق ظهوره لدى البنك حتى 14 يوم عمل."
        }
        (Language::Ar, false) => "سيُرد إليك المبلغ بطريقة الدفع نفسها خلال 14 يوم عمل.",
    };
    let e = PaymentRefunded {
        site,
        name,
        amount: locale::money(lang, r.amount, r.currency),
        paid_on: locale::day(lang, r.paid_on),
        route,
        credits,
    };
    let subject = match lang {
        Language::En => format!("Your refund from {site}: {}", e.amount),
        Language::Ar => format!("استرداد مبلغ من {site}: {}", e.amount),
    };
    let (text, html) = e.render(lang);
    OutgoingEmail {
        to: to.into(),
        subject,
        text,
        html,
        ..Default::default()
    }
}
