//! Text shown to people, and where each part of it came from.
//!
//! What benchlint wrote itself (a rule's sentence, a header, a number) is shown as it is.
//! Everything that came from an input (a value or a key of a result file, a file name, a
//! pointer built from keys, a claims statement, the text of a config file, a path given on the
//! command line) is [`FileText`], or a `File` part of a [`Text`]: it has no `Display`, so it
//! can only be written through a method that masks every secret in it and escapes it for the
//! format being written:
//!
//! - [`FileText::line`] for a terminal or a CI log (human, concise, tables, stderr): control
//!   characters, line breaks, bidirectional overrides and invisible characters become escapes
//!   (`\n`, `\u{1b}`, `\u{202e}`), and `::` becomes `:\u{3a}`, so no value can colour or clear a
//!   terminal, reorder text, or start a GitHub Actions workflow command on a line of its own;
//! - [`FileText::md`], [`FileText::md_code`] for Markdown: the same, then markup escaped, and
//!   code spans fenced with more backticks than the value holds, so it cannot break out;
//! - [`FileText::html`] for HTML: the same, then `&`, `<`, `>`, `"`, `'` as entities;
//! - serialisation (JSON): secrets masked; the JSON writers ([`json`]) write every hidden
//!   character as a `\u` escape, so the value read back is the value written.
//!
//! A `String` becomes a `File` part when turned into a [`Text`]: text of unknown origin is
//! treated as if it came from a file. Only a `&'static str` (a literal) or a template literal of
//! [`text!`](crate::text!) is taken as benchlint's own, so a rule cannot forget to mark what it
//! quotes; marking it only saves the scan of the parts benchlint wrote.

mod hidden;
pub mod json;
mod markdown;

use std::borrow::Cow;
use std::cmp::Ordering;

pub use hidden::{escaped as escape_hidden, is_hidden, stand_in};

/// A string that came from an input. It cannot be formatted with `{}`: write it with
/// [`line`](Self::line), [`md`](Self::md), [`html`](Self::html) or by serialising it; read it
/// for logic with [`raw`](Self::raw).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileText(String);

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

/// Secrets replaced by `<redacted>`.
pub fn masked(s: &str) -> Cow<'_, str> {
    crate::secrets::redact_text(s).map_or(Cow::Borrowed(s), Cow::Owned)
}

/// Secrets masked, hidden characters and `::` escaped (see [`FileText::line`]).
pub fn line(s: &str) -> Cow<'_, str> {
    match masked(s) {
        Cow::Borrowed(b) => hidden::escaped(b).map_or(Cow::Borrowed(b), Cow::Owned),
        Cow::Owned(o) => Cow::Owned(hidden::escaped(&o).unwrap_or(o)),
    }
}

/// `&`, `<`, `>`, `"` and `'` as entities.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Where a piece of a [`Text`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Benchlint's own words.
    Own,
    /// An input.
    File,
    /// Benchlint's sentence quoting inputs between backticks.
    Quoting,
}

/// One part of a [`Text`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Written by benchlint: shown as it is.
    Own(Cow<'static, str>),
    /// From an input: masked and escaped on the way out.
    File(String),
}

impl Part {
    fn as_str(&self) -> &str {
        match self {
            Part::Own(s) => s,
            Part::File(s) => s,
        }
    }
}

/// A message made of benchlint's own words and text from inputs, each part keeping its origin
/// until a writer shows it.
#[derive(Debug, Clone)]
pub enum Text {
    /// All benchlint's own.
    Own(Cow<'static, str>),
    /// All from an input (also any `String` of unknown origin).
    File(String),
    /// A sentence of benchlint's that quotes inputs between backticks, built as one string
    /// (`format!`): all of it is masked and escaped as input is; its backticks delimit code
    /// spans, which never hold a backtick, so no quoted value can open or close one.
    Quoting(String),
    /// Mixed.
    Parts(Vec<Part>),
}

impl Default for Text {
    fn default() -> Self {
        Text::Own(Cow::Borrowed(""))
    }
}

impl Text {
    /// Benchlint's own words.
    pub fn own(s: impl Into<Cow<'static, str>>) -> Self {
        Text::Own(s.into())
    }

