//! What templates see: the content reshaped for display, computed once per build.
//!
//! Each view is a struct whose fields are exactly what a template reads; its `///` comments are
//! the theme's reference (`themes/default/README.md` says which template gets which view).
//! Fields named `*_html` hold trusted Markdown HTML, printed with `| safe`; every other string
//! is escaped by Tera. Optional fields are always present, as `null` when unset.

use std::borrow::Cow;

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, TimeZone, Utc};
use serde::Serialize;
use serde_json::Value;

use crate::content::model::*;
use crate::content::{Entry, LegalDoc};
use crate::locale::Locale;
use crate::markdown::{self, Rendered};
use content_model::model::PaymentSettings;

/// `Mar 01, 2026` (spec §9: MMM dd, yyyy): the English date; a page shows its language's,
/// [`Locale::date`].
pub fn date_display(d: NaiveDate) -> String {
    d.format("%b %d, %Y").to_string()
}

/// `meta`, given to every page: what `base.html` puts in `<head>`.
#[derive(Debug, Serialize)]
pub struct Meta<'a> {
    /// The whole `<title>` and `og:title`: `Page | Site name`, or the site name alone on `/`.
    pub title: String,
    /// `<meta name="description">` and `og:description`.
    pub description: &'a str,
    /// The absolute canonical URL (`og:url`); `/404.html` and the like point at the home page.
    pub canonical: String,
    /// `og:type`: `website`, or `article` for resources and blog posts.
    pub og_type: &'static str,
    /// `og:image`, absolute, or null.
    pub og_image: Option<String>,
    /// `<meta name="robots" content="noindex">`: app shells and error pages.
    pub noindex: bool,
    /// The page in every language it exists in, then `x-default` (the default language's),
    /// for `<link rel="alternate" hreflang>`; empty on a site in one language, or for a page
    /// in one language only.
    pub alternates: Vec<Alternate>,
    /// `og:locale:alternate`: the Open Graph locales of the page's other languages.
    pub og_locale_alternates: Vec<String>,
}

/// One of `meta.alternates`.
#[derive(Debug, Clone, Serialize)]
pub struct Alternate {
    /// A language code, or `x-default`.
    pub hreflang: String,
    /// The absolute URL.
    pub href: String,
}

/// `lang`, given to every template: the page's language.
#[derive(Debug, Serialize)]
pub struct Lang<'a> {
    /// `en`, `ar`: `<html lang>`.
    pub code: &'a str,
    /// `ltr` or `rtl`: `<html dir>`.
    pub dir: &'a str,
    /// The language's name in itself.
    pub name: &'a str,
    /// `en_US`, `ar_EG`.
    pub og_locale: &'a str,
    /// The font files its pages preload (`/assets/fonts/…`, print through `asset`).
    pub fonts: &'a [String],
    /// The site has more than one language: `<html dir>`, the alternates and the language
    /// switch are shown.
    pub multilingual: bool,
    /// The home page in this language: `/`, `/ar/`.
    pub home: String,
    /// The header's language switch: one link per other language (`href` is filled in per
    /// page). Empty on a site in one language.
    pub switch: Vec<SwitchLink>,
}

/// One of `lang.switch`: the same page in another language, or its nearest translated parent.
#[derive(Debug, Clone, Serialize)]
pub struct SwitchLink {
    /// The language code (`hreflang` and `lang` of the link).
    pub code: String,
    /// Its direction (`dir` of the link).
    pub dir: String,
    /// The language's name in itself: the link text (`English`, `العربية`).
    pub name: String,
    /// The address (in the header, a marker the renderer replaces with the page's target).
    pub href: String,
}

/// The header's (`nav`) and footer's (`footer_nav`) links, in order.
pub struct Nav;

/// One navigation link.
#[derive(Debug, Serialize)]
pub struct Link {
    /// The page in the page's language, e.g. `/about`, `/ar/about`; the link is marked current
    /// when the page is in its section.
    pub href: String,
    /// The link text.
    pub label: String,
    /// A policy (terms, privacy…): the footer lists them apart.
    pub policy: bool,
}

