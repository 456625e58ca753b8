//! `--format github`: GitHub Actions workflow commands, which show as annotations on the pull
//! request: `::error file=a.json,line=3,col=5,endLine=3,endColumn=9,title=benchlint (M005)::msg`.
//! Info findings are `::notice`. No summary line (it would be an annotation-less log line).
//! A finding about the corpus as a whole has no `file=` (a folder is no file GitHub can
//! annotate; an annotation without one is shown on the run's summary page) and its message
//! starts `the corpus PATH: `.
//! Text from inputs (the file name, quoted values) is masked and escaped before the workflow
//! command's own escaping, so it can hold no line break, control character or second command.

use std::fmt::Write;

use super::Prepared;
use crate::diagnostic::Severity;

/// Escapes the message part (`@actions/core`'s `escapeData`).
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (`escapeProperty`): the message escapes plus `:` and `,`.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Renders one workflow command per finding.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut out = String::new();
    for (i, f) in p.findings.iter().enumerate() {
        let command = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        // The corpus is no file of the repository: its annotation names no file (GitHub then
        // shows it on the run's summary) and says which corpus in its message.
        let mut props = if f.corpus {
            String::new()
        } else {
            format!(
                "file={},",
                escape_property(&f.primary.path.line().replace('\\', "/"))
            )
        };
        if let Some(pos) = p.positions[i].filter(|_| !f.corpus) {
            let end = super::sarif::end_column(pos);
            let _ = write!(
                props,
                "line={},col={},endLine={},endColumn={end},",
                pos.line, pos.column, pos.line
            );
        }
        let title = format!("benchlint ({})", f.rule.code);
        let _ = write!(props, "title={}", escape_property(&title));
        let mut message = if f.corpus {
            format!("the corpus {}: ", f.primary.path.line())
        } else {
            String::new()
        };
        message.push_str(&f.message.line());
        if let Some(h) = &f.help {
            let _ = write!(message, "\nhelp: {}", h.line());
        }
        let _ = writeln!(out, "::{command} {props}::{}", escape_data(&message));
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
