//! Add User (spec §3 create-user payload, §5 rules): an account of either role, optionally with
//! initial credits, paid (an offline payment) or granted (an adjustment, not revenue).

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::{NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::start_of_local_day;
use crate::domain::accounts::{NewUser, Role, insert_user};
use crate::domain::credits::{self, Applied, MAX_CREDITS_PER_CHANGE};
use crate::domain::money::AmountError;
use crate::domain::payments::{OfflinePayment, record_offline_payment};
use crate::domain::validity::Validity;
use crate::domain::{
    AmountInput, Email, FieldError, Money, Notes, Password, PersonName, Phone, hash_password,
    new_token, now, ts,
};
use crate::email::{enqueue, templates};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AdminUser, AppJson};
use crate::routes::receipts::issue_and_send;
use crate::state::AppState;

/// The create-user payload of spec §3.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateUser {
    full_name: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    /// client (default) or admin.
    role: Option<String>,
    password: Option<String>,
    /// 0 (default) to 1,000.
    initial_credits: Option<i64>,
    /// In the currency's major unit, 2-decimal steps, 0 (default) to 10,000,000.
    #[serde(default)]
    payment_amount: AmountInput,
    /// cash (default), card, bank_transfer or other.
    payment_method: Option<String>,
    /// YYYY-MM-DD, default today.
    payment_date: Option<String>,
    payment_notes: Option<String>,
    /// How many months the initial credits last, 1 to 60 (default: settings
    /// `credits.default_validity_months`).
    validity_months: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedUser {
    success: bool,
    user_id: String,
    email: String,
    role: Role,
    available_credits: i64,
}

/// Every field's rule at once, so the admin sees all problems in one answer.
struct Checked {
    full_name: PersonName,
    email: Email,
    phone: Option<Phone>,
    role: Role,
    password: Password,
    credits: i64,
    amount: Money,
    method: String,
    day: NaiveDate,
    notes: Option<Notes>,
}

fn check(body: CreateUser, today: NaiveDate) -> Result<Checked, AppError> {
    let mut fields = BTreeMap::new();
    let mut note = |field: &str, e: FieldError| {
        fields.entry(field.to_string()).or_insert(e.message);
    };
    let full_name = PersonName::parse("fullName", body.full_name.as_deref())
        .map_err(|e| note("fullName", e))
        .ok();
    let email = Email::parse(body.email.as_deref().unwrap_or(""));
    if email.is_none() {
        note("email", FieldError::new("email", "Invalid email address"));
    }
    let phone = Phone::parse_optional("phone", body.phone.as_deref())
        .map_err(|e| note("phone", e))
        .ok();
    let role_text = body
        .role
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty());
    let role = Role::parse(role_text.unwrap_or("client"));
    if role.is_none() {
        note(
            "role",
            FieldError::new("role", "Role must be admin or client"),
        );
    }
    let password = Password::parse(body.password.as_deref().unwrap_or(""), "password")
        .map_err(|e| note("password", e))
        .ok();
    let credits = body.initial_credits.unwrap_or(0);
    if credits < 0 {
        let m = "Initial credits must be 0 or more";
        note("initialCredits", FieldError::new("initialCredits", m));
    }
    if credits > MAX_CREDITS_PER_CHANGE {
        let m = "Initial credits must be at most 1,000";
        note("initialCredits", FieldError::new("initialCredits", m));
    }
    let amount = match body.payment_amount.read() {
        None => Some(Money(0)),
        Some(Ok(m)) => Some(m),
        Some(Err(AmountError::TooLarge)) => {
            let m = "Payment amount must be at most 10,000,000.00";
            note("paymentAmount", FieldError::new("paymentAmount", m));
            None
        }
        Some(Err(AmountError::NotAnAmount)) => {
            let m = "Payment amount must be 0 or more, in steps of 0.01";
            note("paymentAmount", FieldError::new("paymentAmount", m));
            None
        }
    };
    if role == Some(Role::Client) && amount.is_some_and(|a| a.minor() > 0) && credits <= 0 {
        note(
            "initialCredits",
            FieldError::new(
                "initialCredits",
                "Initial credits must be greater than 0 when payment amount is provided",
            ),
        );
    }
    let method = body
        .payment_method
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty());
    let method = method.unwrap_or("cash").to_string();
    if !["cash", "card", "bank_transfer", "other"].contains(&method.as_str()) {
        let m = "Payment method must be cash, card, bank_transfer or other";
        note("paymentMethod", FieldError::new("paymentMethod", m));
    }
    let day = match body
        .payment_date
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        None => Some(today),
        Some(d) => NaiveDate::parse_from_str(d, "%Y-%m-%d").ok(),
    };
    if day.is_none() {
        let m = "Payment date must be a date (YYYY-MM-DD)";
        note("paymentDate", FieldError::new("paymentDate", m));
    }
    let notes = Notes::parse_optional("paymentNotes", body.payment_notes.as_deref(), 2_000)
        .map_err(|e| note("paymentNotes", e))
        .ok();
    match (full_name, email, phone, role, password, amount, day, notes) {
        (
            Some(full_name),
            Some(email),
            Some(phone),
            Some(role),
            Some(password),
            Some(amount),
            Some(day),
            Some(notes),
        ) if fields.is_empty() => Ok(Checked {
            full_name,
            email,
            phone,
            role,
            password,
            credits,
            amount,
            method,
            day,
            notes,
        }),
        _ => {
            let message = fields.values().next().cloned().unwrap_or_default();
            Err(AppError::Validation { message, fields })
        }
    }
}

