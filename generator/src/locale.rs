//! The theme's own texts in each language: `themes/<theme>/i18n/<code>.yaml`, one file per
//! language of the site (nav, buttons, labels, "Read more", month names…), looked up by the
//! templates' `t(key=…)` and `text(key=…)` functions and by the views' labels and dates.
//!
//! A file is nested YAML; a text's key is its dotted path (`nav.about`). A value is a text, a
//! list of texts (`dates.months`), or a text by plural category (`{one: …, other: …}`, the
//! CLDR categories zero, one, two, few, many, other), chosen by the `count` argument. `{name}`
//! in a text is replaced by the argument `name`. A key whose name ends in `_html` holds HTML
//! (printed as it is); every other text is plain and escaped. The `language` section describes
//! the language: `name` (in itself: the language switch's label), `dir` (`ltr` or `rtl`),
//! `og_locale` (`en_US`) and `fonts` (the font files its pages preload).
//!
//! A text the default language has and another language lacks is shown in the default
//! language, with a warning.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use chrono::{Datelike, NaiveDate};
use content_model::i18n::Languages;
use serde_yaml_ng::Value;
use tera::Function;

use crate::diagnostics::Diagnostic;

/// One text of a catalogue.
#[derive(Debug, Clone)]
enum Text {
    Plain(String),
    List(Vec<String>),
    /// By CLDR plural category.
    Plural(BTreeMap<String, String>),
}

/// One language of the site, as pages show it.
#[derive(Debug)]
pub struct Locale {
    /// The language code, e.g. `ar`.
    pub code: String,
    /// Its position in the site's languages: 0 for the default.
    pub index: usize,
    /// Where its pages are: `""` for the default language, `/ar` for Arabic.
    pub prefix: String,
    /// The language's name in itself (`English`, `العربية`).
    pub name: String,
    /// `ltr` or `rtl`.
    pub dir: String,
    /// The Open Graph locale, e.g. `en_US`, `ar_EG`.
    pub og_locale: String,
    /// The font files its pages preload (site paths under `/assets/fonts/`).
    pub fonts: Vec<String>,
    texts: HashMap<String, Text>,
}

/// Flattens nested YAML into dotted keys.
fn flatten(prefix: &str, value: &Value, out: &mut HashMap<String, Text>) -> Result<(), String> {
    const PLURALS: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];
    let key = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match value {
        Value::Mapping(m)
            if !m.is_empty()
                && m.keys()
                    .all(|k| k.as_str().is_some_and(|k| PLURALS.contains(&k))) =>
        {
            let forms = m
                .iter()
                .map(|(k, v)| {
                    let text = v.as_str().ok_or(format!(
                        "`{prefix}.{}` must be text",
                        k.as_str().unwrap_or("")
                    ))?;
                    Ok((k.as_str().unwrap_or("").to_string(), text.to_string()))
                })
                .collect::<Result<BTreeMap<_, _>, String>>()?;
            if !forms.contains_key("other") {
                return Err(format!("`{prefix}` needs an `other:` form"));
            }
            out.insert(prefix.to_string(), Text::Plural(forms));
        }
        Value::Mapping(m) => {
            for (k, v) in m {
                let k = k
                    .as_str()
                    .ok_or(format!("a key under `{prefix}` is not text"))?;
                flatten(&key(k), v, out)?;
            }
        }
        Value::Sequence(s) => {
            let items = s
                .iter()
                .map(|v| scalar(v).ok_or(format!("`{prefix}` must be a list of texts")))
                .collect::<Result<Vec<_>, String>>()?;
            out.insert(prefix.to_string(), Text::List(items));
        }
        v => {
            let text = scalar(v).ok_or(format!("`{prefix}` must be text"))?;
            out.insert(prefix.to_string(), Text::Plain(text));
        }
    }
    Ok(())
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The CLDR plural category of `n` in language `code`.
pub fn plural_category(code: &str, n: i64) -> &'static str {
    let n = n.unsigned_abs();
    match code {
        "ar" => match (n, n % 100) {
            (0, _) => "zero",
            (1, _) => "one",
            (2, _) => "two",
            (_, 3..=10) => "few",
            (_, 11..=99) => "many",
            _ => "other",
        },
        "fr" | "pt" if n <= 1 => "one",
        "fr" | "pt" => "other",
        "ja" | "zh" | "tr" | "fa" => "other",
        _ if n == 1 => "one",
        _ => "other",
    }
}

