//! What search engines and feed readers read: `sitemap.xml`, `robots.txt`, `blog/atom.xml`.

use chrono::{DateTime, NaiveDate, Utc};

use crate::render::{FeedItem, absolute};

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Every indexable page (published content; no app shells or error pages), by route and the
/// date it last changed.
pub fn sitemap<'a>(
    base_url: &str,
    pages: impl IntoIterator<Item = (&'a str, Option<NaiveDate>)>,
) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    let mut listed: Vec<(&str, Option<NaiveDate>)> = pages.into_iter().collect();
    listed.sort_by(|a, b| a.0.cmp(b.0));
    for (path, lastmod) in listed {
        out.push_str("  <url><loc>");
        out.push_str(&xml_escape(&absolute(base_url, path)));
        out.push_str("</loc>");
        if let Some(d) = lastmod {
            out.push_str(&format!("<lastmod>{d}</lastmod>"));
        }
        out.push_str("</url>\n");
    }
    out.push_str("</urlset>\n");
    out
}

pub fn robots(base_url: &str) -> String {
    format!(
        "User-agent: *\nDisallow: /dashboard\nDisallow: /admin\nDisallow: /book-session\nDisallow: /payment/\nDisallow: /auth\n\nSitemap: {}\n",
        absolute(base_url, "/sitemap.xml")
    )
}

/// An Atom feed of the blog, newest first.
pub fn atom(base_url: &str, site_name: &str, items: &[FeedItem], now: DateTime<Utc>) -> String {
    let updated = items
        .iter()
        .map(|i| i.date)
        .max()
        .map(|d| format!("{d}T00:00:00Z"))
        .unwrap_or_else(|| now.format("%Y-%m-%dT%H:%M:%SZ").to_string());
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>{}</title>\n  <link href=\"{}\" rel=\"self\"/>\n  <link href=\"{}\"/>\n  <id>{}</id>\n  <updated>{updated}</updated>\n",
        xml_escape(site_name),
        xml_escape(&absolute(base_url, "/blog/atom.xml")),
        xml_escape(&absolute(base_url, "/resources")),
        xml_escape(&absolute(base_url, "/blog/atom.xml")),
    );
    for item in items {
        let url = absolute(base_url, &item.path);
        out.push_str(&format!(
            "  <entry>\n    <title>{}</title>\n    <link href=\"{}\"/>\n    <id>{}</id>\n    <updated>{}T00:00:00Z</updated>\n    <summary>{}</summary>\n    <content type=\"html\">{}</content>\n  </entry>\n",
            xml_escape(&item.title),
            xml_escape(&url),
            xml_escape(&url),
            item.date,
            xml_escape(&item.summary),
            xml_escape(&item.content_html),
        ));
    }
    out.push_str("</feed>\n");
    out
}
