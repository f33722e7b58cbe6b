//! Phase 1: the content, the assets and the theme, loaded and validated into what a render
//! needs ([`Loaded`]), with the build's [`Options`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use tera::Tera;

use crate::assets::AssetMap;
use crate::content::Library;
use crate::content::model::Video;
use crate::diagnostics::{Diagnostic, Diagnostics, SiteErrors};
use crate::locale::{self, Locale, Locales};
use crate::output::OutputFile;
use crate::render::plan::{self, Planner};
use crate::render::{self, FeedItem, Renderer};
use crate::{images, islands, seo, templates, youtube};

pub const THEME: &str = "default";

#[derive(Debug, Clone)]
pub struct Options {
    /// The project folder that holds `content/` and `themes/`.
    pub root: PathBuf,
    pub drafts: bool,
    /// Overrides `base_url` of settings.yaml (e.g. a deploy preview's address).
    pub base_url: Option<String>,
    pub now: DateTime<Utc>,
    /// Fetch the YouTube channel when configured; tests turn it off.
    pub fetch_videos: bool,
    /// The API's origin in production (`API_ORIGIN`): `/api/*` is proxied there through
    /// Netlify's `_redirects`.
    pub api_origin: Option<String>,
}

impl Options {
    pub fn new(root: impl Into<PathBuf>) -> Options {
        Options {
            root: root.into(),
            drafts: false,
            base_url: None,
            now: Utc::now(),
            fetch_videos: true,
            api_origin: None,
        }
    }
}

/// The theme as loaded: fingerprinted assets, compiled templates and the islands' manifest.
pub(super) struct Theme {
    pub(super) assets: Arc<AssetMap>,
    pub(super) tera: Tera,
    pub(super) islands: Option<Arc<islands::Manifest>>,
    pub(super) islands_report: Option<String>,
}

/// One language of the site as its pages are rendered: its texts, the theme speaking it, the
/// context its templates share and its header and footer.
pub(super) struct Language {
    pub(super) locale: Arc<Locale>,
    /// The theme's templates with `t`, `text` and `url` in this language.
    pub(super) tera: Tera,
    /// The context every template of this language shares.
    pub(super) base: Map<String, Value>,
    pub(super) chrome: render::Chrome,
    /// Where the links of this language's Markdown go (`None` for the default language).
    pub(super) body_links: Option<render::links::BodyLinks>,
}

/// Everything a render needs, loaded and validated (phase 1).
pub(super) struct Loaded {
    pub(super) library: Library,
    pub(super) theme: Theme,
    pub(super) fetched: Vec<Video>,
    pub(super) warnings: Vec<String>,
    pub(super) base_url: String,
    /// Every language of the site, the default first.
    pub(super) languages: Vec<Language>,
    pub(super) locales: Locales,
    /// What `/catalogue.json` publishes, computed once per load: the pricing pages name its
    /// version.
    pub(super) catalogue: content_model::catalogue::Catalogue,
}

impl Loaded {
    /// The renderer of language `lang` (an index of the site's languages).
    pub(super) fn renderer(&self, lang: usize) -> Renderer<'_> {
        let language = &self.languages[lang];
        Renderer {
            tera: &language.tera,
            base: &language.base,
            base_url: &self.base_url,
            islands: self.theme.islands.as_deref(),
            chrome: &language.chrome,
            locale: &language.locale,
            locales: &self.locales,
        }
    }

    /// Runs `f` with the planner of language `lang`.
    pub(super) fn with_planner<T>(
        &self,
        opts: &Options,
        lang: usize,
        f: impl FnOnce(&Planner) -> T,
    ) -> T {
        let plan_opts = plan::Options {
            drafts: opts.drafts,
            now: opts.now,
            fetched_videos: &self.fetched,
            catalogue_version: &self.catalogue.version,
        };
        f(&Planner {
            site: &self.library,
            lib: self.library.in_language(lang),
            locale: &self.locales[lang],
            locales: &self.locales,
            assets: &self.theme.assets,
            opts: &plan_opts,
            links: self.languages[lang].body_links.as_ref(),
        })
    }

    /// Assets, feeds, robots and `_redirects`: every file that is not a page, but the sitemap.
    /// `feeds` are each language's newest posts.
    pub(super) fn files(
        &self,
        opts: &Options,
        feeds: &[Vec<FeedItem>],
    ) -> Result<Vec<OutputFile>, Diagnostic> {
        let base_url = &self.base_url;
        let mut files: Vec<OutputFile> = self
            .theme
            .assets
            .assets
            .iter()
            .map(|a| OutputFile {
                rel: a.url.trim_start_matches('/').to_string(),
                bytes: a.bytes.clone(),
            })
            .collect();
        if let Some(origin) = &opts.api_origin {
            // Netlify reads _redirects before netlify.toml's rules: the proxy comes first.
            files.push(OutputFile {
                rel: "_redirects".into(),
                bytes: format!(
                    "/api/*  {}/api/:splat  200!\n",
                    origin.trim_end_matches('/')
                )
                .into_bytes(),
            });
        }
        files.push(OutputFile {
            rel: content_model::catalogue::FILE.into(),
            bytes: self.catalogue.to_json(),
        });
        let tera = &self.theme.tera;
        let prefixes: Vec<&str> = self.locales.iter().map(|l| l.prefix.as_str()).collect();
        files.push(OutputFile {
            rel: "robots.txt".into(),
            bytes: seo::robots(tera, base_url, &prefixes)?.into_bytes(),
        });
        let multilingual = self.locales.len() > 1;
        for (locale, feed) in self.locales.iter().zip(feeds) {
            let feed_path = locale.path(seo::FEED);
            files.push(OutputFile {
                rel: feed_path.trim_start_matches('/').to_string(),
                bytes: seo::atom(
                    &self.languages[locale.index].tera,
                    &seo::Feed {
                        base_url,
                        site_name: &self
                            .library
                            .in_language(locale.index)
                            .settings
                            .site_info
                            .site_name,
                        path: &feed_path,
                        listing: &locale.path("/resources"),
                        lang: multilingual.then_some(locale.code.as_str()),
                    },
                    feed,
                    opts.now,
                )?
                .into_bytes(),
            });
        }
        Ok(files)
    }
}

