//! Where mail goes: `MailTransport` is what the outbox worker sends through. The API's own is
//! SMTP (lettre; implicit TLS, STARTTLS, or plain for a local test server); a caller of
//! `startup::Application` can hand it another one (`devserver` writes mail to a folder).

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use anyhow::Context;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::{Deserialize, Serialize};

use crate::configuration::{SmtpConfig, SmtpTls};

/// A future a [`MailTransport`] returns; boxed so the trait can be used as `dyn MailTransport`.
pub type SendFuture<'a> = Pin<Box<dyn Future<Output = anyhow::Result<()>> + Send + 'a>>;

/// Delivers one queued email. An error leaves the message in the outbox, to be tried again
/// with back-off.
pub trait MailTransport: Send + Sync {
    fn send<'a>(&'a self, from: &'a str, mail: &'a Queued) -> SendFuture<'a>;
}

/// A shared transport is one too.
impl<T: MailTransport + ?Sized> MailTransport for std::sync::Arc<T> {
    fn send<'a>(&'a self, from: &'a str, mail: &'a Queued) -> SendFuture<'a> {
        (**self).send(from, mail)
    }
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

/// The SMTP server of `SMTP_HOST`.
pub struct SmtpTransport(AsyncSmtpTransport<Tokio1Executor>);

impl SmtpTransport {
    pub fn new(smtp: &SmtpConfig) -> anyhow::Result<SmtpTransport> {
        Ok(SmtpTransport(smtp_client(smtp, Duration::from_secs(20))?))
    }
}

fn smtp_client(
    smtp: &SmtpConfig,
    timeout: Duration,
) -> anyhow::Result<AsyncSmtpTransport<Tokio1Executor>> {
    let builder = match smtp.tls {
        SmtpTls::Implicit => AsyncSmtpTransport::<Tokio1Executor>::relay(&smtp.host)?,
        SmtpTls::StartTls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&smtp.host)?,
        SmtpTls::None => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host),
    };
    let mut builder = builder.port(smtp.port).timeout(Some(timeout));
    if let (Some(user), Some(pass)) = (&smtp.username, &smtp.password) {
        builder = builder.credentials(Credentials::new(user.clone(), pass.expose().to_string()));
    }
    Ok(builder.build())
}

/// Why the SMTP server did not take our login ([`check_login`]).
#[derive(Debug)]
pub enum LoginProblem {
    /// No answer, a broken TLS handshake, or a refusal before any login.
    Unreachable(String),
    /// It answered, and refused the username and password (or offers no login we can use).
    Refused(String),
}

/// Connects to the SMTP server of `smtp` (TLS as configured) and logs in when a username is
/// set, then says goodbye: no mail is sent (`api doctor`).
pub async fn check_login(smtp: &SmtpConfig) -> Result<(), LoginProblem> {
    let client = smtp_client(smtp, Duration::from_secs(10))
        .map_err(|e| LoginProblem::Unreachable(format!("{e:#}")))?;
    match client.test_connection().await {
        Ok(true) => Ok(()),
        Ok(false) => Err(LoginProblem::Unreachable(
            "the server closed the connection".into(),
        )),
        Err(e) => {
            let code = e.status().map(|c| c.to_string()).unwrap_or_default();
            // 535 credentials invalid, 534/538 mechanism refused, 530 login required, 454
            // temporary failure of the login; a client error is "no mechanism we can use".
            let login = matches!(code.as_str(), "530" | "534" | "535" | "538" | "454")
                || (e.is_client() && e.to_string().contains("authentication"));
            let text = e.to_string();
            Err(if login {
                LoginProblem::Refused(text)
            } else {
                LoginProblem::Unreachable(text)
            })
        }
    }
}

impl MailTransport for SmtpTransport {
    fn send<'a>(&'a self, from: &'a str, mail: &'a Queued) -> SendFuture<'a> {
        Box::pin(async move {
            let message = build_message(from, mail)?;
            self.0
                .send(message)
                .await
                .context("the SMTP server refused the message")?;
            Ok(())
        })
    }
}

/// The message as an SMTP server would receive it (RFC 5322 bytes), for transports that keep
/// mail instead of sending it.
pub fn format_message(from: &str, mail: &Queued) -> anyhow::Result<Vec<u8>> {
    Ok(build_message(from, mail)?.formatted())
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
