//! `LiveSite`: after an edit, a delete or a rename the output on disk is exactly what a clean
//! build of the changed content writes, and pages the change cannot show are not rewritten.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::TestSite;
use generator::site::{self, LiveSite};
use walkdir::WalkDir;

fn post(title: &str, date: &str, body: &str) -> String {
    format!("---\ntitle: \"{title}\"\ncategory: \"Leadership\"\ncreated_at: {date}\n---\n{body}\n")
}

struct Live {
    site: TestSite,
    out: PathBuf,
    live: LiveSite,
}

/// The minimal site with three posts, loaded and written.
fn live() -> Live {
    let site = TestSite::new(None);
    site.write(
        "content/blog/alpha.md",
        &post("Alpha Post", "2026-01-01", "Alpha body."),
    );
    site.write(
        "content/blog/beta.md",
        &post("Beta Post", "2026-02-01", "Beta body."),
    );
    site.write(
        "content/blog/gamma.md",
        &post("Gamma Post", "2026-03-01", "Gamma body."),
    );
    let out = site.root().join("public");
    let (live, report) = LiveSite::load(site.options(), &out).unwrap();
    assert!(report.pages > 3);
    Live { site, out, live }
}

fn read(out: &Path, rel: &str) -> String {
    fs::read_to_string(out.join(rel)).unwrap_or_else(|_| panic!("{rel} should exist"))
}

/// Every file under `dir`, by relative path, with its bytes.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            (rel, fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// What the live output must equal: a clean build of the content as it is now.
#[track_caller]
fn assert_same_as_clean_build(l: &Live) {
    let clean = l.site.root().join("clean");
    site::build(&l.site.options(), &clean).unwrap();
    let (live, clean) = (tree(&l.out), tree(&clean));
    let names = |t: &[(String, Vec<u8>)]| t.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&live), names(&clean), "the same files");
    for ((name, a), (_, b)) in live.iter().zip(&clean) {
        assert!(a == b, "{name} differs from a clean build");
    }
}

/// Overwrites an output file behind the site's back: if a later change rewrites it, the
/// marker is gone.
fn mark(out: &Path, rel: &str) {
    fs::write(out.join(rel), "untouched").unwrap();
}

#[test]
fn an_edit_shows_in_its_page_the_listing_and_the_feed_and_nothing_else_is_rewritten() {
    let mut l = live();
    mark(&l.out, "blog/beta/index.html");
    mark(&l.out, "about/index.html");
    l.site.write(
        "content/blog/alpha.md",
        &post("Alpha Post Renamed", "2026-01-01", "A brand new paragraph."),
    );
    let summary = l
        .live
        .apply(&[PathBuf::from("content/blog/alpha.md")])
        .unwrap();
    assert!(summary.starts_with("content/blog/alpha.md:"), "{summary}");

    assert!(read(&l.out, "blog/alpha/index.html").contains("A brand new paragraph."));
    assert!(read(&l.out, "resources/index.html").contains("Alpha Post Renamed"));
    assert!(read(&l.out, "blog/atom.xml").contains("Alpha Post Renamed"));
    assert_eq!(
        read(&l.out, "blog/beta/index.html"),
        "untouched",
        "another post was rewritten"
    );
    // The about page shows no post and its bytes did not change: not rewritten either.
    assert_eq!(read(&l.out, "about/index.html"), "untouched");
}

#[test]
fn a_deleted_post_disappears_from_its_page_the_listing_and_the_sitemap() {
    let mut l = live();
    fs::remove_file(l.site.root().join("content/blog/gamma.md")).unwrap();
    l.live
        .apply(&[l.site.root().join("content/blog/gamma.md")])
        .unwrap();
    assert!(!l.out.join("blog/gamma").exists());
    assert!(!read(&l.out, "resources/index.html").contains("Gamma Post"));
    assert!(!read(&l.out, "sitemap.xml").contains("/blog/gamma"));
    assert!(!read(&l.out, "blog/atom.xml").contains("Gamma Post"));
    assert_same_as_clean_build(&l);
}

