//! The project root the CI formats make paths relative to (`--project-root`; by default the
//! git work tree holding the first path, else the current folder), so that an annotation or a
//! SARIF result names the same repository file whichever folder benchlint ran in and however
//! the paths were spelled (`.`, `..`, `./x`, absolute).
//!
//! Decisions:
//! - The work tree is found by looking for `.git` (a folder, or the file a linked work tree or
//!   a submodule holds) upward from the first path, made absolute lexically; no git binary is
//!   run and nothing is read from `.git`.
//! - A file outside the project root keeps an absolute `file://` URI in SARIF (GitHub cannot
//!   place it, but another viewer can); it never gets a `../` path.

use std::path::{Path, PathBuf};

use crate::config::paths;

/// Where the CI formats' paths are relative to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The project root, absolute and normalised.
    pub root: PathBuf,
    /// The folder benchlint runs in, absolute and normalised: the paths findings carry are
    /// relative to it.
    pub cwd: PathBuf,
}

impl Default for Project {
    /// The current folder as the project root.
    fn default() -> Self {
        let cwd = paths::normalize(&std::env::current_dir().unwrap_or_default());
        Project {
            root: cwd.clone(),
            cwd,
        }
    }
}

impl Project {
    /// `explicit` when given, else the git work tree holding `first`, else the current folder.
    pub fn new(explicit: Option<&Path>, first: Option<&Path>) -> Self {
        let here = Project::default();
        let root = match explicit {
            Some(dir) => paths::absolute(dir),
            None => first
                .and_then(|p| work_tree(&paths::absolute(p)))
                .unwrap_or_else(|| here.cwd.clone()),
        };
        Project { root, ..here }
    }

    /// The path of a finding (as reached from the command line) relative to the root, with
    /// forward slashes; `None` when it lies outside the root (or is the root itself).
    pub fn relative(&self, shown: &str) -> Option<String> {
        let abs = if Path::new(shown).is_absolute() {
            paths::normalize(Path::new(shown))
        } else {
            paths::normalize(&self.cwd.join(shown))
        };
        let rel = abs.strip_prefix(&self.root).ok()?;
        if rel.as_os_str().is_empty() {
            return None;
        }
        Some(rel.to_string_lossy().into_owned())
    }

    /// The path of a finding made absolute (for a file outside the root).
    pub fn absolute(&self, shown: &str) -> String {
        let p = Path::new(shown);
        let abs = if p.is_absolute() {
            paths::normalize(p)
        } else {
            paths::normalize(&self.cwd.join(p))
        };
        abs.to_string_lossy().into_owned()
    }
}

/// The nearest folder at or above `start` (or its folder, for a file) that holds `.git`.
fn work_tree(start: &Path) -> Option<PathBuf> {
    let mut at = if start.is_dir() {
        start.to_path_buf()
    } else {
        start.parent()?.to_path_buf()
    };
    loop {
        if std::fs::symlink_metadata(at.join(".git")).is_ok() {
            return Some(at);
        }
        if !at.pop() {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_tree_is_found_upward_and_paths_are_relative_to_it() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = paths::normalize(tmp.path()).join("repo");
        std::fs::create_dir_all(repo.join("results/h200")).unwrap();
        std::fs::write(repo.join(".git"), "gitdir: elsewhere\n").unwrap();
        std::fs::write(repo.join("results/h200/a.json"), "{}").unwrap();
        let from_child = Project {
            cwd: repo.join("results/h200"),
            ..Project::new(None, Some(&repo.join("results/h200/a.json")))
        };
        assert_eq!(from_child.root, repo);
        // `..` from a child, `./`, and an absolute spelling name one file.
        for shown in [
            "../h200/a.json".to_string(),
            "./a.json".to_string(),
            repo.join("results/h200/a.json").display().to_string(),
        ] {
            assert_eq!(
                from_child.relative(&shown).as_deref(),
                Some("results/h200/a.json"),
                "{shown}"
            );
        }
        // Outside the root: no relative path, never `../`.
        assert_eq!(from_child.relative("../../../x.json"), None);
        // No `.git` anywhere up: none found.
        let bare = paths::normalize(tmp.path()).join("bare");
        std::fs::create_dir_all(&bare).unwrap();
        assert!(
            work_tree(&bare).is_none_or(|w| !w.starts_with(paths::normalize(tmp.path()))),
            "a temporary folder sits in no work tree of its own"
        );
        // An explicit root wins.
        let explicit = Project::new(Some(&repo.join("results")), None);
        assert_eq!(explicit.root, repo.join("results"));
    }
}
