//! The settings the API uses: the coach's email and the site's name, time zone and currency,
//! as the site publishes them in its catalogue (`crate::catalogue`), read once at start.

use std::path::Path;

use content_model::catalogue::Catalogue;

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
    /// VAT on sponsors' invoices, in percent (settings `business.vat_percent`); `None`: none.
    pub vat_percent: Option<u32>,
    /// Where transfers go (settings `payments.transfer`); `None`: no transfer orders.
    pub transfer: Option<content_model::model::TransferSettings>,
    /// The methods Paymob takes (settings `payments.paymob`); the others go to PayTabs.
    pub paymob_methods: Vec<content_model::payments::PaymentMethod>,
}

impl SiteInfo {
    /// The settings of a catalogue.
    pub fn from_catalogue(catalogue: &Catalogue) -> anyhow::Result<SiteInfo> {
        let settings = &catalogue.settings;
        let (business_name, business_address, tax_id) = match &settings.business {
            Some(b) => {
                if let Some(problem) = b.tax_id_problem() {
                    anyhow::bail!("business.tax_id: {problem}");
                }
                (b.name.clone(), b.address.clone(), Some(b.tax_id.clone()))
            }
            None => (
                settings.site_name.clone(),
                settings.contact_address.clone(),
                None,
            ),
        };
        Ok(SiteInfo {
            business_name,
            business_address,
            tax_id,
            name: settings.site_name.clone(),
            coach_email: settings.coach_email.clone(),
            // Checked when the catalogue was read: a catalogue naming an unknown zone does not load.
            time_zone: settings.time_zone,
            currency: settings.currency.clone(),
            booking_url: settings.booking_url.clone(),
            scheduler_name: settings.scheduler_name.clone(),
            default_validity_months: settings.default_validity_months,
            transfer: settings.transfer.clone(),
            paymob_methods: settings.paymob.clone(),
            vat_percent: settings.business.as_ref().and_then(|b| b.vat_percent),
        })
    }

    /// The settings of a `content/` folder, read as the build publishes them (development).
    pub fn load(content_dir: &Path) -> anyhow::Result<SiteInfo> {
        let catalogue = Catalogue::from_content_dir(content_dir)
            .map_err(|e| anyhow::anyhow!("{e} (set CONTENT_DIR to the site's content folder)"))?;
        SiteInfo::from_catalogue(&catalogue)
    }
}
