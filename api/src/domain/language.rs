//! The languages the portal speaks (issue 21): English, the default, and Arabic, written right
//! to left. Each account has one (`users.preferred_language`), and every email it is sent, the
//! invitation's texts and the pages the API renders for it follow it. Stored and answered as
//! its code (`en`, `ar`); compared only as this enum.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::FieldError;

/// A language of the portal, as its BCP 47 primary tag.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English, the site's default language (its pages are at `/…`).
    #[default]
    En,
    /// Arabic, right to left (its pages are at `/ar/…`).
    Ar,
}

/// What a wrong `language` field is told.
pub const LANGUAGE_MESSAGE: &str = "Language must be en (English) or ar (Arabic)";

impl Language {
    pub const ALL: [Language; 2] = [Language::En, Language::Ar];

    /// `en`, `ar`: as stored and answered.
    pub fn as_str(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Ar => "ar",
        }
    }

    /// `en` or `ar`, nothing else (no region, no other case).
    pub fn parse(s: &str) -> Option<Language> {
        match s {
            "en" => Some(Language::En),
            "ar" => Some(Language::Ar),
            _ => None,
        }
    }

    /// An optional `language` field of a request: `None` when absent or empty (the caller's
    /// default applies), a [`FieldError`] on `field` for anything but `en` or `ar`.
    pub fn parse_field(field: &str, raw: Option<&str>) -> Result<Option<Language>, FieldError> {
        match raw.map(str::trim).filter(|s| !s.is_empty()) {
            None => Ok(None),
            Some(s) => Language::parse(s)
                .map(Some)
                .ok_or_else(|| FieldError::new(field, LANGUAGE_MESSAGE)),
        }
    }

    /// Whether it is written right to left.
    pub fn is_rtl(self) -> bool {
        self == Language::Ar
    }

    /// Where the site's pages in this language start, before their path: `` for the default
    /// language, `/ar` for Arabic (`/ar/dashboard`, `/ar/auth`, …).
    pub fn path_prefix(self) -> &'static str {
        match self {
            Language::En => "",
            Language::Ar => "/ar",
        }
    }

    /// A page of the site at `base` in this language: `{base}/ar/dashboard`. `path` starts with
    /// `/`.
    pub fn page(self, base: &str, path: &str) -> String {
        format!("{base}{}{path}", self.path_prefix())
    }
}

crate::db::column_via!(Language, String);

impl TryFrom<String> for Language {
    type Error = String;

    fn try_from(s: String) -> Result<Language, String> {
        Language::parse(&s).ok_or_else(|| format!("`{s}` is not a language"))
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back_and_anything_else_is_a_field_error() {
        for l in Language::ALL {
            assert_eq!(Language::parse(l.as_str()), Some(l));
            assert_eq!(serde_json::to_value(l).unwrap(), l.as_str());
        }
        assert_eq!(Language::default(), Language::En);
        assert_eq!(Language::parse_field("language", None), Ok(None));
        assert_eq!(Language::parse_field("language", Some(" ")), Ok(None));
        assert_eq!(
            Language::parse_field("language", Some(" ar ")),
            Ok(Some(Language::Ar))
        );
        for bad in ["fr", "AR", "ar-EG", "english"] {
            let e = Language::parse_field("language", Some(bad)).unwrap_err();
            assert_eq!(
                (e.field.as_str(), e.message.as_str()),
                ("language", LANGUAGE_MESSAGE)
            );
        }
    }

    #[test]
    fn arabic_pages_are_under_ar() {
        assert_eq!(
            Language::En.page("https://x.example", "/dashboard"),
            "https://x.example/dashboard"
        );
        assert_eq!(
            Language::Ar.page("https://x.example", "/dashboard"),
            "https://x.example/ar/dashboard"
        );
        assert!(Language::Ar.is_rtl() && !Language::En.is_rtl());
    }
}
