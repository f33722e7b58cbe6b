//! From a validated [`Library`] to HTML: which pages exist (the route table of spec §2), what
//! each template sees, and the parallel render.

pub mod views;

use std::path::PathBuf;

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use rayon::prelude::*;
use serde_json::{Map, Value, json};
use tera::{Context, Tera};

use crate::assets::AssetMap;
use crate::content::model::{PackageType, Video};
use crate::content::{Entry, Library};
use crate::diagnostics::Diagnostic;
use crate::markdown::{self, Rendered};
use crate::templates::error_chain;

/// One page to render.
#[derive(Debug, Clone)]
pub struct Page {
    /// The route, e.g. `/about`; `/404.html` for files served as they are.
    pub path: String,
    pub template: &'static str,
    pub title: String,
    pub description: String,
    pub og_type: &'static str,
    pub og_image: Option<String>,
    /// App shells and error pages stay out of search engines and the sitemap.
    pub noindex: bool,
    pub lastmod: Option<NaiveDate>,
    /// The content file the page comes from, for error messages; `None` for template-only pages.
    pub source: Option<PathBuf>,
    pub data: Map<String, Value>,
}

impl Page {
    fn new(path: &str, template: &'static str, title: &str, description: &str) -> Page {
        Page {
            path: path.to_string(),
            template,
            title: title.to_string(),
            description: description.to_string(),
            og_type: "website",
            og_image: None,
            noindex: false,
            lastmod: None,
            source: None,
            data: Map::new(),
        }
    }

    fn with(mut self, key: &str, value: Value) -> Page {
        self.data.insert(key.to_string(), value);
        self
    }

    fn sourced(mut self, source: &std::path::Path) -> Page {
        self.source = Some(source.to_path_buf());
        self
    }

    fn hidden(mut self) -> Page {
        self.noindex = true;
        self
    }

    /// The file under the output folder: `/` → `index.html`, `/about` → `about/index.html`.
    pub fn output_file(&self) -> String {
        output_file(&self.path)
    }

    pub fn in_sitemap(&self) -> bool {
        !self.noindex
    }
}

pub fn output_file(path: &str) -> String {
    let trimmed = path.trim_matches('/');
    if trimmed.is_empty() {
        "index.html".into()
    } else if trimmed.ends_with(".html") {
        trimmed.into()
    } else {
        format!("{trimmed}/index.html")
    }
}

/// A rendered page.
#[derive(Debug, Clone)]
pub struct RenderedPage {
    pub path: String,
    pub file: String,
    pub html: String,
    pub source: String,
}

/// Feed readers want the latest posts, not the archive.
const FEED_LENGTH: usize = 20;

pub struct Plan {
    pub pages: Vec<Page>,
    /// The newest published blog posts, for the feed.
    pub feed: Vec<FeedItem>,
}

#[derive(Debug, Clone)]
pub struct FeedItem {
    pub title: String,
    pub path: String,
    pub date: NaiveDate,
    pub summary: String,
    pub content_html: String,
}

pub struct Options<'a> {
    pub drafts: bool,
    pub now: DateTime<Utc>,
    /// Videos fetched from the YouTube channel, merged after the curated ones.
    pub fetched_videos: &'a [Video],
}

fn render_all<'a, M: Sync>(
    entries: &'a [Entry<M>],
    keep: impl Fn(&M) -> bool + Sync,
    assets: &AssetMap,
) -> Vec<(&'a Entry<M>, Rendered)> {
    entries
        .par_iter()
        .filter(|e| keep(&e.meta))
        .map(|e| (e, markdown::render(&e.body, assets)))
        .collect()
}

