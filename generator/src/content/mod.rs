//! Loading `content/` into a [`Library`]: every file parsed and validated, every problem
//! collected. Nothing here renders or writes.

mod reload;
mod validate;
mod walk;

pub use walk::MAX_MARKDOWN_BYTES;

pub use reload::EntryKind;

pub use content_model::{model, yaml};

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use serde::de::DeserializeOwned;

use crate::diagnostics::{Diagnostic, Diagnostics};
use model::*;

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
            .line(crate::diagnostics::line_of_key(&self.yaml, field, 1))
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
    /// What builds but deserves a look (e.g. a Markdown file over [`MAX_MARKDOWN_BYTES`]).
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

/// Reads a file relative to `root`, as a diagnostic on failure.
fn read(root: &Path, rel: &Path) -> Result<String, Diagnostic> {
    fs::read_to_string(root.join(rel)).map_err(|e| {
        Diagnostic::new(rel, format!("cannot read the file: {e}"))
            .hint("check that it exists and is UTF-8 text")
    })
}

/// Parses one Markdown file with front matter.
fn load_entry<M: DeserializeOwned>(root: &Path, rel: &Path) -> Result<Entry<M>, Diagnostic> {
    let text = read(root, rel)?;
    let fm = yaml::split_front_matter(&text, rel)?;
    let meta = yaml::parse::<M>(fm.yaml, rel, 1)?;
    let slug = rel
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    Ok(Entry {
        slug,
        source: rel.to_path_buf(),
        meta,
        body: fm.body.to_string(),
        yaml: fm.yaml.to_string(),
    })
}

/// Parses a YAML list file; a missing file is an empty list.
fn load_list<T: DeserializeOwned + Send>(
    root: &Path,
    rel: &str,
) -> Result<ListFile<T>, Diagnostic> {
    let rel = PathBuf::from(rel);
    if !walk::is_present(&root.join(&rel)) {
        return Ok(ListFile {
            source: rel,
            ..Default::default()
        });
    }
    let text = read(root, &rel)?;
    let items: Vec<T> = yaml::parse(&text, &rel, 0)?;
    Ok(ListFile {
        source: rel,
        items,
        text,
    })
}

/// Loads a folder of Markdown entries in parallel, collecting every error.
fn load_dir<M: DeserializeOwned + Send>(
    root: &Path,
    dir: &str,
    errors: &Mutex<Diagnostics>,
    warnings: &Mutex<Vec<String>>,
) -> Vec<Entry<M>> {
    let found = walk::markdown_files(root, dir);
    errors.lock().unwrap().extend(found.problems);
    warnings.lock().unwrap().extend(found.warnings);
    let results: Vec<_> = found
        .files
        .par_iter()
        .map(|rel| load_entry::<M>(root, rel))
        .collect();
    let mut entries = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(e) => entries.push(e),
            Err(d) => errors.lock().unwrap().push(d),
        }
    }
    entries
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

    /// Loads and validates the whole of `<root>/content`. Returns every problem found.
    pub fn load(root: &Path) -> Result<Library, Diagnostics> {
        let errors = Mutex::new(Diagnostics::default());
        let warnings = Mutex::new(Vec::new());
        let err = |d: Diagnostic| errors.lock().unwrap().push(d);
        let settings_rel = PathBuf::from("content/settings.yaml");
        if !root.join("content").is_dir() {
            let mut d = Diagnostics::default();
            d.push(Diagnostic::new("content", "there is no content folder here").hint(
                "run `site` from the project root, or pass `--root` with the folder that holds content/",
            ));
            return Err(d);
        }

        // The folders are independent: load them side by side.
        let ((settings, (services, resources)), ((blog, events), (about, legal))) = rayon::join(
            || {
                rayon::join(
                    || {
                        read(root, &settings_rel)
                            .and_then(|t| yaml::parse::<Settings>(&t, &settings_rel, 0))
                            .map_err(err)
                            .ok()
                    },
                    || {
                        rayon::join(
                            || load_dir::<ServiceMeta>(root, "services", &errors, &warnings),
                            || load_dir::<ResourceMeta>(root, "resources", &errors, &warnings),
                        )
                    },
                )
            },
            || {
                rayon::join(
                    || {
                        rayon::join(
                            || load_dir::<BlogPostMeta>(root, "blog", &errors, &warnings),
                            || load_dir::<EventMeta>(root, "events", &errors, &warnings),
                        )
                    },
                    || rayon::join(|| load_about(root, &errors), || load_legal(root, &errors)),
                )
            },
        );
        let list = |name: &str| format!("content/{name}.yaml");
        let logos = load_list::<Logo>(root, &list("logos"))
            .map_err(err)
            .unwrap_or_default();
        let testimonials = load_list::<Testimonial>(root, &list("testimonials"))
            .map_err(err)
            .unwrap_or_default();
        let videos = load_list::<Video>(root, &list("videos"))
            .map_err(err)
            .unwrap_or_default();
        let faqs = load_list::<Faq>(root, &list("faqs"))
            .map_err(err)
            .unwrap_or_default();
        let packages = load_list::<Package>(root, &list("packages"))
            .map_err(err)
            .unwrap_or_default();
        let pages = load_list::<PageText>(root, &list("pages"))
            .map_err(err)
            .unwrap_or_default();

        let mut errors = errors.into_inner().unwrap();
        let Some(settings) = settings else {
            return Err(errors);
        };
        let library = Library {
            root: root.to_path_buf(),
            warnings: warnings.into_inner().unwrap(),
            settings,
            services,
            resources,
            blog,
            events,
            about,
            legal,
            logos,
            testimonials,
            videos,
            faqs,
            packages,
            pages,
        };
        errors.extend(validate::validate(&library));
        if errors.is_empty() {
            Ok(library)
        } else {
            Err(errors)
        }
    }
}

fn load_about(root: &Path, errors: &Mutex<Diagnostics>) -> Option<Entry<AboutMeta>> {
    let rel = PathBuf::from("content/pages/about.md");
    if !walk::is_present(&root.join(&rel)) {
        return None;
    }
    load_entry(root, &rel)
        .map_err(|d| errors.lock().unwrap().push(d))
        .ok()
}

fn load_legal(root: &Path, errors: &Mutex<Diagnostics>) -> Vec<LegalDoc> {
    let mut docs = Vec::new();
    for name in LEGAL_PAGES {
        let en_rel = PathBuf::from(format!("content/legal/{name}.md"));
        let ar_rel = PathBuf::from(format!("content/legal/{name}.ar.md"));
        if !walk::is_present(&root.join(&en_rel)) {
            errors.lock().unwrap().push(
                Diagnostic::new(&en_rel, format!("the page /{name} has no content")).hint(format!(
                    "create {} with a `title:` front matter",
                    en_rel.display()
                )),
            );
            continue;
        }
        let en = load_entry::<LegalMeta>(root, &en_rel);
        let ar =
            walk::is_present(&root.join(&ar_rel)).then(|| load_entry::<LegalMeta>(root, &ar_rel));
        match (en, ar.transpose()) {
            (Ok(mut en), Ok(ar)) => {
                en.slug = name.to_string();
                docs.push(LegalDoc {
                    name: name.to_string(),
                    en,
                    ar,
                });
            }
            (en, ar) => {
                let mut e = errors.lock().unwrap();
                if let Err(d) = en {
                    e.push(d);
                }
                if let Err(d) = ar {
                    e.push(d);
                }
            }
        }
    }
    docs
}
