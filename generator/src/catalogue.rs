//! `/catalogue.json`: what the API needs from `content/` (every package and the settings it
//! uses), published with the site so that the deployed site is the API's one source of prices
//! and validities. Its shape and its `version` (a hash of what it publishes) are
//! `content_model::catalogue`'s, which the API reads with the same code.
//!
//! A fixed name with the version inside rather than a fingerprinted name: the API must find
//! the newest catalogue without knowing its version first, and a deploy replaces the whole
//! site, so an old fingerprinted file would not stay behind to be fetched anyway.

use content_model::catalogue::Catalogue;
use content_model::model::Package;

use crate::content::Library;

/// The catalogue of this content: the default language's, with the packages' names in the
/// other languages.
pub fn of(library: &Library) -> Catalogue {
    let translations: Vec<(&str, &[Package])> = library
        .translations
        .iter()
        .map(|t| (t.lang.as_str(), t.packages.items.as_slice()))
        .collect();
    Catalogue::with_translations(&library.settings, &library.packages.items, &translations)
}
