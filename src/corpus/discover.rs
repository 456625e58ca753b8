//! Finding the files to read: any mix of files and folders; in folders `.json`, `.jsonl`,
//! `.ndjson`, the YAML reports (`.yaml`, `.yml`) and MLPerf loadgen logs
//! (`mlperf_log_*.txt`), everything else skipped silently; hidden folders and `target/`
//! skipped, loops and unreadable entries reported, never fatal. What [`Walk`] excludes
//! (`exclude` globs, `.gitignore`) is skipped too, and counted.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::walk::{GitIgnores, Walk};
use crate::io::{describe_io, identity};
use crate::text::PathText;

/// A file to read.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The file as reached from its command-line argument (`results/a.json`): one allocation,
    /// shared with the results read from it and the locations of its findings.
    pub display: PathText,
    /// The path to open, when it is not the text of `display` (an argument spelled `./a.json`,
    /// a name that is not UTF-8, standard input shown under a name): most files are opened by
    /// the text they are shown as, and a second copy of every path would be held through the
    /// whole run.
    opened: Option<PathBuf>,
    /// The folder that bounds artifact paths: the argument itself, or a file argument's folder.
    /// Shared by every file found under one argument.
    pub root: std::sync::Arc<Path>,
    /// Named on the command line, not found by walking a folder: a file that is not a result
    /// is then always reported, never skipped silently.
    pub named: bool,
    /// The file the walk saw (device and inode, symlinks followed inside the corpus): the
    /// file opened later must be this one, so a file swapped for a link to elsewhere after
    /// the walk is refused, never read (`None` when the walk could not tell).
    pub seen: Option<(u64, u64)>,
    /// Read again once every file is read, because nothing it could accompany was read: a
    /// sidecar or companion of nothing is read as what its content is.
    pub alone: bool,
}

impl Entry {
    /// A file shown as `display` and opened at `path`.
    pub fn new(display: String, path: PathBuf, root: std::sync::Arc<Path>, named: bool) -> Self {
        let opened = (path.as_os_str() != display.as_str()).then_some(path);
        Entry {
            display: PathText::from(display),
            opened,
            root,
            named,
            seen: None,
            alone: false,
        }
    }

    /// The path to open.
    pub fn path(&self) -> &Path {
        self.opened
            .as_deref()
            .unwrap_or_else(|| Path::new(self.display.raw()))
    }

