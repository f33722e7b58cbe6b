//! A site with only its required files: every list page shows its empty state, and the CLI
//! behaves as an editor expects (`new`, `check`, `build`).

mod common;

use std::process::Command;

use common::TestSite;
use generator::{scaffold, site};

fn page(built: &site::Site, route: &str) -> String {
    built
        .pages
        .iter()
        .find(|p| p.path == route)
        .unwrap_or_else(|| panic!("{route}"))
        .html
        .replace("&#x2F;", "/")
}

#[test]
fn empty_lists_show_the_spec_empty_states() {
    let s = TestSite::new(None);
    let built = site::generate(&s.options()).unwrap();
    let events = page(&built, "/events");
    assert!(
        events.contains("No Events Scheduled")
            && events.contains("Get Notified")
            && events.contains("href=\"/contact\"")
    );
    assert!(
        page(&built, "/faq").contains("No FAQs available at the moment. Please check back later.")
    );
    assert!(page(&built, "/videos").contains("Unable to load videos. Please try again later."));
    assert!(
        !page(&built, "/").contains("data-carousel"),
        "the logo carousel is hidden with no logos"
    );
    assert!(page(&built, "/about").contains("Page Not Found"));
}

#[test]
fn a_single_faq_category_shows_no_category_heading() {
    let s = TestSite::new(None);
    s.write(
        "content/faqs.yaml",
        "- question: How long is a session?\n  answer: 60 to 90 minutes.\n  category: Sessions\n",
    );
    let faq = page(&site::generate(&s.options()).unwrap(), "/faq");
    assert!(faq.contains("How long is a session?"));
    assert!(!faq.contains(">Sessions<"), "one category: no heading");
    s.write(
        "content/faqs.yaml",
        "- question: How long is a session?\n  answer: 60 to 90 minutes.\n  category: Sessions\n- question: Do you take cards?\n  answer: Yes.\n",
    );
    let faq = page(&site::generate(&s.options()).unwrap(), "/faq");
    assert!(
        faq.contains("Sessions") && faq.contains("General"),
        "the default category is General"
    );
}

#[test]
fn every_scaffold_builds_and_stays_a_draft_until_published() {
    let s = TestSite::new(None);
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 21).unwrap();
    for (kind, title) in [
        (scaffold::Kind::Blog, "Leading Through Change"),
        (scaffold::Kind::Resource, "Feedback Toolkit"),
        (scaffold::Kind::Service, "Board Mentoring"),
        (scaffold::Kind::Event, "Spring Masterclass"),
    ] {
        let path = scaffold::new_content(s.root(), kind, title, today).unwrap();
        assert!(path.is_file());
        assert!(
            scaffold::new_content(s.root(), kind, title, today).is_err(),
            "never overwrites"
        );
    }
    let built = site::generate(&s.options()).expect("scaffolded files are valid content");
    assert!(
        !built
            .pages
            .iter()
            .any(|p| p.path == "/blog/leading-through-change"),
        "new files start as drafts"
    );
    let drafts = site::generate(&site::Options {
        drafts: true,
        ..s.options()
    })
    .unwrap();
    assert!(
        drafts
            .pages
            .iter()
            .any(|p| p.path == "/blog/leading-through-change")
    );
    assert!(
        drafts
            .pages
            .iter()
            .any(|p| p.path == "/services/board-mentoring")
    );
}

#[test]
fn the_cli_exits_non_zero_and_lists_every_problem() {
    let s = TestSite::new(Some("many-errors"));
    let out = Command::new(env!("CARGO_BIN_EXE_site"))
        .args(["--root"])
        .arg(s.root())
        .arg("check")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("found 3 problems"), "{stderr}");
    assert!(stderr.contains("content/blog/first-post.md"), "{stderr}");
    assert!(!s.root().join("public").exists());
}

#[test]
fn the_cli_builds_into_the_chosen_folder_with_the_chosen_base_url() {
    let s = TestSite::new(None);
    let out = Command::new(env!("CARGO_BIN_EXE_site"))
        .arg("--root")
        .arg(s.root())
        .args([
            "build",
            "--out",
            "dist",
            "--base-url",
            "https://preview.example.net",
        ])
        .env_remove("YOUTUBE_API_KEY")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let contact = std::fs::read_to_string(s.root().join("dist/contact/index.html")).unwrap();
    assert!(
        contact
            .replace("&#x2F;", "/")
            .contains("<link rel=\"canonical\" href=\"https://preview.example.net/contact\"")
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("built "), "{stdout}");
}

#[test]
fn with_an_api_origin_the_build_proxies_api_calls_through_netlify() {
    let s = TestSite::new(None);
    let out = s.root().join("public");
    let opts = site::Options {
        api_origin: Some("https://api.example.net/".into()),
        ..s.options()
    };
    site::build(&opts, &out).unwrap();
    let redirects = std::fs::read_to_string(out.join("_redirects")).unwrap();
    assert_eq!(
        redirects,
        "/api/*  https://api.example.net/api/:splat  200!\n"
    );
    site::build(&s.options(), &out).unwrap();
    assert!(!out.join("_redirects").exists(), "no origin, no proxy file");
}
