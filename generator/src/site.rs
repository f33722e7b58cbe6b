//! The two phases of a build: load and validate everything (content, assets, theme), then
//! render in parallel. One pipeline does it ([`LiveSite`]), into a sink: `site build` streams
//! each page into a staging folder as it is rendered; `site check` is the same render into a
//! sink that writes nothing; both check the links and ids kept of each page. [`generate`] keeps
//! the rendered site in memory, for tests.

mod live;
mod load;

pub use live::{BuildReport, LiveSite};
pub use load::{Options, THEME};

use live::{Sink, errors};

use std::path::Path;

use crate::diagnostics::{Diagnostic, SiteErrors};
use crate::output::{self, OutputFile};
use crate::render::RenderedPage;

/// A site rendered in memory ([`generate`]).
pub struct Site {
    pub pages: Vec<RenderedPage>,
    /// Every other file: assets, sitemap, robots, feed. `rel` is relative to the output folder.
    pub files: Vec<OutputFile>,
    pub warnings: Vec<String>,
    /// The islands' size report, when this build rebuilt them.
    pub islands_report: Option<String>,
}

/// Phase 1 and the render of phase 2 through the one pipeline, kept in memory, for tests.
/// Links are not checked ([`check`] does).
pub fn generate(opts: &Options) -> Result<Site, SiteErrors> {
    let (live, _) = LiveSite::open(opts.clone(), Sink::Memory, false)
        .map_err(|e| site_errors(e, &opts.root))?;
    let (pages, files, loaded) = live.into_kept();
    Ok(Site {
        pages,
        files,
        warnings: loaded.warnings,
        islands_report: loaded.theme.islands_report,
    })
}

/// The pipeline's error as the list of problems `site check` prints; an error that is not a
/// content problem (e.g. an unreadable root) becomes one naming the root.
fn site_errors(e: anyhow::Error, root: &Path) -> SiteErrors {
    match e.downcast::<SiteErrors>() {
        Ok(problems) => problems,
        Err(e) => errors(vec![Diagnostic::new(root, format!("{e:#}"))]),
    }
}

/// Renders the whole site into `sink`, keeping each page's links and ids, and fails with every
/// internal link or anchor that leads nowhere: what `site build` and `site check` share.
fn render_and_check(opts: &Options, sink: Sink) -> anyhow::Result<BuildReport> {
    let (live, report) = LiveSite::open(opts.clone(), sink, true)?;
    let problems = live.broken_links();
    if problems.is_empty() {
        Ok(report)
    } else {
        Err(errors(problems).into())
    }
}

/// `site build`: every page is written as soon as it is rendered, so the rendered site is
/// never held in memory; only each page's links and ids are kept, and checked at the end. The
/// pages go into a staging folder beside `out`, which takes the place of `out` only when every
/// link resolves: a failed build publishes nothing and leaves the last good output as it was.
pub fn build(opts: &Options, out: &Path) -> anyhow::Result<BuildReport> {
    output::refuse_project_folder(out)?;
    let staging = output::beside(out, "staging");
    output::remove_leftover(&staging)?;
    match render_and_check(opts, Sink::Folder(staging.clone())) {
        Ok(mut report) => {
            report.stats.removed = output::swap_in(&staging, out)?;
            Ok(report)
        }
        Err(e) => {
            output::remove_leftover(&staging)?;
            Err(e)
        }
    }
}

/// `site check`: `site build` with nothing written. The same pipeline renders every page into
/// [`Sink::Nowhere`], which keeps only each page's links and ids, and checks them as the build
/// does.
pub fn check(opts: &Options) -> Result<BuildReport, SiteErrors> {
    render_and_check(opts, Sink::Nowhere).map_err(|e| site_errors(e, &opts.root))
}
