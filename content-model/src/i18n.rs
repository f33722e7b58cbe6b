//! Texts in several languages (issue 21): which languages a site has, and how a YAML text is
//! read in one of them.
//!
//! A text a person reads may be written as a plain string (the default language's text, used
//! for every language until translated) or as a map by language code:
//!
//! ```yaml
//! name:
//!   en: "Momentum Package"
//!   ar: "باقة الانطلاق"
//! ```
//!
//! A list of strings is translated as a whole (a map of language -> list). Reading a document
//! in one language ([`crate::yaml::parse_in`]) first replaces every such map by that language's text (the
//! default language's when it has none), then reads the typed struct as usual: the model's
//! types know nothing of languages. Which fields are texts is each type's [`Texts::TEXTS`];
//! [`survey`] uses it to find the texts a language lacks (`site check` reports them) and the
//! maps written where nothing is ever translated (ids, urls, numbers, dates).

use serde_yaml_ng::{Mapping, Value};

/// The language of a site that says nothing of languages.
pub const DEFAULT_LANGUAGE: &str = "en";

/// A BCP 47 primary language tag as the content uses them: two or three lower-case letters
/// (`en`, `ar`, `fil`).
pub fn is_language_code(s: &str) -> bool {
    (2..=3).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_lowercase())
}

/// The English name of a language, for messages (`no Arabic (ar) text`); the code itself when
/// unknown.
pub fn english_name(code: &str) -> &str {
    match code {
        "ar" => "Arabic",
        "de" => "German",
        "en" => "English",
        "es" => "Spanish",
        "fa" => "Persian",
        "fr" => "French",
        "he" => "Hebrew",
        "hi" => "Hindi",
        "it" => "Italian",
        "ja" => "Japanese",
        "nl" => "Dutch",
        "pt" => "Portuguese",
        "ru" => "Russian",
        "tr" => "Turkish",
        "ur" => "Urdu",
        "zh" => "Chinese",
        other => other,
    }
}

/// The languages of a site (`languages:` in settings.yaml): the first is the default, whose
/// pages are at `/…`; each other one's are at `/<code>/…`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Languages {
    codes: Vec<String>,
}

impl Default for Languages {
    fn default() -> Self {
        Languages {
            codes: vec![DEFAULT_LANGUAGE.to_string()],
        }
    }
}

impl Languages {
    /// The languages in this order; none means English only.
    pub fn new(codes: Vec<String>) -> Languages {
        if codes.is_empty() {
            Languages::default()
        } else {
            Languages { codes }
        }
    }

    /// The default language's code.
    pub fn default_code(&self) -> &str {
        &self.codes[0]
    }

    /// Every language, the default first.
    pub fn all(&self) -> &[String] {
        &self.codes
    }

    /// The languages but the default.
    pub fn others(&self) -> &[String] {
        &self.codes[1..]
    }

    /// More than one language.
    pub fn is_multilingual(&self) -> bool {
        self.codes.len() > 1
    }

    /// Whether `code` is one of them.
    pub fn contains(&self, code: &str) -> bool {
        self.codes.iter().any(|c| c == code)
    }

    /// The position of `code` (0 for the default).
    pub fn index(&self, code: &str) -> Option<usize> {
        self.codes.iter().position(|c| c == code)
    }

    /// The `languages:` list of a settings.yaml text, read before anything else of it (the
    /// rest of the file may hold texts by language). A missing or malformed list is English
    /// only: reading the settings reports the malformed list.
    pub fn of_settings(yaml: &str) -> Languages {
        let codes = serde_yaml_ng::from_str::<Value>(yaml)
            .ok()
            .and_then(|v| v.get("languages").cloned())
            .and_then(|v| serde_yaml_ng::from_value::<Vec<String>>(v).ok())
            .unwrap_or_default();
        Languages::new(codes)
    }
}

