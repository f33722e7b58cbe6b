//! Internal-link checking for `site check`: every `/path` and `#anchor` in the rendered pages
//! (so in Markdown and templates alike) must name a page, a file or an element id.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use memchr::memmem;

use crate::diagnostics::Diagnostic;

/// Paths that are not files of the static site: the API behind the CDN proxy.
const EXTERNAL_PREFIXES: [&str; 1] = ["/api/"];

/// Every attribute value starts with `="`: one SIMD search for it, then a look at the name
/// before it. (Three separate searches for ` id="`, ` href="` and ` src="` were a fifth of a
/// 10,000-page build's CPU.)
static VALUE_START: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new("=\""));

/// Every `id`, and every `href` and `src`, value in `html`, in order.
fn attribute_values(html: &str) -> (Vec<&str>, Vec<&str>) {
    let (mut ids, mut refs) = (Vec::new(), Vec::new());
    for at in VALUE_START.find_iter(html.as_bytes()) {
        let name = &html.as_bytes()[..at];
        let list = if name.ends_with(b" id") {
            &mut ids
        } else if name.ends_with(b" href") || name.ends_with(b" src") {
            &mut refs
        } else {
            continue;
        };
        let start = at + 2;
        if let Some(len) = memchr::memchr(b'"', &html.as_bytes()[start..]) {
            list.push(&html[start..start + len]);
        }
    }
    (ids, refs)
}

/// Tera escapes `/` and quotes in attribute values; undo what a link can contain, in one pass.
fn decode_entities(raw: &str) -> Cow<'_, str> {
    if !raw.contains('&') {
        return Cow::Borrowed(raw);
    }
    const ENTITIES: [(&str, char); 6] = [
        ("&#x2F;", '/'),
        ("&#x27;", '\''),
        ("&quot;", '"'),
        ("&lt;", '<'),
        ("&gt;", '>'),
        ("&amp;", '&'),
    ];
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        match ENTITIES.iter().find(|(e, _)| rest.starts_with(e)) {
            Some((e, c)) => {
                out.push(*c);
                rest = &rest[e.len()..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The site path a route or file answers at, without a trailing `/index.html` or `/`.
fn normalise(path: &str) -> &str {
    let p = path.strip_suffix("index.html").unwrap_or(path);
    let p = p.trim_end_matches('/');
    if p.is_empty() { "/" } else { p }
}

/// What link checking needs of one rendered page, without holding its HTML: a 10,000-page
/// build keeps this for every page and drops the HTML as soon as the page is written.
#[derive(Debug, Clone)]
pub struct PageLinks {
    /// The page's site path, normalised.
    path: String,
    /// The content file or template it comes from, for the error message.
    source: String,
    /// The element ids on the page, one per line.
    ids: String,
    /// The distinct internal links (`/path`, `/path#anchor`, `#anchor`), one per line.
    links: String,
}

impl PageLinks {
    pub fn of(path: &str, source: &str, html: &str) -> PageLinks {
        let (id_values, refs) = attribute_values(html);
        let mut ids = String::new();
        for id in id_values {
            ids.push_str(id);
            ids.push('\n');
        }
        // The same link often appears more than once (header, footer, body): decode each once,
        // keeping the page's order for the report.
        let mut refs: Vec<&str> = refs
            .into_iter()
            .filter(|r| r.starts_with('/') || r.starts_with('#') || r.starts_with("&#x2F;"))
            .collect();
        let mut raw_seen = HashSet::with_capacity(refs.len());
        refs.retain(|r| raw_seen.insert(*r));
        let mut seen = HashSet::with_capacity(refs.len());
        let mut links = String::new();
        for raw in refs {
            let link = decode_entities(raw);
            let internal = (link.starts_with('/') && !link.starts_with("//"))
                || (link.starts_with('#') && link.len() > 1);
            if internal
                && !link.contains('\n')
                && !EXTERNAL_PREFIXES.iter().any(|p| link.starts_with(p))
                && seen.insert(link.clone())
            {
                links.push_str(&link);
                links.push('\n');
            }
        }
        PageLinks {
            path: normalise(path).to_string(),
            source: source.to_string(),
            ids,
            links,
        }
    }
}

/// Checks links; `files` are the other published files (assets, feeds) by site path.
pub fn check(pages: &[&PageLinks], files: &HashSet<String>) -> Vec<Diagnostic> {
    // In page order, so the problems come out the same way on every run.
    let mut pages = pages.to_vec();
    pages.sort_by(|a, b| a.path.cmp(&b.path));
    let ids: HashMap<&str, HashSet<&str>> = pages
        .iter()
        .map(|p| (p.path.as_str(), p.ids.lines().collect()))
        .collect();
    let mut problems = Vec::new();
    for page in &pages {
        let here = page.path.as_str();
        for link in page.links.lines() {
            let (target, anchor) = match link.split_once('#') {
                Some((t, a)) => (t, Some(a)),
                None => (link, None),
            };
            let target = target.split('?').next().unwrap_or("");
            let target_page = if target.is_empty() {
                here
            } else {
                normalise(target)
            };
            let page_ids = ids.get(target_page);
            if page_ids.is_none() && !files.contains(target_page) {
                problems.push(
                    Diagnostic::new(&page.source, format!("the link `{link}` on {here} leads nowhere"))
                        .hint("link to an existing page (e.g. /work-with-me, /blog/<slug>) or a file under content/static/"),
                );
                continue;
            }
            if let (Some(anchor), Some(page_ids)) = (anchor, page_ids)
                && !anchor.is_empty()
                && !page_ids.contains(anchor)
            {
                problems.push(
                    Diagnostic::new(&page.source, format!("the anchor in `{link}` on {here} names no heading or element of {target_page}"))
                        .hint("use the id of a heading on that page (its title in lower case with hyphens)"),
                );
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str, html: &str) -> PageLinks {
        PageLinks::of(path, &format!("src{path}"), html)
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
        let problems = check(&pages.iter().collect::<Vec<_>>(), &HashSet::new());
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
        assert!(check(&pages.iter().collect::<Vec<_>>(), &files).is_empty());
    }

    #[test]
    fn escaped_links_are_checked_too() {
        let pages = [page("/", r#"<a href="&#x2F;nowhere">x</a>"#)];
        assert_eq!(
            check(&pages.iter().collect::<Vec<_>>(), &HashSet::new()).len(),
            1
        );
    }
}
