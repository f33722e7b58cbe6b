//! The emails, as text and HTML. Every value that comes from a visitor is escaped in HTML.

use super::OutgoingEmail;

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The HTML frame shared by every email: the site's name, the content, a quiet footer.
pub(super) fn layout(site_name: &str, body_html: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"></head>\
<body style=\"margin:0;background:#f7f3ec;font-family:Arial,Helvetica,sans-serif;color:#1c2433\">\
<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\"><tr><td align=\"center\" style=\"padding:32px 16px\">\
<table role=\"presentation\" width=\"560\" cellpadding=\"0\" cellspacing=\"0\" style=\"max-width:560px;background:#ffffff;border-radius:12px\">\
<tr><td style=\"background:#0f1d36;color:#ffffff;padding:20px 28px;border-radius:12px 12px 0 0;font-family:Georgia,serif;font-size:20px\">{name}</td></tr>\
<tr><td style=\"padding:28px;font-size:16px;line-height:1.6\">{body_html}</td></tr>\
<tr><td style=\"padding:16px 28px 24px;font-size:12px;color:#6b7280\">{name}</td></tr>\
</table></td></tr></table></body></html>",
        name = escape(site_name)
    )
}

pub(super) fn button(href: &str, label: &str) -> String {
    format!(
        "<p style=\"margin:28px 0\"><a href=\"{}\" style=\"background:#c8a15a;color:#0f1d36;text-decoration:none;font-weight:bold;padding:12px 22px;border-radius:8px;display:inline-block\">{}</a></p>\
<p style=\"font-size:13px;color:#6b7280\">If the button does not work, copy this address into your browser:<br>{}</p>",
        escape(href),
        escape(label),
        escape(href)
    )
}

pub fn email_confirmation(site: &str, to: &str, name: &str, link: &str) -> OutgoingEmail {
    OutgoingEmail {
        to: to.into(),
        subject: format!("Confirm your email for {site}"),
        text: format!(
            "Hello {name},\n\nWelcome! Please confirm your email address by opening this link:\n\n{link}\n\nThe link is valid for 48 hours. If you did not create an account, you can ignore this email.\n\n{site}\n"
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p>Welcome! Please confirm your email address.</p>{}<p>The link is valid for 48 hours. If you did not create an account, you can ignore this email.</p>",
                escape(name),
                button(link, "Confirm my email")
            ),
        ),
        ..Default::default()
    }
}

