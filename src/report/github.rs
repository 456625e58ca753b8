//! `--format github`: GitHub Actions workflow commands, which show as annotations on the pull
//! request: `::error file=a.json,line=3,col=5,endLine=3,endColumn=9,title=benchlint (M005)::msg`.
//! Info findings are `::notice`. No summary line (it would be an annotation-less log line).
//!
//! GitHub shows at most 10 annotations of each severity per step, so the commands come worst
//! first: every error, then every warning, then every notice, each in report order; a
//! finding about the corpus as a whole takes its place among them by severity. It names no
//! `file=` (the corpus is no file GitHub can annotate; such an annotation is shown on the run's
//! summary page) and its message starts `the corpus PATH: `. With `$GITHUB_STEP_SUMMARY` set,
//! [`summary`] is the Markdown that lists every finding (src/cli/ci.rs appends it there).
//!
//! `file=` is the path relative to the project root ([`super::Project`]), as GitHub resolves
//! it. A name that cannot be written as it is (one holding a control character other than a
//! tab, or a secret, which is masked) gets no `file=` and is named, escaped, in the message:
//! an annotation never lands on another file.
//! Text from inputs (the file name, quoted values) is masked and escaped before the workflow
//! command's own escaping, so it can hold no line break, control character or second command.

use std::fmt::Write;

use super::Prepared;
use super::ci_keys;
use crate::diagnostic::Severity;

/// How many annotations of each severity GitHub shows for one step.
pub const SHOWN_PER_SEVERITY: usize = 10;

/// Largest step summary written, bytes: GitHub refuses a step summary of 1 MiB or more.
const SUMMARY_LIMIT: usize = 1_000_000;

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

/// The `file=` value of finding `i`: its path relative to the project root, when it can be
/// written as it is.
fn file_property(p: &Prepared, i: usize) -> Option<String> {
    let path = ci_keys::project_path(p, i).ok()?;
    let faithful = !path.chars().any(|c| c.is_control() && c != '\t')
        && crate::text::masked(&path) == path.as_str();
    faithful.then_some(path)
}

/// Renders one workflow command per finding, worst first.
pub fn render(p: &Prepared) -> Vec<u8> {
    super::spill::in_memory(|sink| write(p, sink))
}

