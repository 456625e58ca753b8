//! [`FileText`]: a string that came from an input, which can only be written masked and escaped
//! for the format being written.

use std::borrow::Cow;

use super::{html_escape, line, markdown, masked};

/// A string that came from an input. It cannot be formatted with `{}`: write it with
/// [`line`](Self::line), [`md`](Self::md), [`html`](Self::html) or by serialising it; read it
/// for logic with [`raw`](Self::raw).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileText(pub(super) String);

impl FileText {
    /// Wraps a string that came from an input.
    pub fn new(s: impl Into<String>) -> Self {
        FileText(s.into())
    }

    /// The text as the input holds it, for comparisons, lookups and file access: never to be
    /// written to an output as it is.
    pub fn raw(&self) -> &str {
        &self.0
    }

    /// The owned text as the input holds it.
    pub fn into_raw(self) -> String {
        self.0
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Secrets replaced by `<redacted>`; nothing else changed (for JSON, whose writer escapes).
    pub fn masked(&self) -> Cow<'_, str> {
        masked(&self.0)
    }

    /// For a terminal or a CI log, on one line: secrets masked, hidden characters and `::`
    /// escaped.
    pub fn line(&self) -> Cow<'_, str> {
        line(&self.0)
    }

    /// For Markdown text (a paragraph, a list item, a table cell).
    pub fn md(&self) -> String {
        markdown::text(&self.line())
    }

    /// As a Markdown code span (`in_table`: inside a table cell, where `|` must be escaped).
    pub fn md_code(&self, in_table: bool) -> String {
        markdown::code(&self.line(), in_table)
    }

    /// For HTML text or an attribute value.
    pub fn html(&self) -> String {
        html_escape(&self.line())
    }
}

impl From<String> for FileText {
    fn from(s: String) -> Self {
        FileText(s)
    }
}

impl From<&str> for FileText {
    fn from(s: &str) -> Self {
        FileText(s.to_string())
    }
}

impl From<&String> for FileText {
    fn from(s: &String) -> Self {
        FileText(s.clone())
    }
}

impl PartialEq<str> for FileText {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for FileText {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl serde::Serialize for FileText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.masked())
    }
}
