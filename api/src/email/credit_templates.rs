//! The emails of the credit lifecycle: credits about to expire, and a refunded payment.

use super::OutgoingEmail;
use super::templates::{button, escape, layout};

fn credits_phrase(n: i64) -> String {
    if n == 1 {
        "1 session credit".into()
    } else {
        format!("{n} session credits")
    }
}

/// Sent once per lot, 14 days before its credits expire. `day` is `MMM dd, yyyy`.
pub fn credits_expiring(
    site: &str,
    to: &str,
    name: &str,
    credits: i64,
    day: &str,
    base_url: &str,
) -> OutgoingEmail {
    let what = credits_phrase(credits);
    let book = format!("{base_url}/book-session");
    OutgoingEmail {
        to: to.into(),
        subject: format!("{what} expire on {day}"),
        text: format!(
            "Hello {name},\n\n{what} on your account expire on {day}. Unused credits cannot be used after that day.\n\nBook a session: {book}\n\nIf you need more time, reply to this email.\n\n{site}\n"
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p><strong>{what}</strong> on your account expire on <strong>{}</strong>. Unused credits cannot be used after that day.</p>{}<p>If you need more time, reply to this email.</p>",
                escape(name),
                escape(day),
                button(&book, "Book a session")
            ),
        ),
        ..Default::default()
    }
}

/// Sent when a refund of a payment is done (PayTabs approved it, or the admin recorded it).
#[allow(clippy::too_many_arguments)]
pub fn payment_refunded(
    site: &str,
    to: &str,
    name: &str,
    amount: &str,
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
    OutgoingEmail {
        to: to.into(),
        subject: format!("Your refund from {site}: {amount} {currency}"),
        text: format!(
            "Hello {name},\n\nWe refunded {amount} {currency} of your payment of {paid_on}. {route}\n\n{credits}\n\n{site}\n"
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p>We refunded <strong>{} {}</strong> of your payment of {}. {route}</p><p>{credits}</p>",
                escape(name),
                escape(amount),
                escape(currency),
                escape(paid_on)
            ),
        ),
        ..Default::default()
    }
}
