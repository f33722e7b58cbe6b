//! The coach's alerts from the status page's watch (`operations`): a provider's webhooks
//! failing, and mail stuck in the outbox. Each goes once per incident, in the coach's
//! language, to settings' `coach_email`. Their templates are
//! `api/templates/email/alert_webhooks.*` and `alert_outbox.*` (Arabic: `email/ar/…`); see
//! `templates` for how the languages are laid out.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::OutgoingEmail;
use super::locale;
use super::templates::email_templates;
use crate::domain::Language;

fn mail(to: &str, subject: String, (text, html): (String, String)) -> OutgoingEmail {
    OutgoingEmail {
        to: to.into(),
        subject,
        text,
        html,
        ..Default::default()
    }
}

/// What the webhook alert says.
pub struct Failing<'a> {
    /// `PayTabs`, `Paymob`, `Calendly`.
    pub provider: &'a str,
    /// Refused or failed in a row.
    pub failures: i64,
    /// Why the last one was, in the email's language (`Reason::describe`).
    pub reason: &'a str,
    /// When the last one came.
    pub at: DateTime<Utc>,
    pub time_zone: Tz,
    /// The status page in the email's language.
    pub status_url: &'a str,
}

struct WebhooksFailing<'a> {
    site: &'a str,
    provider: &'a str,
    failures: i64,
    reason: &'a str,
    at: String,
    status_url: &'a str,
}
email_templates!(
    WebhooksFailing,
    "email/alert_webhooks.txt",
    "email/alert_webhooks.html",
    "email/ar/alert_webhooks.txt",
    "email/ar/alert_webhooks.html"
);

/// To the coach when a provider's webhooks were refused or failed `failures` times in a row.
pub fn webhooks_failing(lang: Language, site: &str, to: &str, f: &Failing<'_>) -> OutgoingEmail {
    let e = WebhooksFailing {
        site,
        provider: f.provider,
        failures: f.failures,
        reason: f.reason,
        at: locale::short_time(lang, f.at, f.time_zone),
        status_url: f.status_url,
    };
    let subject = match lang {
        Language::En => format!("{} webhooks are failing", f.provider),
        Language::Ar => format!("إشعارات {} لا تصل إلى الموقع", f.provider),
    };
    mail(to, subject, e.render(lang))
}

/// What the outbox alert says.
pub struct Stuck<'a> {
    /// Emails waiting over an hour.
    pub count: i64,
    /// When the oldest was queued.
    pub oldest: DateTime<Utc>,
    pub time_zone: Tz,
    pub status_url: &'a str,
}

struct OutboxStuck<'a> {
    site: &'a str,
    /// `3 emails have`, `رسائل 3` (with its verb in the template).
    what: String,
    oldest: String,
    status_url: &'a str,
}
email_templates!(
    OutboxStuck,
    "email/alert_outbox.txt",
    "email/alert_outbox.html",
    "email/ar/alert_outbox.txt",
    "email/ar/alert_outbox.html"
);

/// To the coach when emails have waited in the outbox for over an hour.
pub fn outbox_stuck(lang: Language, site: &str, to: &str, s: &Stuck<'_>) -> OutgoingEmail {
    let e = OutboxStuck {
        site,
        what: match (lang, s.count) {
            (Language::En, 1) => "1 email has".into(),
            (Language::En, n) => format!("{n} emails have"),
            (Language::Ar, 1) => "رسالة واحدة".into(),
            (Language::Ar, 2) => "رسالتان".into(),
            (Language::Ar, n) if (3..=10).contains(&(n % 100)) => format!("{n} رسائل"),
            (Language::Ar, n) => format!("{n} رسالة"),
        },
        oldest: locale::short_time(lang, s.oldest, s.time_zone),
        status_url: s.status_url,
    };
    let subject = match lang {
        Language::En => "Emails are stuck in the outbox".to_string(),
        Language::Ar => "رسائل بريد عالقة ولم تُرسل".to_string(),
    };
    mail(to, subject, e.render(lang))
}
