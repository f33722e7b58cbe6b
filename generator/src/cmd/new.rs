//! `site new KIND TITLE`: a content file with complete front matter; `site new KIND SLUG
//! --lang CODE`: the translation of an existing one.

use std::path::Path;

use generator::scaffold;

pub fn run(
    root: &Path,
    kind: scaffold::Kind,
    title: &str,
    lang: Option<&str>,
) -> anyhow::Result<()> {
    let path = match lang {
        Some(lang) => scaffold::new_translation(root, kind, title, lang)?,
        None => {
            let today = chrono::Local::now().date_naive();
            scaffold::new_content(root, kind, title, today)?
        }
    };
    println!("created {}", path.display());
    Ok(())
}
