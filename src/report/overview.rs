//! The per-file view of a corpus: each file with what read it (the adapter, `canonical`, or
//! why nothing did), its results and its findings by severity, worst first. A few lines of it
//! (the headline: totals, the worst files, the commonest rules) open the human output, the
//! table ends it when more than one file was checked, it follows `--format grouped`, and
//! `--show-files` prints the files alone.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::Prepared;
use crate::diagnostic::Severity;
use crate::numbers::plural;
use crate::text::PathText;

/// One file's line of the overview.
struct Row<'a> {
    path: &'a PathText,
    read_as: &'a str,
    results: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
}

/// Every file read and every file a finding is on (a sidecar, a claims file), worst first: by
/// errors, then warnings, then infos, then path. The findings about the corpus as a whole are
/// on no file ([`corpus_line`]).
fn rows(p: &Prepared) -> Vec<Row<'_>> {
    let mut by_path: BTreeMap<&str, Row<'_>> = BTreeMap::new();
    for f in &p.files {
        by_path.insert(
            f.path.raw(),
            Row {
                path: &f.path,
                read_as: &f.read_as,
                results: f.results,
                errors: 0,
                warnings: 0,
                infos: 0,
            },
        );
    }
    for f in p.findings.iter().filter(|f| !f.corpus) {
        let row = by_path.entry(f.primary.path.raw()).or_insert(Row {
            path: &f.primary.path,
            read_as: "-",
            results: 0,
            errors: 0,
            warnings: 0,
            infos: 0,
        });
        match f.severity {
            Severity::Error => row.errors += 1,
            Severity::Warning => row.warnings += 1,
            Severity::Info => row.infos += 1,
        }
    }
    let mut rows: Vec<Row<'_>> = by_path.into_values().collect();
    rows.sort_by(|a, b| {
        (b.errors, b.warnings, b.infos)
            .cmp(&(a.errors, a.warnings, a.infos))
            .then(a.path.cmp(b.path))
    });
    rows
}

/// `The corpus as a whole (PATH): 0 errors, 1 warning and 1 info (S008, S009).`, or nothing
/// when no finding is about the corpus as a whole.
fn corpus_line(p: &Prepared) -> String {
    let about: Vec<&crate::diagnostic::Finding> = p.findings.iter().filter(|f| f.corpus).collect();
    let Some(first) = about.first() else {
        return String::new();
    };
    let count = |s: Severity| about.iter().filter(|f| f.severity == s).count();
    let mut codes: Vec<&str> = about.iter().map(|f| f.rule.code).collect();
    codes.dedup();
    format!(
        "The corpus as a whole ({}): {}, {} and {} ({}).\n",
        first.primary.path.line(),
        plural(count(Severity::Error), "error", "errors"),
        plural(count(Severity::Warning), "warning", "warnings"),
        plural(count(Severity::Info), "info", "infos"),
        codes.join(", ")
    )
}

/// The overview table, headed `Files, worst first:` (after the line of the corpus as a whole,
/// when a finding is about it); empty when fewer than two files.
pub fn table(p: &Prepared) -> String {
    let rows = rows(p);
    if rows.len() < 2 {
        return String::new();
    }
    let width = rows
        .iter()
        .map(|r| r.read_as.chars().count())
        .max()
        .unwrap_or(0)
        .max("read as".len());
    // Files with nothing to say are counted on one line rather than listed: `--show-files`
    // lists every file with what read it.
    let (rows, quiet): (Vec<Row<'_>>, Vec<Row<'_>>) = rows
        .into_iter()
        .partition(|r| r.errors + r.warnings + r.infos > 0);
    let mut out = corpus_line(p);
    if rows.is_empty() {
        let results: usize = quiet.iter().map(|r| r.results).sum();
        let _ = writeln!(
            out,
            "No file has a finding of its own ({}, {}; `--show-files` lists every file and what read it).",
            plural(quiet.len(), "file", "files"),
            plural(results, "result", "results"),
        );
        return out;
    }
    out.push_str("Files, worst first (findings count each field not recorded):\n");
    let _ = writeln!(
        out,
        "  {:>6}  {:>8}  {:>5}  {:>7}  {:<width$}  file",
        "errors", "warnings", "infos", "results", "read as"
    );
    for r in rows {
        let _ = writeln!(
            out,
            "  {:>6}  {:>8}  {:>5}  {:>7}  {:<width$}  {}",
            r.errors,
            r.warnings,
            r.infos,
            r.results,
            r.read_as,
            r.path.line()
        );
    }
    if !quiet.is_empty() {
        let results: usize = quiet.iter().map(|r| r.results).sum();
        let _ = writeln!(
            out,
            "  and {} with no finding ({} {}; `--show-files` lists every file and what read it)",
            plural(quiet.len(), "file", "files"),
            results,
            if results == 1 { "result" } else { "results" },
        );
    }
    out
}