pub fn password_reset(site: &str, to: &str, link: &str) -> OutgoingEmail {
    OutgoingEmail {
        to: to.into(),
        subject: format!("Reset your password for {site}"),
        text: format!(
            "Someone asked to reset the password of your account.\n\nChoose a new password here (valid for 1 hour, once):\n\n{link}\n\nIf it was not you, ignore this email: your password stays as it is.\n\n{site}\n"
        ),
        html: layout(
            site,
            &format!(
                "<p>Someone asked to reset the password of your account.</p>{}<p>The link is valid for 1 hour and works once. If it was not you, ignore this email: your password stays as it is.</p>",
                button(link, "Choose a new password")
            ),
        ),
        ..Default::default()
    }
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

/// To the coach, with Reply-To set to the sender so replying just works.
pub fn contact_notification(site: &str, coach: &str, c: &ContactDetails) -> OutgoingEmail {
    let kind = if c.discovery_call {
        "Discovery call request"
    } else {
        "New message"
    };
    let rows: Vec<(&str, &str)> = [
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
    let text_rows: String = rows.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
    let html_rows: String = rows
        .iter()
        .map(|(k, v)| {
            format!(
                "<tr><td style=\"padding:4px 12px 4px 0;color:#6b7280\">{k}</td><td>{}</td></tr>",
                escape(v)
            )
        })
        .collect();
    OutgoingEmail {
        to: coach.into(),
        reply_to: Some(c.email.into()),
        subject: format!("{kind} from {}", c.name),
        text: format!(
            "{kind} via the website.\n\n{text_rows}\nMessage:\n{}\n\nReply to this email to answer {}.\n",
            c.message, c.name
        ),
        html: layout(
            site,
            &format!(
                "<p><strong>{kind}</strong> via the website.</p><table>{html_rows}</table><p style=\"white-space:pre-wrap;border-left:3px solid #c8a15a;padding-left:12px\">{}</p><p>Reply to this email to answer {}.</p>",
                escape(c.message),
                escape(c.name)
            ),
        ),
        ..Default::default()
    }
}

pub fn contact_acknowledgement(site: &str, c: &ContactDetails) -> OutgoingEmail {
    let what = if c.discovery_call {
        "your discovery call request"
    } else {
        "your message"
    };
    OutgoingEmail {
        to: c.email.into(),
        subject: format!("We received {what}"),
        text: format!(
            "Hello {},\n\nThank you for {what}. I'll respond within 1-2 business days.\n\nYour message:\n{}\n\n{site}\n",
            c.name, c.message
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p>Thank you for {what}. I'll respond within 1-2 business days.</p><p style=\"white-space:pre-wrap;color:#4b5563\">{}</p>",
                escape(c.name),
                escape(c.message)
            ),
        ),
        ..Default::default()
    }
}

/// Double opt-in, with the one-click unsubscribe headers of RFC 8058.
pub fn newsletter_confirmation(
    site: &str,
    to: &str,
    confirm_link: &str,
    unsubscribe_link: &str,
) -> OutgoingEmail {
    OutgoingEmail {
        to: to.into(),
        subject: format!("Please confirm your subscription to {site}"),
        text: format!(
            "Please confirm that you want to receive leadership insights from {site}:\n\n{confirm_link}\n\nIf you did not ask for this, ignore this email and you will not be subscribed.\n\nUnsubscribe: {unsubscribe_link}\n"
        ),
        html: layout(
            site,
            &format!(
                "<p>Please confirm that you want to receive leadership insights from {}.</p>{}<p>If you did not ask for this, ignore this email and you will not be subscribed.</p><p style=\"font-size:12px\"><a href=\"{}\">Unsubscribe</a></p>",
                escape(site),
                button(confirm_link, "Confirm subscription"),
                escape(unsubscribe_link)
            ),
        ),
        headers: vec![
            ("List-Unsubscribe".into(), format!("<{unsubscribe_link}>")),
            (
                "List-Unsubscribe-Post".into(),
                "List-Unsubscribe=One-Click".into(),
            ),
        ],
        ..Default::default()
    }
}

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
    let money = content_model::model::Money(amount).display();
    let credits = if sessions == 1 {
        "1 session credit".to_string()
    } else {
        format!("{sessions} session credits")
    };
    let dashboard = format!("{base_url}/dashboard");
    let book = format!("{base_url}/book-session");
    OutgoingEmail {
        to: to.into(),
        subject: format!("Your receipt from {site}: {package}"),
        text: format!(
            "Hello {name},\n\nThank you for your purchase. Payment received.\n\nPackage: {package}\nCredits: {credits}\nAmount: {money} {currency}\nOrder ID: {order_id}\n\nView or print your receipt: {receipt_url}\nBook your first session: {book}\nYour dashboard: {dashboard}\n\n{site}\n"
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p>Thank you for your purchase. Payment received.</p>\
<table cellpadding=\"4\"><tr><td style=\"color:#6b7280\">Package</td><td>{}</td></tr><tr><td style=\"color:#6b7280\">Credits</td><td>{credits}</td></tr>\
<tr><td style=\"color:#6b7280\">Amount</td><td>{money} {}</td></tr><tr><td style=\"color:#6b7280\">Order ID</td><td>{}</td></tr></table><p><a href=\"{}\">View or print your receipt</a></p>{}<p><a href=\"{}\">Your dashboard</a></p>",
                escape(name),
                escape(package),
                escape(currency),
                escape(order_id),
                escape(receipt_url),
                button(&book, "Book your first session"),
                escape(&dashboard)
            ),
        ),
        ..Default::default()
    }
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