impl Nav {
    /// `(route, text key)`.
    const HEADER: &'static [(&'static str, &'static str)] = &[
        ("/work-with-me", "nav.work_with_me"),
        ("/about", "nav.about"),
        ("/resources", "nav.resources"),
        ("/videos", "nav.videos"),
        ("/events", "nav.events"),
        ("/contact", "nav.contact"),
        ("/auth", "nav.client_login"),
    ];

    const FOOTER: &'static [(&'static str, &'static str)] = &[
        ("/work-with-me", "nav.work_with_me"),
        ("/about", "nav.about"),
        ("/resources", "nav.resources"),
        ("/videos", "nav.videos"),
        ("/testimonials", "nav.testimonials"),
        ("/faq", "nav.faq"),
        ("/contact", "nav.contact"),
        ("/terms", "nav.terms"),
        ("/privacy-policy", "nav.privacy_policy"),
        ("/return-policy", "nav.return_policy"),
        ("/delivery-policy", "nav.delivery_policy"),
        ("/cancellation-policy", "nav.cancellation_policy"),
        ("/", "nav.home"),
    ];

    fn links(all: &[(&str, &str)], loc: &Locale, url: &dyn Fn(&str) -> String) -> Vec<Link> {
        all.iter()
            .map(|(route, key)| Link {
                href: url(route),
                label: loc.text(key).to_string(),
                policy: crate::content::LEGAL_PAGES.contains(&route.trim_start_matches('/')),
            })
            .collect()
    }

    /// Work With Me … Client Login, in `loc`'s language; `url` gives a route's address in it.
    pub fn header(loc: &Locale, url: &dyn Fn(&str) -> String) -> Vec<Link> {
        Self::links(Self::HEADER, loc, url)
    }

    /// Every public page, the legal ones included, then Home.
    pub fn footer(loc: &Locale, url: &dyn Fn(&str) -> String) -> Vec<Link> {
        Self::links(Self::FOOTER, loc, url)
    }
}

/// `site`, given to every template: `content/settings.yaml` as the pages show it.
#[derive(Debug, Serialize)]
pub struct Site<'a> {
    /// The site's name: the home page's `<title>`, the end of every other page's, the footer's
    /// copyright line.
    pub name: &'a str,
    /// The home page's description.
    pub description: &'a str,
    /// The absolute origin, without a trailing slash.
    pub base_url: &'a str,
    /// ISO 4217 code of every price (`EGP`).
    pub currency: &'a str,
    /// The coach's IANA time zone, e.g. `Africa/Cairo`.
    pub time_zone: &'a str,
    /// The home page hero: `title, subtitle, description, achievements[], primary_cta.text,
    /// secondary_cta.{text,link}, success_rate`.
    pub hero: &'a HeroSection,
    /// The address of `hero.secondary_cta.link` in the page's language.
    pub hero_link: String,
    /// The footer's social icons, one per link set, in this order: LinkedIn, YouTube,
    /// Instagram, TikTok, WhatsApp.
    pub social: Vec<SocialLink<'a>>,
    /// The contact page and footer: `email, phone, address, youtube_channel?, linkedin?,
    /// whatsapp?`.
    pub contact: &'a ContactInfo,
    /// `discovery_call_url` (every "Book Discovery Call" button), `booking_url` (the about
    /// page's "Book me"), `host_name` (e.g. `Calendly`).
    pub scheduling: &'a Scheduling,
    /// The programme guide PDF as written (`/static/…`): print it through `asset`.
    pub brochure_url: &'a str,
    /// The WhatsApp chat link (the contact's, else the social one), or null.
    pub whatsapp_url: Option<&'a str>,
    /// The build's year, for the copyright line.
    pub year: i32,
}

/// One of `site.social`.
#[derive(Debug, Serialize)]
pub struct SocialLink<'a> {
    /// The icon's name: `linkedin`, `youtube`, `instagram`, `tiktok` or `whatsapp`.
    pub network: &'static str,
    /// The network's name, for screen readers: `LinkedIn`, `YouTube`, ….
    pub label: &'static str,
    /// The profile or chat link.
    pub url: &'a str,
}

pub fn site<'a>(settings: &'a Settings, year: i32, url: &dyn Fn(&str) -> String) -> Site<'a> {
    let sm = &settings.social_media;
    let social = [
        ("linkedin", "LinkedIn", &sm.linkedin),
        ("youtube", "YouTube", &sm.youtube),
        ("instagram", "Instagram", &sm.instagram),
        ("tiktok", "TikTok", &sm.tiktok),
        ("whatsapp", "WhatsApp", &sm.whatsapp),
    ]
    .into_iter()
    .filter_map(|(network, label, url)| {
        url.as_deref().map(|url| SocialLink {
            network,
            label,
            url,
        })
    })
    .collect();
    Site {
        name: &settings.site_info.site_name,
        description: &settings.site_info.description,
        base_url: settings.base_url.trim_end_matches('/'),
        currency: &settings.currency,
        time_zone: settings.time_zone.name(),
        hero: &settings.hero_section,
        hero_link: url(&settings.hero_section.secondary_cta.link),
        social,
        contact: &settings.contact_info,
        scheduling: &settings.scheduling,
        brochure_url: &settings.brochure_url,
        whatsapp_url: whatsapp_url(settings),
        year,
    }
}

fn whatsapp_url(settings: &Settings) -> Option<&str> {
    settings
        .contact_info
        .whatsapp
        .as_deref()
        .or(settings.social_media.whatsapp.as_deref())
}

