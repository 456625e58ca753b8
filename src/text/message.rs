//! [`Text`]: a message made of benchlint's own words and text from inputs, each part keeping its
//! origin until a writer shows it.

use std::borrow::Cow;

use super::{line, markdown, masked};

mod codec;
mod traits;

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
    /// Mixed, held compactly ([`Text::compact`]): the parts' text in one allocation, and where
    /// each part ends and whether it came from an input. Reads, writes and orders exactly as the
    /// parts it was made of.
    Joined(Box<Joined>),
}

/// The parts of a [`Text::Joined`].
#[derive(Debug, Clone)]
pub struct Joined {
    /// Every part's text, in order.
    text: Box<str>,
    /// Each part: the byte its text ends at in `text`, and whether it came from an input.
    ends: Box<[(u32, bool)]>,
}

impl Joined {
    /// Each part's origin and text, in order.
    fn parts(&self) -> impl Iterator<Item = (Origin, &str)> {
        let mut start = 0;
        self.ends.iter().map(move |&(end, file)| {
            let end = end as usize;
            let part = &self.text[start..end];
            start = end;
            (if file { Origin::File } else { Origin::Own }, part)
        })
    }
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

    /// The same text held in as little memory as it takes, for a finding kept until the end of
    /// a run: a text of parts becomes one string and the bounds of its parts (two allocations
    /// instead of one per part and one for the list), so every writer sees the same parts.
    pub fn compact(&mut self) {
        let Text::Parts(parts) = self else {
            return;
        };
        let len: usize = parts.iter().map(|p| p.as_str().len()).sum();
        if u32::try_from(len).is_err() {
            return;
        }
        let mut text = String::with_capacity(len);
        let mut ends = Vec::with_capacity(parts.len());
        for p in parts.iter() {
            text.push_str(p.as_str());
            #[expect(
                clippy::cast_possible_truncation,
                reason = "the total fits, checked above"
            )]
            ends.push((text.len() as u32, matches!(p, Part::File(_))));
        }
        *self = Text::Joined(Box::new(Joined {
            text: text.into_boxed_str(),
            ends: ends.into_boxed_slice(),
        }));
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
            Text::Joined(j) => {
                for (origin, s) in j.parts() {
                    f(origin, s);
                }
            }
        }
    }

    /// A [`Text::Joined`] as the parts it was made of (to append to it).
    fn unjoined(j: &Joined) -> Vec<Part> {
        j.parts()
            .map(|(origin, s)| match origin {
                Origin::Own => Part::Own(Cow::Owned(s.to_string())),
                Origin::File | Origin::Quoting => Part::File(s.to_string()),
            })
            .collect()
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
            Text::Joined(j) => Self::unjoined(&j)
                .into_iter()
                .for_each(|p| self.push_part(p)),
        }
    }

    fn push_part(&mut self, part: Part) {
        let parts = match std::mem::take(self) {
            Text::Own(s) if s.is_empty() => Vec::new(),
            Text::Own(s) => vec![Part::Own(s)],
            Text::File(s) | Text::Quoting(s) => vec![Part::File(s)],
            Text::Parts(p) => p,
            Text::Joined(j) => Self::unjoined(&j),
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

    /// For a terminal or a CI log: own words as they are, input parts as
    /// [`FileText::line`](super::FileText::line).
    pub fn line(&self) -> Cow<'_, str> {
        self.written(line, true)
    }

    /// Secrets masked in the input parts, nothing escaped (for JSON).
    pub fn masked(&self) -> Cow<'_, str> {
        self.written(masked, false)
    }

    /// Own words as they are, every input part through `write_input`; `marks`: a runner's
    /// command marks split across two pieces are escaped too (the terminal and log form).
    fn written(&self, write_input: fn(&str) -> Cow<'_, str>, marks: bool) -> Cow<'_, str> {
        match self {
            Text::Own(s) => Cow::Borrowed(s),
            Text::File(s) | Text::Quoting(s) => write_input(s),
            Text::Parts(_) | Text::Joined(_) => {
                let mut out = String::new();
                let mut prev_input = false;
                self.each(&mut |origin, s| {
                    let input = origin != Origin::Own;
                    let piece = if input {
                        write_input(s)
                    } else {
                        Cow::Borrowed(s)
                    };
                    // Two pieces, one of them an input, that would join into `::` or `##`
                    // (`file:` then `:x`): the second mark is escaped, as within a piece.
                    let first = piece.chars().next();
                    match first {
                        Some(c)
                            if marks
                                && (input || prev_input)
                                && super::commands::is_mark(c)
                                && out.ends_with(c) =>
                        {
                            out.extend(c.escape_unicode());
                            out.push_str(&piece[c.len_utf8()..]);
                        }
                        _ => out.push_str(&piece),
                    }
                    prev_input = input;
                });
                Cow::Owned(out)
            }
        }
    }

    /// Each piece of the masked text ([`Text::masked`]) in order, without joining them: own
    /// words as they are, every input part masked. A writer that escapes piece by piece writes
    /// the bytes the joined text would give.
    pub fn each_masked(&self, f: &mut dyn FnMut(&str)) {
        self.each(&mut |origin, s| {
            if origin == Origin::Own {
                f(s);
            } else {
                f(&masked(s));
            }
        });
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
}
