//! `--format concise`: one line per finding, `path:line:column: CODE severity: message`. The
//! path and every value a message quotes are on that line whatever they hold (line breaks
//! and control characters written as escapes, secrets masked).

use std::fmt::Write;

use super::Prepared;

/// Renders one line per finding and a summary line.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut out = String::new();
    for (f, pos) in p.findings.iter().zip(&p.positions) {
        let (line, column) = pos.map_or((1, 1), |p| (p.line, p.column));
        let _ = writeln!(
            out,
            "{}:{line}:{column}: {} {}{}: {}",
            f.primary.path.line(),
            f.rule.code,
            f.severity.as_str(),
            if f.pre_rule { " (pre-rule)" } else { "" },
            f.message.line()
        );
    }
    out.push_str(&super::human::summary_line(&p.summary));
    out.push('\n');
    out.into_bytes()
}
