//! From a validated [`Library`] to HTML: which pages exist (the route table of spec §2), what
//! each template sees, and the parallel render.

pub mod links;
mod page;
pub mod plan;
pub mod views;

pub use page::{FEED_LENGTH, FeedItem, Page, output_file};

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Datelike, Utc};
use serde_json::{Map, Value, json};
use tera::{Context, Tera};

use crate::content::Library;
use crate::diagnostics::Diagnostic;
use crate::locale::{self, Locale};
use crate::templates::error_chain;

/// A rendered page.
#[derive(Debug, Clone)]
pub struct RenderedPage {
    pub path: String,
    pub file: String,
    pub html: String,
    pub source: String,
}

/// The context every template of one language shares, built once per build: `lib` is that
/// language's library, `locales` every language's texts, `missing` the routes without a page
/// in this language (their links lead to the default language's).
pub fn base_context(
    lib: &Library,
    locale: &Locale,
    locales: &[Arc<Locale>],
    missing: &HashSet<String>,
    drafts: bool,
    now: DateTime<Utc>,
) -> Map<String, Value> {
    let url = |route: &str| locale::localize(locale, missing, route);
    let mut ctx = Map::new();
    let site = views::site(&lib.settings, now.year(), &url);
    ctx.insert("site".into(), views::to_value(site));
    ctx.insert(
        "nav".into(),
        views::to_value(views::Nav::header(locale, &url)),
    );
    ctx.insert(
        "footer_nav".into(),
        views::to_value(views::Nav::footer(locale, &url)),
    );
    ctx.insert("drafts".into(), Value::Bool(drafts));
    let multilingual = locales.len() > 1;
    let lang = views::Lang {
        code: &locale.code,
        dir: &locale.dir,
        name: &locale.name,
        og_locale: &locale.og_locale,
        fonts: &locale.fonts,
        multilingual,
        home: locale.path("/"),
        switch: locales
            .iter()
            .filter(|l| l.index != locale.index)
            .map(|l| views::SwitchLink {
                code: l.code.clone(),
                dir: l.dir.clone(),
                name: l.name.clone(),
                href: switch_marker(&l.code),
            })
            .collect(),
    };
    ctx.insert("lang".into(), views::to_value(lang));
    ctx
}

/// What the header holds in place of the language switch's address to `code`, replaced page by
/// page (the header is rendered once per section).
fn switch_marker(code: &str) -> String {
    format!("__language_switch_{code}__")
}

/// Where the switch to another language leads from a page not translated into it: the nearest
/// translated parent, the page its breadcrumb leads to (a service → /work-with-me, a post or
/// resource → /resources), else the home page. `route` is the page's route, without a
/// language prefix.
pub fn parent_route(route: &str) -> &'static str {
    let first = route
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or("");
    match first {
        "services" => "/work-with-me",
        "blog" | "resources" => "/resources",
        _ => "/",
    }
}

/// Renders the pages of one language: the shared context, the theme and the islands' head
/// tags.
pub struct Renderer<'a> {
    /// The theme, with `t`, `text` and `url` in this language.
    pub tera: &'a Tera,
    pub base: &'a Map<String, Value>,
    pub base_url: &'a str,
    pub islands: Option<&'a crate::islands::Manifest>,
    pub chrome: &'a Chrome,
    /// This language.
    pub locale: &'a Locale,
    /// Every language of the site, the default first.
    pub locales: &'a [Arc<Locale>],
}

/// The header and footer (`chrome/header.html`, `chrome/footer.html`), rendered once per
/// section (and language) instead of once per page: they were a quarter of a large build's CPU.
#[derive(Default)]
pub struct Chrome {
    by_section: Mutex<HashMap<String, Arc<SectionChrome>>>,
}

/// One section's header and footer.
struct SectionChrome {
    header: String,
    footer: String,
}

/// What a page's template prints in place of the header, the footer and an article's text:
/// the renderer puts them in afterwards. The bulk of a page never goes through Tera, which
/// would copy it into its buffer and check it is UTF-8 again (a tenth of a large Arabic
/// build's CPU). `\u{1}` is no character of a page.
const HEADER_MARK: &str = "\u{1}chrome.header\u{1}";
const FOOTER_MARK: &str = "\u{1}chrome.footer\u{1}";
const TEXT_MARK: &str = "\u{1}article.content_html\u{1}";
const CARDS_MARK: &str = "\u{1}post_cards\u{1}";

/// The pieces the renderer puts into a page in place of their marks.
struct Pieces<'a> {
    chrome: &'a SectionChrome,
    /// The language switch's address to each other language: `(mark, address)`.
    switch: Vec<(String, String)>,
    text: Option<String>,
    cards: Option<String>,
}

