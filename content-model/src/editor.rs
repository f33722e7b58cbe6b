//! The coach's editor's configuration (Decap CMS `collections`), generated from the model's
//! own types: each type is traced through its `Deserialize` implementation (a deserializer
//! that answers every request with a sample and records what was asked: a string, a date, a
//! number, a list, a choice among variants, a nested object), so a field added to the model
//! appears in the editor with the widget of its type, and a field the model does not require
//! is not required in the editor. Nothing here is written by hand but what a type cannot
//! say: which collection is which folder or file, and which strings are images.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Visitor};
use serde_json::{Value, json};

use crate::i18n::Texts;
use crate::model::*;

/// What a field is, as its type deserializes.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Text,
    Date,
    Bool,
    Integer,
    /// A number that may have decimals (an amount).
    Number,
    Choice(Vec<&'static str>),
    List(Box<Shape>),
    Object(Vec<Field>),
    Optional(Box<Shape>),
    Unknown,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: &'static str,
    pub shape: Shape,
    pub required: bool,
}

#[derive(Debug)]
struct Stop(String);

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Stop {}
impl de::Error for Stop {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Stop(msg.to_string())
    }
}

type Slot = Rc<RefCell<Shape>>;

fn slot() -> Slot {
    Rc::new(RefCell::new(Shape::Unknown))
}

/// A deserializer that records what it is asked for into `slot` and answers with a sample.
struct Probe {
    slot: Slot,
    /// For a struct: the only fields to offer (`None`: all of them).
    only: Option<Vec<&'static str>>,
}

struct Expecting<'a, V>(&'a V);
impl<'de, V: Visitor<'de>> fmt::Display for Expecting<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
}

