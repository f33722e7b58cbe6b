//! The command line: one file per subcommand.

mod build;
mod check;
mod new;
mod serve;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use generator::scaffold;

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
    /// Validate everything and every internal link, then render the site into the output
    /// folder; a broken link or anchor fails the build and writes nothing.
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
    /// URLs, netlify.toml redirects and headers, compression, the API under /api/), rebuild and
    /// reload on edits.
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

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build {
            drafts,
            out,
            base_url,
        } => build::run(&cli.root, drafts, out, base_url),
        Command::Check { drafts } => check::run(&cli.root, drafts),
        Command::Serve { port, drafts, api } => serve::run(&cli.root, port, drafts, api),
        Command::New { kind, title } => new::run(&cli.root, kind, &title),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
