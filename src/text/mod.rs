//! Text shown to people, and where each part of it came from.
//!
//! What benchlint wrote itself (a rule's sentence, a header, a number) is shown as it is.
//! Everything that came from an input (a value or a key of a result file, a file name, a
//! pointer built from keys, a claims statement, the text of a config file, a path given on the
//! command line) is [`FileText`] (a file's path, shared by the findings on it, [`PathText`]), or a
//! `File` part of a [`Text`]: it has no `Display`, so it can only be written through a method
//! that masks every secret in it and escapes it for the format being written:
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

mod arg;
pub mod bytes;
mod commands;
pub mod csv;
mod file_text;
mod hidden;
pub mod json;
mod markdown;
mod memo;
mod message;
mod path_text;
pub mod table;

use std::borrow::Cow;

pub use arg::{Arg, Own};
pub use file_text::FileText;
pub use hidden::{escaped as escape_hidden, is_hidden, stand_in, stand_in_within};
pub use message::{Joined, Origin, Part, Text};
pub use path_text::PathText;

/// Secrets replaced by `<redacted>`. A report writes the same input text many times (a file's
/// path on each of its findings, the same pointers in every file): each string is searched once
/// per thread and its answer remembered.
pub fn masked(s: &str) -> Cow<'_, str> {
    memo::redacted(s).map_or(Cow::Borrowed(s), Cow::Owned)
}

/// Secrets masked, hidden characters and the command forms of CI runners (`::`, `##[`,
/// `##vso[`) escaped (see [`FileText::line`]): the one neutraliser every writer of text for a
/// terminal, a log, Markdown, HTML or CSV goes through.
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
mod tests;
