//! Checks that go beyond types: slugs, references to files, URLs, ranges and uniqueness.
//!
//! [`validate`] is the list of checks, in the order their problems are reported: the
//! settings, each kind of Markdown entry (one function per entry, so a translation can be
//! checked as its own entry), the list files, then the titles of `pages.yaml`.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use content_model::model::{
    AboutMeta, BlogPostMeta, Business, EventMeta, MAX_VALIDITY_MONTHS, Package, PackageType,
    ResourceMeta, ServiceMeta, Settings,
};

use super::library::{Entry, Library, ListFile, TEXT_ROUTES};
use crate::diagnostics::{Diagnostic, line_of_key};

/// A slug is what a file name becomes in a URL: lower-case words joined by hyphens.
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// An `http(s)://` address with something after the scheme.
fn is_absolute_url(s: &str) -> bool {
    (s.starts_with("https://") || s.starts_with("http://")) && s.len() > "https://".len()
}

/// A reference to a file under `content/static/` must name an existing file; an absolute
/// URL is taken as is.
fn check_local_file(root: &Path, value: &str) -> Result<(), String> {
    if is_absolute_url(value) {
        return Ok(());
    }
    let Some(rel) = value.strip_prefix("/static/") else {
        return Err(format!(
            "`{value}` is neither a `/static/…` path nor an absolute http(s) URL"
        ));
    };
    if root.join("content/static").join(rel).is_file() {
        Ok(())
    } else {
        Err(format!(
            "`{value}` does not exist (looked for content/static/{rel})"
        ))
    }
}

/// Every check of the library, in the order their problems are reported.
pub fn validate(lib: &Library) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let root = lib.root.as_path();
    check_settings(root, &lib.settings, &mut out);
    for e in &lib.services {
        check_service(root, e, &mut out);
    }
    for e in &lib.resources {
        check_resource(root, e, &mut out);
    }
    for e in &lib.blog {
        check_post(root, e, &mut out);
    }
    for e in &lib.events {
        check_event(root, e, &mut out);
    }
    if let Some(about) = &lib.about {
        check_about(root, about, &mut out);
    }
    check_unique_slugs(&lib.services, "services", &mut out);
    check_unique_slugs(&lib.resources, "resources", &mut out);
    check_unique_slugs(&lib.blog, "blog", &mut out);
    check_unique_slugs(&lib.events, "events", &mut out);
    check_logos(lib, &mut out);
    check_testimonials(lib, &mut out);
    check_videos(lib, &mut out);
    check_packages(&lib.packages, &mut out);
    check_page_texts(lib, &mut out);
    out
}

/// The checks of [`validate`] for another language's library. A problem of a field the
/// translation does not write (it comes from the original) is the original's, reported there:
/// not again for each translation.
pub fn validate_translation(lib: &Library) -> Vec<Diagnostic> {
    let translations: HashSet<&Path> = lib
        .services
        .iter()
        .map(|e| e.source.as_path())
        .chain(lib.resources.iter().map(|e| e.source.as_path()))
        .chain(lib.blog.iter().map(|e| e.source.as_path()))
        .chain(lib.events.iter().map(|e| e.source.as_path()))
        .chain(lib.about.iter().map(|e| e.source.as_path()))
        .chain(lib.legal.iter().map(|d| d.doc.source.as_path()))
        .collect();
    validate(lib)
        .into_iter()
        .filter(|d| {
            !(translations.contains(d.file.as_path()) && d.field.is_some() && d.line.is_none())
        })
        .collect()
}

/// [`check_unique_slugs`] of the posts and resources of `lib` for just the entries at these
/// paths, against all the others.
pub fn slug_clashes(lib: &Library, posts: &[&Path], resources: &[&Path]) -> Vec<Diagnostic> {
    fn clashes<M>(all: &[Entry<M>], these: &[&Path], dir: &str, out: &mut Vec<Diagnostic>) {
        for e in all.iter().filter(|e| these.contains(&e.source.as_path())) {
            if let Some(other) = all
                .iter()
                .find(|o| o.source != e.source && o.slug == e.slug)
            {
                out.push(slug_clash(e, &other.source, dir));
            }
        }
    }
    let mut out = Vec::new();
    clashes(&lib.blog, posts, "blog", &mut out);
    clashes(&lib.resources, resources, "resources", &mut out);
    out
}

