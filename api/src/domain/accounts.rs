//! Accounts made outside the sign-up form: the first admin (`api admin create`) and the demo
//! accounts of a local run. Their email counts as confirmed, since whoever runs the command
//! typed it.

use sqlx::AnyConnection;

use super::{Email, new_id, now};
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
    let inserted = sqlx::query("INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)")
        .bind(&user_id)
        .bind(user.email.as_str())
        .bind(user.password_hash)
        .bind(user.email_confirmed.then_some(now.clone()))
        .bind(&now)
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
    };
    if insert_user(&mut tx, &user).await?.is_none() {
        anyhow::bail!("a user with the email {email} already exists");
    }
    tx.commit().await?;
    Ok(())
}