/// A mapping whose keys are all language codes: a text given by language.
pub fn is_language_map(m: &Mapping) -> bool {
    !m.is_empty() && m.keys().all(|k| k.as_str().is_some_and(is_language_code))
}

/// Whether `value` holds a language map anywhere.
pub fn has_language_maps(value: &Value) -> bool {
    match value {
        Value::Mapping(m) => is_language_map(m) || m.values().any(has_language_maps),
        Value::Sequence(s) => s.iter().any(has_language_maps),
        Value::Tagged(t) => has_language_maps(&t.value),
        _ => false,
    }
}

/// The text of a language map in `lang`: its own, else the default language's, else the first
/// one written.
fn pick<'a>(m: &'a Mapping, lang: &str, default: &str) -> &'a Value {
    m.get(lang)
        .or_else(|| m.get(default))
        .or_else(|| m.values().next())
        .unwrap_or(&Value::Null)
}

/// `value` in `lang`: every language map replaced by its text in `lang` (falling back to the
/// default language's).
pub fn localize(value: &Value, lang: &str, default: &str) -> Value {
    match value {
        Value::Mapping(m) if is_language_map(m) => localize(pick(m, lang, default), lang, default),
        Value::Mapping(m) => Value::Mapping(
            m.iter()
                .map(|(k, v)| (k.clone(), localize(v, lang, default)))
                .collect(),
        ),
        Value::Sequence(s) => {
            Value::Sequence(s.iter().map(|v| localize(v, lang, default)).collect())
        }
        other => other.clone(),
    }
}

/// A cheap look at a YAML text: could it hold a language map (a key of two or three lower-case
/// letters)? When not, it is read straight into its type, as before languages existed.
pub fn may_have_language_maps(yaml: &str) -> bool {
    let key_at = |s: &str| {
        let end = s.find(|c: char| !c.is_ascii_lowercase()).unwrap_or(s.len());
        (2..=3).contains(&end) && s[end..].starts_with(':')
    };
    yaml.lines().any(|line| {
        let mut t = line.trim_start();
        while let Some(rest) = t.strip_prefix("- ") {
            t = rest.trim_start();
        }
        key_at(t)
            || line
                .match_indices('{')
                .any(|(i, _)| key_at(line[i + 1..].trim_start()))
    })
}

/// A YAML text as a value; an empty document is an empty mapping.
pub fn read_value(yaml: &str) -> Option<Value> {
    if yaml.trim().is_empty() {
        return Some(Value::Mapping(Mapping::new()));
    }
    serde_yaml_ng::from_str(yaml).ok()
}

/// The fields of a type that hold texts a person reads, as dotted paths where `[]` stands for
/// any list index (`hero_section.achievements`, `certifications[].title`). A list file's items
/// use their type's paths.
pub trait Texts {
    const TEXTS: &'static [&'static str];
    /// Proper names (a company, a business's legal name): they may be given by language, but a
    /// plain one is not reported as untranslated (most are written the same in every language).
    const NAMES: &'static [&'static str] = &[];
}

impl<T: Texts> Texts for Vec<T> {
    const TEXTS: &'static [&'static str] = T::TEXTS;
    const NAMES: &'static [&'static str] = T::NAMES;
}

/// What [`survey`] finds in a document.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Survey {
    /// `(path, language)`: a text with nothing in that language, e.g. `[1].name`.
    pub untranslated: Vec<(String, String)>,
    /// A language map where no text is (an id, a url, a number…), by path.
    pub misplaced: Vec<String>,
}

/// `[3].features[0]` → `[].features[]`.
fn shape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push('[');
            }
            ']' => {
                in_index = false;
                out.push(']');
            }
            _ if in_index => {}
            c => out.push(c),
        }
    }
    out
}

