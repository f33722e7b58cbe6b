//! `devserver`: build the site, start the API in this process (or forward to one), serve the
//! output folder like production on one Tokio runtime, and rebuild and reload browsers on edits.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::Parser;
use devserver::livereload::{self, Reloader};
use devserver::serve::{self, Api};
use generator::site;

/// The whole product on localhost: build the site, start the API in this process (embedded
/// SQLite, payment and scheduling stand-ins, demo accounts), serve like production (clean URLs,
/// netlify.toml redirects and headers, compression, the API under /api/), rebuild and reload
/// on edits.
#[derive(Parser)]
#[command(name = "devserver", version)]
struct Cli {
    /// The project folder holding content/, themes/ and netlify.toml.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Where the built site goes (default: public/ under --root). Two devservers on one
    /// project, as the browser tests run them side by side, each need their own.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Include unpublished and inactive items.
    #[arg(long)]
    drafts: bool,
    /// Forward /api/* to an API already running at this address (e.g. 127.0.0.1:8080)
    /// instead of starting one in this process.
    #[arg(long)]
    api: Option<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let out = cli.out.unwrap_or_else(|| cli.root.join("public"));
    match run(&cli.root, out, cli.port, cli.drafts, cli.api) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(
    root: &Path,
    out: PathBuf,
    port: u16,
    drafts: bool,
    api: Option<String>,
) -> anyhow::Result<()> {
    let base_url = format!("http://127.0.0.1:{port}");
    let options = {
        let (root, base_url) = (root.to_path_buf(), base_url.clone());
        move || site::Options {
            drafts,
            base_url: Some(base_url.clone()),
            ..site::Options::new(&root)
        }
    };
    let (live, report) = site::LiveSite::load(options(), &out)?;
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    let mut rules = serve::NetlifyToml::load(&root.join("netlify.toml"))?;
    let listener = std::net::TcpListener::bind(("127.0.0.1", port))
        .with_context(|| format!("cannot listen on port {port}; is it in use? Try --port"))?;
    listener.set_nonblocking(true)?;
    println!("built {} pages into {}", report.pages, out.display());

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let (mount, api_addr, in_process) = match api {
            Some(addr) => {
                let addr = addr
                    .trim_start_matches("http://")
                    .trim_end_matches('/')
                    .to_string();
                (Api::Forward(addr.clone()), Some(addr), None)
            }
            None => start_api(root, &base_url).await?,
        };
        // The stand-ins (the scheduler framed on /book-session) live on the API's own origin.
        if let Some(addr) = &api_addr {
            rules.allow_frames_from(&format!("http://{addr}"));
        }
        let reloader = Arc::new(Reloader::default());
        watch_and_rebuild(root, out.clone(), live, reloader.clone(), options);
        println!("serving {base_url} (Ctrl+C to stop)");
        let app = serve::router(out, rules, mount, Some(reloader));
        let server = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        );
        match in_process {
            // The API stops on Ctrl+C or SIGTERM after finishing its requests and background
            // jobs; the site has nothing to finish, so the process ends with it.
            Some(api) => tokio::select! {
                r = api.run_until_stopped() => r.context("the API stopped")?,
                r = server => r?,
            },
            None => tokio::select! {
                r = server => r?,
                _ = tokio::signal::ctrl_c() => {},
                _ = terminated() => {},
            },
        }
        anyhow::Ok(())
    })
}

/// The edit loop on a thread of its own. The loaded site stays in memory (`LiveSite`): an
/// edit re-renders only the pages it can show and writes only the files whose bytes changed
/// (links unchecked, so a half-written link does not stop the preview). An islands' source
/// edit reloads the whole site, which rebuilds the islands.
fn watch_and_rebuild(
    root: &Path,
    out: PathBuf,
    mut live: site::LiveSite,
    reloader: Arc<Reloader>,
    options: impl Fn() -> site::Options + Send + 'static,
) {
    let root = root.to_path_buf();
    // The watcher names absolute paths under the canonical root.
    let islands = root
        .canonicalize()
        .unwrap_or_else(|_| root.clone())
        .join("islands");
    // Watching starts before the server says it is serving: an edit saved the moment the first
    // page shows is seen.
    let sources = match livereload::Sources::watch(&root) {
        Ok(sources) => sources,
        Err(e) => {
            eprintln!("warning: edits will not rebuild the site: {e:#}");
            return;
        }
    };
    std::thread::spawn(move || {
        let rebuild = |changed: &[PathBuf]| {
            let result = if changed
                .iter()
                .any(|p| p.starts_with(&islands) || p.starts_with("islands"))
            {
                site::LiveSite::load(options(), &out).map(|(fresh, r)| {
                    live = fresh;
                    format!("{} pages, {} files written", r.pages, r.stats.written)
                })
            } else {
                live.apply(changed)
            };
            result.map_err(|e| format!("{e:#}"))
        };
        sources.rebuild_on_change(&reloader, rebuild);
    });
}

#[cfg(unix)]
async fn terminated() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut s) => drop(s.recv().await),
        Err(_) => std::future::pending().await,
    }
}

#[cfg(not(unix))]
async fn terminated() {
    std::future::pending().await
}

/// Starts the API in this process; prints where everything is.
async fn start_api(
    root: &Path,
    site: &str,
) -> anyhow::Result<(Api, Option<String>, Option<devserver::portal::Started>)> {
    let api = devserver::portal::start_api(root, site).await?;
    println!("\n{}\n", api.summary);
    Ok((
        Api::Mounted(api.router.clone()),
        Some(api.addr.clone()),
        Some(api),
    ))
}
