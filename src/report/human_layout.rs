//! The miette handlers the human format draws with, built once per report: one that wraps the
//! message and help to [`WIDTH`](super::human) columns, and one that lays them out the same
//! way without wrapping. miette wraps with textwrap, which splits each line into words by the
//! Unicode line-breaking rules whether or not it fits, for every finding; here a text that
//! fits is not split at all, and a text that does not is wrapped once per thread, remembered,
//! and handed to the plain handler already in lines (a rule's help is the same in every file).
//!
//! Why the bytes are the same: miette hands the message to textwrap with an indent on the
//! first line (`  × `) and another on the rest (`  │ `), the help with `  help: ` and eight
//! spaces, `WIDTH - 2` columns in all, and writes `textwrap::fill`: the lines of
//! `textwrap::wrap`, each its indent and its words, joined by line feeds. Without wrapping,
//! miette writes each line of the text after the same indents, a line of nothing but white
//! space after the indent trimmed. So the text made of the wrapped lines less their indents,
//! when none of them is blank, draws the same; the wrapping depends on the indents' widths
//! only, so they are measured without their colours. A line that fits is left whole by
//! textwrap (its words cover it from its first byte to its last, and all go on one line when
//! its width is at most the columns left after the indent; only spaces ending it would go),
//! which [`fits`] checks without splitting it.

use foldhash::{HashMap, HashMapExt};
use std::cell::RefCell;

use miette::{GraphicalReportHandler, GraphicalTheme};
use textwrap::core::display_width;

use crate::diagnostic::Severity;

/// Texts remembered per thread before the memory starts again (each a message or help of a
/// few hundred bytes).
const REMEMBERED: usize = 4096;

thread_local! {
    /// Texts already wrapped, by the indents' widths: the lines, or `None` when one is blank.
    static WRAPPED: RefCell<HashMap<(usize, usize, String), Option<String>>> =
        RefCell::new(HashMap::new());
}

/// The indents of the message (one per severity, whose icon starts it) or the help, without
/// colour.
struct Indents {
    first: String,
    rest: String,
}

/// The two handlers, and the indents the message and help are wrapped with.
pub struct Layout {
    wrapping: GraphicalReportHandler,
    plain: GraphicalReportHandler,
    /// Columns for the text, the indents included.
    text_width: usize,
    /// Message indents per severity: error, warning, advice.
    message: [Indents; 3],
    help: Indents,
}

impl Layout {
    /// The handlers for `width` columns, with or without colour.
    pub fn new(width: usize, color: bool) -> Self {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let chars = &theme.characters;
        let rest = format!("  {} ", chars.vbar);
        let message = [&chars.error, &chars.warning, &chars.advice].map(|icon| Indents {
            first: format!("  {icon} "),
            rest: rest.clone(),
        });
        let help = Indents {
            first: "  help: ".to_string(),
            rest: " ".repeat(8),
        };
        let wrapping = GraphicalReportHandler::new_themed(theme.clone())
            .with_width(width)
            .with_links(false);
        let plain = GraphicalReportHandler::new_themed(theme)
            .with_width(width)
            .with_links(false)
            .with_wrap_lines(false);
        Layout {
            wrapping,
            plain,
            // miette's own arithmetic: two columns kept.
            text_width: width.saturating_sub(2),
            message,
            help,
        }
    }

    /// The handler to draw a diagnostic of `severity` with, and its message and help as that
    /// handler must be given them to draw what the wrapping handler draws of `message` and
    /// `help`.
    pub fn shape(
        &self,
        severity: Severity,
        message: String,
        help: Option<String>,
    ) -> (&GraphicalReportHandler, String, Option<String>) {
        let indents = &self.message[match severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        }];
        let lines = self.lines(&message, indents);
        let help_lines = help.as_ref().map(|h| self.lines(h, &self.help));
        match (lines, help_lines) {
            (Some(m), None) => (&self.plain, m.unwrap_or(message), None),
            (Some(m), Some(Some(h))) => (
                &self.plain,
                m.unwrap_or(message),
                Some(h.unwrap_or_else(|| help.unwrap_or_default())),
            ),
            _ => (&self.wrapping, message, help),
        }
    }

    /// `text` as textwrap lays it out after `indents`, without them: `Some(None)` when that
    /// is `text` itself, `None` when a line would be blank.
    #[allow(clippy::option_option)]
    fn lines(&self, text: &str, indents: &Indents) -> Option<Option<String>> {
        let (first, rest) = (display_width(&indents.first), display_width(&indents.rest));
        if fits(text, self.text_width.saturating_sub(first.max(rest))) {
            return Some(None);
        }
        let key = (first, rest, text.to_string());
        if let Some(known) = WRAPPED.with(|w| w.borrow().get(&key).cloned()) {
            return known.map(Some);
        }
        let options = textwrap::Options::new(self.text_width)
            .initial_indent(&indents.first)
            .subsequent_indent(&indents.rest)
            .break_words(true);
        let mut out = String::with_capacity(text.len() + 8);
        let mut blank = false;
        for (k, line) in textwrap::wrap(text, options).iter().enumerate() {
            let indent = if k == 0 {
                &indents.first
            } else {
                &indents.rest
            };
            match line.strip_prefix(indent.as_str()) {
                Some(words) if !words.trim().is_empty() => {
                    if k > 0 {
                        out.push('\n');
                    }
                    out.push_str(words);
                }
                _ => blank = true,
            }
        }
        let known = (!blank).then_some(out);
        WRAPPED.with(|w| {
            let mut w = w.borrow_mut();
            if w.len() >= REMEMBERED {
                w.clear();
            }
            w.insert(key, known.clone());
        });
        known.map(Some)
    }
}

