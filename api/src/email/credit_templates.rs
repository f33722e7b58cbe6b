//! The emails of the credit lifecycle: credits about to expire, and a refunded payment. Their
//! templates are `api/templates/email/credits_expiring.*` and `payment_refunded.*`.

use super::OutgoingEmail;
use super::templates::{credits_phrase, email_templates, money};

struct CreditsExpiring<'a> {
    site: &'a str,
    name: &'a str,
    what: String,
    day: &'a str,
    book: String,
}
email_templates!(
    CreditsExpiring,
    "email/credits_expiring.txt",
    "email/credits_expiring.html"
);

/// Sent once per lot, 14 days before its credits expire. `day` is `MMM dd, yyyy`.
pub fn credits_expiring(
    site: &str,
    to: &str,
    name: &str,
    credits: i64,
    day: &str,
    base_url: &str,
) -> OutgoingEmail {
    let e = CreditsExpiring {
        site,
        name,
        what: credits_phrase(credits),
        day,
        book: format!("{base_url}/book-session"),
    };
    let (text, html) = e.render();
    OutgoingEmail {
        to: to.into(),
        subject: format!("{} expire on {day}", e.what),
        text,
        html,
        ..Default::default()
    }
}

struct PaymentRefunded<'a> {
    site: &'a str,
    name: &'a str,
    /// e.g. `12,150 EGP`.
    amount: String,
    paid_on: &'a str,
    route: &'a str,
    credits: String,
}
email_templates!(
    PaymentRefunded,
    "email/payment_refunded.txt",
    "email/payment_refunded.html"
);

/// Sent when a refund of a payment is done (PayTabs approved it, or the admin recorded it).
/// `amount` is in minor units (piastres).
#[allow(clippy::too_many_arguments)]
pub fn payment_refunded(
    site: &str,
    to: &str,
    name: &str,
    amount: i64,
    currency: &str,
    credits_removed: i64,
    paid_on: &str,
    online: bool,
) -> OutgoingEmail {
    let credits = if credits_removed == 0 {
        "No session credits were removed.".to_string()
    } else {
        format!(
            "{} removed from your account.",
            credits_phrase(credits_removed)
        )
    };
    let route = if online {
        "It goes back to the card you paid with; your bank may take up to 14 working days to show it."
    } else {
        "It is repaid the way you paid, within 14 working days."
    };
    let e = PaymentRefunded {
        site,
        name,
        amount: money(amount, currency),
        paid_on,
        route,
        credits,
    };
    let (text, html) = e.render();
    OutgoingEmail {
        to: to.into(),
        subject: format!("Your refund from {site}: {}", e.amount),
        text,
        html,
        ..Default::default()
    }
}