/// Whether the field at `path` (any indexes) is one of `texts`, or an item of one that is a
/// list of texts.
fn is_text(texts: &[&str], path: &str) -> bool {
    let shape = shape(path);
    let matches =
        |s: &str| texts.contains(&s) || s.strip_prefix("[].").is_some_and(|r| texts.contains(&r));
    matches(&shape) || shape.strip_suffix("[]").is_some_and(matches)
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Every text of `value` (a document of a type whose texts are `texts` and whose proper names
/// are `names`) that has nothing in one of `langs`, and every language map where there is no
/// text. A name written once is not reported.
pub fn survey(value: &Value, texts: &[&str], names: &[&str], langs: &Languages) -> Survey {
    let mut out = Survey::default();
    walk(value, "", (texts, names), langs, &mut out);
    out
}

fn walk(
    value: &Value,
    path: &str,
    (texts, names): (&[&str], &[&str]),
    langs: &Languages,
    out: &mut Survey,
) {
    let name_here = !path.is_empty() && is_text(names, path);
    let text_here = !path.is_empty() && (is_text(texts, path) || name_here);
    match value {
        Value::Mapping(m) if is_language_map(m) => {
            if !text_here {
                out.misplaced.push(path.to_string());
                return;
            }
            for lang in langs.all() {
                let has = m.get(lang.as_str()).is_some_and(|v| !is_empty(v));
                if !has && !langs.default_code().eq(lang.as_str()) {
                    out.untranslated.push((path.to_string(), lang.clone()));
                }
            }
        }
        Value::Mapping(m) => {
            for (k, v) in m {
                if let Some(k) = k.as_str() {
                    walk(v, &join(path, k), (texts, names), langs, out);
                }
            }
        }
        Value::Sequence(s) if !text_here => {
            for (i, v) in s.iter().enumerate() {
                walk(v, &format!("{path}[{i}]"), (texts, names), langs, out);
            }
        }
        Value::Sequence(s)
            if s.iter()
                .any(|v| matches!(v, Value::Mapping(m) if is_language_map(m))) =>
        {
            // A list of texts translated item by item.
            for (i, v) in s.iter().enumerate() {
                walk(v, &format!("{path}[{i}]"), (texts, names), langs, out);
            }
        }
        v if text_here && !name_here && !is_empty(v) => {
            for lang in langs.others() {
                out.untranslated.push((path.to_string(), lang.clone()));
            }
        }
        _ => {}
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Sequence(s) => s.is_empty(),
        _ => false,
    }
}

/// A translation's front matter over its original's: fields the translation leaves out come
/// from the original; a field it gives replaces the original's (a mapping that is not a
/// language map is merged field by field). The translation's own `slug` is not a field of the
/// original: the caller takes it out first.
pub fn merge(original: &Value, translation: &Value) -> Value {
    match (original, translation) {
        (Value::Mapping(o), Value::Mapping(t)) if !is_language_map(o) && !is_language_map(t) => {
            let mut out = o.clone();
            for (k, v) in t {
                let merged = match o.get(k) {
                    Some(ov) => merge(ov, v),
                    None => v.clone(),
                };
                out.insert(k.clone(), merged);
            }
            Value::Mapping(out)
        }
        (_, t) => t.clone(),
    }
}

/// One step of a field path.
#[derive(Debug, PartialEq, Eq)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn steps(path: &str) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(Step::Key(key));
        }
        for idx in rest.split('[').skip(1) {
            if let Ok(i) = idx.trim_end_matches(']').parse() {
                out.push(Step::Index(i));
            }
        }
    }
    out
}

/// A line of block YAML: where its content starts, the columns of its list dashes, and the key
/// it sets, if any.
struct Line<'a> {
    /// Column of the first character after the indentation (the first dash, or the key).
    start: usize,
    /// Columns of the `- ` markers at the start.
    dashes: Vec<usize>,
    /// Column and name of the key set after them.
    key: Option<(usize, &'a str)>,
    blank: bool,
}

