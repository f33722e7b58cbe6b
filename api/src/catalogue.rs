//! The catalogue the API prices purchases from: the packages and settings the site publishes at
//! `/catalogue.json` (`content_model::catalogue`), loaded from the deployed site, so a price or
//! validity edit reaches the API with the deploy that shows it, with nothing to copy.
//!
//! Loaded once at start (the API does not start without one), and again whenever a purchase
//! names a version this process has not seen: the pages are built with the catalogue's
//! version and send it, so the first purchase from a new deploy brings the new catalogue in.
//! Loads run one at a time, and requests waiting for one then use its result, so an unseen
//! version costs at most one fetch however many requests name it at once; a version the site
//! turned out not to have is answered from memory for [`MISS_TTL`]. Whatever versions are
//! named, fetches are at least [`REFETCH_INTERVAL`] apart: a request that comes within it
//! waits for the next fetch (or takes the answer of one made after it came in). A failed or unusable
//! fetch changes nothing: the last good catalogue stays, and the request that needed the new
//! one is told to try again.
//!
//! In development (no `CATALOGUE_URL`), the "site" is `content/` itself, read with the same
//! function the build publishes with, so the versions are the ones the local pages carry.
//!
//! Each version that becomes current, and each fetch that fails, is told to [`Catalogues::loads`]
//! (the status page records them: `operations::catalogue`).

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use anyhow::Context;
use content_model::catalogue::{Catalogue, CataloguePackage};

/// Where the catalogue comes from (configuration `CATALOGUE_URL`, see [`crate::configuration`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The published file, e.g. `https://www.example.com/catalogue.json`.
    Url(String),
    /// A `content/` folder, read as the build would publish it (development and tests).
    ContentDir(PathBuf),
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Url(url) => f.write_str(url),
            Source::ContentDir(dir) => write!(f, "{}", dir.display()),
        }
    }
}

/// How long a version the site did not have is refused without asking the site again.
pub const MISS_TTL: Duration = Duration::from_secs(5);
/// The least time between two fetches for unseen versions: made-up versions cannot make the
/// API fetch the catalogue more often than this, however many and however different.
pub const REFETCH_INTERVAL: Duration = Duration::from_secs(3);
/// How many versions this process remembers (the current one and those before it).
const KEEP: usize = 32;
/// The largest catalogue file read (the real one is a few kilobytes).
const MAX_BYTES: usize = 1024 * 1024;

/// Why a request's version could not be used.
#[derive(Debug, thiserror::Error)]
pub enum VersionError {
    /// The site does not publish this version (an old page from before this process started,
    /// or a made-up version).
    #[error("the site does not publish catalogue version `{0}`")]
    Unknown(String),
    /// The site could not be asked, or answered with something unusable; nothing changed.
    #[error("the catalogue could not be loaded from {origin}: {cause:#}")]
    Unavailable {
        origin: String,
        cause: anyhow::Error,
    },
}

/// A request's version, resolved: the catalogue its page was built with, and the current one.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub page: Arc<Catalogue>,
    pub current: Arc<Catalogue>,
}

struct Known {
    current: Arc<Catalogue>,
    /// The current catalogue's settings, as the API uses them.
    site: Arc<crate::site::SiteInfo>,
    /// Every version loaded since start, oldest first, at most [`KEEP`].
    seen: VecDeque<Arc<Catalogue>>,
}

pub struct Catalogues {
    source: Source,
    http: reqwest::Client,
    known: RwLock<Known>,
    /// Held while loading.
    loading: tokio::sync::Mutex<Loading>,
    /// The last load: the version that became current, or a fetch that failed.
    loads: tokio::sync::watch::Sender<Load>,
}

/// A load from the source: the version that became current, or why a fetch failed.
#[derive(Debug, Clone)]
pub struct Load {
    pub at: chrono::DateTime<chrono::Utc>,
    pub outcome: Result<String, String>,
}

#[derive(Default)]
struct Loading {
    /// The versions the site did not have, and when that was learnt.
    misses: HashMap<String, Instant>,
    /// The last fetch made for an unseen version.
    last: Option<LastFetch>,
}

struct LastFetch {
    started: Instant,
    /// Why it failed, if it did.
    failure: Option<String>,
}

