//! `site build` refuses what would ship broken: Netlify runs it, so a broken internal link or
//! anchor, a symbolic link loop or an unreadable entry fails the build (and publishes nothing,
//! leaving the last good output as it was),
//! and an oversized content file is named in a warning.

mod common;

use std::process::{Command, Output};

use common::TestSite;

fn build(site: &TestSite) -> Output {
    site_command(site, "build")
}

fn site_command(site: &TestSite, command: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_site"))
        .arg("--root")
        .arg(site.root())
        .arg(command)
        .env_remove("YOUTUBE_API_KEY")
        .env_remove("API_ORIGIN")
        .output()
        .unwrap()
}

/// Nothing under the root but the sources: no output, staging or previous folder.
fn wrote_nothing(site: &TestSite) -> bool {
    ["public", ".public.staging", ".public.previous"]
        .iter()
        .all(|d| !site.root().join(d).exists())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const POST: &str = "---\ntitle: Second Post\ncategory: Leadership\ncreated_at: 2026-01-11\n---\n\n";

#[test]
fn a_broken_link_or_anchor_fails_the_build_with_its_page_and_writes_nothing() {
    let s = TestSite::new(Some("broken-link"));
    let out = build(&s);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("found 2 problems"), "{err}");
    assert!(
        err.contains("content/blog/first-post.md")
            && err.contains("`/programmes` on /blog/first-post leads nowhere"),
        "{err}"
    );
    assert!(err.contains("/faq#no-such-question"), "{err}");
    assert!(!s.root().join("public").exists(), "nothing is published");
}

#[test]
fn the_same_site_with_its_links_fixed_builds() {
    let s = TestSite::new(Some("broken-link"));
    s.write(
        "content/blog/first-post.md",
        &format!("{POST}See [the home page](/)."),
    );
    let out = build(&s);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(s.root().join("public/blog/first-post/index.html").exists());
}

#[test]
fn a_failed_rebuild_leaves_the_last_good_site_as_it_was() {
    let s = TestSite::new(Some("broken-link"));
    let post = "content/blog/first-post.md";
    s.write(post, &format!("{POST}See [the home page](/)."));
    assert!(build(&s).status.success());
    let page = s.root().join("public/blog/first-post/index.html");
    let good = std::fs::read_to_string(&page).unwrap();

    s.write(post, &format!("{POST}See [our programmes](/programmes)."));
    let out = build(&s);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&page).unwrap(),
        good,
        "the published page is the last good one"
    );
    let leftovers: Vec<_> = std::fs::read_dir(s.root())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".public"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "no staging folder is left: {leftovers:?}"
    );

    // Fixed again, the next build replaces the output, and a page that is gone goes with it.
    s.write(post, &format!("{POST}See [the home page](/) again."));
    std::fs::write(s.root().join("public/stale.html"), "old").unwrap();
    assert!(build(&s).status.success());
    assert!(std::fs::read_to_string(&page).unwrap().contains("again"));
    assert!(!s.root().join("public/stale.html").exists());
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_loop_in_content_fails_the_build_naming_it() {
    let s = TestSite::new(None);
    s.write("content/blog/first-post.md", &format!("{POST}Hello."));
    let blog = s.root().join("content/blog");
    std::os::unix::fs::symlink(blog.join("b.md"), blog.join("a.md")).unwrap();
    std::os::unix::fs::symlink(blog.join("a.md"), blog.join("b.md")).unwrap();
    let out = build(&s);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("content/blog/a.md"), "{err}");
    assert!(err.contains("content/blog/b.md"), "{err}");
    assert!(err.to_lowercase().contains("symbolic link"), "{err}");
    assert!(!s.root().join("public").exists());
}

#[cfg(unix)]
#[test]
fn a_link_to_nothing_is_an_unreadable_entry_named_in_the_error() {
    let s = TestSite::new(None);
    std::fs::create_dir_all(s.root().join("content/resources")).unwrap();
    std::os::unix::fs::symlink(
        s.root().join("elsewhere/guide.md"),
        s.root().join("content/resources/guide.md"),
    )
    .unwrap();
    let out = build(&s);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("content/resources/guide.md: cannot read the file"),
        "{err}"
    );
}

#[test]
fn an_oversized_content_file_builds_with_a_warning_naming_it() {
    let s = TestSite::new(None);
    let paragraph = "A long paragraph of words that goes on. ".repeat(30);
    let body = format!("{paragraph}\n\n").repeat(1_000); // about 1.2 MB
    assert!(body.len() as u64 > generator::content::MAX_MARKDOWN_BYTES);
    s.write("content/blog/huge.md", &format!("{POST}{body}"));
    s.write("content/blog/small.md", &format!("{POST}Short."));
    let out = build(&s);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: content/blog/huge.md is 1.2 MB, over the 1 MB"),
        "{err}"
    );
    assert!(!err.contains("small.md"), "{err}");
    assert!(s.root().join("public/blog/huge/index.html").exists());
}

#[test]
fn check_is_the_build_with_nothing_written_same_problems_same_exit() {
    let s = TestSite::new(Some("broken-link"));
    let (checked, built) = (site_command(&s, "check"), build(&s));
    assert_eq!(checked.status.code(), Some(1), "{}", stderr(&checked));
    assert_eq!(
        stderr(&checked),
        stderr(&built),
        "check reports what the build refuses"
    );
    assert!(wrote_nothing(&s));
}

#[test]
fn check_counts_the_pages_the_build_writes_and_writes_nothing() {
    let s = TestSite::new(None);
    let checked = site_command(&s, "check");
    assert!(checked.status.success(), "{}", stderr(&checked));
    assert!(wrote_nothing(&s), "site check writes nothing");
    let stdout = String::from_utf8_lossy(&checked.stdout).into_owned();
    let pages = stdout
        .strip_prefix("ok: ")
        .and_then(|r| r.split_once(" pages, every internal link resolves"))
        .map(|(n, _)| n.to_string())
        .unwrap_or_else(|| panic!("{stdout}"));
    let built = build(&s);
    let built = String::from_utf8_lossy(&built.stdout).into_owned();
    assert!(
        built.contains(&format!("built {pages} pages and ")),
        "check: {stdout}; build: {built}"
    );
}
