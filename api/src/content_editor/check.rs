//! `site check` on the site as it would be after a save, before anything is written: a shadow
//! of the working copy (its `content/` hard-linked file by file, the candidate files written
//! in place of theirs, `themes/` and the image cache linked) is checked by the generator's own
//! `site::check`, the same load, validation, render and link check as the command. The shadow
//! has no `islands/`: the check neither builds nor needs them (their tags render without a
//! script), so a save never runs npm. The editor's preview renders the same shadow with the
//! generator ([`preview`]) and keeps the one page the edited file makes.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use generator::diagnostics::Diagnostic;

/// One file of a save: its path under the repository and its new bytes (`None`: deleted).
pub struct Change {
    pub rel: PathBuf,
    pub bytes: Option<Vec<u8>>,
}

static SHADOWS: AtomicU64 = AtomicU64::new(0);

/// The problems `site check` would report after `changes`; empty when the site is valid.
/// Their files are relative to the repository, as the command prints them.
pub fn check(repo: &Path, changes: &[Change]) -> anyhow::Result<Vec<Diagnostic>> {
    in_shadow(repo, changes, |opts| {
        Ok(generator::site::check(opts)
            .err()
            .map(|errors| relative(errors.0, &opts.root))
            .unwrap_or_default())
    })
}

/// A page as the generator renders it.
pub struct Page {
    /// Its address on the site, e.g. `/blog/first-post`.
    pub url: String,
    pub html: String,
}

/// The page the site would show after `change`: the page made from the changed file, else the
/// page at `url` (a data file's page, e.g. `packages.yaml` → `/pricing`). `Err` holds what
/// `site check` would refuse; `Ok(None)`: no such page.
pub fn preview(
    repo: &Path,
    change: &Change,
    url: Option<&str>,
) -> anyhow::Result<Result<Option<Page>, Vec<Diagnostic>>> {
    in_shadow(repo, std::slice::from_ref(change), |opts| {
        let site = match generator::site::generate(opts) {
            Ok(site) => site,
            Err(errors) => return Ok(Err(relative(errors.0, &opts.root))),
        };
        // A page's source is its file relative to the site's root.
        let trim = |p: &str| p.trim_end_matches('/').to_string();
        let page = site
            .pages
            .iter()
            .find(|p| Path::new(&p.source) == change.rel)
            .or_else(|| {
                let url = trim(url?);
                site.pages.iter().find(|p| trim(&p.path) == url)
            });
        Ok(Ok(page.map(|p| Page {
            url: p.path.clone(),
            html: p.html.clone(),
        })))
    })
}

/// Problems with their files relative to the repository, as the command prints them.
fn relative(problems: Vec<Diagnostic>, shadow: &Path) -> Vec<Diagnostic> {
    problems
        .into_iter()
        .map(|mut d| {
            if let Ok(rel) = d.file.strip_prefix(shadow) {
                d.file = rel.to_path_buf();
            }
            d
        })
        .collect()
}

/// Runs `with` on the generator's options for a shadow of `repo` with `changes` made, then
/// removes the shadow.
fn in_shadow<T>(
    repo: &Path,
    changes: &[Change],
    with: impl FnOnce(&generator::site::Options) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let base = if repo.join(".git").is_dir() {
        repo.join(".git")
    } else {
        std::env::temp_dir()
    };
    let shadow = base.join(format!(
        "content-editor-check-{}-{}",
        std::process::id(),
        SHADOWS.fetch_add(1, Ordering::Relaxed)
    ));
    let result = make_shadow(repo, &shadow, changes).and_then(|()| {
        with(&generator::site::Options {
            fetch_videos: false,
            ..generator::site::Options::new(&shadow)
        })
    });
    let _ = fs::remove_dir_all(&shadow);
    result
}

fn make_shadow(repo: &Path, shadow: &Path, changes: &[Change]) -> anyhow::Result<()> {
    let _ = fs::remove_dir_all(shadow);
    fs::create_dir_all(shadow)?;
    mirror(&repo.join("content"), &shadow.join("content"))?;
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(repo.join("themes"), shadow.join("themes"))?;
        fs::create_dir_all(repo.join(".cache"))?;
        std::os::unix::fs::symlink(repo.join(".cache"), shadow.join(".cache"))?;
    }
    for change in changes {
        let path = shadow.join(&change.rel);
        // A hard link shares the original's bytes: unlink before writing.
        let _ = fs::remove_file(&path);
        if let Some(bytes) = &change.bytes {
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::write(&path, bytes)?;
        }
    }
    Ok(())
}

/// `from`'s tree at `to`: folders made, files hard-linked (copied across file systems).
/// Symbolic links are not followed: the editor refuses them, and `site check` reports them.
fn mirror(from: &Path, to: &Path) -> anyhow::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let dest = to.join(entry.file_name());
        if kind.is_dir() {
            mirror(&entry.path(), &dest)?;
        } else if kind.is_file() {
            if fs::hard_link(entry.path(), &dest).is_err() {
                fs::copy(entry.path(), &dest)?;
            }
        } else if kind.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(fs::read_link(entry.path())?, &dest)?;
        }
    }
    Ok(())
}

/// The problems as `site check` prints them, one per line with its fix.
pub fn message(problems: &[Diagnostic]) -> String {
    let n = problems.len();
    let mut out = format!(
        "site check refused this change ({n} problem{}):",
        if n == 1 { "" } else { "s" }
    );
    for d in problems {
        out.push_str("\n- ");
        out.push_str(&d.to_string());
    }
    out
}