/// A service: its card on /work-with-me (`services[]`) and the home page
/// (`featured_services[]`), and its own page /services/{slug} (`service`).
#[derive(Debug, Serialize)]
pub struct Service<'a> {
    /// The file name without `.md`.
    pub slug: &'a str,
    /// `/services/{slug}`.
    pub url: String,
    /// The card's and the page's heading.
    pub title: &'a str,
    /// The card's text and the page's lead.
    pub short_description: &'a str,
    /// e.g. `6 months`; the page says "Tailored to you" when null.
    pub duration: Option<&'a str>,
    /// The investment as text, e.g. `From 4,500 EGP per session`; "On request" when null.
    pub price: Option<&'a str>,
    /// What's Included.
    pub features: &'a [String],
    /// Key Benefits.
    pub benefits: &'a [String],
    /// The card's and the page's picture (`/static/…`), or null.
    pub image_url: Option<&'a str>,
    /// Shown on the home page; a "Popular" badge on its page and its /work-with-me card.
    pub is_featured: bool,
    /// The front matter's description for search engines, or null.
    pub meta_description: Option<&'a str>,
    /// The card's extra button.
    pub action: ServiceAction<'a>,
    /// The page's Overview (the Markdown body).
    pub content_html: Option<&'a str>,
}

/// The extra button of a service card on /work-with-me and of its page (spec §2).
#[derive(Debug, Serialize)]
pub struct ServiceAction<'a> {
    /// What the button does.
    pub kind: ActionKind,
    /// Where it goes; null for [`ActionKind::Price`].
    pub href: Option<Cow<'a, str>>,
    /// The button's text, or for [`ActionKind::Price`] the price text (null when the service
    /// has none).
    pub label: Option<&'a str>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// coaching-session: "View Pricing", to /pricing.
    Pricing,
    /// group-team-coaching: "View Group Pricing", to /group-team-coaching-pricing.
    GroupPricing,
    /// workshops-retreats: "Chat on WhatsApp", to `site.whatsapp_url`.
    Whatsapp,
    /// An external partner site (`partner_url`), opened in a new tab.
    Partner,
    /// No link: `label` is the price text.
    Price,
}

fn service_action<'a>(
    slug: &str,
    meta: &'a ServiceMeta,
    settings: &'a Settings,
    loc: &'a Locale,
) -> ServiceAction<'a> {
    let action = |kind, href: Cow<'a, str>, label| ServiceAction {
        kind,
        href: Some(href),
        label: Some(label),
    };
    match slug {
        "coaching-session" => action(
            ActionKind::Pricing,
            Cow::Owned(loc.path("/pricing")),
            loc.text("service.view_pricing"),
        ),
        "group-team-coaching" => action(
            ActionKind::GroupPricing,
            Cow::Owned(loc.path("/group-team-coaching-pricing")),
            loc.text("service.view_group_pricing"),
        ),
        "workshops-retreats" if whatsapp_url(settings).is_some() => ServiceAction {
            kind: ActionKind::Whatsapp,
            href: whatsapp_url(settings).map(Cow::Borrowed),
            label: Some(loc.text("service.chat_whatsapp")),
        },
        _ => match &meta.partner_url {
            Some(url) => action(
                ActionKind::Partner,
                Cow::Borrowed(url),
                meta.partner_label
                    .as_deref()
                    .unwrap_or(loc.text("service.visit_partner")),
            ),
            None => ServiceAction {
                kind: ActionKind::Price,
                href: None,
                label: meta.price.as_deref(),
            },
        },
    }
}

pub fn service<'a>(
    e: &'a Entry<ServiceMeta>,
    rendered: Option<&'a Rendered>,
    settings: &'a Settings,
    loc: &'a Locale,
) -> Service<'a> {
    let m = &e.meta;
    Service {
        slug: &e.slug,
        url: loc.path(&format!("/services/{}", e.slug)),
        title: &m.title,
        short_description: &m.short_description,
        duration: m.duration.as_deref(),
        price: m.price.as_deref(),
        features: &m.features,
        benefits: &m.benefits,
        image_url: m.image_url.as_deref(),
        is_featured: m.is_featured,
        meta_description: m.meta_description.as_deref(),
        action: service_action(&e.slug, m, settings, loc),
        content_html: rendered.map(|r| r.html.as_str()),
    }
}

/// Tags shown on a card: the category is not repeated, duplicates differing only by case are
/// dropped, and at most `max` remain.
pub fn card_tags<'a>(tags: &'a [String], category: Option<&str>, max: usize) -> Vec<&'a str> {
    let mut seen: Vec<String> = category.map(|c| vec![c.to_lowercase()]).unwrap_or_default();
    let mut out = Vec::new();
    for t in tags {
        let key = t.trim().to_lowercase();
        if key.is_empty() || seen.contains(&key) {
            continue;
        }
        seen.push(key);
        out.push(t.trim());
        if out.len() == max {
            break;
        }
    }
    out
}

/// A resource or a blog post, as a card or a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `resource`: a "Resource" badge.
    Resource,
    /// `blog`: an "Article" badge.
    Blog,
}

