//! The theme's Tera templates, compiled once, with the site's filters (`asset`, `money`) and
//! the `island` and `page_script` functions registered.

use std::collections::HashMap;
use std::error::Error as _;
use std::path::Path;
use std::sync::Arc;

use tera::{Tera, Value};

use crate::assets::AssetMap;
use crate::content::model::Money;
use crate::diagnostics::Diagnostic;

/// `tera::Error` keeps the useful part in its source chain; flatten it into one line.
pub fn error_chain(err: &tera::Error) -> String {
    let mut msg = err.to_string();
    let mut source = err.source();
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    msg
}

/// Compiles every template under `dir` (`*.html`, and the feeds' `*.xml` and `*.txt`),
/// registering `asset`, `money` and `xml`.
pub fn load(
    dir: &Path,
    assets: Arc<AssetMap>,
    islands: Option<Arc<crate::islands::Manifest>>,
) -> Result<Tera, Diagnostic> {
    let glob = format!("{}/**/*.{{html,xml,txt}}", dir.display());
    let mut tera = Tera::new(&glob).map_err(|e| {
        Diagnostic::new(
            dir,
            format!("a template does not compile: {}", error_chain(&e)),
        )
        .hint("fix the Tera syntax at the place the message names")
    })?;
    tera.autoescape_on(vec![".html", ".xml"]);
    tera.register_filter("asset", move |value: &Value, _: &HashMap<String, Value>| {
        let path = value
            .as_str()
            .ok_or_else(|| tera::Error::msg("`asset` needs a text path"))?;
        if path.starts_with("http://") || path.starts_with("https://") {
            return Ok(Value::String(path.to_string()));
        }
        assets.lookup(path).map(Value::String).ok_or_else(|| {
            tera::Error::msg(format!(
                "`{path}` is not a file of the theme's assets/ or of content/static/"
            ))
        })
    });
    // `page_script()`: the public pages' script, the chunks it imports and per language the
    // texts it loads as it starts, as `{src, imports[], messages{lang: []}}`, or null for a site
    // without one.
    let page = islands.as_ref().and_then(|m| {
        let url = crate::islands::Manifest::url;
        let urls = |files: &[String]| files.iter().map(|c| url(c)).collect::<Vec<_>>();
        m.page.as_ref().map(|f| {
            let messages: serde_json::Map<String, Value> = m
                .page_messages
                .iter()
                .map(|(lang, files)| (lang.clone(), urls(files).into()))
                .collect();
            serde_json::json!({
                "src": url(f),
                "imports": urls(&m.page_imports),
                "messages": messages,
            })
        })
    });
    tera.register_function("page_script", move |_: &HashMap<String, Value>| {
        Ok(page.clone().unwrap_or(Value::Null))
    });
    tera.register_function("island", move |args: &HashMap<String, Value>| {
        let name = args
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| tera::Error::msg("`island` needs name=\"…\""))?;
        let when = args.get("when").and_then(Value::as_str).unwrap_or("load");
        let props = args
            .get("props")
            .cloned()
            .unwrap_or_else(|| Value::Object(Default::default()));
        let trigger = args.get("trigger").and_then(Value::as_str);
        crate::islands::opening_tag(islands.as_deref(), name, &props, when, trigger)
            .map(Value::String)
            .map_err(tera::Error::msg)
    });
    tera.register_filter("xml", |value: &Value, _: &HashMap<String, Value>| {
        let text = value
            .as_str()
            .ok_or_else(|| tera::Error::msg("`xml` needs text"))?;
        Ok(Value::String(xml_escape(text)))
    });
    tera.register_filter("money", |value: &Value, _: &HashMap<String, Value>| {
        let minor = value
            .as_i64()
            .ok_or_else(|| tera::Error::msg("`money` needs minor units"))?;
        Ok(Value::String(Money(minor).display()))
    });
    Ok(tera)
}

/// Gives a copy of the theme its language: `t(key=…)` and `text(key=…)` (the theme's texts in
/// `locale`'s language, see [`crate::locale`]) and `url(path=…)` (a page's address in it,
/// or the default language's where `missing` says it is not translated).
pub fn speak(
    tera: &mut Tera,
    locale: Arc<crate::locale::Locale>,
    missing: Arc<std::collections::HashSet<String>>,
) {
    use crate::locale::{TextFn, UrlFn};
    tera.register_function(
        "t",
        TextFn {
            locale: locale.clone(),
            html: true,
        },
    );
    tera.register_function(
        "text",
        TextFn {
            locale: locale.clone(),
            html: false,
        },
    );
    tera.register_function("url", UrlFn { locale, missing });
}

/// Escapes text for XML content and attributes (the `xml` filter of the feed templates).
pub fn xml_escape(s: &str) -> String {
    crate::locale::escape_text(s)
}
