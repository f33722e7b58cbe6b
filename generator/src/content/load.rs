//! Reading `content/` into a [`Library`] per language: the folders side by side, then the list
//! files, then the validation and the survey of missing translations; every problem collected.
//!
//! A translation is a Markdown file beside its original, named `<name>.<lang>.md`: its front
//! matter is merged over the original's (the fields it leaves out come from the original) and
//! an optional `slug:` gives it a slug of its own. Settings and list files give their texts as
//! plain strings or by language (`content_model::i18n`), and are read once per language.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use content_model::i18n::{self, Languages, Texts};
use content_model::model::*;
use content_model::yaml;
use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_yaml_ng::Value;

use super::library::{Entry, LEGAL_PAGES, LegalDoc, Library, ListFile};
use super::{validate, walk};
use crate::diagnostics::{Diagnostic, Diagnostics, line_of_key};

/// Reads a file relative to `root`, as a diagnostic on failure.
fn read(root: &Path, rel: &Path) -> Result<String, Diagnostic> {
    fs::read_to_string(root.join(rel)).map_err(|e| {
        Diagnostic::new(rel, format!("cannot read the file: {e}"))
            .hint("check that it exists and is UTF-8 text")
    })
}

/// Reads a Markdown file relative to `root` as bytes, to be checked by [`utf8`]: the standard
/// check of non-ASCII text (Arabic) was a tenth of loading a translated site, the SIMD one is a
/// fraction of that.
fn read_bytes(root: &Path, rel: &Path) -> Result<Vec<u8>, Diagnostic> {
    fs::read(root.join(rel)).map_err(|e| {
        Diagnostic::new(rel, format!("cannot read the file: {e}"))
            .hint("check that it exists and is UTF-8 text")
    })
}

/// The text of a file read by [`read_bytes`], or the problem naming it.
fn utf8<'a>(bytes: &'a [u8], rel: &Path) -> Result<&'a str, Diagnostic> {
    simdutf8::basic::from_utf8(bytes).map_err(|_| {
        let e = std::str::from_utf8(bytes)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        Diagnostic::new(
            rel,
            format!("cannot read the file: stream did not contain valid UTF-8 ({e})"),
        )
        .hint("check that it exists and is UTF-8 text")
    })
}

/// A Markdown file's slug, and the language of a translation:
/// `services/coaching-session.ar.md` → (`coaching-session`, `Some("ar")`).
pub fn file_name(rel: &Path) -> (&str, Option<&str>) {
    let stem = rel.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    match stem.rsplit_once('.') {
        Some((base, lang)) if i18n::is_language_code(lang) => (base, Some(lang)),
        _ => (stem, None),
    }
}

/// `content/blog/x.md` → `content/blog/x.ar.md`.
pub fn translation_path(original: &Path, lang: &str) -> PathBuf {
    let (base, _) = file_name(original);
    original.with_file_name(format!("{base}.{lang}.md"))
}

/// `content/blog/x.ar.md` → `content/blog/x.md`.
pub fn original_path(translation: &Path) -> PathBuf {
    let (base, _) = file_name(translation);
    translation.with_file_name(format!("{base}.md"))
}

/// Parses one Markdown file with front matter, in the site's default language `lang`.
pub(super) fn load_entry<M: DeserializeOwned>(
    root: &Path,
    rel: &Path,
    lang: &str,
) -> Result<Entry<M>, Diagnostic> {
    let bytes = read_bytes(root, rel)?;
    let fm = yaml::split_front_matter(utf8(&bytes, rel)?, rel)?;
    let meta = yaml::parse_in::<M>(fm.yaml, rel, 1, lang, lang)?;
    let slug = file_name(rel).0.to_string();
    Ok(Entry {
        slug,
        source: rel.to_path_buf(),
        meta,
        body: fm.body.to_string(),
        yaml: fm.yaml.to_string(),
        translation_of: None,
    })
}