impl Pieces<'_> {
    /// `rendered` with every mark replaced by its piece.
    fn assemble(&self, rendered: &str) -> String {
        let text = self.text.as_deref().unwrap_or("");
        let cards = self.cards.as_deref().unwrap_or("");
        let mut out = String::with_capacity(
            rendered.len()
                + self.chrome.header.len()
                + self.chrome.footer.len()
                + text.len()
                + cards.len(),
        );
        let mut rest = rendered;
        while let Some(at) = rest.find('\u{1}') {
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            let mark = [HEADER_MARK, FOOTER_MARK, TEXT_MARK, CARDS_MARK]
                .into_iter()
                .find(|m| rest.starts_with(m));
            match mark {
                Some(HEADER_MARK) => self.header(&mut out),
                Some(FOOTER_MARK) => out.push_str(&self.chrome.footer),
                Some(TEXT_MARK) => out.push_str(text),
                Some(CARDS_MARK) => out.push_str(cards),
                _ => {
                    out.push('\u{1}');
                    rest = &rest[1..];
                    continue;
                }
            }
            rest = &rest[mark.map_or(1, str::len)..];
        }
        out.push_str(rest);
        out
    }

    /// The header, its language switch leading where this page's does.
    fn header(&self, out: &mut String) {
        let mut rest = self.chrome.header.as_str();
        loop {
            let next = self
                .switch
                .iter()
                .filter_map(|(mark, href)| rest.find(mark.as_str()).map(|at| (at, mark, href)))
                .min_by_key(|(at, _, _)| *at);
            let Some((at, mark, href)) = next else {
                out.push_str(rest);
                return;
            };
            out.push_str(&rest[..at]);
            out.push_str(href);
            rest = &rest[at + mark.len()..];
        }
    }
}

/// The first segment of a route: `/blog/x` → `/blog`, `/about` → `/about`, `/` → `/`. Every
/// navigation link is one segment long, so the chrome's active link is the same for every page
/// of a section.
pub fn section(path: &str) -> &str {
    match path.get(1..).and_then(|rest| rest.find('/')) {
        Some(i) => &path[..=i],
        None => path,
    }
}

