//! Content errors that name the file, the line, the field and the fix.
//!
//! Loading never stops at the first problem: every check pushes a [`Diagnostic`] and the build
//! reports them all at once, like a compiler.

use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Path relative to the site root, e.g. `content/blog/hello.md`.
    pub file: PathBuf,
    /// 1-based line in `file`, when known.
    pub line: Option<usize>,
    /// Dotted path of the offending field, e.g. `hero_section.primary_cta.text`.
    pub field: Option<String>,
    pub message: String,
    /// How to fix it, in the editor's words.
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn new(file: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Self {
            file: file.as_ref().to_path_buf(),
            line: None,
            field: None,
            message: message.into(),
            hint: None,
        }
    }

    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub fn line(mut self, line: Option<usize>) -> Self {
        self.line = line;
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{field}`")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n    fix: {hint}")?;
        }
        Ok(())
    }
}

/// Every problem found in one pass; an empty list means the site is valid.
#[derive(Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }

    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.0.extend(other);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Turns the collected problems into an error, sorted by file and line so the output is
    /// stable whatever order the parallel loader found them in, each problem once (a
    /// translation shares what it does not translate, such as the settings' payments, and
    /// finds the same problems there).
    pub fn into_result(mut self) -> Result<(), SiteErrors> {
        if self.0.is_empty() {
            return Ok(());
        }
        let mut seen = std::collections::HashSet::new();
        self.0
            .retain(|d| seen.insert((d.file.clone(), d.line, d.field.clone(), d.message.clone())));
        self.0
            .sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
        Err(SiteErrors(self.0))
    }
}

/// The error `site build` and `site check` print: every problem, one block each.
#[derive(Debug)]
pub struct SiteErrors(pub Vec<Diagnostic>);

impl fmt::Display for SiteErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(f, "found {n} problem{}:", if n == 1 { "" } else { "s" })?;
        for d in &self.0 {
            writeln!(f, "  - {d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SiteErrors {}

/// Finds the first line that sets `key:` in a YAML text, to point semantic errors at a line.
/// `offset` is the line number of the text's first line minus one.
pub fn line_of_key(text: &str, key: &str, offset: usize) -> Option<usize> {
    let last = key.rsplit('.').next().unwrap_or(key);
    let last = last.split('[').next().unwrap_or(last);
    text.lines().enumerate().find_map(|(i, l)| {
        let t = l.trim_start().trim_start_matches("- ");
        (t.starts_with(last) && t[last.len()..].trim_start().starts_with(':'))
            .then_some(i + 1 + offset)
    })
}
