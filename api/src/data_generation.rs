//! PostgreSQL's data generation: a counter that every committed change to the data a cached
//! read can show moves, so `read_cache` can serve the session lookup and the dashboard from
//! memory on PostgreSQL too, exactly, with several API processes on one database.
//!
//! **The counter.** One row, `data_generation.n`, bumped by a trigger on every table but the
//! few in [`UNWATCHED`] (written in the background or by anonymous traffic, and read by no
//! cached read). The trigger is a constraint trigger deferred to commit, and bumps once per
//! transaction: its row lock is the last lock a writing transaction takes and it is held only
//! while that transaction commits, so it can neither deadlock with the locks a transaction
//! takes in its statements nor hold other writers back while they run. The bump is part of
//! the writing transaction: a reader sees the new count exactly when it sees the new data.
//! New tables are watched from the next start on (`install`, run by `Db::migrate`).
//!
//! **Why it is exact.** A request reads the counter once, after it arrived, and before it
//! reads anything else ([`Reader::read`]); what it then reads is at least as new as that
//! count, so it may store it under that count; and an entry is used only by a request that
//! read the same count, that is, with nothing committed in between, through this process or
//! any other.
//!
//! **Why it is cheap.** Concurrent requests share one read of the counter: a request waits for
//! the next read that *starts* after it arrived (never one already under way, which could
//! miss a commit made just before the request), and one query answers every request that
//! arrived before it started. Under load that is one small query for dozens of requests.

use std::sync::{Arc, Mutex};

use sqlx::{AnyConnection, AnyPool, ConnectOptions};
use tokio::sync::watch;

/// Tables whose changes move no cached read, written often enough that watching them would
/// empty the caches for nothing: rate-limit windows (every sign-in attempt), the outbox and
/// the operations records (background workers), and the counter itself.
pub const UNWATCHED: &[&str] = &[
    "_sqlx_migrations",
    "data_generation",
    "rate_limits",
    "email_outbox",
    "job_runs",
    "catalogue_loads",
    "operation_alerts",
    "webhook_status",
    "webhook_refusals",
];

/// The trigger's name: a new version of the trigger gets a new name.
const TRIGGER: &str = "data_generation_v1";

/// Creates the counter, its trigger function and the trigger on every watched table that has
/// none, in one transaction under an advisory lock (replicas may start together). A start
/// with everything in place changes nothing.
pub async fn install(pool: &AnyPool) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock(7261436052)")
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "CREATE TABLE IF NOT EXISTS data_generation (
             id SMALLINT PRIMARY KEY CHECK (id = 1),
             n  BIGINT NOT NULL
         )",
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query("INSERT INTO data_generation (id, n) VALUES (1, 0) ON CONFLICT (id) DO NOTHING")
        .execute(&mut *tx)
        .await?;
    // Once per transaction: `set_config(…, true)` lasts until the transaction ends.
    sqlx::query(
        "CREATE OR REPLACE FUNCTION data_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
             IF current_setting('app.data_generation_bumped', true) IS DISTINCT FROM 'on' THEN
                 UPDATE data_generation SET n = n + 1 WHERE id = 1;
                 PERFORM set_config('app.data_generation_bumped', 'on', true);
             END IF;
             RETURN NULL;
         END $$",
    )
    .execute(&mut *tx)
    .await?;
    // The Any driver binds no arrays; these names are this file's constants.
    let unwatched = UNWATCHED
        .iter()
        .map(|t| format!("'{t}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let missing: Vec<String> = sqlx::query_scalar(&format!(
        "SELECT c.relname::text FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
          WHERE s.nspname = current_schema() AND c.relkind IN ('r', 'p')
            AND c.relname NOT IN ({unwatched})
            AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = $1)
          ORDER BY 1"
    ))
    .bind(TRIGGER)
    .fetch_all(&mut *tx)
    .await?;
    for table in missing {
        sqlx::query(&format!(
            "CREATE CONSTRAINT TRIGGER {TRIGGER} AFTER INSERT OR UPDATE OR DELETE ON \"{table}\"
                 DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_generation_bump()"
        ))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}

