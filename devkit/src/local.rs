//! The whole API on one machine, for `devserver`: embedded SQLite, mail to the local mailbox,
//! the PayTabs, Paymob and Calendly stand-ins, and a demo admin and client on a new database.
//!
//! Every setting still comes from the environment first, so a developer (or the browser tests)
//! can point mail at an SMTP server or use another database; what the environment leaves unset
//! gets the local value below. The stand-ins are served by this same API, at its own address.
//! The API's settings are read by `api::configuration`; this module reads its own four:
//! `PAYTABS_STANDIN`, `PAYMOB_STANDIN`, `CALENDLY_STANDIN` (on unless set to false) and
//! `MAILBOX_DIR`.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use api::configuration::{Config, Environment};
use api::domain::accounts::{Role, create_confirmed_user};
use api::domain::{Email, Password, hash_password};
use api::startup::Application;
use tokio::net::TcpListener;

use crate::DevKit;
use crate::calendly::CalendlyStandIn;
use crate::mailbox::MailboxTransport;
use crate::paytabs::StandIn;

/// Who can sign in on a new local database (printed by `devserver`; never created elsewhere).
pub struct DemoAccount {
    pub role: Role,
    pub name: &'static str,
    pub email: &'static str,
    pub password: &'static str,
    pub phone: Option<&'static str>,
}

pub const DEMO_ACCOUNTS: [DemoAccount; 2] = [
    DemoAccount {
        role: Role::Admin,
        name: "Nadine Kamel",
        email: "admin@coach.example.com",
        password: "demo-admin-2026",
        phone: None,
    },
    DemoAccount {
        role: Role::Client,
        name: "Mona Adel",
        email: "client@coach.example.com",
        password: "demo-client-2026",
        phone: Some("+20 100 123 4567"),
    },
];

/// The local value of a setting the environment leaves unset. `api` is the API's own address
/// (the stand-ins live there), `site` the origin the browser uses.
fn local_default(name: &str, root: &Path, api: SocketAddr, site: &str) -> Option<String> {
    let api = format!("http://{api}");
    Some(match name {
        "DATABASE_URL" => format!("sqlite://{}", root.join("data/app.db").display()),
        "MAILBOX_DIR" => root.join("data/mailbox").display().to_string(),
        "CONTENT_DIR" => root.join("content").display().to_string(),
        "PUBLIC_BASE_URL" => site.to_string(),
        "COOKIE_SECURE" => "false".into(), // plain http on localhost
        "MAIL_FROM" => "Nadine Kamel Coaching <no-reply@coach.example.com>".into(),
        "PAYTABS_STANDIN" => "true".into(),
        "PAYTABS_PROFILE_ID" => "4242".into(),
        "PAYTABS_SERVER_KEY" => "SDEVLOCAL1-STANDINKEY-NOTASECRET".into(),
        "PAYTABS_BASE_URL" => format!("{api}/paytabs-standin"),
        "PAYMOB_STANDIN" => "true".into(),
        "PAYMOB_SECRET_KEY" => "egy_sk_test_devlocal_standin_notasecret".into(),
        "PAYMOB_PUBLIC_KEY" => "egy_pk_test_devlocal".into(),
        "PAYMOB_HMAC_SECRET" => "DEVLOCAL-PAYMOB-HMAC-NOTASECRET".into(),
        "PAYMOB_INTEGRATIONS" => "wallet=4751001,kiosk=4751002".into(),
        "PAYMOB_BASE_URL" => format!("{api}/paymob-standin"),
        "CALENDLY_STANDIN" => "true".into(),
        "CALENDLY_SIGNING_KEYS" => "dev-calendly-signing-key".into(),
        "CALENDLY_TOKEN" => "dev-calendly-token".into(),
        "CALENDLY_API_BASE" => format!("{api}/calendly-standin/api"),
        "CALENDLY_SCHEDULING_URL" => format!("{api}/calendly-standin/book"),
        _ => return None,
    })
}

