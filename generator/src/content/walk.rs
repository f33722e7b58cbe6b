//! Finding the Markdown files of a content folder. An entry that cannot be read (a symbolic
//! link loop, a link to nothing, no permission) is an error naming it, never a page that
//! silently disappears; a file larger than any page needs is loaded, with a warning.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::diagnostics::Diagnostic;

/// The size over which a Markdown file gets a warning: 1 MB, about 150,000 words. The longest
/// page of the real site is under 7 KB and the benchmark's pages about 6 KB, so a file this
/// large is almost surely a mistake (a pasted base64 image, a generated dump) that would make
/// the page slow to load and every build and reload slower, not writing. A warning, not an
/// error: a genuinely long page still builds.
pub const MAX_MARKDOWN_BYTES: u64 = 1_000_000;

/// What walking one folder found.
#[derive(Default)]
pub struct Found {
    /// The `.md` files, relative to the site root, sorted for stable output.
    pub files: Vec<PathBuf>,
    pub problems: Vec<Diagnostic>,
    pub warnings: Vec<String>,
}

/// The `.md` files directly inside `content/<dir>`; a missing folder has none.
pub fn markdown_files(root: &Path, dir: &str) -> Found {
    let folder = root.join("content").join(dir);
    let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).to_path_buf();
    let mut found = Found::default();
    let entries = match fs::read_dir(&folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return found,
        Err(e) => {
            found.problems.push(
                Diagnostic::new(rel(&folder), format!("cannot read the folder: {e}"))
                    .hint("check its permissions"),
            );
            return found;
        }
    };
    for entry in entries {
        let path = match entry {
            Ok(entry) => entry.path(),
            Err(e) => {
                found.problems.push(Diagnostic::new(
                    rel(&folder),
                    format!("cannot read an entry of the folder: {e}"),
                ));
                continue;
            }
        };
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        // `metadata` follows symbolic links: a loop or a dangling link fails here.
        match fs::metadata(&path) {
            Ok(meta) if meta.is_file() => {
                if meta.len() > MAX_MARKDOWN_BYTES {
                    found.warnings.push(format!(
                        "{} is {:.1} MB, over the {} MB a page's Markdown needs: is something pasted into it by mistake?",
                        rel(&path).display(),
                        meta.len() as f64 / 1e6,
                        MAX_MARKDOWN_BYTES / 1_000_000
                    ));
                }
                found.files.push(rel(&path));
            }
            Ok(_) => {} // a folder whose name ends in .md
            // Emacs marks a file it is editing with a dangling link `.#name.md`: not content.
            Err(_) if is_editor_lock(&path) => {}
            Err(e) => found.problems.push(
                Diagnostic::new(rel(&path), format!("cannot read the file: {e}")).hint(
                    "a symbolic link must point at a readable file, not at itself or at nothing",
                ),
            ),
        }
    }
    found.files.sort();
    found
}

fn is_editor_lock(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(".#"))
}

/// True when something is at `path`, even a link that cannot be followed (reading it then
/// reports why), so a broken link is an error instead of a missing optional file.
pub fn is_present(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}
