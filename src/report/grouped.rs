//! `--format grouped`: the findings under their file, then the overview of the files and the
//! summary line, written a file's block at a time.

use std::fmt::Write;

use super::Prepared;
use super::overview::table;

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