/// A translation as loaded: the entry, and the texts of its original it leaves untranslated.
pub(super) struct LoadedTranslation<M> {
    pub(super) entry: Entry<M>,
    /// Field paths (`features`, `body`) the original has and the translation does not give.
    pub(super) missing: Vec<String>,
}

/// Parses the translation `rel` into `lang` of `original`: its front matter merged over the
/// original's, its own slug if it gives one, the original's body if it has none.
pub(super) fn load_translation<M: DeserializeOwned + Serialize + Texts>(
    root: &Path,
    rel: &Path,
    original: &Entry<M>,
    lang: &str,
    default: &str,
) -> Result<LoadedTranslation<M>, Diagnostic> {
    let bytes = read_bytes(root, rel)?;
    let fm = yaml::split_front_matter(utf8(&bytes, rel)?, rel)?;
    let body = |missing: &mut Vec<String>| {
        if fm.body.trim().is_empty() {
            if !original.body.trim().is_empty() {
                missing.push("body".into());
            }
            original.body.clone()
        } else {
            fm.body.to_string()
        }
    };
    let entry = |slug: Option<String>, meta: M, body: String| Entry {
        slug: slug.unwrap_or_else(|| original.slug.clone()),
        source: rel.to_path_buf(),
        meta,
        body,
        yaml: fm.yaml.to_string(),
        translation_of: Some(original.source.clone()),
    };
    // The quick way: the original as read (its typed front matter as a value) rather than its
    // text read again; when it gives texts by language, or on an error (which the way below
    // reports with the translation's own lines), the texts themselves.
    if !i18n::may_have_language_maps(&original.yaml)
        && let Some(quick) = quick_translation(original, fm.yaml, lang, default)
    {
        let (slug, meta, mut missing) = quick;
        let body = body(&mut missing);
        return Ok(LoadedTranslation {
            entry: entry(slug, meta, body),
            missing,
        });
    }
    let Some(mut own) = i18n::read_value(fm.yaml) else {
        // Not valid YAML: the plain reader says where.
        return Err(yaml::parse_plain::<Value>(fm.yaml, rel, 1).unwrap_err());
    };
    let slug = match own.as_mapping_mut().and_then(|m| m.remove("slug")) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => {
            return Err(Diagnostic::new(rel, "`slug` must be text")
                .field("slug")
                .line(line_of_key(fm.yaml, "slug", 1))
                .hint("write the translation's own slug, e.g. slug: my-post, or leave it out to keep the original's"));
        }
    };
    let theirs = i18n::read_value(&original.yaml).unwrap_or(Value::Null);
    let merged = i18n::merge(&theirs, &own);
    let meta: M = yaml::from_value(i18n::localize(&merged, lang, default), fm.yaml, rel, 1)?;
    let mut missing = untranslated::<M>(&theirs, &own, lang);
    let body = body(&mut missing);
    Ok(LoadedTranslation {
        entry: entry(slug, meta, body),
        missing,
    })
}

/// [`load_translation`]'s quick way: the translation's front matter `own` merged over the
/// original's typed one, or `None` to take the long way. Gives the slug, the front matter and
/// the texts left untranslated.
fn quick_translation<M: DeserializeOwned + Serialize + Texts>(
    original: &Entry<M>,
    own: &str,
    lang: &str,
    default: &str,
) -> Option<(Option<String>, M, Vec<String>)> {
    let mut own = i18n::read_value(own)?;
    let slug = match own.as_mapping_mut()?.remove("slug") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => return None,
    };
    let theirs = serde_yaml_ng::to_value(&original.meta).ok()?;
    let merged = i18n::merge(&theirs, &own);
    let meta = serde_yaml_ng::from_value(i18n::localize(&merged, lang, default)).ok()?;
    let missing = untranslated::<M>(&theirs, &own, lang);
    Some((slug, meta, missing))
}

