//! The catalogue: what the API needs from `content/` (the packages it sells and the settings it
//! uses), as the site publishes it at `/catalogue.json`.
//!
//! The generator writes it from the content it loaded; the API reads it from the deployed site
//! (or, in development, builds it from `content/` with [`Catalogue::from_content_dir`]). Both
//! sides use [`Catalogue::new`], so the same content has the same [`Catalogue::version`]
//! everywhere: the pricing pages are built with a version, a purchase names it, and the API
//! knows whether it has that catalogue.
//!
//! The version is a hash of what the file publishes, nothing else: a price, a validity, a
//! package's name or activity, or one of the settings below changes it; a package's features,
//! its display order, a comment or any other page does not (the API uses none of them).
//!
//! A site in several languages (settings `languages`) publishes every package's name in the
//! other languages too, in `names` (`{"ar": "باقة الانطلاق"}`), for emails and receipts in the
//! client's language; the rest of the file is the default language's, as before. An
//! English-only site's file is exactly what it was.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::i18n::Languages;
use crate::model::{
    Business, MAX_VALIDITY_MONTHS, Money, Package, PackageType, Settings, TransferSettings,
};
use crate::payments::PaymentMethod;
use crate::yaml;

/// Where the site publishes it, relative to the site's root: `https://<site>/catalogue.json`.
pub const FILE: &str = "catalogue.json";

/// The file's shape. Readers refuse a format they do not know; only a change an older reader
/// would misread bumps it (a new field does not: readers ignore fields they do not know).
pub const FORMAT: u32 = 1;

/// The longest version a reader accepts (a request names one; the build writes 16 hex digits).
pub const MAX_VERSION_LEN: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Catalogue {
    /// A hash of `format`, `settings` and `packages` (16 hex digits).
    pub version: String,
    pub format: u32,
    pub settings: CatalogueSettings,
    /// Every package, active or not, ordered by id: a purchase may only buy an active one, but
    /// receipts and payments still name the ones retired since.
    pub packages: Vec<CataloguePackage>,
}

/// The settings the API uses (`settings.yaml`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogueSettings {
    /// `site_info.site_name`.
    pub site_name: String,
    pub currency: String,
    /// Written as its IANA name, e.g. `Africa/Cairo`; a catalogue naming an unknown zone does
    /// not load.
    #[serde(with = "crate::model::time_zone_name")]
    pub time_zone: chrono_tz::Tz,
    /// `contact_info.email`: contact messages go there.
    pub coach_email: String,
    /// `contact_info.address`: receipts print it when `business` is not set.
    pub contact_address: String,
    /// `scheduling.booking_url`.
    pub booking_url: String,
    /// `scheduling.host_name`, e.g. `Calendly`.
    pub scheduler_name: String,
    /// `credits.default_validity_months`.
    pub default_validity_months: u32,
    pub business: Option<Business>,
    /// `payments.transfer`: where a client sends an InstaPay or bank transfer. Absent: the
    /// API refuses transfer orders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfer: Option<TransferSettings>,
    /// `payments.paymob`: the methods Paymob takes; every other method of a package goes to
    /// PayTabs. Absent (older files, or no Paymob): all go to PayTabs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paymob: Vec<PaymentMethod>,
}

impl CatalogueSettings {
    /// Who takes `method`.
    pub fn provider_of(&self, method: PaymentMethod) -> crate::payments::Provider {
        if self.paymob.contains(&method) {
            crate::payments::Provider::Paymob
        } else {
            crate::payments::Provider::Paytabs
        }
    }
}

/// A package as purchases need it (`packages.yaml`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CataloguePackage {
    pub id: String,
    pub name: String,
    pub package_type: PackageType,
    pub sessions: u32,
    /// The whole package's price, in minor units (piastres).
    #[serde(rename = "price_minor", with = "minor_units")]
    pub price: Money,
    pub validity_months: u32,
    pub is_active: bool,
    /// The name in the site's other languages, by language code (`{"ar": "باقة الانطلاق"}`),
    /// where it is translated; `name` is the default language's and the fallback. Absent
    /// (and so left out of the file) on an English-only site. Use [`CataloguePackage::name_in`].
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub names: BTreeMap<String, String>,
    /// The methods (PayTabs' and Paymob's) this package may be paid with, in the dialog's order (settings'
    /// `payments`, narrowed by the package's own list and `instalments_from`). A file written
    /// before methods existed offers cards.
    #[serde(default = "cards_only")]
    pub payment_methods: Vec<PaymentMethod>,
}

fn cards_only() -> Vec<PaymentMethod> {
    vec![PaymentMethod::Creditcard]
}

