//! `api backup FILE` and `api restore FILE`: a consistent copy of the live database, and that
//! copy put back into an empty one.
//!
//! SQLite: `VACUUM INTO` from a read-only connection. It reads one snapshot (a WAL read
//! transaction, so the running API keeps writing meanwhile) and writes a compact, standalone
//! database file. It is plain SQL through sqlx: SQLite's online-backup API would need raw FFI
//! calls on libsqlite3-sys (unsafe) or rusqlite pinned to sqlx's libsqlite3-sys, for the same
//! consistent copy. A restore is the same statement the other way, into a new file.
//!
//! PostgreSQL: `pg_dump --format=custom` (one repeatable-read snapshot) and `pg_restore
//! --single-transaction` (all or nothing). Both reach the database through libpq's `PG*`
//! environment variables, built from `DATABASE_URL`: the password never appears on a command
//! line, which `ps` shows to every user.
//!
//! A backup is written beside FILE under a temporary name, readable by its owner only (it holds
//! personal data and password hashes), synced, then renamed: FILE is complete or absent. A
//! restore refuses a database that already has tables, so it never overwrites one in use.
//! Nothing here prints or logs the URL.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::str::FromStr;

use anyhow::{Context, anyhow, bail, ensure};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};

use crate::db::Backend;
use crate::secret::Secret;

/// `DATABASE_URL`, the only configuration backups need: a backup job gets no other secret.
pub fn database_url_from_env() -> anyhow::Result<Secret> {
    match std::env::var("DATABASE_URL") {
        Ok(url) if !url.trim().is_empty() => Ok(Secret::new(url.trim())),
        _ => bail!("DATABASE_URL must name the database (sqlite://… or postgres://…)"),
    }
}

/// Writes a consistent copy of the database `database_url` names to `file`, which must not
/// exist; answers what was written.
pub async fn backup(database_url: &Secret, file: &Path) -> anyhow::Result<String> {
    ensure!(
        !file.exists(),
        "{} already exists: a backup never replaces a file; give it a new name (e.g. with the date)",
        file.display()
    );
    let url = database_url.expose();
    let backend = Backend::of_url(url)?;
    let partial = Partial::create(file, "partial")?;
    match backend {
        Backend::Sqlite => sqlite_backup(url, partial.path()).await?,
        Backend::Postgres => pg_dump(url, partial.path()).await?,
    }
    let bytes = partial.finish(file)?;
    let kind = match backend {
        Backend::Sqlite => "SQLite database",
        Backend::Postgres => "pg_dump custom archive",
    };
    Ok(format!(
        "backup written to {} ({kind}, {bytes} bytes)",
        file.display()
    ))
}

/// Restores `file` (made by [`backup`]) into the empty database `database_url` names; answers
/// what was done. Refuses a database that has tables, and a backup of the other backend.
pub async fn restore(database_url: &Secret, file: &Path) -> anyhow::Result<String> {
    let url = database_url.expose();
    let backend = Backend::of_url(url)?;
    match (backend, Format::of(file)?) {
        (Backend::Sqlite, Format::Sqlite) => sqlite_restore(url, file).await?,
        (Backend::Postgres, Format::PgCustom) => pg_restore(url, file).await?,
        (Backend::Postgres, Format::Sqlite) => bail!(
            "{} is a SQLite backup, and DATABASE_URL names a PostgreSQL database: restore it into a SQLite database (sqlite://…)",
            file.display()
        ),
        (Backend::Sqlite, Format::PgCustom) => bail!(
            "{} is a PostgreSQL backup (pg_dump), and DATABASE_URL names a SQLite database: restore it into a PostgreSQL database (postgres://…)",
            file.display()
        ),
    }
    Ok(format!(
        "restored {}; `api migrate` (or `api serve`, which migrates on start) brings it to this version's schema",
        file.display()
    ))
}

