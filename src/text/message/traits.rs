//! The standard traits of a [`Text`]: equality and order by the raw text, `Display` as the
//! terminal form, the conversions from strings and file text, and serialisation masked.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::{Part, Text};
use crate::text::{FileText, PathText};

impl Text {
    /// The raw text when it is held as one string (not as a list of parts).
    fn single(&self) -> Option<&str> {
        match self {
            Text::Own(s) => Some(s),
            Text::File(s) | Text::Quoting(s) => Some(s),
            Text::Joined(j) => Some(&j.text),
            Text::Parts(_) => None,
        }
    }

    /// Feeds the raw text to `h`, as one string whatever parts it is held in: two texts equal
    /// by [`Ord`] feed the same bytes.
    pub fn hash_raw(&self, h: &mut impl std::hash::Hasher) {
        match self.single() {
            Some(s) => h.write(s.as_bytes()),
            None => h.write(self.raw().as_bytes()),
        }
        h.write_u8(0xff);
    }

    /// The raw bytes, part after part, without joining them (findings are sorted by message).
    fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        let parts: &[Part] = match self {
            Text::Parts(p) => p,
            _ => &[],
        };
        self.single()
            .into_iter()
            .chain(parts.iter().map(Part::as_str))
            .flat_map(str::bytes)
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    /// By the raw text (origins do not order).
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.single(), other.single()) {
            (Some(a), Some(b)) => a.cmp(b),
            _ => self.bytes().cmp(other.bytes()),
        }
    }
}

/// The terminal and log form ([`Text::line`]): the one a `{}` gives, masked and escaped, so
/// that formatting a message anywhere never passes an input through raw. Markdown and HTML
/// writers use [`Text::md`] and [`Text::html`].
impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.line())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::File(s)
    }
}

impl From<&'static str> for Text {
    fn from(s: &'static str) -> Self {
        Text::Own(Cow::Borrowed(s))
    }
}

impl From<FileText> for Text {
    fn from(s: FileText) -> Self {
        Text::File(s.0)
    }
}

impl From<&PathText> for Text {
    fn from(s: &PathText) -> Self {
        Text::File(s.raw().to_string())
    }
}

impl From<PathText> for Text {
    fn from(s: PathText) -> Self {
        Text::File(s.raw().to_string())
    }
}

impl From<&FileText> for Text {
    fn from(s: &FileText) -> Self {
        Text::File(s.0.clone())
    }
}

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.masked())
    }
}
