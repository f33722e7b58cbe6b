//! The coach's editor in the browser (issue 25): Decap CMS's `proxy` backend protocol over a
//! git working copy of the site's repository, as `decap-server`'s localGit middleware serves
//! it, behind the admin's session (`routes::admin::content`).
//!
//! Every save: the paths are checked ([`paths`]: under `content/`, no `..`, no hidden part,
//! no symbolic link, Markdown ≤ 1 MB, images ≤ 10 MB of the type their bytes say), then refused
//! if the file changed since this session read it, then `site check` runs on the site as it
//! would be after the save ([`check`]); only then are the files written (a temporary file,
//! then a rename), committed by the admin and pushed. A YAML file keeps the comments the
//! editor does not know about ([`comments`]). A failed push keeps the commit: the
//! editor reports it pending and retries every 30 s. Saves take turns (one lock).
//!
//! Without git ([`ContentRepoConfig::commit`] false: `devserver` on the project's own folder)
//! a save writes the files only, after the same checks.

pub mod check;
mod comments;
pub mod git;
pub mod paths;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::Serialize;
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;
use utoipa::ToSchema;

use crate::configuration::ContentRepoConfig;
use crate::error::AppError;
use check::Change;
use git::{Author, Git};
use paths::Kind;

/// The most a request to the editor may carry: a 10 MB image, base64-encoded, and its JSON.
pub const BODY_LIMIT: usize = 14 * 1024 * 1024;
/// The editor's protocol route, which [`BODY_LIMIT`] applies to.
pub const PATH: &str = "/api/admin/content/v1";

/// How often a pending push is tried again.
const RETRY_EVERY: Duration = Duration::from_secs(30);
/// The most (session, file) versions remembered for the conflict check before the oldest
/// sessions' are forgotten (a forgotten read makes the next save of that file a conflict).
const SEEN_LIMIT: usize = 20_000;

/// A file as the protocol lists it.
#[derive(Serialize, ToSchema)]
pub struct EntryFile {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The SHA-256 of its bytes; `null` when it does not exist.
    pub id: Option<String>,
}

/// An entry: its text (`null` when the file does not exist) and its file.
#[derive(Serialize, ToSchema)]
pub struct Entry {
    pub data: Option<String>,
    pub file: EntryFile,
}

/// A media file, base64-encoded as the protocol sends it.
#[derive(Serialize, ToSchema)]
pub struct MediaFile {
    pub id: String,
    pub content: String,
    pub encoding: &'static str,
    pub path: String,
    pub name: String,
}

/// Whether every save has reached the remote.
#[derive(Serialize, ToSchema, Clone, Default)]
#[serde(rename_all = "camelCase")]
pub struct PushStatus {
    /// Saves are committed and pushed (`false`: files only, development without git).
    pub commits: bool,
    /// A remote is configured.
    pub remote: bool,
    /// Commits are waiting for a push that failed; it is retried every 30 s.
    pub pending: bool,
    /// Why the last push failed (git's message, without the remote's address or token).
    pub last_error: Option<String>,
}

/// What a save did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Saved {
    pub message: String,
    /// The commit's id (`null` without git).
    pub commit: Option<String>,
    /// The push failed and will be retried: the change is saved but not yet published.
    pub pending: bool,
    /// How long `site check` took, in milliseconds.
    pub check_ms: u64,
    /// How long writing and committing took, in milliseconds.
    pub commit_ms: u64,
}

pub struct ContentEditor {
    config: ContentRepoConfig,
    git: Option<Git>,
    /// Saves take turns: check, write, commit and push of one before the next.
    write: tokio::sync::Mutex<()>,
    /// The version of each file each session last read or wrote: a save of a file whose
    /// version is not this one is based on an older version (a conflict).
    seen: std::sync::Mutex<HashMap<(String, String), Option<String>>>,
    status: std::sync::Mutex<PushStatus>,
    temps: AtomicU64,
}

fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn is_yaml(rel: &Path) -> bool {
    rel.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"))
}

/// The editor writes a YAML file's values without its comments: they are put back
/// ([`comments::keep`]). Text that is not UTF-8 is left to the check to refuse.
fn keep_comments(old: &[u8], new: Vec<u8>) -> Vec<u8> {
    match (std::str::from_utf8(old), std::str::from_utf8(&new)) {
        (Ok(old), Ok(text)) => comments::keep(old, text).into_bytes(),
        _ => new,
    }
}

