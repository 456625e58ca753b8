//! Consulting the files beside a document: what an adapter may read besides the document it
//! was given, for formats whose meaning spans a folder (an inference-perf run folder, a
//! genai-bench experiment) and for the run-folder companions (the engine's `server.log`, a
//! `vllm_command.txt`).
//!
//! The design is small on purpose:
//!
//! - **Where.** Two places only: the document's own folder ([`Place::Here`]) and the folder
//!   above it ([`Place::Up`], the run folder above `aiperf_artifacts/`, or the folder that holds
//!   an inference-perf `config.yaml` shared by several result folders). Nothing deeper, nothing
//!   higher, no globbing of the tree.
//! - **Inside the corpus.** A consulted file is read only when it is a regular file whose real
//!   path (symlinks resolved) lies inside the corpus root: the folder argument, or for a
//!   document that sits directly in the root, the folder above the root (so a file or a run's
//!   `aiperf_artifacts/` named on the command line still sees its run folder). A symlink that
//!   resolves anywhere else (`~/.aws/credentials`, `/proc/self/environ`) is never opened.
//! - **Bounded.** JSON companions are read up to [`MAX_JSON_BYTES`] and parsed with the
//!   corpus's own limits; short text files (command files) up to [`MAX_TEXT_BYTES`]; logs are
//!   never loaded whole: [`Folder::scan_lines`] streams them a line at a time, keeps no line
//!   longer than [`MAX_LINE_BYTES`], and stops after [`MAX_SCAN_BYTES`] or as soon as the
//!   caller has what it wanted. A folder with more than [`MAX_NAMES`] entries is not listed.
//! - **Cached per folder.** Every read and every value an adapter computes from a folder (a
//!   ladder plan, the facts of a server log) is cached under the folder's real path and a key,
//!   computed once by the first document that asks; the 60 files of a folder share one read of
//!   its metadata. A computation runs on the thread that asked, never on the thread pool, so a
//!   waiting thread can never be asked to run the computation it waits for.
//! - **Deterministic.** Listings are sorted; whichever thread computes a cached value, the
//!   value depends on the files alone. [`Folder::in_corpus`] says whether a file beside is
//!   itself being read in this run, which is how a ladder spread over several files is
//!   assembled exactly once (by its first member in the corpus) whatever order files are read in.

use std::any::Any;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use crate::json::{Limits, parse_text_with};

/// Largest JSON file consulted beside a document, bytes.
pub const MAX_JSON_BYTES: u64 = 64 * 1024 * 1024;
/// Largest short text file (a launch command) consulted, bytes.
pub const MAX_TEXT_BYTES: u64 = 256 * 1024;
/// Longest log line kept by [`Folder::scan_lines`], bytes; a longer line is skipped.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;
/// Most bytes of one log [`Folder::scan_lines`] reads before it stops.
pub const MAX_SCAN_BYTES: u64 = 64 * 1024 * 1024;
/// Most entries of a folder that is listed; a larger folder is not listed at all.
pub const MAX_NAMES: usize = 100_000;

/// Which folder, relative to the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// The document's own folder.
    Here,
    /// The folder above it.
    Up,
}

type Cell = Arc<OnceLock<Arc<dyn Any + Send + Sync>>>;

/// What one run of the loader may consult: the files being read and a cache shared by all
/// documents. Made once per load.
pub struct Neighbourhood {
    /// The files being read in this run, as given.
    files: Vec<PathBuf>,
    /// Their real paths, sorted: resolved on first use (most runs never ask).
    in_corpus: OnceLock<Vec<PathBuf>>,
    /// Values computed per (real folder path, key).
    cache: Mutex<BTreeMap<(PathBuf, String), Cell>>,
    /// Each folder's real path and boundary, per (folder as reached, corpus root): resolved
    /// once per folder, not once per file.
    resolved: Mutex<BTreeMap<(PathBuf, PathBuf), Resolved>>,
    limits: Limits,
}

/// A folder's real path and the real path nothing consulted from it may leave.
type Resolved = Option<(PathBuf, PathBuf)>;

impl std::fmt::Debug for Neighbourhood {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Neighbourhood")
            .field("files", &self.files.len())
            .finish_non_exhaustive()
    }
}

impl Neighbourhood {
    /// A neighbourhood for a run that reads `files`, parsing JSON with `limits`.
    pub fn new<'p>(files: impl IntoIterator<Item = &'p Path>, limits: Limits) -> Self {
        Neighbourhood {
            files: files.into_iter().map(Path::to_path_buf).collect(),
            in_corpus: OnceLock::new(),
            cache: Mutex::new(BTreeMap::new()),
            resolved: Mutex::new(BTreeMap::new()),
            limits,
        }
    }

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

    fn is_read(&self, real: &Path) -> bool {
        self.in_corpus
            .get_or_init(|| {
                let mut v: Vec<PathBuf> = self
                    .files
                    .iter()
                    .filter_map(|p| std::fs::canonicalize(p).ok())
                    .collect();
                v.sort();
                v.dedup();
                v
            })
            .binary_search_by(|p| p.as_path().cmp(real))
            .is_ok()
    }

    /// The real path of the folder `shown` and its boundary: the corpus root, or for a folder
    /// that is the root itself, the folder above it (so a document there still sees its run
    /// folder).
    fn resolve(&self, shown: &Path, root: &Path) -> Resolved {
        let key = (shown.to_path_buf(), root.to_path_buf());
        if let Some(r) = self
            .resolved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
        {
            return r.clone();
        }
        let dir = if shown.as_os_str().is_empty() {
            Path::new(".")
        } else {
            shown
        };
        let found = (|| {
            let real = std::fs::canonicalize(dir).ok()?;
            let root = std::fs::canonicalize(root).ok()?;
            let boundary = if real == root {
                root.parent()
                    .map_or_else(|| root.clone(), Path::to_path_buf)
            } else {
                root
            };
            real.starts_with(&boundary).then_some((real, boundary))
        })();
        self.resolved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(key, found.clone());
        found
    }

    fn cell(&self, folder: &Path, key: &str) -> Cell {
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache
            .entry((folder.to_path_buf(), key.to_string()))
            .or_default()
            .clone()
    }
}

