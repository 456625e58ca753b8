//! [`Folder`]: the folders around one document and the bounded reads allowed there (listings,
//! JSON, YAML, short text, logs a line at a time).

use std::any::Any;
use std::io::{BufRead, BufReader, Read};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::neighbourhood::Neighbourhood;
use super::{MAX_JSON_BYTES, MAX_LINE_BYTES, MAX_NAMES, MAX_SCAN_BYTES, MAX_TEXT_BYTES, Place};
use crate::json::parse_text_with;

/// The folders around one document, and what may be read there.
#[derive(Debug)]
pub struct Folder<'h> {
    pub(super) hood: &'h Neighbourhood<'h>,
    /// The document's folder as reached from the command line (`""` for the current folder).
    pub(super) shown: PathBuf,
    /// The corpus root the document was reached from.
    pub(super) root: PathBuf,
    /// The folder's real path and the real path nothing consulted may leave, once resolved.
    pub(super) resolved: OnceLock<Option<(PathBuf, PathBuf)>>,
    pub(super) own_name: String,
}

// The view is made by the neighbourhood it borrows, but written here, with the fields it
// fills: the neighbourhood knows nothing of the views made from it.
impl Neighbourhood<'_> {
    /// The view from the document at `file` (as reached from the command line), read from the
    /// corpus root `root`. Nothing is resolved until something is consulted.
    pub fn folder(&self, file: &Path, root: &Path) -> Folder<'_> {
        Folder {
            hood: self,
            shown: file.parent().map(Path::to_path_buf).unwrap_or_default(),
            root: root.to_path_buf(),
            resolved: OnceLock::new(),
            own_name: file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }
    }
}

