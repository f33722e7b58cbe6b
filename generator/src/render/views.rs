//! What templates see: the content reshaped for display, computed once per build.
//! The shapes are documented in `themes/default/README.md`.

use chrono::{DateTime, NaiveDate, NaiveTime, TimeZone, Utc};
use serde_json::{Value, json};

use crate::content::model::*;
use crate::content::{Entry, LegalDoc};
use crate::markdown::{self, Rendered};

/// `Mar 01, 2026` (spec §9: MMM dd, yyyy).
pub fn date_display(d: NaiveDate) -> String {
    d.format("%b %d, %Y").to_string()
}

pub struct Nav;

impl Nav {
    pub fn header() -> Value {
        links(&[
            ("/work-with-me", "Work With Me"),
            ("/about", "About"),
            ("/resources", "Resources"),
            ("/videos", "Videos"),
            ("/events", "Events"),
            ("/contact", "Contact"),
            ("/auth", "Client Login"),
        ])
    }

    pub fn footer() -> Value {
        links(&[
            ("/work-with-me", "Work With Me"),
            ("/about", "About"),
            ("/resources", "Resources"),
            ("/videos", "Videos"),
            ("/testimonials", "Testimonials"),
            ("/faq", "FAQ"),
            ("/contact", "Contact"),
            ("/terms", "Terms & Conditions"),
            ("/privacy-policy", "Privacy Policy"),
            ("/return-policy", "Return Policy"),
            ("/delivery-policy", "Delivery Policy"),
            ("/cancellation-policy", "Cancellation Policy"),
            ("/", "Home"),
        ])
    }
}

fn links(items: &[(&str, &str)]) -> Value {
    Value::Array(
        items
            .iter()
            .map(|(href, label)| json!({"href": href, "label": label}))
            .collect(),
    )
}

/// `brochure_url` is given as written (`/static/…`); templates print it through `asset`.
pub fn site(settings: &Settings, year: i32) -> Value {
    let sm = &settings.social_media;
    let social: Vec<Value> = [
        ("linkedin", "LinkedIn", &sm.linkedin),
        ("youtube", "YouTube", &sm.youtube),
        ("instagram", "Instagram", &sm.instagram),
        ("tiktok", "TikTok", &sm.tiktok),
        ("whatsapp", "WhatsApp", &sm.whatsapp),
    ]
    .into_iter()
    .filter_map(|(network, label, url)| {
        url.as_ref()
            .map(|u| json!({"network": network, "label": label, "url": u}))
    })
    .collect();
    json!({
        "name": settings.site_info.site_name,
        "description": settings.site_info.description,
        "base_url": settings.base_url.trim_end_matches('/'),
        "currency": settings.currency,
        "time_zone": settings.time_zone,
        "hero": settings.hero_section,
        "social": social,
        "contact": settings.contact_info,
        "scheduling": settings.scheduling,
        "brochure_url": settings.brochure_url,
        "whatsapp_url": whatsapp_url(settings),
        "year": year,
    })
}

fn whatsapp_url(settings: &Settings) -> Option<String> {
    settings
        .contact_info
        .whatsapp
        .clone()
        .or_else(|| settings.social_media.whatsapp.clone())
}

/// The extra button of a service card on /work-with-me (spec §2).
fn service_action(slug: &str, meta: &ServiceMeta, settings: &Settings) -> Value {
    match slug {
        "coaching-session" => {
            json!({"kind": "pricing", "href": "/pricing", "label": "View Pricing"})
        }
        "group-team-coaching" => json!({
            "kind": "group_pricing", "href": "/group-team-coaching-pricing", "label": "View Group Pricing"
        }),
        "workshops-retreats" if whatsapp_url(settings).is_some() => json!({
            "kind": "whatsapp", "href": whatsapp_url(settings), "label": "Chat on WhatsApp"
        }),
        _ => match &meta.partner_url {
            Some(url) => json!({
                "kind": "partner", "href": url,
                "label": meta.partner_label.clone().unwrap_or_else(|| "Visit Partner Site".into())
            }),
            None => json!({"kind": "price", "href": null, "label": meta.price}),
        },
    }
}

