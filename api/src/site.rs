//! What the API reads from the site's `content/`: the coach's email and the site's name, time
//! zone and currency, with the generator's own types and parser (one definition of the files).

use std::path::Path;

use anyhow::Context;
use content_model::model::Settings;
use content_model::yaml;

#[derive(Debug, Clone)]
pub struct SiteInfo {
    pub name: String,
    /// Contact messages are sent here.
    pub coach_email: String,
    pub time_zone: chrono_tz::Tz,
    pub currency: String,
    /// The scheduling page clients book on (settings `scheduling.booking_url`).
    pub booking_url: String,
    /// `Calendly`, for "View Calendly Bookings".
    pub scheduler_name: String,
    /// How many months credits the admin grants last unless the admin picks (settings
    /// `credits.default_validity_months`).
    pub default_validity_months: u32,
    /// What receipts print about the business.
    pub business_name: String,
    pub business_address: String,
    pub tax_id: Option<String>,
}

impl SiteInfo {
    pub fn load(content_dir: &Path) -> anyhow::Result<SiteInfo> {
        let file = content_dir.join("settings.yaml");
        let text = std::fs::read_to_string(&file).with_context(|| {
            format!(
                "cannot read {} (set CONTENT_DIR to the site's content folder)",
                file.display()
            )
        })?;
        let settings: Settings =
            yaml::parse(&text, &file, 0).map_err(|d| anyhow::anyhow!("{d}"))?;
        let (business_name, business_address, tax_id) = match settings.business {
            Some(b) => {
                if let Some(problem) = b.tax_id_problem() {
                    anyhow::bail!("{}: business.tax_id: {problem}", file.display());
                }
                (b.name, b.address, Some(b.tax_id))
            }
            None => (
                settings.site_info.site_name.clone(),
                settings.contact_info.address.clone(),
                None,
            ),
        };
        Ok(SiteInfo {
            business_name,
            business_address,
            tax_id,
            name: settings.site_info.site_name,
            coach_email: settings.contact_info.email,
            time_zone: settings
                .time_zone
                .parse()
                .unwrap_or(chrono_tz::Africa::Cairo),
            currency: settings.currency,
            booking_url: settings.scheduling.booking_url,
            scheduler_name: settings.scheduling.host_name,
            default_validity_months: settings.credits.default_validity_months,
        })
    }
}
