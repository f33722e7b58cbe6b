//! `site serve` runs the API in this same process (the `portal` feature, on by default), so one
//! command brings up the whole product: the site, the API on embedded SQLite, and from the
//! `devkit` crate the payment and scheduling stand-ins, the mailbox and the demo accounts. The
//! API gets its own Tokio runtime on a background thread; the site server forwards `/api/*` to
//! it as Netlify does in production.

use std::path::Path;
use std::sync::mpsc;

use api::domain::accounts::Role;
use devkit::local::{DEMO_ACCOUNTS, LocalApi};

/// What `site serve` prints about the API it started.
pub struct Started {
    /// `127.0.0.1:port`, for the site server's `/api/*` forwarding.
    pub addr: String,
    pub summary: String,
}

/// Starts the API for the site at `site_origin`; returns once it listens (or failed to start).
pub fn start_api(root: &Path, site_origin: &str) -> anyhow::Result<Started> {
    let (tx, rx) = mpsc::channel();
    let (root, site) = (root.canonicalize()?, site_origin.to_string());
    std::thread::Builder::new()
        .name("api".into())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
            {
                Ok(r) => r,
                Err(e) => return drop(tx.send(Err(anyhow::Error::from(e)))),
            };
            runtime.block_on(async move {
                match LocalApi::start(&root, &site).await {
                    Ok(api) => {
                        let _ = tx.send(Ok(Started {
                            addr: api.addr.to_string(),
                            summary: summary(&api, &site),
                        }));
                        // The API stops on Ctrl+C or SIGTERM, after finishing its requests and
                        // background jobs; the site has nothing to finish, so the process ends.
                        let code = match api.run_until_stopped().await {
                            Ok(()) => 0,
                            Err(e) => {
                                eprintln!("error: the API stopped: {e}");
                                1
                            }
                        };
                        std::process::exit(code);
                    }
                    Err(e) => drop(tx.send(Err(e))),
                }
            });
        })?;
    rx.recv()
        .map_err(|_| anyhow::anyhow!("the API thread ended before it started"))?
        .map_err(|e| e.context("cannot start the API"))
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
        "  Payments:  the local PayTabs stand-in (Approve / Decline / Cancel)".to_string(),
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