/// A card of /resources (`partials/post_card.html`, as `item`): the resources' cards are
/// `resource_items[]`, the blog posts' are rendered once each and joined into `post_cards`.
#[derive(Debug, Clone, Serialize)]
pub struct Card<'a> {
    /// The badge.
    pub kind: Kind,
    /// The card's heading, linked to `url`.
    pub title: &'a str,
    /// `/resources/{slug}` or `/blog/{slug}`.
    pub url: String,
    /// The card's text: the resource's description, or the post's excerpt (written, else the
    /// first 150 characters of the post).
    pub excerpt: Cow<'a, str>,
    /// Shown next to the badge.
    pub category: &'a str,
    /// The chips: at most 3 tags, the category and case duplicates left out.
    pub card_tags: Vec<&'a str>,
    /// Every tag, for the listing's tag filter (`data-tags`).
    pub tags: &'a [String],
    /// The card's picture (`/static/…`), or null.
    pub image_url: Option<&'a str>,
    /// `YYYY-MM-DD`, for `<time datetime>`.
    pub date: String,
    /// `Mar 01, 2026`.
    pub date_display: String,
    /// "6 min read" for posts; null for resources.
    pub read_time_minutes: Option<u32>,
}

pub fn resource_card<'a>(e: &'a Entry<ResourceMeta>, loc: &Locale) -> Card<'a> {
    let m = &e.meta;
    Card {
        kind: Kind::Resource,
        title: &m.title,
        url: loc.path(&format!("/resources/{}", e.slug)),
        excerpt: Cow::Borrowed(&m.description),
        category: &m.category,
        card_tags: card_tags(&m.tags, Some(&m.category), 3),
        tags: &m.tags,
        image_url: m.image_url.as_deref(),
        date: m.created_at.to_string(),
        date_display: loc.date(m.created_at),
        read_time_minutes: None,
    }
}

pub fn blog_excerpt(e: &Entry<BlogPostMeta>, rendered: &Rendered) -> String {
    e.meta
        .excerpt
        .clone()
        .unwrap_or_else(|| markdown::excerpt(&rendered.lead, 150))
}

pub fn blog_read_time(e: &Entry<BlogPostMeta>, rendered: &Rendered) -> u32 {
    e.meta
        .read_time_minutes
        .unwrap_or_else(|| markdown::read_time_minutes(rendered.words))
}

pub fn blog_card<'a>(e: &'a Entry<BlogPostMeta>, rendered: &Rendered, loc: &Locale) -> Card<'a> {
    let m = &e.meta;
    Card {
        kind: Kind::Blog,
        title: &m.title,
        url: loc.path(&format!("/blog/{}", e.slug)),
        excerpt: Cow::Owned(blog_excerpt(e, rendered)),
        category: &m.category,
        card_tags: card_tags(&m.tags, Some(&m.category), 3),
        tags: &m.tags,
        image_url: m.featured_image_url.as_deref(),
        date: m.created_at.to_string(),
        date_display: loc.date(m.created_at),
        read_time_minutes: Some(blog_read_time(e, rendered)),
    }
}

/// `article` of `article.html`: a resource (/resources/{slug}) or a blog post (/blog/{slug})
/// as a page.
#[derive(Debug, Serialize)]
pub struct Article<'a> {
    /// The badge: "Resource" or "Article".
    pub kind: Kind,
    /// The heading.
    pub title: &'a str,
    /// The lead under the heading: the resource's description, or the post's excerpt.
    pub lead: Cow<'a, str>,
    /// Shown above the heading.
    pub category: &'a str,
    /// Every tag, as chips under the text.
    pub tags: &'a [String],
    /// The feature picture (`/static/…`), or null.
    pub image_url: Option<&'a str>,
    /// The line under the lead, e.g. `["Published Mar 01, 2026", "Updated Mar 09, 2026"]` or
    /// `["Mar 01, 2026", "6 min read"]`.
    pub byline: Vec<String>,
    /// The text.
    pub content_html: String,
    /// `/resources/{slug}` or `/blog/{slug}`.
    pub url: String,
}

impl Article<'_> {
    /// The view as a template value, the HTML moved into it rather than copied (serialising
    /// would copy the whole text).
    pub fn into_value(mut self) -> Value {
        let html = std::mem::take(&mut self.content_html);
        let mut value = to_value(&self);
        value["content_html"] = Value::String(html);
        value
    }
}

pub fn resource_page<'a>(
    e: &'a Entry<ResourceMeta>,
    rendered: Rendered,
    loc: &Locale,
) -> Article<'a> {
    let m = &e.meta;
    let dated = |key, d| loc.format(key, &[("date", &loc.date(d))]);
    let mut byline = vec![dated("article.published", m.created_at)];
    byline.extend(m.updated_at.map(|u| dated("article.updated", u)));
    Article {
        kind: Kind::Resource,
        title: &m.title,
        lead: Cow::Borrowed(&m.description),
        category: &m.category,
        tags: &m.tags,
        image_url: m.image_url.as_deref(),
        byline,
        content_html: rendered.html,
        url: loc.path(&format!("/resources/{}", e.slug)),
    }
}