    /// What orders entries: the shown path, then the opened one and the rest.
    fn key(&self) -> (&str, &Path, &Path, bool, Option<(u64, u64)>, bool) {
        (
            self.display.raw(),
            self.path(),
            &self.root,
            self.named,
            self.seen,
            self.alone,
        )
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// A path that could not be walked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkProblem {
    /// The path as reached from its argument.
    pub display: String,
    /// What went wrong.
    pub message: String,
}

/// The endings of the file names discovery reads when it walks a folder (any case). The one
/// source of truth for what a walk reads, with [`MLPERF_LOG`] and [`SKIPPED_DIRS`]: the
/// pre-commit hook's `files:` pattern is made from them ([`hook_files_pattern`]).
pub const READ_ENDINGS: [&str; 5] = [".json", ".jsonl", ".ndjson", ".yaml", ".yml"];

/// The MLPerf loadgen logs a walk reads: a name with this prefix and a `.txt` extension.
pub const MLPERF_LOG: (&str, &str) = ("mlperf_log_", "txt");

/// Folders a walk never enters, besides hidden ones (`.git`, `.venv`).
pub const SKIPPED_DIRS: [&str; 2] = ["target", "node_modules"];

/// Whether discovery reads this file name when it walks a folder: `.json`, `.jsonl`,
/// `.ndjson`, `.yaml`, `.yml`, and the MLPerf loadgen logs (`mlperf_log_*.txt`).
pub fn is_candidate(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    READ_ENDINGS.iter().any(|ext| lower.ends_with(ext))
        || (lower.starts_with(MLPERF_LOG.0)
            && Path::new(&lower)
                .extension()
                .is_some_and(|e| e == MLPERF_LOG.1))
}

/// Whether a walk of a folder reads the file at `relative` (forward slashes, below the folder):
/// no folder on the way is skipped and the name is a candidate.
pub fn walk_reads(relative: &str) -> bool {
    let mut parts: Vec<&str> = relative.split('/').filter(|p| !p.is_empty()).collect();
    let Some(name) = parts.pop() else {
        return false;
    };
    !parts.iter().any(|d| skipped_dir(d)) && is_candidate(name)
}

/// The Python regular expression (as pre-commit's `files:` takes it, searched in the path
/// relative to the repository's root) that matches exactly what [`walk_reads`] reads, and the
/// config file.
pub fn hook_files_pattern() -> String {
    let endings: Vec<&str> = READ_ENDINGS.iter().map(|e| &e[1..]).collect();
    format!(
        r"^(?!(?:.*/)?(?:\.[^/]*|{})/)(?:.*/)?(?:benchlint\.toml|(?i:[^/]*\.(?:{})|{}[^/]*\.{}))$",
        SKIPPED_DIRS.join("|"),
        endings.join("|"),
        MLPERF_LOG.0,
        MLPERF_LOG.1
    )
}

fn skipped_dir(name: &str) -> bool {
    (name.starts_with('.') && name != "." && name != "..") || SKIPPED_DIRS.contains(&name)
}

fn display_of(p: &Path) -> String {
    let s = p.to_string_lossy().into_owned();
    s.strip_prefix("./")
        .map_or_else(|| s.clone(), ToString::to_string)
}

/// Lists the files under `args`, sorted and deduplicated, and what could not be walked, with
/// the default [`Walk`] (`.gitignore` respected, nothing else excluded).
pub fn discover(args: &[PathBuf]) -> (Vec<Entry>, Vec<WalkProblem>) {
    discover_with(args, &Walk::default())
}

/// Lists the files under `args` as [`discover`] does, skipping what `walk` excludes in folders
/// (and, with `force_exclude`, among the files named too).
pub fn discover_with(args: &[PathBuf], walk: &Walk) -> (Vec<Entry>, Vec<WalkProblem>) {
    let (entries, problems, _) = discover_all(args, walk);
    (entries, problems)
}

/// Files a walk reached and does not read (other extensions), at most this many kept by
/// name: enough to say what a folder with no result holds.
const SKIPPED_KEPT: usize = 64;

/// What the walks skipped: how many files, and the first [`SKIPPED_KEPT`] of them.
#[derive(Debug, Clone, Default)]
pub struct Skipped {
    /// Files of other extensions the walks reached.
    pub count: usize,
    /// The first of them, in walk order.
    pub first: Vec<PathBuf>,
}

/// [`discover_with`], with the files the walks reached and do not read.
pub fn discover_all(args: &[PathBuf], walk: &Walk) -> (Vec<Entry>, Vec<WalkProblem>, Skipped) {
    let mut skipped = Skipped::default();
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    for arg in args {
        let meta = match std::fs::metadata(arg) {
            Ok(m) => m,
            Err(e) => {
                problems.push(WalkProblem {
                    display: display_of(arg),
                    message: describe_io(&e),
                });
                continue;
            }
        };
        if meta.is_file() || !meta.is_dir() {
            // A file named explicitly is read whatever its extension (a FIFO or device is
            // reported by the reader, which refuses anything but regular files), and whatever
            // `exclude` or `.gitignore` say, unless `--force-exclude`.
            let stdin = walk.stdin.as_ref().filter(|(file, _)| file == arg);
            let shown = stdin.map_or_else(|| arg.clone(), |(_, name)| PathBuf::from(name));
            if walk.force_exclude && walk.excludes(&shown, false, &mut GitIgnores::for_root(&shown))
            {
                walk.count_excluded();
                continue;
            }
            let root = arg
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            let root = if root.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                root
            };
            let display = stdin.map_or_else(|| display_of(arg), |(_, name)| name.clone());
            let mut entry = Entry::new(display, arg.clone(), root.into(), true);
            entry.seen = meta.is_file().then(|| identity(&meta));
            entries.push(entry);
            continue;
        }
        // A symlink is followed only while it stays inside the folder being read: a link to
        // `/`, `/proc/self/environ` or `~/.aws` in a pull request must not be walked, read or
        // shown (it is reported instead).
        let inside = std::fs::canonicalize(arg).ok();
        let root: std::sync::Arc<Path> = arg.as_path().into();
        let mut outside = Vec::new();
        let mut ignores = GitIgnores::for_root(arg);
        let walker = WalkDir::new(arg)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                if e.depth() > 0 && e.path_is_symlink() {
                    let target = std::fs::canonicalize(e.path()).ok();
                    let contained = matches!((&target, &inside), (Some(t), Some(root)) if t.starts_with(root));
                    if !contained {
                        // Only names the walk would read are worth a word.
                        if e.file_type().is_dir() || is_candidate(&e.file_name().to_string_lossy()) {
                            outside.push(WalkProblem {
                                display: display_of(e.path()),
                                message: "symlink to a place outside the folder being checked; not followed".to_string(),
                            });
                        }
                        return false;
                    }
                }
                if e.depth() == 0 {
                    return true;
                }
                let dir = e.file_type().is_dir();
                if dir && skipped_dir(&e.file_name().to_string_lossy()) {
                    return false;
                }
                // Only what the walk would read is worth excluding (and counting).
                if (dir || is_candidate(&e.file_name().to_string_lossy()))
                    && walk.excludes(e.path(), dir, &mut ignores)
                {
                    walk.count_excluded();
                    return false;
                }
                true
            });
        for item in walker {
            match item {
                Ok(e) if e.file_type().is_dir() => {}
                Ok(e) => {
                    if is_candidate(&e.file_name().to_string_lossy()) {
                        let mut entry = Entry::new(
                            display_of(e.path()),
                            e.path().to_path_buf(),
                            root.clone(),
                            false,
                        );
                        entry.seen = e.metadata().ok().map(|m| identity(&m));
                        entries.push(entry);
                    } else {
                        skipped.count += 1;
                        if skipped.first.len() < SKIPPED_KEPT {
                            skipped.first.push(e.path().to_path_buf());
                        }
                    }
                }
                Err(err) => {
                    let display = err.path().map_or_else(|| display_of(arg), display_of);
                    let message = if err.loop_ancestor().is_some() {
                        "symlink loop: the link points back at a folder that contains it"
                            .to_string()
                    } else if let Some(io) = err.io_error() {
                        describe_io(io)
                    } else {
                        err.to_string()
                    };
                    problems.push(WalkProblem { display, message });
                }
            }
        }
        problems.append(&mut outside);
    }
    entries.sort();
    entries.dedup_by(|a, b| a.path() == b.path());
    // The list is held through the whole load: without the room doubling left in it, up to
    // as much again as the entries themselves.
    entries.shrink_to_fit();
    problems.sort_by(|a, b| a.display.cmp(&b.display));
    (entries, problems, skipped)
}
