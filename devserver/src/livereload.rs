//! `devserver`'s edit loop: file events from `content/`, `themes/` and `islands/src/` (the
//! `notify` crate: inotify, FSEvents or ReadDirectoryChanges), debounced for a few milliseconds
//! so an editor's save of several files is one rebuild, and a message to open browsers over
//! Server-Sent Events. Nothing runs while nobody edits: the thread sleeps in the kernel.
//!
//! The debounce is the loop below rather than `notify-debouncer-mini` or `-full`: mini cannot
//! tell reads from writes (inotify reports every open, so a rebuild reading the sources would
//! start the next rebuild), and full wakes every quarter of its timeout even when idle.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use notify::{Event, EventKind, RecursiveMode, Watcher};
use tokio::sync::watch;

/// The folders whose edits change the site.
pub const WATCHED: [&str; 3] = ["content", "themes", "islands/src"];

/// How long the sources must be quiet before a burst of changes is rebuilt. Editors write a file in a few
/// milliseconds (often as a temporary file renamed over the old one); 20 ms joins those writes
/// into one rebuild without adding noticeably to edit → reload.
pub const DEBOUNCE: Duration = Duration::from_millis(20);

/// The build generation browsers wait on.
pub struct Reloader {
    generation: watch::Sender<u64>,
}

impl Default for Reloader {
    fn default() -> Self {
        Reloader {
            generation: watch::channel(0).0,
        }
    }
}

impl Reloader {
    pub fn generation(&self) -> u64 {
        *self.generation.borrow()
    }

    /// A new build is being served: every waiting browser reloads.
    pub fn bump(&self) {
        self.generation.send_modify(|g| *g += 1);
    }

    /// Resolves when the generation moves past `seen`, the one the browser's page was served
    /// with: at once if a rebuild landed between serving the page and the browser's asking
    /// (a save while the page loads would otherwise be missed). Without `seen`, on the next
    /// rebuild.
    pub fn change_after(&self, seen: Option<u64>) -> impl Future<Output = ()> + Send + use<> {
        let mut rx = self.generation.subscribe();
        let missed = seen.is_some_and(|g| g != *rx.borrow());
        async move {
            if missed {
                return;
            }
            if rx.changed().await.is_err() {
                // The reloader is gone (the server is stopping): never ask for a reload.
                std::future::pending::<()>().await;
            }
        }
    }
}

/// Files an editor writes beside the real one (swap, backup and lock files): not site changes.
fn is_editor_scratch(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with(".#")
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name == "4913" // vim's probe of whether it may write in the folder
}

/// The paths an event changed; none for a read, which inotify reports too.
fn written_paths(event: notify::Result<Event>) -> Vec<PathBuf> {
    match event {
        Ok(event) if matches!(event.kind, EventKind::Access(_)) => Vec::new(),
        Ok(event) => event.paths,
        Err(e) => {
            eprintln!("warning: watching the sources: {e}");
            Vec::new()
        }
    }
}