impl From<&Package> for CataloguePackage {
    fn from(p: &Package) -> CataloguePackage {
        CataloguePackage {
            id: p.id.clone(),
            name: p.name.clone(),
            package_type: p.package_type,
            sessions: p.sessions,
            price: p.price,
            validity_months: p.validity_months,
            is_active: p.is_active,
            names: BTreeMap::new(),
            payment_methods: cards_only(),
        }
    }
}

impl CataloguePackage {
    /// The package's name in `lang` (a language code such as `ar`), else the default
    /// language's.
    pub fn name_in(&self, lang: &str) -> &str {
        self.names
            .get(lang)
            .map_or(self.name.as_str(), String::as_str)
    }

    /// Whether a buyer who saw `self` gets exactly `other`: same package, sessions, price and
    /// validity, still on sale.
    pub fn same_offer(&self, other: &CataloguePackage) -> bool {
        self.id == other.id
            && self.package_type == other.package_type
            && self.sessions == other.sessions
            && self.price == other.price
            && self.validity_months == other.validity_months
            && other.is_active
    }
}

/// The part of the file the version is the hash of.
#[derive(Serialize)]
struct Hashed<'a> {
    format: u32,
    settings: &'a CatalogueSettings,
    packages: &'a [CataloguePackage],
}

impl Catalogue {
    /// The catalogue of this content, with its version.
    pub fn new(settings: &Settings, packages: &[Package]) -> Catalogue {
        Catalogue::with_translations(settings, packages, &[])
    }

    /// The catalogue of a site in several languages: `packages` in the default language, and
    /// the same packages read in each other language (`(code, packages)`), whose names go into
    /// `names` where they differ from the default language's.
    pub fn with_translations(
        settings: &Settings,
        packages: &[Package],
        translations: &[(&str, &[Package])],
    ) -> Catalogue {
        let payments = &settings.payments;
        let settings = CatalogueSettings {
            site_name: settings.site_info.site_name.clone(),
            currency: settings.currency.clone(),
            time_zone: settings.time_zone,
            coach_email: settings.contact_info.email.clone(),
            contact_address: settings.contact_info.address.clone(),
            booking_url: settings.scheduling.booking_url.clone(),
            scheduler_name: settings.scheduling.host_name.clone(),
            default_validity_months: settings.credits.default_validity_months,
            business: settings.business.clone(),
            transfer: settings.payments.transfer.clone(),
            paymob: settings.payments.paymob.clone(),
        };
        let mut packages: Vec<CataloguePackage> = packages
            .iter()
            .map(|p| CataloguePackage {
                payment_methods: payments.offered(p.price, &p.payment_methods),
                ..p.into()
            })
            .collect();
        for (lang, translated) in translations {
            for p in packages.iter_mut() {
                if let Some(t) = translated.iter().find(|t| t.id == p.id)
                    && t.name != p.name
                {
                    p.names.insert(lang.to_string(), t.name.clone());
                }
            }
        }
        // Reordering packages.yaml changes nothing the API uses.
        packages.sort_by(|a, b| a.id.cmp(&b.id));
        let hashed = Hashed {
            format: FORMAT,
            settings: &settings,
            packages: &packages,
        };
        let bytes = serde_json::to_vec(&hashed).expect("a catalogue always serialises");
        let digest = Sha256::digest(&bytes);
        let version = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        Catalogue {
            version,
            format: FORMAT,
            settings,
            packages,
        }
    }

    /// Reads `settings.yaml` and `packages.yaml` (absent: no packages) of a `content/` folder,
    /// as the build would publish them.
    pub fn from_content_dir(content_dir: &Path) -> Result<Catalogue, String> {
        let read = |name: &str| {
            let file = content_dir.join(name);
            match std::fs::read_to_string(&file) {
                Ok(text) => Ok(Some((text, file))),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(format!("cannot read {}: {e}", file.display())),
            }
        };
        let (text, file) = read("settings.yaml")?.ok_or_else(|| {
            format!(
                "cannot read {}: no such file",
                content_dir.join("settings.yaml").display()
            )
        })?;
        let languages = Languages::of_settings(&text);
        let default = languages.default_code();
        let settings: Settings =
            yaml::parse_in(&text, &file, 0, default, default).map_err(|d| d.to_string())?;
        let packages_in = |lang: &str| -> Result<Vec<Package>, String> {
            match read("packages.yaml")? {
                Some((text, file)) => {
                    yaml::parse_in(&text, &file, 0, lang, default).map_err(|d| d.to_string())
                }
                None => Ok(Vec::new()),
            }
        };
        let packages = packages_in(default)?;
        let mut translated = Vec::new();
        for lang in languages.others() {
            translated.push((lang.as_str(), packages_in(lang)?));
        }
        let translations: Vec<(&str, &[Package])> =
            translated.iter().map(|(l, p)| (*l, p.as_slice())).collect();
        let catalogue = Catalogue::with_translations(&settings, &packages, &translations);
        match catalogue.problems().first() {
            Some(problem) => Err(format!("{}: {problem}", content_dir.display())),
            None => Ok(catalogue),
        }
    }

