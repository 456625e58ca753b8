//! The miette handlers the human format draws with, built once per report: one that wraps the
//! message and help to [`WIDTH`](super::human) columns, and one that lays them out the same
//! way without wrapping, for a diagnostic whose every line already fits. miette wraps with
//! textwrap, which splits each line into words by the Unicode line-breaking rules whether or
//! not it fits; most findings' messages fit, and that split was most of their drawing.
//!
//! Why the two give the same bytes when [`Layout::fits`] holds: miette hands the message to
//! textwrap with an indent on the first line (`  × `) and another on the rest (`  │ `), the
//! help with `  help: ` and eight spaces, `WIDTH - 2` columns in all. textwrap lays out each
//! line of the text on its own, as words that cover the line from its first byte to its last,
//! and puts them all on one output line when the line's width (textwrap's own measure,
//! [`textwrap::core::display_width`]) is at most the columns left after the indent; that
//! output line is the indent and the line, less the spaces ending it. Without wrapping, miette
//! writes each line after the same indent, whole. So when no line is empty or ends in white
//! space and each fits, the two are the same.

use miette::{GraphicalReportHandler, GraphicalTheme};
use textwrap::core::display_width;

use crate::diagnostic::Severity;

/// The two handlers and the columns a line of message or help may take unwrapped.
pub struct Layout {
    wrapping: GraphicalReportHandler,
    plain: GraphicalReportHandler,
    /// Columns for a message line, per severity (its icon starts the first line).
    message: [usize; 3],
    /// Columns for a line of help.
    help: usize,
}

impl Layout {
    /// The handlers for `width` columns, with or without colour.
    pub fn new(width: usize, color: bool) -> Self {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        // miette's own arithmetic: two columns kept, then the indents.
        let text_width = width.saturating_sub(2);
        let chars = &theme.characters;
        let rest = display_width(&format!("  {} ", chars.vbar));
        let message = [&chars.error, &chars.warning, &chars.advice].map(|icon| {
            text_width.saturating_sub(display_width(&format!("  {icon} ")).max(rest))
        });
        let help = text_width.saturating_sub(display_width("  help: ").max(8));
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
            message,
            help,
        }
    }

    /// The handler for a diagnostic of `severity` with `message` and `help`.
    pub fn handler(
        &self,
        severity: Severity,
        message: &str,
        help: Option<&str>,
    ) -> &GraphicalReportHandler {
        let columns = self.message[match severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        }];
        if fits(message, columns) && help.is_none_or(|h| fits(h, self.help)) {
            &self.plain
        } else {
            &self.wrapping
        }
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

    /// A diagnostic drawn by both handlers, when [`fits`] lets the plain one draw it.
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
        let chosen = layout.handler(severity, message, help);
        let (mut wrapped, mut drawn) = (String::new(), String::new());
        layout.wrapping.render_report(&mut wrapped, &d).unwrap();
        chosen.render_report(&mut drawn, &d).unwrap();
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
