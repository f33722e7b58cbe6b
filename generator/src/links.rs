//! Internal-link checking for `site check`: every `/path` and `#anchor` in the rendered pages
//! (so in Markdown and templates alike) must name a page, a file or an element id.

use std::collections::{HashMap, HashSet};

use crate::diagnostics::Diagnostic;
use crate::render::RenderedPage;

/// Paths that are not files of the static site: the API behind the CDN proxy.
const EXTERNAL_PREFIXES: [&str; 1] = ["/api/"];

/// Every value of `attr="…"` in `html`.
fn attribute_values<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let needle = format!(" {attr}=\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&needle) {
        rest = &rest[i + needle.len()..];
        if let Some(end) = rest.find('"') {
            out.push(&rest[..end]);
            rest = &rest[end..];
        }
    }
    out
}

/// Tera escapes `/` and quotes in attribute values; undo what a link can contain.
fn decode_entities(raw: &str) -> String {
    raw.replace("&#x2F;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The site path a route or file answers at, without a trailing `/index.html` or `/`.
fn normalise(path: &str) -> String {
    let p = path.strip_suffix("index.html").unwrap_or(path);
    let p = p.trim_end_matches('/');
    if p.is_empty() { "/".into() } else { p.into() }
}

/// Checks links; `files` are the other published files (assets, feeds) by site path.
pub fn check(pages: &[RenderedPage], files: &HashSet<String>) -> Vec<Diagnostic> {
    let ids: HashMap<String, HashSet<&str>> = pages
        .iter()
        .map(|p| {
            (
                normalise(&p.path),
                attribute_values(&p.html, "id").into_iter().collect(),
            )
        })
        .collect();
    let mut problems = Vec::new();
    for page in pages {
        let here = normalise(&page.path);
        let mut seen = HashSet::new();
        for attr in ["href", "src"] {
            for raw in attribute_values(&page.html, attr) {
                let link = decode_entities(raw);
                if !seen.insert(link.clone()) {
                    continue;
                }
                let (target, anchor) = match link.split_once('#') {
                    Some((t, a)) => (t.to_string(), Some(a.to_string())),
                    None => (link.clone(), None),
                };
                let target = target.split('?').next().unwrap_or("").to_string();
                let target_page = if target.is_empty() {
                    if anchor.is_none() {
                        continue;
                    }
                    here.clone()
                } else if target.starts_with('/') && !target.starts_with("//") {
                    if EXTERNAL_PREFIXES.iter().any(|p| target.starts_with(p)) {
                        continue;
                    }
                    normalise(&target)
                } else {
                    continue; // external, mailto:, tel:, data:
                };
                let exists = ids.contains_key(&target_page) || files.contains(&target_page);
                if !exists {
                    problems.push(
                        Diagnostic::new(&page.source, format!("the link `{link}` on {} leads nowhere", page.path))
                            .hint("link to an existing page (e.g. /work-with-me, /blog/<slug>) or a file under content/static/"),
                    );
                    continue;
                }
                if let (Some(anchor), Some(page_ids)) = (anchor, ids.get(&target_page))
                    && !anchor.is_empty()
                    && !page_ids.contains(anchor.as_str())
                {
                    problems.push(
                        Diagnostic::new(&page.source, format!("the anchor in `{link}` on {} names no heading or element of {target_page}", page.path))
                            .hint("use the id of a heading on that page (its title in lower case with hyphens)"),
                    );
                }
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str, html: &str) -> RenderedPage {
        RenderedPage {
            path: path.into(),
            file: String::new(),
            html: html.into(),
            source: format!("src{path}"),
        }
    }

    #[test]
    fn broken_paths_and_anchors_are_reported_once_each() {
        let pages = [
            page(
                "/",
                r##"<a href="/about">x</a><a href="/about#team">t</a><a href="/nope">n</a><a href="/nope">n</a><a href="https://x.y">e</a><a href="#top">t</a>"##,
            ),
            page("/about", r#"<h2 id="mission">M</h2>"#),
        ];
        let problems = check(&pages, &HashSet::new());
        let messages: Vec<_> = problems.iter().map(|d| d.message.clone()).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(messages[0].contains("/about#team"));
        assert!(messages[1].contains("/nope"));
        assert!(messages[2].contains("#top"));
    }

    #[test]
    fn files_queries_and_the_api_are_fine() {
        let pages = [page(
            "/",
            r#"<img src="/static/a.1.svg"><a href="/?tag=x">t</a><form><a href="/api/x">a</a>"#,
        )];
        let files: HashSet<String> = ["/static/a.1.svg".to_string()].into();
        assert!(check(&pages, &files).is_empty());
    }

    #[test]
    fn escaped_links_are_checked_too() {
        let pages = [page("/", r#"<a href="&#x2F;nowhere">x</a>"#)];
        assert_eq!(check(&pages, &HashSet::new()).len(), 1);
    }
}