/// The files shown by name in the headline.
const HEADLINE_FILES: usize = 3;
/// The width the headline's list of rules is wrapped at, as the snippets are.
const HEADLINE_WIDTH: usize = 100;
/// The rules shown by code in the headline.
const HEADLINE_RULES: usize = 5;

/// The first lines of the human output when more than one file was checked: the totals, the
/// worst files and the commonest rules, so a reader knows where to start before the details;
/// empty for a single file (its findings are the overview).
pub fn headline(p: &Prepared) -> String {
    let rows = rows(p);
    if rows.len() < 2 || p.findings.is_empty() {
        return String::new();
    }
    let s = &p.summary;
    let mut out = format!(
        "Checked {} ({}): {}, {} and {}.\n",
        plural(s.files, "file", "files"),
        plural(s.results, "result", "results"),
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos"),
    );
    let worst: Vec<String> = rows
        .iter()
        .filter(|r| r.errors + r.warnings + r.infos > 0)
        .take(HEADLINE_FILES)
        .map(|r| {
            format!(
                "{} ({})",
                r.path.line(),
                plural(r.errors + r.warnings + r.infos, "finding", "findings")
            )
        })
        .collect();
    if !worst.is_empty() {
        out.push_str("Worst files:\n");
        for w in &worst {
            let _ = writeln!(out, "  {w}");
        }
    }
    let mut by_rule: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    for f in &p.findings {
        by_rule.entry(f.rule.code).or_insert((0, f.rule.name)).0 += 1;
    }
    let mut common: Vec<(&str, usize, &str)> = by_rule
        .into_iter()
        .map(|(c, (n, name))| (c, n, name))
        .collect();
    common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = common
        .iter()
        .take(HEADLINE_RULES)
        .map(|(code, n, name)| format!("{code} {name} ({n})"))
        .collect();
    let rules = format!(
        "{}{}.",
        shown.join(", "),
        if common.len() > HEADLINE_RULES {
            format!(
                ", and {} more rules (`--statistics` counts them all)",
                common.len() - HEADLINE_RULES
            )
        } else {
            String::new()
        }
    );
    super::fold::wrap_into(&mut out, "Commonest rules: ", &rules, HEADLINE_WIDTH);
    out.push_str(
        "Details follow file by file; the table of every file and the totals end the output.\n\n",
    );
    out
}

/// `--show-files`: each file read, in path order, with what read it.
pub fn show_files(p: &Prepared) -> Vec<u8> {
    let mut files: Vec<&crate::corpus::FileRead> = p.files.iter().collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let width = files
        .iter()
        .map(|f| f.read_as.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for f in files {
        let _ = writeln!(out, "{:<width$}  {}", f.read_as, f.path.line());
    }
    out.into_bytes()
}

/// `--format grouped`: the findings under their file, one line each (the fields one object
/// lacks on one line per rule), the findings about the corpus as a whole under `the corpus
/// PATH:` with no line or column, then the overview and the summary line.
pub fn grouped(p: &Prepared) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_grouped(p, &mut bytes).expect("writing to memory cannot fail");
    bytes
}

/// Writes the same report to `out` a file's block at a time, never holding it whole.
pub fn write_grouped(p: &Prepared, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    const FLUSH_AT: usize = 1 << 16;
    let mut buffer = String::new();
    let mut shown = 0;
    for (from, to) in super::absent::file_runs(&p.findings) {
        let corpus = p.findings[from].corpus;
        if corpus {
            let _ = writeln!(
                buffer,
                "the corpus {}:",
                p.findings[from].primary.path.line()
            );
        } else {
            let _ = writeln!(buffer, "{}:", p.findings[from].primary.path.line());
        }
        let items = super::absent::items(p, from, to, false);
        shown += items.len();
        for item in &items {
            let i = item.members[0];
            let f = &p.findings[i];
            let place = if corpus {
                String::new()
            } else {
                let (line, column) = p.positions[i].map_or((1, 1), |p| (p.line, p.column));
                format!("{line}:{column} ")
            };
            let words = super::absent::words(p, item);
            let _ = writeln!(
                buffer,
                "  {place}{} {}{}: {}",
                f.rule.code,
                f.severity.as_str(),
                if f.pre_rule { " (pre-rule)" } else { "" },
                words.message.line()
            );
        }
        buffer.push('\n');
        if buffer.len() >= FLUSH_AT {
            out.write_all(buffer.as_bytes())?;
            buffer.clear();
        }
    }
    if !p.quiet {
        let table = table(p);
        if !table.is_empty() {
            buffer.push_str(&table);
            buffer.push('\n');
        }
        buffer.push_str(&super::human::summary_with_note(p, shown));
        buffer.push('\n');
    }
    out.write_all(buffer.as_bytes())
}
