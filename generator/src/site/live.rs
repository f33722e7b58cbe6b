//! The one render pipeline: a site loaded and rendered once into a [`Sink`], then, for
//! `devserver`, kept in memory between edits, each change re-reading what changed and
//! re-rendering only the pages that can show it.
//!
//! What depends on what: a blog post's or resource's page shows only its own file (plus the
//! settings and the theme), so an edit re-renders that page; every other page (listings, home
//! sections, about, FAQ, pricing, legal, app shells: a few dozen at any size) may show any
//! content and is re-rendered on every change, with the sitemap and the feed. Only files whose
//! bytes changed are written (their hashes are kept), so untouched pages are never rewritten.
//! A change to settings, templates, theme assets or `content/static/` re-renders everything
//! (the chrome, the asset fingerprints and the base URL are on every page); still only the
//! changed files are written.
//!
//! A site in several languages renders every language in the same parallel pass: each post and
//! resource of each language is an entry of its own (a translation `x.ar.md` has its own page,
//! `/ar/blog/x`), and the shared pages are planned once per language. An edit of a post
//! re-renders it in every language (its translations merge over it, and every version links to
//! the others).
//!
//! `site build` is the first render alone into a staging folder, each page written as soon as
//! it is rendered; `site check` is the same render into [`Sink::Nowhere`], which writes nothing
//! and keeps only each page's links and ids; `generate` (tests) keeps every file in memory.
//!
//! In `devserver`, the file watcher's rebuild callback (`FnMut(&[PathBuf]) -> Result<String,
//! String>`) is `apply`; paths may be absolute or relative to the root, and paths inside the
//! output folder are ignored:
//!
//! ```ignore
//! let (mut live, report) = LiveSite::load(opts, &out)?;
//! let rebuild = move |changed: &[PathBuf]| live.apply(changed).map_err(|e| format!("{e:#}"));
//! ```

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use chrono::NaiveDate;
use rayon::prelude::*;
use walkdir::WalkDir;

use super::load::{Loaded, Options, load};
use crate::content::model::{BlogPostMeta, ResourceMeta};
use crate::content::{Entry, EntryKind, Library, file_name, original_path, translation_path};
use crate::diagnostics::{Diagnostic, Diagnostics, SiteErrors};
use crate::links::PageLinks;
use crate::output::{OutputFile, WriteStats};
use crate::render::plan::PostCard;
use crate::render::{FeedItem, Page, RenderedPage, Renderer};

/// What `site build` did.
pub struct BuildReport {
    pub pages: usize,
    /// Assets, sitemap, robots and feed.
    pub files: usize,
    pub warnings: Vec<String>,
    pub islands_report: Option<String>,
    pub stats: WriteStats,
}

/// Every problem in `d`, as the error a build fails with.
pub(super) fn errors(d: Vec<Diagnostic>) -> SiteErrors {
    let mut all = Diagnostics::default();
    all.extend(d);
    all.into_result().unwrap_err()
}

/// A page as the sitemap, the listings and the clean-up of stale files need it.
#[derive(Debug, Clone)]
struct Listed {
    path: String,
    file: String,
    lastmod: Option<NaiveDate>,
    indexed: bool,
    /// The page's language (an index of the site's languages).
    lang: usize,
    /// The page in every language (`Page::alternates`), for the sitemap; only kept on a site in
    /// several languages.
    alternates: Vec<Option<String>>,
}

impl Listed {
    fn of(page: &Page) -> Listed {
        Listed {
            path: page.path.clone(),
            file: page.output_file(),
            lastmod: page.lastmod,
            indexed: page.in_sitemap(),
            lang: page.lang,
            alternates: if page.alternates.len() > 1 {
                page.alternates.clone()
            } else {
                Vec::new()
            },
        }
    }
}

