//! `site new <kind> "Title"`: a new content file with every front-matter field filled in.

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