/// Decides every page of the site and what its template sees.
pub fn plan(lib: &Library, assets: &AssetMap, opts: &Options) -> Plan {
    let drafts = opts.drafts;
    let settings = &lib.settings;
    let site_name = &settings.site_info.site_name;
    let mut pages = Vec::new();

    // --- services
    let mut services = render_all(&lib.services, |m| m.is_active || drafts, assets);
    services.sort_by_key(|(e, _)| (e.meta.display_order, e.slug.clone()));
    let service_views: Vec<Value> = services
        .iter()
        .map(|(e, r)| views::service(e, Some(r), settings))
        .collect();
    let featured_services: Vec<Value> = services
        .iter()
        .zip(&service_views)
        .filter(|((e, _), _)| e.meta.is_featured)
        .map(|(_, v)| v.clone())
        .collect();

    // --- lists
    let mut logos: Vec<_> = lib
        .logos
        .items
        .iter()
        .filter(|l| l.is_active || drafts)
        .collect();
    logos.sort_by_key(|l| l.display_order);
    let mut testimonials: Vec<_> = lib
        .testimonials
        .items
        .iter()
        .filter(|t| t.is_published || drafts)
        .collect();
    testimonials.sort_by_key(|t| t.display_order);
    let testimonial_views: Vec<Value> =
        testimonials.iter().map(|t| views::testimonial(t)).collect();
    let featured_testimonials: Vec<Value> = testimonials
        .iter()
        .filter(|t| t.is_featured)
        .map(|t| views::testimonial(t))
        .collect();

    pages.push(
        Page::new(
            "/",
            "index.html",
            site_name,
            &settings.site_info.description,
        )
        .with("logos", json!(logos))
        .with("featured_services", json!(featured_services))
        .with("featured_testimonials", json!(featured_testimonials)),
    );
    pages.push(
        Page::new(
            "/work-with-me",
            "work-with-me.html",
            "Work With Me",
            "Executive coaching programmes: one-to-one coaching, group and team coaching, workshops and retreats.",
        )
        .with("services", json!(service_views)),
    );
    for ((e, _), view) in services.iter().zip(&service_views) {
        let description = e
            .meta
            .meta_description
            .clone()
            .unwrap_or(e.meta.short_description.clone());
        pages.push(
            Page::new(
                &format!("/services/{}", e.slug),
                "service.html",
                &e.meta.title,
                &description,
            )
            .sourced(&e.source)
            .with("service", view.clone()),
        );
    }
    pages.push(
        Page::new(
            "/service-not-found.html",
            "service-not-found.html",
            "Service Not Found",
            "",
        )
        .hidden(),
    );

    // --- about
    let about = lib.about.as_ref().filter(|a| a.meta.is_published || drafts);
    pages.push(match about {
        Some(a) => {
            let r = markdown::render(&a.body, assets);
            Page::new(
                "/about",
                "about.html",
                &a.meta.title,
                &a.meta.meta_description,
            )
            .sourced(&a.source)
            .with("about", views::about(a, &r))
        }
        None => Page::new("/about", "about.html", "Page Not Found", "")
            .hidden()
            .with("about", Value::Null),
    });

    // --- resources and blog
    let mut resources = render_all(&lib.resources, |m| m.is_published || drafts, assets);
    resources.sort_by_key(|(e, _)| (e.meta.display_order, e.slug.clone()));
    let mut posts = render_all(&lib.blog, |m| m.is_published || drafts, assets);
    posts.sort_by(|(a, _), (b, _)| {
        b.meta
            .created_at
            .cmp(&a.meta.created_at)
            .then(a.slug.cmp(&b.slug))
    });
    // Per-item work runs in parallel: at 10,000 posts it is as large as the Markdown itself.
    let (mut items, resource_pages): (Vec<Value>, Vec<Page>) = resources
        .par_iter()
        .map(|(e, r)| {
            let mut page = Page::new(
                &format!("/resources/{}", e.slug),
                "article.html",
                &e.meta.title,
                &e.meta.description,
            )
            .sourced(&e.source)
            .with("article", views::resource_page(e, r));
            page.og_type = "article";
            page.og_image = e.meta.image_url.as_deref().map(|i| asset_url(assets, i));
            page.lastmod = Some(e.meta.updated_at.unwrap_or(e.meta.created_at));
            (views::resource_card(e), page)
        })
        .unzip();
    let feed: Vec<FeedItem> = posts
        .iter()
        .take(FEED_LENGTH)
        .map(|(e, r)| FeedItem {
            title: e.meta.title.clone(),
            path: format!("/blog/{}", e.slug),
            date: e.meta.created_at,
            summary: views::blog_excerpt(e, r),
            content_html: r.html.clone(),
        })
        .collect();
    let mut all_tags: Vec<String> = resources
        .iter()
        .flat_map(|(e, _)| e.meta.tags.iter())
        .chain(posts.iter().flat_map(|(e, _)| e.meta.tags.iter()))
        .cloned()
        .collect();
    all_tags.sort_by_cached_key(|t| t.to_lowercase());
    all_tags.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    // The posts are consumed: each post's HTML moves into its page instead of being copied.
    let (post_cards, post_pages): (Vec<Value>, Vec<Page>) = posts
        .into_par_iter()
        .map(|(e, r)| {
            let card = views::blog_card(e, &r);
            let description = e
                .meta
                .meta_description
                .clone()
                .unwrap_or_else(|| card["excerpt"].as_str().unwrap_or_default().to_string());
            let mut page = Page::new(
                &format!("/blog/{}", e.slug),
                "article.html",
                &e.meta.title,
                &description,
            )
            .sourced(&e.source)
            .with("article", views::blog_page(e, r));
            page.og_type = "article";
            page.og_image = e
                .meta
                .featured_image_url
                .as_deref()
                .map(|i| asset_url(assets, i));
            page.lastmod = Some(e.meta.created_at);
            (card, page)
        })
        .unzip();
    items.extend(post_cards);
    pages.push(
        Page::new(
            "/resources",
            "resources.html",
            "Resources",
            "Guides, tools and articles on leadership, strategy and executive effectiveness.",
        )
        .with("items", Value::Array(items))
        .with("all_tags", json!(all_tags)),
    );
    pages.extend(resource_pages);
    pages.extend(post_pages);

    // --- videos: curated first, then the channel's, without repeating an id
    let mut seen = std::collections::HashSet::new();
    let videos: Vec<Value> = lib
        .videos
        .items
        .iter()
        .chain(opts.fetched_videos)
        .filter(|v| seen.insert(v.youtube_id.clone()))
        .map(views::video)
        .collect();
    pages.push(
        Page::new(
            "/videos",
            "videos.html",
            "Videos",
            "Talks and short lessons on executive leadership.",
        )
        .with("videos", json!(videos)),
    );

    // --- events
    let tz: chrono_tz::Tz = settings
        .time_zone
        .parse()
        .unwrap_or(chrono_tz::Africa::Cairo);
    let mut events = render_all(&lib.events, |m| m.is_published || drafts, assets);
    events.sort_by_key(|(e, _)| views::event_start(&e.meta, tz));
    let event_views: Vec<Value> = events
        .iter()
        .map(|(e, r)| views::event(e, r, tz, opts.now))
        .collect();
    pages.push(
        Page::new(
            "/events",
            "events.html",
            "Events",
            "Workshops, talks and leadership retreats.",
        )
        .with("events", json!(event_views)),
    );

    pages.push(
        Page::new(
            "/testimonials",
            "testimonials.html",
            "Testimonials",
            "What executives say about working together.",
        )
        .with("testimonials", json!(testimonial_views)),
    );
    pages.push(Page::new(
        "/contact",
        "contact.html",
        "Contact",
        "Send a message or request a complimentary discovery call. Replies within 1-2 business days.",
    ));

    // --- FAQ, grouped by category in order of first appearance
    let mut faqs: Vec<_> = lib
        .faqs
        .items
        .iter()
        .filter(|f| f.is_published || drafts)
        .collect();
    faqs.sort_by_key(|f| f.display_order);
    let mut groups: Vec<(String, Vec<Value>)> = Vec::new();
    for (i, f) in faqs.iter().enumerate() {
        let item = json!({
            "id": format!("faq-{}", i + 1),
            "question": f.question,
            "answer_html": markdown::render(&f.answer, assets).html,
        });
        match groups.iter_mut().find(|(c, _)| *c == f.category) {
            Some((_, items)) => items.push(item),
            None => groups.push((f.category.clone(), vec![item])),
        }
    }
    let show_categories = groups.len() > 1;
    let faq_groups: Vec<Value> = groups
        .into_iter()
        .map(|(c, items)| json!({"category": c, "items": items}))
        .collect();
    pages.push(
        Page::new(
            "/faq",
            "faq.html",
            "Frequently Asked Questions",
            "Answers about coaching, packages, payments and scheduling.",
        )
        .with("faq_groups", json!(faq_groups))
        .with("show_categories", json!(show_categories)),
    );

    // --- pricing
    let active: Vec<_> = lib
        .packages
        .items
        .iter()
        .filter(|p| p.is_active || drafts)
        .collect();
    for (path, kind, title, intro) in [
        (
            "/pricing",
            PackageType::Individual,
            "1-to-1 Coaching Session Pricing",
            "Invest in focused, confidential one-to-one executive coaching. Buy a package once and book each session with a credit.",
        ),
        (
            "/group-team-coaching-pricing",
            PackageType::Group,
            "Group & Team Coaching Pricing",
            "Build a high-performing leadership team. Packages are priced per hour of group coaching.",
        ),
    ] {
        pages.push(
            Page::new(path, "pricing.html", title, intro)
                .with(
                    "pricing",
                    json!({"package_type": kind, "title": title, "intro": intro}),
                )
                .with("packages", json!(views::packages(&active, kind))),
        );
    }

    // --- app shells where islands mount
    for (path, island, heading) in [
        (
            "/payment/success",
            "PaymentSuccess",
            "Confirming Your Payment",
        ),
        ("/auth", "AuthPage", "Client Login"),
        ("/dashboard", "ClientDashboard", "Client Dashboard"),
        ("/admin", "AdminDashboard", "Admin Dashboard"),
        ("/book-session", "BookSession", "Book a Session"),
        ("/admin/add-payment", "AddPayment", "Add Payment"),
        ("/admin/client", "AdminClient", "Client"),
        ("/receipt", "Receipt", "Receipt"),
    ] {
        pages.push(
            Page::new(path, "app.html", heading, "")
                .hidden()
                .with("app", json!({"island": island, "heading": heading})),
        );
    }
    pages.push(
        Page::new(
            "/payment/failed",
            "payment-failed.html",
            "Payment Failed",
            "",
        )
        .hidden(),
    );
    // Opened from the newsletter confirmation email; its button POSTs the token.
    pages.push(
        Page::new(
            "/newsletter/confirm",
            "newsletter-confirm.html",
            "Confirm your subscription",
            "",
        )
        .hidden(),
    );

    // --- legal
    for doc in &lib.legal {
        let en = markdown::render(&doc.en.body, assets);
        let ar = doc.ar.as_ref().map(|a| markdown::render(&a.body, assets));
        let description = doc
            .en
            .meta
            .meta_description
            .clone()
            .unwrap_or_else(|| doc.en.meta.title.clone());
        let mut page = Page::new(
            &format!("/{}", doc.name),
            "legal.html",
            &doc.en.meta.title,
            &description,
        )
        .sourced(&doc.en.source)
        .with("legal", views::legal(doc, &en, ar.as_ref()));
        page.lastmod = doc.en.meta.updated_at;
        pages.push(page);
    }

    pages.push(Page::new("/404.html", "404.html", "Page not found", "").hidden());

    Plan { pages, feed }
}