/// Where a render puts the files it produces.
pub(super) enum Sink {
    /// Into this output folder, each file only when its bytes changed (`site build`'s staging
    /// folder, `devserver`'s `public/`).
    Folder(PathBuf),
    /// Nowhere: only each file's hash, and each page's links and ids when they are collected
    /// (`site check`).
    Nowhere,
    /// Kept in memory, every page and file (`generate`, for tests).
    Memory,
}

/// A file as [`Sink::Memory`] keeps it.
enum Kept {
    Page(RenderedPage),
    File(Vec<u8>),
}

/// One file put into the sink.
struct Put {
    rel: String,
    hash: blake3::Hash,
    /// New or changed bytes (written, with a folder).
    written: bool,
    /// A page's links and ids, when the site collects them (`site build`, `site check`).
    links: Option<PageLinks>,
    /// The file itself, with [`Sink::Memory`].
    kept: Option<Kept>,
}

/// Puts `bytes` as `rel` into the sink. A folder's file is written unless it already holds
/// them: known by its hash, or, for a file this process has not written yet, by reading it.
/// A site rendered `once` (`site build` into its new staging folder, `site check`) is never
/// rendered again: nothing is there to compare with, and no hash is kept for later.
fn put(
    sink: &Sink,
    known: &HashMap<String, blake3::Hash>,
    rel: String,
    bytes: &[u8],
    once: bool,
) -> anyhow::Result<Put> {
    let hash = if once {
        blake3::Hash::from_bytes([0; 32])
    } else {
        blake3::hash(bytes)
    };
    let same = match (known.get(&rel), sink) {
        _ if once => false,
        (Some(h), _) => *h == hash,
        (None, Sink::Folder(out)) => fs::read(out.join(&rel)).is_ok_and(|old| old == bytes),
        (None, _) => false,
    };
    if let (false, Sink::Folder(out)) = (same, sink) {
        let path = out.join(&rel);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(Put {
        rel,
        hash,
        written: !same,
        links: None,
        kept: None,
    })
}

/// What to re-render.
enum Scope {
    Everything,
    /// These entries (added, edited or deleted) and the shared pages.
    Entries(Vec<(EntryKind, PathBuf)>),
}

#[derive(Default)]
struct Tally {
    rendered: usize,
    written: usize,
    unchanged: usize,
    removed: usize,
}

impl Tally {
    fn count(&mut self, p: &Put) {
        if p.written {
            self.written += 1;
        } else {
            self.unchanged += 1;
        }
    }
}

/// A rendered page put into the sink, with what the site keeps of it; or why it failed.
type Done<T> = Result<(T, Put), Diagnostic>;
/// A rendered post: its source, its sitemap entry and its card.
type PostDone = Done<(PathBuf, (Listed, PostCard))>;
/// A rendered resource: its source and its sitemap entry.
type ResourceDone = Done<(PathBuf, Listed)>;

/// What one render has produced so far: the files put, their tally, the pages that failed.
#[derive(Default)]
struct Produced {
    tally: Tally,
    puts: Vec<Put>,
    problems: Vec<Diagnostic>,
}

impl Produced {
    /// Counts and keeps a file put into the sink.
    fn add(&mut self, p: Put) {
        self.tally.count(&p);
        self.puts.push(p);
    }

    /// A page's put, counted and kept, gives back what came with it; a failure's problem is
    /// kept instead.
    fn take<T>(&mut self, done: Done<T>) -> Option<T> {
        match done {
            Ok((t, p)) => {
                self.add(p);
                Some(t)
            }
            Err(d) => {
                self.problems.push(d);
                None
            }
        }
    }
}

/// One render of the site: what it renders from and where it puts what it renders. Shared
/// by the threads of the parallel render.
struct RenderPass<'a> {
    loaded: &'a Loaded,
    opts: &'a Options,
    /// One per language of the site.
    renderers: Vec<Renderer<'a>>,
    sink: &'a Sink,
    /// The hashes of what is in the sink, to write only what changed.
    known: &'a HashMap<String, blake3::Hash>,
    collect_links: bool,
    /// Keep every page and file ([`Sink::Memory`]).
    keep: bool,
}