fn slug_clash<M>(e: &Entry<M>, other: &Path, dir: &str) -> Diagnostic {
    e.error(
        "slug",
        format!(
            "the slug `{}` is also {}'s: both would be /{dir}/{}",
            e.slug,
            other.display(),
            e.slug
        ),
    )
    .hint("give the translation another `slug:`, or leave `slug:` out to keep its original's")
}

/// Two entries of a kind in one language cannot share a slug (a translation's own `slug:` may
/// take another's).
fn check_unique_slugs<M>(entries: &[Entry<M>], dir: &str, out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&str, &Path> = HashMap::new();
    for e in entries {
        if let Some(other) = seen.insert(e.slug.as_str(), e.source.as_path()) {
            out.push(slug_clash(e, other, dir));
        }
    }
}

// -- settings

/// Where the settings are, relative to the root.
const SETTINGS: &str = "content/settings.yaml";

/// `content/settings.yaml` as read again from disk, to point problems at their lines.
struct SettingsFile {
    text: String,
}

impl SettingsFile {
    /// Reads the file under `root`; an unreadable one points nowhere.
    fn read(root: &Path) -> SettingsFile {
        let text = std::fs::read_to_string(root.join(SETTINGS)).unwrap_or_default();
        SettingsFile { text }
    }

    /// A diagnostic about `field`, at the line that sets it.
    fn error(&self, field: &str, message: String, hint: &str) -> Diagnostic {
        Diagnostic::new(Path::new(SETTINGS), message)
            .field(field)
            .line(line_of_key(&self.text, field, 0))
            .hint(hint)
    }
}

/// The site's address, currency, links, brochure, business details and name.
fn check_settings(root: &Path, s: &Settings, out: &mut Vec<Diagnostic>) {
    let file = SettingsFile::read(root);
    if !is_absolute_url(&s.base_url) {
        out.push(file.error(
            "base_url",
            format!("`{}` is not an absolute URL", s.base_url),
            "write the site's address with its scheme, e.g. https://www.example.com",
        ));
    }
    // `time_zone` is a `chrono_tz::Tz`: an unknown name already failed reading settings.yaml,
    // with its line and fix (content_model::yaml).
    if s.currency.len() != 3 || !s.currency.chars().all(|c| c.is_ascii_uppercase()) {
        out.push(file.error(
            "currency",
            format!("`{}` is not an ISO currency code", s.currency),
            "use three capital letters, e.g. EGP",
        ));
    }
    check_settings_urls(&file, s, out);
    if let Err(m) = check_local_file(root, &s.brochure_url) {
        out.push(file.error(
            "brochure_url",
            m,
            "put the PDF in content/static/ and give its /static/… path",
        ));
    }
    if let Some(business) = &s.business {
        check_business(&file, business, out);
    }
    for (field, problem, fix) in s.payments.problems() {
        out.push(file.error(field, problem, &fix));
    }
    if let Some((field, problem, fix)) = s.payments.transfer.as_ref().and_then(|t| t.problem()) {
        out.push(file.error(&format!("payments.transfer.{field}"), problem, fix));
    }
    if s.site_info.site_name.trim().is_empty() {
        out.push(file.error(
            "site_info.site_name",
            "the site name is empty".into(),
            "give the brand name",
        ));
    }
}

