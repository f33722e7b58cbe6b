//! `site new KIND TITLE`: a content file with complete front matter.

use std::path::Path;

use generator::scaffold;

pub fn run(root: &Path, kind: scaffold::Kind, title: &str) -> anyhow::Result<()> {
    let today = chrono::Local::now().date_naive();
    let path = scaffold::new_content(root, kind, title, today)?;
    println!("created {}", path.display());
    Ok(())
}