impl RenderPass<'_> {
    /// Renders `page` and puts it into the sink, with its links and the page itself when
    /// the site keeps them.
    fn page(&self, page: Page) -> Result<Put, Diagnostic> {
        let rendered = self.renderers[page.lang].render(page)?;
        let links = self
            .collect_links
            .then(|| PageLinks::of(&rendered.path, &rendered.source, &rendered.html));
        let p = put(
            self.sink,
            self.known,
            rendered.file.clone(),
            rendered.html.as_bytes(),
            self.collect_links,
        )
        .map_err(|e| Diagnostic::new(&rendered.source, format!("{e:#}")))?;
        let kept = self.keep.then_some(Kept::Page(rendered));
        Ok(Put { links, kept, ..p })
    }

    /// The posts and resources of `scope` in every language, rendered side by side, each
    /// streamed into the sink as soon as it is rendered; `taken` holds the post bodies taken
    /// out of the library, in the order of [`all_posts`].
    fn entries(
        &self,
        scope: &Scope,
        taken: Vec<Option<String>>,
    ) -> (Vec<PostDone>, Vec<ResourceDone>) {
        let lib = &self.loaded.library;
        let (posts, resources) = match scope {
            Scope::Everything => (
                all_posts(lib).collect(),
                lib.all_languages()
                    .enumerate()
                    .flat_map(|(i, l)| l.resources.iter().map(move |e| (i, e)))
                    .collect(),
            ),
            Scope::Entries(list) => (
                find(lib, list, EntryKind::Post, |l| &l.blog),
                find(lib, list, EntryKind::Resource, |l| &l.resources),
            ),
        };
        rayon::join(|| self.posts(&posts, taken), || self.resources(&resources))
    }

    /// Each published post's page and card, rendered in parallel; a taken body is freed as
    /// soon as its page is planned.
    fn posts(
        &self,
        posts: &[(usize, &Entry<BlogPostMeta>)],
        mut taken: Vec<Option<String>>,
    ) -> Vec<PostDone> {
        taken.resize(posts.len(), None);
        posts
            .par_iter()
            .zip(taken)
            .filter_map(|(&(lang, e), body)| {
                let planned = self.loaded.with_planner(self.opts, lang, |planner| {
                    planner.post(e, body.as_deref().unwrap_or(&e.body))
                });
                drop(body);
                planned.map(|pc| (lang, e, pc))
            })
            .map(|(lang, e, (page, card))| {
                let listed = Listed::of(&page);
                let card = self.renderers[lang].card(card)?;
                self.page(page)
                    .map(|p| ((e.source.clone(), (listed, card)), p))
            })
            .collect()
    }

    /// Each published resource's page, rendered in parallel.
    fn resources(&self, resources: &[(usize, &Entry<ResourceMeta>)]) -> Vec<ResourceDone> {
        resources
            .par_iter()
            .filter_map(|&(lang, e)| {
                self.loaded
                    .with_planner(self.opts, lang, |planner| planner.resource(e))
                    .map(|p| (e, p))
            })
            .map(|(e, page)| {
                let listed = Listed::of(&page);
                self.page(page).map(|p| ((e.source.clone(), listed), p))
            })
            .collect()
    }

    /// Every shared page of every language, which may list any of `posts`' cards of its
    /// language, planned; with them as the sitemap lists them, and each language's feed.
    fn plan_shared(
        &self,
        posts: &HashMap<PathBuf, (Listed, PostCard)>,
    ) -> (Vec<Page>, Vec<Listed>, Vec<Vec<FeedItem>>) {
        let mut pages = Vec::new();
        let mut feeds = Vec::new();
        for lang in 0..self.renderers.len() {
            let cards: Vec<&PostCard> = posts
                .values()
                .filter(|(l, _)| l.lang == lang)
                .map(|(_, c)| c)
                .collect();
            let (p, feed) = self
                .loaded
                .with_planner(self.opts, lang, |planner| planner.shared(cards));
            pages.extend(p);
            feeds.push(feed);
        }
        let listed = pages.iter().map(Listed::of).collect();
        (pages, listed, feeds)
    }

    /// The sitemap of `listed` and every other file (assets, feeds, robots…), put into the
    /// sink.
    fn files<'l>(
        &self,
        feeds: &[Vec<FeedItem>],
        listed: impl Iterator<Item = crate::seo::SitemapEntry<'l>>,
    ) -> anyhow::Result<Vec<Put>> {
        let loaded = self.loaded;
        let codes: Vec<&str> = loaded.locales.iter().map(|l| l.code.as_str()).collect();
        let sitemap = crate::seo::sitemap(&loaded.theme.tera, &loaded.base_url, &codes, listed)
            .map_err(|d| errors(vec![d]))?;
        let mut files = loaded
            .files(self.opts, feeds)
            .map_err(|d| errors(vec![d]))?;
        files.push(OutputFile {
            rel: "sitemap.xml".into(),
            bytes: sitemap.into_bytes(),
        });
        let mut puts = Vec::with_capacity(files.len());
        for OutputFile { rel, bytes } in files {
            let mut p = put(self.sink, self.known, rel, &bytes, self.collect_links)?;
            if self.keep {
                p.kept = Some(Kept::File(bytes));
            }
            puts.push(p);
        }
        Ok(puts)
    }
}