/// `&`, `<`, `>` and `"` as entities: a plain text as a template would hold it literally.
pub fn escape_text(s: &str) -> String {
    if !s.contains(['&', '<', '>', '"']) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

impl Locale {
    /// The text at `key`, by `count` for a plural one; an error names the key.
    pub fn lookup(&self, key: &str, count: Option<i64>) -> Result<&str, String> {
        match self.texts.get(key) {
            Some(Text::Plain(s)) => Ok(s),
            Some(Text::Plural(forms)) => {
                let category = plural_category(&self.code, count.unwrap_or(0));
                Ok(forms
                    .get(category)
                    .or_else(|| forms.get("other"))
                    .map_or("", |s| s))
            }
            Some(Text::List(_)) => Err(format!("the theme's text `{key}` is a list")),
            None => Err(format!(
                "the theme has no text `{key}` for `{}` (themes/…/i18n/{}.yaml)",
                self.code, self.code
            )),
        }
    }

    /// The list of texts at `key`.
    pub fn list(&self, key: &str) -> &[String] {
        match self.texts.get(key) {
            Some(Text::List(items)) => items,
            _ => &[],
        }
    }

    /// The plain text at `key` ([`Locale::lookup`] without a count); the key itself when the
    /// theme has no such text (loading checked that the default language has every key the
    /// generator uses).
    pub fn text<'a>(&'a self, key: &'a str) -> &'a str {
        self.lookup(key, None).unwrap_or(key)
    }

    /// The text at `key` for `n` of something, with `{n}` replaced by it.
    pub fn count(&self, key: &str, n: i64) -> String {
        self.lookup(key, Some(n))
            .unwrap_or(key)
            .replace("{n}", &n.to_string())
    }

    /// The text at `key` with each `{name}` replaced by its value.
    pub fn format(&self, key: &str, args: &[(&str, &str)]) -> String {
        let mut text = self.text(key).to_string();
        for (name, value) in args {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }

    /// A date as the language writes it (`Mar 01, 2026`; `1 مارس 2026`): `dates.format` with
    /// `{d}`/`{dd}` the day, `{month}`/`{mon}` the month's name (`dates.months`,
    /// `dates.months_short`), `{m}`/`{mm}` its number and `{yyyy}` the year, digits 0-9.
    pub fn date(&self, d: NaiveDate) -> String {
        let month = |key: &str| {
            self.list(key)
                .get(d.month0() as usize)
                .cloned()
                .unwrap_or_else(|| d.month().to_string())
        };
        let format = self.text("dates.format");
        let mut out = String::with_capacity(format.len() + 8);
        let mut rest = format;
        while let Some(i) = rest.find('{') {
            out.push_str(&rest[..i]);
            let Some(j) = rest[i..].find('}') else {
                break;
            };
            match &rest[i + 1..i + j] {
                "d" => out.push_str(&d.day().to_string()),
                "dd" => out.push_str(&format!("{:02}", d.day())),
                "m" => out.push_str(&d.month().to_string()),
                "mm" => out.push_str(&format!("{:02}", d.month())),
                "month" => out.push_str(&month("dates.months")),
                "mon" => out.push_str(&month("dates.months_short")),
                "yyyy" => out.push_str(&d.year().to_string()),
                other => {
                    out.push('{');
                    out.push_str(other);
                    out.push('}');
                }
            }
            rest = &rest[i + j + 1..];
        }
        out.push_str(rest);
        out
    }

    /// The site path of `route` in this language: `/about` → `/ar/about`, `/` → `/ar/`.
    pub fn path(&self, route: &str) -> String {
        format!("{}{route}", self.prefix)
    }

    /// The route of a path of this language: `/ar/about` → `/about`, `/ar/` → `/`.
    pub fn route<'a>(&self, path: &'a str) -> &'a str {
        match path.strip_prefix(self.prefix.as_str()) {
            Some(rest) if !self.prefix.is_empty() && rest.starts_with('/') => rest,
            _ => path,
        }
    }
}