/// Each language's theme, context and chrome.
fn languages(library: &Library, theme: &Theme, locales: &Locales, opts: &Options) -> Vec<Language> {
    locales
        .iter()
        .map(|locale| {
            let lib = library.in_language(locale.index);
            let missing = Arc::new(lib.untranslated_routes(locale.index == 0));
            let mut tera = theme.tera.clone();
            templates::speak(&mut tera, locale.clone(), missing.clone());
            let base = render::base_context(
                library.in_language(locale.index),
                locale,
                locales,
                &missing,
                opts.drafts,
                opts.now,
            );
            Language {
                locale: locale.clone(),
                tera,
                base,
                chrome: render::Chrome::default(),
                body_links: render::links::BodyLinks::new(library, locale, opts.drafts),
            }
        })
        .collect()
}

/// The theme, its assets (photos with their WebP sizes) and the islands, built if need be.
fn load_theme(root: &Path, problems: &mut Diagnostics) -> Option<Theme> {
    let theme = root.join("themes").join(THEME);
    let mut islands_report = None;
    let islands = islands::ensure_built(root, &mut islands_report)
        .map_err(|d| problems.push(d))
        .ok()
        .flatten()
        .map(Arc::new);
    // Photos get their responsive WebP widths (cached by content hash) as the assets load.
    let assets =
        AssetMap::load(&theme.join("assets"), &root.join("content/static")).and_then(|mut a| {
            let images = a.process_images(&root.join(images::CACHE_DIR))?;
            Ok((a, images))
        });
    let image_set = assets.as_ref().ok().map(|(_, i)| i.clone());
    let assets = assets
        .map(|(mut a, _)| {
            // esbuild names its files by content already: published as they are.
            for (path, file) in islands.iter().flat_map(|m| m.files()) {
                if let Ok(bytes) = std::fs::read(&file) {
                    a.add_verbatim(&path, bytes);
                }
            }
            a
        })
        .map_err(|d| problems.push(d))
        .ok()
        .map(Arc::new)?;
    let tera = templates::load(&theme.join("templates"), assets.clone(), islands.clone())
        .map(|mut t| {
            images::register(&mut t, image_set.unwrap_or_default());
            t
        })
        .map_err(|d| problems.push(d))
        .ok()?;
    Some(Theme {
        assets,
        tera,
        islands,
        islands_report,
    })
}

/// Phase 1: content, assets and theme, loaded side by side. Every problem is reported together.
pub(super) fn load(opts: &Options) -> Result<Loaded, SiteErrors> {
    let root = opts.root.as_path();
    let mut problems = Diagnostics::default();
    let (library, theme) = rayon::join(
        || Library::load(root),
        || {
            let mut p = Diagnostics::default();
            (load_theme(root, &mut p), p)
        },
    );
    let (theme, theme_problems) = theme;
    problems.extend(theme_problems.0);
    let library = library.map_err(|d| problems.extend(d.0)).ok();
    let (Some(mut library), Some(theme)) = (library, theme) else {
        problems.into_result()?;
        unreachable!("a missing part always comes with a problem");
    };
    if let Some(url) = &opts.base_url {
        library.settings.base_url = url.clone();
        for t in &mut library.translations {
            t.settings.base_url = url.clone();
        }
    }
    let mut warnings = library.warnings.clone();
    let theme_dir = root.join("themes").join(THEME);
    let locales = locale::load(&theme_dir, &library.languages, &mut warnings)
        .map_err(|d| problems.push(d))
        .ok();
    let Some(locales) = locales else {
        problems.into_result()?;
        unreachable!("a missing part always comes with a problem");
    };
    let fetched = if opts.fetch_videos {
        fetch_videos(&library, root, opts.now, &mut warnings)
    } else {
        Vec::new()
    };
    let base_url = library.settings.base_url.trim_end_matches('/').to_string();
    let catalogue = crate::catalogue::of(&library);
    let languages = languages(&library, &theme, &locales, opts);
    Ok(Loaded {
        catalogue,
        library,
        theme,
        fetched,
        warnings,
        base_url,
        languages,
        locales,
    })
}

/// The channel's latest videos, when there is a channel and an API key; else a warning.
fn fetch_videos(
    library: &Library,
    root: &Path,
    now: DateTime<Utc>,
    warnings: &mut Vec<String>,
) -> Vec<Video> {
    let channel = library.settings.youtube_channel_id.as_deref();
    let Some(client) = youtube::Client::from_env(channel, root) else {
        if channel.is_some() {
            warnings
                .push("YOUTUBE_API_KEY is not set: /videos shows only content/videos.yaml".into());
        }
        return Vec::new();
    };
    match client.latest(now) {
        Ok(v) => v,
        Err(e) => {
            warnings.push(format!("could not fetch the channel's latest videos ({e}): /videos shows only content/videos.yaml"));
            Vec::new()
        }
    }
}