/// Whether textwrap would leave every line of `text` as it is on one line of `columns`: no
/// line empty or ending in white space, none wider.
fn fits(text: &str, columns: usize) -> bool {
    text.split('\n').all(|line| {
        line.chars().next_back().is_some_and(|c| !c.is_whitespace())
            && display_width(line) <= columns
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lines_that_fit_are_left_unwrapped() {
        assert!(fits("a message of a few words", 94));
        assert!(fits("first line\n  also: a/b.json:3:4 (/x)", 90));
        assert!(!fits(&"word ".repeat(20), 94));
        assert!(!fits(&"w".repeat(95), 94));
        assert!(fits(&"w".repeat(94), 94));
        assert!(!fits("trailing space ", 94));
        assert!(!fits("a\n\nb", 94));
        assert!(!fits("", 94));
    }

    /// A diagnostic drawn by the wrapping handler, and by the one [`Layout::shape`] chooses
    /// with the texts it gives.
    fn both(layout: &Layout, severity: Severity, message: &str, help: Option<&str>) {
        let mut d = miette::MietteDiagnostic::new(message).with_code("R001(some-rule)");
        d = d.with_severity(match severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        });
        if let Some(h) = help {
            d = d.with_help(h);
        }
        let (chosen, m, h) = layout.shape(severity, message.to_string(), help.map(str::to_string));
        let mut shaped = miette::MietteDiagnostic::new(m)
            .with_code("R001(some-rule)")
            .with_severity(d.severity.unwrap());
        if let Some(h) = h {
            shaped = shaped.with_help(h);
        }
        let (mut wrapped, mut drawn) = (String::new(), String::new());
        layout.wrapping.render_report(&mut wrapped, &d).unwrap();
        chosen.render_report(&mut drawn, &shaped).unwrap();
        assert_eq!(drawn, wrapped, "{message:?} {help:?}");
    }

    #[test]
    fn the_plain_handler_draws_what_the_wrapping_one_does() {
        let wide = "数".repeat(47);
        let messages = [
            "`ttft_ms` is 12.5 in level 3 but the samples give 14.1".to_string(),
            "x".repeat(94),
            "x".repeat(95),
            format!("{} end", "word ".repeat(18)),
            "résumé × ≥ 3 … µs".to_string(),
            wide.clone(),
            format!("{wide}x"),
            "two lines\nof text".to_string(),
            "  leading spaces, then words".to_string(),
            "a very-long-hyphenated-word-that-goes-on and/on/with/slashes".to_string(),
        ];
        let helps = [
            None,
            Some("set `engine.max_num_seqs` to the value the server ran with".to_string()),
            Some("related:\n  also: a/b.json:3:4 (/levels/0)\n  also: c.json (/)".to_string()),
            Some("h".repeat(90)),
            Some("h".repeat(91)),
            Some(format!("{}.", "help me ".repeat(12))),
            Some(format!("{}\n\nafter a blank line", "help me ".repeat(12))),
            Some(format!("{} ", "trailing ".repeat(12))),
            Some(format!("{}-{}", "x".repeat(120), "y".repeat(200))),
        ];
        for color in [false, true] {
            let layout = Layout::new(100, color);
            for severity in [Severity::Error, Severity::Warning, Severity::Info] {
                for m in &messages {
                    for h in &helps {
                        both(&layout, severity, m, h.as_deref());
                    }
                }
            }
        }
    }
}
