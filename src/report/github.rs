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

/// Appends `s` to `out` escaped as message data (`@actions/core`'s `escapeData`), or as a
/// property value with `property` (`escapeProperty`: `:` and `,` too). One pass, each
/// character on its own: what `@actions/core`'s chain of replacements gives, since no escape
/// it writes holds a character a later one replaces.
pub(crate) fn push_escaped(out: &mut String, s: &str, property: bool) {
    let special = |c: char| matches!(c, '%' | '\r' | '\n') || (property && matches!(c, ':' | ','));
    if !s.contains(special) {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
}

/// Renders one workflow command per finding, each written straight into the output.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut out = String::new();
    for (i, f) in p.findings.iter().enumerate() {
        let command = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        out.push_str("::");
        out.push_str(command);
        out.push(' ');
        // The corpus is no file of the repository: its annotation names no file (GitHub then
        // shows it on the run's summary) and says which corpus in its message.
        if !f.corpus {
            out.push_str("file=");
            push_escaped(&mut out, &f.primary.path.line().replace('\\', "/"), true);
            out.push(',');
        }
        if let Some(pos) = p.positions[i].filter(|_| !f.corpus) {
            let end = super::sarif::end_column(pos);
            let _ = write!(
                out,
                "line={},col={},endLine={},endColumn={end},",
                pos.line, pos.column, pos.line
            );
        }
        // `benchlint (M005)`: a rule's code holds nothing to escape.
        let _ = write!(out, "title=benchlint ({})::", f.rule.code);
        if f.corpus {
            out.push_str("the corpus ");
            push_escaped(&mut out, &f.primary.path.line(), false);
            out.push_str(": ");
        }
        push_escaped(&mut out, &f.message.line(), false);
        if let Some(h) = &f.help {
            out.push_str("%0Ahelp: ");
            push_escaped(&mut out, &h.line(), false);
        }
        out.push('\n');
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        let escaped = |s: &str, property: bool| {
            let mut out = String::new();
            push_escaped(&mut out, s, property);
            out
        };
        assert_eq!(escaped("50% a\r\nb: c, d", false), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escaped("a:b,c%\n", true), "a%3Ab%2Cc%25%0A");
        assert_eq!(escaped("plain text", true), "plain text");
    }
}
