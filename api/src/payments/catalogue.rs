//! Pricing a purchase from the catalogue the site publishes (`crate::catalogue`), so the price
//! on the pricing page is the price charged and the validity on its card the validity granted.

use content_model::catalogue::{CataloguePackage, is_version};
use content_model::model::PackageType;

use crate::catalogue::VersionError;
use crate::domain::Money;
use crate::error::AppError;
use crate::state::AppState;

/// What a purchase request says about the package.
pub struct Asked<'a> {
    /// `individual` or `group`.
    pub package_type: &'a str,
    pub sessions: u32,
    /// The price the page showed (compared, never charged).
    pub shown: Option<Money>,
    /// The catalogue version the page was built with; without it, the newest one is used.
    pub version: Option<&'a str>,
}

/// The active package a page offered, as the current catalogue sells it, or why not: gone, a
/// different price (the stale-price answer), other terms than the page showed (a page built
/// with an older catalogue), or a version the site does not publish.
pub async fn price(state: &AppState, asked: &Asked<'_>) -> Result<CataloguePackage, AppError> {
    let kind = match asked.package_type {
        "individual" => PackageType::Individual,
        "group" => PackageType::Group,
        _ => {
            return Err(AppError::field(
                "packageType",
                "packageType must be individual or group",
            ));
        }
    };
    let (page, current) = match asked.version {
        None => (None, state.catalogue.current()),
        Some(v) if !is_version(v) => {
            return Err(AppError::field(
                "catalogueVersion",
                "catalogueVersion is not a catalogue version",
            ));
        }
        Some(v) => match state.catalogue.resolve(v).await {
            Ok(r) => (Some(r.page), r.current),
            Err(VersionError::Unknown(_)) => {
                return Err(AppError::Conflict(UNKNOWN_VERSION.into()));
            }
            Err(VersionError::Unavailable { .. }) => {
                return Err(AppError::BadGateway(UNAVAILABLE.into()));
            }
        },
    };
    let package = current
        .offer(kind, asked.sessions)
        .cloned()
        .ok_or_else(|| {
            AppError::Conflict(
                "This package is no longer available. Please refresh the page and choose again."
                    .into(),
            )
        })?;
    if asked.shown != Some(package.price) {
        return Err(AppError::Conflict(format!(
            "The price of this package has changed to {} {}. Please refresh the page to see the current price.",
            package.price.display(),
            state.site().currency
        )));
    }
    // A page built with an older catalogue: its buyer gets what the card said, or is told.
    if let Some(page) = page.filter(|p| p.version != current.version) {
        let offered = page.offer(kind, asked.sessions);
        if !offered.is_some_and(|o| o.same_offer(&package)) {
            return Err(AppError::Conflict(CHANGED.into()));
        }
    }
    Ok(package)
}

/// A page built with a catalogue the site no longer publishes (or a made-up version).
pub const UNKNOWN_VERSION: &str = "This page was built with prices the site no longer publishes. Please refresh the page to see the current prices.";
/// The site's catalogue could not be loaded to check a new version.
pub const UNAVAILABLE: &str =
    "We could not check the current prices. Please try again in a moment.";
/// Same price, other terms (e.g. the credits' validity) than the page was built with.
pub const CHANGED: &str = "This package has changed since this page was built. Please refresh the page to see the current offer.";
