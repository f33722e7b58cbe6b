//! A site in two languages (issue 21): translations beside their originals and texts by
//! language load and merge; every page is rendered in each language it is translated into, at
//! `/ar/…`, with its language, direction, alternates, canonical URL and Open Graph locale; the
//! sitemap lists the alternates; each language has its feed and its 404; the language switch
//! leads to the same page or its nearest translated parent; `site check` reports each missing
//! translation (a warning, or an error for a required language); and a site without
//! `languages` is exactly what it was.

mod common;

use std::collections::BTreeMap;
use std::fs;

use common::TestSite;
use generator::content::Library;
use generator::site;

const SETTINGS: &str = "content/settings.yaml";

/// The minimal site in English and Arabic: a service, a post and a resource translated (the
/// post with its own slug), another post and the about page not, packages given by language,
/// the terms translated.
fn bilingual() -> TestSite {
    let site = TestSite::new(None);
    let settings = fs::read_to_string(site.root().join(SETTINGS)).unwrap();
    let settings = settings
        .replace(
            "site_info:\n  site_name: Fixture Coaching\n",
            "languages: [en, ar]\nsite_info:\n  site_name:\n    en: Fixture Coaching\n    ar: تدريب تجريبي\n",
        );
    site.write(SETTINGS, &settings);
    site.write(
        "content/services/coaching-session.md",
        "---\ntitle: \"Executive Coaching\"\nshort_description: \"One to one.\"\nprice: \"From 4,500 EGP per session\"\nfeatures: [\"Six sessions\", \"A written plan\"]\nis_featured: true\n---\n## Overview\n\nCoaching for leaders.\n",
    );
    site.write(
        "content/services/coaching-session.ar.md",
        "---\ntitle: \"التدريب التنفيذي\"\nshort_description: \"تدريب فردي.\"\n---\n## نظرة عامة\n\nتدريب للقادة.\n",
    );
    site.write(
        "content/blog/first-post.md",
        "---\ntitle: \"First Post\"\ncategory: Leadership\ntags: [leadership]\ncreated_at: 2026-03-01\n---\nThe first post, in English.\n",
    );
    site.write(
        "content/blog/first-post.ar.md",
        "---\nslug: al-maqal-al-awwal\ntitle: \"المقال الأول\"\ncategory: القيادة\ntags: [القيادة]\n---\nالمقال الأول بالعربية.\n",
    );
    site.write(
        "content/blog/second-post.md",
        "---\ntitle: \"Second Post\"\ncategory: Leadership\ncreated_at: 2026-04-01\n---\nOnly in English.\n",
    );
    site.write(
        "content/resources/a-guide.md",
        "---\ntitle: \"A Guide\"\ndescription: \"How to.\"\ncategory: Guides\ncreated_at: 2026-01-10\n---\nGuide text.\n",
    );
    site.write(
        "content/resources/a-guide.ar.md",
        "---\ntitle: \"دليل\"\ndescription: \"كيف.\"\ncategory: أدلة\n---\nنص الدليل.\n",
    );
    site.write(
        "content/packages.yaml",
        "- id: individual-1\n  name:\n    en: \"Single Session\"\n    ar: \"جلسة منفردة\"\n  package_type: individual\n  sessions: 1\n  price: 4500\n  validity_months: 3\n  features: [\"One session\"]\n",
    );
    site.write(
        "content/legal/terms.ar.md",
        "---\ntitle: \"الشروط والأحكام\"\n---\n## الشروط\n\nنص تجريبي.\n",
    );
    site
}

fn build(site: &TestSite) -> (tempfile::TempDir, site::BuildReport) {
    let dir = tempfile::tempdir().unwrap();
    let report = site::build(&site.options(), &dir.path().join("public"))
        .unwrap_or_else(|e| panic!("the site must build: {e}"));
    (dir, report)
}

fn read(dir: &tempfile::TempDir, rel: &str) -> String {
    fs::read_to_string(dir.path().join("public").join(rel))
        .unwrap_or_else(|_| panic!("{rel} should be built"))
}

/// The attribute `name` of the first `<tag` whose text contains `having`.
fn attr<'a>(html: &'a str, having: &str, name: &str) -> &'a str {
    let at = html.find(having).unwrap_or_else(|| panic!("no `{having}`"));
    let tag_start = html[..at].rfind('<').unwrap();
    let tag = &html[tag_start..tag_start + html[tag_start..].find('>').unwrap()];
    let value = tag
        .split(&format!(" {name}=\""))
        .nth(1)
        .unwrap_or_else(|| panic!("no {name} in {tag}"));
    &value[..value.find('"').unwrap()]
}

