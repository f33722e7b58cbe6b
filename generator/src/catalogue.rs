//! `/catalogue.json`: what the API needs from `content/` (every package and the settings it
//! uses), published with the site so that the deployed site is the API's one source of prices
//! and validities. Its shape and its `version` (a hash of what it publishes) are
//! `content_model::catalogue`'s, which the API reads with the same code.
//!
//! A fixed name with the version inside rather than a fingerprinted name: the API must find
//! the newest catalogue without knowing its version first, and a deploy replaces the whole
//! site, so an old fingerprinted file would not stay behind to be fetched anyway.

use content_model::catalogue::Catalogue;

use crate::content::Library;

/// The catalogue of this content.
pub fn of(library: &Library) -> Catalogue {
    Catalogue::new(&library.settings, &library.packages.items)
}
