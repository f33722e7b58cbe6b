//! The `api` command: `serve`, `migrate`, `admin create` to bootstrap the first admin,
//! `doctor` to check the settings, `openapi` to print the API's description without a server or
//! a database, and `backup` / `restore`, which need only `DATABASE_URL`.

use std::io::Read;
use std::path::PathBuf;

use anyhow::Context;
use api::configuration::Config;
use api::db::Db;
use api::domain::accounts::{Role, create_confirmed_user};
use api::domain::{Email, Password, hash_password};
use api::startup::Application;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "api", version, about = "The coaching portal's API")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP server (migrates the database first).
    Serve {
        /// Overrides PORT (default 8080).
        #[arg(long)]
        port: Option<u16>,
    },
    /// Apply database migrations and exit.
    Migrate,
    /// Print the OpenAPI document (the one served at /api/openapi.json) to standard output.
    Openapi,
    /// Manage admins.
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
    },
    /// Check the credit ledger.
    Ledger {
        #[command(subcommand)]
        command: LedgerCommand,
    },
    /// Check the settings against the real services: the database, the SMTP login, PayTabs,
    /// Paymob, Calendly, the catalogue's address and the clock; exit non-zero, naming each
    /// broken setting and its fix, if any check fails.
    Doctor,
    /// Credits' lifecycle jobs, for cron (`api serve` also runs them every minute).
    Credits {
        #[command(subcommand)]
        command: CreditsCommand,
    },
    /// Write a consistent copy of the live database to FILE, which must not exist (SQLite: a
    /// database file; PostgreSQL: a pg_dump custom archive).
    Backup { file: PathBuf },
    /// Restore a backup into the empty database DATABASE_URL names (refuses one with tables);
    /// `api migrate` then brings it to this version's schema.
    Restore { file: PathBuf },
    /// Ask the API running on this machine whether it is healthy (GET /api/health, which checks
    /// the database); exit non-zero if it does not answer 200 within 3 seconds. The container
    /// image's HEALTHCHECK: the image has no curl.
    Health {
        /// Overrides PORT (default 8080).
        #[arg(long)]
        port: Option<u16>,
    },
}

#[derive(Subcommand)]
enum CreditsCommand {
    /// Remove the unused credits of every lot whose expiry has passed (once per lot, safe to
    /// run beside running APIs).
    Expire,
}

#[derive(Subcommand)]
enum LedgerCommand {
    /// Recompute every account from the ledger and every lot from its moves; exit non-zero,
    /// naming the accounts and lots, on any difference from the stored totals.
    Verify,
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Create an admin; the password is read from standard input.
    Create {
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
        #[arg(long)]
        phone: Option<String>,
    },
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Parses the command line and runs the command.
fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // Needs no configuration: `scripts/api-types.sh` runs it on a machine with no environment.
    if let Command::Openapi = cli.command {
        let doc = api::openapi::document();
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    // Need only DATABASE_URL: a backup job gets no other secret.
    match &cli.command {
        Command::Backup { file } => {
            let url = api::backup::database_url_from_env()?;
            let done = tokio::runtime::Runtime::new()?.block_on(api::backup::backup(&url, file))?;
            println!("{done}");
            return Ok(());
        }
        Command::Restore { file } => {
            let url = api::backup::database_url_from_env()?;
            let done =
                tokio::runtime::Runtime::new()?.block_on(api::backup::restore(&url, file))?;
            println!("{done}");
            return Ok(());
        }
        Command::Health { port } => {
            let port = match port {
                Some(p) => *p,
                None => std::env::var("PORT").map_or(Ok(8080), |p| p.parse())?,
            };
            return tokio::runtime::Runtime::new()?.block_on(health(port));
        }
        _ => {}
    }
    let config = Config::from_env()?;
    // Before the runtime starts, and dropped after it has stopped: the last spans are sent
    // from a thread of the trace exporter's own, never from the runtime's.
    let _traces = api::telemetry::init_with_traces(config.environment)?;
    tokio::runtime::Runtime::new()?.block_on(command(cli.command, config))
}

/// Runs a command that needs the configuration.
async fn command(command: Command, config: Config) -> anyhow::Result<()> {
    match command {
        Command::Serve { port } => serve(config, port).await,
        Command::Migrate => migrate(&config).await,
        Command::Doctor => doctor(&config).await,
        Command::Credits {
            command: CreditsCommand::Expire,
        } => expire_credits(&config).await,
        Command::Openapi
        | Command::Backup { .. }
        | Command::Restore { .. }
        | Command::Health { .. } => {
            unreachable!("handled before the configuration is read")
        }
        Command::Admin {
            command: AdminCommand::Create { email, name, phone },
        } => create_admin(&config, &email, &name, phone.as_deref()).await,
        Command::Ledger {
            command: LedgerCommand::Verify,
        } => verify_ledger(&config).await,
    }
}

/// `api serve`: the HTTP server until a shutdown signal; `port` overrides `PORT`.
async fn serve(mut config: Config, port: Option<u16>) -> anyhow::Result<()> {
    if let Some(p) = port {
        config.port = p;
    }
    let app = Application::build(config).await?;
    tracing::info!(port = app.port(), "API listening");
    app.run_until_stopped().await?;
    Ok(())
}

/// `api health`: the running server's own health check, as the container asks it.
async fn health(port: u16) -> anyhow::Result<()> {
    let url = format!("http://127.0.0.1:{port}/api/health");
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(3))
        .build()?;
    let response = client
        .get(&url)
        .send()
        .await
        .map_err(|e| anyhow::anyhow!("{url} did not answer: {e}"))?;
    let status = response.status();
    let body = response.text().await.unwrap_or_default();
    anyhow::ensure!(status.is_success(), "{url} answered {status}: {body}");
    println!("healthy: {body}");
    Ok(())
}