/// The scheduling, social media and contact links must be absolute URLs.
fn check_settings_urls(file: &SettingsFile, s: &Settings, out: &mut Vec<Diagnostic>) {
    for (field, url) in [
        (
            "scheduling.discovery_call_url",
            Some(&s.scheduling.discovery_call_url),
        ),
        ("scheduling.booking_url", Some(&s.scheduling.booking_url)),
        ("social_media.linkedin", s.social_media.linkedin.as_ref()),
        ("social_media.youtube", s.social_media.youtube.as_ref()),
        ("social_media.instagram", s.social_media.instagram.as_ref()),
        ("social_media.tiktok", s.social_media.tiktok.as_ref()),
        ("social_media.whatsapp", s.social_media.whatsapp.as_ref()),
        ("contact_info.whatsapp", s.contact_info.whatsapp.as_ref()),
        ("contact_info.linkedin", s.contact_info.linkedin.as_ref()),
        (
            "contact_info.youtube_channel",
            s.contact_info.youtube_channel.as_ref(),
        ),
    ] {
        if let Some(url) = url.filter(|u| !is_absolute_url(u)) {
            out.push(file.error(
                field,
                format!("`{url}` is not an absolute URL"),
                "write the full address starting with https://",
            ));
        }
    }
}

/// What receipts print: the business's name, address and tax registration number.
fn check_business(file: &SettingsFile, business: &Business, out: &mut Vec<Diagnostic>) {
    for (field, value) in [
        ("business.name", &business.name),
        ("business.address", &business.address),
    ] {
        if value.trim().is_empty() {
            out.push(file.error(
                field,
                format!("`{field}` is empty"),
                "receipts print it: give the business's registered name and address",
            ));
        }
    }
    if let Some(problem) = business.tax_id_problem() {
        out.push(file.error(
            "business.tax_id",
            problem,
            "write the 9-digit tax registration number, e.g. 123-456-789",
        ));
    }
}

// -- Markdown entries

/// The file name of any entry becomes its URL: it must be a slug.
fn check_slug<M>(e: &Entry<M>, out: &mut Vec<Diagnostic>) {
    if !is_slug(&e.slug) {
        let d = Diagnostic::new(&e.source, format!("`{}` cannot be used in a URL", e.slug));
        out.push(match e.translation_of {
            // A translation's slug is its own `slug:`; its file name is its original's.
            Some(_) => d.field("slug").line(line_of_key(&e.yaml, "slug", 1)).hint(
                "write the `slug:` with lower-case letters, digits and hyphens, e.g. slug: my-first-post",
            ),
            None => d.hint(
                "rename the file with lower-case letters, digits and hyphens, e.g. my-first-post.md",
            ),
        });
    }
}

/// A file named in an entry's front matter must exist under `content/static/` (or be a URL).
fn check_entry_file<M>(
    root: &Path,
    e: &Entry<M>,
    field: &str,
    value: &str,
    out: &mut Vec<Diagnostic>,
) {
    if let Err(m) = check_local_file(root, value) {
        out.push(
            e.error(field, m)
                .hint("put the file under content/static/ and reference it as /static/…, or use a full https:// URL"),
        );
    }
}

/// A link in an entry's front matter must be an absolute URL.
fn check_entry_url<M>(e: &Entry<M>, field: &str, value: &str, out: &mut Vec<Diagnostic>) {
    if !is_absolute_url(value) {
        out.push(
            e.error(field, format!("`{value}` is not an absolute URL"))
                .hint("write the full address starting with https://"),
        );
    }
}

/// A service: its slug, title, image and partner link.
fn check_service(root: &Path, e: &Entry<ServiceMeta>, out: &mut Vec<Diagnostic>) {
    check_slug(e, out);
    let m = &e.meta;
    if m.title.trim().is_empty() {
        out.push(
            e.error("title", "the title is empty")
                .hint("give the service a title"),
        );
    }
    if let Some(img) = &m.image_url {
        check_entry_file(root, e, "image_url", img, out);
    }
    if let Some(url) = &m.partner_url {
        check_entry_url(e, "partner_url", url, out);
    }
}

/// A resource: its slug and image.
fn check_resource(root: &Path, e: &Entry<ResourceMeta>, out: &mut Vec<Diagnostic>) {
    check_slug(e, out);
    check_title(e, &e.meta.title, "resource", out);
    if let Some(img) = &e.meta.image_url {
        check_entry_file(root, e, "image_url", img, out);
    }
}

