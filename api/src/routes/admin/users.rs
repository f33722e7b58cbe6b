//! Add User (spec §3 create-user payload, §5 rules): an account of either role, optionally with
//! initial credits, paid (an offline payment) or granted (an adjustment, not revenue).

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use chrono::{NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::common::start_of_local_day;
use crate::domain::accounts::{NewUser, Role, insert_user};
use crate::domain::credits::{self, Applied, MAX_CREDITS_PER_CHANGE};
use crate::domain::money::AmountError;
use crate::domain::payments::{OfflinePayment, record_offline_payment};
use crate::domain::validity::Validity;
use crate::domain::{
    AmountInput, Email, FieldError, Language, Money, Notes, Password, PersonName, Phone,
    hash_password, new_token, now, ts,
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
    /// The language of the user's emails: `en` (default) or `ar`.
    #[schema(value_type = Option<Language>)]
    language: Option<String>,
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

/// The create-user payload with every field checked (spec §5).
struct CheckedUser {
    full_name: PersonName,
    email: Email,
    phone: Option<Phone>,
    role: Role,
    password: Password,
    credits: i64,
    amount: Money,
    method: String,
    /// `None`: today in the coach's time zone (the handler knows the day).
    day: Option<NaiveDate>,
    notes: Option<Notes>,
    language: Language,
}

/// The refused fields of one payload: the first failing rule of a field is its message.
#[derive(Default)]
struct Problems(BTreeMap<String, String>);

impl Problems {
    /// The value, or `None` with its field's problem noted (unless one is noted already).
    fn keep<T>(&mut self, checked: Result<T, FieldError>) -> Option<T> {
        checked
            .map_err(|e| {
                self.0.entry(e.field).or_insert(e.message);
            })
            .ok()
    }

    /// The 422 answer: every field's message; the first field's (by name) is the headline.
    fn into_error(self) -> AppError {
        let message = self.0.values().next().cloned().unwrap_or_default();
        AppError::Validation {
            message,
            fields: self.0,
        }
    }
}

impl TryFrom<CreateUser> for CheckedUser {
    type Error = AppError;

    /// Every field's rule at once, so the admin sees all problems in one answer.
    fn try_from(body: CreateUser) -> Result<CheckedUser, AppError> {
        let mut problems = Problems::default();
        let full_name = problems.keep(PersonName::parse("fullName", body.full_name.as_deref()));
        let email = problems.keep(parse_email(body.email.as_deref()));
        let phone = problems.keep(Phone::parse_optional("phone", body.phone.as_deref()));
        let role = problems.keep(parse_role(body.role.as_deref()));
        let password = problems.keep(Password::parse(
            body.password.as_deref().unwrap_or(""),
            "password",
        ));
        let credits = body.initial_credits.unwrap_or(0);
        problems.keep(credits_in_range(credits));
        let amount = problems.keep(parse_amount(&body.payment_amount));
        problems.keep(credits_for_payment(role, amount, credits));
        let method = problems.keep(parse_method(body.payment_method.as_deref()));
        let day = problems.keep(parse_day(body.payment_date.as_deref()));
        let notes = problems.keep(Notes::parse_optional(
            "paymentNotes",
            body.payment_notes.as_deref(),
            2_000,
        ));
        let language = problems.keep(Language::parse_field("language", body.language.as_deref()));
        // Every `None` above noted its field's problem.
        let checked = (|| {
            Some(CheckedUser {
                full_name: full_name?,
                email: email?,
                phone: phone?,
                role: role?,
                password: password?,
                credits,
                amount: amount?,
                method: method?,
                day: day?,
                notes: notes?,
                language: language?.unwrap_or_default(),
            })
        })();
        match checked {
            Some(checked) if problems.0.is_empty() => Ok(checked),
            _ => Err(problems.into_error()),
        }
    }
}

/// The account's address: required, in a valid shape.
fn parse_email(raw: Option<&str>) -> Result<Email, FieldError> {
    Email::parse(raw.unwrap_or("")).ok_or_else(|| FieldError::new("email", "Invalid email address"))
}

/// `client` (also when empty or absent) or `admin`.
fn parse_role(raw: Option<&str>) -> Result<Role, FieldError> {
    let text = raw.map(str::trim).filter(|r| !r.is_empty());
    Role::parse(text.unwrap_or("client"))
        .ok_or_else(|| FieldError::new("role", "Role must be admin or client"))
}

/// Initial credits: 0 to 1,000.
fn credits_in_range(credits: i64) -> Result<(), FieldError> {
    let message = if credits < 0 {
        "Initial credits must be 0 or more"
    } else if credits > MAX_CREDITS_PER_CHANGE {
        "Initial credits must be at most 1,000"
    } else {
        return Ok(());
    };
    Err(FieldError::new("initialCredits", message))
}

/// The amount paid, 0 when absent.
fn parse_amount(input: &AmountInput) -> Result<Money, FieldError> {
    let message = match input.read() {
        None => return Ok(Money(0)),
        Some(Ok(m)) => return Ok(m),
        Some(Err(AmountError::TooLarge)) => "Payment amount must be at most 10,000,000.00",
        Some(Err(AmountError::NotAnAmount)) => "Payment amount must be 0 or more, in steps of 0.01",
    };
    Err(FieldError::new("paymentAmount", message))
}

/// A client who paid gets credits for it (checked only when the role and amount are valid).
fn credits_for_payment(
    role: Option<Role>,
    amount: Option<Money>,
    credits: i64,
) -> Result<(), FieldError> {
    if role == Some(Role::Client) && amount.is_some_and(|a| a.minor() > 0) && credits <= 0 {
        return Err(FieldError::new(
            "initialCredits",
            "Initial credits must be greater than 0 when payment amount is provided",
        ));
    }
    Ok(())
}

/// `cash` (also when empty or absent), `card`, `bank_transfer` or `other`.
fn parse_method(raw: Option<&str>) -> Result<String, FieldError> {
    let method = raw.map(str::trim).filter(|m| !m.is_empty());
    let method = method.unwrap_or("cash");
    if !["cash", "card", "bank_transfer", "other"].contains(&method) {
        let m = "Payment method must be cash, card, bank_transfer or other";
        return Err(FieldError::new("paymentMethod", m));
    }
    Ok(method.to_string())
}

/// The payment's day, `YYYY-MM-DD`; `None` (today) when empty or absent.
fn parse_day(raw: Option<&str>) -> Result<Option<NaiveDate>, FieldError> {
    match raw.map(str::trim).filter(|d| !d.is_empty()) {
        None => Ok(None),
        Some(d) => NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| {
                let m = "Payment date must be a date (YYYY-MM-DD)";
                FieldError::new("paymentDate", m)
            }),
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
    let months = super::common::validity_months(&state, body.validity_months)?;
    let user = CheckedUser::try_from(body)?;
    let hash = hash_password(&user.password).await?;
    let now = now();

    let mut tx = state.db.pool.begin().await?;
    let user_id = insert_account(&mut tx, &user, &hash).await?;
    if user.role == Role::Client && user.credits > 0 {
        let grant = Grant {
            user_id: &user_id,
            admin_id: &admin.user_id,
            day: user.day.unwrap_or(today),
            months,
        };
        grant_initial_credits(&mut tx, &state, &user, &grant).await?;
    }
    send_welcome(&mut tx, &state, &user, &user_id, &now).await?;
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

/// Inserts the user (not yet confirmed); a taken email is a 409.
async fn insert_account(
    conn: &mut AnyConnection,
    user: &CheckedUser,
    password_hash: &str,
) -> AppResult<String> {
    let new_user = NewUser {
        email: &user.email,
        full_name: user.full_name.as_str(),
        phone: user.phone.as_ref().map(Phone::as_str),
        password_hash,
        role: user.role,
        email_confirmed: false,
        language: user.language,
    };
    insert_user(conn, &new_user).await?.ok_or_else(|| {
        AppError::Conflict("A user with this email address has already been registered".into())
    })
}

/// Who gets the initial credits, who gives them, from which day and for how many months.
struct Grant<'a> {
    user_id: &'a str,
    admin_id: &'a str,
    day: NaiveDate,
    months: u32,
}

/// The new client's initial credits: a paid amount is an offline payment (with its receipt),
/// none is an adjustment (not revenue, no last payment date). Either must apply.
async fn grant_initial_credits(
    conn: &mut AnyConnection,
    state: &AppState,
    user: &CheckedUser,
    grant: &Grant<'_>,
) -> AppResult<()> {
    let payment_date = start_of_local_day(state, grant.day);
    let paid_at = crate::domain::parse_ts(&payment_date).unwrap_or_else(Utc::now);
    let validity = Validity::months_from(paid_at, grant.months, state.site().time_zone);
    let applied = if user.amount.minor() > 0 {
        let payment = OfflinePayment {
            client_id: grant.user_id,
            amount: user.amount,
            currency: &state.site().currency,
            sessions: user.credits,
            payment_date: &payment_date,
            method: &user.method,
            reference: None,
            notes: user.notes.as_ref().map(Notes::as_str),
            recorded_by: grant.admin_id,
            validity: &validity,
        };
        record_initial_payment(conn, state, &payment).await?
    } else {
        let reference = format!("initial:{}", grant.user_id);
        let applied = credits::adjust(
            conn,
            state.db.backend,
            grant.user_id,
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
    Ok(())
}

/// Records the paid initial credits and issues (and emails) the receipt; `None` if the
/// payment was not recorded.
async fn record_initial_payment(
    conn: &mut AnyConnection,
    state: &AppState,
    payment: &OfflinePayment<'_>,
) -> AppResult<Option<Applied>> {
    match record_offline_payment(&mut *conn, state.db.backend, payment).await? {
        Some(payment_id) => {
            issue_and_send(conn, state, &payment_id).await?;
            Ok(Some(Applied::Yes))
        }
        None => Ok(None),
    }
}

/// The admin chose a starting password; the user gets a link (valid 7 days) to set their own.
async fn send_welcome(
    conn: &mut AnyConnection,
    state: &AppState,
    user: &CheckedUser,
    user_id: &str,
    now: &str,
) -> AppResult<()> {
    let (token, token_hash) = new_token();
    sqlx::query("INSERT INTO auth_tokens (id, user_id, purpose, expires_at, created_at) VALUES ($1, $2, 'password_reset', $3, $4)")
        .bind(&token_hash)
        .bind(user_id)
        .bind(ts(Utc::now() + chrono::Duration::days(7)))
        .bind(now)
        .execute(&mut *conn)
        .await?;
    let link = user.language.page(
        &state.config.public_base_url,
        &format!("/auth?reset={token}"),
    );
    let welcome = templates::welcome_set_password(
        user.language,
        &state.site().name,
        user.email.as_str(),
        user.full_name.as_str(),
        &link,
    );
    enqueue(conn, &welcome).await?;
    Ok(())
}