pub fn service(e: &Entry<ServiceMeta>, rendered: Option<&Rendered>, settings: &Settings) -> Value {
    let m = &e.meta;
    json!({
        "slug": e.slug,
        "url": format!("/services/{}", e.slug),
        "title": m.title,
        "short_description": m.short_description,
        "duration": m.duration,
        "price": m.price,
        "features": m.features,
        "benefits": m.benefits,
        "image_url": m.image_url,
        "is_featured": m.is_featured,
        "meta_description": m.meta_description,
        "action": service_action(&e.slug, m, settings),
        "content_html": rendered.map(|r| r.html.as_str()),
    })
}

/// Tags shown on a card: the category is not repeated, duplicates differing only by case are
/// dropped, and at most `max` remain.
pub fn card_tags(tags: &[String], category: Option<&str>, max: usize) -> Vec<String> {
    let mut seen: Vec<String> = category.map(|c| vec![c.to_lowercase()]).unwrap_or_default();
    let mut out = Vec::new();
    for t in tags {
        let key = t.trim().to_lowercase();
        if key.is_empty() || seen.contains(&key) {
            continue;
        }
        seen.push(key);
        out.push(t.trim().to_string());
        if out.len() == max {
            break;
        }
    }
    out
}

pub fn resource_card(e: &Entry<ResourceMeta>) -> Value {
    let m = &e.meta;
    json!({
        "kind": "resource",
        "title": m.title,
        "url": format!("/resources/{}", e.slug),
        "excerpt": m.description,
        "category": m.category,
        "card_tags": card_tags(&m.tags, Some(&m.category), 3),
        "tags": m.tags,
        "image_url": m.image_url,
        "date": m.created_at.to_string(),
        "date_display": date_display(m.created_at),
        "read_time_minutes": null,
    })
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

pub fn blog_card(e: &Entry<BlogPostMeta>, rendered: &Rendered) -> Value {
    let m = &e.meta;
    json!({
        "kind": "blog",
        "title": m.title,
        "url": format!("/blog/{}", e.slug),
        "excerpt": blog_excerpt(e, rendered),
        "category": m.category,
        "card_tags": card_tags(&m.tags, Some(&m.category), 3),
        "tags": m.tags,
        "image_url": m.featured_image_url,
        "date": m.created_at.to_string(),
        "date_display": date_display(m.created_at),
        "read_time_minutes": blog_read_time(e, rendered),
    })
}

/// A resource or a blog post as a page: both use `article.html`, so they share one shape.
pub fn resource_page(e: &Entry<ResourceMeta>, rendered: &Rendered) -> Value {
    let m = &e.meta;
    let mut byline = vec![format!("Published {}", date_display(m.created_at))];
    byline.extend(m.updated_at.map(|u| format!("Updated {}", date_display(u))));
    json!({
        "kind": "resource",
        "title": m.title,
        "lead": m.description,
        "category": m.category,
        "tags": m.tags,
        "image_url": m.image_url,
        "byline": byline,
        "content_html": rendered.html,
        "url": format!("/resources/{}", e.slug),
    })
}

pub fn blog_page(e: &Entry<BlogPostMeta>, rendered: Rendered) -> Value {
    let m = &e.meta;
    let byline = [
        date_display(m.created_at),
        format!("{} min read", blog_read_time(e, &rendered)),
    ];
    let mut view = json!({
        "kind": "blog",
        "title": m.title,
        "lead": blog_excerpt(e, &rendered),
        "category": m.category,
        "tags": m.tags,
        "image_url": m.featured_image_url,
        "byline": byline,
        "url": format!("/blog/{}", e.slug),
    });
    // Moved, not copied (`json!` would serialise a copy of the whole post).
    view["content_html"] = Value::String(rendered.html);
    view
}

pub fn video(v: &Video) -> Value {
    let thumbnail = v
        .thumbnail
        .clone()
        .unwrap_or_else(|| format!("https://i.ytimg.com/vi/{}/hqdefault.jpg", v.youtube_id));
    json!({
        "youtube_id": v.youtube_id,
        "title": v.title,
        "description": v.description,
        "category": v.category,
        "extra_tags": card_tags(&v.tags, v.category.as_deref(), 2),
        "duration": v.duration,
        "published_display": date_display(v.published_at),
        "thumbnail": thumbnail,
        "embed_url": format!("https://www.youtube-nocookie.com/embed/{}", v.youtube_id),
        "watch_url": format!("https://www.youtube.com/watch?v={}", v.youtube_id),
    })
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

pub fn event(
    e: &Entry<EventMeta>,
    rendered: &Rendered,
    tz: chrono_tz::Tz,
    now: DateTime<Utc>,
) -> Value {
    let m = &e.meta;
    let starts = event_start(m, tz);
    let label = match m.location_type {
        LocationType::InPerson => "In person",
        LocationType::Online => "Online",
        LocationType::Hybrid => "Hybrid",
    };
    json!({
        "slug": e.slug,
        "title": m.title,
        "description_html": rendered.html,
        "date_display": date_display(m.event_date),
        "time_display": m.event_time,
        "starts_at": starts.to_rfc3339(),
        "is_past": starts.with_timezone(&Utc) < now,
        "location": m.location,
        "location_type": m.location_type,
        "location_type_label": label,
        "max_participants": m.max_participants,
        "photos": m.photos,
        "preview_photos": m.photos.iter().take(4).collect::<Vec<_>>(),
        "registration_url": m.registration_url,
        "is_featured": m.is_featured,
    })
}

pub fn testimonial(t: &Testimonial) -> Value {
    json!({
        "client_name": t.client_name,
        "client_title": t.client_title,
        "client_company": t.client_company,
        "testimonial_text": t.testimonial_text,
        "rating": t.rating,
        "is_featured": t.is_featured,
    })
}

pub fn about(e: &Entry<AboutMeta>, rendered: &Rendered) -> Value {
    let mut v = serde_json::to_value(&e.meta).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut v {
        map.insert("content_html".into(), Value::String(rendered.html.clone()));
    }
    v
}

pub fn legal(doc: &LegalDoc, en: &Rendered, ar: Option<&Rendered>) -> Value {
    json!({
        "name": doc.name,
        "title": doc.en.meta.title,
        "content_html": en.html,
        "updated_display": doc.en.meta.updated_at.map(date_display),
        "ar": doc.ar.as_ref().zip(ar).map(|(a, r)| json!({"title": a.meta.title, "content_html": r.html})),
    })
}

/// A package card, with the per-unit price and the saving against the dearest unit price of
/// the same type (normally the single session), so editors only write the package price.
pub fn packages(all: &[&Package], kind: PackageType) -> Vec<Value> {
    let of_kind: Vec<&&Package> = all.iter().filter(|p| p.package_type == kind).collect();
    let unit = |p: &Package| p.price.minor() as f64 / p.sessions as f64;
    let base_rate = of_kind.iter().map(|p| unit(p)).fold(0.0_f64, f64::max);
    let mut sorted = of_kind;
    sorted.sort_by_key(|p| (p.display_order, p.sessions));
    sorted
        .into_iter()
        .map(|p| {
            let full = base_rate * p.sessions as f64;
            let savings = (full - p.price.minor() as f64).max(0.0);
            let discount = if full > 0.0 { (savings / full * 100.0).round() as i64 } else { 0 };
            // A saving that rounds to 0% is noise (e.g. a few piastres of rounding): no badge.
            let (discount, savings) = if discount == 0 { (0, 0.0) } else { (discount, savings) };
            let sessions_label = match (kind, p.sessions) {
                (PackageType::Group, _) => "Hours of Group Coaching",
                (PackageType::Individual, 1) => "Session",
                (PackageType::Individual, _) => "Sessions",
            };
            json!({
                "id": p.id,
                "name": p.name,
                "package_type": p.package_type,
                "sessions": p.sessions,
                "sessions_label": sessions_label,
                "price": p.price.minor(),
                "price_per_session": unit(p).round() as i64,
                "per_unit_label": if kind == PackageType::Group { "EGP per hour" } else { "per session" },
                "discount": discount,
                "savings": (savings / 100.0).round() as i64 * 100,
                "features": p.features,
                "validity_months": p.validity_months,
                "is_featured": p.is_featured,
            })
        })
        .collect()
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
        }
    }

    #[test]
    fn packages_compute_discount_and_savings_from_the_single_session_rate() {
        let (a, b) = (pkg("one", 1, 4500), pkg("five", 5, 20250));
        let cards = packages(&[&a, &b], PackageType::Individual);
        assert_eq!(cards[0]["discount"], 0);
        assert_eq!(cards[1]["discount"], 10);
        assert_eq!(cards[1]["savings"], 2250 * 100);
        assert_eq!(cards[1]["price_per_session"], 4050 * 100);
        assert_eq!(cards[1]["sessions_label"], "Sessions");
        assert_eq!(cards[0]["sessions_label"], "Session");
    }
}