impl Folder<'_> {
    /// The real folder and the boundary: the corpus root, or for a document directly in the
    /// root, the folder above it (so it still sees its run folder).
    fn resolve(&self) -> Option<&(PathBuf, PathBuf)> {
        self.resolved
            .get_or_init(|| self.hood.resolve(&self.shown, &self.root))
            .as_ref()
    }

    /// The document's own file name.
    pub fn own_name(&self) -> &str {
        &self.own_name
    }

    /// The name of the document's folder (its real name, so `.` gives the folder's own).
    pub fn dir_name(&self) -> Option<String> {
        self.resolve()?
            .0
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
    }

    fn real_dir(&self, place: Place) -> Option<PathBuf> {
        let (real, boundary) = self.resolve()?;
        match place {
            Place::Here => Some(real.clone()),
            Place::Up => real
                .parent()
                .filter(|p| p.starts_with(boundary))
                .map(Path::to_path_buf),
        }
    }

    /// The file `name` in `place` as reached from the command line (for provenance and
    /// findings): `results/run/server.log`, `results/config.yaml`.
    pub fn display(&self, place: Place, name: &str) -> String {
        let dir = match place {
            Place::Here => self.shown.clone(),
            Place::Up => self.shown.join(".."),
        };
        let mut out = PathBuf::new();
        for c in dir.join(name).components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir
                    if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
                {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        out.to_string_lossy().into_owned()
    }

    /// The real path of `name` in `place`, when it is a regular file inside the corpus.
    fn guarded(&self, place: Place, name: &str) -> Option<PathBuf> {
        if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
            return None;
        }
        let dir = self.real_dir(place)?;
        let real = std::fs::canonicalize(dir.join(name)).ok()?;
        if !real.starts_with(&self.resolve()?.1) {
            return None;
        }
        std::fs::metadata(&real)
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|_| real)
    }

    /// Computes `make` once for this folder's `place` and `key`; every document of the
    /// folder gets the same value. `make` must not ask for the same key again.
    pub fn cached<T: Send + Sync + 'static>(
        &self,
        place: Place,
        key: &str,
        make: impl FnOnce(&Self) -> T,
    ) -> Option<Arc<T>> {
        let dir = self.real_dir(place)?;
        let cell = self.hood.cell(&dir, key);
        let any = cell.get_or_init(|| Arc::new(make(self)) as Arc<dyn Any + Send + Sync>);
        any.clone().downcast::<T>().ok()
    }

    /// The names of the regular files in `place`, sorted (empty when it cannot be listed or
    /// holds more than [`MAX_NAMES`] entries).
    pub fn names(&self, place: Place) -> Arc<Vec<String>> {
        self.cached(place, "names", |f| f.list(place))
            .unwrap_or_default()
    }

    fn list(&self, place: Place) -> Vec<String> {
        let Some(dir) = self.real_dir(place) else {
            return Vec::new();
        };
        let Ok(read) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut names = Vec::new();
        for entry in read.filter_map(Result::ok) {
            if names.len() >= MAX_NAMES {
                return Vec::new();
            }
            if entry
                .file_type()
                .is_ok_and(|t| t.is_file() || t.is_symlink())
            {
                names.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        names.sort();
        names
    }

    /// Whether `name` in `place` is one of the files this run reads.
    pub fn in_corpus(&self, place: Place, name: &str) -> bool {
        self.guarded(place, name)
            .is_some_and(|p| self.hood.is_read(&p))
    }

    /// The JSON document of `name` in `place`, read once per run and kept (for the small
    /// files every document of a folder consults: an experiment's metadata), when the file
    /// holds exactly one document that parses within bounds.
    pub fn json(&self, place: Place, name: &str) -> Option<Arc<Value>> {
        let key = format!("json:{name}");
        self.cached(place, &key, |f| f.read_json(place, name).map(Arc::new))
            .and_then(|v| Option::clone(&v))
    }

    /// [`Folder::json`] without keeping the value: for files read once to build something
    /// that is itself cached.
    pub fn read_json(&self, place: Place, name: &str) -> Option<Value> {
        let text = self.text(place, name, MAX_JSON_BYTES)?;
        let parsed = parse_text_with(&text, false, &self.hood.limits);
        let mut docs = parsed.documents.into_iter();
        match (docs.next(), docs.next()) {
            (Some(d), None) if parsed.failures.is_empty() => Some(d.value),
            _ => None,
        }
    }

    /// The first document of the YAML file `name` in `place` (a run's `config.yaml`), read
    /// once per run and kept, within [`MAX_TEXT_BYTES`] and the YAML reader's bounds scaled to
    /// a configuration file.
    pub fn yaml(&self, place: Place, name: &str) -> Option<Arc<Value>> {
        let key = format!("yaml:{name}");
        self.cached(place, &key, |f| {
            let text = f.text(place, name, MAX_TEXT_BYTES)?;
            let limits = crate::yaml::Limits {
                max_nodes: 100_000,
                max_depth: 32,
                max_text_bytes: 4 * 1024 * 1024,
                ..crate::yaml::Limits::default()
            };
            let docs = crate::yaml::parse(&text, &limits).ok()?;
            docs.into_iter().next().map(|d| Arc::new(d.value))
        })
        .and_then(|v| Option::clone(&v))
    }

    /// The text of `name` in `place`, when it is UTF-8 and at most `cap` bytes.
    pub fn text(&self, place: Place, name: &str, cap: u64) -> Option<String> {
        let path = self.guarded(place, name)?;
        crate::io::read_text(&path, cap).ok().map(|(t, _)| t)
    }

    /// Streams the lines of `name` in `place` to `visit` with each line's byte offset, until
    /// `visit` returns false, the file ends, or [`MAX_SCAN_BYTES`] have been read. A line longer
    /// than [`MAX_LINE_BYTES`] is skipped, and bytes that are not UTF-8 are replaced. Returns
    /// false when the file could not be opened.
    pub fn scan_lines(
        &self,
        place: Place,
        name: &str,
        mut visit: impl FnMut(usize, &str) -> bool,
    ) -> bool {
        let Some(path) = self.guarded(place, name) else {
            return false;
        };
        let Ok(file) = std::fs::File::open(&path) else {
            return false;
        };
        let mut reader = BufReader::new(file.take(MAX_SCAN_BYTES));
        let mut line = Vec::new();
        let mut offset = 0usize;
        loop {
            line.clear();
            let mut limited = (&mut reader).take(MAX_LINE_BYTES as u64 + 1);
            let Ok(n) = limited.read_until(b'\n', &mut line) else {
                return true;
            };
            if n == 0 {
                return true;
            }
            let start = offset;
            offset += n;
            if line.last() != Some(&b'\n') && n > MAX_LINE_BYTES {
                // Too long to keep: skip to the end of this line.
                match skip_line(&mut reader) {
                    Some(skipped) => offset += skipped,
                    None => return true,
                }
                continue;
            }
            let text = String::from_utf8_lossy(&line);
            if !visit(start, text.trim_end_matches(['\n', '\r'])) {
                return true;
            }
        }
    }
}

/// Consumes `reader` up to and including the next newline; the bytes consumed, or `None` at
/// the end of the input or on an error.
fn skip_line(reader: &mut impl BufRead) -> Option<usize> {
    let mut skipped = 0;
    loop {
        let buf = reader.fill_buf().ok()?;
        if buf.is_empty() {
            return None;
        }
        if let Some(i) = buf.iter().position(|b| *b == b'\n') {
            reader.consume(i + 1);
            return Some(skipped + i + 1);
        }
        let len = buf.len();
        skipped += len;
        reader.consume(len);
    }
}
