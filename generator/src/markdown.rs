//! Markdown to HTML with pulldown-cmark: tables, footnotes, strikethrough, heading anchors.
//!
//! Content is trusted (it comes from the editors' git repository), so the HTML is used as is;
//! everything else in templates is auto-escaped by Tera.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html};

use crate::assets::AssetMap;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rendered {
    pub html: String,
    /// The start of the text without markup (at least [`LEAD_CHARS`]), for excerpts.
    pub lead: String,
    /// Words in the whole text, for the reading time.
    pub words: usize,
}

/// How much plain text [`Rendered::lead`] keeps: enough for any excerpt, no more, because a
/// large site holds every page's summary in memory.
pub const LEAD_CHARS: usize = 400;

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_SMART_PUNCTUATION
}

/// `What's Included?` → `whats-included`.
pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut dash = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
            dash = false;
        } else if (c.is_whitespace() || c == '-' || c == '_') && !out.is_empty() && !dash {
            out.push('-');
            dash = true;
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// How wide an image in an article's text is shown: the text column (`.prose`, 46rem), or the
/// screen less its margins.
const BODY_IMAGE_SIZES: &str = "(min-width: 48rem) 46rem, calc(100vw - 2.5rem)";

/// Renders Markdown. `/static/…` image and link targets are rewritten to their fingerprinted
/// names through `assets`; headings get unique `id`s so `#anchors` work.
pub fn render(source: &str, assets: &AssetMap) -> Rendered {
    render_linked(source, assets, &|_| None)
}

/// [`render`], with the site's other links given by `localize` where it answers (a
/// translation's links to the pages of its own language).
pub fn render_linked(
    source: &str,
    assets: &AssetMap,
    localize: &dyn Fn(&str) -> Option<String>,
) -> Rendered {
    let mut events: Vec<Event> = Parser::new_ext(source, options()).collect();
    let mut used = HashSet::new();
    let mut plain = PlainText::default();

    let mut i = 0;
    while i < events.len() {
        match &events[i] {
            Event::Start(Tag::Heading { id: None, .. }) => name_heading(&mut events, i, &mut used),
            Event::Start(Tag::Heading { id: Some(id), .. }) => {
                used.insert(id.to_string());
            }
            Event::Text(t) | Event::Code(t) => plain.push(t),
            Event::SoftBreak
            | Event::HardBreak
            | Event::End(
                TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::Item | TagEnd::TableCell,
            ) => plain.separate(),
            _ => {}
        }
        link_asset(&mut events, i, assets, localize);
        i += 1;
    }

    Rendered {
        html: to_html(events, source.len() * 3 / 2),
        lead: plain.lead(),
        words: plain.words,
    }
}

/// The text of the events from `from` up to the first that `is_end` matches (or the end), and
/// that event's index.
fn text_until(events: &[Event], from: usize, is_end: impl Fn(&Event) -> bool) -> (String, usize) {
    let mut text = String::new();
    let mut j = from;
    while j < events.len() && !is_end(&events[j]) {
        if let Event::Text(t) | Event::Code(t) = &events[j] {
            text.push_str(t);
        }
        j += 1;
    }
    (text, j)
}

/// Gives the heading that starts at `i` an `id` from its text, unique among `used`.
fn name_heading(events: &mut [Event], i: usize, used: &mut HashSet<String>) {
    let (text, _) = text_until(events, i + 1, |e| {
        matches!(e, Event::End(TagEnd::Heading(_)))
    });
    let base = match slugify(&text) {
        s if s.is_empty() => "section".to_string(),
        s => s,
    };
    let mut id = base.clone();
    let mut n = 1;
    while !used.insert(id.clone()) {
        id = format!("{base}-{n}");
        n += 1;
    }
    if let Event::Start(Tag::Heading { id: slot, .. }) = &mut events[i] {
        *slot = Some(CowStr::from(id));
    }
}

/// Points the image or link that starts at `i` at its fingerprinted asset; a photo of the
/// site becomes its responsive `<img>`, alt text and all; another link of the site goes where
/// `localize` says.
fn link_asset(
    events: &mut Vec<Event>,
    i: usize,
    assets: &AssetMap,
    localize: &dyn Fn(&str) -> Option<String>,
) {
    if let Event::Start(Tag::Image { dest_url, .. }) = &events[i]
        && let Some(image) = assets.images.get(dest_url)
    {
        // A photo of the site gets its responsive WebP sizes and its dimensions, like the
        // templates' `image()`: the alt text is the image's text events.
        let (alt, j) = text_until(events, i + 1, |e| matches!(e, Event::End(TagEnd::Image)));
        let args = HashMap::from([
            ("alt".to_string(), Value::String(alt)),
            ("sizes".to_string(), Value::String(BODY_IMAGE_SIZES.into())),
        ]);
        let tag = crate::images::img_tag(image, &args);
        events.splice(
            i..(j + 1).min(events.len()),
            [Event::InlineHtml(tag.into())],
        );
    } else if let Event::Start(Tag::Image { dest_url, .. } | Tag::Link { dest_url, .. }) =
        &mut events[i]
        && let Some(hashed) = assets.lookup(dest_url)
    {
        *dest_url = CowStr::from(hashed.to_string());
    } else if let Event::Start(Tag::Link { dest_url, .. }) = &mut events[i]
        && let Some(localized) = localize(dest_url)
    {
        *dest_url = CowStr::from(localized);
    }
}

/// The HTML of `events`, table alignment as classes: the site's Content-Security-Policy
/// forbids the inline styles pulldown-cmark writes.
fn to_html(events: Vec<Event>, capacity: usize) -> String {
    let mut out = String::with_capacity(capacity);
    html::push_html(&mut out, events.into_iter());
    for align in ["left", "center", "right"] {
        out = out.replace(
            &format!(" style=\"text-align: {align}\""),
            &format!(" class=\"align-{align}\""),
        );
    }
    out
}

/// The text without markup as the events go by: its start, for the lead, and its words.
#[derive(Default)]
struct PlainText {
    /// The text so far, kept only while it may still reach the lead.
    text: String,
    words: usize,
    in_word: bool,
}

impl PlainText {
    /// Adds a text event. Words are counted across events: `**bold**.` is one word, not two.
    fn push(&mut self, t: &str) {
        for c in t.chars() {
            let space = c.is_whitespace();
            if !space && !self.in_word {
                self.words += 1;
            }
            self.in_word = !space;
        }
        if self.text.len() < LEAD_CHARS * 4 {
            self.text.push_str(t);
        }
    }

    /// Ends a word at a break between blocks, cells or lines.
    fn separate(&mut self) {
        self.text.push(' ');
        self.in_word = false;
    }

    /// The first [`LEAD_CHARS`] characters, whitespace collapsed.
    fn lead(&self) -> String {
        let lead = self.text.split_whitespace().collect::<Vec<_>>().join(" ");
        match lead.char_indices().nth(LEAD_CHARS) {
            Some((i, _)) => lead[..i].to_string(),
            None => lead,
        }
    }
}

/// The first `max` characters of `plain`, cut at a word boundary, with `...` when cut.
pub fn excerpt(plain: &str, max: usize) -> String {
    if plain.chars().count() <= max {
        return plain.to_string();
    }
    let cut: String = plain.chars().take(max).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > max / 2 => &cut[..i],
        _ => &cut[..],
    };
    format!("{}...", cut.trim_end_matches([',', ';', ':', '.', ' ']))
}

/// Minutes to read at 200 words a minute, at least 1.
pub fn read_time_minutes(words: usize) -> u32 {
    (words.div_ceil(200) as u32).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugify_keeps_words_and_drops_punctuation() {
        assert_eq!(slugify("What's Included?"), "whats-included");
        assert_eq!(slugify("  Step 1 — Plan  "), "step-1-plan");
    }

    #[test]
    fn excerpt_cuts_at_a_word_and_marks_the_cut() {
        let text = "one two three four five six";
        assert_eq!(excerpt(text, 100), text);
        assert_eq!(excerpt(text, 12), "one two...");
    }

    #[test]
    fn read_time_rounds_up() {
        assert_eq!(read_time_minutes(1), 1);
        assert_eq!(read_time_minutes(401), 3);
    }
}
