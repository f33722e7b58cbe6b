//! One storage layer for SQLite and PostgreSQL through sqlx's `Any` driver: the same portable
//! SQL (`$1` placeholders, TEXT ids and timestamps, BIGINT money) runs on both, and the same
//! migrations (`api/migrations/`) create the same schema.

use std::path::Path;
use std::str::FromStr;

use anyhow::Context;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, ConnectOptions};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The row-lock clause to end a `SELECT` with inside a transaction that will write what it
    /// read: `FOR UPDATE` on PostgreSQL; nothing on SQLite, whose one connection already runs
    /// transactions one at a time.
    pub fn for_update(self) -> &'static str {
        match self {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
}

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

impl Db {
    /// Connects; a SQLite file (and its folder) is created on first start, in WAL mode.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite: or postgres:");
        };
        let url = if backend == Backend::Sqlite {
            prepare_sqlite_url(url)?
        } else {
            url.to_string()
        };
        let options = AnyConnectOptions::from_str(&url)
            .context("DATABASE_URL is not a valid database URL")?
            .disable_statement_logging();
        let pool = match backend {
            // SQLite allows one writer at a time; one connection serialises writes without
            // "database is locked" errors, and its queries take microseconds. Do not hold a
            // connection while waiting for another: there is only one.
            Backend::Sqlite => AnyPoolOptions::new()
                .max_connections(1)
                .after_connect(|conn, _| {
                    Box::pin(async move {
                        use sqlx::Executor;
                        conn.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;").await?;
                        Ok(())
                    })
                })
                .connect_with(options)
                .await
                .context("cannot open the SQLite database")?,
            Backend::Postgres => AnyPoolOptions::new()
                .max_connections(16)
                .connect_with(options)
                .await
                .context("cannot connect to PostgreSQL")?,
        };
        Ok(Db { pool, backend })
    }

    pub async fn migrate(&self) -> anyhow::Result<()> {
        MIGRATOR
            .run(&self.pool)
            .await
            .context("database migration failed")?;
        Ok(())
    }

    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }
}

/// `sqlite://data/app.db` → creates `data/` and adds `mode=rwc` so the file is created.
fn prepare_sqlite_url(url: &str) -> anyhow::Result<String> {
    let rest = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let path = rest.split('?').next().unwrap_or(rest);
    if path != ":memory:"
        && let Some(dir) = Path::new(path).parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    Ok(if url.contains("mode=") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    })
}

/// The name of the constraint a database error violated, on either backend.
pub fn violated_constraint(err: &sqlx::Error) -> Option<String> {
    let db = err.as_database_error()?;
    if let Some(c) = db.constraint() {
        return Some(c.to_string());
    }
    // SQLite names the columns, not the constraint: "UNIQUE constraint failed: users.email".
    let msg = db.message();
    if msg.contains("UNIQUE constraint failed: users.email") {
        return Some("users_email_key".into());
    }
    if msg.contains("CHECK constraint failed: client_accounts_available_non_negative") {
        return Some("client_accounts_available_non_negative".into());
    }
    msg.split("constraint failed: ")
        .nth(1)
        .map(|s| s.trim().to_string())
}