#[test]
fn translations_load_and_merge_over_their_originals() {
    let site = bilingual();
    let lib = Library::load(site.root()).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(lib.languages.all(), ["en", "ar"]);
    let ar = &lib.translations[0];
    assert_eq!(ar.lang, "ar");
    assert_eq!(ar.settings.site_info.site_name, "تدريب تجريبي");
    assert_eq!(lib.settings.site_info.site_name, "Fixture Coaching");
    let service = &ar.services[0];
    assert_eq!(service.meta.title, "التدريب التنفيذي");
    // Left out of the translation: the original's.
    assert_eq!(
        service.meta.price.as_deref(),
        Some("From 4,500 EGP per session")
    );
    assert!(service.meta.is_featured);
    assert_eq!(service.slug, "coaching-session");
    assert_eq!(
        service.translation_of.as_deref(),
        Some(std::path::Path::new("content/services/coaching-session.md"))
    );
    let post = &ar.blog[0];
    assert_eq!(post.slug, "al-maqal-al-awwal");
    assert_eq!(post.meta.created_at.to_string(), "2026-03-01");
    assert!(post.body.contains("بالعربية"));
    assert_eq!(
        ar.blog.len(),
        1,
        "the untranslated post has no Arabic entry"
    );
    assert_eq!(ar.packages.items[0].name, "جلسة منفردة");
    assert_eq!(lib.packages.items[0].name, "Single Session");
    assert_eq!(ar.legal.len(), 1);
    assert!(
        lib.legal
            .iter()
            .any(|d| d.name == "terms" && d.arabic.is_some())
    );
    // The catalogue publishes the Arabic name beside the English one.
    let catalogue = generator::catalogue::of(&lib);
    assert_eq!(catalogue.packages[0].name, "Single Session");
    assert_eq!(catalogue.packages[0].name_in("ar"), "جلسة منفردة");
}

#[test]
fn a_translation_without_an_original_is_an_error_naming_it() {
    let site = bilingual();
    site.write(
        "content/services/orphan.ar.md",
        "---\ntitle: \"يتيم\"\nshort_description: \"لا أصل\"\n---\n",
    );
    let e = Library::load(site.root()).unwrap_err();
    let d =
        e.0.iter()
            .find(|d| d.file.ends_with("orphan.ar.md"))
            .expect("the orphan is named");
    assert!(d.message.contains("without an original"), "{}", d.message);
    assert!(
        d.message.contains("content/services/orphan.md"),
        "{}",
        d.message
    );
}

#[test]
fn arabic_pages_have_their_language_direction_alternates_canonical_and_locale() {
    let site = bilingual();
    let (dir, _) = build(&site);
    let base = "https://fixture.example.com";
    let ar = read(&dir, "ar/services/coaching-session/index.html");
    assert!(
        ar.contains("<html lang=\"ar\" dir=\"rtl\">"),
        "{}",
        &ar[..200]
    );
    assert!(ar.contains("التدريب التنفيذي"));
    let canonical = format!(
        "<link rel=\"canonical\" href=\"{}\">",
        esc(&format!("{base}/ar/services/coaching-session"))
    );
    assert!(ar.contains(&canonical), "{canonical}");
    for (lang, url) in [
        ("en", format!("{base}/services/coaching-session")),
        ("ar", format!("{base}/ar/services/coaching-session")),
        ("x-default", format!("{base}/services/coaching-session")),
    ] {
        let link = format!(
            "<link rel=\"alternate\" hreflang=\"{lang}\" href=\"{}\">",
            esc(&url)
        );
        assert!(ar.contains(&link), "{link}");
    }
    assert!(ar.contains("<meta property=\"og:locale\" content=\"ar_EG\">"));
    assert!(ar.contains("<meta property=\"og:locale:alternate\" content=\"en_US\">"));
    // Links in the page stay in Arabic; the page's own texts are the theme's Arabic ones.
    assert!(ar.contains("href=\"/ar/work-with-me\""));
    assert!(ar.contains("نظرة عامة"), "the theme's Arabic texts");

    let en = read(&dir, "services/coaching-session/index.html");
    assert!(en.contains("<html lang=\"en\" dir=\"ltr\">"));
    let back = format!(
        "<link rel=\"alternate\" hreflang=\"ar\" href=\"{}\">",
        esc(&format!("{base}/ar/services/coaching-session"))
    );
    assert!(en.contains(&back), "both ways");
    assert!(en.contains("<meta property=\"og:locale\" content=\"en_US\">"));

    // Arabic pages preload the Arabic fonts, and the small Latin cuts their digits and Latin
    // names use, not the full Latin files; English pages preload neither.
    assert!(ar.contains("noto-sans-arabic") && ar.contains("inter-basic"));
    assert!(!ar.contains("inter-latin") && !ar.contains("playfair-display-latin"));
    assert!(!en.contains("noto-sans-arabic") && !en.contains("inter-basic"));
    assert!(en.contains("inter-latin"));

    // Dates: Arabic month names, Western digits.
    let post = read(&dir, "ar/blog/al-maqal-al-awwal/index.html");
    assert!(post.contains("1 مارس 2026"), "the post's date in Arabic");
    // The portal pages exist in Arabic too, for the islands.
    for page in [
        "ar/auth/index.html",
        "ar/dashboard/index.html",
        "ar/pricing/index.html",
        "ar/book-session/index.html",
        "ar/payment/success/index.html",
        "ar/receipt/index.html",
        "ar/index.html",
    ] {
        assert!(
            read(&dir, page).contains("<html lang=\"ar\" dir=\"rtl\">"),
            "{page}"
        );
    }
    assert!(read(&dir, "ar/pricing/index.html").contains("جلسة منفردة"));
}

