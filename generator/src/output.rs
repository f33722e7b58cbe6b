//! The output folder: what a build writes into it, and how `site build` swaps a finished
//! build in. A build renders into a staging folder beside the output and replaces the output
//! only when it passed every check, so a failed build leaves the last good site as it was.
//! (`devserver` writes in place instead, only the files whose bytes changed: see `LiveSite`.)

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

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

/// Output folders are emptied and replaced: never one that holds a project.
pub fn refuse_project_folder(out: &Path) -> anyhow::Result<()> {
    if out.join("Cargo.toml").exists() || out.join("content").is_dir() {
        bail!(
            "refusing to write into {}: it looks like a project folder, not an output folder",
            out.display()
        );
    }
    Ok(())
}

/// A hidden folder beside `out` (`public` → `.public.staging`), on the same file system so
/// the swap is a rename.
pub fn beside(out: &Path, what: &str) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "public".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".{name}.{what}"))
}

/// Removes a folder a crashed run may have left; a missing one is fine.
pub fn remove_leftover(dir: &Path) -> anyhow::Result<()> {
    match fs::remove_dir_all(dir) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", dir.display())),
    }
}

/// Puts the finished build `staging` in the place of `out`; the previous output, if any, is
/// moved aside first and then removed. Returns how many files the previous output held.
pub fn swap_in(staging: &Path, out: &Path) -> anyhow::Result<usize> {
    let old = beside(out, "previous");
    remove_leftover(&old)?;
    let had = out.exists();
    if had {
        fs::rename(out, &old)
            .with_context(|| format!("cannot move the previous {} aside", out.display()))?;
    }
    fs::rename(staging, out)
        .with_context(|| format!("cannot move the new build into {}", out.display()))?;
    if !had {
        return Ok(0);
    }
    let previous = walkdir::WalkDir::new(&old)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .count();
    remove_leftover(&old)?;
    Ok(previous)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_build_replaces_the_output_and_nothing_of_the_old_one_stays() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        fs::create_dir_all(out.join("gone")).unwrap();
        fs::write(out.join("gone/index.html"), "old").unwrap();
        let staging = beside(&out, "staging");
        assert_eq!(staging, dir.path().join(".public.staging"));
        fs::create_dir_all(&staging).unwrap();
        fs::write(staging.join("index.html"), "new").unwrap();
        assert_eq!(swap_in(&staging, &out).unwrap(), 1);
        assert_eq!(fs::read_to_string(out.join("index.html")).unwrap(), "new");
        assert!(!out.join("gone").exists());
        assert!(!staging.exists() && !beside(&out, "previous").exists());
    }

    #[test]
    fn refuses_a_project_folder() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("content")).unwrap();
        assert!(refuse_project_folder(dir.path()).is_err());
    }
}
