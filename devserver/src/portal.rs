//! `devserver` runs the API in this same process, so one command brings up the whole product:
//! the site, the API on embedded SQLite, and from the `devkit` crate the payment and scheduling stand-ins, the mailbox and the demo accounts.
//!
//! The API's router is mounted in the site server's own router (`/api/*` is a function call,
//! not a hop). The API also keeps its own port: the stand-ins live at that origin, as they
//! would on another host, and the API calls them there over real HTTP.

use std::path::Path;

use api::domain::accounts::Role;
use devkit::local::{DEMO_ACCOUNTS, LocalApi};

/// A started API: what `devserver` mounts and prints.
pub struct Started {
    /// `127.0.0.1:port`, the API's own address (the stand-ins' origin).
    pub addr: String,
    pub summary: String,
    /// The API's routes, to mount under `/api/` in the site server.
    pub router: axum::Router,
    api: LocalApi,
}

impl Started {
    /// Serves the API's own port and runs its background jobs until Ctrl+C or SIGTERM, then
    /// finishes its requests and jobs.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.api.run_until_stopped().await
    }
}

/// Starts the API for the site at `site_origin` on the current Tokio runtime.
pub async fn start_api(root: &Path, site_origin: &str) -> anyhow::Result<Started> {
    let root = root.canonicalize()?;
    let api = LocalApi::start(&root, site_origin)
        .await
        .map_err(|e| e.context("cannot start the API"))?;
    Ok(Started {
        addr: api.addr.to_string(),
        summary: summary(&api, site_origin),
        router: api.router(),
        api,
    })
}
fn summary(api: &LocalApi, site: &str) -> String {
    let mut lines = vec![
        format!("  Site:      {site}"),
        format!(
            "  API:       {site}/api/openapi.json (in this process, on {})",
            api.addr
        ),
        format!("  Database:  {}", api.database),
        format!("  Mail:      {}", api.mail),
        "  Payments:  the local PayTabs stand-in (Approve / Decline / Cancel) and Paymob stand-in (wallet, kiosk)".to_string(),
        "  Bookings:  the local Calendly stand-in (embedded on /book-session)".to_string(),
    ];
    let note = if api.seeded_demo {
        "created on this new database"
    } else {
        "unless changed since"
    };
    for account in &DEMO_ACCOUNTS {
        lines.push(format!(
            "  {:<10} {} / {}   ({note})",
            format!(
                "{}:",
                if account.role == Role::Admin {
                    "Admin"
                } else {
                    "Client"
                }
            ),
            account.email,
            account.password
        ));
    }
    lines.join("\n")
}