/// Tera's escaping of a URL in an attribute.
fn esc(url: &str) -> String {
    url.replace('/', "&#x2F;")
}

#[test]
fn the_language_switch_leads_to_the_same_page_or_its_nearest_translated_parent() {
    let site = bilingual();
    let (dir, _) = build(&site);
    let switch = |rel: &str| {
        let html = read(&dir, rel);
        let href = attr(&html, "class=\"lang-switch\"", "href").to_string();
        let lang = attr(&html, "class=\"lang-switch\"", "hreflang").to_string();
        (href, lang, html)
    };
    let (href, lang, html) = switch("services/coaching-session/index.html");
    assert_eq!(
        (href.as_str(), lang.as_str()),
        ("/ar/services/coaching-session", "ar")
    );
    assert!(html.contains(">العربية</a>"));
    assert!(attr(&html, "class=\"lang-switch\"", "lang") == "ar");
    let (href, lang, html) = switch("ar/services/coaching-session/index.html");
    assert_eq!(
        (href.as_str(), lang.as_str()),
        ("/services/coaching-session", "en")
    );
    assert!(html.contains(">English</a>"));
    // A post with its own slug in Arabic.
    assert_eq!(
        switch("blog/first-post/index.html").0,
        "/ar/blog/al-maqal-al-awwal"
    );
    assert_eq!(
        switch("ar/blog/al-maqal-al-awwal/index.html").0,
        "/blog/first-post"
    );
    // Untranslated: the nearest translated parent.
    assert_eq!(switch("blog/second-post/index.html").0, "/ar/resources");
    assert_eq!(switch("about/index.html").0, "/ar/");
    assert_eq!(switch("delivery-policy/index.html").0, "/ar/");
    assert_eq!(switch("index.html").0, "/ar/");
    assert_eq!(switch("ar/index.html").0, "/");
    assert_eq!(switch("404.html").0, "/ar/");
    // An Arabic page links to the English about page, which has no translation.
    assert!(read(&dir, "ar/index.html").contains("href=\"&#x2F;about\""));
}