    /// The published file: pretty JSON, one trailing newline.
    pub fn to_json(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).expect("a catalogue always serialises");
        bytes.push(b'\n');
        bytes
    }

    /// Reads a published file, refusing one this reader cannot use (see [`Catalogue::problems`]).
    pub fn from_json(bytes: &[u8]) -> Result<Catalogue, String> {
        let de = &mut serde_json::Deserializer::from_slice(bytes);
        let catalogue: Catalogue = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            format!("not a catalogue (at `{path}`): {}", e.inner())
        })?;
        match catalogue.problems().first() {
            Some(problem) => Err(problem.clone()),
            None => Ok(catalogue),
        }
    }

    /// What makes this catalogue unusable: an unknown format, a malformed version, a package
    /// id used twice, a validity out of range, a tax id that is not one.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.format != FORMAT {
            problems.push(format!(
                "catalogue format {} is not {FORMAT}, the one this program reads",
                self.format
            ));
        }
        if !is_version(&self.version) {
            problems.push(format!("`{}` is not a catalogue version", self.version));
        }
        let months = 1..=MAX_VALIDITY_MONTHS;
        if !months.contains(&self.settings.default_validity_months) {
            problems.push(format!(
                "default_validity_months {} is not between 1 and {MAX_VALIDITY_MONTHS}",
                self.settings.default_validity_months
            ));
        }
        if let Some(problem) = self
            .settings
            .business
            .as_ref()
            .and_then(|b| b.tax_id_problem())
        {
            problems.push(format!("business.tax_id: {problem}"));
        }
        for (i, p) in self.packages.iter().enumerate() {
            if self.packages[..i].iter().any(|q| q.id == p.id) {
                problems.push(format!("package id `{}` is used twice", p.id));
            }
            if !months.contains(&p.validity_months) {
                problems.push(format!(
                    "package `{}`: validity_months {} is not between 1 and {MAX_VALIDITY_MONTHS}",
                    p.id, p.validity_months
                ));
            }
            if p.sessions == 0 {
                problems.push(format!("package `{}`: sessions is 0", p.id));
            }
        }
        problems
    }

    /// The package with this id, on sale or not.
    pub fn package(&self, id: &str) -> Option<&CataloguePackage> {
        self.packages.iter().find(|p| p.id == id)
    }

    /// The active package a purchase asks for by type and sessions (a purchase names it so).
    pub fn offer(&self, kind: PackageType, sessions: u32) -> Option<&CataloguePackage> {
        self.packages
            .iter()
            .find(|p| p.is_active && p.package_type == kind && p.sessions == sessions)
    }
}