/// What kind of backup a file is, by its first bytes.
#[derive(Debug, PartialEq, Eq)]
enum Format {
    Sqlite,
    PgCustom,
}

impl Format {
    fn of(file: &Path) -> anyhow::Result<Format> {
        let mut head = [0u8; 16];
        let mut f = File::open(file).with_context(|| format!("cannot open {}", file.display()))?;
        let n = f
            .read(&mut head)
            .with_context(|| format!("cannot read {}", file.display()))?;
        Format::of_bytes(&head[..n]).ok_or_else(|| {
            anyhow!(
                "{} is neither a SQLite database nor a pg_dump custom archive: not a backup `api backup` made",
                file.display()
            )
        })
    }

    fn of_bytes(head: &[u8]) -> Option<Format> {
        if head.starts_with(b"SQLite format 3\0") {
            Some(Format::Sqlite)
        } else if head.starts_with(b"PGDMP") {
            Some(Format::PgCustom)
        } else {
            None
        }
    }
}

// ---------------------------------------------------------------------------------------------
// SQLite

/// The connection options of a SQLite `DATABASE_URL` (never creating the file).
fn sqlite_options(url: &str) -> anyhow::Result<SqliteConnectOptions> {
    ensure!(
        !url.contains(":memory:") && !url.contains("mode=memory"),
        "DATABASE_URL names an in-memory SQLite database, which lives and dies with its process"
    );
    let options = SqliteConnectOptions::from_str(url)
        .context("DATABASE_URL is not a valid SQLite URL")?
        .create_if_missing(false);
    Ok(options)
}

async fn open_read_only(path: &Path) -> anyhow::Result<SqliteConnection> {
    SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await
        .with_context(|| format!("cannot open the SQLite database {}", path.display()))
}

/// `VACUUM INTO` the (empty) file `out` from the database at `from`.
async fn vacuum_into(from: &Path, out: &Path) -> anyhow::Result<()> {
    let out = out
        .to_str()
        .ok_or_else(|| anyhow!("{} is not a UTF-8 path", out.display()))?;
    let mut conn = open_read_only(from).await?;
    sqlx::query("VACUUM INTO $1")
        .bind(out)
        .execute(&mut conn)
        .await
        .with_context(|| format!("SQLite could not copy {}", from.display()))?;
    conn.close().await?;
    Ok(())
}

async fn sqlite_backup(url: &str, out: &Path) -> anyhow::Result<()> {
    let options = sqlite_options(url)?;
    let source = options.get_filename();
    ensure!(
        source.is_file(),
        "there is no SQLite database at {}",
        source.display()
    );
    vacuum_into(source, out).await?;
    check_sqlite_backup(out).await
}

/// The file is a sound SQLite database (`quick_check`) of this API (it has the migrations'
/// table).
async fn check_sqlite_backup(path: &Path) -> anyhow::Result<()> {
    let mut conn = open_read_only(path).await?;
    let check: String = sqlx::query_scalar("PRAGMA quick_check")
        .fetch_one(&mut conn)
        .await?;
    ensure!(
        check == "ok",
        "{} is damaged (SQLite's quick_check: {check})",
        path.display()
    );
    let migrations: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_one(&mut conn)
    .await?;
    conn.close().await?;
    ensure!(
        migrations == 1,
        "{} is a SQLite database but not one of this API (it has no migrations table)",
        path.display()
    );
    Ok(())
}

async fn sqlite_restore(url: &str, file: &Path) -> anyhow::Result<()> {
    check_sqlite_backup(file).await?;
    let options = sqlite_options(url)?;
    let target = options.get_filename().to_path_buf();
    refuse_used_sqlite_target(&target).await?;
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let partial = Partial::create(&target, "restoring")?;
    vacuum_into(file, partial.path()).await?;
    // Checked again: an `api serve` may have created the database meanwhile.
    refuse_used_sqlite_target(&target).await?;
    partial.finish(&target)?;
    Ok(())
}

