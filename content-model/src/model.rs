//! The public entities of the product (spec §3), as editors write them in `content/`.
//!
//! Every struct denies unknown fields so a typo is an error, not a silently ignored value.
//! Field names follow the spec so that an editor reading the spec recognises them.
//! Money is [`Money`]: integer minor units (piastres), written by editors as `4500` or `4500.50`.

use std::fmt;

use chrono::NaiveDate;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::i18n::Texts;

// ---------------------------------------------------------------------------------------------
// settings.yaml

/// `content/settings.yaml`: the site-wide settings (spec §3 "Site settings").
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Absolute origin used for canonical links, the sitemap and the feed, e.g.
    /// `https://www.example.com` (no trailing slash needed).
    pub base_url: String,
    /// ISO 4217 code; every price on the site is in this currency.
    #[serde(default = "default_currency")]
    pub currency: String,
    /// The coach's IANA time zone (e.g. `Africa/Cairo`): when an event is past at build time,
    /// and every time the portal and its emails show. An unknown name is an error here, where
    /// the editor wrote it, never a silent fallback.
    #[serde(default = "default_time_zone", with = "time_zone_name")]
    pub time_zone: chrono_tz::Tz,
    /// The site's languages (`[en, ar]`): BCP 47 primary codes, the default first. Its pages
    /// are at `/…`, every other language's at `/<code>/…`. Absent: English only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
    /// The languages whose missing translations fail `site check`; the others only warn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_translations: Vec<String>,
    pub site_info: SiteInfo,
    #[serde(default)]
    pub hero_section: HeroSection,
    #[serde(default)]
    pub social_media: SocialMedia,
    pub contact_info: ContactInfo,
    pub scheduling: Scheduling,
    /// Site path of the programme guide PDF, e.g. `/static/brochure.pdf`.
    pub brochure_url: String,
    /// Optional YouTube channel whose latest uploads join /videos (needs `YOUTUBE_API_KEY`).
    #[serde(default)]
    pub youtube_channel_id: Option<String>,
    /// How credits the admin grants (offline payments, Add User) last unless the admin picks.
    #[serde(default)]
    pub credits: CreditSettings,
    /// The coach's business as receipts print it. Without it, receipts show the site name and
    /// the contact address and no tax id.
    #[serde(default)]
    pub business: Option<Business>,
    /// The ways clients pay online (`payments:`): the PayTabs profile's methods, and from which
    /// price instalments are offered. Absent: cards only.
    #[serde(default)]
    pub payments: PaymentSettings,
}

/// The business behind the receipts: registered name, address and Egyptian tax registration
/// number (9 digits, often written `123-456-789`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Business {
    pub name: String,
    pub address: String,
    pub tax_id: String,
    /// VAT on sponsors' invoices, in percent (Egypt's standard rate is 14); absent: no VAT line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vat_percent: Option<u32>,
}

impl Business {
    /// What is wrong with the tax id, if anything: 9 digits, with optional dashes or spaces.
    pub fn tax_id_problem(&self) -> Option<String> {
        let digits = self.tax_id.chars().filter(char::is_ascii_digit).count();
        let shape = self
            .tax_id
            .chars()
            .all(|c| c.is_ascii_digit() || c == '-' || c == ' ');
        (digits != 9 || !shape).then(|| {
            format!(
                "`{}` is not a tax registration number (9 digits)",
                self.tax_id
            )
        })
    }
}

/// `credits:` in settings.yaml.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct CreditSettings {
    /// The validity, in months, the admin's dialogs start from (1 to 60).
    pub default_validity_months: u32,
}

impl Default for CreditSettings {
    fn default() -> Self {
        CreditSettings {
            default_validity_months: 6,
        }
    }
}

/// `payments:` in settings.yaml.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct PaymentSettings {
    /// The methods the coach's PayTabs profile has switched on, in the order the purchase
    /// dialog lists them.
    pub paytabs: Vec<crate::payments::PaymentMethod>,
    /// The methods the coach's Paymob account has (its integrations), listed after PayTabs'
    /// in the dialog: `wallet`, `kiosk`, and any of `creditcard`, `valu`, `souhoola`, `forsa`,
    /// `halan` that PayTabs does not already take. Absent: Paymob is not used.
    #[serde(default)]
    pub paymob: Vec<crate::payments::PaymentMethod>,
    /// Instalment methods are offered only on packages of at least this price (in the site's
    /// currency); absent, on every package.
    pub instalments_from: Option<Money>,
    /// "Pay by InstaPay or bank transfer": where the money goes. Absent: not offered.
    pub transfer: Option<TransferSettings>,
}

