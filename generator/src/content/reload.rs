//! Re-reading single files of a loaded [`Library`], for live rebuilds: a blog post or resource
//! edit re-reads and re-validates that one file (and its translations) instead of the whole of
//! `content/`.

use std::path::{Path, PathBuf};

use content_model::i18n::Texts;
use serde::de::DeserializeOwned;

use content_model::model::{BlogPostMeta, ResourceMeta};

use super::library::{Entry, Library, ListFile};
use super::load::{file_name, load_entry, load_translation, original_path, translation_path};
use super::validate;
use crate::diagnostics::{Diagnostic, Diagnostics};

/// Which folder of per-file entries a path belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    Post,
    Resource,
}

impl EntryKind {
    /// `content/blog/x.md` (or its translation `x.ar.md`) → `Post`; anything else (other
    /// folders, nested files) → `None`.
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

/// What a reload did to one entry of one language's library, so it can be undone.
enum Undo {
    Post(usize, PathBuf, Option<Entry<BlogPostMeta>>),
    Resource(usize, PathBuf, Option<Entry<ResourceMeta>>),
}

/// Replaces, adds or (when `load` gives `None`) removes the entry from `rel`; returns the entry
/// it replaced. Entries stay sorted by path, as [`Library::load`] leaves them.
fn put<M>(entries: &mut Vec<Entry<M>>, rel: &Path, entry: Option<Entry<M>>) -> Option<Entry<M>> {
    let at = entries.binary_search_by(|e| e.source.as_path().cmp(rel));
    match (at, entry) {
        (Ok(i), Some(e)) => Some(std::mem::replace(&mut entries[i], e)),
        (Err(i), Some(e)) => {
            entries.insert(i, e);
            None
        }
        (Ok(i), None) => Some(entries.remove(i)),
        (Err(_), None) => None,
    }
}

fn restore<M>(entries: &mut Vec<Entry<M>>, rel: &Path, old: Option<Entry<M>>) {
    put(entries, rel, None);
    if let Some(old) = old {
        put(entries, rel, Some(old));
    }
}

/// The entry at `rel` in a sorted list.
fn find<'a, M>(entries: &'a [Entry<M>], rel: &Path) -> Option<&'a Entry<M>> {
    entries
        .binary_search_by(|e| e.source.as_path().cmp(rel))
        .ok()
        .map(|i| &entries[i])
}

/// The blog posts in every language: the default's, then the others'.
fn posts(
    lib: &mut Library,
) -> (
    &mut Vec<Entry<BlogPostMeta>>,
    Vec<&mut Vec<Entry<BlogPostMeta>>>,
) {
    let Library {
        blog, translations, ..
    } = lib;
    (blog, translations.iter_mut().map(|t| &mut t.blog).collect())
}

/// The resources in every language: the default's, then the others'.
fn resources(
    lib: &mut Library,
) -> (
    &mut Vec<Entry<ResourceMeta>>,
    Vec<&mut Vec<Entry<ResourceMeta>>>,
) {
    let Library {
        resources,
        translations,
        ..
    } = lib;
    (
        resources,
        translations.iter_mut().map(|t| &mut t.resources).collect(),
    )
}

/// An entry replaced in the library of language `.0` at file `.1`: what was there before.
type Replaced<M> = (usize, PathBuf, Option<Entry<M>>);

/// Re-reads the entry at `rel` (an original or a translation; a missing file is a deleted
/// entry) into `lists`, the entries of its kind in every language. An original brings its
/// translations along (their front matter is merged over it). Returns what to undo and every
/// file whose page may have changed: the entry's whole family in every language.
fn reload<M: DeserializeOwned + serde::Serialize + Texts + Clone>(
    lib_langs: &[String],
    root: &Path,
    rel: &Path,
    default: &mut Vec<Entry<M>>,
    others: &mut [&mut Vec<Entry<M>>],
) -> Result<(Vec<Replaced<M>>, Vec<PathBuf>), Diagnostic> {
    let mut undo = Vec::new();
    let lang = file_name(rel).1.map(str::to_string);
    let original = original_path(rel);
    match lang
        .as_deref()
        .map(|l| lib_langs.iter().position(|c| c == l))
    {
        // A translation into a language the site does not have: nothing to show.
        Some(None) | Some(Some(0)) => return Ok((undo, Vec::new())),
        Some(Some(_)) => {}
        None => {
            let entry = if root.join(rel).is_file() {
                Some(load_entry::<M>(root, rel, &lib_langs[0])?)
            } else {
                None
            };
            undo.push((0, rel.to_path_buf(), put(default, rel, entry)));
        }
    }
    // Every translation of the original, merged again over it.
    let mut family = vec![original.clone()];
    for (i, list) in others.iter_mut().enumerate() {
        let lang = &lib_langs[i + 1];
        let t = translation_path(&original, lang);
        let present = root.join(&t).is_file();
        if !present && find(list, &t).is_none() {
            continue;
        }
        let entry = match (present, find(default, &original)) {
            (false, _) => None,
            (true, Some(o)) => Some(load_translation::<M>(root, &t, o, lang, &lib_langs[0])?.entry),
            (true, None) => {
                return Err(Diagnostic::new(
                    &t,
                    format!(
                        "a translation without an original: there is no {}",
                        original.display()
                    ),
                ));
            }
        };
        undo.push((i + 1, t.clone(), put(list, &t, entry)));
        family.push(t);
    }
    Ok((undo, family))
}

