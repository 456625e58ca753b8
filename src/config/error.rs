//! [`ConfigError`]: a mistake in the config file, with its line and column, rendered with the
//! line it is on.

use std::fmt::Write as _;
use std::ops::Range;

/// A mistake in the config file, with the place it is at.
#[derive(Debug, Clone)]
pub struct ConfigError {
    /// The file as messages show it.
    pub display: String,
    /// Its text, when it could be read.
    pub text: Option<String>,
    /// Byte range of the mistake.
    pub span: Option<Range<usize>>,
    /// What is wrong.
    pub message: String,
    /// Text under the span.
    pub label: String,
    /// What to do.
    pub help: Option<String>,
}

impl ConfigError {
    pub(super) fn at(
        display: &str,
        text: &str,
        span: Range<usize>,
        message: String,
        label: &str,
    ) -> Box<Self> {
        Box::new(ConfigError {
            display: display.to_string(),
            text: Some(text.to_string()),
            span: Some(span),
            message,
            label: label.to_string(),
            help: None,
        })
    }

    pub(super) fn with_help(mut self: Box<Self>, help: impl Into<String>) -> Box<Self> {
        self.help = Some(help.into());
        self
    }

    /// 1-based line and column of the mistake.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        let (text, span) = (self.text.as_ref()?, self.span.as_ref()?);
        let start = span.start.min(text.len());
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Some((line, column))
    }

    /// The diagnostic as text: `path:line:column: message`, then a snippet with the label.
    /// The file's name, its text and the message (which may quote it) are input: secrets are
    /// masked and control, bidirectional and invisible characters escaped or replaced before
    /// anything reaches the terminal.
    pub fn render(&self, color: bool) -> String {
        let display = crate::text::line(&self.display);
        let message = crate::text::line(&self.message);
        let place = match self.line_column() {
            Some((l, c)) => format!("{display}:{l}:{c}"),
            None => display.to_string(),
        };
        let help = self.help.as_deref().map(crate::text::line);
        let (Some(text), Some(span)) = (&self.text, &self.span) else {
            let mut out = format!("benchlint: error: {place}: {message}\n");
            if let Some(h) = &help {
                let _ = writeln!(out, "  help: {h}");
            }
            return out;
        };
        let start = span.start.min(text.len());
        let len = span.end.min(text.len()).saturating_sub(start);
        // Same length, same offsets: the span still points where it did.
        let mut shown = text.clone();
        crate::secrets::mask::mask_all(&mut shown);
        crate::text::stand_in(&mut shown);
        let mut out = format!("benchlint: error: bad config file {place}\n");
        let mut diag = miette::MietteDiagnostic::new(message.into_owned()).with_label(
            miette::LabeledSpan::new_primary_with_span(
                Some(crate::text::line(&self.label).into_owned()),
                (start, len),
            ),
        );
        if let Some(h) = help {
            diag = diag.with_help(h.into_owned());
        }
        let report = miette::Report::new(diag)
            .with_source_code(miette::NamedSource::new(&display, shown).with_language("toml"));
        let theme = if color {
            miette::GraphicalTheme::unicode()
        } else {
            miette::GraphicalTheme::unicode_nocolor()
        };
        let handler = miette::GraphicalReportHandler::new_themed(theme)
            .with_width(100)
            .with_links(false);
        let mut snippet = String::new();
        if handler.render_report(&mut snippet, report.as_ref()).is_ok() {
            out.push_str(&snippet);
        }
        out
    }
}