/// A SQLite restore writes a new file: the target must not exist (or be empty), and no
/// write-ahead log of an earlier database may lie beside it (SQLite would replay it).
async fn refuse_used_sqlite_target(target: &Path) -> anyhow::Result<()> {
    let len = std::fs::metadata(target).map(|m| m.len()).unwrap_or(0);
    if len > 0 {
        let mut conn = open_read_only(target).await?;
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name = '_sqlx_migrations' DESC, name",
        )
        .fetch_all(&mut conn)
        .await?;
        conn.close().await?;
        refuse_tables(&tables)?;
        bail!(
            "{} is not empty: a SQLite restore writes a new database; point DATABASE_URL at a new file",
            target.display()
        );
    }
    let mut wal = target.as_os_str().to_owned();
    wal.push("-wal");
    let wal = PathBuf::from(wal);
    ensure!(
        std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0) == 0,
        "{} (the write-ahead log of an earlier database) lies beside it: remove it, or restore to another path",
        wal.display()
    );
    Ok(())
}

/// The refusal of a database that has tables, naming a few.
fn refuse_tables(tables: &[String]) -> anyhow::Result<()> {
    if tables.is_empty() {
        return Ok(());
    }
    let mut names = tables
        .iter()
        .take(5)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if tables.len() > 5 {
        names.push_str(", …");
    }
    bail!(
        "the database DATABASE_URL names already has tables ({names}): `api restore` only restores into an empty database, so it never overwrites one in use; create a new database and point DATABASE_URL at it"
    )
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/// How libpq's tools reach the database a `postgres://` URL names: its parts as libpq's
/// environment variables. No `Debug`: it holds the password.
struct Libpq {
    env: Vec<(&'static str, String)>,
    dbname: String,
}

impl Libpq {
    fn from_url(url: &str) -> anyhow::Result<Libpq> {
        // The parser's error could quote the URL: it is replaced by ours.
        let parsed = url::Url::parse(url)
            .map_err(|_| anyhow!("DATABASE_URL is not a valid postgres:// URL"))?;
        let decode = |s: &str| -> anyhow::Result<String> {
            Ok(percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .map_err(|_| anyhow!("DATABASE_URL has a part that is not UTF-8 once decoded"))?
                .into_owned())
        };
        let mut env = Vec::new();
        if let Some(host) = parsed.host_str().filter(|h| !h.is_empty()) {
            // An IPv6 address is written [::1] in a URL, ::1 for libpq.
            let host = host.trim_start_matches('[').trim_end_matches(']');
            env.push(("PGHOST", decode(host)?));
        }
        if let Some(port) = parsed.port() {
            env.push(("PGPORT", port.to_string()));
        }
        if !parsed.username().is_empty() {
            env.push(("PGUSER", decode(parsed.username())?));
        }
        if let Some(password) = parsed.password() {
            env.push(("PGPASSWORD", decode(password)?));
        }
        let path = decode(parsed.path().trim_start_matches('/'))?;
        if !path.is_empty() {
            env.push(("PGDATABASE", path));
        }
        for (key, value) in parsed.query_pairs() {
            let var = match key.as_ref() {
                "host" => "PGHOST",
                "hostaddr" => "PGHOSTADDR",
                "port" => "PGPORT",
                "dbname" => "PGDATABASE",
                "user" => "PGUSER",
                "password" => "PGPASSWORD",
                "sslmode" => "PGSSLMODE",
                "sslrootcert" => "PGSSLROOTCERT",
                "sslcert" => "PGSSLCERT",
                "sslkey" => "PGSSLKEY",
                "application_name" => "PGAPPNAME",
                "options" => "PGOPTIONS",
                "connect_timeout" => "PGCONNECT_TIMEOUT",
                // sqlx's own setting, nothing for libpq.
                "statement-cache-capacity" => continue,
                other => bail!(
                    "DATABASE_URL has the parameter `{other}`, which pg_dump and pg_restore are not given: remove it, or back up with pg_dump directly"
                ),
            };
            env.retain(|(k, _)| *k != var);
            env.push((var, value.into_owned()));
        }
        let dbname = env
            .iter()
            .find(|(k, _)| *k == "PGDATABASE")
            .map(|(_, v)| v.clone())
            .ok_or_else(|| anyhow!("DATABASE_URL must name the database: postgres://…/NAME"))?;
        Ok(Libpq { env, dbname })
    }

    /// `program` with the connection in its environment, never prompting for a password.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .arg("--no-password")
            .stdin(Stdio::null());
        command
    }

    /// The database as pg_restore's `--dbname`: a conninfo naming it (a bare name holding `=`
    /// would be read as a conninfo); the rest comes from the environment.
    fn dbname_conninfo(&self) -> String {
        format!(
            "dbname='{}'",
            self.dbname.replace('\\', "\\\\").replace('\'', "\\'")
        )
    }
}

/// Runs a PostgreSQL tool to the end (off the async threads); its messages go to our stderr.
async fn run(program: &'static str, mut command: Command) -> anyhow::Result<()> {
    let status: std::io::Result<ExitStatus> =
        tokio::task::spawn_blocking(move || command.status()).await?;
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => bail!("{program} failed ({s}); its message is above"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "{program} was not found on PATH: install PostgreSQL's client tools (the server's major version or newer)"
        ),
        Err(e) => Err(e).with_context(|| format!("cannot run {program}")),
    }
}

