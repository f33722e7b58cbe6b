//! The image pipeline end to end: a photo in content/static/ becomes WebP copies at the
//! responsive widths, pages print `<img>` with srcset/sizes/width/height and the right loading,
//! the hero is preloaded, and a second build reads the copies from the cache instead of
//! encoding them again.

mod common;

use std::fs;
use std::path::Path;

use common::TestSite;
use generator::assets::AssetMap;
use generator::{images, site};

/// A 1000 x 1250 gradient PNG: wide enough for every step up to 800 plus its own width.
/// `tint` makes photos differ: identical files share their cached copies.
fn write_photo(path: &Path, tint: u8) {
    let img = image::RgbImage::from_fn(1000, 1250, |x, y| {
        image::Rgb([(x / 4) as u8, (y / 5) as u8, tint])
    });
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    img.save(path).unwrap();
}

fn about_with_photos(s: &TestSite) {
    write_photo(&s.root().join("content/static/images/portrait.png"), 120);
    write_photo(&s.root().join("content/static/certificates/acc.png"), 60);
    s.write(
        "content/pages/about.md",
        r#"---
title: "About"
hero_title: "Hello"
meta_description: "About the coach."
portrait_url: /static/images/portrait.png
intro: { title: "Intro", description: "Text." }
mission: { title: "Mission", content: "Text." }
credentials: { title: "Credentials", items: ["ACC"] }
certifications:
  - { title: "ACC", issuer: "ICF", image_url: /static/certificates/acc.png }
credential_note: "Valid until 2028"
---
Story.
"#,
    );
}

/// The `<img …>` tag that contains `needle`.
fn img_with<'a>(html: &'a str, needle: &str) -> &'a str {
    let at = html.find(needle).unwrap_or_else(|| panic!("no `{needle}`"));
    let start = html[..at].rfind("<img").expect("inside an <img>");
    let end = at + html[at..].find('>').unwrap();
    &html[start..=end]
}

fn about_html(built: &site::Site) -> String {
    built
        .pages
        .iter()
        .find(|p| p.path == "/about")
        .unwrap()
        .html
        .replace("&#x2F;", "/")
}

#[test]
fn photos_get_webp_copies_at_each_width_up_to_their_own() {
    let s = TestSite::new(None);
    about_with_photos(&s);
    let built = site::generate(&s.options()).unwrap();
    let copies: Vec<&generator::output::OutputFile> = built
        .files
        .iter()
        .filter(|f| f.rel.starts_with("static/images/portrait.") && f.rel.ends_with(".webp"))
        .collect();
    let mut widths: Vec<u32> = copies
        .iter()
        .map(|f| {
            let img = webp::Decoder::new(&f.bytes)
                .decode()
                .expect("a real WebP file");
            // Height keeps the 4:5 ratio of the original.
            assert_eq!(img.height(), img.width() * 5 / 4, "{}", f.rel);
            img.width()
        })
        .collect();
    widths.sort();
    assert_eq!(widths, vec![320, 480, 640, 800, 1000]);
    // The original stays published too (og:image and downloads point at it).
    assert!(
        built
            .files
            .iter()
            .any(|f| f.rel.starts_with("static/images/portrait.") && f.rel.ends_with(".png"))
    );
}

#[test]
fn img_tags_carry_srcset_sizes_dimensions_and_the_right_loading() {
    let s = TestSite::new(None);
    about_with_photos(&s);
    let html = about_html(&site::generate(&s.options()).unwrap());

    let hero = img_with(&html, "alt=\"Portrait of ");
    for attr in [
        "srcset=\"",
        " sizes=\"",
        "width=\"1000\"",
        "height=\"1250\"",
    ] {
        assert!(hero.contains(attr), "portrait misses {attr}: {hero}");
    }
    for w in [320, 480, 640, 800, 1000] {
        assert!(
            hero.contains(&format!("-{w}.webp {w}w")),
            "{w}w in srcset: {hero}"
        );
    }
    assert!(hero.contains("loading=\"eager\" fetchpriority=\"high\""));

    let cert = img_with(&html, "alt=\"ACC certificate\"");
    assert!(cert.contains("loading=\"lazy\"") && cert.contains("srcset=\""));
    assert!(!cert.contains("fetchpriority"));

    // The hero's download starts from <head>, with the same candidates as the <img>.
    let head = &html[..html.find("</head>").unwrap()];
    let preload = head
        .split("<link")
        .find(|l| l.contains("rel=\"preload\" as=\"image\""))
        .expect("a preload for the portrait");
    assert!(preload.contains("imagesrcset=\"") && preload.contains("-1000.webp 1000w"));
    assert!(preload.contains("imagesizes=\""));
}