/// Every language's [`Locale`], the default first.
pub type Locales = Vec<Arc<Locale>>;

/// The keys the generator itself looks up (views' labels and dates); the default language must
/// have them all.
pub const USED_BY_THE_GENERATOR: &[&str] = &[
    "dates.format",
    "dates.months",
    "dates.months_short",
    "nav.work_with_me",
    "nav.about",
    "nav.resources",
    "nav.videos",
    "nav.events",
    "nav.contact",
    "nav.client_login",
    "nav.testimonials",
    "nav.faq",
    "nav.terms",
    "nav.privacy_policy",
    "nav.return_policy",
    "nav.delivery_policy",
    "nav.cancellation_policy",
    "nav.home",
    "service.view_pricing",
    "service.view_group_pricing",
    "service.chat_whatsapp",
    "service.visit_partner",
    "article.published",
    "article.updated",
    "article.min_read",
    "events.in_person",
    "events.online",
    "events.hybrid",
    "pricing.session",
    "pricing.sessions",
    "pricing.group_hours",
    "pricing.per_session",
    "pricing.per_hour",
    "about.not_found_title",
];

/// Reads the theme's catalogue of every language of the site; `warnings` gets each text a
/// language lacks (shown in the default language).
pub fn load(
    theme: &Path,
    langs: &Languages,
    warnings: &mut Vec<String>,
) -> Result<Locales, Diagnostic> {
    let dir = theme.join("i18n");
    let rel = |code: &str| format!("themes/{}/i18n/{code}.yaml", theme_name(theme));
    let mut all: Vec<Locale> = Vec::new();
    for (index, code) in langs.all().iter().enumerate() {
        let file = dir.join(format!("{code}.yaml"));
        let text = std::fs::read_to_string(&file).map_err(|e| {
            Diagnostic::new(rel(code), format!("cannot read the theme's texts in `{code}`: {e}"))
                .hint(format!(
                    "the theme needs a file of its texts for every language of settings.yaml: copy {} and translate it",
                    rel(langs.default_code())
                ))
        })?;
        let value: Value = serde_yaml_ng::from_str(&text).map_err(|e| {
            Diagnostic::new(rel(code), format!("not valid YAML: {e}"))
                .hint("check the indentation, and quote texts that hold `:` or `#`")
        })?;
        let mut texts = HashMap::new();
        flatten("", &value, &mut texts).map_err(|m| {
            Diagnostic::new(rel(code), m)
                .hint("see the comment at the top of the default language's file")
        })?;
        let plain = |k: &str| match texts.get(k) {
            Some(Text::Plain(s)) => Some(s.clone()),
            _ => None,
        };
        let name = plain("language.name").unwrap_or_else(|| code.clone());
        let dir = plain("language.dir").unwrap_or_else(|| "ltr".into());
        if dir != "ltr" && dir != "rtl" {
            return Err(
                Diagnostic::new(rel(code), format!("`language.dir` is `{dir}`"))
                    .field("language.dir")
                    .hint("write ltr (left to right) or rtl (right to left)"),
            );
        }
        let og_locale = plain("language.og_locale").unwrap_or_else(|| code.clone());
        let fonts = match texts.get("language.fonts") {
            Some(Text::List(f)) => f.clone(),
            _ => Vec::new(),
        };
        all.push(Locale {
            code: code.clone(),
            index,
            prefix: if index == 0 {
                String::new()
            } else {
                format!("/{code}")
            },
            name,
            dir,
            og_locale,
            fonts,
            texts,
        });
    }
    for key in USED_BY_THE_GENERATOR {
        if !all[0].texts.contains_key(*key) {
            return Err(Diagnostic::new(
                rel(langs.default_code()),
                format!("the text `{key}` is missing"),
            )
            .field(*key)
            .hint("the generator shows it: add it"));
        }
    }
    // The other languages fall back to the default's texts, with a warning each.
    let (default, others) = all.split_at_mut(1);
    for locale in others {
        let mut missing: Vec<&String> = default[0]
            .texts
            .keys()
            .filter(|k| !k.starts_with("language.") && !locale.texts.contains_key(*k))
            .collect();
        missing.sort();
        for key in missing {
            warnings.push(format!(
                "{} {key}: no {} ({}) text in the theme: the {} one is shown",
                rel(&locale.code),
                content_model::i18n::english_name(&locale.code),
                locale.code,
                content_model::i18n::english_name(&default[0].code),
            ));
            locale
                .texts
                .insert(key.clone(), default[0].texts[key].clone());
        }
    }
    Ok(all.into_iter().map(Arc::new).collect())
}