async fn pg_dump(url: &str, out: &Path) -> anyhow::Result<()> {
    let libpq = Libpq::from_url(url)?;
    let mut command = libpq.command("pg_dump");
    command.arg("--format=custom").arg("--file").arg(out);
    run("pg_dump", command).await
}

async fn pg_restore(url: &str, file: &Path) -> anyhow::Result<()> {
    let libpq = Libpq::from_url(url)?;
    // The archive first: a file that is not this API's backup changes nothing.
    let listing = {
        let mut command = Command::new("pg_restore");
        command.arg("--list").arg(file).stdin(Stdio::null());
        tokio::task::spawn_blocking(move || command.output())
            .await?
            .context("cannot run pg_restore (install PostgreSQL's client tools)")?
    };
    ensure!(
        listing.status.success(),
        "{} cannot be read by pg_restore: {}",
        file.display(),
        String::from_utf8_lossy(&listing.stderr).trim()
    );
    ensure!(
        String::from_utf8_lossy(&listing.stdout).contains(" TABLE public _sqlx_migrations "),
        "{} is a pg_dump archive but not of this API's database (it has no migrations table)",
        file.display()
    );
    refuse_used_pg_target(url).await?;
    let mut command = libpq.command("pg_restore");
    command
        // Objects belong to the role that restores: the backup may come from another server.
        .args(["--no-owner", "--no-privileges"])
        // All or nothing: an error leaves the database empty, as it was.
        .args(["--single-transaction", "--exit-on-error"])
        .arg("--dbname")
        .arg(libpq.dbname_conninfo())
        .arg(file);
    run("pg_restore", command).await
}

/// Refuses a PostgreSQL database that has any table, view or sequence of its own.
async fn refuse_used_pg_target(url: &str) -> anyhow::Result<()> {
    let mut conn = sqlx::postgres::PgConnectOptions::from_str(url)
        .map_err(|_| anyhow!("DATABASE_URL is not a valid postgres:// URL"))?
        .disable_statement_logging()
        .connect()
        .await
        .context("cannot connect to the PostgreSQL database DATABASE_URL names")?;
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
            AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
          ORDER BY c.relname = '_sqlx_migrations' DESC, 1",
    )
    .fetch_all(&mut conn)
    .await?;
    conn.close().await?;
    refuse_tables(&tables)
}

// ---------------------------------------------------------------------------------------------
// Files