pub fn blog_page<'a>(e: &'a Entry<BlogPostMeta>, rendered: Rendered, loc: &Locale) -> Article<'a> {
    let m = &e.meta;
    let byline = vec![
        loc.date(m.created_at),
        loc.count("article.min_read", blog_read_time(e, &rendered).into()),
    ];
    Article {
        kind: Kind::Blog,
        title: &m.title,
        lead: Cow::Owned(blog_excerpt(e, &rendered)),
        category: &m.category,
        tags: &m.tags,
        image_url: m.featured_image_url.as_deref(),
        byline,
        content_html: rendered.html,
        url: loc.path(&format!("/blog/{}", e.slug)),
    }
}

/// One of `videos[]` on /videos: the curated videos, then the channel's.
#[derive(Debug, Serialize)]
pub struct VideoView<'a> {
    /// The 11-character YouTube id.
    pub youtube_id: &'a str,
    /// The card's heading.
    pub title: &'a str,
    /// The card's text (may be empty).
    pub description: &'a str,
    /// The first chip (gold), or null.
    pub category: Option<&'a str>,
    /// The other chips: at most 2 tags, the category and case duplicates left out.
    pub extra_tags: Vec<&'a str>,
    /// Display text over the thumbnail, e.g. `12:45`, or null.
    pub duration: Option<&'a str>,
    /// `Mar 01, 2026`.
    pub published_display: String,
    /// The poster image, printed through `asset`: the one written, else YouTube's
    /// `hqdefault.jpg`.
    pub thumbnail: Cow<'a, str>,
    /// The privacy-enhanced player the poster opens in place (`data-embed`,
    /// youtube-nocookie.com).
    pub embed_url: String,
    /// The video on youtube.com: the poster's link without JavaScript.
    pub watch_url: String,
}

pub fn video<'a>(v: &'a Video, loc: &Locale) -> VideoView<'a> {
    let thumbnail = match &v.thumbnail {
        Some(t) => Cow::Borrowed(t.as_str()),
        None => Cow::Owned(format!(
            "https://i.ytimg.com/vi/{}/hqdefault.jpg",
            v.youtube_id
        )),
    };
    VideoView {
        youtube_id: &v.youtube_id,
        title: &v.title,
        description: &v.description,
        category: v.category.as_deref(),
        extra_tags: card_tags(&v.tags, v.category.as_deref(), 2),
        duration: v.duration.as_deref(),
        published_display: loc.date(v.published_at),
        thumbnail,
        embed_url: format!("https://www.youtube-nocookie.com/embed/{}", v.youtube_id),
        watch_url: format!("https://www.youtube.com/watch?v={}", v.youtube_id),
    }
}

/// When the event starts, in the coach's time zone (midnight when no time is given).
pub fn event_start(m: &EventMeta, tz: chrono_tz::Tz) -> DateTime<chrono_tz::Tz> {
    let time = m
        .event_time
        .as_deref()
        .and_then(|t| NaiveTime::parse_from_str(t, "%H:%M").ok())
        .unwrap_or(NaiveTime::MIN);
    let local = m.event_date.and_time(time);
    tz.from_local_datetime(&local)
        .earliest()
        .unwrap_or_else(|| tz.from_utc_datetime(&local))
}

/// One of `events[]` on /events, in start order.
#[derive(Debug, Serialize)]
pub struct Event<'a> {
    /// The file name without `.md`; the gallery's id is `gallery-{slug}`.
    pub slug: &'a str,
    /// The card's heading.
    pub title: &'a str,
    /// The description (the Markdown body).
    pub description_html: &'a str,
    /// `Mar 01, 2026`.
    pub date_display: String,
    /// The date badge's month, e.g. `Mar`.
    pub month_display: String,
    /// `HH:MM` as written, or null.
    pub time_display: Option<&'a str>,
    /// The start in ISO 8601 with the offset of the coach's time zone: the date badge, and
    /// the page script's past/upcoming switch.
    pub starts_at: String,
    /// Started before the build: "Past Event", registration closed, the photo strip shown.
    pub is_past: bool,
    /// Where it takes place.
    pub location: &'a str,
    /// `in_person`, `online` or `hybrid`.
    pub location_type: LocationType,
    /// The badge: "In person", "Online" or "Hybrid".
    pub location_type_label: &'a str,
    /// "Limited to N participants", or null.
    pub max_participants: Option<u32>,
    /// Every photo (`/static/…`), for the gallery.
    pub photos: &'a [String],
    /// The first 4 photos, for the strip on the card.
    pub preview_photos: &'a [String],
    /// "Register Now" links there; null shows "Ask about this event".
    pub registration_url: Option<&'a str>,
    /// A "Featured" badge and a highlighted card.
    pub is_featured: bool,
}

