//! The two phases of a build: load and validate everything (content, assets, theme), then
//! render in parallel and write. `site check` stops before writing and checks links instead.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::assets::AssetMap;
use crate::content::Library;
use crate::diagnostics::{Diagnostics, SiteErrors};
use crate::output::{OutputFile, WriteStats, write_site};
use crate::render::{self, RenderedPage};
use crate::{images, islands, links, seo, templates, youtube};

pub const THEME: &str = "default";

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

/// A site rendered in memory.
pub struct Site {
    pub pages: Vec<RenderedPage>,
    /// Every other file: assets, sitemap, robots, feed. `rel` is relative to the output folder.
    pub files: Vec<OutputFile>,
    pub warnings: Vec<String>,
    /// The islands' size report, when this build rebuilt them.
    pub islands_report: Option<String>,
}

impl Site {
    /// Every site path the output answers at, for link checking.
    fn file_paths(&self) -> HashSet<String> {
        self.files.iter().map(|f| format!("/{}", f.rel)).collect()
    }
}

/// Phase 1 and the render of phase 2, all in memory. Every problem is reported together.
pub fn generate(opts: &Options) -> Result<Site, SiteErrors> {
    let root = opts.root.as_path();
    let theme = root.join("themes").join(THEME);
    let mut problems = Diagnostics::default();
    let mut islands_report = None;
    let islands = islands::ensure_built(root, &mut islands_report)
        .map_err(|d| problems.push(d))
        .ok()
        .flatten()
        .map(Arc::new);
    let (library, assets) = rayon::join(
        || Library::load(root),
        || {
            AssetMap::load(&theme.join("assets"), &root.join("content/static")).and_then(|mut a| {
                let images = images::process(&mut a, &root.join(images::CACHE_DIR))?;
                Ok((a, Arc::new(images)))
            })
        },
    );
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
        .map(Arc::new);
    let mut library = match library {
        Ok(l) => Some(l),
        Err(d) => {
            problems.extend(d.0);
            None
        }
    };
    let tera = assets.as_ref().and_then(|a| {
        templates::load(&theme.join("templates"), a.clone(), islands.clone())
            .map(|mut t| {
                images::register(&mut t, image_set.clone().unwrap_or_default());
                t
            })
            .map_err(|d| problems.push(d))
            .ok()
    });
    let (Some(mut library_), Some(assets), Some(tera)) = (library.take(), assets, tera) else {
        problems.into_result()?;
        unreachable!("a missing part always comes with a problem");
    };
    if let Some(url) = &opts.base_url {
        library_.settings.base_url = url.clone();
    }
    let library = library_;

    let mut warnings = Vec::new();
    let fetched = if opts.fetch_videos {
        fetch_videos(&library, root, opts.now, &mut warnings)
    } else {
        Vec::new()
    };

    let plan = render::plan(
        &library,
        &assets,
        &render::Options {
            drafts: opts.drafts,
            now: opts.now,
            fetched_videos: &fetched,
        },
    );
    let base = render::base_context(&library, opts.drafts, opts.now);
    let base_url = library.settings.base_url.trim_end_matches('/').to_string();
    let sitemap = seo::sitemap(&base_url, &plan.pages);
    let mut pages = render::render(&tera, &base, plan.pages, &base_url).map_err(|d| {
        let mut all = Diagnostics::default();
        all.extend(d);
        all.into_result().unwrap_err()
    })?;
    // Only pages that mount an island load the runtime and preload their chunks.
    if let Some(manifest) = &islands {
        for page in &mut pages {
            let used = islands::used_in(&page.html);
            if !used.is_empty() {
                page.html = page.html.replacen(
                    "</head>",
                    &format!("{}</head>", manifest.head_tags(&used)),
                    1,
                );
            }
        }
    }

    let mut files: Vec<OutputFile> = assets
        .assets
        .iter()
        .map(|a| OutputFile {
            rel: a.url.trim_start_matches('/').to_string(),
            bytes: a.bytes.clone(),
        })
        .collect();
    files.push(OutputFile {
        rel: "sitemap.xml".into(),
        bytes: sitemap.into_bytes(),
    });
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
        rel: "robots.txt".into(),
        bytes: seo::robots(&base_url).into_bytes(),
    });
    files.push(OutputFile {
        rel: "blog/atom.xml".into(),
        bytes: seo::atom(
            &base_url,
            &library.settings.site_info.site_name,
            &plan.feed,
            opts.now,
        )
        .into_bytes(),
    });
    Ok(Site {
        pages,
        files,
        warnings,
        islands_report,
    })
}

fn fetch_videos(
    library: &Library,
    root: &Path,
    now: DateTime<Utc>,
    warnings: &mut Vec<String>,
) -> Vec<crate::content::model::Video> {
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

/// What `site build` did.
pub struct BuildReport {
    pub pages: usize,
    /// Assets, sitemap, robots and feed.
    pub files: usize,
    pub warnings: Vec<String>,
    pub islands_report: Option<String>,
    pub stats: WriteStats,
}

/// `site build`: generate, then write into `out`. Pages move into the output list rather than
/// being copied: at 10,000 pages the rendered HTML is the largest thing in memory.
pub fn build(opts: &Options, out: &Path) -> anyhow::Result<BuildReport> {
    let site = generate(opts)?;
    let (pages, other) = (site.pages.len(), site.files.len());
    let mut files = site.files;
    files.extend(site.pages.into_iter().map(|p| OutputFile {
        rel: p.file,
        bytes: p.html.into_bytes(),
    }));
    let stats = write_site(out, &files)?;
    Ok(BuildReport {
        pages,
        files: other,
        warnings: site.warnings,
        islands_report: site.islands_report,
        stats,
    })
}

/// `site check`: everything `build` validates, plus internal links; writes nothing.
pub fn check(opts: &Options) -> Result<Site, SiteErrors> {
    let site = generate(opts)?;
    let problems = links::check(&site.pages, &site.file_paths());
    let mut all = Diagnostics::default();
    all.extend(problems);
    all.into_result()?;
    Ok(site)
}
