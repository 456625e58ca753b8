//! Resolving artifact paths (`artifacts.*.path`) relative to the result file's folder, inside
//! the corpus root only: a path that leaves the root is a finding, never followed.

use std::path::{Component, Path, PathBuf};

use crate::model::ResultDoc;
use crate::rules::ArtifactState;

fn paths(doc: &ResultDoc) -> Vec<(&'static str, &str)> {
    let mut out = Vec::new();
    if let Some(a) = &doc.artifacts {
        if let Some(p) = a.power_trace.as_ref().and_then(|p| p.path.as_deref()) {
            out.push(("/artifacts/power_trace/path", p));
        }
        if let Some(p) = a.quality_gate.as_ref().and_then(|p| p.path.as_deref()) {
            out.push(("/artifacts/quality_gate/path", p));
        }
    }
    out
}

/// Lexically normalised `path` (no `.` or `..`), as a string for comparisons.
pub fn normal(path: &Path) -> String {
    let mut out: Vec<String> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if out.last().is_some_and(|l| l != "..") {
                    out.pop();
                } else {
                    out.push("..".into());
                }
            }
            other => out.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    out.join("/")
}

/// Whether `candidate` lies under `root`, lexically. A root reached through `..` (`check ..`
/// from a child folder) is compared as an absolute path, as is the candidate: judged on the
/// relative spellings alone, `../h200/trace.csv` would seem to leave the root `..`, and the
/// same corpus would give different findings by the folder benchlint runs in.
fn inside(root: &Path, candidate: &Path) -> bool {
    let relative_up = |p: &Path| !p.is_absolute() && normal(p).split('/').next() == Some("..");
    if relative_up(root) || (root.is_absolute() != candidate.is_absolute()) {
        return inside_lexically(
            &crate::config::paths::absolute(root),
            &crate::config::paths::absolute(candidate),
        );
    }
    inside_lexically(root, candidate)
}

fn inside_lexically(root: &Path, candidate: &Path) -> bool {
    let root = normal(root);
    let cand = normal(candidate);
    if cand.starts_with("..") {
        return false;
    }
    root.is_empty() || root == "." || cand == root || cand.starts_with(&format!("{root}/"))
}

/// `path` with symlinks resolved as far as it exists, the rest appended lexically.
fn resolved_prefix(path: &Path) -> Option<PathBuf> {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let mut out = real;
            for c in rest.iter().rev() {
                out.push(c);
            }
            return Some(out);
        }
        rest.push(existing.file_name()?.to_os_string());
        if !existing.pop() {
            return None;
        }
        if existing.as_os_str().is_empty() {
            existing = PathBuf::from(".");
        }
    }
}

/// Whether `path`, followed through every symlink on its way (as far as it exists), stays
/// inside `root`. A path through an in-corpus link to `/` is outside whether or not its end
/// exists: the answer never tells which files exist outside the corpus.
pub fn resolves_inside(root: &Path, path: &Path) -> bool {
    resolve_inside(root, path).0
}

/// [`resolves_inside`], and whether `path` was found to exist as a file or folder that is not
/// a symlink on the way (`Some(true)`), not to exist (`Some(false)`), or was not asked.
///
/// The root and the folder holding `path` are resolved through a per-thread memo of the last
/// one of each: a worker checks one folder's results one after another, and resolving a path
/// reads every symlink on it, one system call per component, for each artifact of each result.
/// Only `path`'s last component is looked at anew; when it is a symlink, or anything goes
/// wrong, the whole path is resolved as before.
fn resolve_inside(root: &Path, path: &Path) -> (bool, Option<bool>) {
    let Some(root) = memo::canonical(memo::Slot::Root, root) else {
        return (false, None);
    };
    if let (Some(parent), Some(name)) = (path.parent(), path.file_name()) {
        let parent = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        let last = match std::fs::symlink_metadata(path) {
            Ok(m) if !m.file_type().is_symlink() => Some(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(false),
            _ => None,
        };
        if let (Some(exists), Some(real_parent)) =
            (last, memo::canonical(memo::Slot::Folder, parent))
        {
            return (real_parent.join(name).starts_with(&root), Some(exists));
        }
    }
    match resolved_prefix(path) {
        Some(p) => (p.starts_with(&root), None),
        None => (false, None),
    }
}

/// The last root and the last folder resolved on this thread.
mod memo {
    use std::cell::RefCell;
    use std::path::{Path, PathBuf};

    #[derive(Clone, Copy)]
    pub(super) enum Slot {
        Root,
        Folder,
    }

    type Last = Option<(PathBuf, Option<PathBuf>)>;

    thread_local! {
        static LAST: RefCell<[Last; 2]> = const { RefCell::new([None, None]) };
    }

    /// `std::fs::canonicalize(path)`, remembered until another path is asked in `slot`.
    pub(super) fn canonical(slot: Slot, path: &Path) -> Option<PathBuf> {
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            let entry = &mut last[slot as usize];
            if let Some((asked, real)) = entry.as_ref()
                && asked == path
            {
                return real.clone();
            }
            let real = std::fs::canonicalize(path).ok();
            *entry = Some((path.to_path_buf(), real.clone()));
            real
        })
    }
}