pub fn event<'a>(
    e: &'a Entry<EventMeta>,
    rendered: &'a Rendered,
    tz: chrono_tz::Tz,
    now: DateTime<Utc>,
    loc: &'a Locale,
) -> Event<'a> {
    let m = &e.meta;
    let starts = event_start(m, tz);
    let label = loc.text(match m.location_type {
        LocationType::InPerson => "events.in_person",
        LocationType::Online => "events.online",
        LocationType::Hybrid => "events.hybrid",
    });
    let month_display = loc
        .list("dates.months_short")
        .get(starts.month0() as usize)
        .cloned()
        .unwrap_or_else(|| starts.month().to_string());
    Event {
        slug: &e.slug,
        title: &m.title,
        description_html: &rendered.html,
        date_display: loc.date(m.event_date),
        month_display,
        time_display: m.event_time.as_deref(),
        starts_at: starts.to_rfc3339(),
        is_past: starts.with_timezone(&Utc) < now,
        location: &m.location,
        location_type: m.location_type,
        location_type_label: label,
        max_participants: m.max_participants,
        photos: &m.photos,
        preview_photos: &m.photos[..m.photos.len().min(4)],
        registration_url: m.registration_url.as_deref(),
        is_featured: m.is_featured,
    }
}

/// A testimonial: `testimonials[]` on /testimonials, `featured_testimonials[]` on the home page.
#[derive(Debug, Serialize)]
pub struct TestimonialView<'a> {
    /// Who said it.
    pub client_name: &'a str,
    /// Their role, or null.
    pub client_title: Option<&'a str>,
    /// Their company, or null.
    pub client_company: Option<&'a str>,
    /// The quote.
    pub testimonial_text: &'a str,
    /// Stars, 1 to 5.
    pub rating: u8,
    /// Shown on the home page.
    pub is_featured: bool,
}

pub fn testimonial(t: &Testimonial) -> TestimonialView<'_> {
    TestimonialView {
        client_name: &t.client_name,
        client_title: t.client_title.as_deref(),
        client_company: t.client_company.as_deref(),
        testimonial_text: &t.testimonial_text,
        rating: t.rating,
        is_featured: t.is_featured,
    }
}

/// `about` on /about: `content/pages/about.md`'s front matter as written, and its body. (When
/// the page is not published, `about` is null and the page says so.)
#[derive(Debug, Serialize)]
pub struct About<'a> {
    /// The page's `<title>`.
    pub title: &'a str,
    /// The hero's heading.
    pub hero_title: &'a str,
    /// The hero's line under it, or null.
    pub hero_subtitle: Option<&'a str>,
    /// For search engines (also `meta.description`).
    pub meta_description: &'a str,
    /// The portrait (`/static/…`), or null.
    pub portrait_url: Option<&'a str>,
    /// `{title, description}`: the introduction.
    pub intro: &'a Section,
    /// `{title, content}`: the mission.
    pub mission: &'a MissionSection,
    /// `{title, items[]}`: the credentials list.
    pub credentials: &'a Credentials,
    /// `[{title, issuer, image_url}]`: the certificates, shown whole.
    pub certifications: &'a [Certification],
    /// `{title, description, button_text, button_link}`: the closing call to action, or null.
    pub cta: Option<&'a AboutCta>,
    /// The address of `cta.button_link` in the page's language, or null.
    pub cta_link: Option<String>,
    /// The ICF ACC note, e.g. `ICF ACC credential valid until 1/2028`.
    pub credential_note: &'a str,
    /// True unless built with `--drafts`.
    pub is_published: bool,
    /// The body, shown after the mission (may be empty).
    pub content_html: &'a str,
}

pub fn about<'a>(
    e: &'a Entry<AboutMeta>,
    rendered: &'a Rendered,
    url: &dyn Fn(&str) -> String,
) -> About<'a> {
    let m = &e.meta;
    About {
        title: &m.title,
        hero_title: &m.hero_title,
        hero_subtitle: m.hero_subtitle.as_deref(),
        meta_description: &m.meta_description,
        portrait_url: m.portrait_url.as_deref(),
        intro: &m.intro,
        mission: &m.mission,
        credentials: &m.credentials,
        certifications: &m.certifications,
        cta: m.cta.as_ref(),
        cta_link: m.cta.as_ref().map(|c| url(&c.button_link)),
        credential_note: &m.credential_note,
        is_published: m.is_published,
        content_html: &rendered.html,
    }
}

/// `legal` of `legal.html`: /terms, /return-policy, /privacy-policy, /delivery-policy,
/// /cancellation-policy.
#[derive(Debug, Serialize)]
pub struct Legal<'a> {
    /// The route without its slash, e.g. `terms`.
    pub name: &'a str,
    /// The heading.
    pub title: &'a str,
    /// The text, in the page's language.
    pub content_html: &'a str,
    /// `Mar 01, 2026`, shown as "Last updated …"; or null.
    pub updated_display: Option<String>,
    /// On the default language's page, the Arabic translation (`<name>.ar.md`), in
    /// `<section lang="ar" dir="rtl">`; else null.
    pub ar: Option<LegalTranslation<'a>>,
}

/// `legal.ar`.
#[derive(Debug, Serialize)]
pub struct LegalTranslation<'a> {
    /// The Arabic heading.
    pub title: &'a str,
    /// The Arabic text.
    pub content_html: &'a str,
}

