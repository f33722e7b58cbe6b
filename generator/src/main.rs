//! The `site` command: parses arguments, calls the library, prints problems, exits non-zero.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::{Parser, Subcommand};
use generator::{livereload, scaffold, serve, site};

#[derive(Parser)]
#[command(
    name = "site",
    version,
    about = "Build the coaching website from content/ and themes/"
)]
struct Cli {
    /// The project folder holding content/ and themes/.
    #[arg(long, global = true, default_value = ".")]
    root: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate everything, then render the site into the output folder.
    Build {
        /// Include unpublished and inactive items (for previews; never deploy this).
        #[arg(long)]
        drafts: bool,
        /// Output folder.
        #[arg(long, default_value = "public")]
        out: PathBuf,
        /// Override settings.yaml's base_url (canonical links, sitemap, feed).
        #[arg(long)]
        base_url: Option<String>,
    },
    /// Validate content, templates and internal links; write nothing.
    Check {
        #[arg(long)]
        drafts: bool,
    },
    /// The whole product on localhost: build the site, start the API in this process (embedded
    /// SQLite, payment and scheduling stand-ins, demo accounts), serve like production (clean
    /// URLs, netlify.toml redirects and headers, /api/* forwarded), rebuild and reload on edits.
    Serve {
        #[arg(long, default_value_t = 8000)]
        port: u16,
        #[arg(long)]
        drafts: bool,
        /// Forward /api/* to an API already running at this address (e.g. 127.0.0.1:8080)
        /// instead of starting one in this process.
        #[arg(long)]
        api: Option<String>,
    },
    /// Create a content file with complete front matter.
    New { kind: scaffold::Kind, title: String },
}

/// Starts the API in this process and prints where everything is; `None` when this `site` was
/// built without the `portal` feature (the site is then served alone).
#[cfg(feature = "portal")]
fn start_api(root: &std::path::Path, site: &str) -> anyhow::Result<Option<String>> {
    let api = generator::portal::start_api(root, site)?;
    println!("\n{}\n", api.summary);
    Ok(Some(api.addr))
}

#[cfg(not(feature = "portal"))]
fn start_api(_: &std::path::Path, _: &str) -> anyhow::Result<Option<String>> {
    eprintln!("note: this `site` was built without the portal feature; /api/* is not served");
    Ok(None)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Build {
            drafts,
            out,
            base_url,
        } => {
            let started = Instant::now();
            let api_origin = std::env::var("API_ORIGIN").ok().filter(|o| !o.is_empty());
            if let Some(origin) = &api_origin {
                anyhow::ensure!(
                    origin.starts_with("https://"),
                    "API_ORIGIN must be an https:// origin, not `{origin}`"
                );
            }
            let opts = site::Options {
                drafts,
                base_url,
                api_origin,
                ..site::Options::new(&cli.root)
            };
            let out = if out.is_absolute() {
                out
            } else {
                cli.root.join(out)
            };
            let report = site::build(&opts, &out)?;
            for w in &report.warnings {
                eprintln!("warning: {w}");
            }
            if let Some(sizes) = &report.islands_report {
                println!("{}", sizes.trim_end());
            }
            println!(
                "built {} pages and {} files into {} in {} ms ({} written, {} unchanged, {} removed){}",
                report.pages,
                report.files,
                out.display(),
                started.elapsed().as_millis(),
                report.stats.written,
                report.stats.unchanged,
                report.stats.removed,
                if drafts {
                    " — with drafts: do not deploy"
                } else {
                    ""
                }
            );
        }
        Command::Check { drafts } => {
            let opts = site::Options {
                drafts,
                ..site::Options::new(&cli.root)
            };
            let site = site::check(&opts)?;
            for w in &site.warnings {
                eprintln!("warning: {w}");
            }
            println!(
                "ok: {} pages, every internal link resolves",
                site.pages.len()
            );
        }
        Command::Serve { port, drafts, api } => {
            let out = cli.root.join("public");
            let base_url = format!("http://127.0.0.1:{port}");
            let opts = site::Options {
                drafts,
                base_url: Some(base_url.clone()),
                ..site::Options::new(&cli.root)
            };
            let report = site::build(&opts, &out)?;
            for w in &report.warnings {
                eprintln!("warning: {w}");
            }
            let rules = serve::NetlifyToml::load(&cli.root.join("netlify.toml"))?;
            let listener = std::net::TcpListener::bind(("127.0.0.1", port)).with_context(|| {
                format!("cannot listen on port {port}; is it in use? Try --port")
            })?;
            println!("built {} pages into {}", report.pages, out.display());
            let api = match api {
                Some(a) => Some(
                    a.trim_start_matches("http://")
                        .trim_end_matches('/')
                        .to_string(),
                ),
                None => start_api(&cli.root, &base_url)?,
            };
            println!("serving {base_url} (Ctrl+C to stop)");
            // Edit → rebuild → open browsers reload.
            let reloader = std::sync::Arc::new(livereload::Reloader::default());
            {
                let (reloader, root, out) = (reloader.clone(), cli.root.clone(), out.clone());
                std::thread::spawn(move || {
                    let rebuild = || {
                        let opts = site::Options {
                            drafts,
                            base_url: Some(base_url.clone()),
                            ..site::Options::new(&root)
                        };
                        site::build(&opts, &out)
                            .map(|r| {
                                format!("{} pages, {} files written", r.pages, r.stats.written)
                            })
                            .map_err(|e| format!("{e:#}"))
                    };
                    livereload::watch(&root, reloader, rebuild);
                });
            }
            serve::serve(listener, out, rules, api, Some(reloader))?;
        }
        Command::New { kind, title } => {
            let today = chrono::Local::now().date_naive();
            let path = scaffold::new_content(&cli.root, kind, &title, today)?;
            println!("created {}", path.display());
        }
    }
    Ok(())
}