/// The texts of `M` the original `theirs` gives and the translation `own` does not (nor the
/// original by language).
fn untranslated<M: Texts>(theirs: &Value, own: &Value, lang: &str) -> Vec<String> {
    let mut missing: Vec<String> = M::TEXTS
        .iter()
        .map(|path| path.split("[]").next().unwrap_or(path))
        .filter(|path| {
            provides(theirs, path, None)
                && !provides(own, path, None)
                && !provides(theirs, path, Some(lang))
        })
        .map(str::to_string)
        .collect();
    missing.dedup();
    missing
}

/// Whether `value` has a text at the dotted `path`; with `lang`, only one given in that
/// language of a language map.
fn provides(value: &Value, path: &str, lang: Option<&str>) -> bool {
    let mut v = value;
    for key in path.split('.') {
        match v.get(key) {
            Some(next) => v = next,
            None => return false,
        }
    }
    let given = |v: &Value| match v {
        Value::Null => false,
        Value::String(s) => !s.trim().is_empty(),
        Value::Sequence(s) => !s.is_empty(),
        _ => true,
    };
    match (v, lang) {
        (Value::Mapping(m), Some(lang)) if i18n::is_language_map(m) => {
            m.get(lang).is_some_and(given)
        }
        (_, Some(_)) => false,
        (v, None) => given(v),
    }
}

/// A text a language lacks, as `site check` reports it.
#[derive(Debug, Clone)]
pub(super) struct Untranslated {
    pub(super) file: PathBuf,
    pub(super) line: Option<usize>,
    /// The field's path, e.g. `packages[1].name`; `None` for a whole missing file.
    pub(super) field: Option<String>,
    pub(super) lang: String,
    pub(super) message: String,
}

impl Untranslated {
    /// `content/packages.yaml:14 packages[1].name: no Arabic (ar) text`
    fn warning(&self) -> String {
        let mut out = self.file.display().to_string();
        if let Some(line) = self.line {
            out.push_str(&format!(":{line}"));
        }
        match &self.field {
            Some(field) => out.push_str(&format!(" {field}: ")),
            None => out.push_str(": "),
        }
        out.push_str(&self.message);
        out
    }

    fn error(&self) -> Diagnostic {
        let mut d = Diagnostic::new(&self.file, self.message.clone())
            .line(self.line)
            .hint(format!(
                "translate it: `{}` is in settings.yaml's required_translations",
                self.lang
            ));
        if let Some(field) = &self.field {
            d = d.field(field.clone());
        }
        d
    }
}

/// `no Arabic (ar) text`
fn no_text(lang: &str) -> String {
    format!("no {} ({lang}) text", i18n::english_name(lang))
}

/// What loading collects from every thread: problems, warnings, missing translations.
#[derive(Default)]
struct Collected {
    errors: Mutex<Diagnostics>,
    warnings: Mutex<Vec<String>>,
    untranslated: Mutex<Vec<Untranslated>>,
    /// Translations into languages the site does not have, by language: not published.
    unused: Mutex<BTreeMap<String, usize>>,
}

impl Collected {
    fn error(&self, d: Diagnostic) {
        self.errors.lock().unwrap().push(d);
    }

    fn untranslated(&self, u: Untranslated) {
        self.untranslated.lock().unwrap().push(u);
    }
}

/// One kind of Markdown entry in every language.
struct Translated<M> {
    originals: Vec<Entry<M>>,
    /// One list per other language, sorted by file.
    translations: Vec<Vec<Entry<M>>>,
}

/// Reports the originals of `originals` that have no translation into the other languages.
fn report_untranslated<M>(
    originals: &[Entry<M>],
    translations: &[Vec<Entry<M>>],
    langs: &Languages,
    c: &Collected,
) {
    for (lang, translated) in langs.others().iter().zip(translations) {
        let done: std::collections::HashSet<&Path> = translated
            .iter()
            .filter_map(|e| e.translation_of.as_deref())
            .collect();
        for e in originals
            .iter()
            .filter(|e| !done.contains(e.source.as_path()))
        {
            c.untranslated(Untranslated {
                file: e.source.clone(),
                line: None,
                field: None,
                lang: lang.clone(),
                message: format!(
                    "no {} ({lang}) translation: create {}",
                    i18n::english_name(lang),
                    translation_path(&e.source, lang).display()
                ),
            });
        }
    }
}