/// The context every template shares, built once per build.
pub fn base_context(lib: &Library, drafts: bool, now: DateTime<Utc>) -> Map<String, Value> {
    let mut ctx = Map::new();
    ctx.insert("site".into(), views::site(&lib.settings, now.year()));
    ctx.insert("nav".into(), views::Nav::header());
    ctx.insert("footer_nav".into(), views::Nav::footer());
    ctx.insert("drafts".into(), Value::Bool(drafts));
    ctx
}

/// Renders every page in parallel. All template errors are returned, not only the first.
/// Pages are consumed: each page's data moves into its template context and is freed once the
/// page is rendered, so a large site never holds its content twice.
pub fn render(
    tera: &Tera,
    base: &Map<String, Value>,
    pages: Vec<Page>,
    base_url: &str,
) -> Result<Vec<RenderedPage>, Vec<Diagnostic>> {
    let base_url = base_url.trim_end_matches('/');
    let site_name = base["site"]["name"].as_str().unwrap_or("");
    let results: Vec<Result<RenderedPage, Diagnostic>> = pages
        .into_par_iter()
        .map(|page| {
            let mut ctx = base.clone();
            let canonical_path = if page.path.ends_with(".html") {
                "/"
            } else {
                page.path.as_str()
            };
            let title = if page.path == "/" {
                page.title.clone()
            } else {
                format!("{} | {site_name}", page.title)
            };
            let og_image = page.og_image.as_ref().map(|i| absolute(base_url, i));
            ctx.insert(
                "meta".into(),
                json!({
                    "title": title,
                    "description": page.description,
                    "canonical": absolute(base_url, canonical_path),
                    "og_type": page.og_type,
                    "og_image": og_image,
                    "noindex": page.noindex,
                }),
            );
            ctx.insert("path".into(), Value::String(page.path.clone()));
            let source = match &page.source {
                Some(s) => s.display().to_string(),
                None => format!("themes/default/templates/{}", page.template),
            };
            let file = page.output_file();
            let Page {
                path,
                template,
                data,
                ..
            } = page;
            ctx.extend(data);
            let rendered =
                Context::from_value(Value::Object(ctx)).and_then(|ctx| tera.render(template, &ctx));

            rendered
                .map(|html| RenderedPage {
                    path: path.clone(),
                    file,
                    html,
                    source,
                })
                .map_err(|e| {
                    Diagnostic::new(
                        format!("themes/default/templates/{template}"),
                        format!("rendering {path} failed: {}", error_chain(&e)),
                    )
                    .hint("fix the template, or the content field the message names")
                })
        })
        .collect();
    let mut ok = Vec::with_capacity(results.len());
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(p) => ok.push(p),
            Err(d) => errors.push(d),
        }
    }
    if errors.is_empty() {
        Ok(ok)
    } else {
        Err(errors)
    }
}

/// An image field as published: `/static/…` paths get their fingerprinted name.
fn asset_url(assets: &AssetMap, path: &str) -> String {
    assets.lookup(path).unwrap_or_else(|| path.to_string())
}

/// `https://example.com` + `/about` → `https://example.com/about`; absolute URLs pass through.
pub fn absolute(base_url: &str, path: &str) -> String {
    if path.starts_with("http://") || path.starts_with("https://") {
        path.to_string()
    } else {
        format!("{}{}", base_url.trim_end_matches('/'), path)
    }
}