    /// Text from an input.
    pub fn file(s: impl Into<String>) -> Self {
        Text::File(s.into())
    }

    /// A sentence of benchlint's quoting inputs between backticks (see [`Text::Quoting`]).
    pub fn quoting(s: impl Into<String>) -> Self {
        Text::Quoting(s.into())
    }

    /// `template` (benchlint's words) with each `{}` replaced by the next of `args`, each
    /// keeping its origin. Used by [`text!`](crate::text!).
    pub fn template(template: &'static str, args: Vec<Text>) -> Self {
        let mut out = Text::Parts(Vec::with_capacity(args.len() * 2 + 1));
        let mut args = args.into_iter();
        let mut rest = template;
        while let Some(at) = rest.find("{}") {
            if at > 0 {
                out.push_own(&rest[..at]);
            }
            match args.next() {
                Some(a) => out.push_text(a),
                None => out.push_own("{}"),
            }
            rest = &rest[at + 2..];
        }
        if !rest.is_empty() {
            out.push_own(rest);
        }
        debug_assert!(
            args.next().is_none(),
            "more arguments than `{{}}` in {template:?}"
        );
        out
    }

    /// The parts, in order.
    pub fn parts(&self) -> Vec<&Part> {
        match self {
            Text::Parts(p) => p.iter().collect(),
            _ => Vec::new(),
        }
    }

    fn each(&self, f: &mut dyn FnMut(Origin, &str)) {
        match self {
            Text::Own(s) => f(Origin::Own, s),
            Text::File(s) => f(Origin::File, s),
            Text::Quoting(s) => f(Origin::Quoting, s),
            Text::Parts(parts) => {
                for p in parts {
                    match p {
                        Part::Own(s) => f(Origin::Own, s),
                        Part::File(s) => f(Origin::File, s),
                    }
                }
            }
        }
    }

    /// Appends benchlint's own words.
    pub fn push_own(&mut self, s: impl Into<Cow<'static, str>>) {
        self.push_part(Part::Own(s.into()));
    }

    /// Appends text from an input.
    pub fn push_file(&mut self, s: impl Into<String>) {
        self.push_part(Part::File(s.into()));
    }

    /// Appends another text, keeping the origin of each part.
    pub fn push_text(&mut self, other: Text) {
        match other {
            Text::Own(s) => self.push_part(Part::Own(s)),
            Text::File(s) | Text::Quoting(s) => self.push_part(Part::File(s)),
            Text::Parts(ps) => ps.into_iter().for_each(|p| self.push_part(p)),
        }
    }

    fn push_part(&mut self, part: Part) {
        let parts = match std::mem::take(self) {
            Text::Own(s) if s.is_empty() => Vec::new(),
            Text::Own(s) => vec![Part::Own(s)],
            Text::File(s) | Text::Quoting(s) => vec![Part::File(s)],
            Text::Parts(p) => p,
        };
        let mut parts = parts;
        parts.push(part);
        *self = Text::Parts(parts);
    }

    /// The text as written, origins forgotten: for logic and tests, never for an output.
    pub fn raw(&self) -> String {
        let mut out = String::new();
        self.each(&mut |_, s| out.push_str(s));
        out
    }

    /// Whether the raw text contains `needle` within one part.
    pub fn contains(&self, needle: &str) -> bool {
        let mut found = false;
        self.each(&mut |_, s| found |= s.contains(needle));
        found || self.raw().contains(needle)
    }

    /// For a terminal or a CI log: own words as they are, input parts as [`FileText::line`].
    pub fn line(&self) -> Cow<'_, str> {
        self.written(line)
    }