/// Loads a translation of `originals` (by slug), reporting what it leaves untranslated.
fn translate<M: DeserializeOwned + Serialize + Texts>(
    root: &Path,
    rel: &Path,
    lang: &str,
    originals: &HashMap<&str, &Entry<M>>,
    langs: &Languages,
    c: &Collected,
) -> Option<Entry<M>> {
    let Some(original) = originals.get(file_name(rel).0) else {
        c.error(
            Diagnostic::new(
                rel,
                format!(
                    "a translation without an original: there is no {}",
                    original_path(rel).display()
                ),
            )
            .hint("name the translation after its original (`<name>.<lang>.md` beside `<name>.md`), or add the original"),
        );
        return None;
    };
    match load_translation::<M>(root, rel, original, lang, langs.default_code()) {
        Ok(t) => {
            for field in t.missing {
                c.untranslated(Untranslated {
                    file: rel.to_path_buf(),
                    line: None,
                    field: Some(field),
                    lang: lang.to_string(),
                    message: no_text(lang),
                });
            }
            Some(t.entry)
        }
        Err(d) => {
            c.error(d);
            None
        }
    }
}

/// Loads a folder of Markdown entries and their translations in parallel, collecting every
/// error.
fn load_dir<M: DeserializeOwned + Serialize + Texts + Send + Sync>(
    root: &Path,
    dir: &str,
    langs: &Languages,
    c: &Collected,
) -> Translated<M> {
    let found = walk::markdown_files(root, dir);
    c.errors.lock().unwrap().extend(found.problems);
    c.warnings.lock().unwrap().extend(found.warnings);
    let (originals, translated): (Vec<&PathBuf>, Vec<&PathBuf>) = found
        .files
        .iter()
        .partition(|rel| file_name(rel).1.is_none());
    let default = langs.default_code();
    let results: Vec<_> = originals
        .par_iter()
        .map(|rel| load_entry::<M>(root, rel, default))
        .collect();
    let mut entries = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Ok(e) => entries.push(e),
            Err(d) => c.error(d),
        }
    }
    let by_slug: HashMap<&str, &Entry<M>> = entries.iter().map(|e| (e.slug.as_str(), e)).collect();
    let loaded: Vec<(usize, Entry<M>)> = translated
        .par_iter()
        .filter_map(|rel| {
            let lang = file_name(rel).1.unwrap_or_default();
            match langs.index(lang) {
                None => {
                    *c.unused
                        .lock()
                        .unwrap()
                        .entry(lang.to_string())
                        .or_default() += 1;
                    None
                }
                Some(0) => {
                    c.error(
                        Diagnostic::new(rel, format!("`{lang}` is the site's default language"))
                            .hint(format!(
                                "the default language's text belongs in {}",
                                original_path(rel).display()
                            )),
                    );
                    None
                }
                Some(i) => translate(root, rel, lang, &by_slug, langs, c).map(|e| (i - 1, e)),
            }
        })
        .collect();
    let mut translations: Vec<Vec<Entry<M>>> = langs.others().iter().map(|_| Vec::new()).collect();
    for (i, e) in loaded {
        translations[i].push(e);
    }
    report_untranslated(&entries, &translations, langs, c);
    Translated {
        originals: entries,
        translations,
    }
}

/// `content/pages/about.md` and its translations, when there is one.
fn load_about(root: &Path, langs: &Languages, c: &Collected) -> Translated<AboutMeta> {
    let rel = PathBuf::from("content/pages/about.md");
    let none = || Translated {
        originals: Vec::new(),
        translations: langs.others().iter().map(|_| Vec::new()).collect(),
    };
    if !walk::is_present(&root.join(&rel)) {
        return none();
    }
    let about = match load_entry::<AboutMeta>(root, &rel, langs.default_code()) {
        Ok(a) => a,
        Err(d) => {
            c.error(d);
            return none();
        }
    };
    let by_slug = HashMap::from([(about.slug.as_str(), &about)]);
    let translations: Vec<Vec<Entry<AboutMeta>>> = langs
        .others()
        .iter()
        .map(|lang| {
            let t = translation_path(&rel, lang);
            walk::is_present(&root.join(&t))
                .then(|| translate(root, &t, lang, &by_slug, langs, c))
                .flatten()
                .into_iter()
                .collect::<Vec<_>>()
        })
        .collect();
    report_untranslated(std::slice::from_ref(&about), &translations, langs, c);
    Translated {
        originals: vec![about],
        translations,
    }
}