/// `rel` as the protocol writes paths: `/`-separated.
fn slash(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// One file of a save, checked.
pub struct Write {
    pub path: String,
    pub bytes: Option<Vec<u8>>,
}

impl ContentEditor {
    /// Opens the working copy (cloning it when missing and a remote is set).
    pub async fn open(config: ContentRepoConfig) -> anyhow::Result<ContentEditor> {
        let git = config.commit.then(|| Git::new(&config));
        if let Some(git) = &git {
            git.prepare().await.context("the content repository")?;
        } else {
            anyhow::ensure!(
                config.repo.join("content").is_dir(),
                "CONTENT_REPO {} has no content/ folder",
                config.repo.display()
            );
        }
        let status = PushStatus {
            commits: config.commit,
            remote: config.commit && config.remote.is_some(),
            ..PushStatus::default()
        };
        Ok(ContentEditor {
            config,
            git,
            write: tokio::sync::Mutex::new(()),
            seen: Default::default(),
            status: std::sync::Mutex::new(status),
            temps: AtomicU64::new(0),
        })
    }

    pub fn root(&self) -> &Path {
        &self.config.repo
    }

    pub fn branch(&self) -> &str {
        &self.config.branch
    }

    pub fn status(&self) -> PushStatus {
        self.status.lock().expect("status lock").clone()
    }

    fn remember(&self, session: &str, path: &str, id: Option<String>) {
        let mut seen = self.seen.lock().expect("seen lock");
        if seen.len() >= SEEN_LIMIT {
            seen.clear();
        }
        seen.insert((session.to_string(), path.to_string()), id);
    }

    fn read_existing(&self, rel: &Path) -> Result<Option<Vec<u8>>, AppError> {
        let full = paths::resolve(self.root(), rel)?;
        match std::fs::read(&full) {
            Ok(b) => Ok(Some(b)),
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    || e.kind() == std::io::ErrorKind::NotADirectory =>
            {
                Ok(None)
            }
            Err(e) => Err(AppError::Internal(e.into())),
        }
    }

    /// Entries of files `path` names (Markdown and YAML), each remembered as read.
    pub fn entries(
        &self,
        session: &str,
        files: Vec<(String, Option<String>)>,
    ) -> Result<Vec<Entry>, AppError> {
        files
            .into_iter()
            .map(|(path, label)| {
                let (rel, kind) = paths::parse(&path)?;
                if kind != Kind::Text {
                    return Err(AppError::field(
                        "path",
                        "an entry is a Markdown or YAML file",
                    ));
                }
                let bytes = self.read_existing(&rel)?;
                let id = bytes.as_deref().map(sha256);
                let path = slash(&rel);
                self.remember(session, &path, id.clone());
                Ok(Entry {
                    data: bytes.map(|b| String::from_utf8_lossy(&b).into_owned()),
                    file: EntryFile { path, label, id },
                })
            })
            .collect()
    }

    /// The files under `folder` ending in `extension`, `depth` folders deep (1: the folder
    /// itself), as entries. Symbolic links are skipped.
    pub fn entries_by_folder(
        &self,
        session: &str,
        folder: &str,
        extension: &str,
        depth: u32,
    ) -> Result<Vec<Entry>, AppError> {
        let rel = paths::parse_folder(folder)?;
        let found = self.list(&rel, depth.clamp(1, 8))?;
        let ext = extension.trim_start_matches('.');
        let files = found
            .into_iter()
            .filter(|p| ext.is_empty() || p.ends_with(&format!(".{ext}")))
            .filter(|p| paths::parse(p).is_ok_and(|(_, k)| k == Kind::Text))
            .map(|p| (p, None))
            .collect();
        self.entries(session, files)
    }

    /// Files under `rel`, `depth` levels deep, as `/`-separated repository paths, sorted.
    fn list(&self, rel: &Path, depth: u32) -> Result<Vec<String>, AppError> {
        let dir = paths::resolve(self.root(), rel)?;
        let mut out = Vec::new();
        walk(&dir, rel, depth, &mut out);
        out.sort();
        Ok(out)
    }

    fn media_file(&self, session: &str, rel: &Path, bytes: Vec<u8>) -> MediaFile {
        use base64::Engine;
        let path = slash(rel);
        let id = sha256(&bytes);
        self.remember(session, &path, Some(id.clone()));
        MediaFile {
            id,
            content: base64::engine::general_purpose::STANDARD.encode(&bytes),
            encoding: "base64",
            name: rel
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            path,
        }
    }

    /// The images directly in `folder`.
    pub fn media(&self, session: &str, folder: &str) -> Result<Vec<MediaFile>, AppError> {
        let rel = paths::parse_folder(folder)?;
        let mut out = Vec::new();
        for path in self.list(&rel, 1)? {
            let Ok((rel, Kind::Image(_))) = paths::parse(&path) else {
                continue;
            };
            if let Some(bytes) = self.read_existing(&rel)? {
                out.push(self.media_file(session, &rel, bytes));
            }
        }
        Ok(out)
    }

    pub fn media_one(&self, session: &str, path: &str) -> Result<MediaFile, AppError> {
        let (rel, kind) = paths::parse(path)?;
        if !matches!(kind, Kind::Image(_)) {
            return Err(AppError::field("path", "a media file is an image"));
        }
        let bytes = self
            .read_existing(&rel)?
            .ok_or_else(|| AppError::NotFound(format!("`{path}` does not exist")))?;
        Ok(self.media_file(session, &rel, bytes))
    }

    pub fn media_after_save(&self, session: &str, path: &str) -> Result<MediaFile, AppError> {
        self.media_one(session, path)
    }

    /// Checks, validates, writes, commits and pushes one save (see the module's
    /// documentation). Nothing is written when any step before the write refuses.
    pub async fn save(
        &self,
        session: &str,
        author: Author<'_>,
        writes: Vec<Write>,
        message: &str,
    ) -> Result<Saved, AppError> {
        if writes.is_empty() {
            return Err(AppError::BadRequest("Nothing to save".into()));
        }
        let mut checked = Vec::with_capacity(writes.len());
        for w in writes {
            let (rel, kind) = paths::parse(&w.path)?;
            if let Some(bytes) = &w.bytes {
                paths::check_bytes(&w.path, kind, bytes)?;
            }
            if checked.iter().any(|(r, _): &(PathBuf, _)| *r == rel) {
                return Err(AppError::field(
                    "path",
                    &format!("`{}` is named twice", w.path),
                ));
            }
            checked.push((rel, w.bytes));
        }
        let _turn = self.write.lock().await;
        // A save based on an older version of a file never overwrites the newer one.
        let mut before = Vec::with_capacity(checked.len());
        for (rel, _) in &checked {
            let path = slash(rel);
            let current = self.read_existing(rel)?;
            let current_id = current.as_deref().map(sha256);
            let read = self
                .seen
                .lock()
                .expect("seen lock")
                .get(&(session.to_string(), path.clone()))
                .cloned();
            let fine = match (&current_id, &read) {
                (None, None) => true,
                (current, Some(read)) => current == read,
                (Some(_), None) => false,
            };
            if !fine {
                return Err(AppError::Conflict(format!(
                    "`{path}` was changed by someone else after you opened it. Your version was not saved and the other one was kept: reload the page, then make your change again."
                )));
            }
            before.push(current);
        }
        let changes: Vec<Change> = checked
            .into_iter()
            .zip(&before)
            .map(|((rel, bytes), old)| {
                let bytes = match (bytes, old) {
                    (Some(new), Some(old)) if is_yaml(&rel) => Some(keep_comments(old, new)),
                    (bytes, _) => bytes,
                };
                Change { rel, bytes }
            })
            .collect();
        let started = Instant::now();
        let root = self.root().to_path_buf();
        let (changes, problems) = tokio::task::spawn_blocking(move || {
            let problems = check::check(&root, &changes);
            (changes, problems)
        })
        .await
        .map_err(|e| AppError::Internal(e.into()))?;
        let problems = problems?;
        let check_ms = started.elapsed().as_millis() as u64;
        if !problems.is_empty() {
            return Err(refusal(&problems));
        }
        let started = Instant::now();
        let written = self.write_all(&changes)?;
        let paths: Vec<String> = changes.iter().map(|c| slash(&c.rel)).collect();
        let commit = match &self.git {
            Some(git) => match git.commit(&paths, message, &author).await {
                Ok(id) => Some(id),
                Err(e) => {
                    self.restore(&changes, &before, written);
                    return Err(AppError::Internal(e));
                }
            },
            None => None,
        };
        let commit_ms = started.elapsed().as_millis() as u64;
        for c in &changes {
            self.remember(session, &slash(&c.rel), c.bytes.as_deref().map(sha256));
        }
        tracing::info!(files = paths.len(), check_ms, commit_ms, "content saved");
        let pending = self.push_now().await;
        Ok(Saved {
            message: if pending {
                "Saved; publishing is pending (the push will be retried)".into()
            } else {
                "Saved".into()
            },
            commit,
            pending,
            check_ms,
            commit_ms,
        })
    }

    /// The page the site would show with `path`'s text replaced by `raw`, rendered by the
    /// generator with the site's theme (the editor's preview): the page made from that file, or
    /// else the page at `url`. Nothing is written; what `site check` would refuse comes back as
    /// the save's refusal would.
    pub async fn preview(
        &self,
        path: &str,
        raw: String,
        url: Option<String>,
    ) -> Result<check::Page, AppError> {
        let (rel, kind) = paths::parse(path)?;
        if matches!(kind, Kind::Image(_)) {
            return Err(AppError::field("path", "an image has no page to preview"));
        }
        let bytes = raw.into_bytes();
        paths::check_bytes(path, kind, &bytes)?;
        let change = Change {
            rel,
            bytes: Some(bytes),
        };
        let root = self.root().to_path_buf();
        let started = Instant::now();
        let rendered =
            tokio::task::spawn_blocking(move || check::preview(&root, &change, url.as_deref()))
                .await
                .map_err(|e| AppError::Internal(e.into()))??;
        tracing::debug!(ms = started.elapsed().as_millis() as u64, "content preview");
        match rendered {
            Ok(Some(page)) => Ok(page),
            Ok(None) => Err(AppError::NotFound(
                "No page of the site shows this entry yet: save it, then open the site".into(),
            )),
            Err(problems) => Err(refusal(&problems)),
        }
    }

    /// Writes every change (a temporary file beside it, then a rename; a deletion removes
    /// it), returning how many were done. On a failure the done ones are undone.
    fn write_all(&self, changes: &[Change]) -> Result<usize, AppError> {
        for (i, c) in changes.iter().enumerate() {
            if let Err(e) = self.write_one(&c.rel, c.bytes.as_deref()) {
                tracing::error!(error = %e, "a content file could not be written");
                return Err(AppError::Internal(e));
            }
            let _ = i;
        }
        Ok(changes.len())
    }

    fn write_one(&self, rel: &Path, bytes: Option<&[u8]>) -> anyhow::Result<()> {
        let full = paths::resolve(self.root(), rel).map_err(|e| anyhow::anyhow!("{e}"))?;
        match bytes {
            None => match std::fs::remove_file(&full) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
                _ => Ok(()),
            },
            Some(bytes) => {
                let dir = full.parent().context("a file has a folder")?;
                std::fs::create_dir_all(dir)?;
                // The new folders are real ones: check no link appeared on the way.
                paths::resolve(self.root(), rel).map_err(|e| anyhow::anyhow!("{e}"))?;
                let temp = dir.join(format!(
                    ".{}.editor-{}-{}.tmp",
                    full.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
                    std::process::id(),
                    self.temps.fetch_add(1, Ordering::Relaxed)
                ));
                let result = (|| {
                    use std::io::Write;
                    let mut f = std::fs::File::create(&temp)?;
                    f.write_all(bytes)?;
                    f.sync_all()?;
                    std::fs::rename(&temp, &full)
                })();
                if result.is_err() {
                    let _ = std::fs::remove_file(&temp);
                }
                Ok(result?)
            }
        }
    }

    /// Puts back the files of a save whose commit failed.
    fn restore(&self, changes: &[Change], before: &[Option<Vec<u8>>], written: usize) {
        for (c, old) in changes.iter().zip(before).take(written) {
            if let Err(e) = self.write_one(&c.rel, old.as_deref()) {
                tracing::error!(error = %e, "a content file could not be restored");
            }
        }
    }

    /// Pushes when a remote is set; returns whether commits are still pending. Called with
    /// the write lock held.
    async fn push_now(&self) -> bool {
        let Some(git) = self.git.as_ref().filter(|_| self.config.remote.is_some()) else {
            return false;
        };
        let result = git.push().await;
        let mut status = self.status.lock().expect("status lock");
        match result {
            Ok(()) => {
                status.pending = false;
                status.last_error = None;
            }
            Err(e) => {
                let text = git.scrub(&format!("{e:#}"));
                tracing::warn!(error = %text, "the content push failed; it will be retried");
                status.pending = true;
                status.last_error = Some(text);
            }
        }
        status.pending
    }

    /// Tries a pending push again (the retry loop, and tests).
    pub async fn retry_push(&self) -> PushStatus {
        if self.status().pending {
            let _turn = self.write.lock().await;
            self.push_now().await;
        }
        self.status()
    }

    /// Retries a pending push every 30 s until `shutdown`.
    pub async fn run_retries(self: Arc<Self>, shutdown: CancellationToken) {
        loop {
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = tokio::time::sleep(RETRY_EVERY) => {
                    self.retry_push().await;
                }
            }
        }
    }
}

/// What `site check` refused, as the one error shape: the command's message, and each problem
/// under its file.
fn refusal(problems: &[generator::diagnostics::Diagnostic]) -> AppError {
    let mut fields = std::collections::BTreeMap::new();
    for d in problems {
        fields
            .entry(slash(&d.file))
            .or_insert_with(|| d.to_string());
    }
    AppError::Validation {
        message: check::message(problems),
        fields,
    }
}

fn walk(dir: &Path, rel: &Path, depth: u32, out: &mut Vec<String>) {
    if depth == 0 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('.') {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let child = rel.join(name);
        if kind.is_dir() {
            walk(&entry.path(), &child, depth - 1, out);
        } else if kind.is_file() {
            out.push(slash(&child));
        }
    }
}
