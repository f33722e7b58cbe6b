//! One broken fixture site per content error: each must be reported with its file, field and
//! a fix, nothing may be written, and nothing may panic.

mod common;

use common::TestSite;
use generator::diagnostics::{Diagnostic, SiteErrors};
use generator::site;

fn problems(overlay: &str) -> Vec<Diagnostic> {
    let site = TestSite::new(Some(overlay));
    let out = site.root().join("public");
    let Err(err) = site::build(&site.options(), &out) else {
        panic!("a broken site must not build")
    };
    assert!(
        !out.exists(),
        "{overlay}: nothing may be written when validation fails"
    );
    let errors = err
        .downcast::<SiteErrors>()
        .expect("content errors, not an I/O failure");
    errors.0
}

fn only(overlay: &str) -> Diagnostic {
    let mut p = problems(overlay);
    assert_eq!(p.len(), 1, "{overlay}: expected one problem, got {p:#?}");
    p.remove(0)
}

#[track_caller]
fn assert_names(d: &Diagnostic, file: &str, field: Option<&str>, message_part: &str) {
    assert_eq!(d.file.to_string_lossy(), file, "{d}");
    assert_eq!(d.field.as_deref(), field, "{d}");
    assert!(
        d.message.contains(message_part),
        "`{}` should mention `{message_part}`",
        d.message
    );
    assert!(d.hint.is_some(), "every problem says how to fix it: {d}");
}

#[test]
fn a_post_without_a_title_names_the_file_the_field_and_the_line() {
    let d = only("missing-title");
    assert_names(
        &d,
        "content/blog/first-post.md",
        Some("title"),
        "missing field",
    );
    assert!(d.hint.as_deref().unwrap().contains("add `title:`"));
}

#[test]
fn a_misspelt_field_is_an_error_not_silently_ignored() {
    let d = only("unknown-field");
    assert_names(
        &d,
        "content/services/coaching-session.md",
        Some("titel"),
        "unknown field",
    );
    assert_eq!(d.line, Some(4), "the line of `titel:` in the file");
}

#[test]
fn a_date_that_is_not_a_date_is_reported() {
    let d = only("bad-date");
    assert_names(
        &d,
        "content/events/leadership-summit.md",
        Some("event_date"),
        "",
    );
    assert_eq!(d.line, Some(3));
}

#[test]
fn an_impossible_event_time_is_reported_with_its_line() {
    let d = only("bad-time");
    assert_names(
        &d,
        "content/events/leadership-summit.md",
        Some("event_time"),
        "`25:99` is not a time",
    );
    assert_eq!(d.line, Some(4));
}

#[test]
fn a_logo_pointing_at_a_missing_file_is_reported() {
    let d = only("missing-logo-file");
    assert_names(
        &d,
        "content/logos.yaml",
        Some("[0].logo_url"),
        "does not exist",
    );
    assert_eq!(d.line, Some(1));
}

#[test]
fn a_video_poster_pointing_at_a_missing_file_is_reported() {
    let d = only("missing-video-poster");
    assert_names(
        &d,
        "content/videos.yaml",
        Some("[0].thumbnail"),
        "does not exist (looked for content/static/videos/k7Qm2Xw9LpE.jpg)",
    );
    // Lists point at the item's first line.
    assert_eq!(d.line, Some(1));
}

#[test]
fn a_rating_out_of_range_names_the_item() {
    let d = only("bad-rating");
    assert_names(
        &d,
        "content/testimonials.yaml",
        Some("[1].rating"),
        "9 stars",
    );
    assert_eq!(d.line, Some(4));
}

#[test]
fn a_price_with_three_decimals_is_refused() {
    let d = only("bad-price");
    assert_names(
        &d,
        "content/packages.yaml",
        Some("[0].price"),
        "more than two decimals",
    );
}

#[test]
fn a_package_id_used_twice_is_refused() {
    let p = problems("duplicate-package");
    assert!(
        p.iter()
            .any(|d| d.field.as_deref() == Some("[1].id") && d.message.contains("used twice")),
        "{p:#?}"
    );
    assert!(
        p.iter().any(|d| d.field.as_deref() == Some("[1].sessions")),
        "the same type and sessions twice: {p:#?}"
    );
}

#[test]
fn a_package_whose_credits_never_last_is_refused() {
    let d = only("bad-validity");
    assert_names(
        &d,
        "content/packages.yaml",
        Some("[0].validity_months"),
        "between 1 and 60 months",
    );
}

#[test]
fn an_unknown_package_type_lists_the_allowed_values() {
    let d = only("bad-package-type");
    assert_names(
        &d,
        "content/packages.yaml",
        Some("[0].package_type"),
        "unknown variant `team`",
    );
    assert!(d.message.contains("individual") && d.message.contains("group"));
}