/// The loaded site, what was rendered from it, and what is in the sink.
pub struct LiveSite {
    opts: Options,
    sink: Sink,
    /// `opts.root` made absolute, to make sense of the watcher's paths.
    root: PathBuf,
    loaded: Loaded,
    posts: HashMap<PathBuf, (Listed, PostCard)>,
    resources: HashMap<PathBuf, Listed>,
    shared: Vec<Listed>,
    /// Every file this site put into the sink, by path under the output folder.
    hashes: HashMap<String, blake3::Hash>,
    /// Each page's links and ids by output file, for the link check of `site build` and
    /// `site check`; `None` in `devserver`, which does not check links.
    links: Option<HashMap<String, PageLinks>>,
    /// Every file by path, with [`Sink::Memory`].
    kept: HashMap<String, Kept>,
}

impl LiveSite {
    /// Loads, validates and renders the whole site into `out`, removing files an earlier
    /// build left that this one does not produce.
    pub fn load(opts: Options, out: &Path) -> anyhow::Result<(LiveSite, BuildReport)> {
        Self::open(opts, Sink::Folder(out.to_path_buf()), false)
    }

    /// Loads, validates and renders the whole site into `sink`; with `collect_links`, keeps
    /// each page's links and ids for [`LiveSite::broken_links`].
    pub(super) fn open(
        opts: Options,
        sink: Sink,
        collect_links: bool,
    ) -> anyhow::Result<(LiveSite, BuildReport)> {
        if let Sink::Folder(out) = &sink {
            crate::output::refuse_project_folder(out)?;
        }
        let root = fs::canonicalize(&opts.root)
            .with_context(|| format!("cannot open {}", opts.root.display()))?;
        // Nothing is written, not even the folder, when the content is not valid.
        let loaded = load(&opts)?;
        if let Sink::Folder(out) = &sink {
            fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
        }
        let mut site = LiveSite {
            opts,
            sink,
            root,
            loaded,
            posts: HashMap::new(),
            resources: HashMap::new(),
            shared: Vec::new(),
            hashes: HashMap::new(),
            links: collect_links.then(HashMap::new),
            kept: HashMap::new(),
        };
        let mut tally = site.render(Scope::Everything)?;
        // `site build` renders into a new staging folder: nothing else is in it.
        if !collect_links {
            tally.removed += site.prune_unknown_files()?;
        }
        let report = BuildReport {
            pages: site.posts.len() + site.resources.len() + site.shared.len(),
            files: site.hashes.len() - site.posts.len() - site.resources.len() - site.shared.len(),
            warnings: site.loaded.warnings.clone(),
            islands_report: site.loaded.theme.islands_report.clone(),
            stats: WriteStats {
                written: tally.written,
                unchanged: tally.unchanged,
                removed: tally.removed,
            },
        };
        Ok((site, report))
    }

