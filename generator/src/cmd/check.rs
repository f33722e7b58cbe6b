//! `site check`: everything `site build` validates, internal links included; writes nothing.

use std::path::Path;

use generator::site;

pub fn run(root: &Path, drafts: bool) -> anyhow::Result<()> {
    let opts = site::Options {
        drafts,
        ..site::Options::new(root)
    };
    let site = site::check(&opts)?;
    for w in &site.warnings {
        eprintln!("warning: {w}");
    }
    println!(
        "ok: {} pages, every internal link resolves",
        site.pages.len()
    );
    Ok(())
}