fn read_line(line: &str) -> Line<'_> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let mut col = indent;
    let mut rest = &line[indent..];
    let mut dashes = Vec::new();
    while rest.starts_with("- ") || rest == "-" {
        dashes.push(col);
        let after = rest[1..].trim_start_matches(' ');
        col += rest.len() - after.len();
        rest = after;
    }
    let blank = rest.is_empty() && dashes.is_empty() || rest.starts_with('#') && dashes.is_empty();
    let key = rest.find(':').and_then(|i| {
        let k = rest[..i].trim_matches(|c| c == '"' || c == '\'');
        let ok = !k.is_empty()
            && !k.contains(' ')
            && (rest[i + 1..].is_empty() || rest[i + 1..].starts_with(' '));
        ok.then_some((col, k))
    });
    Line {
        start: indent,
        dashes,
        key,
        blank,
    }
}

/// Which lines belong to the part of the document being searched.
#[derive(Clone, Copy)]
enum Bound {
    /// The whole document.
    Root,
    /// The value of a key at this column: lines further right, or a list's dashes at it.
    UnderKey(usize),
    /// A list item whose dash is at this column: its first line, then lines further right.
    InItem(usize),
}

impl Bound {
    fn holds(self, l: &Line) -> bool {
        match self {
            Bound::Root => true,
            Bound::UnderKey(c) => l.start > c || (l.start == c && !l.dashes.is_empty()),
            Bound::InItem(d) => l.start > d,
        }
    }
}

/// The 1-based line that sets the field at `path` (`hero_section.title`, `[1].name`,
/// `certifications[0].image_url`) in a block-style YAML text: the deepest part of the path
/// found (a list written inline points at its key).
pub fn line_of(yaml: &str, path: &str) -> Option<usize> {
    let lines: Vec<Line> = yaml.lines().map(read_line).collect();
    let mut found: Option<usize> = None;
    let (mut from, mut bound, mut item_line) = (0, Bound::Root, false);
    for step in steps(path) {
        let hit = match step {
            Step::Key(key) => find_key(&lines, from, bound, item_line, key),
            Step::Index(i) if !item_line => find_item(&lines, from, bound, i),
            Step::Index(_) => None,
        };
        let Some((line, col)) = hit else {
            break;
        };
        found = Some(line + 1);
        (from, bound, item_line) = match step {
            Step::Key(_) => (line + 1, Bound::UnderKey(col), false),
            Step::Index(_) => (line, Bound::InItem(col), true),
        };
    }
    found
}

/// The line (index) and column of `key` in the mapping that starts at `from` (on the line of
/// its list item's dash when `item_line`).
fn find_key(
    lines: &[Line],
    from: usize,
    bound: Bound,
    item_line: bool,
    key: &str,
) -> Option<(usize, usize)> {
    let mut level: Option<usize> = None;
    for (i, l) in lines.iter().enumerate().skip(from) {
        if l.blank {
            continue;
        }
        let own_line = i == from && item_line;
        if !own_line && !bound.holds(l) {
            return None;
        }
        let Some((col, k)) = l.key else { continue };
        let level = *level.get_or_insert(col);
        if col < level {
            return None;
        }
        if col == level && k == key {
            return Some((i, col));
        }
    }
    None
}

