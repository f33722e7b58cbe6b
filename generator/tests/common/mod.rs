//! Test sites: a temp folder with the minimal fixture content, optional overlays and the real
//! theme, so the tests exercise the templates that ship.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use chrono::{TimeZone, Utc};
use generator::site;
use walkdir::WalkDir;

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn copy_tree(from: &Path, to: &Path) {
    for entry in WalkDir::new(from).into_iter().flatten() {
        let rel = entry.path().strip_prefix(from).unwrap();
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            fs::create_dir_all(&dest).unwrap();
        } else {
            fs::create_dir_all(dest.parent().unwrap()).unwrap();
            fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

pub struct TestSite {
    pub dir: tempfile::TempDir,
}

impl TestSite {
    /// The minimal valid site plus `tests/fixtures/broken/<overlay>` when given.
    pub fn new(overlay: Option<&str>) -> TestSite {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&fixtures().join("minimal"), dir.path());
        copy_tree(&repo_root().join("themes"), &dir.path().join("themes"));
        if let Some(name) = overlay {
            copy_tree(&fixtures().join("broken").join(name), dir.path());
        }
        TestSite { dir }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.root().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    pub fn options(&self) -> site::Options {
        site::Options {
            fetch_videos: false,
            now: fixed_now(),
            ..site::Options::new(self.root())
        }
    }
}

/// Tests run at a fixed "now" so past and upcoming events do not change with the calendar.
pub fn fixed_now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap()
}