#[test]
fn photos_in_an_articles_text_and_on_its_card_are_responsive_too() {
    let s = TestSite::new(None);
    write_photo(&s.root().join("content/static/images/team.png"), 90);
    write_photo(&s.root().join("content/static/images/cover.png"), 30);
    s.write(
        "content/blog/with-photos.md",
        "---\ntitle: With Photos\ncategory: Leadership\ncreated_at: 2026-01-12\nfeatured_image_url: /static/images/cover.png\n---\n\nBefore.\n\n![The *whole* team at the offsite](/static/images/team.png)\n\nAfter.\n",
    );
    let built = site::generate(&s.options()).unwrap();
    let page = |path: &str| {
        built
            .pages
            .iter()
            .find(|p| p.path == path)
            .unwrap()
            .html
            .clone()
    };
    let article = page("/blog/with-photos");
    let body = img_with(&article, "alt=\"The whole team at the offsite\"");
    for attr in [
        "srcset=\"",
        "-800.webp 800w",
        "sizes=\"(min-width: 48rem) 46rem",
        "width=\"1000\"",
        "height=\"1250\"",
        "loading=\"lazy\"",
    ] {
        assert!(
            body.contains(attr),
            "the text's photo misses {attr}: {body}"
        );
    }
    let card_html = page("/resources");
    let card = img_with(&card_html, "class=\"post-card__image\"");
    assert!(
        card.contains("srcset=\"")
            && card.contains("width=\"1000\"")
            && card.contains("loading=\"lazy\""),
        "{card}"
    );
}

#[test]
fn a_second_build_reads_every_copy_from_the_cache() {
    let s = TestSite::new(None);
    about_with_photos(&s);
    let load = || {
        AssetMap::load(
            &s.root().join("themes/default/assets"),
            &s.root().join("content/static"),
        )
        .unwrap()
    };
    let cache = s.root().join(images::CACHE_DIR);
    let mut first_assets = load();
    let first = first_assets.process_images(&cache).unwrap();
    assert_eq!(first.encoded, 10, "5 widths for each of the 2 photos");

    let mut again_assets = load();
    let again = again_assets.process_images(&cache).unwrap();
    assert_eq!(again.encoded, 0, "nothing is encoded again");
    let portrait = again.get("/static/images/portrait.png").unwrap();
    assert_eq!(
        portrait.variants,
        first.get("/static/images/portrait.png").unwrap().variants
    );

    // A changed photo is a new cache entry, not a stale copy.
    let img = image::RgbImage::from_pixel(640, 480, image::Rgb([10, 20, 30]));
    img.save(s.root().join("content/static/images/portrait.png"))
        .unwrap();
    let mut changed_assets = load();
    let changed = changed_assets.process_images(&cache).unwrap();
    assert_eq!(changed.encoded, 3, "320, 480 and 640 of the new photo");
    assert_eq!(
        changed.get("/static/images/portrait.png").unwrap().width,
        640
    );
}

#[test]
fn an_unknown_image_fails_the_build_with_its_path() {
    let s = TestSite::new(None);
    about_with_photos(&s);
    fs::remove_file(s.root().join("content/static/certificates/acc.png")).unwrap();
    let err = site::generate(&s.options()).err().expect("the build fails");
    assert!(
        err.to_string().contains("/static/certificates/acc.png"),
        "{err}"
    );
}