pub fn legal<'a>(
    doc: &'a LegalDoc,
    text: &'a Rendered,
    ar: Option<&'a Rendered>,
    loc: &Locale,
) -> Legal<'a> {
    Legal {
        name: &doc.name,
        title: &doc.doc.meta.title,
        content_html: &text.html,
        updated_display: doc.doc.meta.updated_at.map(|d| loc.date(d)),
        ar: doc.arabic.as_ref().zip(ar).map(|(a, r)| LegalTranslation {
            title: &a.meta.title,
            content_html: &r.html,
        }),
    }
}

/// `faq_groups[]` on /faq: the published questions grouped by category, in order of first
/// appearance. (`show_categories` is true when there is more than one group.)
#[derive(Debug, Serialize)]
pub struct FaqGroup<'a> {
    /// The group's heading, shown only when `show_categories`.
    pub category: &'a str,
    /// The group's questions.
    pub items: Vec<FaqItem<'a>>,
}

/// One of `faq_groups[].items`.
#[derive(Debug, Serialize)]
pub struct FaqItem<'a> {
    /// `faq-1`, `faq-2`, … across the page: the anchor of the question.
    pub id: String,
    /// The question.
    pub question: &'a str,
    /// The answer (Markdown).
    pub answer_html: String,
}

/// `pricing` on /pricing and /group-team-coaching-pricing (`packages[]` are [`PackageCard`]s).
#[derive(Debug, Serialize)]
pub struct Pricing<'a> {
    /// `individual` or `group`: which pricing page this is (the link at the bottom goes to the
    /// other one).
    pub package_type: PackageType,
    /// The heading, from `content/pages.yaml`.
    pub title: &'a str,
    /// The lead under it (the page's description in `content/pages.yaml`).
    pub intro: &'a str,
}

/// `app` of `app.html`, the page shell of the client portal's and the admin's pages: a
/// heading and a loading placeholder inside the island's mount point.
#[derive(Debug, Serialize)]
pub struct AppShell<'a> {
    /// The island mounted, e.g. `ClientDashboard`.
    pub island: &'static str,
    /// The page's `<h1>`.
    pub heading: &'a str,
    /// The island's props.
    pub props: IslandProps<'a>,
    /// The island's first API reads, space-separated, started by the page script while React
    /// downloads (`data-early-api`); or null.
    pub early_api: Option<&'static str>,
    /// Who may make those reads: `client` or `admin` (`data-early-for`); or null.
    pub early_for: Option<&'static str>,
    /// The sign-in page: a public way in that clients search for, so it is indexed and shows
    /// its description beside the island. The portal's other pages are private or
    /// transactional: not indexed, the heading alone above the island.
    pub public: bool,
}

/// `app.props`: what every island gets.
#[derive(Debug, Serialize)]
pub struct IslandProps<'a> {
    /// The coach's time zone, in which session times are shown.
    #[serde(rename = "timeZone")]
    pub time_zone: &'a str,
    /// How many months credits the admin grants last unless the admin picks (settings
    /// `credits.default_validity_months`), named by the admin forms' "Default" choice.
    #[serde(rename = "defaultValidityMonths")]
    pub default_validity_months: u32,
}

/// One of `packages[]` on the pricing pages: a package card, with the per-unit price and the
/// saving. Money is in minor units: print it with `| money`.
#[derive(Debug, Serialize)]
pub struct PackageCard<'a> {
    /// The package's stable id: the Buy Now button's `data-buy-package`, which the purchase
    /// dialog sends.
    pub id: &'a str,
    /// The card's heading.
    pub name: &'a str,
    /// `individual` or `group`.
    pub package_type: PackageType,
    /// Sessions (individual) or hours (group).
    pub sessions: u32,
    /// After the number: "Session", "Sessions" or "Hours of Group Coaching".
    pub sessions_label: &'a str,
    /// The whole package's price.
    pub price: i64,
    /// The price of one session or hour, rounded.
    pub price_per_session: i64,
    /// After it: "per session" or "EGP per hour".
    pub per_unit_label: &'a str,
    /// The "Save N%" badge: the saving in percent against the dearest unit price of the same
    /// type; 0 = no badge.
    pub discount: i64,
    /// The saving in the badge, rounded to whole pounds.
    pub savings: i64,
    /// The card's list.
    pub features: &'a [String],
    /// "Credits valid for N months".
    pub validity_months: u32,
    /// A highlighted card.
    pub is_featured: bool,
    /// The methods it may be paid with (PayTabs codes, space-separated: the Buy Now button's
    /// `data-payment-methods`), the settings' narrowed to the package's.
    pub payment_methods: String,
    /// Whether one of them is an instalment plan (the card says so).
    pub instalments: bool,
}

