//! How long the coach's editor takes to save (issue 25's budget: under 300 ms, `site check`
//! and the commit included), on the demo content:
//!
//! ```sh
//! cargo run --release -p api --example content_save [-- SAVES]
//! ```
//!
//! Copies `content/` and `themes/` into a temporary git repository (the photos' WebP cache of
//! the project's `.cache/` linked, as a working copy keeps its own), then saves a blog post's
//! title SAVES times (default 20) through `ContentEditor::save`, as the protocol's
//! `persistEntry` does, and prints each phase's median and the slowest.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use api::configuration::ContentRepoConfig;
use api::content_editor::git::Author;
use api::content_editor::{ContentEditor, Write};

const POST: &str = "content/blog/leading-through-economic-uncertainty.md";

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=Seed", "-c", "user.email=seed@example.com"])
        .args(args)
        .status()
        .expect("git runs")
        .success();
    assert!(ok, "git {args:?}");
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let saves: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(20);
    let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = std::env::temp_dir().join(format!("content-save-{}", std::process::id()));
    copy_tree(&project.join("content"), &dir.join("content"));
    copy_tree(&project.join("themes"), &dir.join("themes"));
    std::fs::write(dir.join(".gitignore"), "/.cache\n")?;
    std::fs::create_dir_all(project.join(".cache"))?;
    std::os::unix::fs::symlink(project.join(".cache").canonicalize()?, dir.join(".cache"))?;
    git(&dir, &["init", "-q", "-b", "main"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "the site"]);

    let editor = ContentEditor::open(ContentRepoConfig {
        repo: dir.clone(),
        branch: "main".into(),
        remote: None,
        ssh_key: None,
        token: None,
        commit: true,
    })
    .await?;
    let session = "measure";
    let raw = editor
        .entries(session, vec![(POST.to_string(), None)])
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .pop()
        .and_then(|e| e.data)
        .expect("the post");
    let (mut check, mut commit, mut total) = (Vec::new(), Vec::new(), Vec::new());
    // The first save fills the image cache when the project has none: not counted.
    for i in 0..=saves {
        let text = raw.replacen("title: \"", &format!("title: \"({i}) "), 1);
        let started = Instant::now();
        let saved = editor
            .save(
                session,
                Author {
                    name: "Nadine Kamel",
                    email: "nadine@example.com",
                },
                vec![Write {
                    path: POST.into(),
                    bytes: Some(text.into_bytes()),
                }],
                &format!("Edit {i}"),
            )
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let elapsed = started.elapsed().as_millis() as u64;
        if i > 0 {
            check.push(saved.check_ms);
            commit.push(saved.commit_ms);
            total.push(elapsed);
        }
    }
    let max = *total.iter().max().unwrap();
    println!(
        "{saves} saves of {POST}: site check median {} ms, write + commit median {} ms, whole save median {} ms (slowest {max} ms)",
        median(&mut check),
        median(&mut commit),
        median(&mut total),
    );
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
