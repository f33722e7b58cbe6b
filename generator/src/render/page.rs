//! What a page to render is, where it is written, and what the feed lists: the types the
//! planner builds and the renderer takes, below both.

use std::path::PathBuf;

use chrono::NaiveDate;
use serde_json::{Map, Value};

use super::views;

/// One page to render.
#[derive(Debug, Clone)]
pub struct Page {
    /// The page's address, e.g. `/about`, `/ar/about`; `/404.html` for files served as they
    /// are.
    pub path: String,
    /// The page's language: its index in the site's languages (0, the default).
    pub lang: usize,
    /// The same page in each language of the site, by index, this one included: its address,
    /// or `None` where it is not translated (or not published).
    pub alternates: Vec<Option<String>>,
    pub template: &'static str,
    pub title: String,
    pub description: String,
    pub og_type: &'static str,
    pub og_image: Option<String>,
    /// App shells and error pages stay out of search engines and the sitemap.
    pub noindex: bool,
    pub lastmod: Option<NaiveDate>,
    /// The content file the page comes from, for error messages; `None` for template-only pages.
    pub source: Option<PathBuf>,
    pub data: Map<String, Value>,
}

impl Page {
    pub(super) fn new(path: &str, template: &'static str, title: &str, description: &str) -> Page {
        Page {
            path: path.to_string(),
            lang: 0,
            alternates: vec![Some(path.to_string())],
            template,
            title: title.to_string(),
            description: description.to_string(),
            og_type: "website",
            og_image: None,
            noindex: false,
            lastmod: None,
            source: None,
            data: Map::new(),
        }
    }

    /// Gives the template `key`: a view of [`views`], or anything serialisable.
    pub(super) fn with(self, key: &str, view: impl serde::Serialize) -> Page {
        self.with_value(key, views::to_value(view))
    }

    /// Gives the template `key` as a value already built: moved in, not copied (for large
    /// strings, which serialising would copy).
    pub(super) fn with_value(mut self, key: &str, value: Value) -> Page {
        self.data.insert(key.to_string(), value);
        self
    }

    pub(super) fn sourced(mut self, source: &std::path::Path) -> Page {
        self.source = Some(source.to_path_buf());
        self
    }

    pub(super) fn hidden(mut self) -> Page {
        self.noindex = true;
        self
    }

    /// The page is in language `lang`, and at these addresses in every language.
    pub(super) fn in_language(mut self, lang: usize, alternates: Vec<Option<String>>) -> Page {
        self.lang = lang;
        self.alternates = alternates;
        self
    }

    /// The file under the output folder: `/` → `index.html`, `/about` → `about/index.html`.
    pub fn output_file(&self) -> String {
        output_file(&self.path)
    }

    pub fn in_sitemap(&self) -> bool {
        !self.noindex
    }
}

pub fn output_file(path: &str) -> String {
    let trimmed = path.trim_matches('/');
    if trimmed.is_empty() {
        "index.html".into()
    } else if trimmed.ends_with(".html") {
        trimmed.into()
    } else {
        format!("{trimmed}/index.html")
    }
}

/// Feed readers want the latest posts, not the archive.
pub const FEED_LENGTH: usize = 20;

#[derive(Debug, Clone)]
pub struct FeedItem {
    pub title: String,
    pub path: String,
    pub date: NaiveDate,
    pub summary: String,
    pub content_html: String,
}