impl Default for PaymentSettings {
    fn default() -> Self {
        PaymentSettings {
            paytabs: vec![crate::payments::PaymentMethod::Creditcard],
            paymob: Vec::new(),
            instalments_from: None,
            transfer: None,
        }
    }
}

/// `payments.transfer:` the coach's InstaPay address and bank account, which the purchase
/// dialog and the order's email show with the order's reference. InstaPay has no merchant
/// API: the coach confirms each transfer in the admin.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TransferSettings {
    /// The InstaPay address, e.g. `nadinekamel@instapay`.
    #[serde(default)]
    pub instapay: Option<String>,
    /// The account's IBAN (EG and 27 digits; spaces allowed).
    #[serde(default)]
    pub iban: Option<String>,
    /// The account holder's name, as the bank shows it to the payer.
    pub account_name: String,
    #[serde(default)]
    pub bank: Option<String>,
    /// Days an order waits for its transfer before it lapses (1 to 30).
    #[serde(default = "three")]
    pub lapse_days: u32,
}

fn three() -> u32 {
    3
}

impl TransferSettings {
    /// What is wrong with these settings, as `(field, problem, fix)`: the first problem only.
    pub fn problem(&self) -> Option<(&'static str, String, &'static str)> {
        let instapay = self
            .instapay
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let iban = self
            .iban
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        if instapay.is_none() && iban.is_none() {
            return Some((
                "instapay",
                "neither an InstaPay address nor an IBAN is given".into(),
                "give instapay (name@instapay), iban, or both",
            ));
        }
        if let Some(a) = instapay
            && !(a.ends_with("@instapay")
                && a.len() > "@instapay".len()
                && !a.contains(char::is_whitespace))
        {
            return Some((
                "instapay",
                format!("`{a}` is not an InstaPay address"),
                "write it as InstaPay shows it, e.g. name@instapay",
            ));
        }
        if let Some(i) = iban {
            let compact: String = i.chars().filter(|c| !c.is_whitespace()).collect();
            let digits = compact.strip_prefix("EG").unwrap_or("");
            if digits.len() != 27 || !digits.chars().all(|c| c.is_ascii_digit()) {
                return Some((
                    "iban",
                    format!("`{i}` is not an Egyptian IBAN"),
                    "write EG and its 27 digits, e.g. EG38 0019 0005 0000 0000 2631 8000 2",
                ));
            }
        }
        if self.account_name.trim().is_empty() {
            return Some((
                "account_name",
                "the account holder's name is empty".into(),
                "give the name the bank shows the payer",
            ));
        }
        if !(1..=30).contains(&self.lapse_days) {
            return Some((
                "lapse_days",
                format!("{} days is out of range", self.lapse_days),
                "give 1 to 30 days",
            ));
        }
        None
    }
}

impl PaymentSettings {
    /// What is wrong with the two providers' lists, as `(field, problem, fix)`: a method its
    /// provider cannot take, or one both lists name (the dialog must know who takes it).
    pub fn problems(&self) -> Vec<(&'static str, String, String)> {
        use crate::payments::Provider;
        let mut out = Vec::new();
        for (field, provider, list) in [
            ("payments.paytabs", Provider::Paytabs, &self.paytabs),
            ("payments.paymob", Provider::Paymob, &self.paymob),
        ] {
            for m in list.iter().filter(|m| !m.offered_by(provider)) {
                out.push((
                    field,
                    format!("{} does not offer `{}`", provider.name(), m.code()),
                    match m {
                        crate::payments::PaymentMethod::Wallet
                        | crate::payments::PaymentMethod::Kiosk => {
                            format!("move `{}` to payments.paymob", m.code())
                        }
                        _ => format!("move `{}` to payments.paytabs", m.code()),
                    },
                ));
            }
        }
        for m in self.paymob.iter().filter(|m| self.paytabs.contains(m)) {
            out.push((
                "payments.paymob",
                format!("`{}` is listed under both PayTabs and Paymob", m.code()),
                format!("keep `{}` under one provider", m.code()),
            ));
        }
        out
    }

