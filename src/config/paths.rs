//! Paths as the configuration and the baseline see them: relative to the folder of the file
//! that names them (the config file, the baseline), with forward slashes, whatever folder
//! benchlint was started from.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute (against the current folder) and normalised lexically: `.` removed,
/// `..` applied. Symlinks are not resolved, so the result names what the user typed.
pub fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    normalize(&joined)
}

/// Removes `.` and applies `..` without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `path` relative to the folder `base` (both absolute and normalised), with forward slashes;
/// `..` steps when `path` is outside `base`.
pub fn relative_to(path: &Path, base: &Path) -> String {
    let p: Vec<Component<'_>> = path.components().collect();
    let b: Vec<Component<'_>> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = Vec::new();
    for _ in common..b.len() {
        parts.push("..".to_string());
    }
    for c in &p[common..] {
        parts.push(c.as_os_str().to_string_lossy().into_owned());
    }
    parts.join("/")
}

/// The key of `path` (relative to `cwd`, or absolute) under the folder `base`: what config
/// globs and baseline entries match.
pub fn key(cwd: &Path, base: &Path, path: &Path) -> String {
    let abs = if path.is_absolute() {
        normalize(path)
    } else {
        normalize(&cwd.join(path))
    };
    relative_to(&abs, base)
}

/// A path for messages: relative to the current folder when it is inside it, else absolute.
pub fn display(path: &Path) -> String {
    let abs = absolute(path);
    let cwd = normalize(&std::env::current_dir().unwrap_or_default());
    match abs.strip_prefix(&cwd) {
        Ok(rel) if !rel.as_os_str().is_empty() => slashes(rel),
        _ => slashes(&abs),
    }
}

/// The path with forward slashes.
pub fn slashes(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_relativises() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(
            relative_to(Path::new("/a/b/c.json"), Path::new("/a")),
            "b/c.json"
        );
        assert_eq!(
            relative_to(Path::new("/x/c.json"), Path::new("/a/b")),
            "../../x/c.json"
        );
        assert_eq!(relative_to(Path::new("/a"), Path::new("/a")), "");
    }
}