    /// Every internal link or anchor of the collected pages that leads nowhere.
    pub(super) fn broken_links(&self) -> Vec<Diagnostic> {
        let Some(links) = &self.links else {
            return Vec::new();
        };
        let files: HashSet<String> = self
            .hashes
            .keys()
            .filter(|rel| !links.contains_key(*rel))
            .map(|rel| format!("/{rel}"))
            .collect();
        let pages: Vec<&PageLinks> = links.values().collect();
        crate::links::check(&pages, &files)
    }

    /// The pages this site publishes.
    pub fn page_count(&self) -> usize {
        self.posts.len() + self.resources.len() + self.shared.len()
    }

    /// What [`Sink::Memory`] kept: every page, then every other file.
    pub(super) fn into_kept(self) -> (Vec<RenderedPage>, Vec<OutputFile>, Loaded) {
        let (mut pages, mut files) = (Vec::new(), Vec::new());
        for (rel, kept) in self.kept {
            match kept {
                Kept::Page(page) => pages.push(page),
                Kept::File(bytes) => files.push(OutputFile { rel, bytes }),
            }
        }
        pages.sort_by(|a, b| a.path.cmp(&b.path));
        files.sort_by(|a, b| a.rel.cmp(&b.rel));
        (pages, files, self.loaded)
    }

    /// Brings the output up to date with these changed files (edited, created or deleted;
    /// absolute or relative to the root) and says in one line what it did. When the content
    /// is no longer valid the problems are returned and the last good site stays as it is.
    pub fn apply(&mut self, changed: &[PathBuf]) -> anyhow::Result<String> {
        let started = Instant::now();
        let mut entries = Vec::new();
        let (mut content, mut theme) = (false, false);
        for rel in changed.iter().filter_map(|p| self.relative(p)) {
            if let Some(kind) = EntryKind::of(&rel) {
                entries.push((kind, rel));
            } else if rel.starts_with("content/static") || rel.starts_with("themes") {
                theme = true;
            } else if rel.starts_with("content") {
                content = true;
            }
        }
        if entries.is_empty() && !content && !theme {
            return Ok("nothing to rebuild".into());
        }
        let scope = if content || theme {
            let fresh = load(&self.opts)?;
            let scope = if theme
                || settings_differ(&self.loaded.library, &fresh.library)
                || untranslated_differ(&self.loaded.library, &fresh.library)
            {
                Scope::Everything
            } else {
                Scope::Entries(changed_entries(&self.loaded.library, &fresh.library))
            };
            self.loaded = fresh;
            scope
        } else {
            entries.sort();
            entries.dedup();
            let changed = self
                .loaded
                .library
                .reload_entries(&entries)
                .map_err(|d| errors(d.0))?;
            Scope::Entries(changed)
        };
        let what = match &scope {
            Scope::Everything => "everything".to_string(),
            Scope::Entries(e) if e.len() == 1 => e[0].1.display().to_string(),
            Scope::Entries(e) => format!("{} files", e.len()),
        };
        let t = self.render(scope)?;
        Ok(format!(
            "{what}: {} pages rendered, {} files written, {} removed in {} ms",
            t.rendered,
            t.written,
            t.removed,
            started.elapsed().as_millis()
        ))
    }