/// Every legal page, each in every language it is translated into; the default language's
/// carries its Arabic translation when there is one.
fn load_legal(
    root: &Path,
    langs: &Languages,
    c: &Collected,
) -> (Vec<LegalDoc>, Vec<Vec<LegalDoc>>) {
    let default = langs.default_code();
    let mut docs = Vec::new();
    let mut translated: Vec<Vec<LegalDoc>> = langs.others().iter().map(|_| Vec::new()).collect();
    for name in LEGAL_PAGES {
        let rel = PathBuf::from(format!("content/legal/{name}.md"));
        if !walk::is_present(&root.join(&rel)) {
            c.error(
                Diagnostic::new(&rel, format!("the page /{name} has no content")).hint(format!(
                    "create {} with a `title:` front matter",
                    rel.display()
                )),
            );
            continue;
        }
        let doc = match load_entry::<LegalMeta>(root, &rel, default) {
            Ok(d) => d,
            Err(d) => {
                c.error(d);
                continue;
            }
        };
        let by_slug = HashMap::from([(doc.slug.as_str(), &doc)]);
        let in_lang = |lang: &str| {
            let t = translation_path(&rel, lang);
            walk::is_present(&root.join(&t))
                .then(|| translate(root, &t, lang, &by_slug, langs, c))
                .flatten()
        };
        let mut arabic = None;
        let mut per_lang: Vec<Vec<Entry<LegalMeta>>> = Vec::new();
        for lang in langs.others() {
            let t = in_lang(lang);
            if lang == "ar" {
                arabic = t.clone();
            }
            per_lang.push(t.into_iter().collect());
        }
        // The Arabic text at the end of the page, even on a site that is not in Arabic.
        if default != "ar" && !langs.contains("ar") {
            arabic = in_lang("ar");
        }
        report_untranslated(std::slice::from_ref(&doc), &per_lang, langs, c);
        for (i, t) in per_lang.into_iter().enumerate() {
            translated[i].extend(t.into_iter().map(|doc| LegalDoc {
                name: name.to_string(),
                doc,
                arabic: None,
            }));
        }
        docs.push(LegalDoc {
            name: name.to_string(),
            doc,
            arabic,
        });
    }
    (docs, translated)
}

/// The settings in every language, or `None` with their problem collected.
fn load_settings(root: &Path, c: &Collected) -> Option<(Languages, Vec<Settings>)> {
    let rel = PathBuf::from("content/settings.yaml");
    let text = read(root, &rel).map_err(|d| c.error(d)).ok()?;
    let mut langs = Languages::of_settings(&text);
    let default = langs.default_code().to_string();
    let settings = yaml::parse_in::<Settings>(&text, &rel, 0, &default, &default)
        .map_err(|d| c.error(d))
        .ok()?;
    let problems = language_problems(&settings);
    if !problems.is_empty() {
        for (field, message, hint) in problems {
            c.error(
                Diagnostic::new(&rel, message)
                    .field(field)
                    .line(line_of_key(&text, field, 0))
                    .hint(hint),
            );
        }
        langs = Languages::default();
    }
    let mut all = vec![settings];
    for lang in langs.others() {
        all.push(
            yaml::parse_in::<Settings>(&text, &rel, 0, lang, &default)
                .map_err(|d| c.error(d))
                .ok()?,
        );
    }
    survey::<Settings>(&text, &rel, "", &langs, c);
    Some((langs, all))
}

