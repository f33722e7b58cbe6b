//! Which pages exist (the route table of spec §2) and what each template sees: one small
//! planner per section.
//!
//! Blog posts and resources are the bulk of a large site and each page shows only its own
//! file, so they are planned one at a time ([`Planner::post`], [`Planner::resource`]); a live
//! rebuild re-plans just the edited one. Every other page ([`Planner::shared`]) may show any
//! content (listings, home sections, FAQ, pricing) and is cheap: those are re-planned on every
//! edit. The listing needs each post's card, computed when the post is planned and kept.
//!
//! A planner plans one language of the site ([`Planner::lib`], [`Planner::locale`]): its pages
//! at its addresses (`/ar/…` for Arabic), each knowing where it is in every other language
//! (its alternates), from the translations of [`Planner::site`].

use std::collections::HashSet;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, Utc};
use rayon::prelude::*;
use serde_json::Value;

use super::page::{FEED_LENGTH, FeedItem, Page};
use super::views;
use crate::assets::AssetMap;
use crate::content::model::{BlogPostMeta, PackageType, ResourceMeta, Video};
use crate::content::{Entry, Library, translation_path};
use crate::locale::Locale;
use crate::markdown;
use crate::render::links::BodyLinks;

pub struct Options<'a> {
    pub drafts: bool,
    pub now: DateTime<Utc>,
    /// Videos fetched from the YouTube channel, merged after the curated ones.
    pub fetched_videos: &'a [Video],
    /// The version of the catalogue this build publishes (`/catalogue.json`).
    pub catalogue_version: &'a str,
}

/// A blog post's card on /resources as planned, before it is rendered.
#[derive(Debug, Clone)]
pub struct CardView<'a> {
    pub created_at: chrono::NaiveDate,
    pub slug: String,
    pub view: views::Card<'a>,
}

/// A blog post's card on /resources, rendered once when the post is (so an edit to one post
/// re-renders one card, not the whole listing), with what orders it.
#[derive(Debug, Clone)]
pub struct PostCard {
    pub created_at: chrono::NaiveDate,
    pub slug: String,
    pub html: String,
}

pub struct Planner<'a> {
    /// The whole site: the default language's library, with the others' inside it.
    pub site: &'a Library,
    /// The library of the language planned.
    pub lib: &'a Library,
    /// The language planned.
    pub locale: &'a Locale,
    /// Every language of the site, the default first.
    pub locales: &'a [Arc<Locale>],
    pub assets: &'a AssetMap,
    pub opts: &'a Options<'a>,
    /// Where the links of this language's Markdown go (`None` for the default language).
    pub links: Option<&'a BodyLinks>,
}

pub use crate::content::TEXT_ROUTES;

impl<'a> Planner<'a> {
    /// A page of the language planned at `route` (`/about` → `/ar/about`), in every language.
    fn page(&self, route: &str, template: &'static str, title: &str, description: &str) -> Page {
        let alternates = self.everywhere(route);
        Page::new(&self.locale.path(route), template, title, description)
            .in_language(self.locale.index, alternates)
    }

    /// `route` in every language.
    fn everywhere(&self, route: &str) -> Vec<Option<String>> {
        self.locales.iter().map(|l| Some(l.path(route))).collect()
    }

    /// Where the entry `e` (of the language planned) is in every language, published: the
    /// original and its translations, at `<dir>/<slug>`. `list` picks the entries of its kind
    /// from a language's library.
    fn family<M>(
        &self,
        e: &Entry<M>,
        list: fn(&Library) -> &[Entry<M>],
        dir: &str,
        published: impl Fn(&M) -> bool,
    ) -> Vec<Option<String>> {
        let original = e.original();
        self.locales
            .iter()
            .map(|l| {
                let entries = list(self.site.in_language(l.index));
                let rel = match l.index {
                    0 => original.to_path_buf(),
                    _ => translation_path(original, &l.code),
                };
                // The entries of a kind are files of one folder, sorted: their whole paths
                // compare as their names do.
                entries
                    .binary_search_by(|x| x.source.as_os_str().cmp(rel.as_os_str()))
                    .ok()
                    .map(|i| &entries[i])
                    .filter(|x| published(&x.meta) || self.opts.drafts)
                    .map(|x| l.path(&format!("{dir}/{}", x.slug)))
            })
            .collect()
    }

    /// A body of the language planned as HTML, its links to the site's pages in its language.
    fn markdown(&self, body: &str) -> markdown::Rendered {
        match self.links {
            Some(links) => markdown::render_linked(body, self.assets, &|href| links.localize(href)),
            None => markdown::render(body, self.assets),
        }
    }

