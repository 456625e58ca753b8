//! [`PathText`]: a file's path as an input named it, made once per file and shared by every
//! finding on that file; written only masked and escaped, as [`FileText`] is.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::{FileText, html_escape, line, markdown, masked};

/// A file's path as it was reached from the command line: text from an input, shared. A file
/// with 25 findings names its path 25 times, and more from the related locations of others;
/// cloning a `PathText` copies a pointer, not the path. Like [`FileText`] it cannot be formatted
/// with `{}`: write it with [`line`](Self::line), [`md`](Self::md), [`html`](Self::html) or by
/// serialising it; read it for logic with [`raw`](Self::raw).
#[derive(Debug, Clone)]
pub struct PathText(Arc<str>);

impl PathText {
    /// Wraps a path that came from an input.
    pub fn new(s: impl AsRef<str>) -> Self {
        PathText(Arc::from(s.as_ref()))
    }

    /// The path as the input holds it, for comparisons, lookups and file access: never to be
    /// written to an output as it is.
    pub fn raw(&self) -> &str {
        &self.0
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `other` is this very allocation (the same file's path, shared): a cheaper yes than
    /// comparing the text, never a no.
    fn same_allocation(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
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

impl Default for PathText {
    fn default() -> Self {
        PathText(Arc::from(""))
    }
}

impl PartialEq for PathText {
    fn eq(&self, other: &Self) -> bool {
        self.same_allocation(other) || self.0 == other.0
    }
}

impl Eq for PathText {}

impl PartialOrd for PathText {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PathText {
    /// By the text, as a `String` orders.
    fn cmp(&self, other: &Self) -> Ordering {
        if self.same_allocation(other) {
            return Ordering::Equal;
        }
        self.0.cmp(&other.0)
    }
}

impl Hash for PathText {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl From<String> for PathText {
    fn from(s: String) -> Self {
        PathText(Arc::from(s))
    }
}

impl From<&str> for PathText {
    fn from(s: &str) -> Self {
        PathText(Arc::from(s))
    }
}

impl From<&String> for PathText {
    fn from(s: &String) -> Self {
        PathText(Arc::from(s.as_str()))
    }
}

impl From<&PathText> for PathText {
    fn from(s: &PathText) -> Self {
        s.clone()
    }
}

impl From<FileText> for PathText {
    fn from(s: FileText) -> Self {
        PathText::from(s.0)
    }
}

impl From<&FileText> for PathText {
    fn from(s: &FileText) -> Self {
        PathText::from(s.raw())
    }
}

impl From<PathText> for FileText {
    fn from(s: PathText) -> Self {
        FileText(s.raw().to_string())
    }
}

impl From<&PathText> for FileText {
    fn from(s: &PathText) -> Self {
        FileText(s.raw().to_string())
    }
}

impl PartialEq<str> for PathText {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for PathText {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl serde::Serialize for PathText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.masked())
    }
}

#[cfg(test)]
mod tests {
    use super::PathText;

    #[test]
    fn orders_and_compares_as_its_text_whether_shared_or_not() {
        let a = PathText::from("runs/a.json");
        let shared = a.clone();
        let copy = PathText::from(String::from("runs/a.json"));
        let b = PathText::from("runs/b.json");
        assert_eq!(a, shared);
        assert_eq!(a, copy);
        assert_eq!(a.cmp(&copy), std::cmp::Ordering::Equal);
        assert!(a < b && b > copy);
        assert_eq!(a, "runs/a.json");
    }

    #[test]
    fn writes_its_text_masked_and_escaped() {
        let p = PathText::from("runs/sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP\u{1b}[2J.json");
        let line = p.line();
        assert!(!line.contains("sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP"));
        assert!(!line.contains('\u{1b}'));
        assert!(
            !p.masked()
                .contains("sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP")
        );
    }
}
