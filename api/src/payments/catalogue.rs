//! `content/packages.yaml`, read with the generator's own type and parser, so the price on the
//! pricing page is the price charged. Read on every purchase: the file is tiny and a deploy
//! that changes it takes effect at once.

use std::path::Path;

use content_model::model::{Package, PackageType};
use content_model::yaml;

use crate::error::AppError;

pub fn load(content_dir: &Path) -> anyhow::Result<Vec<Package>> {
    let file = content_dir.join("packages.yaml");
    let text = std::fs::read_to_string(&file)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
    yaml::parse::<Vec<Package>>(&text, &file, 0).map_err(|d| anyhow::anyhow!("{d}"))
}

/// The active package a browser asked for by type and sessions (a purchase names it so).
pub fn find(content_dir: &Path, package_type: &str, sessions: u32) -> Result<Package, AppError> {
    let kind = match package_type {
        "individual" => PackageType::Individual,
        "group" => PackageType::Group,
        _ => {
            return Err(AppError::field(
                "packageType",
                "packageType must be individual or group",
            ));
        }
    };
    load(content_dir)?
        .into_iter()
        .find(|p| p.is_active && p.package_type == kind && p.sessions == sessions)
        .ok_or_else(|| {
            AppError::Conflict(
                "This package is no longer available. Please refresh the page and choose again."
                    .into(),
            )
        })
}
