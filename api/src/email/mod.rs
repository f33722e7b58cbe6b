//! Email: messages are written to the `email_outbox` table in the same transaction as what
//! caused them, and a background worker sends them through a `transport::MailTransport` (SMTP
//! with lettre, or whatever the application was built with), retrying with back-off. No request
//! waits on SMTP but the admin's Retry of one stuck email (`outbox::send_now`).
//!
//! What they say: `templates`, `credit_templates`, `sponsor_templates` (a sponsor's
//! engagement invitation and invoices) and `alert_templates` (the coach's alerts from the status
//! page's watch), with one data struct per email, rendered through
//! `api/templates/email/<name>.txt` and `.html` by askama, which HTML-escapes every value;
//! `invitation` writes the `.ics` attached to booking emails (icalendar). Every email
//! is written in its recipient's language (English or Arabic: `templates` explains how the
//! translations are laid out), and `locale` writes days, times, money and counts in each.

pub mod alert_templates;
pub mod credit_templates;
pub mod invitation;
pub mod locale;
pub mod outbox;
pub mod sponsor_templates;
pub mod templates;
pub mod transport;

#[cfg(test)]
mod tests;

pub use outbox::{enqueue, enqueue_all, run_worker};

/// One email to send.
#[derive(Debug, Clone, Default)]
pub struct OutgoingEmail {
    pub to: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Extra headers, e.g. `List-Unsubscribe`.
    pub headers: Vec<(String, String)>,
    /// Text attachments, e.g. an `.ics` invitation.
    pub attachments: Vec<Attachment>,
}

#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Attachment {
    pub filename: String,
    pub content_type: String,
    pub content: String,
}