/// Sent when the admin records a payment: what was paid, and a link to the printable receipt.
pub fn payment_receipt(
    site: &str,
    to: &str,
    name: &str,
    r: &ReceiptSummary,
    receipt_url: &str,
) -> OutgoingEmail {
    let money = content_model::model::Money(r.amount).display();
    let method = r.method.replace('_', " ");
    let sessions = if r.sessions == 1 {
        "1 session".to_string()
    } else {
        format!("{} sessions", r.sessions)
    };
    OutgoingEmail {
        to: to.into(),
        subject: format!("Your receipt from {site}: {}", r.number),
        text: format!(
            "Hello {name},\n\nThank you for your payment. It is recorded and your credits are in your account.\n\nReceipt: {}\nPackage: {}\nSessions: {sessions}\nAmount: {money} {}\nMethod: {method}\n\nView or print your receipt: {receipt_url}\n\n{site}\n",
            r.number, r.package, r.currency
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p>Thank you for your payment. It is recorded and your credits are in your account.</p>\
<table cellpadding=\"4\"><tr><td style=\"color:#6b7280\">Receipt</td><td>{}</td></tr><tr><td style=\"color:#6b7280\">Package</td><td>{}</td></tr>\
<tr><td style=\"color:#6b7280\">Sessions</td><td>{sessions}</td></tr><tr><td style=\"color:#6b7280\">Amount</td><td>{money} {}</td></tr>\
<tr><td style=\"color:#6b7280\">Method</td><td>{}</td></tr></table>{}",
                escape(name),
                escape(r.number),
                escape(r.package),
                escape(r.currency),
                escape(&method),
                button(receipt_url, "View or print your receipt")
            ),
        ),
        ..Default::default()
    }
}

/// What a booking email says about the session.
pub struct SessionDetails<'a> {
    pub booking_id: &'a str,
    pub title: &'a str,
    pub start: chrono::DateTime<chrono::Utc>,
    pub end: chrono::DateTime<chrono::Utc>,
    pub meet_link: Option<&'a str>,
    pub time_zone: chrono_tz::Tz,
}

impl SessionDetails<'_> {
    /// e.g. `Thursday, December 03, 2026 at 15:00 (Africa/Cairo)`.
    fn when(&self) -> String {
        format!(
            "{} ({})",
            self.start
                .with_timezone(&self.time_zone)
                .format("%A, %B %d, %Y at %H:%M"),
            self.time_zone.name()
        )
    }

    /// An iCalendar invitation (RFC 5545), CRLF line ends.
    pub fn ics(&self, site: &str, method: &str) -> String {
        let stamp = |t: chrono::DateTime<chrono::Utc>| t.format("%Y%m%dT%H%M%SZ").to_string();
        let clean = |s: &str| {
            s.replace('\\', "\\\\")
                .replace(';', "\\;")
                .replace(',', "\\,")
                .replace('\n', "\\n")
        };
        let status = if method == "CANCEL" {
            "CANCELLED"
        } else {
            "CONFIRMED"
        };
        let mut lines = vec![
            "BEGIN:VCALENDAR".to_string(),
            "VERSION:2.0".into(),
            format!("PRODID:-//{}//Client Portal//EN", clean(site)),
            format!("METHOD:{method}"),
            "BEGIN:VEVENT".into(),
            format!("UID:{}@coaching-portal", self.booking_id),
            format!("DTSTAMP:{}", stamp(chrono::Utc::now())),
            format!("DTSTART:{}", stamp(self.start)),
            format!("DTEND:{}", stamp(self.end)),
            format!("SUMMARY:{}", clean(self.title)),
            format!("STATUS:{status}"),
        ];
        if let Some(link) = self.meet_link {
            lines.push(format!("LOCATION:{}", clean(link)));
            lines.push(format!(
                "DESCRIPTION:{}",
                clean(&format!("Join the meeting: {link}"))
            ));
        }
        lines.extend(["END:VEVENT".to_string(), "END:VCALENDAR".to_string()]);
        lines.join("\r\n") + "\r\n"
    }
}