/// The folders around one document, and what may be read there.
#[derive(Debug)]
pub struct Folder<'h> {
    hood: &'h Neighbourhood,
    /// The document's folder as reached from the command line (`""` for the current folder).
    shown: PathBuf,
    /// The corpus root the document was reached from.
    root: PathBuf,
    /// The folder's real path and the real path nothing consulted may leave, once resolved.
    resolved: OnceLock<Option<(PathBuf, PathBuf)>>,
    own_name: String,
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
            };
            let docs = crate::yaml::parse(&text, &limits).ok()?;
            docs.into_iter().next().map(|d| Arc::new(d.value))
        })
        .and_then(|v| Option::clone(&v))
    }

    /// The text of `name` in `place`, when it is UTF-8 and at most `cap` bytes.
    pub fn text(&self, place: Place, name: &str, cap: u64) -> Option<String> {
        let path = self.guarded(place, name)?;
        super::read::read_text(&path, cap).ok().map(|(t, _)| t)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn hood_for(files: &[&Path]) -> Neighbourhood {
        Neighbourhood::new(files.iter().copied(), Limits::default())
    }

    #[test]
    fn reads_beside_and_above_but_never_outside_the_corpus() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.log"), "token").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        let artifacts = run.join("aiperf_artifacts");
        std::fs::create_dir_all(&artifacts).unwrap();
        std::fs::write(run.join("server.log"), "a\nb\n").unwrap();
        std::fs::write(artifacts.join("r.json"), "{}").unwrap();
        std::fs::write(artifacts.join("m.json"), r#"{"k": 1}"#).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(
            outside.path().join("secret.log"),
            artifacts.join("server.log"),
        )
        .unwrap();
        let file = artifacts.join("r.json");
        let hood = hood_for(&[&file]);
        // The corpus is the run folder: its aiperf_artifacts/ sees the run folder above.
        let folder = hood.folder(&file, &run);
        assert_eq!(
            folder.text(Place::Up, "server.log", 100).as_deref(),
            Some("a\nb\n")
        );
        assert_eq!(folder.json(Place::Here, "m.json").unwrap()["k"], 1);
        assert!(folder.in_corpus(Place::Here, "r.json"));
        assert!(!folder.in_corpus(Place::Here, "m.json"));
        assert!(folder.text(Place::Here, "../server.log", 100).is_none());
        #[cfg(unix)]
        assert!(
            folder.text(Place::Here, "server.log", 100).is_none(),
            "a symlink out of the corpus is never read"
        );
        // The corpus is aiperf_artifacts/ itself: the run folder above is still consulted,
        // nothing higher.
        let folder = hood.folder(&file, &artifacts);
        assert!(folder.text(Place::Up, "server.log", 100).is_some());
        let lines = std::cell::RefCell::new(Vec::new());
        assert!(folder.scan_lines(Place::Up, "server.log", |o, l| {
            lines.borrow_mut().push((o, l.to_string()));
            true
        }));
        assert_eq!(
            lines.into_inner(),
            vec![(0, "a".to_string()), (2, "b".to_string())]
        );
        assert_eq!(
            folder.display(Place::Up, "server.log"),
            run.join("server.log").to_string_lossy()
        );
    }

    #[test]
    fn a_folder_is_read_once_whatever_asks() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), "{}").unwrap();
        std::fs::write(dir.path().join("b.json"), "{}").unwrap();
        let hood = hood_for(&[]);
        let calls = std::sync::atomic::AtomicUsize::new(0);
        for name in ["a.json", "b.json"] {
            let folder = hood.folder(&dir.path().join(name), dir.path());
            let v = folder
                .cached(Place::Here, "plan", |_| {
                    calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    7u32
                })
                .unwrap();
            assert_eq!(*v, 7);
            assert_eq!(*folder.names(Place::Here), vec!["a.json", "b.json"]);
        }
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[test]
    fn long_lines_are_skipped_and_the_scan_stops_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let long = "x".repeat(MAX_LINE_BYTES + 10);
        std::fs::write(
            dir.path().join("server.log"),
            format!("first\n{long}\nversion 1\nlast\n"),
        )
        .unwrap();
        let hood = hood_for(&[]);
        let folder = hood.folder(&dir.path().join("r.json"), dir.path());
        let mut seen = Vec::new();
        folder.scan_lines(Place::Here, "server.log", |o, l| {
            seen.push((o, l.to_string()));
            !l.starts_with("version")
        });
        assert_eq!(
            seen,
            vec![
                (0, "first".to_string()),
                (6 + MAX_LINE_BYTES + 11, "version 1".to_string())
            ]
        );
    }
}
