//! `/catalogue.json`: the build publishes what the API needs from `content/` (the packages and
//! the settings it uses) with a version that follows exactly that, so the API can load the
//! deployed site's prices instead of a copy of `content/`.

mod common;

use std::fs;
use std::path::Path;

use common::TestSite;
use content_model::catalogue::Catalogue;
use content_model::model::{Money, PackageType};
use generator::site::{self, LiveSite};

const PACKAGES: &str = r#"
- id: individual-1
  name: "Single Session"
  package_type: individual
  sessions: 1
  price: 4500
  validity_months: 3
  features: ["One session"]
  display_order: 1
- id: group-10
  name: "Team Package"
  package_type: group
  sessions: 10
  price: "30,000.50"
  validity_months: 12
  display_order: 2
- id: individual-3
  name: "Retired Package"
  package_type: individual
  sessions: 3
  price: 12825
  validity_months: 6
  is_active: false
"#;

fn site() -> TestSite {
    let s = TestSite::new(None);
    s.write("content/packages.yaml", PACKAGES);
    s
}

/// Builds into `public/` and reads the published catalogue back as the API does.
fn build(s: &TestSite) -> (Catalogue, Vec<u8>) {
    let out = s.root().join("public");
    site::build(&s.options(), &out).unwrap();
    published(&out)
}

fn published(out: &Path) -> (Catalogue, Vec<u8>) {
    let bytes = fs::read(out.join("catalogue.json")).expect("the site publishes /catalogue.json");
    (Catalogue::from_json(&bytes).unwrap(), bytes)
}

fn edit(s: &TestSite, rel: &str, from: &str, to: &str) {
    let path = s.root().join(rel);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel} has no `{from}`");
    fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn the_built_site_publishes_every_package_and_the_settings_the_api_uses() {
    let s = site();
    let (catalogue, bytes) = build(&s);
    let ids: Vec<&str> = catalogue.packages.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["group-10", "individual-1", "individual-3"]);
    let team = catalogue.package("group-10").unwrap();
    assert_eq!(
        (
            team.package_type,
            team.sessions,
            team.price,
            team.validity_months
        ),
        (PackageType::Group, 10, Money(3_000_050), 12)
    );
    let retired = catalogue.package("individual-3").unwrap();
    assert!(!retired.is_active, "listed for receipts, never sold");
    assert!(catalogue.offer(PackageType::Individual, 3).is_none());
    assert_eq!(
        catalogue.offer(PackageType::Individual, 1).unwrap().price,
        Money(450_000)
    );
    let settings = &catalogue.settings;
    assert_eq!(settings.site_name, "Fixture Coaching");
    assert_eq!(settings.coach_email, "hello@fixture.example.com");
    assert_eq!(
        (settings.currency.as_str(), settings.time_zone.name()),
        ("EGP", "Africa/Cairo")
    );
    assert_eq!(settings.default_validity_months, 6);
    // The version is the one the API computes for the same content (`devserver`, tests).
    assert_eq!(catalogue.version.len(), 16);
    assert_eq!(
        Catalogue::from_content_dir(&s.root().join("content"))
            .unwrap()
            .version,
        catalogue.version
    );
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        text.contains("\"price_minor\": 450000") && !text.contains("One session"),
        "minor units, and nothing the API does not use:\n{text}"
    );
}

#[test]
fn the_version_changes_when_a_package_changes_and_not_otherwise() {
    let s = site();
    let (first, first_bytes) = build(&s);

    // Other content, a package's card text and the file's order: the same catalogue.
    s.write(
        "content/faqs.yaml",
        "- question: How long is a session?\n  answer: 60 to 90 minutes.\n",
    );
    s.write(
        "content/blog/new-post.md",
        "---\ntitle: A New Post\ncategory: Leadership\ncreated_at: 2026-01-11\n---\n\nHello.\n",
    );
    edit(
        &s,
        "content/packages.yaml",
        "[\"One session\"]",
        "[\"One session\", \"A written summary\"]",
    );
    edit(
        &s,
        "content/packages.yaml",
        "display_order: 2",
        "display_order: 7",
    );
    let (same, same_bytes) = build(&s);
    assert_eq!(same.version, first.version);
    assert_eq!(same_bytes, first_bytes, "byte for byte");

    // A price: a new version.
    edit(&s, "content/packages.yaml", "price: 4500", "price: 4750");
    let (priced, _) = build(&s);
    assert_ne!(priced.version, first.version);
    assert_eq!(
        priced.package("individual-1").unwrap().price,
        Money(475_000)
    );

    // A validity: another.
    edit(
        &s,
        "content/packages.yaml",
        "validity_months: 3",
        "validity_months: 4",
    );
    let (longer, _) = build(&s);
    assert!(longer.version != priced.version && longer.version != first.version);

    // Back as it was: the first version again (a content hash, not a counter).
    edit(&s, "content/packages.yaml", "price: 4750", "price: 4500");
    edit(
        &s,
        "content/packages.yaml",
        "validity_months: 4",
        "validity_months: 3",
    );
    assert_eq!(build(&s).0.version, first.version);

    // A setting the API uses: a new version.
    edit(
        &s,
        "content/settings.yaml",
        "hello@fixture.example.com",
        "coach@fixture.example.com",
    );
    assert_ne!(build(&s).0.version, first.version);
}

#[test]
fn the_live_site_republishes_the_catalogue_when_packages_yaml_is_saved() {
    let s = site();
    let out = s.root().join("public");
    let (mut live, _) = LiveSite::load(s.options(), &out).unwrap();
    let (before, _) = published(&out);
    edit(&s, "content/packages.yaml", "price: 4500", "price: 5000");
    live.apply(&[s.root().join("content/packages.yaml")])
        .unwrap();
    let (after, _) = published(&out);
    assert_ne!(after.version, before.version);
    assert_eq!(after.package("individual-1").unwrap().price, Money(500_000));
}

#[test]
fn the_buy_buttons_name_the_catalogue_their_page_was_built_with() {
    let s = site();
    let (first, _) = build(&s);
    let buttons = |s: &TestSite| {
        let html = fs::read_to_string(s.root().join("public/pricing/index.html")).unwrap();
        html.split("data-catalogue-version=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let versions = buttons(&s);
    assert!(!versions.is_empty(), "the pricing page has Buy Now buttons");
    assert!(versions.iter().all(|v| *v == first.version), "{versions:?}");

    edit(&s, "content/packages.yaml", "price: 4500", "price: 4750");
    let (second, _) = build(&s);
    assert_ne!(second.version, first.version);
    assert!(buttons(&s).iter().all(|v| *v == second.version));
}