impl Catalogues {
    /// Loads the catalogue from `source`, trying a URL three times over about three seconds
    /// (a site being deployed at that moment, a network blip) before giving up.
    pub async fn load(source: Source) -> anyhow::Result<Catalogues> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(10))
            .build()
            .context("cannot build the HTTP client")?;
        let mut attempt = 0;
        let first = loop {
            attempt += 1;
            match fetch(&http, &source).await {
                Ok(c) => break c,
                Err(e) if attempt < 3 && matches!(source, Source::Url(_)) => {
                    tracing::warn!(source = %source, error = format!("{e:#}"), "catalogue not loaded yet; trying again");
                    tokio::time::sleep(Duration::from_millis(1000 * attempt)).await;
                }
                Err(e) => {
                    return Err(e.context(format!(
                        "cannot load the catalogue from {source} (the site publishes it at /catalogue.json; \
                         set CATALOGUE_URL, or in development CONTENT_DIR)"
                    )));
                }
            }
        };
        tracing::info!(source = %source, version = %first.version, "catalogue loaded");
        let first = Arc::new(first);
        let (loads, _) = tokio::sync::watch::channel(Load {
            at: chrono::Utc::now(),
            outcome: Ok(first.version.clone()),
        });
        Ok(Catalogues {
            loads,
            known: RwLock::new(Known {
                site: Arc::new(crate::site::SiteInfo::from_catalogue(&first)?),
                current: first.clone(),
                seen: VecDeque::from([first]),
            }),
            loading: Default::default(),
            source,
            http,
        })
    }

    /// Where the catalogue is loaded from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The last load, and each one after it as it happens.
    pub fn loads(&self) -> tokio::sync::watch::Receiver<Load> {
        self.loads.subscribe()
    }

    /// The newest catalogue this process has.
    pub fn current(&self) -> Arc<Catalogue> {
        self.known.read().expect("not poisoned").current.clone()
    }

    /// The current catalogue's settings (coach's email, time zone, business, scheduling): an
    /// edit applies with the first request that brings the new catalogue in.
    pub fn site(&self) -> Arc<crate::site::SiteInfo> {
        self.known.read().expect("not poisoned").site.clone()
    }

    /// The package with this id: as the current catalogue has it, else as the newest catalogue
    /// that had it (a package retired since a purchase began still has its name and validity).
    pub fn package(&self, id: &str) -> Option<CataloguePackage> {
        let known = self.known.read().expect("not poisoned");
        known
            .current
            .package(id)
            .or_else(|| known.seen.iter().rev().find_map(|c| c.package(id)))
            .cloned()
    }

    /// The name of package `id` in `lang` (see [`package_name`]), as [`Catalogues::package`]
    /// finds it; `None` when no catalogue this process has seen has it.
    pub fn package_name(&self, id: &str, lang: crate::domain::Language) -> Option<String> {
        self.package(id).map(|p| package_name(&p, lang))
    }

    /// The catalogue of `version` and the current one. A version this process has not seen
    /// loads the catalogue from the site first (see the module's documentation).
    pub async fn resolve(&self, version: &str) -> Result<Resolved, VersionError> {
        if let Some(r) = self.lookup(version) {
            return Ok(r);
        }
        let arrived = Instant::now();
        loop {
            let mut loading = self.loading.lock().await;
            // Loaded while this request waited for the one before it?
            if let Some(r) = self.lookup(version) {
                return Ok(r);
            }
            if loading
                .misses
                .get(version)
                .is_some_and(|at| at.elapsed() < MISS_TTL)
            {
                return Err(VersionError::Unknown(version.to_string()));
            }
            if let Some(last) = &loading.last {
                // The site was asked after this request came in: its answer stands.
                if last.started >= arrived {
                    return Err(match &last.failure {
                        None => VersionError::Unknown(version.to_string()),
                        Some(cause) => VersionError::Unavailable {
                            origin: self.source.to_string(),
                            cause: anyhow::anyhow!("{cause}"),
                        },
                    });
                }
                // At most one fetch per REFETCH_INTERVAL, whatever versions are named: wait
                // for the next allowed one (and whoever makes it) without holding the lock.
                let wait = REFETCH_INTERVAL.saturating_sub(last.started.elapsed());
                if !wait.is_zero() {
                    drop(loading);
                    tokio::time::sleep(wait).await;
                    continue;
                }
            }
            let started = Instant::now();
            let fetched = fetch(&self.http, &self.source).await;
            loading.last = Some(LastFetch {
                started,
                failure: fetched.as_ref().err().map(|e| format!("{e:#}")),
            });
            let fetched = fetched.map_err(|cause| {
                tracing::warn!(source = %self.source, wanted = version, error = format!("{cause:#}"),
                    "the catalogue could not be loaded; the last good one stays");
                self.loads.send_replace(Load { at: chrono::Utc::now(), outcome: Err(format!("{cause:#}")) });
                VersionError::Unavailable {
                    origin: self.source.to_string(),
                    cause,
                }
            })?;
            self.install(fetched);
            loading.misses.retain(|_, at| at.elapsed() < MISS_TTL);
            return match self.lookup(version) {
                Some(r) => Ok(r),
                None => {
                    tracing::warn!(source = %self.source, wanted = version, published = %self.current().version,
                        "a request named a catalogue version the site does not publish");
                    loading.misses.insert(version.to_string(), Instant::now());
                    Err(VersionError::Unknown(version.to_string()))
                }
            };
        }
    }

    fn lookup(&self, version: &str) -> Option<Resolved> {
        let known = self.known.read().expect("not poisoned");
        let page = if known.current.version == version {
            known.current.clone()
        } else {
            known.seen.iter().find(|c| c.version == version)?.clone()
        };
        Some(Resolved {
            page,
            current: known.current.clone(),
        })
    }

    /// Makes `catalogue` the current one: the site is the source, so that is also true of an
    /// older version the site publishes again (a rolled-back deploy).
    fn install(&self, catalogue: Catalogue) {
        let mut known = self.known.write().expect("not poisoned");
        if known.current.version == catalogue.version {
            return;
        }
        if catalogue.settings != known.current.settings {
            match crate::site::SiteInfo::from_catalogue(&catalogue) {
                Ok(site) => known.site = Arc::new(site),
                Err(e) => tracing::warn!(
                    version = %catalogue.version, error = format!("{e:#}"),
                    "the site's new settings are not usable: the API keeps the previous ones"
                ),
            }
        }
        tracing::info!(from = %known.current.version, to = %catalogue.version, "catalogue updated");
        self.loads.send_replace(Load {
            at: chrono::Utc::now(),
            outcome: Ok(catalogue.version.clone()),
        });
        let catalogue = match known
            .seen
            .iter()
            .position(|c| c.version == catalogue.version)
        {
            Some(i) => known.seen.remove(i).expect("found above"),
            None => Arc::new(catalogue),
        };
        known.seen.push_back(catalogue.clone());
        while known.seen.len() > KEEP {
            known.seen.pop_front();
        }
        known.current = catalogue;
    }
}

