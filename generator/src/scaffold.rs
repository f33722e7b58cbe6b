//! `site new <kind> "Title"`: a new content file with every front-matter field filled in; with
//! `--lang <code>`, the translation of an existing one (`site new service coaching-session
//! --lang ar` writes `content/services/coaching-session.ar.md`).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use chrono::NaiveDate;

use crate::markdown::slugify;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    Blog,
    Resource,
    Service,
    Event,
    /// `pages/about.md` (translations only: `site new page about --lang ar`).
    Page,
    /// `legal/<name>.md` (translations only: `site new legal terms --lang ar`).
    Legal,
}

impl Kind {
    /// The folder under `content/`.
    fn dir(self) -> &'static str {
        match self {
            Kind::Blog => "blog",
            Kind::Resource => "resources",
            Kind::Service => "services",
            Kind::Event => "events",
            Kind::Page => "pages",
            Kind::Legal => "legal",
        }
    }

    /// The texts of its front matter (the fields a translation gives).
    fn texts(self) -> &'static [&'static str] {
        use content_model::i18n::Texts;
        use content_model::model::*;
        match self {
            Kind::Blog => BlogPostMeta::TEXTS,
            Kind::Resource => ResourceMeta::TEXTS,
            Kind::Service => ServiceMeta::TEXTS,
            Kind::Event => EventMeta::TEXTS,
            Kind::Page => AboutMeta::TEXTS,
            Kind::Legal => LegalMeta::TEXTS,
        }
    }
}

fn yaml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// Writes the file and returns its path; never overwrites.
pub fn new_content(
    root: &Path,
    kind: Kind,
    title: &str,
    today: NaiveDate,
) -> anyhow::Result<PathBuf> {
    let slug = slugify(title);
    if slug.is_empty() {
        bail!("the title `{title}` has no letters or digits to make a file name from");
    }
    let (dir, front, body) = match kind {
        Kind::Page | Kind::Legal => bail!(
            "the about page and the legal pages already exist: edit them, or write a translation with --lang"
        ),
        Kind::Blog => (
            "blog",
            format!(
                "title: {t}\nexcerpt: \"One or two sentences for the card on /resources.\"\ncategory: Leadership\ntags: [leadership]\nfeatured_image_url: null\nmeta_description: \"What a search result should say about this post.\"\nread_time_minutes: null\ncreated_at: {today}\nis_published: false\n",
                t = yaml_string(title)
            ),
            "Write the post here in Markdown.\n\n## A first section\n\nText.\n",
        ),
        Kind::Resource => (
            "resources",
            format!(
                "title: {t}\ndescription: \"What the reader gets from this resource.\"\ncategory: Guides\ntags: [leadership]\nimage_url: null\ndisplay_order: 100\nis_published: false\ncreated_at: {today}\nupdated_at: null\n",
                t = yaml_string(title)
            ),
            "Write the resource here in Markdown.\n",
        ),
        Kind::Service => (
            "services",
            format!(
                "title: {t}\nshort_description: \"One sentence for the service card.\"\nduration: \"3 months\"\nprice: \"On request\"\nfeatures:\n  - \"What is included\"\nbenefits:\n  - \"What the client gains\"\nimage_url: null\npartner_url: null\npartner_label: null\nis_featured: false\nis_active: false\ndisplay_order: 100\nmeta_description: null\n",
                t = yaml_string(title)
            ),
            "## Overview\n\nDescribe the service here.\n",
        ),
        Kind::Event => (
            "events",
            format!(
                "title: {t}\nevent_date: {today}\nevent_time: \"18:00\"\nlocation: \"Cairo\"\nlocation_type: in_person\nmax_participants: 20\nphotos: []\nregistration_url: null\nis_featured: false\nis_published: false\n",
                t = yaml_string(title)
            ),
            "Describe the event here.\n",
        ),
    };
    let path = root.join("content").join(dir).join(format!("{slug}.md"));
    if path.exists() {
        bail!(
            "{} already exists; choose another title or edit that file",
            path.display()
        );
    }
    fs::create_dir_all(path.parent().expect("has a parent"))?;
    fs::write(&path, format!("---\n{front}---\n\n{body}"))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// Writes the translation into `lang` of the existing entry `name` (its slug, or its title) of
/// `kind`: `content/<dir>/<slug>.<lang>.md`, with the original's texts to translate (its other
/// fields come from the original) and its body. Never overwrites; `lang` must be one of the
/// site's other languages.
pub fn new_translation(root: &Path, kind: Kind, name: &str, lang: &str) -> anyhow::Result<PathBuf> {
    use content_model::i18n::{self, Languages};
    use serde_yaml_ng::{Mapping, Value};

    let settings = root.join("content/settings.yaml");
    let langs = Languages::of_settings(&fs::read_to_string(&settings).unwrap_or_default());
    if !langs.contains(lang) || langs.default_code() == lang {
        bail!(
            "`{lang}` is not one of the site's other languages: add it to `languages:` in {} (now {:?})",
            settings.display(),
            langs.all()
        );
    }
    let slug = slugify(name);
    let original = root
        .join("content")
        .join(kind.dir())
        .join(format!("{slug}.md"));
    let text = fs::read_to_string(&original).with_context(|| {
        format!(
            "there is no {} to translate (give the slug of an existing file of content/{}/)",
            original.display(),
            kind.dir()
        )
    })?;
    let path = root
        .join("content")
        .join(kind.dir())
        .join(format!("{slug}.{lang}.md"));
    if path.exists() {
        bail!("{} already exists: edit it", path.display());
    }
    let fm = content_model::yaml::split_front_matter(&text, &original)
        .map_err(|d| anyhow::anyhow!("{d}"))?;
    let meta = i18n::read_value(fm.yaml).ok_or_else(|| {
        anyhow::anyhow!("{}: the front matter is not valid YAML", original.display())
    })?;
    // The texts only, each in the default language, for the translator to replace.
    let mut texts = Mapping::new();
    if let Value::Mapping(m) = i18n::localize(&meta, langs.default_code(), langs.default_code()) {
        for (k, v) in m {
            let key = k.as_str().unwrap_or_default();
            let is_text = kind
                .texts()
                .iter()
                .any(|t| t.split(['.', '[']).next() == Some(key));
            if is_text && !v.is_null() {
                texts.insert(k, v);
            }
        }
    }
    let yaml = if texts.is_empty() {
        String::new()
    } else {
        serde_yaml_ng::to_string(&Value::Mapping(texts))?
    };
    let rel = original.strip_prefix(root).unwrap_or(&original);
    let front = format!(
        "# The {} ({lang}) translation of {}: translate the texts below (they are still the\n\
         # original's). Every field left out (dates, images, prices, links) comes from the original;\n\
         # `slug: …` would give this translation an address of its own.\n{yaml}",
        i18n::english_name(lang),
        rel.display()
    );
    fs::write(&path, format!("---\n{front}---\n{}", fm.body))
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}
