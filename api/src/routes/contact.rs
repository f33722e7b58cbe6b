//! The contact form (spec "send-contact-email"): stored, then emailed to the coach (Reply-To
//! the sender) with an acknowledgement to the sender. A honeypot field and a per-IP limit
//! keep robots out. The acknowledgement is in the sender's language (the page's, which the form
//! sends, else their account's), the notification in the coach's (their account's).

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::common::{Status, optional};
use crate::domain::accounts::language_of_email;
use crate::domain::text::short_text;
use crate::domain::{Email, FieldError, Language, Notes, Phone, new_id, now};
use crate::email::{enqueue, templates};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppJson, ClientIp};
use crate::rate_limit::limits;
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(send_contact))
}

/// The contact form payload of spec §3.
#[derive(Deserialize, ToSchema)]
pub struct ContactForm {
    name: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    company: Option<String>,
    message: Option<String>,
    interested_in: Option<String>,
    objective: Option<String>,
    /// `general` (also accepted: `contact`) or `discovery_call`.
    form_type: Option<String>,
    /// Left empty by people; robots fill it in.
    website: Option<String>,
    /// The language of the page the form is on (`en` or `ar`): the acknowledgement is written
    /// in it. Absent: the sender's account's, if they have one, else English.
    #[schema(value_type = Option<Language>)]
    language: Option<String>,
}

const MAX_MESSAGE: usize = 5000;

/// The form's rules that come before the rate limit: its kind, the required fields, the
/// sender's address, a phone for a discovery call and the message's length. The optional
/// fields stay as sent until [`ContactMessage`] reads them (after the limit and the honeypot).
struct ContactRequest {
    discovery_call: bool,
    name: String,
    email: Email,
    message: String,
    /// Trimmed; empty is `None`.
    phone: Option<String>,
    company: Option<String>,
    interested_in: Option<String>,
    objective: Option<String>,
    /// A robot filled in the hidden `website` field.
    honeypot: bool,
    language: Option<Language>,
}

impl TryFrom<ContactForm> for ContactRequest {
    type Error = AppError;

    /// The first failing rule wins: kind, required fields, address, phone, length.
    fn try_from(form: ContactForm) -> Result<ContactRequest, AppError> {
        let discovery_call = is_discovery_call(form.form_type.as_deref())?;
        let language = Language::parse_field("language", form.language.as_deref())?;
        let name = optional(form.name);
        let raw_email = optional(form.email);
        let message = optional(form.message);
        require(&[
            ("name", &name),
            ("email", &raw_email),
            ("message", &message),
        ])?;
        let (name, message) = (name.unwrap_or_default(), message.unwrap_or_default());
        let email = Email::parse(raw_email.as_deref().unwrap_or(""))
            .ok_or_else(|| AppError::field("email", "Please enter a valid email address."))?;
        let phone = optional(form.phone);
        if discovery_call && phone.is_none() {
            return Err(AppError::field(
                "phone",
                "Phone number is required for discovery calls.",
            ));
        }
        if message.chars().count() > MAX_MESSAGE || name.chars().count() > 200 {
            return Err(AppError::field(
                "message",
                "Please keep the message under 5,000 characters.",
            ));
        }
        Ok(ContactRequest {
            discovery_call,
            name,
            email,
            message,
            phone,
            company: form.company,
            interested_in: form.interested_in,
            objective: form.objective,
            honeypot: optional(form.website).is_some(),
            language,
        })
    }
}

/// `general` (also empty, absent or `contact`) is `false`, `discovery_call` is `true`.
fn is_discovery_call(form_type: Option<&str>) -> Result<bool, AppError> {
    match form_type.map(str::trim) {
        None | Some("" | "general" | "contact") => Ok(false),
        Some("discovery_call") => Ok(true),
        Some(_) => Err(AppError::field(
            "form_type",
            "form_type must be general or discovery_call",
        )),
    }
}

/// Every empty required field at once, under the spec's one message.
fn require(fields: &[(&str, &Option<String>)]) -> Result<(), AppError> {
    let missing: BTreeMap<String, String> = fields
        .iter()
        .filter(|(_, value)| value.is_none())
        .map(|(field, _)| (field.to_string(), "This field is required.".to_string()))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(AppError::Validation {
        message: "Please fill in all required fields.".into(),
        fields: missing,
    })
}