    /// The methods a package of `price` offers: the profile's, narrowed to the package's own
    /// list when it has one, without instalments below `instalments_from`.
    pub fn offered(
        &self,
        price: Money,
        only: &[crate::payments::PaymentMethod],
    ) -> Vec<crate::payments::PaymentMethod> {
        self.paytabs
            .iter()
            .chain(&self.paymob)
            .copied()
            .filter(|m| only.is_empty() || only.contains(m))
            .filter(|m| !m.is_instalments() || self.instalments_from.is_none_or(|min| price >= min))
            .collect()
    }
}

/// The longest validity a package or a grant may have, in months.
pub const MAX_VALIDITY_MONTHS: u32 = 60;

fn default_currency() -> String {
    "EGP".into()
}
fn default_time_zone() -> chrono_tz::Tz {
    chrono_tz::Africa::Cairo
}

/// A time zone written as its IANA name (`Africa/Cairo`), read back only if the name is known.
pub mod time_zone_name {
    use serde::{Deserialize, Deserializer, Serializer};

    /// What an unknown name is told; `yaml::parse` recognises it to suggest the fix.
    pub const UNKNOWN: &str = "is not a known time zone";

    pub fn parse(name: &str) -> Result<chrono_tz::Tz, String> {
        name.parse::<chrono_tz::Tz>()
            .map_err(|_| format!("`{name}` {UNKNOWN}"))
    }