    /// Secrets masked in the input parts, nothing escaped (for JSON).
    pub fn masked(&self) -> Cow<'_, str> {
        self.written(masked)
    }

    /// Own words as they are, every input part through `write_input`.
    fn written(&self, write_input: fn(&str) -> Cow<'_, str>) -> Cow<'_, str> {
        match self {
            Text::Own(s) => Cow::Borrowed(s),
            Text::File(s) | Text::Quoting(s) => write_input(s),
            Text::Parts(_) => {
                let mut out = String::new();
                self.each(&mut |origin, s| {
                    if origin == Origin::Own {
                        out.push_str(s);
                    } else {
                        out.push_str(&write_input(s));
                    }
                });
                Cow::Owned(out)
            }
        }
    }

    /// For Markdown, on one line: benchlint's `` `...` `` spans become code spans (whatever
    /// input text they hold, fenced so it cannot close them), the rest is escaped text.
    pub fn md(&self, in_table: bool) -> String {
        let mut pieces = Vec::new();
        self.each(&mut |origin, s| pieces.push((origin, s.to_string())));
        markdown::render(&pieces, in_table)
    }

    /// For HTML: benchlint's `` `...` `` spans become `<code>`, everything escaped.
    pub fn html(&self) -> String {
        let mut pieces = Vec::new();
        self.each(&mut |origin, s| pieces.push((origin, s.to_string())));
        markdown::render_html(&pieces)
    }

    fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        let parts: Vec<&str> = match self {
            Text::Own(s) => vec![s.as_ref()],
            Text::File(s) | Text::Quoting(s) => vec![s.as_str()],
            Text::Parts(p) => p.iter().map(Part::as_str).collect(),
        };
        parts.into_iter().flat_map(str::bytes)
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
        match (self, other) {
            (Text::Own(a), Text::Own(b)) => a.cmp(b),
            (Text::File(a), Text::File(b)) => a.cmp(b),
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

/// A value given to [`text!`](crate::text!): its origin decides how it is shown.
pub trait Arg {
    /// The value as text, with its origin.
    fn into_text(self) -> Text;
}

/// Benchlint's own words given to [`text!`](crate::text!) as an argument (a `&str` argument
/// is otherwise taken for text from an input).
#[derive(Debug, Clone, Copy)]
pub struct Own(pub &'static str);

impl Arg for Own {
    fn into_text(self) -> Text {
        Text::Own(Cow::Borrowed(self.0))
    }
}

impl Arg for Text {
    fn into_text(self) -> Text {
        self
    }
}

impl Arg for &Text {
    fn into_text(self) -> Text {
        self.clone()
    }
}

impl Arg for String {
    fn into_text(self) -> Text {
        Text::File(self)
    }
}

impl Arg for &String {
    fn into_text(self) -> Text {
        Text::File(self.clone())
    }
}

impl Arg for &str {
    fn into_text(self) -> Text {
        Text::File(self.to_string())
    }
}

impl Arg for &FileText {
    fn into_text(self) -> Text {
        Text::File(self.0.clone())
    }
}

impl Arg for FileText {
    fn into_text(self) -> Text {
        Text::File(self.0)
    }
}

macro_rules! own_numbers {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn into_text(self) -> Text {
                Text::Own(Cow::Owned(self.to_string()))
            }
        }
        impl Arg for &$t {
            fn into_text(self) -> Text {
                Text::Own(Cow::Owned(self.to_string()))
            }
        }
    )*};
}
own_numbers!(u8, u16, u32, u64, usize, i32, i64, f64);

/// A [`Text`] from a template whose `{}` are filled with arguments, each keeping its origin:
/// the template and numbers are benchlint's own, strings are text from an input (see
/// [`Arg`]). `text!("`{}` is used by {} results", id, n)`.
#[macro_export]
macro_rules! text {
    ($template:literal $(, $arg:expr)* $(,)?) => {
        $crate::text::Text::template(
            $template,
            vec![$($crate::text::Arg::into_text($arg)),*],
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_parts_are_masked_and_escaped_own_words_are_not() {
        let id = "a\n::error file=x::boom\u{202e}";
        let t = crate::text!("result `{}` is used by {} results\n", id, 2usize);
        assert_eq!(
            t.line(),
            "result `a\\n:\\u{3a}error file=x:\\u{3a}boom\\u{202e}` is used by 2 results\n"
        );
        let key = "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP";
        let t = Text::from(format!("the notes say {key}"));
        assert_eq!(t.line(), "the notes say <redacted>");
        assert_eq!(t.masked(), "the notes say <redacted>");
    }

    #[test]
    fn order_and_equality_follow_the_raw_text() {
        let a = crate::text!("x {}", "y");
        let b = Text::from("x y".to_string());
        assert_eq!(a, b);
        assert!(Text::from("a") < crate::text!("{}b", "a"));
    }
}