#[utoipa::path(post, path = "/api/admin/users", tag = "admin", request_body = CreateUser,
    responses((status = 201, body = CreatedUser), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 409, body = ErrorBody, description = "The email is taken"),
              (status = 413, body = ErrorBody), (status = 415, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn create_user(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    AppJson(body): AppJson<CreateUser>,
) -> AppResult<(StatusCode, Json<CreatedUser>)> {
    let today = Utc::now()
        .with_timezone(&state.site().time_zone)
        .date_naive();
    let months = super::validity_months(&state, body.validity_months)?;
    let user = check(body, today)?;
    let hash = hash_password(&user.password).await?;
    let now = now();

    let mut tx = state.db.pool.begin().await?;
    let new_user = NewUser {
        email: &user.email,
        full_name: user.full_name.as_str(),
        phone: user.phone.as_ref().map(Phone::as_str),
        password_hash: &hash,
        role: user.role,
        email_confirmed: false,
    };
    let user_id = insert_user(&mut tx, &new_user).await?.ok_or_else(|| {
        AppError::Conflict("A user with this email address has already been registered".into())
    })?;
    if user.role == Role::Client && user.credits > 0 {
        let payment_date = start_of_local_day(&state, user.day);
        let paid_at = crate::domain::parse_ts(&payment_date).unwrap_or_else(Utc::now);
        let validity = Validity::months_from(paid_at, months, state.site().time_zone);
        let applied = if user.amount.minor() > 0 {
            let payment = OfflinePayment {
                client_id: &user_id,
                amount: user.amount,
                currency: &state.site().currency,
                sessions: user.credits,
                payment_date: &payment_date,
                method: &user.method,
                reference: None,
                notes: user.notes.as_ref().map(Notes::as_str),
                recorded_by: &admin.user_id,
                validity: &validity,
            };
            match record_offline_payment(&mut tx, state.db.backend, &payment).await? {
                Some(payment_id) => {
                    issue_and_send(&mut tx, &state, &payment_id).await?;
                    Some(Applied::Yes)
                }
                None => None,
            }
        } else {
            // Credits without a payment: an adjustment, not revenue, no last payment date.
            let reference = format!("initial:{user_id}");
            let applied = credits::adjust(
                &mut tx,
                state.db.backend,
                &user_id,
                user.credits,
                &validity,
                &reference,
                "initial credits",
            )
            .await?;
            Some(applied)
        };
        if applied != Some(Applied::Yes) {
            return Err(anyhow::anyhow!("initial credits for a new account: {applied:?}").into());
        }
    }
    // The admin chose a starting password; the user gets a link to set their own.
    let (token, token_hash) = new_token();
    sqlx::query("INSERT INTO auth_tokens (id, user_id, purpose, expires_at, created_at) VALUES ($1, $2, 'password_reset', $3, $4)")
        .bind(&token_hash)
        .bind(&user_id)
        .bind(ts(Utc::now() + chrono::Duration::days(7)))
        .bind(&now)
        .execute(&mut *tx)
        .await?;
    let link = format!("{}/auth?reset={token}", state.config.public_base_url);
    let welcome = templates::welcome_set_password(
        &state.site().name,
        user.email.as_str(),
        user.full_name.as_str(),
        &link,
    );
    enqueue(&mut tx, &welcome).await?;
    let available: i64 =
        sqlx::query_scalar("SELECT available_credits FROM client_accounts WHERE user_id = $1")
            .bind(&user_id)
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    state.mail_wake.notify_one();
    tracing::info!(user_id, role = user.role.as_str(), created_by = %admin.user_id, "user created by an admin");
    Ok((
        StatusCode::CREATED,
        Json(CreatedUser {
            success: true,
            user_id,
            email: user.email.to_string(),
            role: user.role,
            available_credits: available,
        }),
    ))
}
