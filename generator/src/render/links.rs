//! Links inside a translation's Markdown. A coach writes `[get in touch](/contact)` or
//! `/blog/first-90-days` in `about.ar.md` as in `about.md`: the Arabic reader should land on
//! the Arabic page when there is one, and on the English one when there is not (never on an
//! Arabic address that does not exist). The theme's own links do the same through `url`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::content::{Entry, Library};
use crate::locale::Locale;

/// The folders whose pages are entries, each at `<dir>/<slug>` (the slug may differ by language).
const ENTRY_DIRS: [&str; 3] = ["/blog", "/resources", "/services"];

/// Where the links of a translation's bodies go, for one language other than the default.
#[derive(Debug)]
pub struct BodyLinks {
    locale: Arc<Locale>,
    /// The default language's pages without their own page in this language.
    missing: HashSet<String>,
    /// An entry's route in the default language → its route in this language (published only).
    entries: HashMap<String, String>,
}

impl BodyLinks {
    /// The links of `locale`'s bodies, or `None` for the default language (its links stay).
    pub fn new(site: &Library, locale: &Arc<Locale>, drafts: bool) -> Option<BodyLinks> {
        if locale.index == 0 {
            return None;
        }
        let lib = site.in_language(locale.index);
        let mut entries = HashMap::new();
        add(&mut entries, locale, &site.blog, &lib.blog, "/blog", |m| {
            m.is_published || drafts
        });
        add(
            &mut entries,
            locale,
            &site.resources,
            &lib.resources,
            "/resources",
            |m| m.is_published || drafts,
        );
        add(
            &mut entries,
            locale,
            &site.services,
            &lib.services,
            "/services",
            |_| true,
        );
        Some(BodyLinks {
            locale: locale.clone(),
            missing: lib.untranslated_routes(false),
            entries,
        })
    }

    /// `href` in this language, when it is a page of the site that this language has; `None`
    /// leaves it as written (another site, a file, an anchor, an untranslated page).
    pub fn localize(&self, href: &str) -> Option<String> {
        if !href.starts_with('/') || href.starts_with("//") {
            return None;
        }
        let cut = href.find(['?', '#']).unwrap_or(href.len());
        let (route, rest) = href.split_at(cut);
        let prefix = self.locale.prefix.as_str();
        let already = route == prefix || route.starts_with(&format!("{prefix}/"));
        let file = route
            .rsplit('/')
            .next()
            .is_some_and(|last| last.contains('.'));
        let not_a_page = ["/static/", "/assets/", "/api/"]
            .iter()
            .any(|p| route.starts_with(p));
        if already || file || not_a_page || self.missing.contains(route) {
            return None;
        }
        let in_entry_dir = ENTRY_DIRS.iter().any(|d| {
            route
                .strip_prefix(d)
                .is_some_and(|s| s.len() > 1 && s.starts_with('/'))
        });
        if in_entry_dir {
            let slug = route.trim_end_matches('/');
            return self.entries.get(slug).map(|to| format!("{to}{rest}"));
        }
        Some(self.locale.path(href))
    }
}

/// Maps each published translation among `translated` to its original's route in `originals`.
fn add<M>(
    map: &mut HashMap<String, String>,
    locale: &Locale,
    originals: &[Entry<M>],
    translated: &[Entry<M>],
    dir: &str,
    published: impl Fn(&M) -> bool,
) {
    for t in translated.iter().filter(|t| published(&t.meta)) {
        // The entries of a kind are files of one folder, sorted: their paths compare as their
        // names do.
        let original = t.original().as_os_str();
        if let Ok(i) = originals.binary_search_by(|o| o.source.as_os_str().cmp(original)) {
            let o = &originals[i];
            map.insert(
                format!("{dir}/{}", o.slug),
                locale.path(&format!("{dir}/{}", t.slug)),
            );
        }
    }
}
