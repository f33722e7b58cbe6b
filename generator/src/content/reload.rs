//! Re-reading single files of a loaded [`Library`], for live rebuilds: a blog post or resource
//! edit re-reads and re-validates that one file instead of the whole of `content/`.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use content_model::model::{BlogPostMeta, ResourceMeta};

use super::library::{Entry, Library, ListFile};
use super::load::load_entry;
use super::validate;
use crate::diagnostics::{Diagnostic, Diagnostics};

/// Which folder of per-file entries a path belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    Post,
    Resource,
}

impl EntryKind {
    /// `content/blog/x.md` → `Post`; anything else (other folders, nested files) → `None`.
    pub fn of(rel: &Path) -> Option<EntryKind> {
        if rel.extension().is_none_or(|e| e != "md") {
            return None;
        }
        let parent = rel.parent()?;
        if parent == Path::new("content/blog") {
            Some(EntryKind::Post)
        } else if parent == Path::new("content/resources") {
            Some(EntryKind::Resource)
        } else {
            None
        }
    }
}

/// What a reload did to one entry, so it can be undone.
enum Undo {
    Post(PathBuf, Option<Entry<BlogPostMeta>>),
    Resource(PathBuf, Option<Entry<ResourceMeta>>),
}

/// Replaces, adds or (when the file is gone) removes the entry from `rel`; returns the entry it
/// replaced. Entries stay sorted by path, as [`Library::load`] leaves them.
fn put<M: DeserializeOwned>(
    entries: &mut Vec<Entry<M>>,
    root: &Path,
    rel: &Path,
) -> Result<Option<Entry<M>>, Diagnostic> {
    let at = entries.binary_search_by(|e| e.source.as_path().cmp(rel));
    if !root.join(rel).is_file() {
        return Ok(at.ok().map(|i| entries.remove(i)));
    }
    let entry = load_entry::<M>(root, rel)?;
    Ok(match at {
        Ok(i) => Some(std::mem::replace(&mut entries[i], entry)),
        Err(i) => {
            entries.insert(i, entry);
            None
        }
    })
}

fn restore<M>(entries: &mut Vec<Entry<M>>, rel: &Path, old: Option<Entry<M>>) {
    let at = entries.binary_search_by(|e| e.source.as_path().cmp(rel));
    match (at, old) {
        (Ok(i), Some(old)) => entries[i] = old,
        (Ok(i), None) => {
            entries.remove(i);
        }
        (Err(i), Some(old)) => entries.insert(i, old),
        (Err(_), None) => {}
    }
}

impl Library {
    /// Re-reads the blog posts and resources at `rels` (relative to the root; a missing file is
    /// a deleted entry) and validates them. On any problem the library is left exactly as it
    /// was and every problem is returned.
    pub fn reload_entries(&mut self, rels: &[(EntryKind, PathBuf)]) -> Result<(), Diagnostics> {
        let root = self.root.clone();
        let mut undo = Vec::new();
        let mut problems = Diagnostics::default();
        for (kind, rel) in rels {
            let done = match kind {
                EntryKind::Post => {
                    put(&mut self.blog, &root, rel).map(|o| Undo::Post(rel.clone(), o))
                }
                EntryKind::Resource => {
                    put(&mut self.resources, &root, rel).map(|o| Undo::Resource(rel.clone(), o))
                }
            };
            match done {
                Ok(u) => undo.push(u),
                Err(d) => problems.push(d),
            }
        }
        if problems.is_empty() {
            problems.extend(self.validate_entries(rels));
        }
        if problems.is_empty() {
            return Ok(());
        }
        for u in undo.into_iter().rev() {
            match u {
                Undo::Post(rel, old) => restore(&mut self.blog, &rel, old),
                Undo::Resource(rel, old) => restore(&mut self.resources, &rel, old),
            }
        }
        Err(problems)
    }

    /// The checks of [`Library::load`] for just these entries: the rest of the library was
    /// valid and has not changed.
    fn validate_entries(&self, rels: &[(EntryKind, PathBuf)]) -> Vec<Diagnostic> {
        let pick = |kind| {
            rels.iter()
                .filter(move |(k, _)| *k == kind)
                .map(|(_, r)| r.as_path())
                .collect::<Vec<_>>()
        };
        let (posts, resources) = (pick(EntryKind::Post), pick(EntryKind::Resource));
        let just_these = Library {
            root: self.root.clone(),
            settings: self.settings.clone(),
            services: Vec::new(),
            resources: self
                .resources
                .iter()
                .filter(|e| resources.contains(&e.source.as_path()))
                .cloned()
                .collect(),
            blog: self
                .blog
                .iter()
                .filter(|e| posts.contains(&e.source.as_path()))
                .cloned()
                .collect(),
            events: Vec::new(),
            about: None,
            legal: Vec::new(),
            // Checked again with the entries: it has not changed, and it is valid.
            pages: self.pages.clone(),
            logos: ListFile::default(),
            testimonials: ListFile::default(),
            videos: ListFile::default(),
            faqs: ListFile::default(),
            packages: ListFile::default(),
            warnings: Vec::new(),
        };
        validate::validate(&just_these)
    }
}