/// What is wrong with `languages` and `required_translations`: `(field, message, fix)`.
fn language_problems(s: &Settings) -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    for (i, code) in s.languages.iter().enumerate() {
        if !i18n::is_language_code(code) {
            out.push((
                "languages",
                format!("`{code}` is not a language code"),
                "use two or three lower-case letters (BCP 47), e.g. [en, ar]".to_string(),
            ));
        } else if s.languages[..i].contains(code) {
            out.push((
                "languages",
                format!("`{code}` is listed twice"),
                "list each language once, the default first".to_string(),
            ));
        }
    }
    let langs = Languages::new(s.languages.clone());
    for code in &s.required_translations {
        if !langs.contains(code) || langs.default_code() == code {
            out.push((
                "required_translations",
                format!("`{code}` is not one of the other languages in `languages`"),
                format!(
                    "name languages of `languages` other than the default ({})",
                    langs.default_code()
                ),
            ));
        }
    }
    out
}

/// Reports the texts of the YAML document `text` that a language lacks, and the maps by
/// language where no text is. `name` prefixes a list file's paths (`packages[1].name`).
fn survey<T: Texts>(text: &str, rel: &Path, name: &str, langs: &Languages, c: &Collected) {
    if !langs.is_multilingual() && !i18n::may_have_language_maps(text) {
        return;
    }
    let Some(value) = i18n::read_value(text) else {
        return;
    };
    let found = i18n::survey(&value, T::TEXTS, T::NAMES, langs);
    for path in found.misplaced {
        c.error(
            Diagnostic::new(rel, "this value is never translated: it is the same in every language")
                .field(format!("{name}{path}"))
                .line(i18n::line_of(text, &path))
                .hint("write one value instead of one per language (only texts people read are translated)"),
        );
    }
    for (path, lang) in found.untranslated {
        c.untranslated(Untranslated {
            file: rel.to_path_buf(),
            line: i18n::line_of(text, &path),
            field: Some(format!("{name}{path}")),
            message: no_text(&lang),
            lang,
        });
    }
}

/// `content/<name>.yaml` in every language (a missing file is an empty list), or empty lists
/// with its problem collected.
fn load_list<T: DeserializeOwned + Texts + Clone>(
    root: &Path,
    name: &str,
    langs: &Languages,
    c: &Collected,
) -> Vec<ListFile<T>> {
    let rel = PathBuf::from(format!("content/{name}.yaml"));
    let n = langs.all().len();
    let empty = |rel: &PathBuf| {
        (0..n)
            .map(|_| ListFile {
                source: rel.clone(),
                ..Default::default()
            })
            .collect()
    };
    if !walk::is_present(&root.join(&rel)) {
        return empty(&rel);
    }
    let text = match read(root, &rel) {
        Ok(t) => t,
        Err(d) => {
            c.error(d);
            return empty(&rel);
        }
    };
    let default = langs.default_code();
    let mut out = Vec::with_capacity(n);
    for lang in langs.all() {
        match yaml::parse_in::<Vec<T>>(&text, &rel, 0, lang, default) {
            Ok(items) => out.push(ListFile {
                source: rel.clone(),
                items,
                text: text.clone(),
            }),
            Err(d) => {
                c.error(d);
                return empty(&rel);
            }
        }
        if !i18n::may_have_language_maps(&text) {
            // The same items in every language: read once.
            let first = out[0].clone();
            out.resize(n, first);
            break;
        }
    }
    survey::<T>(&text, &rel, name, langs, c);
    out
}

/// The Markdown folders of `content/` in every language, as [`Folders::load`] reads them.
struct Folders {
    services: Translated<ServiceMeta>,
    resources: Translated<ResourceMeta>,
    blog: Translated<BlogPostMeta>,
    events: Translated<EventMeta>,
    about: Translated<AboutMeta>,
    legal: (Vec<LegalDoc>, Vec<Vec<LegalDoc>>),
}