/// Whether `s` could be a catalogue version: 1 to [`MAX_VERSION_LEN`] ASCII letters, digits,
/// `-` or `_`.
pub fn is_version(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_VERSION_LEN
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Money as an integer of minor units (the YAML reader takes major units: 4500 is 4,500.00).
mod minor_units {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::model::Money;

    pub fn serialize<S: Serializer>(m: &Money, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(m.minor())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Money, D::Error> {
        let minor = i64::deserialize(d)?;
        if minor < 0 {
            return Err(serde::de::Error::custom("a price cannot be negative"));
        }
        Ok(Money(minor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
    }

    #[test]
    fn the_file_reads_back_as_it_was_written() {
        let catalogue = Catalogue::from_content_dir(&content()).unwrap();
        assert_eq!(catalogue.version.len(), 16);
        let back = Catalogue::from_json(&catalogue.to_json()).unwrap();
        assert_eq!(back, catalogue);
        let five = back.package("individual-5").unwrap();
        assert_eq!(five.price, Money(2_025_000));
        assert!(
            String::from_utf8(catalogue.to_json())
                .unwrap()
                .contains("\"price_minor\": 2025000")
        );
    }

    #[test]
    fn the_version_follows_what_the_api_uses_and_nothing_else() {
        let catalogue = Catalogue::from_content_dir(&content()).unwrap();
        let text = std::fs::read_to_string(content().join("settings.yaml")).unwrap();
        let settings: Settings = yaml::parse(&text, Path::new("settings.yaml"), 0).unwrap();
        let languages = Languages::of_settings(&text);
        let text = std::fs::read_to_string(content().join("packages.yaml")).unwrap();
        let mut packages: Vec<Package> = yaml::parse(&text, Path::new("packages.yaml"), 0).unwrap();
        let translated: Vec<(&str, Vec<Package>)> = languages
            .others()
            .iter()
            .map(|l| {
                let p = yaml::parse_in(&text, Path::new("p"), 0, l, languages.default_code());
                (l.as_str(), p.unwrap())
            })
            .collect();
        let translations: Vec<(&str, &[Package])> =
            translated.iter().map(|(l, p)| (*l, p.as_slice())).collect();
        let of = |packages: &[Package]| {
            Catalogue::with_translations(&settings, packages, &translations).version
        };
        assert_eq!(of(&packages), catalogue.version);
        packages.reverse();
        packages[0].features.push("A new line on the card".into());
        packages[0].display_order += 10;
        assert_eq!(
            of(&packages),
            catalogue.version,
            "order, features and display order are not the API's"
        );
        packages[0].validity_months += 1;
        let longer = of(&packages);
        assert_ne!(longer, catalogue.version);
        packages[0].price = Money(packages[0].price.minor() + 100);
        assert_ne!(of(&packages), longer);
    }

    #[test]
    fn translated_names_are_published_beside_the_default_ones() {
        let text = "- id: one\n  name: {en: One, ar: واحدة}\n  package_type: individual\n  sessions: 1\n  price: 100\n  validity_months: 6\n- id: two\n  name: Two\n  package_type: individual\n  sessions: 2\n  price: 150\n  validity_months: 6\n";
        let f = Path::new("packages.yaml");
        let en: Vec<Package> = yaml::parse_in(text, f, 0, "en", "en").unwrap();
        let ar: Vec<Package> = yaml::parse_in(text, f, 0, "ar", "en").unwrap();
        let settings_text = std::fs::read_to_string(content().join("settings.yaml")).unwrap();
        let settings: Settings =
            yaml::parse(&settings_text, Path::new("settings.yaml"), 0).unwrap();
        let plain = Catalogue::new(&settings, &en);
        let both = Catalogue::with_translations(&settings, &en, &[("ar", &ar)]);
        assert!(
            !String::from_utf8(plain.to_json())
                .unwrap()
                .contains("names")
        );
        let one = both.package("one").unwrap();
        assert_eq!(one.name, "One");
        assert_eq!(one.name_in("ar"), "واحدة");
        assert_eq!(both.package("two").unwrap().name_in("ar"), "Two");
        assert!(both.package("two").unwrap().names.is_empty());
        let json = String::from_utf8(both.to_json()).unwrap();
        assert!(
            json.contains("\"names\": {\n        \"ar\": \"واحدة\""),
            "{json}"
        );
        assert_eq!(
            Catalogue::from_json(both.to_json().as_slice()).unwrap(),
            both
        );
        assert_ne!(
            plain.version, both.version,
            "a translated name is published"
        );
    }

    #[test]
    fn an_unusable_file_is_refused_with_its_reason() {
        let mut catalogue = Catalogue::from_content_dir(&content()).unwrap();
        assert!(Catalogue::from_json(b"<html>").is_err());
        catalogue.format = FORMAT + 1;
        let e = Catalogue::from_json(&catalogue.to_json()).unwrap_err();
        assert!(e.contains("format"), "{e}");
        catalogue.format = FORMAT;
        catalogue.packages[0].validity_months = 0;
        let e = Catalogue::from_json(&catalogue.to_json()).unwrap_err();
        assert!(e.contains("validity_months"), "{e}");
        assert!(is_version("0123abcd") && !is_version("") && !is_version("a b"));
    }

    #[test]
    fn the_time_zone_is_published_by_name_and_an_unknown_one_is_refused() {
        let catalogue = Catalogue::from_content_dir(&content()).unwrap();
        assert_eq!(catalogue.settings.time_zone, chrono_tz::Africa::Cairo);
        let text = String::from_utf8(catalogue.to_json()).unwrap();
        assert!(text.contains("\"time_zone\": \"Africa/Cairo\""), "{text}");
        let unknown = text.replace("\"Africa/Cairo\"", "\"Africa/Ciaro\"");
        let e = Catalogue::from_json(unknown.as_bytes()).unwrap_err();
        assert!(e.contains("settings.time_zone"), "{e}");
        assert!(e.contains("`Africa/Ciaro` is not a known time zone"), "{e}");
    }
}
