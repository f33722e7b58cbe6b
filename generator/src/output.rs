//! Writing the site: only files whose bytes changed are written (file creation dominates on
//! slow disks), and files a previous build left that this build no longer produces are removed,
//! so an unpublished page disappears from the output.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use rayon::prelude::*;
use walkdir::WalkDir;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct WriteStats {
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
}

/// One output file: its path relative to the output folder and its bytes.
pub struct OutputFile {
    pub rel: String,
    pub bytes: Vec<u8>,
}

pub fn write_site(out: &Path, files: &[OutputFile]) -> anyhow::Result<WriteStats> {
    if out.join("Cargo.toml").exists() || out.join("content").is_dir() {
        bail!(
            "refusing to write into {}: it looks like a project folder, not an output folder",
            out.display()
        );
    }
    fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let results: Vec<anyhow::Result<bool>> = files
        .par_iter()
        .map(|f| {
            let path = out.join(&f.rel);
            if fs::read(&path).is_ok_and(|old| old == f.bytes) {
                return Ok(false);
            }
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
            }
            fs::write(&path, &f.bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
            Ok(true)
        })
        .collect();
    let mut stats = WriteStats::default();
    for r in results {
        if r? {
            stats.written += 1;
        } else {
            stats.unchanged += 1;
        }
    }
    let keep: HashSet<PathBuf> = files.iter().map(|f| out.join(&f.rel)).collect();
    let mut dirs = Vec::new();
    for entry in WalkDir::new(out).min_depth(1).into_iter().flatten() {
        if entry.file_type().is_dir() {
            dirs.push(entry.into_path());
        } else if !keep.contains(entry.path()) {
            fs::remove_file(entry.path())
                .with_context(|| format!("cannot remove stale {}", entry.path().display()))?;
            stats.removed += 1;
        }
    }
    // Deepest first, so emptied parents go too; a non-empty folder just stays.
    dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for d in dirs {
        let _ = fs::remove_dir(d);
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_files_are_not_rewritten_and_stale_ones_go() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        let file = |rel: &str, b: &str| OutputFile {
            rel: rel.into(),
            bytes: b.as_bytes().to_vec(),
        };
        let first = write_site(
            &out,
            &[file("a/index.html", "A"), file("b/index.html", "B")],
        )
        .unwrap();
        assert_eq!(
            first,
            WriteStats {
                written: 2,
                unchanged: 0,
                removed: 0
            }
        );
        let second = write_site(&out, &[file("a/index.html", "A2")]).unwrap();
        assert_eq!(
            second,
            WriteStats {
                written: 1,
                unchanged: 0,
                removed: 1
            }
        );
        assert!(!out.join("b").exists());
        assert_eq!(fs::read_to_string(out.join("a/index.html")).unwrap(), "A2");
    }

    #[test]
    fn refuses_to_prune_a_project_folder() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("content")).unwrap();
        assert!(write_site(dir.path(), &[]).is_err());
    }
}