#[test]
fn links_in_a_translation_lead_to_the_pages_of_its_language_where_they_exist() {
    let site = bilingual();
    site.write(
        "content/resources/a-guide.md",
        "---\ntitle: \"A Guide\"\ndescription: \"How to.\"\ncategory: Guides\ncreated_at: 2026-01-10\n---\n[Contact](/contact).\n",
    );
    site.write(
        "content/resources/a-guide.ar.md",
        "---\ntitle: \"دليل\"\ndescription: \"كيف.\"\ncategory: أدلة\n---\n\
         [تواصل](/contact) و[المقال](/blog/first-post?from=guide) و[الثاني](/blog/second-post) \
         و[من أنا](/about) و[الخدمة](/services/coaching-session/) و[الدليل](/resources/a-guide?x=1) \
         و[الموقع](https://example.com/contact) و[الملف](/static/brochure.pdf) و[عربي](/ar/pricing) \
         و[الأسئلة](/faq).\n",
    );
    let (dir, _) = build(&site);
    let html = read(&dir, "ar/resources/a-guide/index.html");
    let hrefs: Vec<&str> = html
        .split("<a href=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    for expected in [
        "/ar/contact",
        // A post with its own slug in Arabic, the query kept.
        "/ar/blog/al-maqal-al-awwal?from=guide",
        // Not translated: the English pages, never an Arabic address that does not exist.
        "/blog/second-post",
        "/about",
        "/ar/services/coaching-session",
        "/ar/resources/a-guide?x=1",
        "https://example.com/contact",
        "/ar/pricing",
        "/ar/faq",
    ] {
        assert!(hrefs.contains(&expected), "{expected} not in {hrefs:?}");
    }
    assert!(
        !hrefs
            .iter()
            .any(|h| h.starts_with("/ar/ar") || h.starts_with("/ar/static")),
        "{hrefs:?}"
    );
    // The English page's links stay as written.
    let english = read(&dir, "resources/a-guide/index.html");
    assert!(
        english.contains("<a href=\"/contact\">Contact</a>"),
        "{english}"
    );
}

#[test]
fn the_sitemap_lists_the_alternates_and_each_language_has_its_feed_and_404() {
    let site = bilingual();
    let (dir, _) = build(&site);
    let sitemap = read(&dir, "sitemap.xml");
    assert!(sitemap.contains("xmlns:xhtml=\"http://www.w3.org/1999/xhtml\""));
    let base = "https://fixture.example.com";
    let entry = |loc: &str| {
        let at = sitemap
            .find(&format!("<loc>{base}{loc}</loc>"))
            .unwrap_or_else(|| panic!("{loc} listed"));
        let end = at + sitemap[at..].find("</url>").unwrap();
        sitemap[at..end].to_string()
    };
    let service = entry("/ar/services/coaching-session");
    for (lang, loc) in [
        ("en", "/services/coaching-session"),
        ("ar", "/ar/services/coaching-session"),
        ("x-default", "/services/coaching-session"),
    ] {
        let link =
            format!("<xhtml:link rel=\"alternate\" hreflang=\"{lang}\" href=\"{base}{loc}\"/>");
        assert!(service.contains(&link), "{link} in {service}");
    }
    assert!(entry("/services/coaching-session").contains("hreflang=\"ar\""));
    assert!(
        !entry("/blog/second-post").contains("xhtml:link"),
        "one language only"
    );
    assert!(!sitemap.contains("/ar/blog/second-post"));
    assert!(entry("/ar/").contains("hreflang=\"x-default\" href=\"https://fixture.example.com/\""));

    let en_feed = read(&dir, "blog/atom.xml");
    let ar_feed = read(&dir, "ar/blog/atom.xml");
    assert!(en_feed.contains("First Post") && !en_feed.contains("المقال الأول"));
    assert!(ar_feed.contains("المقال الأول") && !ar_feed.contains("Second Post"));
    assert!(ar_feed.contains("xml:lang=\"ar\""));
    assert!(ar_feed.contains(&format!("{base}/ar/blog/al-maqal-al-awwal")));
    assert!(read(&dir, "ar/index.html").contains("href=\"/ar/blog/atom.xml\""));

    let ar_404 = read(&dir, "ar/404.html");
    assert!(ar_404.contains("<html lang=\"ar\" dir=\"rtl\">") && ar_404.contains("عذرًا"));
    assert!(read(&dir, "404.html").contains("Oops! Page not found"));
    let robots = read(&dir, "robots.txt");
    assert!(robots.contains("Disallow: /ar/dashboard") && robots.contains("Disallow: /dashboard"));
}

#[test]
fn site_check_warns_of_each_missing_translation_with_file_line_and_field() {
    let site = bilingual();
    let report = site::check(&site.options()).unwrap_or_else(|e| panic!("{e}"));
    let w = &report.warnings;
    let has = |s: &str| w.iter().any(|x| x == s);
    assert!(
        has("content/packages.yaml:9 packages[0].features: no Arabic (ar) text"),
        "{w:#?}"
    );
    assert!(
        has(
            "content/blog/second-post.md: no Arabic (ar) translation: create content/blog/second-post.ar.md"
        ),
        "{w:#?}"
    );
    assert!(
        has("content/services/coaching-session.ar.md features: no Arabic (ar) text"),
        "{w:#?}"
    );
    assert!(
        w.iter().any(|x| x.starts_with("content/settings.yaml:")
            && x.contains(" site_info.description: no Arabic (ar) text")),
        "{w:#?}"
    );
    assert!(
        !w.iter().any(|x| x.contains("packages[0].name")),
        "translated"
    );
}

