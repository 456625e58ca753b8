//! How findings about the corpus as a whole name it: the one path checked, or the folder the
//! paths share.

use std::path::PathBuf;

/// The corpus as findings about it name it ([`Finding::corpus`]): the one path checked, or the
/// folder the paths checked share (their longest common leading components, `.` when they
/// share none), as the command line wrote it. A folder ends with `/`, so every format shows a
/// folder as one (a SARIF artifact URI ending in `/` is a directory).
pub fn corpus_path(paths: &[PathBuf]) -> String {
    use std::path::{Component, Path};
    let is_dir = |p: &Path| p.is_dir();
    let text = |p: &Path| crate::config::paths::slashes(p);
    let folder = |mut s: String| {
        if !s.ends_with('/') {
            s.push('/');
        }
        s
    };
    match paths {
        [] => "./".to_string(),
        [one] => {
            let mut s = text(one);
            while s.len() > 1 && s.ends_with('/') {
                s.pop();
            }
            if is_dir(one) { folder(s) } else { s }
        }
        [first, rest @ ..] => {
            let mut common: Vec<Component<'_>> = first.components().collect();
            for p in rest {
                let shared = common
                    .iter()
                    .zip(p.components())
                    .take_while(|(a, b)| *a == b)
                    .count();
                common.truncate(shared);
            }
            // A file named twice is still that file; otherwise the shared part is a folder.
            let root: PathBuf = common.iter().collect();
            if root.as_os_str().is_empty() || root == Path::new(".") {
                "./".to_string()
            } else if paths.iter().all(|p| p == &root) && !is_dir(&root) {
                text(&root)
            } else {
                folder(text(&root))
            }
        }
    }
}