#[test]
fn a_renamed_post_moves_in_the_output_listing_and_sitemap() {
    let mut l = live();
    let (old, new) = ("content/blog/beta.md", "content/blog/beta-moved.md");
    fs::rename(l.site.root().join(old), l.site.root().join(new)).unwrap();
    l.live
        .apply(&[PathBuf::from(old), PathBuf::from(new)])
        .unwrap();
    assert!(!l.out.join("blog/beta").exists());
    assert!(read(&l.out, "blog/beta-moved/index.html").contains("Beta body."));
    let listing = read(&l.out, "resources/index.html");
    assert!(
        listing.contains("href=\"/blog/beta-moved\"")
            || listing.contains("&#x2F;blog&#x2F;beta-moved")
    );
    let sitemap = read(&l.out, "sitemap.xml");
    assert!(sitemap.contains("/blog/beta-moved<") && !sitemap.contains("/blog/beta<"));
    assert_same_as_clean_build(&l);
}

#[test]
fn a_new_and_an_unpublished_post_match_a_clean_build() {
    let mut l = live();
    l.site.write(
        "content/blog/delta.md",
        &post("Delta Post", "2026-04-01", "Delta body."),
    );
    l.site.write(
        "content/blog/alpha.md",
        "---\ntitle: \"Alpha Post\"\ncategory: \"Leadership\"\ncreated_at: 2026-01-01\nis_published: false\n---\nAlpha body.\n",
    );
    l.live
        .apply(&[
            PathBuf::from("content/blog/delta.md"),
            PathBuf::from("content/blog/alpha.md"),
        ])
        .unwrap();
    assert!(read(&l.out, "resources/index.html").contains("Delta Post"));
    assert!(
        !l.out.join("blog/alpha").exists(),
        "an unpublished post leaves the output"
    );
    assert_same_as_clean_build(&l);
}

#[test]
fn an_invalid_edit_is_reported_and_the_last_good_site_stays() {
    let mut l = live();
    let before = tree(&l.out);
    l.site
        .write("content/blog/alpha.md", "no front matter at all\n");
    let err = l
        .live
        .apply(&[PathBuf::from("content/blog/alpha.md")])
        .unwrap_err()
        .to_string();
    assert!(err.contains("content/blog/alpha.md"), "{err}");
    assert!(tree(&l.out) == before, "nothing was written");

    // Fixing the file brings the edit through.
    l.site.write(
        "content/blog/alpha.md",
        &post("Alpha Fixed", "2026-01-01", "Fixed."),
    );
    l.live
        .apply(&[PathBuf::from("content/blog/alpha.md")])
        .unwrap();
    assert!(read(&l.out, "blog/alpha/index.html").contains("Alpha Fixed"));
    assert_same_as_clean_build(&l);
}

#[test]
fn a_settings_or_template_edit_rerenders_every_page_that_uses_it() {
    let mut l = live();
    let settings = l.site.root().join("content/settings.yaml");
    let text = fs::read_to_string(&settings).unwrap();
    let name = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("site_name:"))
        .unwrap()
        .trim()
        .trim_matches('"')
        .to_string();
    fs::write(&settings, text.replace(&name, "Renamed Coaching")).unwrap();
    l.live.apply(&[settings]).unwrap();
    assert!(read(&l.out, "blog/beta/index.html").contains("Renamed Coaching"));
    assert_same_as_clean_build(&l);

    let article = l.site.root().join("themes/default/templates/article.html");
    let text = fs::read_to_string(&article).unwrap();
    fs::write(
        &article,
        text.replace(
            "<article class=\"article\">",
            "<article class=\"article\" data-edited>",
        ),
    )
    .unwrap();
    l.live.apply(&[article]).unwrap();
    assert!(read(&l.out, "blog/beta/index.html").contains("data-edited"));
    assert_same_as_clean_build(&l);
}

#[test]
fn the_feeds_come_from_the_themes_templates_and_a_template_edit_reaches_them() {
    let mut l = live();
    assert!(read(&l.out, "robots.txt").contains("Disallow: /admin"));
    let robots = l
        .site
        .root()
        .join("themes/default/templates/feeds/robots.txt");
    let text = fs::read_to_string(&robots).unwrap();
    fs::write(&robots, format!("{text}Disallow: /drafts-area\n")).unwrap();
    let sitemap = l
        .site
        .root()
        .join("themes/default/templates/feeds/sitemap.xml");
    let text = fs::read_to_string(&sitemap).unwrap();
    fs::write(&sitemap, text.replace("<url>", "<url><!-- theme -->")).unwrap();
    l.live.apply(&[robots, sitemap]).unwrap();
    assert!(read(&l.out, "robots.txt").contains("Disallow: /drafts-area"));
    let listed = read(&l.out, "sitemap.xml");
    assert!(listed.contains("<url><!-- theme --><loc>") && listed.contains("/blog/alpha</loc>"));
    assert_same_as_clean_build(&l);
}
