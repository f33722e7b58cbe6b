//! Builds the repository's real `content/` with the real theme, as visitors will get it, and
//! checks every public route of spec §2 with its key texts, that drafts never reach the
//! output, and that the sitemap lists exactly the published pages.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use common::{fixed_now, repo_root};
use generator::content::Library;
use generator::site;

struct Built {
    _dir: tempfile::TempDir,
    out: std::path::PathBuf,
}

/// One build shared by every test of this file.
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        let opts = site::Options {
            fetch_videos: false,
            now: fixed_now(),
            ..site::Options::new(repo_root())
        };
        site::build(&opts, &out).unwrap_or_else(|e| panic!("the real content must build: {e}"));
        Built { _dir: dir, out }
    })
}

/// The visible text of a page with Tera's entity escapes undone, for text assertions.
fn page(route: &str) -> String {
    let file = generator::render::output_file(route);
    let html = fs::read_to_string(built().out.join(&file))
        .unwrap_or_else(|_| panic!("{route} should be built as {file}"));
    html.replace("&#x2F;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

#[track_caller]
fn assert_has(route: &str, texts: &[&str]) {
    let html = page(route);
    for t in texts {
        assert!(html.contains(t), "{route} should show `{t}`");
    }
}

const PUBLIC_ROUTES: [&str; 21] = [
    "/",
    "/work-with-me",
    "/about",
    "/resources",
    "/videos",
    "/events",
    "/testimonials",
    "/contact",
    "/faq",
    "/pricing",
    "/group-team-coaching-pricing",
    "/payment/success",
    "/payment/failed",
    "/auth",
    "/dashboard",
    "/admin",
    "/book-session",
    "/admin/add-payment",
    "/terms",
    "/return-policy",
    "/privacy-policy",
];

#[test]
fn every_route_of_the_spec_exists_with_header_footer_and_the_discovery_modal() {
    for route in PUBLIC_ROUTES
        .iter()
        .chain(&["/delivery-policy", "/cancellation-policy"])
    {
        assert_has(
            route,
            &[
                "href=\"/work-with-me\"",
                "href=\"/about\"",
                "href=\"/resources\"",
                "href=\"/videos\"",
                "href=\"/events\"",
                "href=\"/contact\"",
                "href=\"/auth\"",
                "Client Login",
                "href=\"/terms\"",
                "href=\"/privacy-policy\"",
                "href=\"/return-policy\"",
                "href=\"/delivery-policy\"",
                "href=\"/cancellation-policy\"",
                "href=\"/faq\"",
                "href=\"/testimonials\"",
                "Book a Discovery Call",
                "Let's explore how executive coaching can accelerate your leadership effectiveness and drive measurable results for your organization.",
                "What to expect",
                "Opens in a new window for secure booking",
                "https://calendly.com/",
                "data-newsletter-form",
            ],
        );
    }
}

#[test]
fn only_the_exact_root_marks_home_active_and_sections_match_by_prefix() {
    let active = |route: &str| -> BTreeSet<String> {
        page(route)
            .split("<a ")
            .skip(1)
            .filter(|a| {
                a.split('>')
                    .next()
                    .unwrap()
                    .contains("aria-current=\"page\"")
            })
            .filter_map(|a| {
                a.split("href=\"")
                    .nth(1)?
                    .split('"')
                    .next()
                    .map(String::from)
            })
            .collect()
    };
    assert_eq!(active("/"), BTreeSet::from(["/".to_string()]));
    assert_eq!(
        active("/resources"),
        BTreeSet::from(["/resources".to_string()])
    );
    let lib = Library::load(&repo_root()).unwrap();
    let slug = &lib
        .resources
        .iter()
        .find(|r| r.meta.is_published)
        .unwrap()
        .slug;
    assert_eq!(
        active(&format!("/resources/{slug}")),
        BTreeSet::from(["/resources".to_string()])
    );
    assert_eq!(active("/contact"), BTreeSet::from(["/contact".to_string()]));
}

#[test]
fn home_has_hero_logos_featured_services_and_testimonials() {
    assert_has(
        "/",
        &[
            "500+ Executives Coached",
            "C-Suite Experience",
            "Business Acumen",
            "96%",
            "25+",
            "complimentary",
            "30-minute",
            "data-carousel",
            "href=\"/work-with-me\"",
        ],
    );
    let lib = Library::load(&repo_root()).unwrap();
    let home = page("/");
    for logo in &lib.logos.items {
        assert_eq!(
            home.contains(&logo.company_name),
            logo.is_active,
            "logo {}",
            logo.company_name
        );
    }
    for s in &lib.services {
        let featured = s.meta.is_active && s.meta.is_featured;
        assert_eq!(
            home.contains(&format!("/services/{}", s.slug)),
            featured,
            "service {}",
            s.slug
        );
    }
}

#[test]
fn work_with_me_has_the_per_service_buttons_of_the_spec() {
    assert_has(
        "/work-with-me",
        &[
            "href=\"/pricing\"",
            "href=\"/group-team-coaching-pricing\"",
            "https://wa.me/",
            "Download Program Guide",
            "Popular",
            "Learn More",
            "7,500 EGP",
            "href=\"/services/icf-certified-coach-training\"",
        ],
    );
    let lib = Library::load(&repo_root()).unwrap();
    let icf = lib
        .services
        .iter()
        .find(|s| s.slug == "icf-certified-coach-training")
        .unwrap();
    assert_has("/work-with-me", &[icf.meta.partner_url.as_deref().unwrap()]);
    // The brochure link points at the fingerprinted PDF, which exists.
    let html = page("/work-with-me");
    let pdf = html
        .split("href=\"")
        .filter_map(|s| s.split('"').next())
        .find(|h| h.ends_with(".pdf"))
        .unwrap();
    assert!(
        built().out.join(pdf.trim_start_matches('/')).is_file(),
        "{pdf}"
    );
}

#[test]
fn service_detail_has_overview_included_benefits_and_sidebar() {
    assert_has(
        "/services/coaching-session",
        &[
            "What's Included",
            "Key Benefits",
            "Book Discovery Call",
            "href=\"/pricing\"",
        ],
    );
    assert_has(
        "/service-not-found.html",
        &["Service Not Found", "href=\"/work-with-me\""],
    );
}

#[test]
fn about_shows_credentials_and_the_icf_note() {
    assert_has(
        "/about",
        &["ICF ACC credential valid until 1/2028", "Book me"],
    );
}

#[test]
fn resources_lists_resources_before_blog_posts_with_at_most_three_card_tags() {
    let lib = Library::load(&repo_root()).unwrap();
    let html = page("/resources");
    let last_resource = lib
        .resources
        .iter()
        .filter(|r| r.meta.is_published)
        .map(|r| {
            html.find(&format!("href=\"/resources/{}\"", r.slug))
                .expect("published resource listed")
        })
        .max()
        .unwrap();
    let first_post = lib
        .blog
        .iter()
        .filter(|b| b.meta.is_published)
        .map(|b| {
            html.find(&format!("href=\"/blog/{}\"", b.slug))
                .expect("published post listed")
        })
        .min()
        .unwrap();
    assert!(
        last_resource < first_post,
        "resources sort before blog posts"
    );
    assert!(html.contains("Clear filter") && html.contains("data-tags"));
    // Blog posts newest first.
    let mut posts: Vec<_> = lib.blog.iter().filter(|b| b.meta.is_published).collect();
    posts.sort_by_key(|b| std::cmp::Reverse(b.meta.created_at));
    let positions: Vec<usize> = posts
        .iter()
        .map(|b| html.find(&format!("href=\"/blog/{}\"", b.slug)).unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "newest first");
    // The post without an excerpt gets the first 150 characters of its content.
    let no_excerpt = posts
        .iter()
        .find(|b| b.meta.excerpt.is_none())
        .expect("demo has one");
    let first_words: String = no_excerpt
        .body
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(html.contains("..."), "cut excerpt marked");
    assert!(
        html.contains(first_words.trim_start_matches('#').trim()),
        "excerpt from content: {first_words}"
    );
}

#[test]
fn pricing_pages_show_packages_with_savings_and_best_value() {
    assert_has(
        "/pricing",
        &[
            "1-to-1 Coaching Session Pricing",
            "Session",
            "Sessions",
            "4,500",
            "EGP",
            "Best Value",
            "Save 10% (2,250 EGP)",
            "Buy Now",
            "Schedule Free Discovery Call",
            "href=\"/faq\"",
        ],
    );
    assert_has(
        "/group-team-coaching-pricing",
        &["Hours of Group Coaching", "EGP per hour", "Buy Now"],
    );
    let lib = Library::load(&repo_root()).unwrap();
    for p in &lib.packages.items {
        let route = if p.package_type.as_str() == "individual" {
            "/pricing"
        } else {
            "/group-team-coaching-pricing"
        };
        assert_eq!(
            page(route).contains(&p.name),
            p.is_active,
            "package {} on {route}",
            p.id
        );
    }
}

#[test]
fn events_show_past_and_upcoming_states_with_the_first_four_photos() {
    assert_has(
        "/events",
        &[
            "Past Event",
            "Registration Closed",
            "Register Now",
            "data-starts-at",
        ],
    );
}

#[test]
fn faq_groups_by_category_with_headings_and_a_single_open_accordion() {
    assert_has("/faq", &["General", "Sessions & Scheduling", "<details"]);
}

#[test]
fn contact_promises_replies_and_a_15_to_20_minute_call() {
    assert_has(
        "/contact",
        &["1-2 business days", "15-20", "data-contact-form", "Mobile"],
    );
}

#[test]
fn payment_and_app_shells_have_their_placeholders() {
    assert_has(
        "/payment/success",
        &[
            "Verifying your payment...",
            "data-island=\"PaymentSuccess\"",
        ],
    );
    assert_has(
        "/payment/failed",
        &[
            "Insufficient funds",
            "Expired card",
            "Network issues",
            "Try Again",
            "Contact Support",
        ],
    );
    assert_has(
        "/auth",
        &[
            "data-island=\"AuthPage\"",
            "role=\"status\"",
            "app-shell--intro",
        ],
    );
    assert!(!page("/dashboard").contains("app-shell--intro"));
    assert!(
        !page("/auth").contains("noindex"),
        "the sign-in page is found by search engines"
    );
    let robots = fs::read_to_string(built().out.join("robots.txt")).unwrap();
    assert!(robots.contains("Disallow: /dashboard") && !robots.contains("Disallow: /auth\n"));
    for (route, island) in [
        ("/dashboard", "ClientDashboard"),
        ("/admin", "AdminDashboard"),
        ("/book-session", "BookSession"),
        ("/admin/add-payment", "AddPayment"),
    ] {
        assert_has(
            route,
            &[
                &format!("data-island=\"{island}\""),
                "role=\"status\"",
                "noindex",
            ],
        );
    }
}

#[test]
fn legal_pages_carry_their_arabic_sections_right_to_left() {
    for route in ["/terms", "/return-policy", "/privacy-policy"] {
        assert_has(route, &["lang=\"ar\" dir=\"rtl\""]);
    }
    assert_has("/terms", &["Egypt"]);
    assert_has("/return-policy", &["14 days", "30 days", "14 working days"]);
    assert_has("/delivery-policy", &["Sunday", "Thursday"]);
    assert_has(
        "/404.html",
        &["Oops! Page not found", "Return to Home", "href=\"/\""],
    );
}

#[test]
fn curated_videos_show_their_own_posters_as_responsive_images() {
    let html = page("/videos");
    let lib = Library::load(&repo_root()).unwrap();
    assert!(!lib.videos.items.is_empty());
    for v in &lib.videos.items {
        let poster = v
            .thumbnail
            .as_deref()
            .expect("the demo videos carry posters");
        let stem = poster.trim_end_matches(".jpg");
        assert!(
            html.contains(&format!("{stem}.")) && html.contains("-480.webp 480w"),
            "{} shows {poster} with its WebP widths",
            v.youtube_id
        );
    }
    assert!(
        !html.contains("i.ytimg.com"),
        "no request to YouTube before a video is played"
    );
    assert_eq!(
        html.matches("fetchpriority=\"high\"").count(),
        1,
        "the first poster loads at once, the others lazily"
    );
}

#[test]
fn drafts_and_inactive_items_never_reach_the_output() {
    let lib = Library::load(&repo_root()).unwrap();
    let out = &built().out;
    let mut checked = 0;
    for b in lib.blog.iter().filter(|b| !b.meta.is_published) {
        assert!(!out.join(format!("blog/{}", b.slug)).exists());
        assert!(!page("/resources").contains(&b.meta.title));
        checked += 1;
    }
    for r in lib.resources.iter().filter(|r| !r.meta.is_published) {
        assert!(!out.join(format!("resources/{}", r.slug)).exists());
        checked += 1;
    }
    for s in lib.services.iter().filter(|s| !s.meta.is_active) {
        assert!(!out.join(format!("services/{}", s.slug)).exists());
        assert!(!page("/work-with-me").contains(&s.meta.title));
        checked += 1;
    }
    for e in lib.events.iter().filter(|e| !e.meta.is_published) {
        assert!(!page("/events").contains(&e.meta.title));
        checked += 1;
    }
    for f in lib.faqs.items.iter().filter(|f| !f.is_published) {
        assert!(!page("/faq").contains(&f.question));
        checked += 1;
    }
    for t in lib.testimonials.items.iter().filter(|t| !t.is_published) {
        assert!(!page("/testimonials").contains(&t.client_name));
        checked += 1;
    }
    assert!(
        checked >= 6,
        "the demo content must include drafts of every kind ({checked})"
    );
}

#[test]
fn the_sitemap_lists_exactly_the_published_pages() {
    let lib = Library::load(&repo_root()).unwrap();
    let base = lib.settings.base_url.trim_end_matches('/').to_string();
    let sitemap = fs::read_to_string(built().out.join("sitemap.xml")).unwrap();
    let listed: BTreeSet<String> = sitemap
        .split("<loc>")
        .skip(1)
        .map(|s| {
            s.split("</loc>")
                .next()
                .unwrap()
                .trim_start_matches(&base)
                .to_string()
        })
        .collect();
    // Every language's published pages: the default's at /…, each other one's (only what is
    // translated into it) at /<code>/….
    let mut expected = BTreeSet::new();
    for (i, lib) in lib.all_languages().enumerate() {
        let prefix = if i == 0 {
            String::new()
        } else {
            format!("/{}", lib.lang)
        };
        let at = |route: &str| format!("{prefix}{route}");
        for route in [
            "/",
            "/work-with-me",
            "/resources",
            "/videos",
            "/events",
            "/testimonials",
            "/contact",
            "/faq",
            "/pricing",
            "/group-team-coaching-pricing",
            "/auth",
        ] {
            expected.insert(at(route));
        }
        if lib.about.as_ref().is_some_and(|a| a.meta.is_published) {
            expected.insert(at("/about"));
        }
        expected.extend(lib.legal.iter().map(|d| at(&format!("/{}", d.name))));
        expected.extend(
            lib.services
                .iter()
                .filter(|s| s.meta.is_active)
                .map(|s| at(&format!("/services/{}", s.slug))),
        );
        expected.extend(
            lib.resources
                .iter()
                .filter(|r| r.meta.is_published)
                .map(|r| at(&format!("/resources/{}", r.slug))),
        );
        expected.extend(
            lib.blog
                .iter()
                .filter(|b| b.meta.is_published)
                .map(|b| at(&format!("/blog/{}", b.slug))),
        );
    }
    assert!(expected.contains("/about") && expected.contains("/terms"));
    assert_eq!(listed, expected);
    let robots = fs::read_to_string(built().out.join("robots.txt")).unwrap();
    assert!(robots.contains(&format!("Sitemap: {base}/sitemap.xml")));
}

#[test]
fn pages_have_seo_tags_and_fingerprinted_assets() {
    let lib = Library::load(&repo_root()).unwrap();
    let base = lib.settings.base_url.trim_end_matches('/');
    let about = page("/about");
    assert!(about.contains(&format!("<link rel=\"canonical\" href=\"{base}/about\"")));
    assert!(about.contains("property=\"og:title\"") && about.contains("name=\"description\""));
    let css = about
        .split("href=\"")
        .filter_map(|s| s.split('"').next())
        .find(|h| h.ends_with(".css"))
        .unwrap();
    assert!(
        css.starts_with("/assets/css/site.") && css.len() > "/assets/css/site.css".len(),
        "{css}"
    );
    assert!(built().out.join(css.trim_start_matches('/')).is_file());
    let feed = fs::read_to_string(built().out.join("blog/atom.xml")).unwrap();
    let published = lib.blog.iter().filter(|b| b.meta.is_published).count();
    assert_eq!(feed.matches("<entry>").count(), published);
}

#[test]
fn a_rebuild_replaces_the_output_with_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("public");
    let opts = site::Options {
        fetch_videos: false,
        now: fixed_now(),
        ..site::Options::new(repo_root())
    };
    site::build(&opts, &out).unwrap();
    let first = fs::read(out.join("index.html")).unwrap();
    let report = site::build(&opts, &out).unwrap();
    assert_eq!(fs::read(out.join("index.html")).unwrap(), first);
    assert_eq!(
        report.stats.removed,
        report.pages + report.files,
        "every file of the previous output was replaced"
    );
}

#[test]
fn the_real_content_passes_site_check() {
    let opts = site::Options {
        fetch_videos: false,
        now: fixed_now(),
        ..site::Options::new(repo_root())
    };
    if let Err(e) = site::check(&opts) {
        panic!("{e}");
    }
}

#[test]
fn a_drafts_build_shows_the_drafts() {
    let dir = tempfile::tempdir().unwrap();
    let opts = site::Options {
        drafts: true,
        fetch_videos: false,
        now: fixed_now(),
        ..site::Options::new(repo_root())
    };
    site::build(&opts, &dir.path().join("p")).unwrap();
    let lib = Library::load(&repo_root()).unwrap();
    let draft = lib
        .blog
        .iter()
        .find(|b| !b.meta.is_published)
        .expect("a draft post");
    assert!(Path::new(&dir.path().join(format!("p/blog/{}/index.html", draft.slug))).is_file());
}

#[test]
fn content_pages_ship_no_react_and_island_pages_preload_their_chunks() {
    let manifest: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(repo_root().join("islands/dist/manifest.json")).unwrap(),
    )
    .unwrap();
    // The page script's own chunks, preloaded beside it so they do not wait for it.
    let page_chunks: Vec<String> = manifest["page_imports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "<link rel=\"modulepreload\" href=\"/assets/islands/{}\">",
                c.as_str().unwrap()
            )
        })
        .collect();
    assert!(!page_chunks.is_empty(), "the page script shares chunks");
    for route in ["/", "/about", "/resources", "/events", "/faq", "/contact"] {
        let html = page(route);
        assert_eq!(
            html.matches("<script").count(),
            1,
            "{route}: one script, the page script"
        );
        assert!(
            html.contains("<script type=\"module\" src=\"/assets/islands/site-"),
            "{route}"
        );
        assert!(!html.contains("runtime-"), "{route} loads no island");
        for link in &page_chunks {
            assert!(html.contains(link.as_str()), "{route}: {link}");
        }
        assert_eq!(
            html.matches("modulepreload").count(),
            page_chunks.len(),
            "{route} preloads the page script's chunks and nothing else"
        );
    }
    // An Arabic page also preloads the script's Arabic texts, which it loads as it starts (they
    // would otherwise be fetched a round trip after it); an English page has its texts bundled.
    let arabic_texts = manifest["page_messages"]["ar"].as_array().unwrap();
    assert!(!arabic_texts.is_empty(), "the page script has Arabic texts");
    for chunk in arabic_texts {
        let link = format!(
            "<link rel=\"modulepreload\" href=\"/assets/islands/{}\">",
            chunk.as_str().unwrap()
        );
        assert!(page("/ar/about").contains(&link), "/ar/about: {link}");
        assert!(!page("/about").contains(&link), "/about: {link}");
    }
    // The page script is small and React-free: its file and what it imports.
    let site = fs::read_to_string(
        built()
            .out
            .join("assets/islands")
            .join(manifest["page"].as_str().unwrap()),
    )
    .unwrap();
    assert!(site.len() < 12_000, "page script {} bytes", site.len());
    assert!(!site.contains("react"), "no React in the page script");
    let auth = page("/auth");
    assert!(
        auth.contains("<script type=\"module\" src=\"/assets/islands/runtime-"),
        "the runtime on /auth"
    );
    // The island's files are listed for the runtime, which fetches them after the first paint:
    // none is fetched from the head, where it would share the network with the stylesheets.
    let preloads = island_preloads(&auth);
    assert!(
        preloads
            .iter()
            .any(|f| f.starts_with("/assets/islands/AuthPage-")),
        "AuthPage preloaded: {preloads:?}"
    );
    assert!(
        !auth.contains("href=\"/assets/islands/AuthPage-"),
        "AuthPage in the head"
    );
    assert!(auth.contains("data-src=\"/assets/islands/AuthPage-"));
    // A portal page fetches its island in a few files (a build of its own per island), not the
    // twenty-odd small chunks one build shared between eleven islands made of it: on a phone
    // over HTTP/1.1 each is a round trip before the page works.
    assert!(preloads.len() <= 8, "/auth preloads {preloads:?}");
    for f in &preloads {
        assert!(
            built().out.join(f.trim_start_matches('/')).is_file(),
            "{f} is published"
        );
    }
    // And one stylesheet of its own beside site.css: app.css, with the islands', the client's
    // and the admin's stylesheets inlined in it by the build.
    let sheets: Vec<&str> = auth
        .split("<link rel=\"stylesheet\" href=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap())
        .collect();
    assert_eq!(sheets.len(), 2, "{sheets:?}");
    let app_css = fs::read_to_string(built().out.join(sheets[1].trim_start_matches('/'))).unwrap();
    assert!(sheets[1].starts_with("/assets/css/app."), "{sheets:?}");
    assert!(
        !app_css
            .lines()
            .any(|l| l.trim_start().starts_with("@import")),
        "the imports are inlined"
    );
    for part in ["islands.css", "client.css", "admin.css"] {
        let text =
            fs::read_to_string(repo_root().join("themes/default/assets/css").join(part)).unwrap();
        let rule = text
            .lines()
            .find(|l| l.starts_with('.') && !l.contains("url("))
            .unwrap();
        assert!(app_css.contains(rule), "app.css holds {part}'s {rule}");
    }
    let src = auth
        .split("data-src=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    assert!(
        built().out.join(src.trim_start_matches('/')).is_file(),
        "{src} is published"
    );
    // The purchase dialog loads on first intent (hover, focus or click of Buy Now): no
    // preload of code the visitor may never run.
    let pricing = page("/pricing");
    assert!(pricing.contains("data-src=\"/assets/islands/PurchaseDialog-"));
    assert!(
        !island_preloads(&pricing)
            .iter()
            .any(|f| f.contains("/PurchaseDialog-")),
        "/pricing preloads the purchase dialog"
    );
    for (route, island) in [
        ("/dashboard", "ClientDashboard"),
        ("/admin", "AdminDashboard"),
        ("/book-session", "BookSession"),
        ("/payment/success", "PaymentSuccess"),
        ("/admin/add-payment", "AddPayment"),
    ] {
        let prefix = format!("/assets/islands/{island}-");
        assert!(
            island_preloads(&page(route))
                .iter()
                .any(|f| f.starts_with(&prefix)),
            "{route} preloads {island}"
        );
    }
}

#[test]
fn an_island_page_preloads_only_files_its_island_loads() {
    // Each island is its own build, so the same catalogue has another name in each: a page
    // that preloads another build's copy fetches its messages twice, the second time late.
    for route in [
        "/auth",
        "/ar/auth",
        "/book-session",
        "/ar/book-session",
        "/dashboard",
        "/ar/dashboard",
        "/admin",
        "/ar/admin",
    ] {
        let preloads = island_preloads(&page(route));
        let texts: Vec<String> = preloads
            .iter()
            .map(|f| fs::read_to_string(built().out.join(f.trim_start_matches('/'))).unwrap())
            .collect();
        for (i, file) in preloads.iter().enumerate().skip(1) {
            let name = format!("./{}", file.rsplit('/').next().unwrap());
            assert!(
                texts
                    .iter()
                    .enumerate()
                    .any(|(j, t)| j != i && t.contains(&name)),
                "{route} preloads {file}, which its island never loads: {preloads:?}"
            );
        }
    }
}

/// The files a page's islands runtime fetches after the first paint (its `data-preload`).
fn island_preloads(html: &str) -> Vec<String> {
    html.split("data-preload=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .map(|list| list.split(' ').map(String::from).collect())
        .unwrap_or_default()
}