/// A title that is only spaces: the page would have no heading, its card no name and its
/// tab no title (the coach's editor can send one).
fn check_title<M>(e: &Entry<M>, title: &str, what: &str, out: &mut Vec<Diagnostic>) {
    if title.trim().is_empty() {
        out.push(
            e.error("title", "the title is empty")
                .hint(format!("give the {what} a title")),
        );
    }
}

/// A blog post: its slug, title, featured image and that it has a body.
fn check_post(root: &Path, e: &Entry<BlogPostMeta>, out: &mut Vec<Diagnostic>) {
    check_slug(e, out);
    check_title(e, &e.meta.title, "post", out);
    if let Some(img) = &e.meta.featured_image_url {
        check_entry_file(root, e, "featured_image_url", img, out);
    }
    if e.body.trim().is_empty() {
        out.push(
            Diagnostic::new(&e.source, "the post has no content")
                .hint("write the post below the closing `---`"),
        );
    }
}

/// An event: its slug, time of day, photos and registration link.
fn check_event(root: &Path, e: &Entry<EventMeta>, out: &mut Vec<Diagnostic>) {
    check_slug(e, out);
    check_title(e, &e.meta.title, "event", out);
    if let Some(t) = &e.meta.event_time
        && chrono::NaiveTime::parse_from_str(t, "%H:%M").is_err()
    {
        out.push(
            e.error("event_time", format!("`{t}` is not a time"))
                .hint("write a 24-hour local time in quotes, e.g. \"18:30\""),
        );
    }
    for (i, p) in e.meta.photos.iter().enumerate() {
        check_entry_file(root, e, &format!("photos[{i}]"), p, out);
    }
    if let Some(url) = &e.meta.registration_url {
        check_entry_url(e, "registration_url", url, out);
    }
}

/// The about page: its portrait and certificate images.
fn check_about(root: &Path, about: &Entry<AboutMeta>, out: &mut Vec<Diagnostic>) {
    if let Some(p) = &about.meta.portrait_url {
        check_entry_file(root, about, "portrait_url", p, out);
    }
    for (i, c) in about.meta.certifications.iter().enumerate() {
        let field = format!("certifications[{i}].image_url");
        check_entry_file(root, about, &field, &c.image_url, out);
    }
}

// -- list files

/// `logos.yaml`: each logo's file and website.
fn check_logos(lib: &Library, out: &mut Vec<Diagnostic>) {
    for (i, logo) in lib.logos.items.iter().enumerate() {
        if let Err(m) = check_local_file(&lib.root, &logo.logo_url) {
            out.push(
                lib.logos
                    .error(i, "logo_url", m)
                    .hint("put the logo under content/static/logos/"),
            );
        }
        if let Some(url) = logo.website_url.as_ref().filter(|u| !is_absolute_url(u)) {
            out.push(
                lib.logos
                    .error(i, "website_url", format!("`{url}` is not an absolute URL"))
                    .hint("start it with https://"),
            );
        }
    }
}

/// `testimonials.yaml`: each rating is 1 to 5 stars.
fn check_testimonials(lib: &Library, out: &mut Vec<Diagnostic>) {
    for (i, t) in lib.testimonials.items.iter().enumerate() {
        if !(1..=5).contains(&t.rating) {
            out.push(
                lib.testimonials
                    .error(
                        i,
                        "rating",
                        format!("a rating of {} stars is out of range", t.rating),
                    )
                    .hint("give 1 to 5 stars"),
            );
        }
    }
}

