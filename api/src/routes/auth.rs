//! Accounts and sessions: sign-up, sign-in, sign-out, the current session, email confirmation,
//! password reset and change, and the account's language (the emails it is sent are written in
//! it; issue 21). Messages follow spec §5 and §8; nothing reveals whether an email has an
//! account, except sign-up itself (it must refuse a taken address).

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use chrono::Utc;
use serde::{Deserialize, Serialize};
use sqlx::AnyConnection;
use utoipa::ToSchema;

use super::common::{Status, optional};
use crate::domain::accounts::{NewUser, Role, insert_user, set_language};
use crate::domain::{
    Email, Language, Password, PersonName, Phone, hash_password, hash_token, new_token, now, ts,
    verify_password,
};
use crate::email::{enqueue, templates};
use crate::error::{AppError, AppResult, ErrorBody};
use crate::extract::{AppJson, AppQuery, AuthUser, ClientIp, MaybeAuthUser, SESSION_COOKIE};
use crate::rate_limit::limits;
use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Each route once: its path and method come from the handler's `#[utoipa::path]`.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sign_up))
        .routes(routes!(sign_in))
        .routes(routes!(sign_out))
        .routes(routes!(session))
        .routes(routes!(confirm_email))
        .routes(routes!(resend_confirmation))
        .routes(routes!(request_password_reset))
        .routes(routes!(confirm_password_reset))
        .routes(routes!(change_password))
        .routes(routes!(change_language))
}

const CONFIRM_HOURS: i64 = 48;
const RESET_MINUTES: i64 = 60;

#[derive(Serialize, ToSchema)]
pub struct UserView {
    pub id: String,
    pub email: String,
    pub email_confirmed: bool,
}

#[derive(Serialize, ToSchema)]
pub struct ProfileView {
    pub user_id: String,
    pub full_name: String,
    pub email: String,
    pub phone: Option<String>,
    pub role: Role,
}

/// The signed-in user and their profile.
#[derive(Serialize, ToSchema)]
pub struct AuthSessionView {
    pub user: UserView,
    pub profile: ProfileView,
    /// The account's language: every email it is sent is written in it (`en` or `ar`).
    pub language: Language,
}

impl AuthSessionView {
    fn new(
        user_id: &str,
        email: &str,
        email_confirmed: bool,
        full_name: &str,
        phone: Option<&str>,
        role: Role,
        language: Language,
    ) -> AuthSessionView {
        AuthSessionView {
            language,
            user: UserView {
                id: user_id.to_string(),
                email: email.to_string(),
                email_confirmed,
            },
            profile: ProfileView {
                user_id: user_id.to_string(),
                full_name: full_name.to_string(),
                email: email.to_string(),
                phone: phone.map(str::to_string),
                role,
            },
        }
    }
}

impl From<&AuthUser> for AuthSessionView {
    fn from(u: &AuthUser) -> AuthSessionView {
        AuthSessionView::new(
            &u.user_id,
            &u.email,
            u.email_confirmed,
            &u.full_name,
            u.phone.as_deref(),
            u.role,
            u.language,
        )
    }
}

fn cookie(state: &AppState, token: &str, max_age: i64) -> HeaderValue {
    let secure = if state.config.cookie_secure {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}"
    ))
    .expect("cookie is ASCII")
}

/// The public pages' hint of who is signed in (`client` or `admin`), beside the session cookie:
/// readable by their script so the header can say "Dashboard" or "Admin" without asking the
/// API, and so signed-out visitors are not asked about a session they do not have. It grants
/// nothing: every request is still decided by the HttpOnly session alone.
pub const SIGNED_IN_HINT_COOKIE: &str = "signed_in";

fn hint_cookie(state: &AppState, role: Option<Role>, max_age: i64) -> HeaderValue {
    let secure = if state.config.cookie_secure {
        "; Secure"
    } else {
        ""
    };
    let (value, max_age) = match role {
        Some(Role::Admin) => ("admin", max_age),
        Some(Role::Client) => ("client", max_age),
        None => ("", 0),
    };
    HeaderValue::from_str(&format!(
        "{SIGNED_IN_HINT_COOKIE}={value}; SameSite=Lax; Path=/; Max-Age={max_age}{secure}"
    ))
    .expect("cookie is ASCII")
}

/// A session just created: its cookie token and what the browser is told.
struct Started {
    token: String,
    view: AuthSessionView,
}