/// `api migrate`: the migrations, then the credits of accounts older than credit lots.
async fn migrate(config: &Config) -> anyhow::Result<()> {
    let db = Db::connect(config.database_url.expose()).await?;
    db.migrate().await?;
    let catalogue = api::catalogue::Catalogues::load(config.catalogue_source()).await?;
    let site = api::site::SiteInfo::from_catalogue(&catalogue.current())?;
    api::startup::adopt_existing_credits(&db, &site).await?;
    println!("migrations applied");
    Ok(())
}

/// `api doctor`: every check of the status page, printed; an error if one fails.
async fn doctor(config: &Config) -> anyhow::Result<()> {
    let report = api::operations::doctor::run(config, None).await;
    print!("{}", report.text());
    anyhow::ensure!(report.failed == 0, "{} check(s) failed", report.failed);
    println!("every check passed");
    Ok(())
}

/// `api credits expire`: removes the unused credits of lots past their expiry.
async fn expire_credits(config: &Config) -> anyhow::Result<()> {
    use api::operations::jobs::{Job, run};
    let db = Db::connect(config.database_url.expose()).await?;
    let removed = run(
        &db,
        &api::monitoring::Metrics::disabled(),
        Job::ExpirySweep,
        api::lots::expire_due(&db),
    )
    .await?;
    println!("expired lots: {removed} unused credit(s) removed");
    Ok(())
}

/// `api admin create`: a confirmed admin, the password read from standard input.
async fn create_admin(
    config: &Config,
    email: &str,
    name: &str,
    phone: Option<&str>,
) -> anyhow::Result<()> {
    let email = Email::parse(email).context("Invalid email address")?;
    anyhow::ensure!(
        name.trim().chars().count() >= 2,
        "Full name must be at least 2 characters"
    );
    let mut raw = String::new();
    std::io::stdin()
        .read_to_string(&mut raw)
        .context("cannot read the password from standard input")?;
    let password = Password::parse(raw.trim_end_matches(['\r', '\n']), "password")
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let hash = hash_password(&password).await?;
    let db = Db::connect(config.database_url.expose()).await?;
    db.migrate().await?;
    create_confirmed_user(&db, &email, name.trim(), phone, &hash, Role::Admin).await?;
    println!("admin {email} created");
    Ok(())
}

/// `api ledger verify`: prints every account and lot that differs from the ledger; an error
/// (non-zero exit) if any does.
async fn verify_ledger(config: &Config) -> anyhow::Result<()> {
    let db = Db::connect(config.database_url.expose()).await?;
    let (mismatches, lots) = api::domain::credits::verify(&db.pool).await?;
    for m in &mismatches {
        println!(
            "account {}: totals {}/{} used, {} available; the ledger says {}/{} used; its lots hold {}",
            m.user_id,
            m.used_credits,
            m.total_credits,
            m.available_credits,
            m.ledger_used,
            m.ledger_total,
            m.lots_remaining
        );
    }
    for l in &lots {
        println!(
            "lot {} of account {}: {} remaining; its moves add up to {}",
            l.lot_id, l.user_id, l.remaining, l.moved
        );
    }
    let engagements = api::sponsors::engagements::verify(&db.pool).await?;
    for e in &engagements {
        println!(
            "engagement {}: its executives received {} credits; its lots hold {} granted, {} of them moved between its executives",
            e.engagement_id, e.members_granted, e.lots_granted, e.moved
        );
    }
    anyhow::ensure!(
        mismatches.is_empty() && lots.is_empty() && engagements.is_empty(),
        "{} account(s), {} lot(s) and {} engagement(s) differ from the ledger",
        mismatches.len(),
        lots.len(),
        engagements.len()
    );
    println!(
        "ledger verified: every account equals its ledger, and its lots hold its available credits"
    );
    Ok(())
}