#[test]
fn a_required_language_makes_each_missing_translation_an_error() {
    let site = bilingual();
    let settings = fs::read_to_string(site.root().join(SETTINGS)).unwrap();
    site.write(
        SETTINGS,
        &settings.replace(
            "languages: [en, ar]\n",
            "languages: [en, ar]\nrequired_translations: [ar]\n",
        ),
    );
    let Err(e) = site::check(&site.options()) else {
        panic!("a missing required translation fails the check");
    };
    let d =
        e.0.iter()
            .find(|d| d.file.ends_with("packages.yaml"))
            .expect("the package's features");
    assert_eq!(d.line, Some(9));
    assert_eq!(d.field.as_deref(), Some("packages[0].features"));
    assert_eq!(d.message, "no Arabic (ar) text");
    assert!(
        e.to_string()
            .contains("content/blog/second-post.md: no Arabic (ar) translation")
    );
}

#[test]
fn a_language_map_where_nothing_is_translated_is_an_error() {
    let site = bilingual();
    site.write(
        "content/packages.yaml",
        "- id: individual-1\n  name: Single\n  package_type: individual\n  sessions: 1\n  price: {en: 4500, ar: 4000}\n  validity_months: 3\n",
    );
    let e = Library::load(site.root()).unwrap_err();
    let d =
        e.0.iter()
            .find(|d| d.file.ends_with("packages.yaml"))
            .unwrap();
    assert_eq!(d.field.as_deref(), Some("packages[0].price"));
    assert_eq!(d.line, Some(5));
}

/// Every file of a built site, by path.
fn tree(dir: &std::path::Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().display().to_string();
            (rel, fs::read(e.path()).unwrap())
        })
        .collect()
}

#[test]
fn without_languages_translations_and_maps_change_nothing() {
    let plain = TestSite::new(None);
    plain.write(
        "content/packages.yaml",
        "- id: individual-1\n  name: \"Single Session\"\n  package_type: individual\n  sessions: 1\n  price: 4500\n  validity_months: 3\n",
    );
    plain.write(
        "content/blog/first-post.md",
        "---\ntitle: \"First Post\"\ncategory: Leadership\ncreated_at: 2026-03-01\n---\nThe first post.\n",
    );
    let (a, _) = build(&plain);

    // The same content with texts by language and translation files, but no `languages`.
    let translated = TestSite::new(None);
    translated.write(
        "content/packages.yaml",
        "- id: individual-1\n  name:\n    en: \"Single Session\"\n    ar: \"جلسة منفردة\"\n  package_type: individual\n  sessions: 1\n  price: 4500\n  validity_months: 3\n",
    );
    translated.write(
        "content/blog/first-post.md",
        "---\ntitle: \"First Post\"\ncategory: Leadership\ncreated_at: 2026-03-01\n---\nThe first post.\n",
    );
    translated.write(
        "content/blog/first-post.ar.md",
        "---\ntitle: \"المقال الأول\"\n---\nبالعربية.\n",
    );
    let (b, report) = build(&translated);
    assert_eq!(
        tree(&a.path().join("public")),
        tree(&b.path().join("public"))
    );
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("`ar`, which is not in settings.yaml's `languages`")),
        "{:?}",
        report.warnings
    );
    let home = read(&a, "index.html");
    assert!(
        home.starts_with("<!doctype html>\n<html lang=\"en\">"),
        "no dir on an English-only site"
    );
    assert!(!home.contains("hreflang") && !home.contains("lang-switch"));
    assert!(!read(&a, "sitemap.xml").contains("xhtml"));
}

