//! The `api` command: `serve`, `migrate`, and `admin create` to bootstrap the first admin.

use std::io::Read;

use anyhow::Context;
use api::configuration::Config;
use api::db::Db;
use api::domain::{Email, Password, hash_password, new_id, now};
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
    /// Manage admins.
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
    },
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

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let mut config = Config::from_env()?;
    api::telemetry::init(config.environment);
    match cli.command {
        Command::Serve { port } => {
            if let Some(p) = port {
                config.port = p;
            }
            let app = Application::build(config).await?;
            tracing::info!(port = app.port(), "API listening");
            app.run_until_stopped().await?;
        }
        Command::Migrate => {
            Db::connect(config.database_url.expose())
                .await?
                .migrate()
                .await?;
            println!("migrations applied");
        }
        Command::Admin {
            command: AdminCommand::Create { email, name, phone },
        } => {
            let email = Email::parse(&email).context("Invalid email address")?;
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
            create_admin(&db, &email, name.trim(), phone.as_deref(), &hash).await?;
            println!("admin {email} created");
        }
    }
    Ok(())
}

async fn create_admin(
    db: &Db,
    email: &Email,
    name: &str,
    phone: Option<&str>,
    hash: &str,
) -> anyhow::Result<()> {
    let mut tx = db.pool.begin().await?;
    let user_id = new_id();
    let now = now();
    sqlx::query("INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $4, $4)")
        .bind(&user_id)
        .bind(email.as_str())
        .bind(hash)
        .bind(&now)
        .execute(&mut *tx)
        .await
        .map_err(|e| match api::db::violated_constraint(&e).as_deref() {
            Some("users_email_key") => anyhow::anyhow!("a user with the email {email} already exists"),
            _ => e.into(),
        })?;
    sqlx::query("INSERT INTO profiles (id, user_id, full_name, email, phone, role, created_at) VALUES ($1, $2, $3, $4, $5, 'admin', $6)")
        .bind(new_id())
        .bind(&user_id)
        .bind(name)
        .bind(email.as_str())
        .bind(phone)
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