/// The changed paths of one burst of events, sorted and without duplicates or editor scratch.
fn changed_paths(events: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = events
        .into_iter()
        .filter(|p| !is_editor_scratch(p))
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// The sources under watch. Made before the server says it is serving, so an edit saved as
/// soon as the first page shows is seen; [`Sources::rebuild_on_change`] then waits for edits.
pub struct Sources {
    root: PathBuf,
    events: mpsc::Receiver<notify::Result<Event>>,
    // Dropping the watcher ends the watch.
    _watcher: notify::RecommendedWatcher,
}

impl Sources {
    /// Starts watching `root`'s [`WATCHED`] folders. Fails only when the watch cannot start
    /// (e.g. the system's inotify limit is reached).
    pub fn watch(root: &Path) -> anyhow::Result<Sources> {
        // Events name absolute paths under the canonical root.
        let root = root.canonicalize()?;
        let (tx, events) = mpsc::channel::<notify::Result<Event>>();
        let mut watcher = notify::recommended_watcher(tx)?;
        for dir in WATCHED.iter().map(|d| root.join(d)).filter(|d| d.is_dir()) {
            watcher
                .watch(&dir, RecursiveMode::Recursive)
                .map_err(|e| anyhow::anyhow!("cannot watch {}: {e}", dir.display()))?;
        }
        Ok(Sources {
            root,
            events,
            _watcher: watcher,
        })
    }

    /// Blocks until the process ends. After each burst of changes, `rebuild` gets the changed
    /// paths (absolute, under the canonical root) and returns a one-line summary, or what to
    /// fix; browsers reload after a good rebuild only, so they keep showing the last good build.
    ///
    /// `rebuild` is the one place where a change becomes a new site: `devserver` passes
    /// `LiveSite::apply`, which re-renders only the pages the changed paths can show.
    pub fn rebuild_on_change(
        self,
        reloader: &Reloader,
        mut rebuild: impl FnMut(&[PathBuf]) -> Result<String, String>,
    ) {
        let (root, rx) = (&self.root, &self.events);
        // Blocks here, using no CPU, until something changes.
        while let Ok(first) = rx.recv() {
            let mut paths = written_paths(first);
            if paths.is_empty() {
                continue; // a read (the rebuild itself opens every source)
            }
            // The burst goes on until the sources have been quiet for DEBOUNCE; changes that
            // arrived while the last rebuild ran are already queued and join it.
            loop {
                match rx.recv_timeout(DEBOUNCE) {
                    Ok(event) => paths.extend(written_paths(event)),
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            let paths = changed_paths(paths);
            if paths.is_empty() {
                continue;
            }
            let started = Instant::now();
            match rebuild(&paths) {
                Ok(summary) => {
                    println!(
                        "rebuilt in {} ms after {}: {summary}",
                        started.elapsed().as_millis(),
                        describe(root, &paths)
                    );
                    reloader.bump();
                }
                // Keep serving the last good build; the error says what to fix.
                Err(e) => eprintln!("rebuild failed (still serving the last good build):\n{e}"),
            }
        }
    }
}

/// `content/blog/a.md`, or `content/blog/a.md and 2 more`.
fn describe(root: &Path, paths: &[PathBuf]) -> String {
    let first = paths[0].strip_prefix(root).unwrap_or(&paths[0]).display();
    match paths.len() {
        1 => first.to_string(),
        n => format!("{first} and {} more", n - 1),
    }
}

/// The script every served page loads in development, as `/__livereload.js?since=<generation
/// the page was served with>`: reload when the build moves past it.
pub const CLIENT_JS: &str = "const since = new URL(import.meta.url).searchParams.get('since') ?? '';\n\
    new EventSource('/__livereload?since=' + since).onmessage = () => location.reload();\n";

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn waiting_browsers_wake_when_the_generation_moves() {
        let r = Arc::new(Reloader::default());
        let waiting = tokio::spawn(r.change_after(Some(0)));
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "no change yet");
        r.bump();
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("woken by the bump")
            .unwrap();
        assert_eq!(r.generation(), 1);
        let current = r.change_after(Some(1));
        assert!(
            tokio::time::timeout(Duration::from_millis(20), current)
                .await
                .is_err(),
            "a page served by this build waits for the next one"
        );
        // The page was served by build 0; its browser asks only after build 1 landed.
        tokio::time::timeout(Duration::from_millis(20), r.change_after(Some(0)))
            .await
            .expect("a page older than the build reloads at once");
    }

    #[test]
    fn an_edit_a_new_file_and_a_deletion_each_rebuild_with_their_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let blog = root.join("content/blog");
        std::fs::create_dir_all(&blog).unwrap();
        std::fs::write(blog.join("a.md"), "a").unwrap();
        let reloader = Arc::new(Reloader::default());
        let (tx, rx) = mpsc::channel::<Vec<PathBuf>>();
        let sources = Sources::watch(&root).unwrap();
        {
            let reloader = reloader.clone();
            std::thread::spawn(move || {
                sources.rebuild_on_change(&reloader, |paths| {
                    tx.send(paths.to_vec()).unwrap();
                    Ok("ok".into())
                })
            });
        }
        // Waits for a rebuild that names `path` (a burst may also name its folder).
        let rebuilt_with = |path: PathBuf| loop {
            let paths = rx.recv_timeout(Duration::from_secs(5)).expect("a rebuild");
            assert!(paths.iter().all(|p| !is_editor_scratch(p)), "{paths:?}");
            if paths.contains(&path) {
                break;
            }
        };
        std::fs::write(blog.join("a.md"), "edited").unwrap();
        rebuilt_with(blog.join("a.md"));
        std::fs::write(blog.join(".b.md.swp"), "scratch").unwrap();
        std::fs::write(blog.join("b.md"), "new").unwrap();
        rebuilt_with(blog.join("b.md"));
        std::fs::remove_file(blog.join("a.md")).unwrap();
        rebuilt_with(blog.join("a.md"));
        // The watcher moves the generation just after the rebuild reported its paths.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while reloader.generation() < 3 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            reloader.generation() >= 3,
            "each good rebuild reloads browsers"
        );
    }

    #[test]
    fn editor_scratch_files_are_not_changes() {
        let paths = changed_paths(
            [
                "post.md",
                ".post.md.swp",
                "post.md~",
                ".#post.md",
                "post.md",
                "4913",
            ]
            .map(PathBuf::from),
        );
        assert_eq!(paths, vec![PathBuf::from("post.md")]);
    }
}