impl Library {
    /// Re-reads the blog posts and resources at `rels` (relative to the root; a missing file is
    /// a deleted entry; a translation `x.ar.md` as well as an original) and validates them. On
    /// any problem the library is left exactly as it was and every problem is returned; else
    /// every entry whose page may have changed, in every language (an edit of an original
    /// changes its translations, and any edit changes the language links of the others).
    pub fn reload_entries(
        &mut self,
        rels: &[(EntryKind, PathBuf)],
    ) -> Result<Vec<(EntryKind, PathBuf)>, Diagnostics> {
        let root = self.root.clone();
        let langs: Vec<String> = self.languages.all().to_vec();
        let mut undo = Vec::new();
        let mut problems = Diagnostics::default();
        let mut changed = Vec::new();
        for (kind, rel) in rels {
            let done = match kind {
                EntryKind::Post => {
                    let (default, mut others) = posts(self);
                    reload(&langs, &root, rel, default, &mut others).map(|(u, family)| {
                        undo.extend(u.into_iter().map(|(i, r, o)| Undo::Post(i, r, o)));
                        family
                    })
                }
                EntryKind::Resource => {
                    let (default, mut others) = resources(self);
                    reload(&langs, &root, rel, default, &mut others).map(|(u, family)| {
                        undo.extend(u.into_iter().map(|(i, r, o)| Undo::Resource(i, r, o)));
                        family
                    })
                }
            };
            match done {
                Ok(family) => changed.extend(family.into_iter().map(|r| (*kind, r))),
                Err(d) => problems.push(d),
            }
        }
        changed.sort();
        changed.dedup();
        if problems.is_empty() {
            problems.extend(self.validate_entries(&changed));
        }
        if problems.is_empty() {
            return Ok(changed);
        }
        for u in undo.into_iter().rev() {
            match u {
                Undo::Post(i, rel, old) => {
                    let (default, mut others) = posts(self);
                    let list = if i == 0 { default } else { &mut *others[i - 1] };
                    restore(list, &rel, old);
                }
                Undo::Resource(i, rel, old) => {
                    let (default, mut others) = resources(self);
                    let list = if i == 0 { default } else { &mut *others[i - 1] };
                    restore(list, &rel, old);
                }
            }
        }
        Err(problems)
    }

    /// The checks of [`Library::load`] for just these entries, in every language: the rest of
    /// the library was valid and has not changed.
    fn validate_entries(&self, rels: &[(EntryKind, PathBuf)]) -> Vec<Diagnostic> {
        let pick = |kind| {
            rels.iter()
                .filter(move |(k, _)| *k == kind)
                .map(|(_, r)| r.as_path())
                .collect::<Vec<_>>()
        };
        let (posts, resources) = (pick(EntryKind::Post), pick(EntryKind::Resource));
        let just_these = |lib: &Library| Library {
            root: lib.root.clone(),
            lang: lib.lang.clone(),
            languages: lib.languages.clone(),
            translations: Vec::new(),
            settings: lib.settings.clone(),
            services: Vec::new(),
            resources: lib
                .resources
                .iter()
                .filter(|e| resources.contains(&e.source.as_path()))
                .cloned()
                .collect(),
            blog: lib
                .blog
                .iter()
                .filter(|e| posts.contains(&e.source.as_path()))
                .cloned()
                .collect(),
            events: Vec::new(),
            about: None,
            legal: Vec::new(),
            // Checked again with the entries: it has not changed, and it is valid.
            pages: lib.pages.clone(),
            logos: ListFile::default(),
            testimonials: ListFile::default(),
            videos: ListFile::default(),
            faqs: ListFile::default(),
            packages: ListFile::default(),
            warnings: Vec::new(),
        };
        let mut out = validate::validate(&just_these(self));
        for t in &self.translations {
            out.extend(validate::validate_translation(&just_these(t)));
            // A slug may only clash with an entry outside the reloaded ones.
            out.extend(validate::slug_clashes(t, &posts, &resources));
        }
        out
    }
}
