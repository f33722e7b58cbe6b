//! What `content/` becomes: the [`Library`] and its parts. The loader, the validation and the
//! live reload all build on these types, so they live in a module of their own that needs none
//! of them.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use content_model::i18n::Languages;
use content_model::model::*;

use crate::diagnostics::{Diagnostic, line_of_key};

/// The pages whose title and description come from `content/pages.yaml` (the rest have a
/// content file of their own). Validation makes sure each has its entry.
pub const TEXT_ROUTES: &[&str] = &[
    "/work-with-me",
    "/service-not-found.html",
    "/resources",
    "/videos",
    "/events",
    "/testimonials",
    "/contact",
    "/faq",
    "/pricing",
    "/group-team-coaching-pricing",
    "/payment/success",
    "/auth",
    "/dashboard",
    "/admin",
    "/book-session",
    "/admin/add-payment",
    "/admin/client",
    "/receipt",
    "/invoice",
    "/sponsor-report",
    "/payment/failed",
    "/newsletter/confirm",
    "/404.html",
];

/// One Markdown file: its front matter, body and where it came from.
#[derive(Debug, Clone)]
pub struct Entry<M> {
    /// The file name without `.md`; the last segment of the page's URL.
    pub slug: String,
    /// Path relative to the site root, for error messages.
    pub source: PathBuf,
    pub meta: M,
    pub body: String,
    /// The front matter text, to point semantic errors at a line.
    pub yaml: String,
    /// For a translation (`<name>.<lang>.md`), the file of the original it translates; its
    /// front matter is merged over the original's. `None` for an original.
    pub translation_of: Option<PathBuf>,
}

impl<M> Entry<M> {
    /// A diagnostic about `field` of this entry, pointing at the line that sets it.
    pub fn error(&self, field: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(&self.source, message)
            .field(field)
            .line(line_of_key(&self.yaml, field, 1))
    }

    /// The file of the original: this one, or the one this translation translates.
    pub fn original(&self) -> &Path {
        self.translation_of.as_deref().unwrap_or(&self.source)
    }
}

/// A list file such as `faqs.yaml`, with its text for line look-ups.
#[derive(Debug, Clone)]
pub struct ListFile<T> {
    pub source: PathBuf,
    pub items: Vec<T>,
    pub text: String,
}

impl<T> Default for ListFile<T> {
    fn default() -> Self {
        Self {
            source: PathBuf::new(),
            items: Vec::new(),
            text: String::new(),
        }
    }
}

impl<T> ListFile<T> {
    /// A diagnostic about `field` of item `index`, pointing at the item's line where possible.
    pub fn error(&self, index: usize, field: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(&self.source, message)
            .field(format!("[{index}].{field}"))
            .line(item_line(&self.text, index))
    }
}

/// The line where the `index`-th top-level list item starts.
fn item_line(text: &str, index: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("- "))
        .nth(index)
        .map(|(i, _)| i + 1)
}

/// A legal page in its library's language. The default language's page also shows the Arabic
/// translation (`<name>.ar.md`) at its end when there is one, whatever the site's languages
/// (spec §2: the terms and policies are in English and Arabic).
#[derive(Debug, Clone)]
pub struct LegalDoc {
    /// The route without its slash, e.g. `terms`.
    pub name: String,
    pub doc: Entry<LegalMeta>,
    /// The Arabic text shown at the end of the default language's page; `None` in the other
    /// languages' libraries.
    pub arabic: Option<Entry<LegalMeta>>,
}

/// The legal pages every site must have (spec §2 route table).
pub const LEGAL_PAGES: [&str; 5] = [
    "terms",
    "return-policy",
    "privacy-policy",
    "delivery-policy",
    "cancellation-policy",
];

/// Everything in `content/`, parsed, in one language. Drafts are kept; rendering decides what
/// is public.
///
/// The library [`Library::load`] returns is the default language's; each other language of
/// `settings.languages` has its own in [`Library::translations`], with the settings and list
/// files read in that language and only the Markdown entries translated into it (merged over
/// their originals).
#[derive(Debug, Clone)]
pub struct Library {
    pub root: PathBuf,
    /// The language of this library's texts (a code of `languages`).
    pub lang: String,
    /// The site's languages, the default first (English only when settings name none).
    pub languages: Languages,
    /// The libraries of the other languages, in the order of `languages` (empty for one
    /// language); theirs is empty.
    pub translations: Vec<Library>,
    /// What builds but deserves a look (e.g. a Markdown file over
    /// [`MAX_MARKDOWN_BYTES`](super::walk::MAX_MARKDOWN_BYTES)).
    pub warnings: Vec<String>,
    pub settings: Settings,
    pub services: Vec<Entry<ServiceMeta>>,
    pub resources: Vec<Entry<ResourceMeta>>,
    pub blog: Vec<Entry<BlogPostMeta>>,
    pub events: Vec<Entry<EventMeta>>,
    pub about: Option<Entry<AboutMeta>>,
    pub legal: Vec<LegalDoc>,
    pub logos: ListFile<Logo>,
    pub testimonials: ListFile<Testimonial>,
    pub videos: ListFile<Video>,
    pub faqs: ListFile<Faq>,
    /// The titles and descriptions of the pages without a content file of their own.
    pub pages: ListFile<PageText>,
    pub packages: ListFile<Package>,
}

impl Library {
    /// The library of language `index` of `languages` (0, the default, is this one).
    pub fn in_language(&self, index: usize) -> &Library {
        match index {
            0 => self,
            i => &self.translations[i - 1],
        }
    }

    /// Every language's library, the default first.
    pub fn all_languages(&self) -> impl Iterator<Item = &Library> {
        std::iter::once(self).chain(self.translations.iter())
    }

    /// The routes without a page in this library's language: an about or legal page not
    /// translated into it (its links lead to the default language's page instead). None in the
    /// default language (`default`).
    pub fn untranslated_routes(&self, default: bool) -> HashSet<String> {
        let mut missing = HashSet::new();
        if default {
            return missing;
        }
        if self.about.is_none() {
            missing.insert("/about".to_string());
        }
        for name in LEGAL_PAGES {
            if !self.legal.iter().any(|d| d.name == name) {
                missing.insert(format!("/{name}"));
            }
        }
        missing
    }

    /// The title and description `content/pages.yaml` gives `route` (validated to exist for
    /// every route in [`TEXT_ROUTES`]).
    pub fn page_text<'a>(&'a self, route: &'a str) -> (&'a str, &'a str) {
        self.pages
            .items
            .iter()
            .find(|p| p.route == route)
            .map_or((route, ""), |p| (p.title.as_str(), p.description.as_str()))
    }
}
