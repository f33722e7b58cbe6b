//! The contact form (spec "send-contact-email"): stored, then emailed to the coach (Reply-To
//! the sender) with an acknowledgement to the sender. A honeypot field and a per-IP limit
//! keep robots out.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;

use super::{Status, optional};
use crate::domain::text::short_text;
use crate::domain::{Email, Notes, Phone, new_id, now};
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
}

const MAX_MESSAGE: usize = 5000;

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
    let discovery_call = match form.form_type.as_deref().map(str::trim) {
        None | Some("" | "general" | "contact") => false,
        Some("discovery_call") => true,
        Some(_) => {
            return Err(AppError::field(
                "form_type",
                "form_type must be general or discovery_call",
            ));
        }
    };
    let name = optional(form.name);
    let raw_email = optional(form.email);
    let message = optional(form.message);
    let mut missing = BTreeMap::new();
    for (field, value) in [
        ("name", &name),
        ("email", &raw_email),
        ("message", &message),
    ] {
        if value.is_none() {
            missing.insert(field.to_string(), "This field is required.".to_string());
        }
    }
    if !missing.is_empty() {
        return Err(AppError::Validation {
            message: "Please fill in all required fields.".into(),
            fields: missing,
        });
    }
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
    state
        .limiter
        .check("contact_ip", &ip, limits::CONTACT_IP)
        .await?;
    let ok = Json(Status { status: "sent" });
    if optional(form.website).is_some() {
        tracing::info!(ip, "contact form honeypot filled; dropped");
        return Ok(ok);
    }
    let phone = Phone::parse_optional("phone", phone.as_deref())?.map(|p| p.as_str().to_string());
    let company = short_text("company", form.company.as_deref(), 200)?;
    let interested_in = if discovery_call {
        short_text("interested_in", form.interested_in.as_deref(), 200)?
    } else {
        None
    };
    let objective = Notes::parse_optional("objective", form.objective.as_deref(), 2_000)?
        .map(|n| n.as_str().to_string());

    let details = templates::ContactDetails {
        name: &name,
        email: email.as_str(),
        phone: phone.as_deref(),
        company: company.as_deref(),
        message: &message,
        interested_in: interested_in.as_deref(),
        objective: objective.as_deref(),
        discovery_call,
    };
    let mut tx = state.db.pool.begin().await?;
    sqlx::query(
        "INSERT INTO contact_messages (id, name, email, phone, company, message, interested_in, objective, form_type, ip, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(new_id())
    .bind(&name)
    .bind(email.as_str())
    .bind(&phone)
    .bind(&company)
    .bind(&message)
    .bind(&interested_in)
    .bind(&objective)
    .bind(if discovery_call { "discovery_call" } else { "general" })
    .bind(&ip)
    .bind(now())
    .execute(&mut *tx)
    .await?;
    enqueue(
        &mut tx,
        &templates::contact_notification(&state.site().name, &state.site().coach_email, &details),
    )
    .await?;
    enqueue(
        &mut tx,
        &templates::contact_acknowledgement(&state.site().name, &details),
    )
    .await?;
    tx.commit().await?;
    state.mail_wake.notify_one();
    Ok(ok)
}
