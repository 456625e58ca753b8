//! What the CI formats (SARIF, GitLab Code Quality, JUnit, GitHub) need beyond a finding
//! itself: the file it lands on relative to the project root, a fingerprint that stays the
//! same across runs, working folders and edits elsewhere in the file, the order worst first,
//! and the cut of a run past a service's limit.
//!
//! Decisions:
//! - A fingerprint is `CODE:path:pointer`: the path relative to the project root (absolute
//!   outside it); the pointer of the value, or of the missing field for a field not recorded
//!   ([`crate::diagnostic::Finding::key_pointer`]); in a file of several documents (JSON
//!   Lines), the document's index prefixed (`#3/levels/0`), never its byte offset, so one
//!   added space does not re-key every later record. A finding about the corpus as a whole is
//!   `CODE:corpus`, whichever file it is shown on.
//! - Two findings with one key (the same rule at the same place, twice) are told apart by a
//!   `:2`, `:3`, ... suffix in the order of the report, which is sorted and deterministic.
//! - A finding about the corpus as a whole is shown on a file of the corpus, line 1: the first
//!   related file, else the first file with a finding, else the first file a result was read
//!   from, else the first file read.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use super::Prepared;
use crate::diagnostic::Severity;

/// GitHub code scanning's limit of results per SARIF run (it rejects a run with more).
pub const MAX_SARIF_RESULTS: usize = 25_000;

/// The file finding `i` is shown on, as reached from the command line: its own, or for a
/// finding about the corpus as a whole, a file of the corpus (`None` when no file was read).
pub fn shown_file(p: &Prepared, i: usize) -> Option<&str> {
    let f = &p.findings[i];
    if !f.corpus {
        return Some(f.primary.path.raw());
    }
    f.related
        .first()
        .map(|r| r.path.raw())
        .or_else(|| {
            p.findings
                .iter()
                .find(|g| !g.corpus)
                .map(|g| g.primary.path.raw())
        })
        .or_else(|| {
            // The first file a result was read from, else the first file read.
            p.files
                .iter()
                .find(|r| r.results > 0)
                .or_else(|| p.files.first())
                .map(|r| r.path.raw())
        })
        .or_else(|| Some(f.primary.path.raw()).filter(|s| !s.ends_with('/')))
}

/// The file finding `i` is shown on, relative to the project root with forward slashes
/// (`Ok`), or absolute when it lies outside the root (`Err`).
pub fn project_path(p: &Prepared, i: usize) -> Result<String, String> {
    let shown = shown_file(p, i).unwrap_or_else(|| p.findings[i].primary.path.raw());
    match p.project.relative(shown) {
        Some(rel) => Ok(rel),
        None => Err(p.project.absolute(shown)),
    }
}

/// The fingerprint of every finding of `p`, distinct, in the findings' order.
pub fn fingerprints(p: &Prepared) -> Vec<String> {
    let mut records = Records::default();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    (0..p.findings.len())
        .map(|i| {
            let f = &p.findings[i];
            let mut key = format!("{}:", f.rule.code);
            if f.corpus {
                key.push_str("corpus");
            } else {
                match project_path(p, i) {
                    Ok(path) | Err(path) => key.push_str(&crate::text::masked(&path)),
                }
                key.push(':');
                if f.primary.doc_start > 0 {
                    let index =
                        records.index(f.primary.path.raw(), f.primary.doc_start, p.max_file_bytes);
                    match index {
                        Some(n) => {
                            let _ = write!(key, "#{n}");
                        }
                        None => {
                            let _ = write!(key, "@{}", f.primary.doc_start);
                        }
                    }
                }
                key.push_str(&f.shown_pointer());
            }
            let n = seen.entry(key.clone()).or_default();
            *n += 1;
            if *n > 1 {
                let _ = write!(key, ":{n}");
            }
            key
        })
        .collect()
}

/// A 128-bit hash of `key` as 32 hexadecimal digits (two FNV-1a passes with different
/// offsets): stable across versions and machines, unlike the hasher of a map.
pub fn hex_digest(key: &str) -> String {
    let fnv = |offset: u64| {
        key.bytes().fold(offset, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    format!(
        "{:016x}{:016x}",
        fnv(0xcbf2_9ce4_8422_2325),
        fnv(0x6c62_272e_07bb_0142)
    )
}

/// The findings in the order a CI service that shows only the first few should get them:
/// errors, then warnings, then notes, each in report order.
pub fn worst_first(p: &Prepared) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.findings.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(p.findings[i].severity));
    order
}

/// What a cut left out, by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cut {
    /// Errors left out.
    pub errors: usize,
    /// Warnings left out.
    pub warnings: usize,
    /// Notes (infos) left out.
    pub notes: usize,
}

impl Cut {
    /// How many were left out.
    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.notes
    }

    /// The worst severity left out.
    pub fn worst(&self) -> Severity {
        if self.errors > 0 {
            Severity::Error
        } else if self.warnings > 0 {
            Severity::Warning
        } else {
            Severity::Info
        }
    }

    /// `12 errors, 3 warnings and 0 notes`.
    pub fn words(&self) -> String {
        let n =
            |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        format!(
            "{}, {} and {}",
            n(self.errors, "error", "errors"),
            n(self.warnings, "warning", "warnings"),
            n(self.notes, "note", "notes")
        )
    }
}

