//! `site`: builds the coach's public website from `content/` (Markdown + YAML) and a Tera theme.
//!
//! Two phases, like Zola: [`content::Library::load`] reads and validates everything and
//! collects every problem; [`site::generate`] renders in parallel; [`output`] writes only what
//! changed.
//!
//! The content's types and YAML reader are the `content-model` crate's, shared with the API.
//! With the `portal` feature, `portal` runs the API in-process for `site serve`, with the local
//! stand-ins, mailbox and demo accounts of the `devkit` crate.

pub mod assets;
pub mod catalogue;
pub mod content;
pub mod forward;
pub mod images;
pub mod islands;
pub mod links;
pub mod livereload;
pub mod markdown;
pub mod output;
#[cfg(feature = "portal")]
pub mod portal;
pub mod render;
pub mod scaffold;
pub mod seo;
pub mod serve;
pub mod site;
pub mod templates;
pub mod youtube;

pub use content_model::diagnostics;