/// A started local API.
pub struct LocalApi {
    pub addr: SocketAddr,
    /// The database it uses (shown to the developer; a SQLite URL holds no secret).
    pub database: String,
    /// Where mail goes: the SMTP server, or the mailbox page.
    pub mail: String,
    /// True when this start created the demo accounts.
    pub seeded_demo: bool,
    app: Application,
}

impl LocalApi {
    /// Binds a free port on 127.0.0.1, migrates, and creates the demo accounts when the database
    /// has no user yet. `site` is the origin of the site in front of it (links in emails, the
    /// allowed `Origin`).
    pub async fn start(root: &Path, site: &str) -> anyhow::Result<LocalApi> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let lookup = |name: &str| {
            std::env::var(name)
                .ok()
                .filter(|v| !v.trim().is_empty())
                .or_else(|| local_default(name, root, addr, site))
        };
        let mut config = Config::from_lookup(&lookup)?;
        // The coach's editor (/admin/content) on the project's own folder: a save writes into
        // content/ (after the same checks), where the devserver's watcher re-renders it and
        // reloads the open pages. No commit in the developer's repository: CONTENT_REPO (and
        // CONTENT_REMOTE) give the editor a working copy of its own that commits and pushes.
        if config.content_repo.is_none() {
            config.content_repo = Some(api::configuration::ContentRepoConfig {
                repo: root.to_path_buf(),
                branch: "main".into(),
                remote: None,
                ssh_key: None,
                token: None,
                commit: false,
            });
        }
        anyhow::ensure!(
            config.environment == Environment::Development,
            "devserver runs the product locally with stand-ins; unset APP_ENV=production"
        );
        api::telemetry::init(config.environment);
        let kit = DevKit {
            paytabs: flag("PAYTABS_STANDIN", lookup("PAYTABS_STANDIN"))?
                .then(|| StandIn::for_api(&config))
                .transpose()?,
            paymob: flag("PAYMOB_STANDIN", lookup("PAYMOB_STANDIN"))?
                .then(|| crate::paymob::StandIn::for_api(&config))
                .transpose()?,
            calendly: flag("CALENDLY_STANDIN", lookup("CALENDLY_STANDIN"))?
                .then(|| CalendlyStandIn::for_api(&config))
                .transpose()?,
            mailbox: match (&config.smtp, lookup("MAILBOX_DIR")) {
                (None, Some(dir)) => Some(Arc::new(MailboxTransport::new(dir.trim())?)),
                _ => None,
            },
        };
        let database = config.database_url.expose().to_string();
        let mail = match &config.smtp {
            Some(smtp) => format!("SMTP {}:{}", smtp.host, smtp.port),
            None => format!("{site}/api/dev/mailbox"),
        };
        let app = Application::build_with(config, listener, kit.extensions()).await?;
        let seeded_demo = seed_demo_accounts(&app).await?;
        Ok(LocalApi {
            addr,
            database,
            mail,
            seeded_demo,
            app,
        })
    }

    /// The API's routes (with the stand-ins and mailbox), to serve in another server too.
    pub fn router(&self) -> axum::Router {
        self.app.router()
    }

    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.app.run_until_stopped().await
    }
}

/// An on/off setting, spelled as the API's own flags are.
fn flag(name: &str, value: Option<String>) -> anyhow::Result<bool> {
    match value.as_deref().map(str::trim) {
        None | Some("") => Ok(false),
        Some("1" | "true" | "yes" | "on") => Ok(true),
        Some("0" | "false" | "no" | "off") => Ok(false),
        Some(other) => anyhow::bail!("{name} must be true or false, not `{other}`"),
    }
}

/// Creates the demo admin and client on a database with no user; false when it has users.
async fn seed_demo_accounts(app: &Application) -> anyhow::Result<bool> {
    let db = &app.state().db;
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&db.pool)
        .await?;
    if users > 0 {
        return Ok(false);
    }
    for account in &DEMO_ACCOUNTS {
        let email = Email::parse(account.email).context("a demo email")?;
        let password = Password::parse(account.password, "password")
            .map_err(|e| anyhow::anyhow!("a demo password: {e}"))?;
        let hash = hash_password(&password).await?;
        create_confirmed_user(db, &email, account.name, account.phone, &hash, account.role).await?;
    }
    Ok(true)
}