#[test]
fn site_new_writes_the_translation_of_an_entry() {
    let site = bilingual();
    let path = generator::scaffold::new_translation(
        site.root(),
        generator::scaffold::Kind::Blog,
        "second-post",
        "ar",
    )
    .unwrap();
    assert!(path.ends_with("content/blog/second-post.ar.md"));
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains("title: Second Post"), "{text}");
    assert!(text.contains("Only in English."), "the body to translate");
    assert!(
        !text.contains("created_at"),
        "not a text: it comes from the original"
    );
    // It loads as the post's Arabic translation.
    let lib = Library::load(site.root()).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(
        lib.translations[0]
            .blog
            .iter()
            .any(|e| e.slug == "second-post")
    );
    // Not twice, not into a language the site does not have, not of nothing.
    let again = generator::scaffold::new_translation(
        site.root(),
        generator::scaffold::Kind::Blog,
        "second-post",
        "ar",
    );
    assert!(again.unwrap_err().to_string().contains("already exists"));
    let fr = generator::scaffold::new_translation(
        site.root(),
        generator::scaffold::Kind::Blog,
        "first-post",
        "fr",
    );
    assert!(
        fr.unwrap_err()
            .to_string()
            .contains("not one of the site's other languages")
    );
    let none = generator::scaffold::new_translation(
        site.root(),
        generator::scaffold::Kind::Service,
        "nope",
        "ar",
    );
    assert!(none.unwrap_err().to_string().contains("there is no"));
}

#[test]
fn a_live_edit_renders_the_post_in_both_languages_as_a_clean_build_would() {
    let site = bilingual();
    let out = site.root().join("public");
    let (mut live, _) = site::LiveSite::load(site.options(), &out).unwrap();
    let read_out = |rel: &str| fs::read_to_string(out.join(rel)).unwrap();

    // The original's date changes: its translation, merged over it, shows the new one.
    site.write(
        "content/blog/first-post.md",
        "---\ntitle: \"First Post\"\ncategory: Leadership\ntags: [leadership]\ncreated_at: 2026-05-02\n---\nThe first post, in English.\n",
    );
    live.apply(&[std::path::PathBuf::from("content/blog/first-post.md")])
        .unwrap();
    assert!(read_out("ar/blog/al-maqal-al-awwal/index.html").contains("2 مايو 2026"));

    // A new translation: its page appears, and the original's page now links to it.
    site.write(
        "content/blog/second-post.ar.md",
        "---\ntitle: \"المقال الثاني\"\n---\nبالعربية.\n",
    );
    live.apply(&[std::path::PathBuf::from("content/blog/second-post.ar.md")])
        .unwrap();
    assert!(read_out("ar/blog/second-post/index.html").contains("المقال الثاني"));
    let en = read_out("blog/second-post/index.html");
    assert_eq!(
        attr(&en, "class=\"lang-switch\"", "href"),
        "/ar/blog/second-post"
    );
    assert!(en.contains("hreflang=\"ar\""));

    // A translation whose original is gone is refused, and the site stays as it was.
    fs::remove_file(site.root().join("content/blog/second-post.md")).unwrap();
    assert!(
        live.apply(&[std::path::PathBuf::from("content/blog/second-post.md")])
            .is_err()
    );
    site.write(
        "content/blog/second-post.md",
        "---\ntitle: \"Second Post\"\ncategory: Leadership\ncreated_at: 2026-04-01\n---\nOnly in English.\n",
    );
    live.apply(&[std::path::PathBuf::from("content/blog/second-post.md")])
        .unwrap();

    // The about page is translated: every Arabic page's menu now leads to it.
    let about = "---\ntitle: About\nhero_title: Hello\nmeta_description: About me\nintro: {title: Intro, description: Text}\nmission: {title: Mission, content: Text}\ncredentials: {title: Credentials, items: [One]}\ncredential_note: Note\n---\n";
    site.write("content/pages/about.md", about);
    live.apply(&[std::path::PathBuf::from("content/pages/about.md")])
        .unwrap();
    assert!(read_out("ar/blog/al-maqal-al-awwal/index.html").contains("href=\"&#x2F;about\""));
    site.write(
        "content/pages/about.ar.md",
        "---\ntitle: نبذة\nhero_title: مرحبًا\n---\n",
    );
    live.apply(&[std::path::PathBuf::from("content/pages/about.ar.md")])
        .unwrap();
    assert!(
        read_out("ar/blog/al-maqal-al-awwal/index.html").contains("href=\"&#x2F;ar&#x2F;about\"")
    );
    assert!(read_out("ar/about/index.html").contains("مرحبًا"));

    let clean = tempfile::tempdir().unwrap();
    site::build(&site.options(), &clean.path().join("public")).unwrap();
    assert!(
        tree(&out) == tree(&clean.path().join("public")),
        "the live output is a clean build's"
    );
}
