//! YAML and front-matter parsing that turns serde's errors into [`Diagnostic`]s.
//!
//! We use `serde_yaml_ng`, the maintained fork of the archived `serde_yaml`: same API, same
//! error locations, still receiving fixes. `serde_path_to_error` adds the dotted field path.

use std::path::Path;

use serde::de::DeserializeOwned;

use crate::diagnostics::Diagnostic;
use crate::i18n;

/// A Markdown file split into its YAML front matter and its body.
#[derive(Debug)]
pub struct FrontMatter<'a> {
    pub yaml: &'a str,
    pub body: &'a str,
    /// 1-based line of the body's first line in the file.
    pub body_line: usize,
}

/// Splits `---\n<yaml>\n---\n<body>`. The YAML starts on line 2 of the file.
pub fn split_front_matter<'a>(text: &'a str, file: &Path) -> Result<FrontMatter<'a>, Diagnostic> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let missing = || {
        Diagnostic::new(file, "couldn't find front matter")
            .line(Some(1))
            .hint("start the file with a line `---`, the YAML fields, then another line `---`")
    };
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(missing)?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            let yaml = &rest[..offset];
            let body = &rest[offset + line.len()..];
            let body_line = 2 + yaml.lines().count() + 1;
            return Ok(FrontMatter {
                yaml,
                body,
                body_line,
            });
        }
        offset += line.len();
    }
    Err(Diagnostic::new(file, "front matter is not closed")
        .line(Some(1))
        .hint("add a line `---` after the last front-matter field"))
}

/// Parses YAML into `T`, reporting the file, line (shifted by `line_offset`), field path and a fix.
///
/// A text given by language (`name: {en: …, ar: …}`, see [`crate::i18n`]) is read in the
/// default language, English: what a reader that knows nothing of the site's languages sees.
/// The site's own languages are read with [`parse_in`].
pub fn parse<T: DeserializeOwned>(
    yaml: &str,
    file: &Path,
    line_offset: usize,
) -> Result<T, Diagnostic> {
    let en = i18n::DEFAULT_LANGUAGE;
    parse_in(yaml, file, line_offset, en, en)
}

/// Parses `yaml` into `T` as read in `lang`. A text without language maps is read as
/// [`parse`] reads it (same errors, same lines); one with them goes through
/// [`i18n::localize`], and an error names the line of the field from its path.
pub fn parse_in<T: DeserializeOwned>(
    yaml: &str,
    file: &Path,
    line_offset: usize,
    lang: &str,
    default: &str,
) -> Result<T, Diagnostic> {
    if !i18n::may_have_language_maps(yaml) {
        return parse_plain(yaml, file, line_offset);
    }
    let value = match i18n::read_value(yaml) {
        Some(v) if i18n::has_language_maps(&v) => v,
        // Not valid YAML, or no map after all: the plain reader gives its usual error.
        _ => return parse_plain(yaml, file, line_offset),
    };
    from_value(
        i18n::localize(&value, lang, default),
        yaml,
        file,
        line_offset,
    )
}

/// Reads `T` from an already localized value; `yaml` is the text it came from, to point an
/// error at its line.
pub fn from_value<T: DeserializeOwned>(
    value: serde_yaml_ng::Value,
    yaml: &str,
    file: &Path,
    line_offset: usize,
) -> Result<T, Diagnostic> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let message = err.inner().to_string();
        let message = match message.find(" at line ") {
            Some(i) => message[..i].to_string(),
            None => message,
        };
        let (field, hint) = explain(&path, &message);
        let line = field
            .as_deref()
            .and_then(|f| i18n::line_of(yaml, f))
            .map(|l| l + line_offset);
        let mut d = Diagnostic::new(file, message).line(line).hint(hint);
        if let Some(field) = field {
            d = d.field(field);
        }
        d
    })
}

/// [`parse`] of a text without language maps: straight into `T`, with serde's lines.
pub fn parse_plain<T: DeserializeOwned>(
    yaml: &str,
    file: &Path,
    line_offset: usize,
) -> Result<T, Diagnostic> {
    // An empty document deserialises as unit; treat it as an empty mapping so that
    // "missing field" errors name the first required field.
    let yaml = if yaml.trim().is_empty() { "{}" } else { yaml };
    let de = serde_yaml_ng::Deserializer::from_str(yaml);
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.inner();
        let line = inner.location().map(|l| l.line() + line_offset);
        let raw = inner.to_string();
        // serde_yaml appends " at line X column Y"; we print the line ourselves.
        let message = match raw.find(" at line ") {
            Some(i) => raw[..i].to_string(),
            None => raw,
        };
        // A value refused after it was read (an unknown time zone) is located at its mapping;
        // the line of its key is the one to fix.
        let line = if message.contains(crate::model::time_zone_name::UNKNOWN) {
            line_of_path(yaml, &path).map(|l| l + line_offset).or(line)
        } else {
            line
        };
        let (field, hint) = explain(&path, &message);
        let mut d = Diagnostic::new(file, message).line(line).hint(hint);
        if let Some(field) = field {
            d = d.field(field);
        }
        d
    })
}