impl Folders {
    /// The folders are independent: loads them side by side.
    fn load(root: &Path, langs: &Languages, c: &Collected) -> Folders {
        let ((services, resources), ((blog, events), (about, legal))) = rayon::join(
            || {
                rayon::join(
                    || load_dir::<ServiceMeta>(root, "services", langs, c),
                    || load_dir::<ResourceMeta>(root, "resources", langs, c),
                )
            },
            || {
                rayon::join(
                    || {
                        rayon::join(
                            || load_dir::<BlogPostMeta>(root, "blog", langs, c),
                            || load_dir::<EventMeta>(root, "events", langs, c),
                        )
                    },
                    || rayon::join(|| load_about(root, langs, c), || load_legal(root, langs, c)),
                )
            },
        );
        Folders {
            services,
            resources,
            blog,
            events,
            about,
            legal,
        }
    }
}

/// The YAML list files of `content/` in every language, as [`Lists::load`] reads them.
struct Lists {
    logos: Vec<ListFile<Logo>>,
    testimonials: Vec<ListFile<Testimonial>>,
    videos: Vec<ListFile<Video>>,
    faqs: Vec<ListFile<Faq>>,
    packages: Vec<ListFile<Package>>,
    pages: Vec<ListFile<PageText>>,
}

impl Lists {
    /// Reads the list files one after the other; a broken one is reported and left empty.
    fn load(root: &Path, langs: &Languages, c: &Collected) -> Lists {
        Lists {
            logos: load_list(root, "logos", langs, c),
            testimonials: load_list(root, "testimonials", langs, c),
            videos: load_list(root, "videos", langs, c),
            faqs: load_list(root, "faqs", langs, c),
            packages: load_list(root, "packages", langs, c),
            pages: load_list(root, "pages", langs, c),
        }
    }
}

/// Takes the first item out of `v` (each language's list file is taken in turn).
fn next<T>(v: &mut std::vec::IntoIter<T>) -> T {
    v.next().expect("one per language")
}

impl Library {
    /// Loads and validates the whole of `<root>/content`, in every language of the settings.
    /// Returns every problem found. A text missing in a language is a warning in
    /// [`Library::warnings`], or an error for a language of `required_translations`.
    pub fn load(root: &Path) -> Result<Library, Diagnostics> {
        if !root.join("content").is_dir() {
            let mut d = Diagnostics::default();
            d.push(Diagnostic::new("content", "there is no content folder here").hint(
                "run `site` from the project root, or pass `--root` with the folder that holds content/",
            ));
            return Err(d);
        }
        let c = Collected::default();
        let Some((langs, settings)) = load_settings(root, &c) else {
            // The folders are still read, for their own problems.
            let langs = Languages::default();
            let _ = rayon::join(
                || Folders::load(root, &langs, &c),
                || Lists::load(root, &langs, &c),
            );
            return Err(c.errors.into_inner().unwrap());
        };
        let (folders, lists) = rayon::join(
            || Folders::load(root, &langs, &c),
            || Lists::load(root, &langs, &c),
        );
        let mut library = assemble(root, &langs, settings, folders, lists);
        let mut errors = c.errors.into_inner().unwrap();
        library.warnings = c.warnings.into_inner().unwrap();
        for (lang, n) in c.unused.into_inner().unwrap() {
            library.warnings.push(format!(
                "{n} file{s} translate{v} the content into `{lang}`, which is not in settings.yaml's `languages`: {they} not published",
                s = if n == 1 { "" } else { "s" },
                v = if n == 1 { "s" } else { "" },
                they = if n == 1 { "it is" } else { "they are" },
            ));
        }
        let required = &library.settings.required_translations;
        let mut untranslated = c.untranslated.into_inner().unwrap();
        untranslated.sort_by(|a, b| (&a.file, a.line, &a.field).cmp(&(&b.file, b.line, &b.field)));
        for u in untranslated {
            if required.contains(&u.lang) {
                errors.push(u.error());
            } else {
                library.warnings.push(u.warning());
            }
        }
        errors.extend(validate::validate(&library));
        for t in &library.translations {
            errors.extend(validate::validate_translation(t));
        }
        if errors.is_empty() {
            Ok(library)
        } else {
            Err(errors)
        }
    }
}

