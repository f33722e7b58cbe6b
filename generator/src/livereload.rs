//! `site serve`'s edit loop: a watcher polls `content/`, `themes/` and `islands/src/` (every
//! 100 ms: no debounce longer than that, and no dependency on platform file events), rebuilds
//! when something changed, and tells open browsers over Server-Sent Events to reload.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime};

use walkdir::WalkDir;

/// The build generation browsers wait on.
#[derive(Default)]
pub struct Reloader {
    generation: Mutex<u64>,
    changed: Condvar,
}

impl Reloader {
    pub fn generation(&self) -> u64 {
        *self.generation.lock().expect("reloader lock")
    }

    pub fn bump(&self) {
        *self.generation.lock().expect("reloader lock") += 1;
        self.changed.notify_all();
    }

    /// Waits until the generation passes `seen` or `timeout` elapses; returns the current one.
    pub fn wait_past(&self, seen: u64, timeout: Duration) -> u64 {
        let guard = self.generation.lock().expect("reloader lock");
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, timeout, |g| *g <= seen)
            .expect("reloader lock");
        *guard
    }
}

/// What the watched trees look like: the newest modification and the number of files (so a
/// deleted file counts as a change too).
fn fingerprint(dirs: &[PathBuf]) -> (Option<SystemTime>, usize) {
    let mut newest = None;
    let mut count = 0;
    for dir in dirs {
        for entry in WalkDir::new(dir)
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file())
        {
            count += 1;
            if let Some(t) = entry.metadata().ok().and_then(|m| m.modified().ok()) {
                newest = newest.max(Some(t));
            }
        }
    }
    (newest, count)
}

/// Watches `root`'s sources until the process ends; `rebuild` runs after each change.
pub fn watch(root: &Path, reloader: Arc<Reloader>, rebuild: impl Fn() -> Result<String, String>) {
    let dirs: Vec<PathBuf> = ["content", "themes", "islands/src"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    let mut last = fingerprint(&dirs);
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let now = fingerprint(&dirs);
        if now == last {
            continue;
        }
        last = now;
        let started = Instant::now();
        match rebuild() {
            Ok(summary) => {
                println!("rebuilt in {} ms: {summary}", started.elapsed().as_millis());
                reloader.bump();
            }
            // Keep serving the last good build; the error says what to fix.
            Err(e) => eprintln!("rebuild failed (still serving the last good build):\n{e}"),
        }
    }
}

/// The script every served page loads in development: reload when the build changes.
pub const CLIENT_JS: &str =
    "new EventSource('/__livereload').onmessage = () => location.reload();\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_browsers_wake_when_the_generation_moves() {
        let r = Arc::new(Reloader::default());
        let waiter = {
            let r = r.clone();
            std::thread::spawn(move || r.wait_past(0, Duration::from_secs(5)))
        };
        std::thread::sleep(Duration::from_millis(50));
        r.bump();
        assert_eq!(waiter.join().unwrap(), 1);
        assert_eq!(
            r.wait_past(1, Duration::from_millis(10)),
            1,
            "times out without a change"
        );
    }

    #[test]
    fn a_new_deleted_or_edited_file_changes_the_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        let dirs = vec![dir.path().to_path_buf()];
        let empty = fingerprint(&dirs);
        std::fs::write(dir.path().join("a.md"), "a").unwrap();
        let one = fingerprint(&dirs);
        assert_ne!(empty, one);
        std::fs::remove_file(dir.path().join("a.md")).unwrap();
        assert_eq!(fingerprint(&dirs).1, 0);
    }
}
