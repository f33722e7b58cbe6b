//! Reading `content/` into a [`Library`]: the folders side by side, then the list files, then
//! the validation; every problem collected.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use content_model::model::*;
use content_model::yaml;
use rayon::prelude::*;
use serde::de::DeserializeOwned;

use super::library::{Entry, LEGAL_PAGES, LegalDoc, Library, ListFile};
use super::{validate, walk};
use crate::diagnostics::{Diagnostic, Diagnostics};

/// Reads a file relative to `root`, as a diagnostic on failure.
fn read(root: &Path, rel: &Path) -> Result<String, Diagnostic> {
    fs::read_to_string(root.join(rel)).map_err(|e| {
        Diagnostic::new(rel, format!("cannot read the file: {e}"))
            .hint("check that it exists and is UTF-8 text")
    })
}

/// Parses one Markdown file with front matter.
pub(super) fn load_entry<M: DeserializeOwned>(
    root: &Path,
    rel: &Path,
) -> Result<Entry<M>, Diagnostic> {
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

/// The settings and the Markdown folders of `content/`, as [`Folders::load`] reads them.
struct Folders {
    settings: Option<Settings>,
    services: Vec<Entry<ServiceMeta>>,
    resources: Vec<Entry<ResourceMeta>>,
    blog: Vec<Entry<BlogPostMeta>>,
    events: Vec<Entry<EventMeta>>,
    about: Option<Entry<AboutMeta>>,
    legal: Vec<LegalDoc>,
}

impl Folders {
    /// The folders are independent: loads them side by side.
    fn load(root: &Path, errors: &Mutex<Diagnostics>, warnings: &Mutex<Vec<String>>) -> Folders {
        let ((settings, (services, resources)), ((blog, events), (about, legal))) = rayon::join(
            || {
                rayon::join(
                    || load_settings(root, errors),
                    || {
                        rayon::join(
                            || load_dir::<ServiceMeta>(root, "services", errors, warnings),
                            || load_dir::<ResourceMeta>(root, "resources", errors, warnings),
                        )
                    },
                )
            },
            || {
                rayon::join(
                    || {
                        rayon::join(
                            || load_dir::<BlogPostMeta>(root, "blog", errors, warnings),
                            || load_dir::<EventMeta>(root, "events", errors, warnings),
                        )
                    },
                    || rayon::join(|| load_about(root, errors), || load_legal(root, errors)),
                )
            },
        );
        Folders {
            settings,
            services,
            resources,
            blog,
            events,
            about,
            legal,
        }
    }
}

/// The YAML list files of `content/`, as [`Lists::load`] reads them.
struct Lists {
    logos: ListFile<Logo>,
    testimonials: ListFile<Testimonial>,
    videos: ListFile<Video>,
    faqs: ListFile<Faq>,
    packages: ListFile<Package>,
    pages: ListFile<PageText>,
}

impl Lists {
    /// Reads the list files one after the other; a broken one is reported and left empty.
    fn load(root: &Path, errors: &Mutex<Diagnostics>) -> Lists {
        Lists {
            logos: list_or_empty(root, "logos", errors),
            testimonials: list_or_empty(root, "testimonials", errors),
            videos: list_or_empty(root, "videos", errors),
            faqs: list_or_empty(root, "faqs", errors),
            packages: list_or_empty(root, "packages", errors),
            pages: list_or_empty(root, "pages", errors),
        }
    }
}

/// `content/<name>.yaml`, or an empty list with its problem collected.
fn list_or_empty<T: DeserializeOwned + Send>(
    root: &Path,
    name: &str,
    errors: &Mutex<Diagnostics>,
) -> ListFile<T> {
    load_list::<T>(root, &format!("content/{name}.yaml"))
        .map_err(|d| errors.lock().unwrap().push(d))
        .unwrap_or_default()
}

/// `content/settings.yaml`, or `None` with its problem collected.
fn load_settings(root: &Path, errors: &Mutex<Diagnostics>) -> Option<Settings> {
    let settings_rel = PathBuf::from("content/settings.yaml");
    read(root, &settings_rel)
        .and_then(|t| yaml::parse::<Settings>(&t, &settings_rel, 0))
        .map_err(|d| errors.lock().unwrap().push(d))
        .ok()
}

impl Library {
    /// Loads and validates the whole of `<root>/content`. Returns every problem found.
    pub fn load(root: &Path) -> Result<Library, Diagnostics> {
        if !root.join("content").is_dir() {
            let mut d = Diagnostics::default();
            d.push(Diagnostic::new("content", "there is no content folder here").hint(
                "run `site` from the project root, or pass `--root` with the folder that holds content/",
            ));
            return Err(d);
        }
        let errors = Mutex::new(Diagnostics::default());
        let warnings = Mutex::new(Vec::new());
        let folders = Folders::load(root, &errors, &warnings);
        let lists = Lists::load(root, &errors);

        let mut errors = errors.into_inner().unwrap();
        let Some(settings) = folders.settings else {
            return Err(errors);
        };
        let library = Library {
            root: root.to_path_buf(),
            warnings: warnings.into_inner().unwrap(),
            settings,
            services: folders.services,
            resources: folders.resources,
            blog: folders.blog,
            events: folders.events,
            about: folders.about,
            legal: folders.legal,
            logos: lists.logos,
            testimonials: lists.testimonials,
            videos: lists.videos,
            faqs: lists.faqs,
            packages: lists.packages,
            pages: lists.pages,
        };
        errors.extend(validate::validate(&library));
        if errors.is_empty() {
            Ok(library)
        } else {
            Err(errors)
        }
    }
}

/// `content/pages/about.md`, when there is one.
fn load_about(root: &Path, errors: &Mutex<Diagnostics>) -> Option<Entry<AboutMeta>> {
    let rel = PathBuf::from("content/pages/about.md");
    if !walk::is_present(&root.join(&rel)) {
        return None;
    }
    load_entry(root, &rel)
        .map_err(|d| errors.lock().unwrap().push(d))
        .ok()
}

/// Every legal page in English, each with its Arabic translation when there is one.
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