impl Renderer<'_> {
    /// The header and footer of the section of `path`, rendered on first use.
    fn chrome(&self, path: &str) -> Result<Arc<SectionChrome>, tera::Error> {
        let section = self.locale.path(section(self.locale.route(path)));
        if let Some(c) = self.chrome.by_section.lock().unwrap().get(&section) {
            return Ok(c.clone());
        }
        let mut ctx = self.base.clone();
        ctx.insert("path".into(), Value::String(section.clone()));
        let ctx = Context::from_value(Value::Object(ctx))?;
        let chrome = Arc::new(SectionChrome {
            header: self.tera.render("chrome/header.html", &ctx)?,
            footer: self.tera.render("chrome/footer.html", &ctx)?,
        });
        self.chrome
            .by_section
            .lock()
            .unwrap()
            .insert(section, chrome.clone());
        Ok(chrome)
    }

    /// Where the language switch leads from `page` to each other language, as `(mark in the
    /// header, address)`: the same page there, or its nearest translated parent.
    fn switch(&self, page: &Page) -> Vec<(String, String)> {
        let route = self.locale.route(&page.path);
        let file = page.path.ends_with(".html");
        self.locales
            .iter()
            .filter(|l| l.index != self.locale.index)
            .map(|l| {
                let target = match page.alternates.get(l.index) {
                    Some(Some(path)) if !file => path.clone(),
                    _ if file => l.path("/"),
                    _ => l.path(parent_route(route)),
                };
                (switch_marker(&l.code), locale::escape_text(&target))
            })
            .collect()
    }

    /// `meta.alternates` and `meta.og_locale_alternates` of `page`: empty on a site in one
    /// language, for a page in one language only, and for the files served as they are (404).
    fn alternates(&self, page: &Page) -> (Vec<views::Alternate>, Vec<String>) {
        let present: Vec<(&Locale, &str)> = self
            .locales
            .iter()
            .filter_map(|l| match page.alternates.get(l.index) {
                Some(Some(p)) => Some((l.as_ref(), p.as_str())),
                _ => None,
            })
            .collect();
        if present.len() < 2 || page.path.ends_with(".html") {
            return (Vec::new(), Vec::new());
        }
        let base_url = self.base_url.trim_end_matches('/');
        let mut links: Vec<views::Alternate> = present
            .iter()
            .map(|(l, p)| views::Alternate {
                hreflang: l.code.clone(),
                href: absolute(base_url, p),
            })
            .collect();
        if let Some(Some(default)) = page.alternates.first() {
            links.push(views::Alternate {
                hreflang: "x-default".into(),
                href: absolute(base_url, default),
            });
        }
        let og = present
            .iter()
            .filter(|(l, _)| l.index != self.locale.index)
            .map(|(l, _)| l.og_locale.clone())
            .collect();
        (links, og)
    }

    /// Renders a blog post's card for the /resources listing (`partials/post_card.html`).
    pub fn card(&self, card: plan::CardView<'_>) -> Result<plan::PostCard, Diagnostic> {
        let mut ctx = Context::new();
        ctx.insert("item", &card.view);
        let html = render_bytes(self.tera, "partials/post_card.html", &ctx)
            .map(|bytes| utf8(&bytes).to_string())
            .map_err(|e| {
                Diagnostic::new(
                    "themes/default/templates/partials/post_card.html",
                    format!(
                        "rendering the card of /blog/{} failed: {}",
                        card.slug,
                        error_chain(&e)
                    ),
                )
                .hint("fix the template, or the content field the message names")
            })?;
        Ok(plan::PostCard {
            created_at: card.created_at,
            slug: card.slug,
            html,
        })
    }

    /// Renders one page. The page is consumed: its data moves into the template context and
    /// is freed as soon as the page is rendered.
    pub fn render(&self, page: Page) -> Result<RenderedPage, Diagnostic> {
        let base_url = self.base_url.trim_end_matches('/');
        let site_name = self.base["site"]["name"].as_str().unwrap_or("");
        let mut ctx = self.base.clone();
        let home = self.locale.path("/");
        let canonical_path = if page.path.ends_with(".html") {
            home.as_str()
        } else {
            page.path.as_str()
        };
        let (alternates, og_locale_alternates) = self.alternates(&page);
        let title = if page.path == home {
            page.title.clone()
        } else {
            format!("{} | {site_name}", page.title)
        };
        let og_image = page.og_image.as_ref().map(|i| absolute(base_url, i));
        let meta = views::Meta {
            title,
            description: &page.description,
            canonical: absolute(base_url, canonical_path),
            og_type: page.og_type,
            og_image,
            noindex: page.noindex,
            alternates,
            og_locale_alternates,
        };
        ctx.insert("meta".into(), views::to_value(meta));
        ctx.insert("path".into(), Value::String(page.path.clone()));
        let chrome = self.chrome(&page.path);
        let switch = self.switch(&page);
        let source = match &page.source {
            Some(s) => s.display().to_string(),
            None => format!("themes/default/templates/{}", page.template),
        };
        let file = page.output_file();
        let Page {
            path,
            template,
            mut data,
            ..
        } = page;
        // The article's text and the listing's cards go in after the template, like the chrome.
        // (An empty one stays: a template may test it.)
        let take = |value: Option<&mut Value>, mark: &str| match value {
            Some(Value::String(s)) if !s.is_empty() => Some(std::mem::replace(s, mark.to_string())),
            _ => None,
        };
        let text = take(
            data.get_mut("article")
                .and_then(|a| a.get_mut("content_html")),
            TEXT_MARK,
        );
        let cards = take(data.get_mut("post_cards"), CARDS_MARK);
        ctx.extend(data);
        let rendered = chrome.and_then(|chrome| {
            ctx.insert(
                "chrome".into(),
                json!({"header": HEADER_MARK, "footer": FOOTER_MARK}),
            );
            let rendered = Context::from_value(Value::Object(ctx))
                .and_then(|ctx| render_bytes(self.tera, template, &ctx))?;
            let pieces = Pieces {
                chrome: &chrome,
                switch,
                text,
                cards,
            };
            Ok(pieces.assemble(utf8(&rendered)))
        });
        let mut html = rendered.map_err(|e: tera::Error| {
            Diagnostic::new(
                format!("themes/default/templates/{template}"),
                format!("rendering {path} failed: {}", error_chain(&e)),
            )
            .hint("fix the template, or the content field the message names")
        })?;
        // Only pages that mount an island load the runtime and preload their chunks.
        if let Some(manifest) = self.islands {
            let used = crate::islands::used_in(&html);
            if !used.is_empty() {
                html = html.replacen(
                    "</head>",
                    &format!("{}</head>", manifest.head_tags(&used, &self.locale.code)),
                    1,
                );
            }
        }
        Ok(RenderedPage {
            path,
            file,
            html,
            source,
        })
    }
}

/// `template` rendered as bytes: [`utf8`] reads them as the text they are, faster than
/// `Tera::render`'s own check (which was a tenth of a large Arabic build's CPU).
fn render_bytes(tera: &Tera, template: &str, ctx: &Context) -> Result<Vec<u8>, tera::Error> {
    let mut out = Vec::with_capacity(16 * 1024);
    tera.render_to(template, ctx, &mut out)?;
    Ok(out)
}

/// What Tera renders is text (it writes only strings): checked by SIMD, it is read as such.
fn utf8(bytes: &[u8]) -> &str {
    simdutf8::basic::from_utf8(bytes).expect("Tera writes only text")
}

/// `https://example.com` + `/about` → `https://example.com/about`; absolute URLs pass through.
pub fn absolute(base_url: &str, path: &str) -> String {
    if path.starts_with("http://") || path.starts_with("https://") {
        path.to_string()
    } else {
        format!("{}{}", base_url.trim_end_matches('/'), path)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_section_is_the_first_segment_of_a_route() {
        assert_eq!(super::section("/blog/a-post"), "/blog");
        assert_eq!(super::section("/admin/add-payment"), "/admin");
        assert_eq!(super::section("/about"), "/about");
        assert_eq!(super::section("/404.html"), "/404.html");
        assert_eq!(super::section("/"), "/");
    }
}
