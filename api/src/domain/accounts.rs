//! Accounts made outside the sign-up form: the first admin (`api admin create`) and the demo
//! accounts of a local run. Their email counts as confirmed, since whoever runs the command
//! typed it.

use sqlx::AnyConnection;

use super::{Email, Language, new_id, now};
use crate::db::Db;

/// Who a user is to the portal. Stored as `admin` / `client`; compared only as this enum.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Admin,
    Client,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Client => "client",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "admin" => Some(Role::Admin),
            "client" => Some(Role::Client),
            _ => None,
        }
    }
}

crate::db::column_via!(Role, String);

impl TryFrom<String> for Role {
    type Error = String;

    fn try_from(s: String) -> Result<Role, String> {
        Role::parse(&s).ok_or_else(|| format!("`{s}` is not a role"))
    }
}

/// Who to create: every way in (sign-up, an admin's Add User, the command line, the demo
/// accounts) makes the same three rows.
pub struct NewUser<'a> {
    pub email: &'a Email,
    pub full_name: &'a str,
    pub phone: Option<&'a str>,
    pub password_hash: &'a str,
    pub role: Role,
    /// True when whoever created the account typed the email (the command line, demo accounts).
    pub email_confirmed: bool,
    /// The language its emails are written in.
    pub language: Language,
}

/// Inserts the user, their profile and an empty client account on `conn` (inside the caller's
/// transaction); the new user's id, or `None` when the email is taken (each caller words that
/// differently).
pub async fn insert_user(
    conn: &mut AnyConnection,
    user: &NewUser<'_>,
) -> Result<Option<String>, sqlx::Error> {
    let user_id = new_id();
    let now = now();
    let inserted = sqlx::query("INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at, preferred_language) VALUES ($1, $2, $3, $4, $5, $5, $6)")
        .bind(&user_id)
        .bind(user.email.as_str())
        .bind(user.password_hash)
        .bind(user.email_confirmed.then_some(now.clone()))
        .bind(&now)
        .bind(user.language.as_str())
        .execute(&mut *conn)
        .await;
    if let Err(e) = inserted {
        return match crate::db::violated_constraint(&e).as_deref() {
            Some("users_email_key") => Ok(None),
            _ => Err(e),
        };
    }
    sqlx::query("INSERT INTO profiles (id, user_id, full_name, email, phone, role, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(new_id())
        .bind(&user_id)
        .bind(user.full_name)
        .bind(user.email.as_str())
        .bind(user.phone)
        .bind(user.role.as_str())
        .bind(&now)
        .execute(&mut *conn)
        .await?;
    sqlx::query("INSERT INTO client_accounts (user_id, updated_at) VALUES ($1, $2)")
        .bind(&user_id)
        .bind(&now)
        .execute(&mut *conn)
        .await?;
    Ok(Some(user_id))
}

/// A user whose email counts as confirmed, in a transaction of its own.
pub async fn create_confirmed_user(
    db: &Db,
    email: &Email,
    name: &str,
    phone: Option<&str>,
    password_hash: &str,
    role: Role,
) -> anyhow::Result<()> {
    let mut tx = db.pool.begin().await?;
    let user = NewUser {
        email,
        full_name: name,
        phone,
        password_hash,
        role,
        email_confirmed: true,
        language: Language::En,
    };
    if insert_user(&mut tx, &user).await?.is_none() {
        anyhow::bail!("a user with the email {email} already exists");
    }
    tx.commit().await?;
    Ok(())
}

/// The language `user_id`'s emails are written in; the default for an unknown id.
pub async fn language_of(conn: &mut AnyConnection, user_id: &str) -> Result<Language, sqlx::Error> {
    let stored: Option<String> =
        sqlx::query_scalar("SELECT preferred_language FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(conn)
            .await?;
    Ok(stored.and_then(|s| Language::parse(&s)).unwrap_or_default())
}

/// The language of the account with this email (lower-cased, as stored); the default when no
/// account has it (a visitor, an invitee who is not a client, a coach without an account).
pub async fn language_of_email(
    conn: &mut AnyConnection,
    email: &str,
) -> Result<Language, sqlx::Error> {
    let stored: Option<String> =
        sqlx::query_scalar("SELECT preferred_language FROM users WHERE email = $1")
            .bind(email.trim().to_lowercase())
            .fetch_optional(conn)
            .await?;
    Ok(stored.and_then(|s| Language::parse(&s)).unwrap_or_default())
}

/// The language of whoever a message about a booking goes to: its client's when it has one,
/// else the account whose email it is sent to, else the default.
pub async fn language_for(
    conn: &mut AnyConnection,
    client_id: Option<&str>,
    email: &str,
) -> Result<Language, sqlx::Error> {
    match client_id {
        Some(id) => language_of(conn, id).await,
        None => language_of_email(conn, email).await,
    }
}

/// Sets `user_id`'s language; false when there is no such user.
pub async fn set_language(
    conn: &mut AnyConnection,
    user_id: &str,
    language: Language,
) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("UPDATE users SET preferred_language = $1, updated_at = $2 WHERE id = $3")
            .bind(language.as_str())
            .bind(now())
            .bind(user_id)
            .execute(conn)
            .await?;
    Ok(done.rows_affected() == 1)
}