/// The 1-based line of the key at a dotted mapping path (`a.b`) in block-style YAML, if found.
fn line_of_path(yaml: &str, path: &str) -> Option<usize> {
    if path.is_empty() || path == "." || path.contains('[') {
        return None;
    }
    let mut keys = path.split('.');
    let mut key = keys.next()?;
    let mut min_indent = 0;
    for (i, line) in yaml.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let text = line.trim_start();
        if indent < min_indent || !text.starts_with(key) || !text[key.len()..].starts_with(':') {
            continue;
        }
        match keys.next() {
            None => return Some(i + 1),
            Some(next) => {
                key = next;
                min_indent = indent + 1;
            }
        }
    }
    None
}

/// Names the field a serde message is about and suggests the fix.
pub(crate) fn explain(path: &str, message: &str) -> (Option<String>, String) {
    let join = |name: &str| {
        if path == name || path.ends_with(&format!(".{name}")) {
            path.to_string()
        } else if path == "." || path.is_empty() {
            name.to_string()
        } else {
            format!("{path}.{name}")
        }
    };
    let quoted = message.split('`').nth(1);
    if let (true, Some(name)) = (message.starts_with("missing field"), quoted) {
        return (Some(join(name)), format!("add `{name}:` with a value"));
    }
    if let (true, Some(name)) = (message.starts_with("unknown field"), quoted) {
        return (
            Some(join(name)),
            format!(
                "remove `{name}` or correct its spelling (the allowed fields are listed above)"
            ),
        );
    }
    let field = (path != "." && !path.is_empty()).then(|| path.to_string());
    let hint = if message.starts_with("invalid type") {
        "give the field a value of the type the message expects".to_string()
    } else if message.contains(crate::model::time_zone_name::UNKNOWN) {
        "use an IANA time zone name such as Africa/Cairo or Asia/Dubai".to_string()
    } else if message.starts_with("unknown variant") {
        "use one of the values the message lists".to_string()
    } else if message.contains("premature end") || message.contains("did not find expected") {
        "check the YAML syntax: indentation, colons and quotes around values with `:` or `#`"
            .to_string()
    } else {
        "correct the value".to_string()
    };
    (field, hint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Demo {
        title: String,
        inner: Inner,
    }
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        count: u32,
    }

    #[test]
    fn missing_field_names_the_field_and_the_fix() {
        let d = parse::<Demo>("inner:\n  count: 1\n", Path::new("x.yaml"), 0).unwrap_err();
        assert_eq!(d.field.as_deref(), Some("title"));
        assert!(d.hint.unwrap().contains("add `title:`"));
    }

    #[test]
    fn an_unknown_time_zone_names_the_field_the_line_and_the_fix() {
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct Zoned {
            title: String,
            #[serde(with = "crate::model::time_zone_name")]
            time_zone: chrono_tz::Tz,
        }
        let ok: Zoned = parse("title: a\ntime_zone: Asia/Dubai\n", Path::new("x.yaml"), 0).unwrap();
        assert_eq!(ok.time_zone, chrono_tz::Asia::Dubai);
        let d = parse::<Zoned>("title: a\ntime_zone: Cairo\n", Path::new("x.yaml"), 0).unwrap_err();
        assert_eq!(d.field.as_deref(), Some("time_zone"));
        assert_eq!(d.line, Some(2));
        assert!(
            d.message.contains("`Cairo` is not a known time zone"),
            "{}",
            d.message
        );
        assert!(d.hint.unwrap().contains("IANA"));
    }

    #[test]
    fn nested_type_error_names_the_path_and_the_line() {
        let d =
            parse::<Demo>("title: a\ninner:\n  count: many\n", Path::new("x.yaml"), 1).unwrap_err();
        assert_eq!(d.field.as_deref(), Some("inner.count"));
        assert_eq!(d.line, Some(4));
    }

    #[test]
    fn unknown_field_is_reported() {
        let d = parse::<Demo>("title: a\ntitel: b\ninner: {count: 1}\n", Path::new("x"), 0)
            .unwrap_err();
        assert_eq!(d.field.as_deref(), Some("titel"));
    }

    #[test]
    fn front_matter_split_reports_body_line() {
        let fm = split_front_matter("---\na: 1\nb: 2\n---\nbody\n", Path::new("x.md")).unwrap();
        assert_eq!(fm.yaml, "a: 1\nb: 2\n");
        assert_eq!(fm.body, "body\n");
        assert_eq!(fm.body_line, 5);
    }

    #[test]
    fn missing_front_matter_is_an_error_with_a_fix() {
        let d = split_front_matter("# hello", Path::new("x.md")).unwrap_err();
        assert!(d.message.contains("front matter"));
        assert!(d.hint.unwrap().contains("---"));
    }

    #[test]
    fn parse_in_reads_a_language_and_points_errors_at_their_line() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct P {
            name: String,
            sessions: u32,
        }
        let yaml = "name:\n  en: A\n  ar: ب\nsessions: many\n";
        let d = parse_in::<P>(yaml, Path::new("p.yaml"), 0, "ar", "en").unwrap_err();
        assert_eq!(d.field.as_deref(), Some("sessions"));
        assert_eq!(d.line, Some(4));
        let ok: P = parse_in(
            "name: {en: A, ar: ب}\nsessions: 2\n",
            Path::new("p"),
            0,
            "ar",
            "en",
        )
        .unwrap();
        assert_eq!(ok.name, "ب");
    }
}