    /// An address of the site (`/contact`) in the language planned, or the default language's
    /// where that page is not translated.
    fn link(&self, path: &str) -> String {
        let missing = self.lib.untranslated_routes(self.locale.index == 0);
        crate::locale::localize(self.locale, &missing, path)
    }

    /// A page whose title and description are in `content/pages.yaml`.
    fn text_page(&self, route: &str, template: &'static str) -> Page {
        let (title, description) = self.lib.page_text(route);
        self.page(route, template, title, description)
    }

    fn published_post(&self, m: &BlogPostMeta) -> bool {
        m.is_published || self.opts.drafts
    }

    fn published_resource(&self, m: &ResourceMeta) -> bool {
        m.is_published || self.opts.drafts
    }

    /// A blog post's page and its card, or `None` when it is not published. `body` is the
    /// post's Markdown: `e.body`, or the text `site build` took out of it to free it early.
    pub fn post<'e>(&self, e: &'e Entry<BlogPostMeta>, body: &str) -> Option<(Page, CardView<'e>)> {
        if !self.published_post(&e.meta) {
            return None;
        }
        let r = self.markdown(body);
        let loc = self.locale;
        let card = views::blog_card(e, &r, loc);
        let description = e.meta.meta_description.as_deref().unwrap_or(&card.excerpt);
        let alternates = self.family(e, |l| &l.blog, "/blog", |m| m.is_published);
        let mut page = Page::new(&card.url, "article.html", &e.meta.title, description)
            .in_language(loc.index, alternates)
            .sourced(&e.source)
            .with_value("article", views::blog_page(e, r, loc).into_value());
        page.og_type = "article";
        page.og_image = e
            .meta
            .featured_image_url
            .as_deref()
            .map(|i| asset_url(self.assets, i));
        page.lastmod = Some(e.meta.created_at);
        let card = CardView {
            created_at: e.meta.created_at,
            slug: e.slug.clone(),
            view: card,
        };
        Some((page, card))
    }

    /// A resource's page, or `None` when it is not published.
    pub fn resource(&self, e: &Entry<ResourceMeta>) -> Option<Page> {
        if !self.published_resource(&e.meta) {
            return None;
        }
        let r = self.markdown(&e.body);
        let loc = self.locale;
        let alternates = self.family(e, |l| &l.resources, "/resources", |m| m.is_published);
        let article = views::resource_page(e, r, loc);
        let mut page = Page::new(
            &article.url,
            "article.html",
            &e.meta.title,
            &e.meta.description,
        )
        .in_language(loc.index, alternates)
        .sourced(&e.source)
        .with_value("article", article.into_value());
        page.og_type = "article";
        page.og_image = e
            .meta
            .image_url
            .as_deref()
            .map(|i| asset_url(self.assets, i));
        page.lastmod = Some(e.meta.updated_at.unwrap_or(e.meta.created_at));
        Some(page)
    }

    /// Every page but the posts' and resources' own, and the feed. `cards` are the published
    /// posts' cards in any order.
    pub fn shared(&self, cards: Vec<&PostCard>) -> (Vec<Page>, Vec<FeedItem>) {
        let mut pages = Vec::new();
        let featured_services = self.services(&mut pages);
        self.home(featured_services, &mut pages);
        self.about(&mut pages);
        let feed = self.resources_listing(cards, &mut pages);
        self.videos(&mut pages);
        self.events(&mut pages);
        self.testimonials(&mut pages);
        pages.push(self.text_page("/contact", "contact.html"));
        self.faq(&mut pages);
        self.pricing(&mut pages);
        self.app_shells(&mut pages);
        self.legal(&mut pages);
        pages.push(self.text_page("/404.html", "404.html").hidden());
        (pages, feed)
    }

    /// /work-with-me and each service's page; returns the featured services for the home page.
    fn services(&self, pages: &mut Vec<Page>) -> Value {
        let settings = &self.lib.settings;
        let mut services: Vec<_> = self
            .lib
            .services
            .par_iter()
            .filter(|e| e.meta.is_active || self.opts.drafts)
            .map(|e| (e, self.markdown(&e.body)))
            .collect();
        services.sort_by_key(|(e, _)| (e.meta.display_order, e.slug.clone()));
        let views: Vec<views::Service> = services
            .iter()
            .map(|(e, r)| views::service(e, Some(r), settings, self.locale))
            .collect();
        pages.push(
            self.text_page("/work-with-me", "work-with-me.html")
                .with("services", &views),
        );
        for ((e, _), view) in services.iter().zip(&views) {
            let description = e
                .meta
                .meta_description
                .clone()
                .unwrap_or(e.meta.short_description.clone());
            let alternates = self.family(e, |l| &l.services, "/services", |m| m.is_active);
            pages.push(
                Page::new(&view.url, "service.html", &e.meta.title, &description)
                    .in_language(self.locale.index, alternates)
                    .sourced(&e.source)
                    .with("service", view),
            );
        }
        pages.push(
            self.text_page("/service-not-found.html", "service-not-found.html")
                .hidden(),
        );
        let featured: Vec<&views::Service> = views.iter().filter(|v| v.is_featured).collect();
        views::to_value(featured)
    }

    fn home(&self, featured_services: Value, pages: &mut Vec<Page>) {
        let lib = self.lib;
        let drafts = self.opts.drafts;
        let settings = &lib.settings;
        let mut logos: Vec<_> = lib
            .logos
            .items
            .iter()
            .filter(|l| l.is_active || drafts)
            .collect();
        logos.sort_by_key(|l| l.display_order);
        let featured_testimonials: Vec<views::TestimonialView> = self
            .testimonials_in_order()
            .into_iter()
            .filter(|t| t.is_featured)
            .map(views::testimonial)
            .collect();
        pages.push(
            self.page(
                "/",
                "index.html",
                &settings.site_info.site_name,
                &settings.site_info.description,
            )
            .with("logos", logos)
            .with_value("featured_services", featured_services)
            .with("featured_testimonials", featured_testimonials),
        );
    }

    /// /about: the about page, or "Page Not Found" when it is not published. Another
    /// language has it only when `pages/about.<lang>.md` translates it.
    fn about(&self, pages: &mut Vec<Page>) {
        let published = |lib: &'a Library| {
            lib.about
                .as_ref()
                .filter(|a| a.meta.is_published || self.opts.drafts)
        };
        if self.locale.index > 0 && self.lib.about.is_none() {
            return;
        }
        let alternates = self
            .locales
            .iter()
            .map(|l| published(self.site.in_language(l.index)).map(|_| l.path("/about")))
            .collect();
        pages.push(match published(self.lib) {
            Some(a) => {
                let r = self.markdown(&a.body);
                Page::new(
                    &self.locale.path("/about"),
                    "about.html",
                    &a.meta.title,
                    &a.meta.meta_description,
                )
                .in_language(self.locale.index, alternates)
                .sourced(&a.source)
                .with("about", views::about(a, &r, &|p| self.link(p)))
            }
            None => self
                .page(
                    "/about",
                    "about.html",
                    self.locale.text("about.not_found_title"),
                    "",
                )
                .in_language(self.locale.index, alternates)
                .hidden()
                .with_value("about", Value::Null),
        });
    }

    /// /resources lists the resources, then the posts newest first; returns the feed.
    fn resources_listing(&self, mut cards: Vec<&PostCard>, pages: &mut Vec<Page>) -> Vec<FeedItem> {
        let mut resources: Vec<_> = self
            .lib
            .resources
            .iter()
            .filter(|e| self.published_resource(&e.meta))
            .collect();
        resources.sort_by_key(|e| (e.meta.display_order, e.slug.clone()));
        cards.sort_by(|a, b| newest_first((a.created_at, &a.slug), (b.created_at, &b.slug)));
        let mut all_tags: Vec<String> = resources
            .iter()
            .flat_map(|e| e.meta.tags.iter())
            .chain(
                self.lib
                    .blog
                    .iter()
                    .filter(|e| self.published_post(&e.meta))
                    .flat_map(|e| e.meta.tags.iter()),
            )
            .cloned()
            .collect();
        all_tags.sort_by_cached_key(|t| t.to_lowercase());
        all_tags.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        let resource_items: Vec<views::Card> = resources
            .iter()
            .map(|e| views::resource_card(e, self.locale))
            .collect();
        // The posts' cards are already HTML: joined, not rendered again.
        let mut post_cards = String::with_capacity(cards.iter().map(|c| c.html.len()).sum());
        for c in &cards {
            post_cards.push_str(&c.html);
        }
        pages.push(
            self.text_page("/resources", "resources.html")
                .with("resource_items", resource_items)
                .with_value("post_cards", Value::String(post_cards))
                .with("all_tags", all_tags),
        );
        self.feed(&cards)
    }

    /// The feed's posts: the newest published ones, [`FEED_LENGTH`] of them, by their index in
    /// `lib.blog`.
    pub fn feed_posts(&self) -> HashSet<usize> {
        let mut published: Vec<(usize, &Entry<BlogPostMeta>)> = self
            .lib
            .blog
            .iter()
            .enumerate()
            .filter(|(_, e)| self.published_post(&e.meta))
            .collect();
        published.sort_by(|(_, a), (_, b)| {
            newest_first((a.meta.created_at, &a.slug), (b.meta.created_at, &b.slug))
        });
        published
            .iter()
            .take(FEED_LENGTH)
            .map(|(i, _)| *i)
            .collect()
    }

    /// The newest posts with their whole text, rendered again: only [`FEED_LENGTH`] of them.
    fn feed(&self, newest_first: &[&PostCard]) -> Vec<FeedItem> {
        let by_slug: std::collections::HashMap<&str, &Entry<BlogPostMeta>> =
            self.lib.blog.iter().map(|e| (e.slug.as_str(), e)).collect();
        newest_first
            .iter()
            .take(FEED_LENGTH)
            .filter_map(|c| by_slug.get(c.slug.as_str()))
            .map(|e| {
                let r = self.markdown(&e.body);
                FeedItem {
                    title: e.meta.title.clone(),
                    path: self.locale.path(&format!("/blog/{}", e.slug)),
                    date: e.meta.created_at,
                    summary: views::blog_excerpt(e, &r),
                    content_html: r.html,
                }
            })
            .collect()
    }

    /// Curated videos first, then the channel's, without repeating an id.
    fn videos(&self, pages: &mut Vec<Page>) {
        let mut seen = HashSet::new();
        let videos: Vec<views::VideoView> = self
            .lib
            .videos
            .items
            .iter()
            .chain(self.opts.fetched_videos)
            .filter(|v| seen.insert(v.youtube_id.clone()))
            .map(|v| views::video(v, self.locale))
            .collect();
        pages.push(
            self.text_page("/videos", "videos.html")
                .with("videos", videos),
        );
    }

    fn events(&self, pages: &mut Vec<Page>) {
        let tz: chrono_tz::Tz = self.lib.settings.time_zone;
        let mut events: Vec<_> = self
            .lib
            .events
            .iter()
            .filter(|e| e.meta.is_published || self.opts.drafts)
            .map(|e| (e, self.markdown(&e.body)))
            .collect();
        events.sort_by_key(|(e, _)| views::event_start(&e.meta, tz));
        let views: Vec<views::Event> = events
            .iter()
            .map(|(e, r)| views::event(e, r, tz, self.opts.now, self.locale))
            .collect();
        pages.push(
            self.text_page("/events", "events.html")
                .with("events", views),
        );
    }

    fn testimonials_in_order(&self) -> Vec<&'a crate::content::model::Testimonial> {
        let mut testimonials: Vec<_> = self
            .lib
            .testimonials
            .items
            .iter()
            .filter(|t| t.is_published || self.opts.drafts)
            .collect();
        testimonials.sort_by_key(|t| t.display_order);
        testimonials
    }

    fn testimonials(&self, pages: &mut Vec<Page>) {
        let views: Vec<views::TestimonialView> = self
            .testimonials_in_order()
            .into_iter()
            .map(views::testimonial)
            .collect();
        pages.push(
            self.text_page("/testimonials", "testimonials.html")
                .with("testimonials", views),
        );
    }

    /// Grouped by category in order of first appearance.
    fn faq(&self, pages: &mut Vec<Page>) {
        let mut faqs: Vec<_> = self
            .lib
            .faqs
            .items
            .iter()
            .filter(|f| f.is_published || self.opts.drafts)
            .collect();
        faqs.sort_by_key(|f| f.display_order);
        let mut groups: Vec<views::FaqGroup> = Vec::new();
        for (i, f) in faqs.iter().enumerate() {
            let item = views::FaqItem {
                id: format!("faq-{}", i + 1),
                question: &f.question,
                answer_html: self.markdown(&f.answer).html,
            };
            match groups.iter_mut().find(|g| g.category == f.category) {
                Some(group) => group.items.push(item),
                None => groups.push(views::FaqGroup {
                    category: &f.category,
                    items: vec![item],
                }),
            }
        }
        let show_categories = groups.len() > 1;
        pages.push(
            self.text_page("/faq", "faq.html")
                .with("faq_groups", groups)
                .with("show_categories", show_categories),
        );
    }

    fn pricing(&self, pages: &mut Vec<Page>) {
        let active: Vec<_> = self
            .lib
            .packages
            .items
            .iter()
            .filter(|p| p.is_active || self.opts.drafts)
            .collect();
        // Each purchase names the catalogue its page was built with, so the API prices it
        // from that one (see api/src/catalogue.rs).
        let version = self.opts.catalogue_version;
        for (path, kind) in [
            ("/pricing", PackageType::Individual),
            ("/group-team-coaching-pricing", PackageType::Group),
        ] {
            // The page's description is also its introduction.
            let (title, intro) = self.lib.page_text(path);
            pages.push(
                self.page(path, "pricing.html", title, intro)
                    .with(
                        "pricing",
                        views::Pricing {
                            package_type: kind,
                            title,
                            intro,
                        },
                    )
                    .with(
                        "packages",
                        views::packages(&active, kind, &self.site.settings.payments, self.locale),
                    )
                    .with("catalogue_version", version),
            );
        }
    }

    /// The terms and policies translated into the language planned.
    fn legal(&self, pages: &mut Vec<Page>) {
        for doc in &self.lib.legal {
            let text = self.markdown(&doc.doc.body);
            let ar = doc.arabic.as_ref().map(|a| self.markdown(&a.body));
            let description = doc
                .doc
                .meta
                .meta_description
                .clone()
                .unwrap_or_else(|| doc.doc.meta.title.clone());
            let route = format!("/{}", doc.name);
            let alternates = self
                .locales
                .iter()
                .map(|l| {
                    let lib = self.site.in_language(l.index);
                    lib.legal
                        .iter()
                        .any(|d| d.name == doc.name)
                        .then(|| l.path(&route))
                })
                .collect();
            let mut page = Page::new(
                &self.locale.path(&route),
                "legal.html",
                &doc.doc.meta.title,
                &description,
            )
            .in_language(self.locale.index, alternates)
            .sourced(&doc.doc.source)
            .with("legal", views::legal(doc, &text, ar.as_ref(), self.locale));
            page.lastmod = doc.doc.meta.updated_at;
            pages.push(page);
        }
    }
}

