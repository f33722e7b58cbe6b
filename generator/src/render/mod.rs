//! From a validated [`Library`] to HTML: which pages exist (the route table of spec §2), what
//! each template sees, and the parallel render.

mod page;
pub mod plan;
pub mod views;

pub use page::{FEED_LENGTH, FeedItem, Page, output_file};

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::{DateTime, Datelike, Utc};
use serde_json::{Map, Value, json};
use tera::{Context, Tera};

use crate::content::Library;
use crate::diagnostics::Diagnostic;
use crate::templates::error_chain;

/// A rendered page.
#[derive(Debug, Clone)]
pub struct RenderedPage {
    pub path: String,
    pub file: String,
    pub html: String,
    pub source: String,
}

/// The context every template shares, built once per build.
pub fn base_context(lib: &Library, drafts: bool, now: DateTime<Utc>) -> Map<String, Value> {
    let mut ctx = Map::new();
    let site = views::site(&lib.settings, now.year());
    ctx.insert("site".into(), views::to_value(site));
    ctx.insert("nav".into(), views::to_value(views::Nav::header()));
    ctx.insert("footer_nav".into(), views::to_value(views::Nav::footer()));
    ctx.insert("drafts".into(), Value::Bool(drafts));
    ctx
}

/// Renders pages: the shared context, the theme and the islands' head tags.
pub struct Renderer<'a> {
    pub tera: &'a Tera,
    pub base: &'a Map<String, Value>,
    pub base_url: &'a str,
    pub islands: Option<&'a crate::islands::Manifest>,
    pub chrome: &'a Chrome,
}

/// The header and footer (`chrome/header.html`, `chrome/footer.html`), rendered once per
/// section instead of once per page: they were a quarter of a large build's CPU.
#[derive(Default)]
pub struct Chrome {
    by_section: Mutex<HashMap<String, Value>>,
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
    /// `{"header": …, "footer": …}` for the section of `path`, rendered on first use.
    fn chrome(&self, path: &str) -> Result<Value, tera::Error> {
        let section = section(path);
        if let Some(c) = self.chrome.by_section.lock().unwrap().get(section) {
            return Ok(c.clone());
        }
        let mut ctx = self.base.clone();
        ctx.insert("path".into(), Value::String(section.to_string()));
        let ctx = Context::from_value(Value::Object(ctx))?;
        let chrome = json!({
            "header": self.tera.render("chrome/header.html", &ctx)?,
            "footer": self.tera.render("chrome/footer.html", &ctx)?,
        });
        self.chrome
            .by_section
            .lock()
            .unwrap()
            .insert(section.to_string(), chrome.clone());
        Ok(chrome)
    }

    /// Renders a blog post's card for the /resources listing (`partials/post_card.html`).
    pub fn card(&self, card: plan::CardView<'_>) -> Result<plan::PostCard, Diagnostic> {
        let mut ctx = Context::new();
        ctx.insert("item", &card.view);
        let html = self
            .tera
            .render("partials/post_card.html", &ctx)
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
        let meta = views::Meta {
            title,
            description: &page.description,
            canonical: absolute(base_url, canonical_path),
            og_type: page.og_type,
            og_image,
            noindex: page.noindex,
        };
        ctx.insert("meta".into(), views::to_value(meta));
        ctx.insert("path".into(), Value::String(page.path.clone()));
        let chrome = self.chrome(&page.path);
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
        let rendered = chrome.and_then(|chrome| {
            ctx.insert("chrome".into(), chrome);
            Context::from_value(Value::Object(ctx)).and_then(|ctx| self.tera.render(template, &ctx))
        });
        let mut html = rendered.map_err(|e| {
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
                    &format!("{}</head>", manifest.head_tags(&used)),
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
