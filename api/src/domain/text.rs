//! Text the API stores or queries, each kind with its own bounds, read once where a handler
//! knows the field's name (control characters never get this far: `extract::input` refuses
//! them for every field). The errors are the spec's messages where it has one.

use super::error::FieldError;

/// Why `text` cannot be stored or queried, if it cannot: a control character (tab, line feed
/// and carriage return are allowed in multi-line fields; `multiline` says whether they are
/// here) or more than `max_chars` characters.
pub fn text_problem(text: &str, max_chars: usize, multiline: bool) -> Option<String> {
    let allowed = |c: char| multiline && matches!(c, '\t' | '\n' | '\r');
    if text.chars().any(|c| c.is_control() && !allowed(c)) {
        return Some("Must not contain control characters".into());
    }
    if text.chars().count() > max_chars {
        return Some(format!("Must be at most {max_chars} characters"));
    }
    None
}

/// Trims; empty is `None`.
fn trimmed(raw: Option<&str>) -> Option<&str> {
    raw.map(str::trim).filter(|s| !s.is_empty())
}

fn checked<'a>(
    field: &str,
    raw: &'a str,
    max: usize,
    multiline: bool,
) -> Result<&'a str, FieldError> {
    match text_problem(raw, max, multiline) {
        Some(problem) => Err(FieldError::new(field, &problem)),
        None => Ok(raw),
    }
}

/// A person's full name: 2 to 100 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonName(String);

impl PersonName {
    pub const MAX: usize = 100;

    pub fn parse(field: &str, raw: Option<&str>) -> Result<PersonName, FieldError> {
        let name = trimmed(raw).unwrap_or("");
        if name.chars().count() < 2 {
            return Err(FieldError::new(
                field,
                "Full name must be at least 2 characters",
            ));
        }
        if name.chars().count() > Self::MAX {
            return Err(FieldError::new(
                field,
                "Full name must be at most 100 characters",
            ));
        }
        Ok(PersonName(
            checked(field, name, Self::MAX, false)?.to_string(),
        ))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A phone number: digits with the usual separators, at most 30 characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(String);

impl Phone {
    pub const MAX: usize = 30;

    /// An optional phone; empty is `None`.
    pub fn parse_optional(field: &str, raw: Option<&str>) -> Result<Option<Phone>, FieldError> {
        let Some(phone) = trimmed(raw) else {
            return Ok(None);
        };
        let shape_ok = phone.chars().count() <= Self::MAX
            && phone.chars().any(|c| c.is_ascii_digit())
            && phone
                .chars()
                .all(|c| c.is_ascii_digit() || " +-().".contains(c));
        if !shape_ok {
            return Err(FieldError::new(
                field,
                "Phone number must be at most 30 digits, spaces or + - ( )",
            ));
        }
        Ok(Some(Phone(phone.to_string())))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Free text written by a person (notes, a message): bounded, lines allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notes(String);

impl Notes {
    /// Optional notes of at most `max` characters; empty is `None`.
    pub fn parse_optional(
        field: &str,
        raw: Option<&str>,
        max: usize,
    ) -> Result<Option<Notes>, FieldError> {
        match trimmed(raw) {
            None => Ok(None),
            Some(text) => Ok(Some(Notes(checked(field, text, max, true)?.to_string()))),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A short single-line label (a reference number, a source): at most `max` characters.
pub fn short_text(
    field: &str,
    raw: Option<&str>,
    max: usize,
) -> Result<Option<String>, FieldError> {
    match trimmed(raw) {
        None => Ok(None),
        Some(text) => Ok(Some(checked(field, text, max, false)?.to_string())),
    }
}

/// What the admin types into a search box: at most 100 characters, matched as a substring
/// (`%` and `_` are matched literally).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchTerm(String);

impl SearchTerm {
    pub fn parse_optional(
        field: &str,
        raw: Option<&str>,
    ) -> Result<Option<SearchTerm>, FieldError> {
        match trimmed(raw) {
            None => Ok(None),
            Some(text) => Ok(Some(SearchTerm(
                checked(field, text, 100, false)?.to_lowercase(),
            ))),
        }
    }

    /// The `LIKE` pattern, escaped with `\`.
    pub fn like_pattern(&self) -> String {
        let escaped = self
            .0
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        format!("%{escaped}%")
    }
}

/// The id of a row (users, bookings, payments): 32 lower-case hex digits. Anything else names
/// no row, so a lookup by it is a 404 without asking the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordId(String);

impl RecordId {
    pub fn parse(raw: &str) -> Option<RecordId> {
        let raw = raw.trim();
        (raw.len() == 32 && raw.chars().all(|c| c.is_ascii_hexdigit()))
            .then(|| RecordId(raw.to_ascii_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A text cell as a spreadsheet may not run it: a cell that starts with `=`, `+`, `-`, `@`
/// (or their fullwidth forms, which spreadsheets fold to them), a tab or a carriage return,
/// even after spaces, is read as a formula by Excel and LibreOffice. OWASP's rule: prefix a
/// single quote, which shows the text as it is. Only names, emails and references go through
/// here; amounts and sessions stay numbers, negative ones included.
pub fn text_cell(text: String) -> String {
    let first = text.trim_start_matches(' ').chars().next();
    match first {
        Some('=' | '+' | '-' | '@' | '\t' | '\r' | '＝' | '＋' | '－' | '＠') => {
            format!("'{text}")
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(
            PersonName::parse("fullName", Some(" Mona "))
                .unwrap()
                .as_str(),
            "Mona"
        );
        assert!(PersonName::parse("fullName", Some("M")).is_err());
        assert!(PersonName::parse("fullName", Some(&"x".repeat(101))).is_err());
        assert!(PersonName::parse("fullName", Some("Mo\u{0}na")).is_err());
    }

    #[test]
    fn phones_ids_and_searches_have_their_shapes() {
        assert!(
            Phone::parse_optional("phone", Some("+20 100 123 4567"))
                .unwrap()
                .is_some()
        );
        assert!(Phone::parse_optional("phone", Some("")).unwrap().is_none());
        assert!(Phone::parse_optional("phone", Some("call me")).is_err());
        assert!(RecordId::parse("0123456789abcdef0123456789ABCDEF").is_some());
        assert!(RecordId::parse("../etc").is_none());
        let s = SearchTerm::parse_optional("search", Some("50%_off"))
            .unwrap()
            .unwrap();
        assert_eq!(s.like_pattern(), "%50\\%\\_off%");
    }
}
