//! What `content/` becomes: the [`Library`] and its parts. The loader, the validation and the
//! live reload all build on these types, so they live in a module of their own that needs none
//! of them.

use std::path::PathBuf;

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
}

impl<M> Entry<M> {
    /// A diagnostic about `field` of this entry, pointing at the line that sets it.
    pub fn error(&self, field: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(&self.source, message)
            .field(field)
            .line(line_of_key(&self.yaml, field, 1))
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

/// A legal page in English with its optional Arabic translation.
#[derive(Debug, Clone)]
pub struct LegalDoc {
    pub name: String,
    pub en: Entry<LegalMeta>,
    pub ar: Option<Entry<LegalMeta>>,
}

/// The legal pages every site must have (spec §2 route table).
pub const LEGAL_PAGES: [&str; 5] = [
    "terms",
    "return-policy",
    "privacy-policy",
    "delivery-policy",
    "cancellation-policy",
];

/// Everything in `content/`, parsed. Drafts are kept; rendering decides what is public.
#[derive(Debug, Clone)]
pub struct Library {
    pub root: PathBuf,
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
