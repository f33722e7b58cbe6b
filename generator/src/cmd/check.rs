//! `site check`: `site build` with nothing written: the same validation, render and check of
//! every internal link and anchor.

use std::path::Path;

use generator::site;

pub fn run(root: &Path, drafts: bool) -> anyhow::Result<()> {
    let opts = site::Options {
        drafts,
        ..site::Options::new(root)
    };
    let report = site::check(&opts)?;
    for w in &report.warnings {
        eprintln!("warning: {w}");
    }
    println!("ok: {} pages, every internal link resolves", report.pages);
    Ok(())
}
