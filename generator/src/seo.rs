//! What search engines and feed readers read: `sitemap.xml`, `robots.txt`, `blog/atom.xml`,
//! from the theme's `templates/feeds/` like every page, so a theme can change them.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use tera::{Context, Tera};

use crate::diagnostics::Diagnostic;
use crate::render::{FeedItem, absolute};
use crate::templates::error_chain;

fn render(tera: &Tera, template: &str, context: &impl Serialize) -> Result<String, Diagnostic> {
    Context::from_serialize(context)
        .and_then(|ctx| tera.render(template, &ctx))
        .map_err(|e| {
            Diagnostic::new(
                format!("themes/default/templates/{template}"),
                format!("rendering {template} failed: {}", error_chain(&e)),
            )
            .hint("fix the template at the place the message names")
        })
}

#[derive(Serialize)]
struct SitemapPage {
    loc: String,
    lastmod: Option<NaiveDate>,
}

#[derive(Serialize)]
struct SitemapView {
    pages: Vec<SitemapPage>,
}

/// Every indexable page (published content; no app shells or error pages), by route and the
/// date it last changed, in route order.
pub fn sitemap<'a>(
    tera: &Tera,
    base_url: &str,
    pages: impl IntoIterator<Item = (&'a str, Option<NaiveDate>)>,
) -> Result<String, Diagnostic> {
    let mut listed: Vec<(&str, Option<NaiveDate>)> = pages.into_iter().collect();
    listed.sort_by(|a, b| a.0.cmp(b.0));
    let pages = listed
        .into_iter()
        .map(|(path, lastmod)| SitemapPage {
            loc: absolute(base_url, path),
            lastmod,
        })
        .collect();
    render(tera, "feeds/sitemap.xml", &SitemapView { pages })
}

#[derive(Serialize)]
struct RobotsView<'a> {
    base_url: &'a str,
}

pub fn robots(tera: &Tera, base_url: &str) -> Result<String, Diagnostic> {
    let base_url = base_url.trim_end_matches('/');
    render(tera, "feeds/robots.txt", &RobotsView { base_url })
}

#[derive(Serialize)]
struct AtomEntry<'a> {
    title: &'a str,
    url: String,
    date: NaiveDate,
    summary: &'a str,
    content_html: &'a str,
}

#[derive(Serialize)]
struct AtomView<'a> {
    site_name: &'a str,
    base_url: &'a str,
    /// The newest entry's date, or now for an empty feed.
    updated: String,
    items: Vec<AtomEntry<'a>>,
}

/// An Atom feed of the blog, newest first.
pub fn atom(
    tera: &Tera,
    base_url: &str,
    site_name: &str,
    items: &[FeedItem],
    now: DateTime<Utc>,
) -> Result<String, Diagnostic> {
    let updated = items
        .iter()
        .map(|i| i.date)
        .max()
        .map(|d| format!("{d}T00:00:00Z"))
        .unwrap_or_else(|| now.format("%Y-%m-%dT%H:%M:%SZ").to_string());
    let view = AtomView {
        site_name,
        base_url: base_url.trim_end_matches('/'),
        updated,
        items: items
            .iter()
            .map(|i| AtomEntry {
                title: &i.title,
                url: absolute(base_url, &i.path),
                date: i.date,
                summary: &i.summary,
                content_html: &i.content_html,
            })
            .collect(),
    };
    render(tera, "feeds/atom.xml", &view)
}