    /// A watcher's path relative to the root; `None` outside it or inside the output folder.
    fn relative(&self, path: &Path) -> Option<PathBuf> {
        let rel = if path.is_absolute() {
            path.strip_prefix(&self.root)
                .or_else(|_| path.strip_prefix(&self.opts.root))
                .ok()?
                .to_path_buf()
        } else {
            path.to_path_buf()
        };
        let in_out = match &self.sink {
            Sink::Folder(out) => {
                let canonical = fs::canonicalize(out).unwrap_or_else(|_| out.clone());
                self.root.join(&rel).starts_with(&canonical) || rel.starts_with(out)
            }
            Sink::Nowhere | Sink::Memory => false,
        };
        (!in_out).then_some(rel)
    }

    /// Renders `scope` into the sink: its posts and resources, then the shared pages, the
    /// sitemap and the other files; then removes and forgets what is no longer produced.
    fn render(&mut self, scope: Scope) -> anyhow::Result<Tally> {
        let taken = self.take_bodies(&scope);
        self.forget_entries(&scope);
        let pass = RenderPass {
            loaded: &self.loaded,
            opts: &self.opts,
            renderers: (0..self.loaded.languages.len())
                .map(|i| self.loaded.renderer(i))
                .collect(),
            sink: &self.sink,
            known: &self.hashes,
            collect_links: self.links.is_some(),
            keep: matches!(self.sink, Sink::Memory),
        };
        let mut produced = Produced::default();
        let (posts, resources) = pass.entries(&scope, taken);
        self.posts
            .extend(posts.into_iter().filter_map(|done| produced.take(done)));
        self.resources
            .extend(resources.into_iter().filter_map(|done| produced.take(done)));
        produced.tally.rendered += produced.puts.len();
        let (pages, shared, feeds) = pass.plan_shared(&self.posts);
        self.shared = shared;
        produced.tally.rendered += pages.len();
        let pages: Vec<_> = pages.into_par_iter().map(|page| pass.page(page)).collect();
        let files = pass.files(&feeds, self.sitemap_pages());
        for r in pages {
            match r {
                Ok(p) => produced.add(p),
                Err(d) => produced.problems.push(d),
            }
        }
        for p in files? {
            produced.add(p);
        }
        if !produced.problems.is_empty() {
            return Err(errors(produced.problems).into());
        }
        produced.tally.removed += self.remove_stale(&scope, &produced.puts)?;
        self.remember(produced.puts);
        Ok(produced.tally)
    }