/// The default theme's English texts, for unit tests of the views.
#[cfg(test)]
pub fn english() -> Locale {
    let theme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../themes/default");
    let mut all = load(&theme, &Languages::default(), &mut Vec::new()).unwrap();
    Arc::try_unwrap(all.remove(0)).unwrap()
}

fn theme_name(theme: &Path) -> String {
    theme
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A Tera argument as text: strings as they are, numbers and booleans as Tera prints them.
fn arg_text(v: &tera::Value) -> String {
    match v {
        tera::Value::String(s) => s.clone(),
        tera::Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The templates' `t(key="…", count=…, name=…)`: a text of the page's language, ready to print
/// (`{{ t(key="nav.about") }}`): a plain text with `&`, `<`, `>` and `"` as entities, an
/// `_html` one as it is; each `{name}` replaced by its argument, escaped as `{{ }}` escapes.
/// `text(…)` is the same text unescaped, as a value to give a macro or a filter.
pub struct TextFn {
    pub locale: Arc<Locale>,
    /// `t` (ready to print, not escaped again) rather than `text`.
    pub html: bool,
}

impl Function for TextFn {
    fn call(&self, args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
        let key = args
            .get("key")
            .and_then(tera::Value::as_str)
            .ok_or_else(|| tera::Error::msg("`t` and `text` need key=\"…\""))?;
        let count = args.get("count").and_then(tera::Value::as_i64);
        let text = self.locale.lookup(key, count).map_err(tera::Error::msg)?;
        let mut out = if self.html && !key.ends_with("_html") {
            escape_text(text)
        } else {
            text.to_string()
        };
        if out.contains('{') {
            if let (Some(n), false) = (args.get("count"), args.contains_key("n")) {
                out = out.replace("{n}", &arg_text(n));
            }
            for (name, value) in args.iter().filter(|(k, _)| k.as_str() != "key") {
                let value = arg_text(value);
                let value = if self.html {
                    tera::escape_html(&value)
                } else {
                    value
                };
                out = out.replace(&format!("{{{name}}}"), &value);
            }
        }
        Ok(tera::Value::String(out))
    }

    fn is_safe(&self) -> bool {
        self.html
    }
}

/// The templates' `url(path="/contact")`: the address of a page of the site in the page's
/// language (`/ar/contact`), or the default language's when the page is not translated
/// (`missing`: an untranslated about or legal page). Ready to print in an attribute.
pub struct UrlFn {
    pub locale: Arc<Locale>,
    pub missing: Arc<std::collections::HashSet<String>>,
}

impl UrlFn {
    pub fn localize(&self, path: &str) -> String {
        localize(&self.locale, &self.missing, path)
    }
}

/// `path` (a route of the site, maybe with `?query` or `#anchor`) in `locale`'s language,
/// unless the page is in `missing`.
pub fn localize(
    locale: &Locale,
    missing: &std::collections::HashSet<String>,
    path: &str,
) -> String {
    let route = path.split(['?', '#']).next().unwrap_or(path);
    if locale.prefix.is_empty() || !path.starts_with('/') || missing.contains(route) {
        path.to_string()
    } else {
        locale.path(path)
    }
}

impl Function for UrlFn {
    fn call(&self, args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
        let path = args
            .get("path")
            .and_then(tera::Value::as_str)
            .ok_or_else(|| tera::Error::msg("`url` needs path=\"/…\""))?;
        Ok(tera::Value::String(escape_text(&self.localize(path))))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locale(code: &str, yaml: &str) -> Locale {
        let mut texts = HashMap::new();
        flatten("", &serde_yaml_ng::from_str(yaml).unwrap(), &mut texts).unwrap();
        Locale {
            code: code.into(),
            index: 1,
            prefix: format!("/{code}"),
            name: code.into(),
            dir: "rtl".into(),
            og_locale: "ar_EG".into(),
            fonts: vec![],
            texts,
        }
    }

    #[test]
    fn dates_use_the_language_s_month_names_and_western_digits() {
        let months = "[يناير, فبراير, مارس, أبريل, مايو, يونيو, يوليو, أغسطس, سبتمبر, أكتوبر, نوفمبر, ديسمبر]";
        let ar = locale(
            "ar",
            &format!("dates: {{format: '{{d}} {{month}} {{yyyy}}', months: {months}}}"),
        );
        assert_eq!(
            ar.date(NaiveDate::from_ymd_opt(2026, 3, 1).unwrap()),
            "1 مارس 2026"
        );
        let en = locale(
            "en",
            "dates: {format: '{mon} {dd}, {yyyy}', months_short: [Jan, Feb, Mar, Apr, May, Jun, Jul, Aug, Sep, Oct, Nov, Dec]}",
        );
        let d = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
        assert_eq!(en.date(d), d.format("%b %d, %Y").to_string());
    }

    #[test]
    fn plurals_follow_the_language_s_categories() {
        let ar = locale(
            "ar",
            "m: {one: 'شهر واحد', two: 'شهران', few: '{n} أشهر', many: '{n} شهرًا', other: '{n} شهر'}",
        );
        assert_eq!(ar.count("m", 1), "شهر واحد");
        assert_eq!(ar.count("m", 2), "شهران");
        assert_eq!(ar.count("m", 6), "6 أشهر");
        assert_eq!(ar.count("m", 12), "12 شهرًا");
        assert_eq!(plural_category("en", 1), "one");
        assert_eq!(plural_category("en", 5), "other");
    }

    #[test]
    fn t_escapes_plain_texts_and_arguments_as_templates_do() {
        let l = Arc::new(locale(
            "en",
            "a: \"Events & Workshops\"\nb_html: \"A &middot; <b>B</b>\"\nc: \"Photos from {title}\"\n",
        ));
        let t = TextFn {
            locale: l.clone(),
            html: true,
        };
        let call = |f: &TextFn, key: &str, extra: Option<(&str, &str)>| {
            let mut args = HashMap::from([("key".to_string(), tera::Value::from(key))]);
            if let Some((k, v)) = extra {
                args.insert(k.into(), tera::Value::from(v));
            }
            f.call(&args).unwrap().as_str().unwrap().to_string()
        };
        assert_eq!(call(&t, "a", None), "Events &amp; Workshops");
        assert_eq!(call(&t, "b_html", None), "A &middot; <b>B</b>");
        assert_eq!(
            call(&t, "c", Some(("title", "A/B"))),
            "Photos from A&#x2F;B"
        );
        let text = TextFn {
            locale: l,
            html: false,
        };
        assert_eq!(call(&text, "a", None), "Events & Workshops");
    }

    #[test]
    fn urls_stay_in_the_page_s_language_unless_the_page_is_not_translated() {
        let l = Arc::new(locale("ar", "x: y"));
        let missing = std::collections::HashSet::from(["/delivery-policy".to_string()]);
        assert_eq!(localize(&l, &missing, "/contact"), "/ar/contact");
        assert_eq!(localize(&l, &missing, "/"), "/ar/");
        assert_eq!(
            localize(&l, &missing, "/delivery-policy"),
            "/delivery-policy"
        );
        assert_eq!(localize(&l, &missing, "https://x.com/a"), "https://x.com/a");
        assert_eq!(l.route("/ar/about"), "/about");
        assert_eq!(l.route("/ar/"), "/");
    }
}