/// The default language's library, holding the other languages' in `translations`.
fn assemble(
    root: &Path,
    langs: &Languages,
    settings: Vec<Settings>,
    folders: Folders,
    lists: Lists,
) -> Library {
    let mut settings = settings.into_iter();
    let mut services =
        std::iter::once(folders.services.originals).chain(folders.services.translations);
    let mut resources =
        std::iter::once(folders.resources.originals).chain(folders.resources.translations);
    let mut blog = std::iter::once(folders.blog.originals).chain(folders.blog.translations);
    let mut events = std::iter::once(folders.events.originals).chain(folders.events.translations);
    let mut about = std::iter::once(folders.about.originals).chain(folders.about.translations);
    let mut legal = std::iter::once(folders.legal.0).chain(folders.legal.1);
    let (mut logos, mut testimonials, mut videos) = (
        lists.logos.into_iter(),
        lists.testimonials.into_iter(),
        lists.videos.into_iter(),
    );
    let (mut faqs, mut packages, mut pages) = (
        lists.faqs.into_iter(),
        lists.packages.into_iter(),
        lists.pages.into_iter(),
    );
    let mut all: Vec<Library> = langs
        .all()
        .iter()
        .map(|lang| Library {
            root: root.to_path_buf(),
            lang: lang.clone(),
            languages: langs.clone(),
            translations: Vec::new(),
            warnings: Vec::new(),
            settings: settings.next().expect("settings in every language"),
            services: services.next().unwrap_or_default(),
            resources: resources.next().unwrap_or_default(),
            blog: blog.next().unwrap_or_default(),
            events: events.next().unwrap_or_default(),
            about: about.next().unwrap_or_default().into_iter().next(),
            legal: legal.next().unwrap_or_default(),
            logos: next(&mut logos),
            testimonials: next(&mut testimonials),
            videos: next(&mut videos),
            faqs: next(&mut faqs),
            packages: next(&mut packages),
            pages: next(&mut pages),
        })
        .collect();
    let mut default = all.remove(0);
    default.translations = all;
    default
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A translation's quick way reads the original's typed front matter back from a value:
    /// every type of Markdown front matter must read back as it was.
    #[test]
    fn every_front_matter_reads_back_from_its_value() {
        fn back<M: DeserializeOwned + Serialize>(yaml: &str) {
            let meta: M = yaml::parse(yaml, Path::new("x.md"), 1).unwrap();
            let value = serde_yaml_ng::to_value(&meta).unwrap();
            let again: M = serde_yaml_ng::from_value(value.clone()).unwrap();
            assert_eq!(serde_yaml_ng::to_value(&again).unwrap(), value, "{yaml}");
        }
        back::<BlogPostMeta>(
            "title: A\nexcerpt: B\ncategory: C\ntags: [d]\nread_time_minutes: 4\ncreated_at: 2026-03-01\n",
        );
        back::<ResourceMeta>(
            "title: A\ndescription: B\ncategory: C\ncreated_at: 2026-03-01\nupdated_at: 2026-04-02\n",
        );
        back::<ServiceMeta>(
            "title: A\nshort_description: B\nprice: \"From 4,500 EGP\"\nfeatures: [x]\ndisplay_order: -2\n",
        );
        back::<EventMeta>(
            "title: A\nevent_date: 2026-03-01\nevent_time: \"18:30\"\nlocation: Cairo\nlocation_type: hybrid\nmax_participants: 20\n",
        );
        back::<AboutMeta>(
            "title: A\nhero_title: B\nmeta_description: C\nintro: {title: D, description: E}\nmission: {title: F, content: G}\ncredentials: {title: H, items: [i]}\ncertifications: [{title: J, issuer: K, image_url: /static/x.jpg}]\ncta: {title: L, description: M, button_text: N, button_link: /contact}\ncredential_note: O\n",
        );
        back::<LegalMeta>("title: A\nupdated_at: 2026-01-01\n");
    }
}
