//! `site build`: validate, render, check every internal link and anchor, then write. Netlify
//! runs this command, so what `site check` refuses must not ship: a broken link fails the
//! build before anything is written, like Zola's.

use std::path::{Path, PathBuf};
use std::time::Instant;

use generator::output::{OutputFile, write_site};
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
    // `site::check` is the render plus the link check: the same problems `site check` reports.
    let site = site::check(&opts)?;
    for w in &site.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(sizes) = &site.islands_report {
        println!("{}", sizes.trim_end());
    }
    let (pages, other) = (site.pages.len(), site.files.len());
    // Pages move into the output list rather than being copied: at 10,000 pages the rendered
    // HTML is the largest thing in memory.
    let mut files = site.files;
    files.extend(site.pages.into_iter().map(|p| OutputFile {
        rel: p.file,
        bytes: p.html.into_bytes(),
    }));
    let stats = write_site(&out, &files)?;
    println!(
        "built {} pages and {} files into {} in {} ms ({} written, {} unchanged, {} removed){}",
        pages,
        other,
        out.display(),
        started.elapsed().as_millis(),
        stats.written,
        stats.unchanged,
        stats.removed,
        if drafts {
            " — with drafts: do not deploy"
        } else {
            ""
        }
    );
    Ok(())
}
