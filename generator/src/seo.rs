//! What search engines and feed readers read: `sitemap.xml`, `robots.txt`, `blog/atom.xml`,
//! from the theme's `templates/feeds/` like every page, so a theme can change them.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use tera::{Context, Tera};

use crate::diagnostics::Diagnostic;
use crate::render::{FeedItem, absolute};
use crate::templates::xml_escape;

/// The blog's feed, in the default language; each other language's is under its prefix
/// (`/ar/blog/atom.xml`).
pub const FEED: &str = "/blog/atom.xml";
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
    /// The page in every language it is in, then `x-default`, as the `<xhtml:link
    /// rel="alternate" hreflang="…" href="…"/>` elements (escaped: print with `| safe`); empty
    /// when it is in one language only. Written here rather than looped over in the template:
    /// a loop per page was most of a two-language sitemap's time.
    alternates_xml: String,
}

#[derive(Serialize)]
struct SitemapView {
    pages: Vec<SitemapPage>,
    /// The site is in more than one language: the `xhtml` namespace is declared.
    multilingual: bool,
}

/// A page as the sitemap lists it: its address, the date it last changed and, on a site in
/// several languages, its address in each language by code (`None` where it is not).
pub struct SitemapEntry<'a> {
    pub path: &'a str,
    pub lastmod: Option<NaiveDate>,
    pub alternates: &'a [Option<String>],
}

/// Every indexable page (published content; no app shells or error pages), by address and the
/// date it last changed, in address order, each with its other languages' addresses.
/// `languages` are the codes of the site's languages, the default first.
pub fn sitemap<'a>(
    tera: &Tera,
    base_url: &str,
    languages: &[&str],
    pages: impl IntoIterator<Item = SitemapEntry<'a>>,
) -> Result<String, Diagnostic> {
    let mut listed: Vec<SitemapEntry> = pages.into_iter().collect();
    listed.sort_by(|a, b| a.path.cmp(b.path));
    let pages = listed
        .into_iter()
        .map(|p| SitemapPage {
            loc: absolute(base_url, p.path),
            lastmod: p.lastmod,
            alternates_xml: alternates_xml(base_url, languages, p.alternates),
        })
        .collect();
    let multilingual = languages.len() > 1;
    render(
        tera,
        "feeds/sitemap.xml",
        &SitemapView {
            pages,
            multilingual,
        },
    )
}

/// The `hreflang` links of a page at `paths` (by language) as sitemap XML: one per language it
/// is in, then `x-default`; none for a page in one language.
fn alternates_xml(base_url: &str, languages: &[&str], paths: &[Option<String>]) -> String {
    let present: Vec<(&str, &str)> = languages
        .iter()
        .zip(paths)
        .filter_map(|(code, p)| p.as_deref().map(|p| (*code, p)))
        .collect();
    let mut out = String::new();
    if present.len() < 2 {
        return out;
    }
    let default = paths.first().and_then(Option::as_deref);
    for (code, path) in present.into_iter().chain(default.map(|p| ("x-default", p))) {
        out.push_str("<xhtml:link rel=\"alternate\" hreflang=\"");
        out.push_str(&xml_escape(code));
        out.push_str("\" href=\"");
        out.push_str(&xml_escape(&absolute(base_url, path)));
        out.push_str("\"/>");
    }
    out
}

#[derive(Serialize)]
struct RobotsView<'a> {
    base_url: &'a str,
    /// Where each language's pages are: `""`, then `/ar`….
    prefixes: &'a [&'a str],
}

pub fn robots(tera: &Tera, base_url: &str, prefixes: &[&str]) -> Result<String, Diagnostic> {
    let base_url = base_url.trim_end_matches('/');
    render(tera, "feeds/robots.txt", &RobotsView { base_url, prefixes })
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
    /// The feed's own absolute address.
    feed_url: String,
    /// The absolute address of the listing the posts are on.
    listing_url: String,
    /// The feed's language (`xml:lang`), on a site in several languages.
    lang: Option<&'a str>,
    /// The newest entry's date, or now for an empty feed.
    updated: String,
    items: Vec<AtomEntry<'a>>,
}

/// What a feed is: of which site, where, of which listing, in which language.
pub struct Feed<'a> {
    pub base_url: &'a str,
    pub site_name: &'a str,
    /// The feed's own address, e.g. [`FEED`] or `/ar/blog/atom.xml`.
    pub path: &'a str,
    /// The listing of its posts, e.g. `/resources`.
    pub listing: &'a str,
    /// `xml:lang`, on a site in several languages.
    pub lang: Option<&'a str>,
}

/// An Atom feed of the blog in one language, newest first.
pub fn atom(
    tera: &Tera,
    feed: &Feed,
    items: &[FeedItem],
    now: DateTime<Utc>,
) -> Result<String, Diagnostic> {
    let base_url = feed.base_url;
    let updated = items
        .iter()
        .map(|i| i.date)
        .max()
        .map(|d| format!("{d}T00:00:00Z"))
        .unwrap_or_else(|| now.format("%Y-%m-%dT%H:%M:%SZ").to_string());
    let view = AtomView {
        site_name: feed.site_name,
        base_url: base_url.trim_end_matches('/'),
        feed_url: absolute(base_url, feed.path),
        listing_url: absolute(base_url, feed.listing),
        lang: feed.lang,
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