/// The findings kept when at most `room` may be written, in report order (errors kept
/// first, then warnings, then notes), and what was left out.
pub fn keep_worst(p: &Prepared, room: usize) -> (Vec<usize>, Cut) {
    if p.findings.len() <= room {
        return ((0..p.findings.len()).collect(), Cut::default());
    }
    let order = worst_first(p);
    let mut kept: Vec<usize> = order[..room].to_vec();
    let mut cut = Cut::default();
    for &i in &order[room..] {
        match p.findings[i].severity {
            Severity::Error => cut.errors += 1,
            Severity::Warning => cut.warnings += 1,
            Severity::Info => cut.notes += 1,
        }
    }
    kept.sort_unstable();
    (kept, cut)
}

/// The document starts of the files read for fingerprints, one file at a time (findings come
/// sorted by file).
#[derive(Default)]
pub struct Records {
    path: String,
    starts: Option<Vec<usize>>,
}

impl Records {
    /// The index of the document starting at byte `doc_start` of `path` (`None` when the file
    /// cannot be read again).
    pub fn index(&mut self, path: &str, doc_start: usize, limit: u64) -> Option<usize> {
        if self.path != path {
            self.path = path.to_string();
            self.starts = starts_in(Path::new(path), limit);
        }
        let starts = self.starts.as_ref()?;
        Some(
            starts
                .partition_point(|&s| s <= doc_start)
                .saturating_sub(1),
        )
    }
}

/// The byte offsets where the top-level JSON values of `bytes` start (the records of a JSON
/// Lines file, or the documents of concatenated JSON): a scan of brackets outside strings.
#[cfg(test)]
fn document_starts(bytes: &[u8]) -> Vec<usize> {
    let mut scan = Starts::default();
    scan.feed(bytes);
    scan.found
}

/// The file at `path` scanned for where its top-level values start, a line at a time (a JSON
/// Lines file is never held whole); `None` when it cannot be read again.
fn starts_in(path: &Path, limit: u64) -> Option<Vec<usize>> {
    let mut lines = crate::io::LineFile::open(path, limit, None).ok()?;
    let mut scan = Starts::default();
    let mut line = String::new();
    while lines.read_line(&mut line).ok()? {
        scan.feed(line.as_bytes());
    }
    Some(scan.found)
}

/// A scan of brackets outside strings, fed a piece of the text at a time: where each top-level
/// value starts.
#[derive(Default)]
struct Starts {
    depth: usize,
    in_string: bool,
    escaped: bool,
    in_scalar: bool,
    /// Bytes fed so far.
    at: usize,
    found: Vec<usize>,
}

impl Starts {
    /// Scans the next piece of the text.
    fn feed(&mut self, bytes: &[u8]) {
        for (j, &b) in bytes.iter().enumerate() {
            let i = self.at + j;
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            if self.in_scalar {
                if b.is_ascii_whitespace() || matches!(b, b'{' | b'[' | b'"') {
                    self.in_scalar = false;
                } else {
                    continue;
                }
            }
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => {}
                b'"' => {
                    if self.depth == 0 {
                        self.found.push(i);
                    }
                    self.in_string = true;
                }
                b'{' | b'[' => {
                    if self.depth == 0 {
                        self.found.push(i);
                    }
                    self.depth += 1;
                }
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                _ if self.depth == 0 => {
                    self.found.push(i);
                    self.in_scalar = true;
                }
                _ => {}
            }
        }
        self.at += bytes.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_counted_not_measured() {
        let text = b"{\"a\": \"}{\\\"\"}\n\n  [1, {\"b\": 2}]\n3 \"x\" {}\n";
        assert_eq!(document_starts(text), vec![0, 17, 31, 33, 37]);
        // One added space moves the bytes, not the index.
        let spaced = b"{ \"a\": \"}{\\\"\"}\n\n  [1, {\"b\": 2}]\n3 \"x\" {}\n";
        let (a, b) = (document_starts(text), document_starts(spaced));
        assert_eq!(a.len(), b.len());
        assert_eq!(b[1], 18);
        // Fed in two pieces, cut anywhere (inside a string, an escape, a scalar): the same.
        for cut in 0..=text.len() {
            let mut scan = Starts::default();
            scan.feed(&text[..cut]);
            scan.feed(&text[cut..]);
            assert_eq!(scan.found, a, "cut at {cut}");
        }
    }

    #[test]
    fn digests_are_stable() {
        assert_eq!(hex_digest("").len(), 32);
        assert_eq!(hex_digest(""), "cbf29ce4842223256c62272e07bb0142");
        assert_ne!(hex_digest("M007:a.json:/x"), hex_digest("M007:a.json:/y"));
    }

    #[test]
    fn keys_are_distinct_and_the_worst_are_kept() {
        let mut p = super::super::test_findings::prepared();
        // A true duplicate of the first finding.
        let twin = p.findings[0].clone();
        p.findings.insert(1, twin);
        p.positions.insert(1, p.positions[0]);
        p.related_positions
            .insert(1, p.related_positions[0].clone());
        let keys = fingerprints(&p);
        let distinct: std::collections::BTreeSet<&String> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len(), "{keys:#?}");
        assert_eq!(keys[1], format!("{}:2", keys[0]));
        let (kept, cut) = keep_worst(&p, 4);
        assert_eq!(kept.len(), 4);
        assert!(kept.windows(2).all(|w| w[0] < w[1]));
        let errors = p
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .count();
        assert_eq!(
            kept.iter()
                .filter(|&&i| p.findings[i].severity == Severity::Error)
                .count(),
            errors.min(4)
        );
        assert_eq!(cut.total(), p.findings.len() - 4);
    }
}