/// The state of each artifact the result names, keyed by the canonical pointer of its path.
pub fn check(doc: &ResultDoc, file: &Path, root: &Path) -> Vec<(String, ArtifactState)> {
    let folder = file.parent().unwrap_or(Path::new("."));
    paths(doc)
        .into_iter()
        .filter(|(_, p)| !p.trim().is_empty())
        .map(|(pointer, p)| {
            let rel = Path::new(p);
            let state = if rel.is_absolute() {
                ArtifactState::OutsideCorpus
            } else {
                let joined = folder.join(rel);
                let (resolved_inside, exists) = if inside(root, &joined) {
                    resolve_inside(root, &joined)
                } else {
                    (false, None)
                };
                if !resolved_inside {
                    ArtifactState::OutsideCorpus
                } else if exists.unwrap_or_else(|| joined.exists()) {
                    ArtifactState::Present
                } else {
                    ArtifactState::Missing
                }
            };
            (pointer.to_string(), state)
        })
        .collect()
}

/// The files a result names as artifacts (for recognising them when they are JSON).
pub fn referenced(doc: &ResultDoc, file: &Path) -> Vec<PathBuf> {
    let folder = file.parent().unwrap_or(Path::new("."));
    paths(doc)
        .into_iter()
        .map(|(_, p)| folder.join(p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_root_are_outside() {
        assert!(inside(Path::new("corpus"), Path::new("corpus/a/../b.csv")));
        assert!(!inside(
            Path::new("corpus"),
            Path::new("corpus/../secret.csv")
        ));
        assert!(!inside(Path::new("corpus"), Path::new("other/b.csv")));
        assert!(inside(Path::new("."), Path::new("a/b.csv")));
        assert!(!inside(Path::new("."), Path::new("../b.csv")));
        // A root reached through `..`: its files' artifacts are inside it.
        assert!(inside(Path::new(".."), Path::new("../h200/trace.csv")));
        assert!(inside(
            Path::new("../demo"),
            Path::new("../demo/h200/trace.csv")
        ));
        assert!(!inside(Path::new(".."), Path::new("../../secret.csv")));
        assert!(!inside(Path::new("../demo"), Path::new("../other/b.csv")));
    }

    /// The answer through the memo is the answer of resolving the whole path, for files,
    /// missing files, links out of the root at the end or on the way, and dangling links,
    /// asked in an order that reuses the remembered folder.
    #[test]
    fn remembered_folders_give_the_full_resolution() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let (root, outside) = (dir.path().join("corpus"), dir.path().join("outside"));
        std::fs::create_dir_all(root.join("run/sub")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("run/trace.csv"), "t").unwrap();
        std::fs::write(outside.join("secret.csv"), "s").unwrap();
        symlink(outside.join("secret.csv"), root.join("run/leak.csv")).unwrap();
        symlink(root.join("run/trace.csv"), root.join("run/ok.csv")).unwrap();
        symlink(&outside, root.join("run/up")).unwrap();
        symlink(root.join("run/gone"), root.join("run/dangling.csv")).unwrap();
        let cases = [
            ("run/trace.csv", true, Some(true)),
            ("run/missing.csv", true, Some(false)),
            ("run/leak.csv", false, None),
            ("run/ok.csv", true, None),
            ("run/dangling.csv", true, None),
            ("run/up/secret.csv", false, Some(true)),
            ("run/up/nothing.csv", false, Some(false)),
            ("run/sub/../trace.csv", true, Some(true)),
            ("run/nowhere/deeper.csv", true, None),
            ("run/trace.csv/x", true, None),
        ];
        for _ in 0..2 {
            for (rel, want, exists) in cases {
                let path = root.join(rel);
                let full = resolved_prefix(&path)
                    .is_some_and(|p| p.starts_with(std::fs::canonicalize(&root).unwrap()));
                assert_eq!(full, want, "{rel}");
                assert_eq!(resolve_inside(&root, &path), (want, exists), "{rel}");
            }
        }
    }
}