    pub fn serialize<S: Serializer>(tz: &chrono_tz::Tz, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(tz.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<chrono_tz::Tz, D::Error> {
        let name = String::deserialize(d)?;
        parse(&name).map_err(serde::de::Error::custom)
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SiteInfo {
    pub site_name: String,
    pub description: String,
}

/// The home page hero. Every field has the spec's default, so the section may be omitted.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct HeroSection {
    pub title: String,
    pub subtitle: String,
    pub description: String,
    pub achievements: Vec<String>,
    pub primary_cta: CtaText,
    pub secondary_cta: CtaLink,
    pub success_rate: String,
}

impl Default for HeroSection {
    fn default() -> Self {
        Self {
            title: "Transform Your Leadership".into(),
            subtitle: "Executive Coaching".into(),
            description: "Partner with an experienced executive coach to sharpen your \
                          leadership and deliver measurable results."
                .into(),
            achievements: vec![
                "500+ Executives Coached".into(),
                "C-Suite Experience".into(),
                "Business Acumen".into(),
            ],
            primary_cta: CtaText {
                text: "Book a Discovery Call".into(),
            },
            secondary_cta: CtaLink {
                text: "Work With Me".into(),
                link: "/work-with-me".into(),
            },
            success_rate: "96% success rate".into(),
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CtaText {
    pub text: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CtaLink {
    pub text: String,
    #[serde(default = "default_secondary_link")]
    pub link: String,
}

fn default_secondary_link() -> String {
    "/work-with-me".into()
}

/// Social profile links; the footer shows one icon per link that is set.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SocialMedia {
    pub linkedin: Option<String>,
    pub youtube: Option<String>,
    pub instagram: Option<String>,
    pub tiktok: Option<String>,
    pub whatsapp: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ContactInfo {
    pub email: String,
    pub phone: String,
    pub address: String,
    pub youtube_channel: Option<String>,
    pub linkedin: Option<String>,
    /// A `https://wa.me/<number>` chat link; also used by the workshops-retreats service button.
    pub whatsapp: Option<String>,
}

/// External scheduling pages (Calendly in production).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scheduling {
    /// Opened by every "Book Discovery Call" button, in a new window.
    pub discovery_call_url: String,
    /// The about page's "Book me" link.
    pub booking_url: String,
    /// Name of the scheduling service, for "View {host} Bookings" (e.g. `Calendly`).
    #[serde(default = "default_host")]
    pub host_name: String,
}

fn default_host() -> String {
    "Calendly".into()
}

// ---------------------------------------------------------------------------------------------
// Lists in YAML files

/// `content/logos.yaml`: client logos for the home carousel.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Logo {
    pub company_name: String,
    /// Site path under `/static/`, e.g. `/static/logos/nile-bank.svg`.
    pub logo_url: String,
    #[serde(default)]
    pub website_url: Option<String>,
    #[serde(default = "yes")]
    pub is_active: bool,
    #[serde(default)]
    pub display_order: i32,
}

/// `content/testimonials.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Testimonial {
    pub client_name: String,
    #[serde(default)]
    pub client_title: Option<String>,
    #[serde(default)]
    pub client_company: Option<String>,
    pub testimonial_text: String,
    /// Stars, 1 to 5.
    #[serde(default = "five")]
    pub rating: u8,
    #[serde(default = "yes")]
    pub is_published: bool,
    #[serde(default)]
    pub is_featured: bool,
    #[serde(default)]
    pub display_order: i32,
}

/// `content/videos.yaml`: the curated (built-in) videos, always shown on /videos.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Video {
    /// The 11-character YouTube id (the `v=` of a watch URL).
    pub youtube_id: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Display text, e.g. `12:45`.
    #[serde(default)]
    pub duration: Option<String>,
    pub published_at: NaiveDate,
    /// Optional thumbnail URL; defaults to YouTube's `hqdefault.jpg`.
    #[serde(default)]
    pub thumbnail: Option<String>,
}

/// One entry of `content/pages.yaml`: the title (the page's heading and its `<title>`) and the
/// description (for search engines and link previews) of a page that has no content file of its
/// own, by route.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PageText {
    pub route: String,
    pub title: String,
    #[serde(default)]
    pub description: String,
}

/// `content/faqs.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Faq {
    pub question: String,
    /// Markdown.
    pub answer: String,
    #[serde(default = "general")]
    pub category: String,
    #[serde(default = "yes")]
    pub is_published: bool,
    #[serde(default)]
    pub display_order: i32,
}

fn general() -> String {
    "General".into()
}

/// `content/packages.yaml`: the catalogue of session packages. The build publishes what
/// purchases need of it in `/catalogue.json` ([`crate::catalogue`]), which the API prices
/// purchases from, so the price shown is the price charged.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    /// Stable identifier, e.g. `individual-5`; never reuse one for a different offer.
    pub id: String,
    pub name: String,
    pub package_type: PackageType,
    /// Sessions for individual packages; hours for group packages.
    pub sessions: u32,
    /// The whole package's price in the site currency.
    pub price: Money,
    /// How long the package's credits last after the purchase, in calendar months (1 to 60).
    /// The pricing card's "Credits valid for N months" line and the expiry the API gives a
    /// purchase both come from it.
    pub validity_months: u32,
    #[serde(default)]
    pub features: Vec<String>,
    #[serde(default)]
    pub is_featured: bool,
    #[serde(default = "yes")]
    pub is_active: bool,
    #[serde(default)]
    pub display_order: i32,
    /// The only methods this package may be paid with (PayTabs codes, e.g. `[creditcard,
    /// valu]`), among those the settings' `payments.paytabs` lists. Empty: all of those.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub payment_methods: Vec<crate::payments::PaymentMethod>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PackageType {
    Individual,
    Group,
}

impl PackageType {
    pub fn as_str(self) -> &'static str {
        match self {
            PackageType::Individual => "individual",
            PackageType::Group => "group",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Markdown files with front matter

/// `content/services/<slug>.md`; the body is the detailed description (the Overview).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceMeta {
    pub title: String,
    pub short_description: String,
    /// e.g. `6 months`, `90 minutes per session`.
    #[serde(default)]
    pub duration: Option<String>,
    /// Display text for the investment, e.g. `From 4,500 EGP per session`.
    #[serde(default)]
    pub price: Option<String>,
    /// What's Included.
    #[serde(default)]
    pub features: Vec<String>,
    /// Key Benefits.
    #[serde(default)]
    pub benefits: Vec<String>,
    #[serde(default)]
    pub image_url: Option<String>,
    /// An external partner site; the work-with-me card links to it (the ICF programme).
    #[serde(default)]
    pub partner_url: Option<String>,
    #[serde(default)]
    pub partner_label: Option<String>,
    #[serde(default)]
    pub is_featured: bool,
    #[serde(default = "yes")]
    pub is_active: bool,
    #[serde(default)]
    pub display_order: i32,
    #[serde(default)]
    pub meta_description: Option<String>,
}

/// `content/resources/<slug>.md`; the body is the resource's content.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceMeta {
    pub title: String,
    pub description: String,
    pub category: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub image_url: Option<String>,
    #[serde(default)]
    pub display_order: i32,
    #[serde(default = "yes")]
    pub is_published: bool,
    pub created_at: NaiveDate,
    #[serde(default)]
    pub updated_at: Option<NaiveDate>,
}