#[derive(sqlx_macros::FromRow)]
struct SessionUser {
    email: String,
    email_confirmed_at: Option<String>,
    full_name: String,
    phone: Option<String>,
    role: Role,
    preferred_language: Language,
}

/// Creates a session for `user_id` in the caller's transaction, unless the account is
/// deactivated (`None`). The user's row is locked first (PostgreSQL), the same row a
/// deactivation updates before it deletes the account's sessions: a sign-in either commits
/// its session before the deactivation starts (which then deletes it) or waits and finds the
/// account deactivated. The view is read in the same transaction, so the answer never depends
/// on a session a deactivation may already have removed.
async fn create_session(
    state: &AppState,
    conn: &mut AnyConnection,
    user_id: &str,
    headers: &HeaderMap,
    ip: &str,
) -> Result<Option<Started>, sqlx::Error> {
    let active: Option<String> = sqlx::query_scalar(&format!(
        "SELECT id FROM users WHERE id = $1 AND deactivated_at IS NULL{}",
        state.db.backend.for_update()
    ))
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    if active.is_none() {
        return Ok(None);
    }
    let user: SessionUser = sqlx::query_as(
        "SELECT u.email, u.email_confirmed_at, p.full_name, p.phone, p.role, u.preferred_language
           FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = $1",
    )
    .bind(user_id)
    .fetch_one(&mut *conn)
    .await?;
    let (token, id) = new_token();
    let now_t = Utc::now();
    let idle =
        ts(now_t + chrono::Duration::from_std(state.config.session_idle).unwrap_or_default());
    let expires =
        ts(now_t + chrono::Duration::from_std(state.config.session_absolute).unwrap_or_default());
    let agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.chars().take(300).collect::<String>());
    sqlx::query(
        "INSERT INTO sessions (id, user_id, created_at, last_seen_at, idle_expires_at, expires_at, user_agent, ip)
         VALUES ($1, $2, $3, $3, $4, $5, $6, $7)",
    )
    .bind(&id)
    .bind(user_id)
    .bind(ts(now_t))
    .bind(&idle)
    .bind(&expires)
    .bind(agent)
    .bind(ip)
    .execute(&mut *conn)
    .await?;
    let view = AuthSessionView::new(
        user_id,
        &user.email,
        user.email_confirmed_at.is_some(),
        &user.full_name,
        user.phone.as_deref(),
        user.role,
        user.preferred_language,
    );
    Ok(Some(Started { token, view }))
}

/// The session view with the cookie that signs the browser in.
fn signed_in(state: &AppState, started: Started, status: StatusCode) -> Response {
    let max_age = state.config.session_absolute.as_secs() as i64;
    let role = started.view.profile.role;
    let mut response = (status, Json(started.view)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::SET_COOKIE, cookie(state, &started.token, max_age));
    headers.append(header::SET_COOKIE, hint_cookie(state, Some(role), max_age));
    response
}

