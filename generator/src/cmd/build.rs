//! `site build`: validate, render, check every internal link and anchor, then publish. Netlify
//! runs this command, so what `site check` refuses must not ship: the build renders into a
//! staging folder and replaces the output only when every link resolves (see `site::build`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use generator::site;

pub fn run(
    root: &Path,
    drafts: bool,
    out: PathBuf,
    base_url: Option<String>,
) -> anyhow::Result<()> {
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
        ..site::Options::new(root)
    };
    let out = if out.is_absolute() {
        out
    } else {
        root.join(out)
    };
    let report = site::build(&opts, &out)?;
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(sizes) = &report.islands_report {
        println!("{}", sizes.trim_end());
    }
    println!(
        "built {} pages and {} files into {} in {} ms{}",
        report.pages,
        report.files,
        out.display(),
        started.elapsed().as_millis(),
        if drafts {
            " — with drafts: do not deploy"
        } else {
            ""
        }
    );
    Ok(())
}