/// The line (index) and dash column of item `index` of the list that starts at `from`.
fn find_item(lines: &[Line], from: usize, bound: Bound, index: usize) -> Option<(usize, usize)> {
    let mut column: Option<usize> = None;
    let mut n = 0;
    for (i, l) in lines.iter().enumerate().skip(from) {
        if l.blank {
            continue;
        }
        if !bound.holds(l) {
            return None;
        }
        let Some(&dash) = l.dashes.first() else {
            if column.is_some_and(|c| l.start <= c) {
                return None;
            }
            continue;
        };
        let col = *column.get_or_insert(dash);
        if dash < col {
            return None;
        }
        if dash == col {
            if n == index {
                return Some((i, dash));
            }
            n += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn langs() -> Languages {
        Languages::new(vec!["en".into(), "ar".into()])
    }

    #[test]
    fn a_language_map_is_read_in_each_language_with_the_default_as_fallback() {
        let v: Value = serde_yaml_ng::from_str(
            "name: {en: Momentum, ar: انطلاق}\nsessions: 5\nfeatures:\n  en: [a, b]\nid: x\n",
        )
        .unwrap();
        let ar = localize(&v, "ar", "en");
        assert_eq!(ar["name"], Value::from("انطلاق"));
        assert_eq!(ar["features"][1], Value::from("b"));
        assert_eq!(ar["sessions"], Value::from(5));
        let en = localize(&v, "en", "en");
        assert_eq!(en["name"], Value::from("Momentum"));
    }

    #[test]
    fn the_survey_finds_untranslated_texts_and_misplaced_maps() {
        let v: Value = serde_yaml_ng::from_str(
            "- id: a\n  name: Plain\n  features: [x]\n- id: {en: b, ar: c}\n  name: {en: N, ar: ن}\n  features:\n    en: [y]\n",
        )
        .unwrap();
        let s = survey(&v, &["name", "features"], &[], &langs());
        assert_eq!(
            s.untranslated,
            vec![
                ("[0].name".to_string(), "ar".to_string()),
                ("[0].features".to_string(), "ar".to_string()),
                ("[1].features".to_string(), "ar".to_string()),
            ]
        );
        assert_eq!(s.misplaced, vec!["[1].id".to_string()]);
        // English only: nothing is missing.
        assert!(
            survey(&v, &["name", "features"], &[], &Languages::default())
                .untranslated
                .is_empty()
        );
        // A proper name written once is not reported; one given by language is read as a text.
        let s = survey(&v, &["features"], &["name"], &langs());
        assert!(!s.untranslated.iter().any(|(p, _)| p.ends_with("name")));
        assert!(s.misplaced.iter().all(|p| !p.ends_with("name")));
    }

    #[test]
    fn a_translation_is_merged_over_its_original() {
        let o: Value =
            serde_yaml_ng::from_str("title: A\nintro: {title: T, description: D}\nprice: 5\n")
                .unwrap();
        let t: Value = serde_yaml_ng::from_str("title: ب\nintro: {title: ت}\n").unwrap();
        let m = merge(&o, &t);
        assert_eq!(m["title"], Value::from("ب"));
        assert_eq!(m["intro"]["title"], Value::from("ت"));
        assert_eq!(m["intro"]["description"], Value::from("D"));
        assert_eq!(m["price"], Value::from(5));
    }

    #[test]
    fn lines_are_found_by_field_path() {
        let yaml = "# packages\n- id: a\n  name: A\n  features:\n    - x\n    - y\n- id: b\n  name:\n    en: B\n    ar: ب\n";
        assert_eq!(line_of(yaml, "[0].name"), Some(3));
        assert_eq!(line_of(yaml, "[0].features[1]"), Some(6));
        assert_eq!(line_of(yaml, "[1]"), Some(7));
        assert_eq!(line_of(yaml, "[1].id"), Some(7));
        assert_eq!(line_of(yaml, "[1].name"), Some(8));
        let settings = "base_url: x\nhero_section:\n  title: T\n  primary_cta:\n    text: Go\n  achievements:\n  - a\n  - b\ntitle: top\n";
        assert_eq!(line_of(settings, "hero_section.primary_cta.text"), Some(5));
        assert_eq!(line_of(settings, "hero_section.achievements[1]"), Some(8));
        assert_eq!(line_of(settings, "title"), Some(9));
        assert_eq!(line_of(settings, "hero_section.title"), Some(3));
    }

    #[test]
    fn a_quick_look_spots_possible_language_maps() {
        assert!(may_have_language_maps("name:\n  en: A\n"));
        assert!(may_have_language_maps("name: {en: A, ar: B}\n"));
        assert!(may_have_language_maps("- ar: x\n"));
        assert!(!may_have_language_maps(
            "title: A\ntags: [a, b]\ncreated_at: 2024-01-01\n"
        ));
    }
}
