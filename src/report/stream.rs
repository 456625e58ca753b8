//! Writing a report file by file, as the loader finishes each file in path order: `json`,
//! `json-lines` and `concise`. Memory holds the findings of the files in flight, not
//! the run's. The findings known only once every file is read (corpus-wide rules, E004, E006)
//! come after the files' own, then the summary. The bytes of each finding are those the
//! whole-report writers produce; only that order differs (docs/output.md).
//!
//! SARIF and JUnit open with what every finding shares (the rules that fired, the number of
//! failures), GitHub annotations and GitLab Code Quality come worst first, and the human, grouped and statistics outputs show an overview of the whole run:
//! they are written once every finding is known.

use std::io::{self, Write};

use super::prepare;
use super::spill::CHUNK;
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
}

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
    /// `--quiet`: no summary line.
    quiet: bool,
    /// Scratch for one file's diagnostics of the JSON document.
    buffer: Vec<u8>,
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
            quiet: false,
            buffer: Vec::new(),
        };
        if format == Streamed::Json {
            let head = super::json::head();
            stream.put(|s| s.out.write_all(&head));
        }
        stream
    }

    /// Writes `findings` (sorted, of one file or the run's last ones), placed in their file.
    pub fn write(&mut self, findings: Vec<Finding>) {
        if findings.is_empty() || self.failed {
            self.written += findings.len();
            return;
        }
        let p = prepare(findings, Summary::default(), self.max_file_bytes, false);
        self.put(|s| match s.format {
            Streamed::Json => {
                s.buffer.clear();
                for i in 0..p.findings.len() {
                    let lead: &[u8] = if s.written + i == 0 {
                        b"\n    "
                    } else {
                        b",\n    "
                    };
                    s.buffer.extend_from_slice(lead);
                    super::json::diagnostic(
                        &mut s.buffer,
                        &p,
                        i,
                        super::json::Layout::Pretty,
                        &mut *s.out,
                    )?;
                    if s.buffer.len() >= CHUNK {
                        s.out.write_all(&s.buffer)?;
                        s.buffer.clear();
                    }
                }
                s.out.write_all(&s.buffer)
            }
            Streamed::JsonLines => super::json_lines::write(&p, s.out),
            Streamed::Concise => {
                let mut lines = String::new();
                let out = &mut *s.out;
                s.shown += super::concise::lines(&p, &mut lines, &mut |chunk| {
                    out.write_all(chunk.as_bytes())?;
                    chunk.clear();
                    Ok(())
                })?;
                s.out.write_all(lines.as_bytes())
            }
        });
        // A file of many findings leaves no large scratch behind for the rest of the run.
        if self.buffer.capacity() > 2 * CHUNK {
            self.buffer = Vec::new();
        }
        self.written += p.findings.len();
    }

    /// Leaves the summary line out (`--quiet`); the JSON document keeps its summary, which is
    /// data, not a line.
    pub fn quiet(&mut self) {
        self.quiet = true;
    }

    /// Ends the report with `summary` (JSON, concise) and flushes it.
    pub fn finish(mut self, summary: &Summary) {
        self.put(|s| match s.format {
            Streamed::Json => {
                s.buffer.clear();
                super::json::tail(&mut s.buffer, s.written == 0, summary)?;
                s.out.write_all(&s.buffer)
            }
            Streamed::Concise if s.quiet => Ok(()),
            Streamed::Concise => {
                let line = super::human::summary_of(summary, s.written, s.shown);
                writeln!(s.out, "{line}")
            }
            Streamed::JsonLines => Ok(()),
        });
        self.put(|s| s.out.flush());
    }

    fn put(&mut self, write: impl FnOnce(&mut Self) -> io::Result<()>) {
        if !self.failed && write(self).is_err() {
            self.failed = true;
        }
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