#[test]
fn a_file_without_front_matter_says_how_to_add_it() {
    let d = only("no-front-matter");
    assert_names(
        &d,
        "content/blog/notes.md",
        None,
        "couldn't find front matter",
    );
    assert!(d.hint.as_deref().unwrap().contains("---"));
}

#[test]
fn a_file_name_that_cannot_be_a_url_is_reported() {
    let d = only("bad-slug");
    assert_names(
        &d,
        "content/blog/My Post.md",
        None,
        "cannot be used in a URL",
    );
}

#[test]
fn broken_yaml_syntax_is_reported_not_panicked_on() {
    let d = only("broken-yaml");
    assert_eq!(d.file.to_string_lossy(), "content/faqs.yaml");
    assert!(d.line.is_some(), "{d}");
}

#[test]
fn every_problem_is_reported_not_only_the_first() {
    let p = problems("many-errors");
    let files: Vec<String> = p
        .iter()
        .map(|d| d.file.to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        files,
        [
            "content/blog/first-post.md",
            "content/services/coaching-session.md",
            "content/testimonials.yaml"
        ],
        "{p:#?}"
    );
    assert_eq!(p[1].field.as_deref(), Some("partner_url"));
}

#[test]
fn a_missing_legal_page_is_reported() {
    let site = TestSite::new(None);
    std::fs::remove_file(site.root().join("content/legal/terms.md")).unwrap();
    let err = site::generate(&site.options()).err().expect("must fail");
    assert_eq!(err.0.len(), 1);
    assert!(err.0[0].message.contains("/terms"));
}

#[test]
fn check_reports_broken_internal_links_and_anchors_in_markdown() {
    let site = TestSite::new(Some("broken-link"));
    let err = site::check(&site.options()).err().expect("check must fail");
    let messages: Vec<&str> = err.0.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(err.0.len(), 2, "{messages:#?}");
    assert!(
        err.0
            .iter()
            .all(|d| d.file.to_string_lossy() == "content/blog/first-post.md")
    );
    assert!(messages.iter().any(|m| m.contains("`/programmes`")));
    assert!(messages.iter().any(|m| m.contains("/faq#no-such-question")));
}

#[test]
fn the_printed_report_lists_file_line_field_and_fix() {
    let site = TestSite::new(Some("bad-time"));
    let err = site::generate(&site.options()).err().unwrap();
    let text = err.to_string();
    assert!(text.contains("found 1 problem:"), "{text}");
    assert!(
        text.contains("content/events/leadership-summit.md:4: field `event_time`"),
        "{text}"
    );
    assert!(text.contains("fix: write a 24-hour local time"), "{text}");
}

#[test]
fn a_page_without_its_title_in_pages_yaml_is_named() {
    let site = TestSite::new(None);
    let pages = site.root().join("content/pages.yaml");
    let text = std::fs::read_to_string(&pages).unwrap();
    let without_contact = text.replace("- route: /contact\n", "- route: /contact-us\n");
    std::fs::write(&pages, without_contact).unwrap();
    let Err(err) = site::build(&site.options(), &site.root().join("public")) else {
        panic!("a page without a title must not build")
    };
    let errors = err.downcast::<SiteErrors>().unwrap().0;
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_names(
        &errors[0],
        "content/pages.yaml",
        None,
        "no title for /contact",
    );
}

#[test]
fn a_title_edited_in_pages_yaml_is_the_pages_heading_and_title() {
    let site = TestSite::new(None);
    let pages = site.root().join("content/pages.yaml");
    let text = std::fs::read_to_string(&pages).unwrap();
    std::fs::write(
        &pages,
        text.replace(
            "title: \"Client Login\"",
            "title: \"Sign In to Your Portal\"",
        ),
    )
    .unwrap();
    let built = site::generate(&site.options()).unwrap();
    let auth = &built.pages.iter().find(|p| p.path == "/auth").unwrap().html;
    assert!(auth.contains(">Sign In to Your Portal</h1>"), "{auth}");
    assert!(auth.contains("<title>Sign In to Your Portal |"));
}

#[test]
fn an_unknown_time_zone_fails_check_with_the_file_line_and_field() {
    let site = TestSite::new(None);
    let settings = site.root().join("content/settings.yaml");
    let text = std::fs::read_to_string(&settings).unwrap();
    // Line 2, just under `base_url:`: a zone that does not exist (a typo of Africa/Cairo).
    let text = text.replacen('\n', "\ntime_zone: Africa/Ciaro\n", 1);
    std::fs::write(&settings, text).unwrap();
    let errors = site::check(&site.options())
        .err()
        .expect("an unknown time zone must fail site check")
        .0;
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let d = &errors[0];
    assert_names(
        d,
        "content/settings.yaml",
        Some("time_zone"),
        "`Africa/Ciaro` is not a known time zone",
    );
    assert_eq!(d.line, Some(2), "the line of `time_zone:`: {d}");
    assert!(d.hint.as_deref().unwrap().contains("IANA"), "{d}");
}
