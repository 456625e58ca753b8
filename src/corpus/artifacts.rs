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

fn inside(root: &Path, candidate: &Path) -> bool {
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
    match (std::fs::canonicalize(root), resolved_prefix(path)) {
        (Ok(root), Some(p)) => p.starts_with(root),
        _ => false,
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
                if !inside(root, &joined) || !resolves_inside(root, &joined) {
                    ArtifactState::OutsideCorpus
                } else if joined.exists() {
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
    }
}
