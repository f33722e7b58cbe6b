//! `site`: builds the coach's public website from `content/` (Markdown + YAML) and a Tera theme.
//!
//! Two phases, like Zola: [`content::Library::load`] reads and validates everything and
//! collects every problem; [`site::LiveSite`] renders in parallel into a sink: the output
//! folder (`site build`, writing only what changed), nothing (`site check`, which keeps only
//! each page's links and ids) or memory ([`site::generate`], for tests).
//!
//! A site may be in several languages (settings `languages`): every page is rendered in each
//! language it is translated into, the default's at `/…`, the others' at `/<code>/…`, with the
//! theme's own texts from [`locale`].
//!
//! The content's types and YAML reader are the `content-model` crate's, shared with the API.
//! This crate is the static-site generator alone: no server, no API, no database. Running the
//! whole product locally is the `devserver` crate's, which keeps a `LiveSite` in memory and
//! re-renders it on each edit.

pub mod assets;
pub mod catalogue;
pub mod content;
pub mod images;
pub mod islands;
pub mod links;
pub mod locale;
pub mod markdown;
pub mod output;
pub mod render;
pub mod scaffold;
pub mod seo;
pub mod site;
pub mod templates;
pub mod youtube;

pub use content_model::diagnostics;
