//! The command line: one file per subcommand.

mod build;
mod check;
mod new;

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
    /// Moved: the whole product on localhost is `devserver` (`cargo run -p devserver`), which
    /// this static-site generator does not contain.
    #[command(hide = true)]
    Serve {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Create a content file with complete front matter, or with --lang the translation of an
    /// existing one (`site new service coaching-session --lang ar`).
    New {
        kind: scaffold::Kind,
        /// The new entry's title; with --lang, the slug of the entry to translate (`about` for
        /// the about page, `terms` for a legal page).
        title: String,
        /// Write the translation into this language (one of settings.yaml's `languages`) of the
        /// existing entry TITLE names: `<slug>.<lang>.md` beside it.
        #[arg(long)]
        lang: Option<String>,
    },
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
        Command::Serve { .. } => Err(anyhow::anyhow!(
            "`site serve` is now its own program: run `cargo run -p devserver` \
             (same flags: --port, --api, --drafts, --root)"
        )),
        Command::New { kind, title, lang } => new::run(&cli.root, kind, &title, lang.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
