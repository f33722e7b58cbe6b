//! Accounts made outside the sign-up form: the first admin (`api admin create`) and the demo
//! accounts of a local run. Their email counts as confirmed, since whoever runs the command
//! typed it.

use super::{Email, new_id, now};
use crate::db::Db;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

/// A user, their profile with `role`, and an empty client account, in one transaction.
pub async fn create_confirmed_user(
    db: &Db,
    email: &Email,
    name: &str,
    phone: Option<&str>,
    password_hash: &str,
    role: Role,
) -> anyhow::Result<()> {
    let mut tx = db.pool.begin().await?;
    let user_id = new_id();
    let now = now();
    sqlx::query("INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $4, $4)")
        .bind(&user_id)
        .bind(email.as_str())
        .bind(password_hash)
        .bind(&now)
        .execute(&mut *tx)
        .await
        .map_err(|e| match crate::db::violated_constraint(&e).as_deref() {
            Some("users_email_key") => anyhow::anyhow!("a user with the email {email} already exists"),
            _ => e.into(),
        })?;
    sqlx::query("INSERT INTO profiles (id, user_id, full_name, email, phone, role, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(new_id())
        .bind(&user_id)
        .bind(name)
        .bind(email.as_str())
        .bind(phone)
        .bind(role.as_str())
        .bind(&now)
        .execute(&mut *tx)
        .await?;
    sqlx::query("INSERT INTO client_accounts (user_id, updated_at) VALUES ($1, $2)")
        .bind(&user_id)
        .bind(&now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}
