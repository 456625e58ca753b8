//! Finding the files to read: any mix of files and folders; in folders `.json`, `.jsonl`,
//! `.ndjson`, the YAML reports (`.yaml`, `.yml`) and MLPerf loadgen logs
//! (`mlperf_log_*.txt`), everything else skipped silently; hidden folders and `target/`
//! skipped, loops and unreadable entries reported, never fatal.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// A file to read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// The file as reached from its command-line argument (`results/a.json`).
    pub display: String,
    /// The path to open.
    pub path: PathBuf,
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

/// The device and inode of `meta`: which file it is, whatever name reached it.
pub fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt as _;
    (meta.dev(), meta.ino())
}

/// A path that could not be walked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkProblem {
    /// The path as reached from its argument.
    pub display: String,
    /// What went wrong.
    pub message: String,
}

/// Whether discovery reads this file name when it walks a folder: `.json`, `.jsonl`,
/// `.ndjson`, `.yaml`, `.yml`, and the MLPerf loadgen logs (`mlperf_log_*.txt`).
pub fn is_candidate(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".json", ".jsonl", ".ndjson", ".yaml", ".yml"]
        .iter()
        .any(|ext| lower.ends_with(ext))
        || (lower.starts_with("mlperf_log_")
            && Path::new(&lower).extension().is_some_and(|e| e == "txt"))
}

fn skipped_dir(name: &str) -> bool {
    (name.starts_with('.') && name != "." && name != "..")
        || name == "target"
        || name == "node_modules"
}

fn display_of(p: &Path) -> String {
    let s = p.to_string_lossy().into_owned();
    s.strip_prefix("./")
        .map_or_else(|| s.clone(), ToString::to_string)
}

/// Lists the files under `args`, sorted and deduplicated, and what could not be walked.
pub fn discover(args: &[PathBuf]) -> (Vec<Entry>, Vec<WalkProblem>) {
    let (entries, problems, _) = discover_all(args);
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

/// [`discover`], with the files the walks reached and do not read.
pub fn discover_all(args: &[PathBuf]) -> (Vec<Entry>, Vec<WalkProblem>, Skipped) {
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
            // reported by the reader, which refuses anything but regular files).
            let root = arg
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            let root = if root.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                root
            };
            entries.push(Entry {
                display: display_of(arg),
                path: arg.clone(),
                root: root.into(),
                named: true,
                seen: meta.is_file().then(|| identity(&meta)),
                alone: false,
            });
            continue;
        }
        // A symlink is followed only while it stays inside the folder being read: a link to
        // `/`, `/proc/self/environ` or `~/.aws` in a pull request must not be walked, read or
        // shown (it is reported instead).
        let inside = std::fs::canonicalize(arg).ok();
        let root: std::sync::Arc<Path> = arg.as_path().into();
        let mut outside = Vec::new();
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
                e.depth() == 0 || !(e.file_type().is_dir() && skipped_dir(&e.file_name().to_string_lossy()))
            });
        for item in walker {
            match item {
                Ok(e) if e.file_type().is_dir() => {}
                Ok(e) => {
                    if is_candidate(&e.file_name().to_string_lossy()) {
                        entries.push(Entry {
                            display: display_of(e.path()),
                            path: e.path().to_path_buf(),
                            root: root.clone(),
                            named: false,
                            seen: e.metadata().ok().map(|m| identity(&m)),
                            alone: false,
                        });
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
    entries.dedup_by(|a, b| a.path == b.path);
    problems.sort_by(|a, b| a.display.cmp(&b.display));
    (entries, problems, skipped)
}

/// An I/O error in words, without the OS error number.
pub fn describe_io(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}
