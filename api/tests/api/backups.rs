//! Backups you can restore (issue 24): the `api` binary's `backup` takes a copy of the live
//! database while purchases, offline payments and phone bookings are being written through the
//! API, its `restore` puts the copy into a fresh database, and nothing acknowledged before the
//! backup began is missing there; the ledger verifies; `api migrate` and the app run on it.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::bookings::client_with_credits;
use crate::payments::{admin, client, credits};
use crate::support::{
    Options, TestApp, cairo_day, fresh_database, new_client, pay_offline_today, spawn_app,
    spawn_app_with, using_postgres,
};

/// Runs the `api` binary as an operator would, with only `DATABASE_URL` (and `PATH`, for
/// pg_dump) in its environment, off the test's threads so the app under test keeps serving:
/// (exit 0, what it printed).
async fn api(args: &[&str], database_url: &str) -> (bool, String) {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let url = database_url.to_string();
    tokio::task::spawn_blocking(move || {
        let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_api"))
            .args(&args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATABASE_URL", url)
            // `api migrate` (not backup or restore) reads the catalogue, in development from
            // the repository's content.
            .env("CONTENT_DIR", content)
            .output()
            .expect("the api binary runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), text)
    })
    .await
    .unwrap()
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A write the API acknowledged, by the id that finds it again.
#[derive(Debug, Clone)]
enum Write {
    /// A PayTabs purchase settled by its signed callback: the order's cart id.
    Purchase(String),
    /// An offline payment the admin recorded: the payment record's id.
    OfflinePayment(String),
    /// A booking the admin made by phone: the booking's id.
    PhoneBooking(String),
}

/// The writers' acknowledgements, in the order they came, each with its time.
#[derive(Default)]
struct Log {
    acks: Mutex<Vec<(Instant, Write)>>,
    stop: AtomicBool,
}

impl Log {
    fn ack(&self, w: Write) {
        self.acks.lock().unwrap().push((Instant::now(), w));
    }
    fn running(&self) -> bool {
        !self.stop.load(Ordering::SeqCst)
    }
    fn snapshot(&self) -> Vec<(Instant, Write)> {
        self.acks.lock().unwrap().clone()
    }
    /// Waits until every kind of write has been acknowledged `n` times.
    async fn wait_for_each_kind(&self, n: usize) {
        // Up to a minute: the machine may be busy.
        for _ in 0..1200 {
            let acks = self.snapshot();
            let count = |f: fn(&Write) -> bool| acks.iter().filter(|(_, w)| f(w)).count();
            if count(|w| matches!(w, Write::Purchase(_))) >= n
                && count(|w| matches!(w, Write::OfflinePayment(_))) >= n
                && count(|w| matches!(w, Write::PhoneBooking(_))) >= n
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the writers did not get going: {:?}", self.snapshot());
    }
}

/// Buys Momentum packages (5 sessions, 20,250 EGP) with `c`, each settled by PayTabs' signed
/// callback, until stopped.
async fn buy(app: &TestApp, log: &Log, c: &reqwest::Client) {
    while log.running() {
        let r = app.post_as(c, "/api/payments/paytabs/create", json!({
            "packageType": "individual", "sessions": 5, "amount": 20250,
            "customerName": "Mona Adel", "customerEmail": "mona@example.com", "customerPhone": "+201001234567", "isGuest": false
        }))
        .await;
        assert_eq!(r.status(), 200);
        let page: Value = r.json().await.unwrap();
        let tran_ref = page["redirectUrl"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_string();
        let cart: String =
            sqlx::query_scalar("SELECT cart_id FROM payment_transactions WHERE tran_ref = $1")
                .bind(&tran_ref)
                .fetch_one(&app.state.db.pool)
                .await
                .unwrap();
        let body = serde_json::to_vec(&json!({
            "tran_ref": tran_ref, "cart_id": cart, "cart_currency": "EGP", "cart_amount": "20250.00",
            "tran_currency": "EGP", "tran_total": "20250.00", "tran_type": "Sale",
            "payment_result": {"response_status": "A", "response_code": "G1", "response_message": "Authorised"}
        }))
        .unwrap();
        let r = app.paytabs_callback(body).await;
        assert_eq!(r.status(), 200, "PayTabs' callback is acknowledged");
        log.ack(Write::Purchase(cart));
    }
}

/// Records offline payments (1 session each) for `client_id` until stopped.
async fn pay_offline(app: &TestApp, log: &Log, boss: &reqwest::Client, client_id: &str) {
    while log.running() {
        let id = pay_offline_today(app, boss, client_id, "4050", 1).await;
        log.ack(Write::OfflinePayment(id));
    }
}

/// Books sessions by phone for `client_id` (one credit each), a day apart, until stopped.
async fn book_by_phone(app: &TestApp, log: &Log, boss: &reqwest::Client, client_id: &str) {
    let mut day = 30;
    while log.running() {
        let r = app
            .post_as(
                boss,
                "/api/admin/bookings",
                json!({"clientId": client_id, "sessionDate": cairo_day(day), "sessionTime": "15:00"}),
            )
            .await;
        assert_eq!(r.status(), 201, "{:?}", r.text().await);
        let booking: Value = r.json().await.unwrap();
        log.ack(Write::PhoneBooking(
            booking["id"].as_str().unwrap().to_string(),
        ));
        day += 1;
    }
}

/// Whether the write is in the database `pool` reaches, whole: a settled purchase with its
/// credits' ledger row, a payment record with its ledger row, a confirmed booking with its debit.
async fn is_in(pool: &sqlx::AnyPool, w: &Write) -> bool {
    let sql = match w {
        Write::Purchase(_) => {
            "SELECT COUNT(*) FROM payment_transactions WHERE cart_id = $1 AND status = 'completed'
               AND credited_at IS NOT NULL"
        }
        Write::OfflinePayment(_) => {
            "SELECT COUNT(*) FROM payment_records r JOIN credit_ledger l ON l.external_ref = 'offline:' || r.id
              WHERE r.id = $1"
        }
        Write::PhoneBooking(_) => {
            "SELECT COUNT(*) FROM bookings b JOIN credit_ledger l ON l.external_ref = 'booking:' || b.id
              WHERE b.id = $1 AND b.status = 'confirmed'"
        }
    };
    let (Write::Purchase(id) | Write::OfflinePayment(id) | Write::PhoneBooking(id)) = w;
    let n: i64 = sqlx::query_scalar(sql)
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap();
    n == 1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_writes_restores_every_acknowledged_write_with_a_clean_ledger() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let mona = client(&app, "mona@example.com").await;
    let (_, omar_id) = client_with_credits(&app, "omar@example.com", 0).await;
    let (_, sara_id) = client_with_credits(&app, "sara@example.com", 400).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("coaching.backup");

    let log = Log::default();
    let writers = async {
        tokio::join!(
            buy(&app, &log, &mona),
            pay_offline(&app, &log, &boss, &omar_id),
            book_by_phone(&app, &log, &boss, &sara_id),
        )
    };
    let backup = async {
        log.wait_for_each_kind(2).await;
        let before = log.snapshot();
        let started = Instant::now();
        let (ok, output) = api(&["backup", path_str(&file)], &app.database_url).await;
        let ended = Instant::now();
        // A little longer, so writes are still arriving when the backup ends.
        tokio::time::sleep(Duration::from_millis(100)).await;
        log.stop.store(true, Ordering::SeqCst);
        assert!(ok, "api backup failed:\n{output}");
        (before, started, ended, output)
    };
    let (_, (before, started, ended, output)) = tokio::join!(writers, backup);
    assert!(output.contains("backup written to"), "{output}");
    let all = log.snapshot();
    let during = all
        .iter()
        .filter(|(t, _)| *t > started && *t < ended)
        .count();
    assert!(
        during > 0,
        "no write was acknowledged while the backup ran: {} before, {} in all",
        before.len(),
        all.len()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(
            mode & 0o077,
            0,
            "a backup holds personal data: its owner's only"
        );
    }

    // Restored into a fresh database, brought to this version's schema.
    let (restored_url, _restored_dir) = fresh_database().await;
    let (ok, output) = api(&["restore", path_str(&file)], &restored_url).await;
    assert!(ok, "api restore failed:\n{output}");
    let (ok, output) = api(&["migrate"], &restored_url).await;
    assert!(ok, "api migrate on the restored database failed:\n{output}");

    let restored = api::db::Db::connect(&restored_url).await.unwrap();
    let missing: Vec<&Write> = {
        let mut missing = Vec::new();
        for (_, w) in &before {
            if !is_in(&restored.pool, w).await {
                missing.push(w);
            }
        }
        missing
    };
    assert!(
        missing.is_empty(),
        "acknowledged before the backup began, missing from the restore: {missing:?}"
    );
    // The live database has every write, the restore at most those: a copy, not a mix.
    let payments = |pool: sqlx::AnyPool| async move {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM payment_records")
            .fetch_one(&pool)
            .await
            .unwrap()
    };
    assert!(payments(restored.pool.clone()).await <= payments(app.state.db.pool.clone()).await);

    let (mismatches, lots) = api::domain::credits::verify(&restored.pool).await.unwrap();
    assert!(
        mismatches.is_empty() && lots.is_empty(),
        "{mismatches:?} {lots:?}"
    );
    let (ok, output) = api(&["ledger", "verify"], &restored_url).await;
    assert!(ok, "api ledger verify on the restored copy:\n{output}");
    restored.pool.close().await;

    // The app runs on the restored copy: Mona signs in and sees the credits it holds.
    let restored_app = spawn_app_with(Options {
        database_url: Some(restored_url),
        ..Options::default()
    })
    .await;
    let (total, used, available) = credits(&restored_app, "mona@example.com").await;
    assert!(total >= 10 && used == 0, "{total} {used} {available}");
    let c = new_client();
    let r = restored_app
        .post_as(
            &c,
            "/api/auth/sign-in",
            json!({"email": "mona@example.com", "password": "nile-sunrise-42"}),
        )
        .await;
    assert_eq!(r.status(), 200);
    let dashboard: Value = restored_app
        .get_as(&c, "/api/dashboard")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(dashboard["account"]["availableCredits"], available);
}

#[tokio::test]
async fn restore_refuses_a_database_with_tables_and_a_backup_never_replaces_a_file() {
    let app = spawn_app().await;
    let boss = admin(&app).await;
    let (_, mona) = client_with_credits(&app, "mona@example.com", 0).await;
    pay_offline_today(&app, &boss, &mona, "4050", 3).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("nightly.backup");
    let (ok, output) = api(&["backup", path_str(&file)], &app.database_url).await;
    assert!(ok, "{output}");
    let backup = std::fs::read(&file).unwrap();

    // Restoring over the live database is refused, and changes nothing.
    let (ok, output) = api(&["restore", path_str(&file)], &app.database_url).await;
    assert!(!ok, "{output}");
    assert!(
        output.contains("already has tables (")
            && output.contains("only restores into an empty database"),
        "{output}"
    );
    assert_eq!(credits(&app, "mona@example.com").await, (3, 0, 3));

    // The same name again: refused, the first backup untouched, no partial file left.
    let (ok, output) = api(&["backup", path_str(&file)], &app.database_url).await;
    assert!(!ok && output.contains("already exists"), "{output}");
    assert_eq!(std::fs::read(&file).unwrap(), backup);
    let names: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(names, vec![file.clone()]);

    // A file that is no backup, and the other database's backup, are refused by name.
    let (fresh_url, _fresh_dir) = fresh_database().await;
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a backup").unwrap();
    let (ok, output) = api(&["restore", path_str(&text)], &fresh_url).await;
    assert!(
        !ok && output.contains("neither a SQLite database nor a pg_dump custom archive"),
        "{output}"
    );
    let other = dir.path().join("other.backup");
    if using_postgres() {
        std::fs::write(&other, b"SQLite format 3\0and the rest").unwrap();
    } else {
        std::fs::write(&other, b"PGDMP\x01\x0e\x00and the rest").unwrap();
    }
    let (ok, output) = api(&["restore", path_str(&other)], &fresh_url).await;
    let expected = if using_postgres() {
        "is a SQLite backup, and DATABASE_URL names a PostgreSQL database"
    } else {
        "is a PostgreSQL backup (pg_dump), and DATABASE_URL names a SQLite database"
    };
    assert!(!ok && output.contains(expected), "{output}");

    // The backup restores into the fresh database, which is then no longer empty.
    let (ok, output) = api(&["restore", path_str(&file)], &fresh_url).await;
    assert!(ok, "{output}");
    let (ok, output) = api(&["restore", path_str(&file)], &fresh_url).await;
    assert!(!ok && output.contains("already has tables ("), "{output}");
}

/// The password in DATABASE_URL is never printed, on success or failure (PostgreSQL: SQLite
/// URLs hold none; the local server trusts 127.0.0.1, so it ignores the password).
#[tokio::test]
async fn the_database_password_is_never_printed() {
    if !using_postgres() {
        return; // a sqlite:// URL has no password
    }
    let app = spawn_app().await;
    const PASSWORD: &str = "s3cret-Backup-pw";
    let with_password = app.database_url.replacen(
        "postgres://postgres@",
        &format!("postgres://postgres:{PASSWORD}@"),
        1,
    );
    assert_ne!(with_password, app.database_url);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pw.backup");
    let (ok, output) = api(&["backup", path_str(&file)], &with_password).await;
    assert!(ok, "{output}");
    let (ok, refused) = api(&["restore", path_str(&file)], &with_password).await;
    assert!(!ok);
    let nowhere = with_password.replacen(":5432/", ":1/", 1);
    let (ok, unreachable) = api(&["backup", path_str(&dir.path().join("x"))], &nowhere).await;
    assert!(!ok);
    for text in [&output, &refused, &unreachable] {
        assert!(!text.contains(PASSWORD), "{text}");
    }
}

/// A backup from before the latest migration restores, and `api migrate` applies the rest.
#[tokio::test]
async fn a_backup_from_an_older_schema_gets_the_newer_migrations() {
    let (old_url, _old_dir) = fresh_database().await;
    let migrations = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&migrations)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let latest = files.pop().unwrap();
    let older = tempfile::tempdir().unwrap();
    for f in &files {
        std::fs::copy(f, older.path().join(f.file_name().unwrap())).unwrap();
    }
    let db = api::db::Db::connect(&old_url).await.unwrap();
    sqlx::migrate::Migrator::new(older.path())
        .await
        .unwrap()
        .run(&db.pool)
        .await
        .unwrap();
    db.pool.close().await;

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("old.backup");
    let (ok, output) = api(&["backup", path_str(&file)], &old_url).await;
    assert!(ok, "{output}");
    let (new_url, _new_dir) = fresh_database().await;
    let (ok, output) = api(&["restore", path_str(&file)], &new_url).await;
    assert!(ok, "{output}");
    let (ok, output) = api(&["migrate"], &new_url).await;
    assert!(ok, "{output}");

    let db = api::db::Db::connect(&new_url).await.unwrap();
    let applied: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
            .fetch_all(&db.pool)
            .await
            .unwrap();
    let expected: Vec<i64> = api::db::MIGRATOR.iter().map(|m| m.version).collect();
    assert_eq!(
        applied,
        expected,
        "{} applied after the restore",
        latest.display()
    );
    let (ok, output) = api(&["ledger", "verify"], &new_url).await;
    assert!(ok, "{output}");
}