    /// `site build` and `site check` render everything once and keep nothing for later edits:
    /// each post's Markdown is taken out of the library here and freed as soon as its page is
    /// written (the bodies were over half of a 10,000-page build's memory). The feed's posts
    /// keep theirs.
    fn take_bodies(&mut self, scope: &Scope) -> Vec<Option<String>> {
        match scope {
            Scope::Everything if self.links.is_some() => {
                let keep: Vec<HashSet<usize>> = (0..self.loaded.languages.len())
                    .map(|lang| {
                        self.loaded
                            .with_planner(&self.opts, lang, |planner| planner.feed_posts())
                    })
                    .collect();
                let library = &mut self.loaded.library;
                let libraries = std::iter::once(&mut library.blog)
                    .chain(library.translations.iter_mut().map(|t| &mut t.blog));
                libraries
                    .zip(keep)
                    .flat_map(|(blog, keep)| {
                        blog.iter_mut().enumerate().map(move |(i, e)| {
                            (!keep.contains(&i)).then(|| std::mem::take(&mut e.body))
                        })
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// Forgets the pages of the entries about to be rendered: each comes back if it is still
    /// published.
    fn forget_entries(&mut self, scope: &Scope) {
        match scope {
            Scope::Everything => {
                self.posts.clear();
                self.resources.clear();
            }
            Scope::Entries(list) => {
                for (kind, rel) in list {
                    match kind {
                        EntryKind::Post => self.posts.remove(rel).map(|_| ()),
                        EntryKind::Resource => self.resources.remove(rel).map(|_| ()),
                    };
                }
            }
        }
    }

    /// Every page the sitemap lists, with its last change and its other languages.
    fn sitemap_pages(&self) -> impl Iterator<Item = crate::seo::SitemapEntry<'_>> {
        self.posts
            .values()
            .map(|(l, _)| l)
            .chain(self.resources.values())
            .chain(&self.shared)
            .filter(|l| l.indexed)
            .map(|l| crate::seo::SitemapEntry {
                path: &l.path,
                lastmod: l.lastmod,
                alternates: &l.alternates,
            })
    }

    /// Removes from the sink what this render's `puts` (and, after an edit, the other posts
    /// and resources) no longer produce; after a render of everything, forgets every earlier
    /// hash too.
    fn remove_stale(&mut self, scope: &Scope, puts: &[Put]) -> anyhow::Result<usize> {
        let stale = self.stale(scope, puts);
        let removed = self.remove(&stale)?;
        if let Scope::Everything = scope {
            self.hashes.clear();
        }
        Ok(removed)
    }

    /// The files in the sink that nothing produces any more.
    fn stale(&self, scope: &Scope, puts: &[Put]) -> Vec<String> {
        let mut current: HashSet<&str> = puts.iter().map(|p| p.rel.as_str()).collect();
        if let Scope::Entries(_) = scope {
            current.extend(self.posts.values().map(|(l, _)| l.file.as_str()));
            current.extend(self.resources.values().map(|l| l.file.as_str()));
        }
        self.hashes
            .keys()
            .filter(|k| !current.contains(k.as_str()))
            .cloned()
            .collect()
    }

    /// Keeps each put's hash, and its links and file where this site keeps them.
    fn remember(&mut self, puts: Vec<Put>) {
        for p in puts {
            if let (Some(all), Some(links)) = (&mut self.links, p.links) {
                all.insert(p.rel.clone(), links);
            }
            if let Some(kept) = p.kept {
                self.kept.insert(p.rel.clone(), kept);
            }
            self.hashes.insert(p.rel, p.hash);
        }
    }

    /// Removes these files from the sink, and from a folder the folders they leave empty.
    fn remove(&mut self, rels: &[String]) -> anyhow::Result<usize> {
        for rel in rels {
            self.hashes.remove(rel);
            self.kept.remove(rel);
            if let Some(links) = &mut self.links {
                links.remove(rel);
            }
            let Sink::Folder(out) = &self.sink else {
                continue;
            };
            let path = out.join(rel);
            match fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    return Err(e).with_context(|| format!("cannot remove {}", path.display()));
                }
            }
            let mut dir = path.parent();
            while let Some(d) = dir.filter(|d| d != out) {
                if fs::remove_dir(d).is_err() {
                    break;
                }
                dir = d.parent();
            }
        }
        Ok(rels.len())
    }

    /// After the first render: files in the output folder that this site did not produce.
    fn prune_unknown_files(&mut self) -> anyhow::Result<usize> {
        let Sink::Folder(out) = &self.sink else {
            return Ok(0);
        };
        let mut removed = 0;
        let mut dirs = Vec::new();
        for entry in WalkDir::new(out).min_depth(1).into_iter().flatten() {
            if entry.file_type().is_dir() {
                dirs.push(entry.into_path());
                continue;
            }
            let rel = entry.path().strip_prefix(out).unwrap_or(entry.path());
            let rel = rel.to_string_lossy().replace('\\', "/");
            if !self.hashes.contains_key(&rel) {
                fs::remove_file(entry.path())
                    .with_context(|| format!("cannot remove stale {}", entry.path().display()))?;
                removed += 1;
            }
        }
        // Deepest first, so emptied parents go too; a non-empty folder just stays.
        dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        for d in dirs {
            let _ = fs::remove_dir(d);
        }
        Ok(removed)
    }
}

/// Every post of every language with its language, in the order `take_bodies` takes them.
fn all_posts(lib: &Library) -> impl Iterator<Item = (usize, &Entry<BlogPostMeta>)> {
    lib.all_languages()
        .enumerate()
        .flat_map(|(i, l)| l.blog.iter().map(move |e| (i, e)))
}

/// The entries named in `list` with this kind, each in the library of its language (a file
/// `x.ar.md` is in Arabic's), with that language; deleted ones are simply not found.
fn find<'a, M>(
    lib: &'a Library,
    list: &[(EntryKind, PathBuf)],
    kind: EntryKind,
    pick: fn(&Library) -> &[Entry<M>],
) -> Vec<(usize, &'a Entry<M>)> {
    list.iter()
        .filter(|(k, _)| *k == kind)
        .filter_map(|(_, rel)| {
            let lang = match file_name(rel).1 {
                None => 0,
                Some(code) => lib.languages.index(code).filter(|i| *i > 0)?,
            };
            let all = pick(lib.in_language(lang));
            all.binary_search_by(|e| e.source.as_path().cmp(rel))
                .ok()
                .map(|i| (lang, &all[i]))
        })
        .collect()
}

/// An about or legal page was translated or its translation removed: the header and footer of
/// every page of that language link to it (or to the default language's).
fn untranslated_differ(a: &Library, b: &Library) -> bool {
    let routes = |lib: &Library| {
        lib.all_languages()
            .enumerate()
            .map(|(i, l)| {
                let mut r: Vec<String> = l.untranslated_routes(i == 0).into_iter().collect();
                r.sort();
                r
            })
            .collect::<Vec<_>>()
    };
    routes(a) != routes(b)
}

/// The settings changed in some language (every page shows them, in its language).
fn settings_differ(a: &Library, b: &Library) -> bool {
    let settings = |lib: &Library| {
        lib.all_languages()
            .map(|l| serde_json::to_value(&l.settings).ok())
            .collect::<Vec<_>>()
    };
    settings(a) != settings(b)
}

/// Posts and resources added, removed or changed between two loads of the library, in every
/// language, each with its whole family: an original's translations merge over it, and every
/// version links to the others.
fn changed_entries(old: &Library, new: &Library) -> Vec<(EntryKind, PathBuf)> {
    let mut out = Vec::new();
    let pairs = old.all_languages().zip(new.all_languages());
    for (a, b) in pairs {
        out.extend(changed_in(a, b));
    }
    if old.translations.len() != new.translations.len() {
        // Languages added or removed change settings: everything is rendered anyway.
        return out;
    }
    let languages: Vec<String> = new.languages.all().to_vec();
    let mut family = Vec::new();
    for (kind, rel) in &out {
        let original = match file_name(rel).1 {
            Some(_) => original_path(rel),
            None => rel.clone(),
        };
        family.push((*kind, original.clone()));
        for code in languages.iter().skip(1) {
            family.push((*kind, translation_path(&original, code)));
        }
    }
    out.extend(family);
    out.sort();
    out.dedup();
    out
}

/// [`changed_entries`] in one language.
fn changed_in(old: &Library, new: &Library) -> Vec<(EntryKind, PathBuf)> {
    fn key<M>(e: &Entry<M>) -> (&Path, (&str, &str)) {
        (e.source.as_path(), (e.yaml.as_str(), e.body.as_str()))
    }
    fn diff<M>(
        kind: EntryKind,
        a: &[Entry<M>],
        b: &[Entry<M>],
        out: &mut Vec<(EntryKind, PathBuf)>,
    ) {
        let a: HashMap<_, _> = a.iter().map(key::<M>).collect();
        let b: HashMap<_, _> = b.iter().map(key::<M>).collect();
        for (source, text) in &a {
            if b.get(source) != Some(text) {
                out.push((kind, source.to_path_buf()));
            }
        }
        for source in b.keys() {
            if !a.contains_key(source) {
                out.push((kind, source.to_path_buf()));
            }
        }
    }
    let mut out = Vec::new();
    diff(EntryKind::Post, &old.blog, &new.blog, &mut out);
    diff(
        EntryKind::Resource,
        &old.resources,
        &new.resources,
        &mut out,
    );
    out
}
