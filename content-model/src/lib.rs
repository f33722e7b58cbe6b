//! The site's content as types: what `content/` may say (`model`), how a YAML text becomes one
//! of them with errors that name the file, line, field and fix (`yaml`, `diagnostics`).
//!
//! Its own crate so that the generator (which renders it) and the API (which charges the prices
//! of `packages.yaml` and reads the coach's settings) share one definition, and so that the
//! `site` command can in turn run the API in-process for local use without a dependency cycle.
//! `catalogue` is the part of it the site publishes for the API (`/catalogue.json`); `i18n`
//! reads texts written in several languages; `payments` the ways a client may pay online.

pub mod catalogue;
pub mod diagnostics;
pub mod editor;
pub mod editor_ar;
pub mod i18n;
pub mod model;
pub mod payments;
pub mod yaml;
