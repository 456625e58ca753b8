//! Writing a report file by file, as the loader finishes each file in path order: `json`,
//! `json-lines`, `concise` and `github`. Memory holds the findings of the files in flight, not
//! the run's. The findings known only once every file is read (corpus-wide rules, E004, E006)
//! come after the files' own, then the summary. The bytes of each finding are those the
//! whole-report writers produce; only that order differs (docs/output.md). Files are rendered
//! in parallel, a batch of a few thousand findings at a time, and written in order: the writer
//! thread only copies bytes.
//!
//! SARIF and JUnit open with what every finding shares (the rules that fired, the number of
//! failures), and the human, grouped and statistics outputs show an overview of the whole run:
//! they are written once every finding is known.

use std::io::{self, Write};

use rayon::prelude::*;

use super::prepare;
use crate::diagnostic::Finding;
use crate::engine::Summary;

/// The formats written file by file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Streamed {
    /// One JSON document: the diagnostics as they come, then the summary.
    Json,
    /// One diagnostic per line.
    JsonLines,
    /// One line per finding (absent fields of one object on one line), then the summary.
    Concise,
    /// GitHub Actions workflow commands.
    Github,
}

/// Findings held before a batch is rendered: enough to keep both cores busy, few enough that
/// memory does not grow with the corpus.
const BATCH: usize = 4096;

/// A report being written. A write that fails (a closed pipe: `check --format json | head`)
/// stops the writing, not the run: the exit code is still the run's.
pub struct Stream<'w> {
    format: Streamed,
    out: &'w mut dyn Write,
    max_file_bytes: u64,
    /// Findings written.
    written: usize,
    /// Lines written (`concise`: absent fields of one object share one).
    shown: usize,
    failed: bool,
    /// Files' findings not rendered yet, in order, and how many findings they hold.
    batch: Vec<Vec<Finding>>,
    held: usize,
}

/// One file's findings, rendered.
struct Rendered {
    bytes: Vec<u8>,
    findings: usize,
    shown: usize,
}

impl<'w> Stream<'w> {
    /// Starts a report in `format` on `out` (the JSON document's opening).
    pub fn start(format: Streamed, out: &'w mut dyn Write, max_file_bytes: u64) -> Self {
        let mut stream = Stream {
            format,
            out,
            max_file_bytes,
            written: 0,
            shown: 0,
            failed: false,
            batch: Vec::new(),
            held: 0,
        };
        if format == Streamed::Json {
            let head = format!(
                "{{\n  \"tool\": \"benchlint\",\n  \"version\": \"{}\",\n  \"diagnostics\": [",
                env!("CARGO_PKG_VERSION")
            );
            stream.put(|s| s.out.write_all(head.as_bytes()));
        }
        stream
    }

    /// Writes `findings` (sorted, of one file or the run's last ones), placed in their file,
    /// after those written before.
    pub fn write(&mut self, findings: Vec<Finding>) {
        if findings.is_empty() {
            return;
        }
        self.held += findings.len();
        self.batch.push(findings);
        if self.held >= BATCH {
            self.flush();
        }
    }

    /// Renders the files held, in parallel, and writes them in order.
    fn flush(&mut self) {
        let batch = std::mem::take(&mut self.batch);
        self.held = 0;
        if self.failed {
            return;
        }
        let (format, max_file_bytes) = (self.format, self.max_file_bytes);
        let rendered: Vec<Rendered> = batch
            .into_par_iter()
            .map(|findings| render(format, findings, max_file_bytes))
            .collect();
        for r in rendered {
            self.put(|s| {
                if s.format == Streamed::Json {
                    s.out.write_all(if s.written == 0 {
                        b"\n    "
                    } else {
                        b",\n    "
                    })?;
                }
                s.out.write_all(&r.bytes)
            });
            self.written += r.findings;
            self.shown += r.shown;
        }
    }

    /// Ends the report with `summary` (JSON, concise) and flushes it.
    pub fn finish(mut self, summary: &Summary) {
        self.flush();
        self.put(|s| match s.format {
            Streamed::Json => {
                s.out
                    .write_all(if s.written == 0 { b"]" } else { b"\n  ]" })?;
                s.out.write_all(b",\n  \"summary\": ")?;
                let mut json = Vec::new();
                crate::text::json::to_writer_pretty(&mut json, summary)?;
                write_indented(s.out, &json, b"  ")?;
                s.out.write_all(b"\n}\n")
            }
            Streamed::Concise => {
                let line = super::human::summary_of(summary, s.written, s.shown);
                writeln!(s.out, "{line}")
            }
            Streamed::JsonLines | Streamed::Github => Ok(()),
        });
        self.put(|s| s.out.flush());
    }

    fn put(&mut self, write: impl FnOnce(&mut Self) -> io::Result<()>) {
        if !self.failed && write(self).is_err() {
            self.failed = true;
        }
    }
}

/// One file's findings in `format`: the JSON diagnostics indented for the document's array and
/// separated by commas (the writer adds what goes before the first).
fn render(format: Streamed, findings: Vec<Finding>, max_file_bytes: u64) -> Rendered {
    let p = prepare(findings, Summary::default(), max_file_bytes, false);
    let mut bytes = Vec::new();
    let mut shown = p.findings.len();
    match format {
        Streamed::Json => {
            let mut one = Vec::new();
            for i in 0..p.findings.len() {
                one.clear();
                crate::text::json::to_writer_pretty(&mut one, &super::json::diagnostic(&p, i))
                    .expect("writing to memory cannot fail");
                if i > 0 {
                    bytes.extend_from_slice(b",\n    ");
                }
                write_indented(&mut bytes, &one, b"    ").expect("writing to memory cannot fail");
            }
        }
        Streamed::JsonLines => {
            super::json_lines::write(&p, &mut bytes).expect("writing to memory cannot fail");
        }
        Streamed::Concise => {
            let mut lines = String::new();
            shown = super::concise::lines(&p, &mut lines);
            bytes = lines.into_bytes();
        }
        Streamed::Github => bytes = super::github::render(&p),
    }
    Rendered {
        bytes,
        findings: p.findings.len(),
        shown,
    }
}

/// Writes pretty-printed JSON one level deeper, where its first line is already indented:
/// `indent` after each line break (a JSON string holds no raw line break, so each is the
/// printer's).
fn write_indented(out: &mut dyn Write, json: &[u8], indent: &[u8]) -> io::Result<()> {
    for (k, line) in json.split(|&b| b == b'\n').enumerate() {
        if k > 0 {
            out.write_all(b"\n")?;
            out.write_all(indent)?;
        }
        out.write_all(line)?;
    }
    Ok(())
}