/// The package cards of one type, with the per-unit price and the saving against the dearest
/// unit price of the same type (normally the single session), so editors only write the
/// package price.
pub fn packages<'a>(
    all: &[&'a Package],
    kind: PackageType,
    payments: &PaymentSettings,
    loc: &'a Locale,
) -> Vec<PackageCard<'a>> {
    let of_kind: Vec<&'a Package> = all
        .iter()
        .copied()
        .filter(|p| p.package_type == kind)
        .collect();
    let unit = |p: &Package| p.price.minor() as f64 / p.sessions as f64;
    let base_rate = of_kind.iter().map(|p| unit(p)).fold(0.0_f64, f64::max);
    let mut sorted = of_kind;
    sorted.sort_by_key(|p| (p.display_order, p.sessions));
    sorted
        .into_iter()
        .map(|p| {
            let full = base_rate * p.sessions as f64;
            let savings = (full - p.price.minor() as f64).max(0.0);
            let discount = if full > 0.0 {
                (savings / full * 100.0).round() as i64
            } else {
                0
            };
            // A saving that rounds to 0% is noise (e.g. a few piastres of rounding): no badge.
            let (discount, savings) = if discount == 0 {
                (0, 0.0)
            } else {
                (discount, savings)
            };
            let methods = payments.offered(p.price, &p.payment_methods);
            let sessions_label = loc.text(match (kind, p.sessions) {
                (PackageType::Group, _) => "pricing.group_hours",
                (PackageType::Individual, 1) => "pricing.session",
                (PackageType::Individual, _) => "pricing.sessions",
            });
            PackageCard {
                id: &p.id,
                name: &p.name,
                package_type: p.package_type,
                sessions: p.sessions,
                sessions_label,
                price: p.price.minor(),
                price_per_session: unit(p).round() as i64,
                per_unit_label: loc.text(if kind == PackageType::Group {
                    "pricing.per_hour"
                } else {
                    "pricing.per_session"
                }),
                discount,
                savings: (savings / 100.0).round() as i64 * 100,
                features: &p.features,
                validity_months: p.validity_months,
                is_featured: p.is_featured,
                // A transfer (InstaPay or bank) is offered on every package when the
                // settings give where it goes.
                payment_methods: methods
                    .iter()
                    .map(|m| m.code())
                    .chain(payments.transfer.is_some().then_some("transfer"))
                    .collect::<Vec<_>>()
                    .join(" "),
                instalments: methods.iter().any(|m| m.is_instalments()),
            }
        })
        .collect()
}

/// A view as a template value. Views are structs of strings, numbers and lists, which always
/// serialise.
pub fn to_value(view: impl Serialize) -> Value {
    serde_json::to_value(view).expect("a view serialises to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_tags_drop_the_category_and_case_duplicates() {
        let tags = ["Leadership", "leadership", "Strategy", "Teams", "Growth"].map(String::from);
        assert_eq!(
            card_tags(&tags, Some("LEADERSHIP"), 3),
            ["Strategy", "Teams", "Growth"]
        );
        assert_eq!(card_tags(&tags, None, 2), ["Leadership", "Strategy"]);
    }

    fn pkg(id: &str, sessions: u32, egp: i64) -> Package {
        Package {
            id: id.into(),
            name: id.into(),
            package_type: PackageType::Individual,
            sessions,
            price: Money(egp * 100),
            validity_months: 6,
            features: vec![],
            is_featured: false,
            is_active: true,
            display_order: sessions as i32,
            payment_methods: vec![],
        }
    }

    #[test]
    fn packages_compute_discount_and_savings_from_the_single_session_rate() {
        let (a, b) = (pkg("one", 1, 4500), pkg("five", 5, 20250));
        let en = crate::locale::english();
        let payments = PaymentSettings::default();
        let cards = packages(&[&a, &b], PackageType::Individual, &payments, &en);
        assert_eq!(cards[0].discount, 0);
        assert_eq!(cards[1].discount, 10);
        assert_eq!(cards[1].savings, 2250 * 100);
        assert_eq!(cards[1].price_per_session, 4050 * 100);
        assert_eq!(cards[1].sessions_label, "Sessions");
        assert_eq!(cards[0].sessions_label, "Session");
        assert_eq!(cards[1].payment_methods, "creditcard");
        assert!(!cards[1].instalments);
        let with_transfer = PaymentSettings {
            transfer: Some(content_model::model::TransferSettings {
                instapay: Some("nadine@instapay".into()),
                iban: None,
                account_name: "N".into(),
                bank: None,
                lapse_days: 3,
            }),
            ..PaymentSettings::default()
        };
        let cards = packages(&[&a, &b], PackageType::Individual, &with_transfer, &en);
        assert_eq!(cards[0].payment_methods, "creditcard transfer");
    }

    #[test]
    fn a_card_names_its_methods_and_says_when_instalments_are_offered() {
        use content_model::payments::PaymentMethod::*;
        let (a, mut b) = (pkg("one", 1, 4500), pkg("five", 5, 20250));
        b.payment_methods = vec![Creditcard, Valu];
        let payments = PaymentSettings {
            paytabs: vec![Creditcard, Meezaqr, Valu],
            instalments_from: Some(Money(900_000)),
            ..PaymentSettings::default()
        };
        let en = crate::locale::english();
        let cards = packages(&[&a, &b], PackageType::Individual, &payments, &en);
        assert_eq!(cards[0].payment_methods, "creditcard meezaqr");
        assert!(!cards[0].instalments);
        assert_eq!(cards[1].payment_methods, "creditcard valu");
        assert!(cards[1].instalments);
    }
}