/// The pages where islands mount, and the pages the payment and newsletter flows land on.
/// Every island shows session times in the coach's time zone.
impl Planner<'_> {
    /// The client portal's and the admin's pages: a heading and the island that runs them.
    fn app_shells(&self, pages: &mut Vec<Page>) {
        for (path, island) in [
            ("/payment/success", "PaymentSuccess"),
            ("/auth", "AuthPage"),
            ("/dashboard", "ClientDashboard"),
            ("/admin", "AdminDashboard"),
            ("/book-session", "BookSession"),
            ("/admin/add-payment", "AddPayment"),
            ("/admin/client", "AdminClient"),
            // The coach's editor (issue 25): Decap CMS, a bundle of its own (islands/build.mjs).
            ("/admin/content", "ContentEditor"),
            ("/receipt", "Receipt"),
            // A sponsor's invoice and usage report (issue 23): opened from a link with a
            // token, without an account; not indexed, like every page here but /auth.
            ("/invoice", "Invoice"),
            ("/sponsor-report", "SponsorReport"),
        ] {
            // The island's first API reads, started by the page script while React downloads
            // (islands/src/lib/early.ts), and for whom.
            let early = match path {
                "/dashboard" => Some(("/api/auth/session /api/dashboard", "client")),
                "/book-session" => Some(("/api/auth/session /api/book-session", "client")),
                "/admin" => Some((
                    "/api/auth/session /api/admin/stats /api/admin/clients",
                    "admin",
                )),
                _ => None,
            };
            let (heading, _) = self.lib.page_text(path);
            let public = path == "/auth";
            let app = views::AppShell {
                island,
                heading,
                props: views::IslandProps {
                    time_zone: self.lib.settings.time_zone.name(),
                    default_validity_months: self.lib.settings.credits.default_validity_months,
                },
                early_api: early.map(|(paths, _)| paths),
                early_for: early.map(|(_, role)| role),
                public,
            };
            let page = self.text_page(path, "app.html").with("app", app);
            pages.push(if public { page } else { page.hidden() });
        }
        pages.push(
            self.text_page("/payment/failed", "payment-failed.html")
                .hidden(),
        );
        // Opened from the newsletter confirmation email; its button POSTs the token.
        pages.push(
            self.text_page("/newsletter/confirm", "newsletter-confirm.html")
                .hidden(),
        );
    }
}

/// The order of posts on /resources and in the feed: newest first, then by slug. One
/// function, because `site build` keeps the Markdown of exactly the posts the feed will show.
fn newest_first(a: (NaiveDate, &str), b: (NaiveDate, &str)) -> std::cmp::Ordering {
    b.0.cmp(&a.0).then(a.1.cmp(b.1))
}

/// An image field as published: `/static/…` paths get their fingerprinted name.
fn asset_url(assets: &AssetMap, path: &str) -> String {
    assets.lookup(path).unwrap_or_else(|| path.to_string())
}