/// [`render`], handed to `sink` 64 KB at a time: a quarter of a million findings make about
/// 90 MB of commands.
pub fn write(p: &Prepared, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut out = String::new();
    for i in ci_keys::worst_first(p) {
        if out.len() >= super::spill::CHUNK {
            sink.write_all(out.as_bytes())?;
            out.clear();
        }
        let f = &p.findings[i];
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
        let file = if f.corpus { None } else { file_property(p, i) };
        if let Some(path) = &file {
            out.push_str("file=");
            push_escaped(&mut out, path, true);
            out.push(',');
            if let Some(pos) = p.positions[i] {
                let end = super::sarif::end_column(pos);
                let _ = write!(
                    out,
                    "line={},col={},endLine={},endColumn={end},",
                    pos.line, pos.column, pos.line
                );
            }
        }
        // `benchlint (M005)`: a rule's code holds nothing to escape.
        let _ = write!(out, "title=benchlint ({})::", f.rule.code);
        if f.corpus {
            out.push_str("the corpus ");
            push_escaped(&mut out, &f.primary.path.line(), false);
            out.push_str(": ");
        } else if file.is_none() {
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
    sink.write_all(out.as_bytes())
}

/// `s` (already masked and made one line) as Markdown text: every character Markdown or HTML
/// could read as markup (emphasis, code, links, tables, headings, HTML, mentions) is escaped,
/// and so are the `://` and `www.` that would make an autolink, so a file's text shows as it
/// is and links nowhere.
fn push_markdown(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' | '@' => {
                out.push('\\');
                out.push(c);
            }
            ':' if rest.starts_with("://") => out.push_str("\\:"),
            'w' | 'W'
                if rest
                    .get(..4)
                    .is_some_and(|w| w.eq_ignore_ascii_case("www.")) =>
            {
                out.push_str(&rest[..3]);
                out.push_str("\\.");
                rest = &rest[4..];
                continue;
            }
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
}

/// How many of `p`'s findings GitHub shows as annotations: the first ten of each severity.
pub fn annotations_shown(p: &Prepared) -> usize {
    let count = |s: Severity| p.findings.iter().filter(|f| f.severity == s).count();
    [Severity::Error, Severity::Warning, Severity::Info]
        .into_iter()
        .map(|s| count(s).min(SHOWN_PER_SEVERITY))
        .sum()
}

/// The step summary: counts, how many annotations GitHub shows, then every finding grouped by
/// file and rule (files in report order), in under 1 MiB; past that, a note says how many
/// findings are not listed.
pub fn summary(p: &Prepared) -> Vec<u8> {
    let count = |s: Severity| p.findings.iter().filter(|f| f.severity == s).count();
    let (errors, warnings, notes) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    let total = p.findings.len();
    let mut out = String::from("## benchlint\n\n");
    if total == 0 {
        out.push_str("No findings.\n\n");
        return out.into_bytes();
    }
    let shown = annotations_shown(p);
    let _ = writeln!(
        out,
        "{total} findings: {errors} errors, {warnings} warnings, {notes} notes. GitHub shows at most {SHOWN_PER_SEVERITY} annotations of each severity per step, so {shown} of them appear as annotations (the worst first); every finding is listed here.\n"
    );
    // Files in report order, each with its rules in code order.
    let mut files: Vec<(String, std::collections::BTreeMap<&str, Vec<usize>>)> = Vec::new();
    for i in 0..total {
        let f = &p.findings[i];
        let name = if f.corpus {
            format!("the corpus {}", f.primary.path.line())
        } else {
            match ci_keys::project_path(p, i) {
                Ok(path) | Err(path) => path,
            }
        };
        let name = crate::text::line(&name).into_owned();
        if files.last().is_none_or(|(n, _)| *n != name) {
            files.push((name, std::collections::BTreeMap::new()));
        }
        if let Some((_, rules)) = files.last_mut() {
            rules.entry(f.rule.code).or_default().push(i);
        }
    }
    let mut listed = 0;
    let note_room = 400;
    'files: for (name, rules) in &files {
        let mut block = String::from("### ");
        push_markdown(&mut block, name);
        block.push_str("\n\n");
        if out.len() + block.len() + note_room > SUMMARY_LIMIT {
            break;
        }
        out.push_str(&block);
        for (code, idx) in rules {
            let first = &p.findings[idx[0]];
            let mut head = format!("- **{code}** {} ", first.rule.name);
            let _ = writeln!(
                head,
                "({} {})",
                idx.len(),
                if idx.len() == 1 {
                    "finding"
                } else {
                    "findings"
                }
            );
            if out.len() + head.len() + note_room > SUMMARY_LIMIT {
                break 'files;
            }
            out.push_str(&head);
            for &i in idx {
                let f = &p.findings[i];
                let mut line = String::from("  - ");
                line.push_str(f.severity.as_str());
                if let Some(pos) = p.positions[i].filter(|_| !f.corpus) {
                    let _ = write!(line, ", line {}", pos.line);
                }
                line.push_str(": ");
                push_markdown(&mut line, &f.message.line());
                line.push('\n');
                if out.len() + line.len() + note_room > SUMMARY_LIMIT {
                    break 'files;
                }
                out.push_str(&line);
                listed += 1;
            }
        }
        out.push('\n');
    }
    if listed < total {
        let _ = writeln!(
            out,
            "\n**{} of {total} findings are not listed**: a step summary holds less than 1 MiB. `benchlint check --format json` lists every finding.\n",
            total - listed
        );
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_text_links_nowhere() {
        let md = |s: &str| {
            let mut out = String::new();
            push_markdown(&mut out, s);
            out
        };
        assert_eq!(
            md("see [x](https://evil) <b>*a*</b> @me www.x.io a|b"),
            "see \\[x\\](https\\://evil) &lt;b&gt;\\*a\\*&lt;/b&gt; \\@me www\\.x.io a\\|b"
        );
        assert_eq!(
            md("not recorded: the host (`/platform/host`)"),
            "not recorded: the host (\\`/platform/host\\`)"
        );
    }

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