/// `videos.yaml`: each YouTube id and poster image.
fn check_videos(lib: &Library, out: &mut Vec<Diagnostic>) {
    for (i, v) in lib.videos.items.iter().enumerate() {
        let ok = v.youtube_id.len() == 11
            && v.youtube_id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok {
            out.push(
                lib.videos
                    .error(
                        i,
                        "youtube_id",
                        format!("`{}` is not a YouTube video id", v.youtube_id),
                    )
                    .hint("copy the 11 characters after `v=` in the video's watch URL"),
            );
        }
        if let Some(Err(m)) = v
            .thumbnail
            .as_deref()
            .map(|t| check_local_file(&lib.root, t))
        {
            out.push(
                lib.videos
                    .error(i, "thumbnail", m)
                    .hint("put the poster under content/static/videos/, or leave `thumbnail` out to use YouTube's"),
            );
        }
    }
}

/// `packages.yaml`: each package's id (a slug, used once), its terms, and that no two active
/// packages are the same offer.
fn check_packages(packages: &ListFile<Package>, out: &mut Vec<Diagnostic>) {
    let mut ids = HashSet::new();
    let mut offers: HashMap<(PackageType, u32), usize> = HashMap::new();
    for (i, p) in packages.items.iter().enumerate() {
        if !is_slug(&p.id) {
            out.push(
                packages
                    .error(i, "id", format!("`{}` is not a valid id", p.id))
                    .hint("use lower-case words and digits joined by hyphens, e.g. individual-5"),
            );
        }
        if !ids.insert(p.id.as_str()) {
            out.push(
                packages
                    .error(i, "id", format!("the id `{}` is used twice", p.id))
                    .hint("give every package its own id"),
            );
        }
        check_package_terms(packages, i, p, out);
        if p.is_active
            && let Some(prev) = offers.insert((p.package_type, p.sessions), i)
        {
            out.push(
                packages
                    .error(i, "sessions", format!(
                        "another active {} package (item {prev}) has {} sessions too",
                        p.package_type.as_str(),
                        p.sessions
                    ))
                    .hint("a purchase names a package by type and sessions, so each pair must be unique: deactivate one"),
            );
        }
    }
}

/// Package `i`'s sessions, validity and price are in range.
fn check_package_terms(
    packages: &ListFile<Package>,
    i: usize,
    p: &Package,
    out: &mut Vec<Diagnostic>,
) {
    if p.sessions == 0 {
        out.push(
            packages
                .error(i, "sessions", "a package needs at least 1 session")
                .hint("set sessions to 1 or more"),
        );
    }
    if !(1..=MAX_VALIDITY_MONTHS).contains(&p.validity_months) {
        out.push(
            packages
                .error(
                    i,
                    "validity_months",
                    format!(
                        "credits must last between 1 and {MAX_VALIDITY_MONTHS} months, not {}",
                        p.validity_months
                    ),
                )
                .hint("write how many months the package's credits last, e.g. validity_months: 6"),
        );
    }
    if p.price.minor() <= 0 {
        out.push(
            packages
                .error(i, "price", "the price must be above 0")
                .hint("write the package price, e.g. 4500"),
        );
    }
}

// -- pages.yaml

/// A title for every page that has no content file of its own.
fn check_page_texts(lib: &Library, out: &mut Vec<Diagnostic>) {
    for route in TEXT_ROUTES {
        match lib.pages.items.iter().find(|p| p.route == *route) {
            None => out.push(
                Diagnostic::new(&lib.pages.source, format!("there is no title for {route}")).hint(
                    format!("add an item with `route: {route}`, its `title` and its `description`"),
                ),
            ),
            Some(p) if p.title.trim().is_empty() => {
                let i = lib
                    .pages
                    .items
                    .iter()
                    .position(|q| q.route == *route)
                    .unwrap_or(0);
                out.push(
                    lib.pages
                        .error(i, "title", format!("the title of {route} is empty")),
                );
            }
            Some(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_slug;

    #[test]
    fn slugs_are_lower_case_words_joined_by_hyphens() {
        assert!(is_slug("coaching-session"));
        assert!(is_slug("icf-2026"));
        assert!(!is_slug("Coaching"));
        assert!(!is_slug("a--b"));
        assert!(!is_slug("-a"));
        assert!(!is_slug("a_b"));
        assert!(!is_slug(""));
    }
}