/// `content/blog/<slug>.md`; the body is the post.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BlogPostMeta {
    pub title: String,
    /// Card text; when absent, the first 150 characters of the content.
    #[serde(default)]
    pub excerpt: Option<String>,
    pub category: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub featured_image_url: Option<String>,
    #[serde(default)]
    pub meta_description: Option<String>,
    /// When absent, computed from the word count (200 words a minute).
    #[serde(default)]
    pub read_time_minutes: Option<u32>,
    pub created_at: NaiveDate,
    #[serde(default = "yes")]
    pub is_published: bool,
}

/// `content/events/<slug>.md`; the body is the description.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EventMeta {
    pub title: String,
    pub event_date: NaiveDate,
    /// 24-hour local time in the site's time zone, `HH:MM`.
    #[serde(default)]
    pub event_time: Option<String>,
    pub location: String,
    #[serde(default)]
    pub location_type: LocationType,
    #[serde(default)]
    pub max_participants: Option<u32>,
    #[serde(default)]
    pub photos: Vec<String>,
    #[serde(default)]
    pub registration_url: Option<String>,
    #[serde(default)]
    pub is_featured: bool,
    #[serde(default = "yes")]
    pub is_published: bool,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LocationType {
    #[default]
    InPerson,
    Online,
    Hybrid,
}

/// `content/pages/about.md`; the body, if any, is shown after the mission.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AboutMeta {
    pub title: String,
    pub hero_title: String,
    #[serde(default)]
    pub hero_subtitle: Option<String>,
    pub meta_description: String,
    #[serde(default)]
    pub portrait_url: Option<String>,
    pub intro: Section,
    pub mission: MissionSection,
    pub credentials: Credentials,
    #[serde(default)]
    pub certifications: Vec<Certification>,
    #[serde(default)]
    pub cta: Option<AboutCta>,
    /// The ICF ACC note, e.g. `ICF ACC credential valid until 1/2028`.
    pub credential_note: String,
    #[serde(default = "yes")]
    pub is_published: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    pub title: String,
    pub description: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MissionSection {
    pub title: String,
    pub content: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub title: String,
    pub items: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Certification {
    pub title: String,
    pub issuer: String,
    pub image_url: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AboutCta {
    pub title: String,
    pub description: String,
    pub button_text: String,
    pub button_link: String,
}

/// `content/legal/<name>.md`, and its translations `<name>.<lang>.md` (`<name>.ar.md`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LegalMeta {
    pub title: String,
    #[serde(default)]
    pub meta_description: Option<String>,
    #[serde(default)]
    pub updated_at: Option<NaiveDate>,
}

fn yes() -> bool {
    true
}

// ---------------------------------------------------------------------------------------------
// Which fields are texts a person reads (may be given by language; see `crate::i18n`). Ids,
// slugs, routes, urls, numbers, dates, emails and phone numbers are never translated.

impl Texts for Settings {
    const TEXTS: &'static [&'static str] = &[
        "site_info.site_name",
        "site_info.description",
        "hero_section.title",
        "hero_section.subtitle",
        "hero_section.description",
        "hero_section.achievements",
        "hero_section.primary_cta.text",
        "hero_section.secondary_cta.text",
        "hero_section.success_rate",
        "contact_info.address",
        "business.address",
    ];
    const NAMES: &'static [&'static str] = &["business.name"];
}

impl Texts for Logo {
    const TEXTS: &'static [&'static str] = &[];
    const NAMES: &'static [&'static str] = &["company_name"];
}

impl Texts for Testimonial {
    const TEXTS: &'static [&'static str] = &["client_name", "client_title", "testimonial_text"];
    const NAMES: &'static [&'static str] = &["client_company"];
}

impl Texts for Video {
    const TEXTS: &'static [&'static str] = &["title", "description", "category", "tags"];
}

impl Texts for PageText {
    const TEXTS: &'static [&'static str] = &["title", "description"];
}