pub fn booking_confirmation(site: &str, to: &str, name: &str, s: &SessionDetails) -> OutgoingEmail {
    let link_text = s
        .meet_link
        .map(|l| format!("\nJoin: {l}\n"))
        .unwrap_or_default();
    let link_html = s
        .meet_link
        .map(|l| button(l, "Join Meeting"))
        .unwrap_or_default();
    OutgoingEmail {
        to: to.into(),
        subject: format!("Session confirmed: {}", s.when()),
        text: format!(
            "Hello {name},\n\nYour session is confirmed.\n\n{}\n{}\n{link_text}\nYou can cancel or reschedule up to 24 hours before the session.\nThe invitation is attached.\n\n{site}\n",
            s.title,
            s.when()
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p>Your session is confirmed.</p><p><strong>{}</strong><br>{}</p>{link_html}<p>You can cancel or reschedule up to 24 hours before the session. The invitation is attached.</p>",
                escape(name),
                escape(s.title),
                escape(&s.when())
            ),
        ),
        attachments: vec![super::Attachment {
            filename: "session.ics".into(),
            content_type: "text/calendar; charset=utf-8; method=REQUEST".into(),
            content: s.ics(site, "REQUEST"),
        }],
        ..Default::default()
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
    OutgoingEmail {
        to: to.into(),
        subject: format!("Session cancelled: {}", s.when()),
        text: format!(
            "Hello {name},\n\nYour session on {} has been cancelled. {credit}\n\n{site}\n",
            s.when()
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p>Your session on {} has been cancelled. {credit}</p>",
                escape(name),
                escape(&s.when())
            ),
        ),
        attachments: vec![super::Attachment {
            filename: "session.ics".into(),
            content_type: "text/calendar; charset=utf-8; method=CANCEL".into(),
            content: s.ics(site, "CANCEL"),
        }],
        ..Default::default()
    }
}

pub fn booking_reminder(site: &str, to: &str, name: &str, s: &SessionDetails) -> OutgoingEmail {
    let link_text = s
        .meet_link
        .map(|l| format!("\nJoin: {l}\n"))
        .unwrap_or_default();
    let link_html = s
        .meet_link
        .map(|l| button(l, "Join Meeting"))
        .unwrap_or_default();
    OutgoingEmail {
        to: to.into(),
        subject: format!("Reminder: your session {}", s.when()),
        text: format!(
            "Hello {name},\n\nA reminder of your session tomorrow: {}.\n{link_text}\n{site}\n",
            s.when()
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p>A reminder of your session tomorrow: <strong>{}</strong>.</p>{link_html}",
                escape(name),
                escape(&s.when())
            ),
        ),
        ..Default::default()
    }
}

/// To the coach when a booking could not be paid with a credit or the invitee is not a client.
pub fn booking_needs_attention(
    site: &str,
    to: &str,
    who: &str,
    when: &str,
    reason: &str,
    admin_url: &str,
) -> OutgoingEmail {
    OutgoingEmail {
        to: to.into(),
        subject: format!("Booking needs attention: {who}"),
        text: format!(
            "A booking by {who} for {when} is pending: {reason}.\n\nOpen the admin dashboard: {admin_url}\n"
        ),
        html: layout(
            site,
            &format!(
                "<p>A booking by <strong>{}</strong> for {} is pending: {}.</p>{}",
                escape(who),
                escape(when),
                escape(reason),
                button(admin_url, "Open the admin dashboard")
            ),
        ),
        ..Default::default()
    }
}

/// To a user an admin created: a link to choose their own password.
pub fn welcome_set_password(site: &str, to: &str, name: &str, link: &str) -> OutgoingEmail {
    OutgoingEmail {
        to: to.into(),
        subject: format!("Your client account at {site}"),
        text: format!(
            "Hello {name},\n\nAn account has been created for you. Choose your password here (valid for 7 days, once):\n\n{link}\n\n{site}\n"
        ),
        html: layout(
            site,
            &format!(
                "<p>Hello {},</p><p>An account has been created for you.</p>{}<p>The link is valid for 7 days and works once.</p>",
                escape(name),
                button(link, "Choose my password")
            ),
        ),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visitor_text_is_escaped_in_html_but_kept_in_text() {
        let c = ContactDetails {
            name: "<script>x</script>",
            email: "a@b.com",
            phone: None,
            company: None,
            message: "Hi & <b>bye</b>",
            interested_in: None,
            objective: None,
            discovery_call: false,
        };
        let mail = contact_notification("Site", "coach@x.com", &c);
        assert!(!mail.html.contains("<script>"));
        assert!(mail.html.contains("Hi &amp; &lt;b&gt;bye&lt;/b&gt;"));
        assert!(mail.text.contains("Hi & <b>bye</b>"));
        assert_eq!(mail.reply_to.as_deref(), Some("a@b.com"));
    }
}