/// A message to store and send: the request with its optional fields read.
struct ContactMessage {
    request: ContactRequest,
    phone: Option<Phone>,
    company: Option<String>,
    /// Only for a discovery call.
    interested_in: Option<String>,
    objective: Option<Notes>,
}

impl TryFrom<ContactRequest> for ContactMessage {
    type Error = FieldError;

    /// Reads the optional fields, in the form's order.
    fn try_from(request: ContactRequest) -> Result<ContactMessage, FieldError> {
        let phone = Phone::parse_optional("phone", request.phone.as_deref())?;
        let company = short_text("company", request.company.as_deref(), 200)?;
        let interested_in = if request.discovery_call {
            short_text("interested_in", request.interested_in.as_deref(), 200)?
        } else {
            None
        };
        let objective = Notes::parse_optional("objective", request.objective.as_deref(), 2_000)?;
        Ok(ContactMessage {
            request,
            phone,
            company,
            interested_in,
            objective,
        })
    }
}

impl ContactMessage {
    /// What both emails show.
    fn details(&self) -> templates::ContactDetails<'_> {
        templates::ContactDetails {
            name: &self.request.name,
            email: self.request.email.as_str(),
            phone: self.phone.as_ref().map(Phone::as_str),
            company: self.company.as_deref(),
            message: &self.request.message,
            interested_in: self.interested_in.as_deref(),
            objective: self.objective.as_ref().map(Notes::as_str),
            discovery_call: self.request.discovery_call,
        }
    }

    fn form_type(&self) -> &'static str {
        if self.request.discovery_call {
            "discovery_call"
        } else {
            "general"
        }
    }
}

#[utoipa::path(post, path = "/api/contact", tag = "contact", request_body = ContactForm,
    responses((status = 200, body = Status, description = "Sent"),
              (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody, description = "'Please fill in all required fields.' or 'Phone number is required for discovery calls.'"),
              (status = 429, body = ErrorBody)))]
pub async fn send_contact(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(form): AppJson<ContactForm>,
) -> AppResult<Json<Status>> {
    let request = ContactRequest::try_from(form)?;
    state
        .limiter
        .check("contact_ip", &ip, limits::CONTACT_IP)
        .await?;
    let ok = Json(Status { status: "sent" });
    if request.honeypot {
        tracing::info!(ip, "contact form honeypot filled; dropped");
        return Ok(ok);
    }
    let message = ContactMessage::try_from(request)?;
    store_and_notify(&state, &ip, &message).await?;
    Ok(ok)
}

/// Stores the message, and queues the coach's notification and the sender's acknowledgement,
/// in one transaction.
async fn store_and_notify(state: &AppState, ip: &str, message: &ContactMessage) -> AppResult<()> {
    let details = message.details();
    let site = state.site();
    let mut tx = state.db.pool.begin().await?;
    insert_message(&mut tx, ip, message).await?;
    let coach = language_of_email(&mut tx, &site.coach_email).await?;
    enqueue(
        &mut tx,
        &templates::contact_notification(coach, &site.name, &site.coach_email, &details),
    )
    .await?;
    let sender = match message.request.language {
        Some(language) => language,
        None => language_of_email(&mut tx, details.email).await?,
    };
    enqueue(
        &mut tx,
        &templates::contact_acknowledgement(sender, &site.name, &details),
    )
    .await?;
    tx.commit().await?;
    state.mail_wake.notify_one();
    Ok(())
}

/// One row of `contact_messages`.
async fn insert_message(
    conn: &mut AnyConnection,
    ip: &str,
    m: &ContactMessage,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO contact_messages (id, name, email, phone, company, message, interested_in, objective, form_type, ip, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(new_id())
    .bind(&m.request.name)
    .bind(m.request.email.as_str())
    .bind(m.phone.as_ref().map(|p| p.as_str().to_string()))
    .bind(&m.company)
    .bind(&m.request.message)
    .bind(&m.interested_in)
    .bind(m.objective.as_ref().map(|n| n.as_str().to_string()))
    .bind(m.form_type())
    .bind(ip)
    .bind(now())
    .execute(&mut *conn)
    .await?;
    Ok(())
}