/// A file being written beside its final path, removed unless [`Partial::finish`]ed.
struct Partial {
    path: PathBuf,
    done: bool,
}

impl Partial {
    /// `{final}.{suffix}`, created empty and readable by its owner only; an existing one (a
    /// concurrent run, or one interrupted) is an error, never overwritten.
    fn create(final_path: &Path, suffix: &str) -> anyhow::Result<Partial> {
        let mut name = final_path.as_os_str().to_owned();
        name.push(format!(".{suffix}"));
        let path = PathBuf::from(name);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(&path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => bail!(
                "{} exists: another run is writing it, or one was interrupted (then remove it)",
                path.display()
            ),
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", path.display())),
        }
        Ok(Partial { path, done: false })
    }

    fn path(&self) -> &Path {
        &self.path
    }

    /// Syncs the file, renames it to `final_path` and syncs the folder; answers its size.
    fn finish(mut self, final_path: &Path) -> anyhow::Result<u64> {
        let file = File::open(&self.path)?;
        file.sync_all()
            .with_context(|| format!("cannot sync {}", self.path.display()))?;
        let len = file.metadata()?.len();
        std::fs::rename(&self.path, final_path)
            .with_context(|| format!("cannot rename to {}", final_path.display()))?;
        self.done = true;
        #[cfg(unix)]
        if let Some(dir) = final_path.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            File::open(dir)?.sync_all()?;
        }
        Ok(len)
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The password reaches pg_dump through its environment only: `ps` shows arguments.
    #[test]
    fn the_password_goes_to_the_environment_never_to_the_command_line() {
        let libpq = Libpq::from_url(
            "postgres://coach:p%40ss%20w'rd@db.example.com:6543/coaching?sslmode=require&statement-cache-capacity=10",
        )
        .unwrap();
        let command = libpq.command("pg_dump");
        let args: Vec<_> = command.get_args().map(|a| a.to_string_lossy()).collect();
        assert!(!args.iter().any(|a| a.contains("p@ss")), "{args:?}");
        let env: Vec<(String, String)> = command
            .get_envs()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.unwrap().to_string_lossy().into_owned(),
                )
            })
            .collect();
        for expected in [
            ("PGHOST", "db.example.com"),
            ("PGPORT", "6543"),
            ("PGUSER", "coach"),
            ("PGPASSWORD", "p@ss w'rd"),
            ("PGDATABASE", "coaching"),
            ("PGSSLMODE", "require"),
        ] {
            assert!(
                env.contains(&(expected.0.into(), expected.1.into())),
                "{expected:?}"
            );
        }
        assert_eq!(libpq.dbname_conninfo(), "dbname='coaching'");
    }

    #[test]
    fn a_url_without_a_database_or_with_an_unknown_parameter_is_refused_without_quoting_it() {
        let Err(e) = Libpq::from_url("postgres://coach:hunter2@db.example.com") else {
            panic!("accepted a URL with no database");
        };
        assert!(e.to_string().contains("must name the database"), "{e}");
        let Err(e) = Libpq::from_url("postgres://coach:hunter2@db/x?target_session_attrs=any")
        else {
            panic!("accepted a parameter pg_dump is not given");
        };
        assert!(!format!("{e:#}").contains("hunter2"), "{e:#}");
        let Err(e) = Libpq::from_url("postgres://coach:hunter2@[bad/x") else {
            panic!("accepted a malformed URL");
        };
        assert!(!format!("{e:#}").contains("hunter2"), "{e:#}");
    }

    #[test]
    fn a_backup_is_told_by_its_first_bytes() {
        assert_eq!(
            Format::of_bytes(b"SQLite format 3\0rest"),
            Some(Format::Sqlite)
        );
        assert_eq!(Format::of_bytes(b"PGDMP\x01\x0e"), Some(Format::PgCustom));
        assert_eq!(Format::of_bytes(b"-- PostgreSQL database dump"), None);
    }
}