/// Emails a single-use link; the raw token only ever exists in the email.
async fn issue_token(
    conn: &mut AnyConnection,
    user_id: &str,
    purpose: &str,
    valid_for: chrono::Duration,
) -> Result<String, sqlx::Error> {
    let (token, hash) = new_token();
    sqlx::query("INSERT INTO auth_tokens (id, user_id, purpose, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&hash)
        .bind(user_id)
        .bind(purpose)
        .bind(ts(Utc::now() + valid_for))
        .bind(now())
        .execute(conn)
        .await?;
    Ok(token)
}

/// Marks a token used if it is valid for `purpose`; returns its user. Atomic: a token works once.
async fn redeem_token(
    conn: &mut AnyConnection,
    token: &str,
    purpose: &str,
) -> Result<Option<String>, sqlx::Error> {
    let now = now();
    sqlx::query_scalar(
        "UPDATE auth_tokens SET used_at = $1
          WHERE id = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > $1
        RETURNING user_id",
    )
    .bind(&now)
    .bind(hash_token(token))
    .bind(purpose)
    .fetch_optional(conn)
    .await
}

#[derive(Deserialize, ToSchema)]
pub struct SignUp {
    full_name: Option<String>,
    email: Option<String>,
    password: Option<String>,
    phone: Option<String>,
    /// The language of the account's emails: the page's (`en`, the default, or `ar`).
    #[schema(value_type = Option<Language>)]
    language: Option<String>,
}

/// Creates a client account (user, profile with role client, empty credit account), signs the
/// browser in and emails a confirmation link.
#[utoipa::path(post, path = "/api/auth/sign-up", tag = "auth", request_body = SignUp,
    responses((status = 201, body = AuthSessionView, description = "Signed in; the session cookie is set"),
              (status = 400, body = ErrorBody), (status = 409, body = ErrorBody, description = "User already registered"),
              (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn sign_up(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    AppJson(body): AppJson<SignUp>,
) -> AppResult<Response> {
    state
        .limiter
        .check("sign_up_ip", &ip, limits::SIGN_UP_IP)
        .await?;
    let full_name = optional(body.full_name)
        .ok_or_else(|| AppError::field("full_name", "Full name is required"))?;
    let full_name = PersonName::parse("full_name", Some(&full_name))?;
    let full_name = full_name.as_str();
    let raw_email =
        optional(body.email).ok_or_else(|| AppError::field("email", "Email is required"))?;
    let email = Email::parse(&raw_email)
        .ok_or_else(|| AppError::field("email", "Invalid email address"))?;
    let password = Password::parse(body.password.as_deref().unwrap_or(""), "password")?;
    let phone = Phone::parse_optional("phone", body.phone.as_deref())?;
    let language = Language::parse_field("language", body.language.as_deref())?.unwrap_or_default();
    let hash = hash_password(&password).await?;

    let mut tx = state.db.pool.begin().await?;
    let new_user = NewUser {
        email: &email,
        full_name,
        phone: phone.as_ref().map(Phone::as_str),
        password_hash: &hash,
        role: Role::Client,
        email_confirmed: false,
        language,
    };
    let user_id = insert_user(&mut tx, &new_user)
        .await?
        .ok_or_else(|| AppError::Conflict("User already registered".into()))?;
    let confirm = issue_token(
        &mut tx,
        &user_id,
        "email_confirm",
        chrono::Duration::hours(CONFIRM_HOURS),
    )
    .await?;
    let link = format!(
        "{}/api/auth/confirm?token={confirm}",
        state.config.public_base_url
    );
    enqueue(
        &mut tx,
        &templates::email_confirmation(
            language,
            &state.site().name,
            email.as_str(),
            full_name,
            &link,
        ),
    )
    .await?;
    let started = create_session(&state, &mut tx, &user_id, &headers, &ip)
        .await?
        .ok_or_else(|| anyhow::anyhow!("a new account is deactivated"))?;
    tx.commit().await?;
    state.mail_wake.notify_one();
    tracing::info!(user_id, "account created");
    Ok(signed_in(&state, started, StatusCode::CREATED))
}

#[derive(Deserialize, ToSchema)]
pub struct SignIn {
    email: Option<String>,
    password: Option<String>,
}

/// The answer to a deactivated account's correct password (the admin deactivated it).
pub fn deactivated_account() -> AppError {
    AppError::Forbidden(
        "This account has been deactivated. Please contact the coach to reactivate it.".into(),
    )
}

/// Signs in with email and password. Wrong email and wrong password get the same answer.
#[utoipa::path(post, path = "/api/auth/sign-in", tag = "auth", request_body = SignIn,
    responses((status = 200, body = AuthSessionView, description = "Signed in; the session cookie is set"),
              (status = 400, body = ErrorBody, description = "Invalid login credentials"),
              (status = 403, body = ErrorBody, description = "This account has been deactivated"),
              (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn sign_in(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    AppJson(body): AppJson<SignIn>,
) -> AppResult<Response> {
    let (Some(raw_email), Some(password)) = (
        optional(body.email),
        body.password.filter(|p| !p.is_empty()),
    ) else {
        return Err(AppError::Validation {
            message: "Email and password are required".into(),
            fields: Default::default(),
        });
    };
    state
        .limiter
        .check("sign_in_ip", &ip, limits::SIGN_IN_IP)
        .await?;
    let email = raw_email.trim().to_lowercase();
    // Too many wrong passwords lock the account for a while; the refusal tells the owner how
    // long and that a password reset (which clears the lock) lets them in at once.
    state
        .limiter
        .refuse_if_spent("sign_in_account", &email, limits::SIGN_IN_ACCOUNT, true)
        .await?;
    let row: Option<(String, Option<String>, Option<String>)> =
        sqlx::query_as("SELECT id, password_hash, deactivated_at FROM users WHERE email = $1")
            .bind(&email)
            .fetch_optional(&state.db.pool)
            .await?;
    let (user_id, hash, deactivated) = match row {
        Some((id, hash, deactivated)) => (Some(id), hash, deactivated.is_some()),
        None => (None, None, false),
    };
    if !verify_password(&password, hash.as_deref()).await {
        state
            .limiter
            .record("sign_in_account", &email, limits::SIGN_IN_ACCOUNT)
            .await?;
        return Err(AppError::BadRequest("Invalid login credentials".into()));
    }
    // Told only to whoever knows the password: it says nothing about other addresses.
    if deactivated {
        return Err(deactivated_account());
    }
    let user_id = user_id.expect("verified passwords belong to a user");
    let mut tx = state.db.pool.begin().await?;
    // Deactivated since the password was checked: refused like above.
    let started = create_session(&state, &mut tx, &user_id, &headers, &ip)
        .await?
        .ok_or_else(deactivated_account)?;
    tx.commit().await?;
    Ok(signed_in(&state, started, StatusCode::OK))
}

#[derive(Deserialize, ToSchema)]
pub struct Empty {}

/// Ends this browser's session (deleted on the server) and clears the cookie.
#[utoipa::path(post, path = "/api/auth/sign-out", tag = "auth", request_body = Empty,
    responses((status = 204, description = "Signed out"), (status = 400, body = ErrorBody)))]
pub async fn sign_out(
    State(state): State<AppState>,
    MaybeAuthUser(user): MaybeAuthUser,
    AppJson(_empty): AppJson<Empty>,
) -> AppResult<Response> {
    if let Some(user) = user {
        sqlx::query("DELETE FROM sessions WHERE id = $1")
            .bind(&user.session_id)
            .execute(&state.db.pool)
            .await?;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    headers.insert(header::SET_COOKIE, cookie(&state, "", 0));
    headers.append(header::SET_COOKIE, hint_cookie(&state, None, 0));
    Ok(response)
}

/// The current user and profile (with role), or 401. Either way the answer brings the
/// signed-in hint cookie up to date (renewed, or cleared once the session has ended).
#[utoipa::path(get, path = "/api/auth/session", tag = "auth",
    responses((status = 200, body = AuthSessionView), (status = 401, body = ErrorBody)))]
pub async fn session(
    State(state): State<AppState>,
    MaybeAuthUser(user): MaybeAuthUser,
) -> Response {
    let Some(user) = user else {
        let mut response = AppError::unauthenticated().into_response();
        response
            .headers_mut()
            .append(header::SET_COOKIE, hint_cookie(&state, None, 0));
        return response;
    };
    let max_age = state.config.session_absolute.as_secs() as i64;
    let mut response = Json(AuthSessionView::from(&user)).into_response();
    response.headers_mut().append(
        header::SET_COOKIE,
        hint_cookie(&state, Some(user.role), max_age),
    );
    response
}

/// Emails the signed-in user a new confirmation link (the dashboard's "resend" link). Already
/// confirmed: nothing is sent. A few per hour per account, so it cannot flood an inbox.
#[utoipa::path(post, path = "/api/auth/confirm/resend", tag = "auth", request_body = Empty,
    responses((status = 202, body = Status, description = "check_your_email, or already_confirmed"),
              (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn resend_confirmation(
    State(state): State<AppState>,
    user: AuthUser,
    AppJson(_empty): AppJson<Empty>,
) -> AppResult<(StatusCode, Json<Status>)> {
    if user.email_confirmed {
        return Ok((
            StatusCode::ACCEPTED,
            Json(Status {
                status: "already_confirmed",
            }),
        ));
    }
    state
        .limiter
        .check(
            "confirm_resend_account",
            &user.user_id,
            limits::CONFIRM_RESEND_ACCOUNT,
        )
        .await?;
    let mut tx = state.db.pool.begin().await?;
    let token = issue_token(
        &mut tx,
        &user.user_id,
        "email_confirm",
        chrono::Duration::hours(CONFIRM_HOURS),
    )
    .await?;
    let link = format!(
        "{}/api/auth/confirm?token={token}",
        state.config.public_base_url
    );
    enqueue(
        &mut tx,
        &templates::email_confirmation(
            user.language,
            &state.site().name,
            &user.email,
            &user.full_name,
            &link,
        ),
    )
    .await?;
    tx.commit().await?;
    state.mail_wake.notify_one();
    Ok((
        StatusCode::ACCEPTED,
        Json(Status {
            status: "check_your_email",
        }),
    ))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TokenQuery {
    token: Option<String>,
}

/// The language of the account an emailed token was issued to (used or not), so a link leads
/// to the sign-in page in it; the default for an unknown token.
async fn language_of_token(conn: &mut AnyConnection, token: &str) -> Result<Language, sqlx::Error> {
    let stored: Option<String> = sqlx::query_scalar(
        "SELECT u.preferred_language FROM auth_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = $1",
    )
    .bind(hash_token(token))
    .fetch_optional(conn)
    .await?;
    Ok(stored.and_then(|s| Language::parse(&s)).unwrap_or_default())
}

/// A confirmed address joins the sponsors' engagements that invited it (issue 23).
async fn join_engagements(
    state: &AppState,
    conn: &mut sqlx::AnyConnection,
    user_id: &str,
) -> AppResult<()> {
    let site = state.site();
    let ctx = state.context(&site);
    crate::sponsors::engagements::join_invited(conn, &ctx, user_id).await?;
    Ok(())
}

/// The link in the confirmation email: confirms the address, then shows the sign-in page (in
/// the account's language: `/ar/auth?…` for Arabic).
#[utoipa::path(get, path = "/api/auth/confirm", tag = "auth", params(TokenQuery),
    responses((status = 303, description = "To /auth?confirmed=1, or /auth?confirm_error=1 for an invalid or used link (under /ar for an Arabic account)")))]
pub async fn confirm_email(
    State(state): State<AppState>,
    AppQuery(q): AppQuery<TokenQuery>,
) -> AppResult<Redirect> {
    let base = &state.config.public_base_url;
    let Some(token) = q.token.filter(|t| !t.is_empty()) else {
        return Ok(Redirect::to(&format!("{base}/auth?confirm_error=1")));
    };
    let mut tx = state.db.pool.begin().await?;
    let language = language_of_token(&mut tx, &token).await?;
    let Some(user_id) = redeem_token(&mut tx, &token, "email_confirm").await? else {
        return Ok(Redirect::to(&language.page(base, "/auth?confirm_error=1")));
    };
    sqlx::query("UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $1), updated_at = $1 WHERE id = $2")
        .bind(now())
        .bind(&user_id)
        .execute(&mut *tx)
        .await?;
    join_engagements(&state, &mut tx, &user_id).await?;
    tx.commit().await?;
    Ok(Redirect::to(&language.page(base, "/auth?confirmed=1")))
}

#[derive(Deserialize, ToSchema)]
pub struct ResetRequest {
    email: Option<String>,
}

/// Emails a single-use reset link if the address has an account; the answer is the same
/// either way.
#[utoipa::path(post, path = "/api/auth/password-reset", tag = "auth", request_body = ResetRequest,
    responses((status = 202, body = Status), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn request_password_reset(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<ResetRequest>,
) -> AppResult<(StatusCode, Json<Status>)> {
    let raw = optional(body.email).ok_or_else(|| AppError::field("email", "Email is required"))?;
    let email =
        Email::parse(&raw).ok_or_else(|| AppError::field("email", "Invalid email address"))?;
    state
        .limiter
        .check("reset_ip", &ip, limits::RESET_IP)
        .await?;
    let accepted = (
        StatusCode::ACCEPTED,
        Json(Status {
            status: "check_your_email",
        }),
    );
    if state
        .limiter
        .check("reset_account", email.as_str(), limits::RESET_ACCOUNT)
        .await
        .is_err()
    {
        return Ok(accepted); // silently: a different answer would reveal the account
    }
    let user: Option<(String, String)> =
        sqlx::query_as("SELECT id, preferred_language FROM users WHERE email = $1")
            .bind(email.as_str())
            .fetch_optional(&state.db.pool)
            .await?;
    if let Some((user_id, language)) = user {
        let language = Language::parse(&language).unwrap_or_default();
        let mut tx = state.db.pool.begin().await?;
        let token = issue_token(
            &mut tx,
            &user_id,
            "password_reset",
            chrono::Duration::minutes(RESET_MINUTES),
        )
        .await?;
        let link = language.page(
            &state.config.public_base_url,
            &format!("/auth?reset={token}"),
        );
        enqueue(
            &mut tx,
            &templates::password_reset(language, &state.site().name, email.as_str(), &link),
        )
        .await?;
        tx.commit().await?;
        state.mail_wake.notify_one();
    }
    Ok(accepted)
}

#[derive(Deserialize, ToSchema)]
pub struct ResetConfirm {
    token: Option<String>,
    password: Option<String>,
}

/// Sets a new password with the emailed token, ends every other session and signs in.
#[utoipa::path(post, path = "/api/auth/password-reset/confirm", tag = "auth", request_body = ResetConfirm,
    responses((status = 200, body = AuthSessionView), (status = 400, body = ErrorBody, description = "Invalid or expired link"), (status = 422, body = ErrorBody)))]
pub async fn confirm_password_reset(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    AppJson(body): AppJson<ResetConfirm>,
) -> AppResult<Response> {
    let password = Password::parse(body.password.as_deref().unwrap_or(""), "password")?;
    let token = optional(body.token)
        .ok_or_else(|| AppError::BadRequest("This reset link is invalid or has expired.".into()))?;
    let hash = hash_password(&password).await?;
    let mut tx = state.db.pool.begin().await?;
    let user_id = redeem_token(&mut tx, &token, "password_reset")
        .await?
        .ok_or_else(|| AppError::BadRequest("This reset link is invalid or has expired.".into()))?;
    let deactivated: Option<String> = sqlx::query_scalar(&format!(
        "SELECT deactivated_at FROM users WHERE id = $1{}",
        state.db.backend.for_update()
    ))
    .bind(&user_id)
    .fetch_one(&mut *tx)
    .await?;
    if deactivated.is_some() {
        return Err(deactivated_account());
    }
    let now = now();
    // The emailed link proves the address, so it confirms it too.
    sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2, email_confirmed_at = COALESCE(email_confirmed_at, $2) WHERE id = $3")
        .bind(&hash)
        .bind(&now)
        .bind(&user_id)
        .execute(&mut *tx)
        .await?;
    join_engagements(&state, &mut tx, &user_id).await?;
    sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(&user_id)
        .execute(&mut *tx)
        .await?;
    let started = create_session(&state, &mut tx, &user_id, &headers, &ip)
        .await?
        .ok_or_else(deactivated_account)?;
    let email = started.view.user.email.clone();
    tx.commit().await?;
    // The emailed link proved who this is: lift the wrong-password lock at once.
    state.limiter.clear("sign_in_account", &email).await?;
    Ok(signed_in(&state, started, StatusCode::OK))
}

#[derive(Deserialize, ToSchema)]
pub struct ChangePassword {
    current_password: Option<String>,
    new_password: Option<String>,
}

/// Changes the password of the signed-in user; their other sessions end.
#[utoipa::path(post, path = "/api/auth/password", tag = "auth", request_body = ChangePassword,
    responses((status = 204), (status = 400, body = ErrorBody, description = "Current password is incorrect"), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn change_password(
    State(state): State<AppState>,
    user: AuthUser,
    AppJson(body): AppJson<ChangePassword>,
) -> AppResult<StatusCode> {
    let new = Password::parse(body.new_password.as_deref().unwrap_or(""), "new_password")?;
    let hash: Option<String> = sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1")
        .bind(&user.user_id)
        .fetch_one(&state.db.pool)
        .await?;
    if !verify_password(
        body.current_password.as_deref().unwrap_or(""),
        hash.as_deref(),
    )
    .await
    {
        return Err(AppError::BadRequest("Current password is incorrect".into()));
    }
    let new_hash = hash_password(&new).await?;
    let mut tx = state.db.pool.begin().await?;
    sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(&new_hash)
        .bind(now())
        .bind(&user.user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
        .bind(&user.user_id)
        .bind(&user.session_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, ToSchema)]
pub struct LanguageChange {
    /// `en` or `ar`.
    #[schema(value_type = Language)]
    language: Option<String>,
}

/// The account's language, as `PUT /api/auth/language` answers it.
#[derive(Serialize, ToSchema)]
pub struct LanguageView {
    pub language: Language,
}

/// The signed-in user chooses the language of their emails (the dashboard's language switch):
/// the next email they are sent is written in it.
#[utoipa::path(put, path = "/api/auth/language", tag = "auth", request_body = LanguageChange,
    responses((status = 200, body = LanguageView), (status = 401, body = ErrorBody),
              (status = 422, body = ErrorBody, description = "Language must be en (English) or ar (Arabic)")))]
pub async fn change_language(
    State(state): State<AppState>,
    user: AuthUser,
    AppJson(body): AppJson<LanguageChange>,
) -> AppResult<Json<LanguageView>> {
    let language = Language::parse_field("language", body.language.as_deref())?
        .ok_or_else(|| AppError::field("language", crate::domain::LANGUAGE_MESSAGE))?;
    let mut conn = state.db.pool.acquire().await?;
    if !set_language(&mut conn, &user.user_id, language).await? {
        return Err(AppError::unauthenticated());
    }
    tracing::info!(user_id = %user.user_id, language = language.as_str(), "language changed");
    Ok(Json(LanguageView { language }))
}