/// Reads the counter for many requests at once (see the module's comment).
#[derive(Debug)]
pub struct Reader {
    pool: AnyPool,
    /// Its own connection, opened on first use (`read_once`).
    conn: tokio::sync::Mutex<Option<AnyConnection>>,
    tickets: Mutex<Tickets>,
    /// The last read: every ticket up to `.0` is answered by `.1` (`None`: it failed).
    done: watch::Sender<(u64, Option<u64>)>,
}

#[derive(Debug, Default)]
struct Tickets {
    /// The last ticket handed out.
    issued: u64,
    /// A task is reading (and will read again while tickets are waiting).
    reading: bool,
}

impl Reader {
    pub fn new(pool: AnyPool) -> Arc<Reader> {
        Arc::new(Reader {
            pool,
            conn: tokio::sync::Mutex::new(None),
            tickets: Mutex::new(Tickets::default()),
            done: watch::channel((0, None)).0,
        })
    }

    /// The counter as read by a query that started after this call; `None` if it could not be
    /// read (nothing is then cached or served from a cache).
    pub async fn read(self: &Arc<Self>) -> Option<u64> {
        let mut done = self.done.subscribe();
        let ticket = {
            let mut t = self.tickets.lock().unwrap_or_else(|e| e.into_inner());
            t.issued += 1;
            if !t.reading {
                t.reading = true;
                // A task of its own, so a request that goes away cannot stop the reads that
                // the others are waiting for.
                tokio::spawn(self.clone().read_rounds());
            }
            t.issued
        };
        match done.wait_for(|(answered, _)| *answered >= ticket).await {
            Ok(read) => read.1,
            Err(_) => None,
        }
    }

    /// Reads until every ticket handed out is answered.
    async fn read_rounds(self: Arc<Self>) {
        let mut guard = Finished(Some(self.clone()));
        loop {
            // Every ticket handed out so far was handed out before this query starts.
            let upto = self
                .tickets
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .issued;
            let read = self.read_once().await;
            let read = match read {
                Ok(n) => u64::try_from(n).ok(),
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read the data generation");
                    None
                }
            };
            self.done.send_replace((upto, read));
            let mut t = self.tickets.lock().unwrap_or_else(|e| e.into_inner());
            if t.issued == upto {
                t.reading = false;
                guard.0 = None;
                return;
            }
        }
    }
}

impl Reader {
    /// One read, on the reader's own connection: one round trip, never waiting behind the
    /// pool's other work (the pool would also ping the connection first). A failed read drops
    /// the connection; the next read opens another.
    async fn read_once(&self) -> Result<i64, sqlx::Error> {
        let mut conn = self.conn.lock().await;
        let open = match conn.take() {
            Some(open) => open,
            None => self.pool.connect_options().connect().await?,
        };
        let open = conn.insert(open);
        let read = sqlx::query_scalar("SELECT n FROM data_generation WHERE id = 1")
            .fetch_one(&mut *open)
            .await;
        if read.is_err() {
            *conn = None;
        }
        read
    }
}

/// Ends a task's reads however the task ends (its runtime may stop it mid-query): the next
/// request starts another, and any request still waiting is answered "unknown".
struct Finished(Option<Arc<Reader>>);

impl Drop for Finished {
    fn drop(&mut self) {
        let Some(reader) = self.0.take() else {
            return; // ended normally
        };
        let mut t = reader.tickets.lock().unwrap_or_else(|e| e.into_inner());
        t.reading = false;
        let issued = t.issued;
        reader.done.send_if_modified(|read| {
            let waiting = read.0 < issued;
            if waiting {
                *read = (issued, None);
            }
            waiting
        });
    }
}