impl Texts for Faq {
    const TEXTS: &'static [&'static str] = &["question", "answer", "category"];
}

impl Texts for Package {
    const TEXTS: &'static [&'static str] = &["name", "features"];
}

impl Texts for ServiceMeta {
    const TEXTS: &'static [&'static str] = &[
        "title",
        "short_description",
        "duration",
        "price",
        "features",
        "benefits",
        "partner_label",
        "meta_description",
    ];
}

impl Texts for ResourceMeta {
    const TEXTS: &'static [&'static str] = &["title", "description", "category", "tags"];
}

impl Texts for BlogPostMeta {
    const TEXTS: &'static [&'static str] =
        &["title", "excerpt", "category", "tags", "meta_description"];
}

impl Texts for EventMeta {
    const TEXTS: &'static [&'static str] = &["title", "location"];
}

impl Texts for AboutMeta {
    const TEXTS: &'static [&'static str] = &[
        "title",
        "hero_title",
        "hero_subtitle",
        "meta_description",
        "intro.title",
        "intro.description",
        "mission.title",
        "mission.content",
        "credentials.title",
        "credentials.items",
        "certifications[].title",
        "certifications[].issuer",
        "cta.title",
        "cta.description",
        "cta.button_text",
        "credential_note",
    ];
}

impl Texts for LegalMeta {
    const TEXTS: &'static [&'static str] = &["title", "meta_description"];
}
fn five() -> u8 {
    5
}

// ---------------------------------------------------------------------------------------------
// Money

/// An amount in minor units (piastres for EGP). Editors write `4500`, `4500.5` or `"4,500.00"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(pub i64);

impl Money {
    pub fn minor(self) -> i64 {
        self.0
    }

