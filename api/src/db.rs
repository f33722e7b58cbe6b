//! One storage layer for SQLite and PostgreSQL through sqlx's `Any` driver: the same portable
//! SQL (`$1` placeholders, TEXT ids and timestamps, BIGINT money) runs on both, and the same
//! migrations (`api/migrations/`) create the same schema.

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::Context;

use crate::data_generation;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, ConnectOptions};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a `DATABASE_URL` names by its scheme.
    pub fn of_url(url: &str) -> anyhow::Result<Backend> {
        if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Ok(Backend::Postgres)
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite: or postgres:");
        }
    }

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

/// The database: a writer and the readers beside it.
///
/// On SQLite, `pool` is the writer: one connection that runs every write and every
/// transaction, so writes never meet "database is locked". `reader()` is a pool of read-only
/// connections (`PRAGMA query_only`) to the same file in WAL mode, where readers never block
/// the writer or each other and see every transaction committed before their query starts.
/// On PostgreSQL both are the same pool.
///
/// Use `reader()` for a query that stands alone and only reads (a session lookup, a
/// dashboard). Anything inside a transaction, any write, and any read that must see its own
/// uncommitted writes goes through `pool`.
#[derive(Clone, Debug)]
pub struct Db {
    /// The writer (SQLite: one connection); on PostgreSQL, the one pool.
    pub pool: AnyPool,
    readers: AnyPool,
    pub backend: Backend,
    /// SQLite (a file): the writer's check-outs and returns, for the exact caches of
    /// `read_cache`. `None` on PostgreSQL or where reads go through the writer anyway (an
    /// in-memory database).
    writer_use: Option<Arc<WriterUse>>,
    /// PostgreSQL: the reader of the data generation (`data_generation`), for the same caches.
    generations: Option<Arc<data_generation::Reader>>,
}

/// How often SQLite's one writer connection has been checked out and returned. Every write,
/// and every transaction, holds it; so while the two counts are equal nothing is being
/// written, and when a count moves, something may have been. A hook that could not run (a
/// failed connection set-up) leaves the counts unequal for good: the caches then stop
/// caching, which is slower but never wrong.
#[derive(Debug, Default)]
struct WriterUse {
    out: AtomicU64,
    back: AtomicU64,
}

impl WriterUse {
    fn idle_generation(&self) -> Option<u64> {
        // `back` first: `out >= back` always, so `out == back` read in this order means the
        // writer was idle when `back` was read, with every earlier write returned (committed).
        let back = self.back.load(Ordering::SeqCst);
        let out = self.out.load(Ordering::SeqCst);
        (out == back).then_some(back)
    }
}

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx_macros::migrate!("./migrations");

/// A column read as one of our types through the type the database stores (`TEXT` or an
/// integer) and its `TryFrom`, so rows derive `FromRow` field by field. What sqlx's
/// `#[sqlx(try_from = …)]` does, which needs sqlx's `macros` feature (see the workspace's
/// `Cargo.toml`, `sqlx-macros`); a value the type refuses is the column's decode error.
macro_rules! column_via {
    ($ty:ty, $via:ty) => {
        impl sqlx::Type<sqlx::Any> for $ty {
            fn type_info() -> sqlx::any::AnyTypeInfo {
                <$via as sqlx::Type<sqlx::Any>>::type_info()
            }

            fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
                <$via as sqlx::Type<sqlx::Any>>::compatible(ty)
            }
        }

        impl<'r> sqlx::Decode<'r, sqlx::Any> for $ty {
            fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                let stored = <$via as sqlx::Decode<'r, sqlx::Any>>::decode(value)?;
                <$ty>::try_from(stored).map_err(|e| e.to_string().into())
            }
        }
    };
}

pub(crate) use column_via;

/// Read-only connections beside SQLite's writer. On the 2-core benchmark machine
/// (`bench/api.sh`), 2, 4 and 8 readers measured within noise of each other; 4 lets reads run
/// on both cores while one waits on the disk, without a thread per idle connection to spare.
const SQLITE_READERS: u32 = 4;

/// Set on every SQLite connection. `synchronous = NORMAL` is durable in WAL mode against a
/// process crash (a power loss may lose the last transactions, never corrupt the file).
const SQLITE_PRAGMAS: &str = "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;";

