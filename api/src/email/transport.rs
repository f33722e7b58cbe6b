//! Where mail goes: an SMTP server (lettre; implicit TLS, STARTTLS, or plain for a local test
//! server) or, in development without SMTP, a mailbox folder the dev page lists.

use std::path::PathBuf;

use anyhow::Context;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::{Deserialize, Serialize};

use crate::configuration::{Config, SmtpTls};

pub enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Mailbox(PathBuf),
}

/// A queued email as the worker reads it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Queued {
    pub id: String,
    pub to: String,
    pub reply_to: Option<String>,
    pub subject: String,
    pub text: String,
    pub html: String,
    pub headers: Vec<(String, String)>,
    #[serde(default)]
    pub attachments: Vec<super::Attachment>,
    pub created_at: String,
}

impl Transport {
    pub fn from_config(config: &Config) -> anyhow::Result<Transport> {
        let Some(smtp) = &config.smtp else {
            std::fs::create_dir_all(&config.mailbox_dir)
                .with_context(|| format!("cannot create {}", config.mailbox_dir.display()))?;
            return Ok(Transport::Mailbox(config.mailbox_dir.clone()));
        };
        let builder = match smtp.tls {
            SmtpTls::Implicit => AsyncSmtpTransport::<Tokio1Executor>::relay(&smtp.host)?,
            SmtpTls::StartTls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&smtp.host)?,
            SmtpTls::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host),
        };
        let mut builder = builder
            .port(smtp.port)
            .timeout(Some(std::time::Duration::from_secs(20)));
        if let (Some(user), Some(pass)) = (&smtp.username, &smtp.password) {
            builder =
                builder.credentials(Credentials::new(user.clone(), pass.expose().to_string()));
        }
        Ok(Transport::Smtp(builder.build()))
    }

    pub async fn send(&self, from: &str, mail: &Queued) -> anyhow::Result<()> {
        let message = build_message(from, mail)?;
        match self {
            Transport::Smtp(smtp) => {
                smtp.send(message)
                    .await
                    .context("the SMTP server refused the message")?;
            }
            Transport::Mailbox(dir) => {
                let stem = format!("{}-{}", mail.created_at.replace([':', '.'], ""), mail.id);
                tokio::fs::write(dir.join(format!("{stem}.eml")), message.formatted()).await?;
                tokio::fs::write(
                    dir.join(format!("{stem}.json")),
                    serde_json::to_vec_pretty(mail)?,
                )
                .await?;
            }
        }
        Ok(())
    }
}

fn build_message(from: &str, mail: &Queued) -> anyhow::Result<Message> {
    let from: Mailbox = from.parse().context("MAIL_FROM is not a valid address")?;
    let to: Mailbox = mail
        .to
        .parse()
        .with_context(|| format!("`{}` is not a valid recipient", mail.to))?;
    let mut builder = Message::builder().from(from).to(to).subject(&mail.subject);
    if let Some(reply_to) = &mail.reply_to {
        builder = builder.reply_to(reply_to.parse().context("invalid Reply-To")?);
    }
    for (name, value) in &mail.headers {
        let name = match name.as_str() {
            "List-Unsubscribe" => HeaderName::new_from_ascii_str("List-Unsubscribe"),
            "List-Unsubscribe-Post" => HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
            other => anyhow::bail!("header `{other}` is not one the app sends"),
        };
        builder = builder.raw_header(HeaderValue::new(name, value.clone()));
    }
    let body = MultiPart::alternative()
        .singlepart(
            SinglePart::builder()
                .header(ContentType::TEXT_PLAIN)
                .body(mail.text.clone()),
        )
        .singlepart(
            SinglePart::builder()
                .header(ContentType::TEXT_HTML)
                .body(mail.html.clone()),
        );
    if mail.attachments.is_empty() {
        return Ok(builder.multipart(body)?);
    }
    let mut mixed = MultiPart::mixed().multipart(body);
    for a in &mail.attachments {
        let content_type =
            ContentType::parse(&a.content_type).context("invalid attachment content type")?;
        mixed = mixed.singlepart(
            lettre::message::Attachment::new(a.filename.clone())
                .body(a.content.clone(), content_type),
        );
    }
    Ok(builder.multipart(mixed)?)
}