    /// Parses a decimal amount with at most two decimals; commas are thousands separators.
    pub fn parse(s: &str) -> Result<Money, String> {
        let cleaned: String = s
            .trim()
            .chars()
            .filter(|c| *c != ',' && *c != '_')
            .collect();
        let (whole, frac) = cleaned.split_once('.').unwrap_or((&cleaned, ""));
        let bad = || format!("`{s}` is not an amount like 4500 or 4500.50");
        if whole.is_empty() || !whole.chars().all(|c| c.is_ascii_digit()) {
            return Err(bad());
        }
        if frac.len() > 2 || !frac.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!("`{s}` has more than two decimals"));
        }
        let whole: i64 = whole.parse().map_err(|_| bad())?;
        let frac: i64 = format!("{frac:0<2}").parse().unwrap_or(0);
        whole
            .checked_mul(100)
            .and_then(|w| w.checked_add(frac))
            .map(Money)
            .ok_or_else(bad)
    }

    /// `4500` → `4,500`; `4500.5` → `4,500.50`.
    pub fn display(self) -> String {
        let whole = self.0 / 100;
        let frac = self.0 % 100;
        let digits = whole.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        if frac != 0 {
            out.push_str(&format!(".{frac:02}"));
        }
        out
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display())
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(u64),
            Float(f64),
            Text(String),
        }
        let text = match Raw::deserialize(d)? {
            Raw::Int(i) => i.to_string(),
            // Go through the shortest decimal text so 4500.1 stays 4500.10, not 4500.0999.
            Raw::Float(f) if f >= 0.0 => f.to_string(),
            Raw::Float(_) => return Err(serde::de::Error::custom("an amount cannot be negative")),
            Raw::Text(s) => s,
        };
        Money::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_offers_the_profiles_methods_narrowed_and_instalments_from_the_amount() {
        use crate::payments::PaymentMethod::*;
        let settings = PaymentSettings {
            paytabs: vec![Creditcard, Meezaqr, Applepay, Valu, Souhoola],
            paymob: vec![Wallet, Kiosk],
            instalments_from: Some(Money(900_000)),
            transfer: None,
        };
        // PayTabs' methods, then Paymob's.
        assert_eq!(
            settings.offered(Money(450_000), &[]),
            vec![Creditcard, Meezaqr, Applepay, Wallet, Kiosk]
        );
        assert_eq!(
            settings.offered(Money(900_000), &[]),
            vec![Creditcard, Meezaqr, Applepay, Valu, Souhoola, Wallet, Kiosk]
        );
        // A package's own list narrows the profile's; a method the profile lacks stays out.
        assert_eq!(
            settings.offered(Money(2_025_000), &[Creditcard, Valu, Aman]),
            vec![Creditcard, Valu]
        );
    }

    #[test]
    fn a_method_goes_to_one_provider_that_has_it() {
        use crate::payments::PaymentMethod::*;
        let settings = |paytabs: Vec<_>, paymob: Vec<_>| PaymentSettings {
            paytabs,
            paymob,
            ..PaymentSettings::default()
        };
        assert!(
            settings(vec![Creditcard, Meezaqr], vec![Wallet, Kiosk, Valu])
                .problems()
                .is_empty()
        );
        // PayTabs has no wallet; Paymob no Meeza QR.
        let wrong = settings(vec![Creditcard, Wallet], vec![Meezaqr]).problems();
        assert_eq!(wrong.len(), 2, "{wrong:?}");
        assert_eq!(wrong[0].0, "payments.paytabs");
        assert_eq!(wrong[0].1, "PayTabs does not offer `wallet`");
        assert_eq!(wrong[0].2, "move `wallet` to payments.paymob");
        assert_eq!(wrong[1].1, "Paymob does not offer `meezaqr`");
        // Listed under both: the dialog could not tell who takes it.
        let both = settings(vec![Creditcard, Valu], vec![Valu]).problems();
        assert_eq!(both.len(), 1);
        assert_eq!(both[0].1, "`valu` is listed under both PayTabs and Paymob");
    }

    #[test]
    fn transfer_settings_need_an_instapay_address_or_an_egyptian_iban() {
        let with = |instapay: Option<&str>, iban: Option<&str>| TransferSettings {
            instapay: instapay.map(Into::into),
            iban: iban.map(Into::into),
            account_name: "Nadine Kamel Coaching LLC".into(),
            bank: None,
            lapse_days: 3,
        };
        let iban = "EG38 0019 0005 0000 0000 2631 8000 2";
        assert_eq!(with(Some("nadine@instapay"), None).problem(), None);
        assert_eq!(with(None, Some(iban)).problem(), None);
        assert_eq!(with(None, None).problem().unwrap().0, "instapay");
        assert_eq!(with(Some("nadine"), None).problem().unwrap().0, "instapay");
        assert_eq!(
            with(Some("@instapay"), None).problem().unwrap().0,
            "instapay"
        );
        assert_eq!(with(None, Some("EG38 0019")).problem().unwrap().0, "iban");
        assert_eq!(
            with(None, Some("DE89370400440532013000"))
                .problem()
                .unwrap()
                .0,
            "iban"
        );
        let mut long = with(Some("nadine@instapay"), None);
        long.lapse_days = 0;
        assert_eq!(long.problem().unwrap().0, "lapse_days");
    }

    #[test]
    fn a_tax_id_is_nine_digits_with_optional_dashes_or_spaces() {
        let with = |tax_id: &str| Business {
            name: "N".into(),
            address: "A".into(),
            tax_id: tax_id.into(),
            vat_percent: None,
        };
        assert_eq!(with("512-384-976").tax_id_problem(), None);
        assert_eq!(with("512384976").tax_id_problem(), None);
        assert!(with("512-384-97").tax_id_problem().is_some());
        assert!(with("512/384/976").tax_id_problem().is_some());
    }

    #[test]
    fn money_parses_editor_amounts_into_piastres() {
        assert_eq!(Money::parse("4500").unwrap(), Money(450_000));
        assert_eq!(Money::parse("4,500.5").unwrap(), Money(450_050));
        assert_eq!(Money::parse("0.05").unwrap(), Money(5));
        assert!(Money::parse("12.345").is_err());
        assert!(Money::parse("-3").is_err());
        assert!(Money::parse("abc").is_err());
    }

    #[test]
    fn money_displays_with_thousands_separators() {
        assert_eq!(Money(450_000).display(), "4,500");
        assert_eq!(Money(12_345_050).display(), "123,450.50");
        assert_eq!(Money(99).display(), "0.99");
    }

    #[test]
    fn money_deserialises_numbers_and_text() {
        let m: Vec<Money> = serde_yaml_ng::from_str("[4500, 4500.1, '1,200.00']").unwrap();
        assert_eq!(m, vec![Money(450_000), Money(450_010), Money(120_000)]);
    }
}