impl Db {
    /// Connects; a SQLite file (and its folder) is created on first start, in WAL mode.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of_url(url)?;
        let url = if backend == Backend::Sqlite {
            prepare_sqlite_url(url)?
        } else {
            url.to_string()
        };
        let options = AnyConnectOptions::from_str(&url)
            .context("DATABASE_URL is not a valid database URL")?
            .disable_statement_logging();
        match backend {
            Backend::Sqlite => Db::connect_sqlite(options, is_memory(&url)).await,
            Backend::Postgres => Db::connect_postgres(options).await,
        }
    }

    /// SQLite: the one writer and, for a file, the read-only connections beside it.
    async fn connect_sqlite(options: AnyConnectOptions, memory: bool) -> anyhow::Result<Db> {
        let (pool, writer_use) = sqlite_writer(options.clone()).await?;
        // An in-memory database is private to its connection: readers would see another,
        // empty one.
        let readers = if memory {
            pool.clone()
        } else {
            sqlite_readers(options).await?
        };
        Ok(Db {
            pool,
            readers,
            backend: Backend::Sqlite,
            writer_use: (!memory).then_some(writer_use),
            generations: None,
        })
    }

    /// PostgreSQL: one pool for writes and reads.
    async fn connect_postgres(options: AnyConnectOptions) -> anyhow::Result<Db> {
        let pool = AnyPoolOptions::new()
            .max_connections(16)
            .connect_with(options)
            .await
            .context("cannot connect to PostgreSQL")?;
        Ok(Db {
            readers: pool.clone(),
            generations: Some(data_generation::Reader::new(pool.clone())),
            pool,
            backend: Backend::Postgres,
            writer_use: None,
        })
    }

    /// SQLite: the writer's use count while nobody holds it; `None` while a write may be in
    /// flight, and on PostgreSQL (see [`Db::read_generation`]).
    pub fn write_generation(&self) -> Option<u64> {
        self.writer_use.as_ref()?.idle_generation()
    }

    /// What a read whose result may be cached (`read_cache`) reads first, and stores that
    /// result under: on SQLite the writer's idle use count ([`Db::write_generation`]); on
    /// PostgreSQL the data generation as read after this call (`data_generation`). `None`:
    /// nothing may be cached or served from a cache now.
    pub async fn read_generation(&self) -> Option<u64> {
        match &self.generations {
            Some(reader) => reader.read().await,
            None => self.write_generation(),
        }
    }

    /// The generation a read made later in the same request may be cached under, given the one
    /// the request read first (`read_at`, from [`Db::read_generation`]): on SQLite only while
    /// the writer is idle and nothing was written since; on PostgreSQL `read_at` itself, since
    /// whatever the request reads after it is at least as new.
    pub fn generation_since(&self, read_at: Option<u64>) -> Option<u64> {
        if self.generations.is_some() {
            return read_at;
        }
        self.write_generation().filter(|g| read_at == Some(*g))
    }

    /// The pool for standalone reads: SQLite's read-only connections; on PostgreSQL, `pool`.
    pub fn reader(&self) -> &AnyPool {
        &self.readers
    }

    /// Runs the migrations; on PostgreSQL, then installs the data generation's trigger on any
    /// table that lacks it (`data_generation`).
    pub async fn migrate(&self) -> anyhow::Result<()> {
        MIGRATOR
            .run(&self.pool)
            .await
            .context("database migration failed")?;
        if self.backend == Backend::Postgres {
            data_generation::install(&self.pool)
                .await
                .context("cannot install the data generation's trigger")?;
        }
        Ok(())
    }

    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }
}

/// SQLite's one writer: SQLite allows one write transaction at a time, and one connection
/// serialises them without "database is locked" errors. Never hold the writer while waiting
/// for it again: there is only one. A local file cannot drop a connection, so no ping before
/// each use (a round trip to sqlx's worker thread). Its check-outs and returns are counted.
async fn sqlite_writer(options: AnyConnectOptions) -> anyhow::Result<(AnyPool, Arc<WriterUse>)> {
    let writer_use = Arc::new(WriterUse::default());
    let (opened, reused, returned) = (writer_use.clone(), writer_use.clone(), writer_use.clone());
    let pool = AnyPoolOptions::new()
        .max_connections(1)
        .test_before_acquire(false)
        // Every check-out and return is counted (see `WriterUse`); a connection closed for its
        // age would go uncounted, so it lives as long as the pool.
        .max_lifetime(None)
        .before_acquire(move |_, _| {
            reused.out.fetch_add(1, Ordering::SeqCst);
            Box::pin(async { Ok(true) })
        })
        .after_release(move |_, _| {
            returned.back.fetch_add(1, Ordering::SeqCst);
            Box::pin(async { Ok(true) })
        })
        .after_connect(move |conn, _| {
            opened.out.fetch_add(1, Ordering::SeqCst);
            Box::pin(async move {
                use sqlx::Executor;
                conn.execute(SQLITE_PRAGMAS).await?;
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .context("cannot open the SQLite database")?;
    // `connect_with` opens the first connection (counted by `after_connect`) and puts it back
    // without `after_release`: count that return here.
    writer_use.back.fetch_add(1, Ordering::SeqCst);
    Ok((pool, writer_use))
}

/// The read-only connections (`PRAGMA query_only`) beside SQLite's writer.
async fn sqlite_readers(options: AnyConnectOptions) -> anyhow::Result<AnyPool> {
    let readers = AnyPoolOptions::new()
        .max_connections(SQLITE_READERS)
        .test_before_acquire(false)
        .after_connect(|conn, _| {
            Box::pin(async move {
                use sqlx::Executor;
                conn.execute(
                    "PRAGMA query_only = ON; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
                )
                .await?;
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .context("cannot open the SQLite database for reading")?;
    Ok(readers)
}

fn is_memory(url: &str) -> bool {
    url.contains(":memory:") || url.contains("mode=memory")
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts of `WriterUse` match sqlx's pool as this lockfile pins it: idle after
    /// connecting, busy while the writer is held, idle (and moved on) once it is back.
    #[tokio::test]
    async fn the_writer_counts_say_when_it_is_idle() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/t.db", dir.path().display()))
            .await
            .unwrap();
        let before = db.write_generation().expect("idle after connecting");
        let held = db.pool.acquire().await.unwrap();
        assert_eq!(db.write_generation(), None, "a write may be in flight");
        drop(held);
        let mut after = None;
        for _ in 0..100 {
            after = db.write_generation();
            if after.is_some() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        assert!(after.is_some_and(|a| a > before), "{before} then {after:?}");
        let memory = Db::connect("sqlite::memory:").await.unwrap();
        assert_eq!(
            memory.write_generation(),
            None,
            "reads go through the writer"
        );
    }
}