/// A package's name in `lang`, as the emails and receipts write it: its translation when the
/// catalogue carries one for `lang` (`names`, published by a site in several languages), else
/// its name (the default language's).
pub fn package_name(p: &CataloguePackage, lang: crate::domain::Language) -> String {
    p.name_in(lang.as_str()).to_string()
}

/// One load from the source.
async fn fetch(http: &reqwest::Client, source: &Source) -> anyhow::Result<Catalogue> {
    match source {
        Source::ContentDir(dir) => {
            let dir = dir.clone();
            tokio::task::spawn_blocking(move || Catalogue::from_content_dir(&dir))
                .await?
                .map_err(anyhow::Error::msg)
        }
        Source::Url(url) => {
            let mut response = http
                .get(url)
                .header(reqwest::header::ACCEPT, "application/json")
                // Ask any cache on the way for the file as deployed now.
                .header(reqwest::header::CACHE_CONTROL, "no-cache")
                .send()
                .await
                .with_context(|| format!("{url} cannot be reached"))?;
            anyhow::ensure!(
                response.status() == reqwest::StatusCode::OK,
                "{url} answered {}",
                response.status()
            );
            let mut bytes = Vec::new();
            while let Some(chunk) = response.chunk().await? {
                bytes.extend_from_slice(&chunk);
                anyhow::ensure!(
                    bytes.len() <= MAX_BYTES,
                    "{url} is larger than {MAX_BYTES} bytes"
                );
            }
            Catalogue::from_json(&bytes).map_err(|e| anyhow::anyhow!("{url}: {e}"))
        }
    }
}