impl<'de> de::Deserializer<'de> for Probe {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        // Only `Money` (an untagged number or text) asks for anything.
        *self.slot.borrow_mut() = Shape::Number;
        v.visit_u64(1)
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        *self.slot.borrow_mut() = Shape::Bool;
        v.visit_bool(true)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.integer(v)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.integer(v)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.integer(v)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.integer(v)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.integer(v)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.integer(v)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.integer(v)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.integer(v)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        *self.slot.borrow_mut() = Shape::Number;
        v.visit_f64(1.0)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        *self.slot.borrow_mut() = Shape::Number;
        v.visit_f64(1.0)
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.text(v)
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.text(v)
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.text(v)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Stop> {
        Err(Stop("bytes".into()))
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Stop> {
        Err(Stop("bytes".into()))
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        let inner = slot();
        let result = v.visit_some(Probe {
            slot: inner.clone(),
            only: None,
        });
        *self.slot.borrow_mut() = Shape::Optional(Box::new(inner.borrow().clone()));
        result
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        v.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Stop> {
        v.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> Result<V::Value, Stop> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        let inner = slot();
        let result = v.visit_seq(OneItem {
            slot: Some(inner.clone()),
        });
        *self.slot.borrow_mut() = Shape::List(Box::new(inner.borrow().clone()));
        result
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> Result<V::Value, Stop> {
        self.deserialize_seq(v)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> Result<V::Value, Stop> {
        self.deserialize_seq(v)
    }
    fn deserialize_map<V: Visitor<'de>>(self, _v: V) -> Result<V::Value, Stop> {
        Err(Stop("map".into()))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Stop> {
        let offered: Vec<&'static str> = match &self.only {
            Some(only) => only.clone(),
            None => fields.to_vec(),
        };
        let slots: Vec<(&'static str, Slot)> = offered.iter().map(|f| (*f, slot())).collect();
        let result = v.visit_map(Fields {
            fields: slots.clone(),
            at: 0,
        });
        *self.slot.borrow_mut() = Shape::Object(
            fields
                .iter()
                .map(|name| Field {
                    name,
                    shape: slots
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, s)| s.borrow().clone())
                        .unwrap_or(Shape::Unknown),
                    required: false,
                })
                .collect(),
        );
        result
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Stop> {
        *self.slot.borrow_mut() = Shape::Choice(variants.to_vec());
        v.visit_enum(de::value::StrDeserializer::<Stop>::new(variants[0]))
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        self.text(v)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        v.visit_unit()
    }
}

impl Probe {
    fn integer<'de, V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        *self.slot.borrow_mut() = Shape::Integer;
        v.visit_u64(1)
    }
    fn text<'de, V: Visitor<'de>>(self, v: V) -> Result<V::Value, Stop> {
        let expecting = Expecting(&v).to_string();
        if expecting.contains("date") {
            *self.slot.borrow_mut() = Shape::Date;
            v.visit_str("2025-01-01")
        } else {
            *self.slot.borrow_mut() = Shape::Text;
            // A sample every text type of the model accepts, the time zone's name too: a value
            // refused ends the whole struct's probe, and every field after it would be unknown
            // (the settings' sections shown as plain text).
            v.visit_str("UTC")
        }
    }
}

struct OneItem {
    slot: Option<Slot>,
}

impl<'de> de::SeqAccess<'de> for OneItem {
    type Error = Stop;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Stop> {
        match self.slot.take() {
            Some(slot) => seed.deserialize(Probe { slot, only: None }).map(Some),
            None => Ok(None),
        }
    }
}

struct Fields {
    fields: Vec<(&'static str, Slot)>,
    at: usize,
}

impl<'de> de::MapAccess<'de> for Fields {
    type Error = Stop;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        match self.fields.get(self.at) {
            Some((name, _)) => seed
                .deserialize(de::value::StrDeserializer::<Stop>::new(name))
                .map(Some),
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Stop> {
        let (_, slot) = self.fields[self.at].clone();
        self.at += 1;
        seed.deserialize(Probe { slot, only: None })
    }
}

/// The fields of `T`, each with its shape and whether the model requires it (it has no
/// default and is not optional: found by offering every field but one).
pub fn fields_of<T: for<'de> Deserialize<'de>>() -> Vec<Field> {
    let top = slot();
    let _ = T::deserialize(Probe {
        slot: top.clone(),
        only: None,
    });
    let Shape::Object(mut fields) = top.borrow().clone() else {
        return Vec::new();
    };
    // Which are required: offer the ones found so far, learn the next one missing.
    let mut offered: Vec<&'static str> = Vec::new();
    for _ in 0..=fields.len() {
        let err = T::deserialize(Probe {
            slot: slot(),
            only: Some(offered.clone()),
        })
        .err();
        let missing = err.as_ref().and_then(|e| {
            let text = e.0.strip_prefix("missing field `")?;
            Some(text.split('`').next()?.to_string())
        });
        match missing {
            Some(name) if !offered.iter().any(|o| *o == name) => {
                if let Some(f) = fields.iter_mut().find(|f| f.name == name) {
                    f.required = true;
                    offered.push(f.name);
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    fields
}

/// Strings that hold an image's address (under `/static/`): the image widget.
fn is_image(name: &str) -> bool {
    name.ends_with("image_url")
        || matches!(name, "logo_url" | "portrait_url" | "thumbnail" | "photos")
}

/// Longer texts: the multi-line widget.
fn is_long(name: &str) -> bool {
    matches!(
        name,
        "description"
            | "short_description"
            | "excerpt"
            | "meta_description"
            | "answer"
            | "testimonial_text"
            | "content"
    )
}

fn label(name: &str) -> String {
    let text = name.replace('_', " ");
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => text,
    }
}

/// One Decap field for `shape`.
pub fn widget(name: &str, shape: &Shape, required: bool) -> Value {
    let mut field = json!({ "name": name, "label": label(name), "required": required });
    let set = |f: &mut Value, extra: Value| {
        for (k, v) in extra.as_object().expect("an object") {
            f[k] = v.clone();
        }
    };
    // Texts are translated (`<name>.ar.md`); the rest comes from the original.
    if matches!(shape, Shape::Text)
        || matches!(shape, Shape::Optional(s) if **s == Shape::Text)
        || matches!(shape, Shape::List(s) if **s == Shape::Text)
    {
        field["i18n"] = json!(true);
    }
    match shape {
        Shape::Optional(inner) => {
            let mut f = widget(name, inner, false);
            if field.get("i18n").is_some() {
                f["i18n"] = json!(true);
            }
            return f;
        }
        Shape::Text if is_image(name) => set(&mut field, json!({ "widget": "image" })),
        Shape::Text if is_long(name) => set(&mut field, json!({ "widget": "text" })),
        Shape::Text | Shape::Unknown => set(&mut field, json!({ "widget": "string" })),
        Shape::Date => set(
            &mut field,
            json!({ "widget": "datetime", "format": "YYYY-MM-DD", "date_format": "YYYY-MM-DD", "time_format": false }),
        ),
        Shape::Bool => set(&mut field, json!({ "widget": "boolean", "default": false })),
        Shape::Integer => set(
            &mut field,
            json!({ "widget": "number", "value_type": "int" }),
        ),
        Shape::Number => set(
            &mut field,
            json!({ "widget": "number", "value_type": "float" }),
        ),
        Shape::Choice(options) => set(
            &mut field,
            json!({ "widget": "select", "options": options }),
        ),
        Shape::List(item) => match item.as_ref() {
            Shape::Text if is_image(name) => set(
                &mut field,
                json!({ "widget": "list", "field": { "name": "photo", "label": "Photo", "widget": "image" } }),
            ),
            Shape::Text | Shape::Unknown => set(&mut field, json!({ "widget": "list" })),
            Shape::Object(fields) => set(
                &mut field,
                json!({ "widget": "list", "fields": fields.iter().map(|f| widget(f.name, &f.shape, f.required)).collect::<Vec<_>>() }),
            ),
            other => set(
                &mut field,
                json!({ "widget": "list", "field": widget("item", other, true) }),
            ),
        },
        Shape::Object(fields) => set(
            &mut field,
            json!({ "widget": "object", "fields": fields.iter().map(|f| widget(f.name, &f.shape, f.required)).collect::<Vec<_>>() }),
        ),
    }
    field
}

fn fields_json<T: for<'de> Deserialize<'de>>() -> Vec<Value> {
    fields_of::<T>()
        .iter()
        .map(|f| widget(f.name, &f.shape, f.required))
        .collect()
}

/// A folder of Markdown files with front matter of type `T`, translated as `<name>.ar.md`.
fn folder<T: for<'de> Deserialize<'de>>(name: &str, label: &str, folder: &str) -> Value {
    let mut fields = fields_json::<T>();
    fields.push(json!({ "name": "body", "label": "Body", "widget": "markdown", "required": false, "i18n": true }));
    json!({
        "name": name, "label": label, "folder": folder, "extension": "md", "format": "frontmatter",
        "create": true, "slug": "{{slug}}", "i18n": true, "fields": fields,
    })
}

fn with_body(mut fields: Vec<Value>) -> Vec<Value> {
    fields
        .push(json!({ "name": "body", "label": "Body", "widget": "markdown", "required": false }));
    fields
}

/// A field (and the fields inside it) made optional: a translation's.
fn optional(mut field: Value) -> Value {
    field["required"] = json!(false);
    for key in ["fields"] {
        if let Some(inner) = field.get_mut(key).and_then(Value::as_array_mut) {
            let taken = std::mem::take(inner);
            *inner = taken.into_iter().map(optional).collect();
        }
    }
    field
}

/// A YAML data file's texts: those the model says a person reads (`Texts`: names, questions,
/// features…, not ids, urls or codes) may be given per language (`name: {en: …, ar: …}`,
/// `crate::i18n`), which Decap's own text and list widgets cannot show (they print `Map { … }`,
/// and a save would write that). They get the editor's `translated` widget
/// (`islands/src/editor/Translated.tsx`): an English and an Arabic input, written back as a
/// plain value while there is no Arabic.
fn by_language<T: Texts>(fields: Vec<Value>) -> Vec<Value> {
    let texts: Vec<&str> = T::TEXTS.iter().chain(T::NAMES).copied().collect();
    translated(fields, "", &texts)
}

fn translated(fields: Vec<Value>, prefix: &str, texts: &[&str]) -> Vec<Value> {
    fields
        .into_iter()
        .map(|mut f| {
            let path = format!("{prefix}{}", f["name"].as_str().unwrap_or_default());
            if let Some(inner) = f.get_mut("fields").and_then(Value::as_array_mut) {
                let taken = std::mem::take(inner);
                *inner = translated(taken, &format!("{path}."), texts);
                return f;
            }
            let widget = f["widget"].as_str().unwrap_or_default().to_string();
            let list_of_texts = widget == "list" && f.get("field").is_none();
            if texts.contains(&path.as_str())
                && (widget == "string" || widget == "text" || list_of_texts)
            {
                f["widget"] = json!("translated");
                f["multiline"] = json!(widget == "text");
                f["list"] = json!(list_of_texts);
                if let Some(o) = f.as_object_mut() {
                    o.remove("i18n");
                }
            }
            f
        })
        .collect()
}

/// A YAML file holding a list of `T`.
fn list_file<T: for<'de> Deserialize<'de> + Texts>(name: &str, label: &str, file: &str) -> Value {
    // Decap reads a collection's `format`, not a file's.
    json!({
        "name": name, "label": label, "format": "yaml-list",
        "files": [{
            "name": name, "label": label, "file": file,
            "fields": [{ "name": "list", "label": label, "widget": "list", "collapsed": false, "fields": by_language::<T>(fields_json::<T>()) }],
        }],
    })
}

/// The collections of the coach's editor, from the model's types.
pub fn collections() -> Vec<Value> {
    vec![
        folder::<BlogPostMeta>("blog", "Blog", "content/blog"),
        folder::<ResourceMeta>("resources", "Resources", "content/resources"),
        folder::<ServiceMeta>("services", "Services", "content/services"),
        folder::<EventMeta>("events", "Events", "content/events"),
        // Decap translates a files collection only within one file: the Arabic about page,
        // `about.ar.md` beside `about.md`, is a file of its own, every field optional (a
        // translation writes only what it translates).
        json!({
            "name": "pages", "label": "Pages", "format": "frontmatter",
            "files": [
                { "name": "about", "label": "About", "file": "content/pages/about.md", "fields": with_body(fields_json::<AboutMeta>()) },
                { "name": "about_ar", "label": "About (Arabic)", "file": "content/pages/about.ar.md",
                  "fields": with_body(fields_json::<AboutMeta>().into_iter().map(optional).collect()) },
            ],
        }),
        folder::<LegalMeta>("policies", "Policies", "content/legal"),
        list_file::<Faq>("faqs", "FAQs", "content/faqs.yaml"),
        list_file::<Testimonial>("testimonials", "Testimonials", "content/testimonials.yaml"),
        list_file::<Logo>("logos", "Logos", "content/logos.yaml"),
        list_file::<Package>("packages", "Packages", "content/packages.yaml"),
        list_file::<Video>("videos", "Videos", "content/videos.yaml"),
        json!({
            "name": "settings", "label": "Settings", "format": "yaml",
            "files": [{
                "name": "settings", "label": "Settings", "file": "content/settings.yaml",
                "fields": by_language::<Settings>(fields_json::<Settings>()),
            }],
        }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field names serde itself knows for `T` (what `deny_unknown_fields` accepts).
    fn serde_names<T: for<'de> Deserialize<'de>>() -> Vec<&'static str> {
        fields_of::<T>().iter().map(|f| f.name).collect()
    }

    #[test]
    fn every_field_of_the_model_is_in_the_editor_with_the_widget_of_its_type() {
        let post = fields_of::<BlogPostMeta>();
        let find = |n: &str| post.iter().find(|f| f.name == n).unwrap().clone();
        assert_eq!(find("title").shape, Shape::Text);
        assert!(find("title").required);
        assert_eq!(find("created_at").shape, Shape::Date);
        assert!(find("created_at").required);
        assert!(!find("excerpt").required);
        assert!(!find("is_published").required, "it has a default");
        assert_eq!(find("tags").shape, Shape::List(Box::new(Shape::Text)));
        let package = fields_of::<Package>();
        let price = package.iter().find(|f| f.name == "price").unwrap();
        assert_eq!(price.shape, Shape::Number);
        assert!(price.required);
        let kind = package.iter().find(|f| f.name == "package_type").unwrap();
        assert_eq!(kind.shape, Shape::Choice(vec!["individual", "group"]));
    }

    /// The configuration and the model cannot differ: every collection's fields are exactly
    /// the model's (plus the Markdown body).
    #[test]
    fn the_configuration_has_exactly_the_fields_of_the_model() {
        let by_name: std::collections::HashMap<String, Value> = collections()
            .into_iter()
            .map(|c| (c["name"].as_str().unwrap().to_string(), c))
            .collect();
        let names = |fields: &Value| -> Vec<String> {
            fields
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["name"].as_str().unwrap().to_string())
                .filter(|n| n != "body")
                .collect()
        };
        assert_eq!(
            names(&by_name["blog"]["fields"]),
            serde_names::<BlogPostMeta>()
        );
        assert_eq!(
            names(&by_name["events"]["fields"]),
            serde_names::<EventMeta>()
        );
        assert_eq!(
            names(&by_name["packages"]["files"][0]["fields"][0]["fields"]),
            serde_names::<Package>()
        );
        assert_eq!(
            names(&by_name["settings"]["files"][0]["fields"]),
            serde_names::<Settings>()
        );
        for wanted in [
            "blog",
            "resources",
            "services",
            "events",
            "pages",
            "policies",
            "faqs",
            "testimonials",
            "logos",
            "packages",
            "videos",
            "settings",
        ] {
            assert!(by_name.contains_key(wanted), "{wanted}");
        }
    }

    /// A data file's texts may be given per language: they get the `translated` widget (Decap's
    /// string widget shows such a value as `Map { … }`), numbers and choices keep theirs, and a
    /// post's front matter (translated as a file of its own) keeps plain texts.
    #[test]
    fn a_data_files_texts_are_edited_per_language() {
        /// The field `name` of a list of fields (or collections).
        fn named(fields: &Value, name: &str) -> Value {
            let found = fields
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["name"] == name);
            found.unwrap().clone()
        }
        let all = Value::Array(collections());
        let item = &named(&all, "packages")["files"][0]["fields"][0]["fields"];
        assert_eq!(
            named(item, "id")["widget"],
            "string",
            "an id is never translated"
        );
        assert_eq!(named(item, "name")["widget"], "translated");
        assert_eq!(named(item, "name")["list"], false);
        assert_eq!(named(item, "features")["widget"], "translated");
        assert_eq!(named(item, "features")["list"], true);
        assert_eq!(named(item, "price")["widget"], "number");
        assert_eq!(named(item, "package_type")["widget"], "select");
        let faq = &named(&all, "faqs")["files"][0]["fields"][0]["fields"];
        assert_eq!(named(faq, "answer")["widget"], "translated");
        assert_eq!(named(faq, "answer")["multiline"], true);
        let settings = &named(&all, "settings")["files"][0]["fields"];
        assert_eq!(named(settings, "base_url")["widget"], "string");
        let hero = named(settings, "hero_section");
        assert_eq!(named(&hero["fields"], "title")["widget"], "translated");
        let blog = named(&all, "blog");
        assert_eq!(named(&blog["fields"], "title")["widget"], "string");
    }
}
