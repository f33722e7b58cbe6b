//! Times `LiveSite`: the start-up (load, validate, render and write everything) and
//! `apply()` for a one-post edit, alone (no watcher, no HTTP). Used by bench/site.sh.
//!
//!   cargo run --release -p generator --example live_apply -- \
//!     --root DIR --out DIR --file content/blog/SOME-POST.md [--edits 15]

use std::path::PathBuf;
use std::time::Instant;

use generator::site::{LiveSite, Options};

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() -> anyhow::Result<()> {
    let root = PathBuf::from(arg("--root").expect("--root DIR"));
    let out = PathBuf::from(arg("--out").expect("--out DIR"));
    let file = PathBuf::from(arg("--file").expect("--file content/blog/….md"));
    let edits: usize = arg("--edits").map_or(15, |n| n.parse().expect("--edits N"));
    let opts = Options {
        fetch_videos: false,
        ..Options::new(&root)
    };
    let started = Instant::now();
    let (mut live, report) = LiveSite::load(opts, &out)?;
    println!(
        "start-up: {} pages in {} ms",
        report.pages,
        started.elapsed().as_millis()
    );
    let path = root.join(&file);
    let original = std::fs::read_to_string(&path)?;
    let mut times = Vec::new();
    for i in 0..edits {
        std::fs::write(
            &path,
            format!("{original}\n\nEdit number {i} of the benchmark.\n"),
        )?;
        let t = Instant::now();
        let summary = live.apply(std::slice::from_ref(&file))?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        if i == 0 {
            println!("first apply: {summary}");
        }
    }
    std::fs::write(&path, &original)?;
    live.apply(std::slice::from_ref(&file))?;
    times.sort_by(f64::total_cmp);
    println!(
        "apply() one-post edit: median {:.1} ms, min {:.1}, max {:.1} over {} edits",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
        times.len()
    );
    Ok(())
}
