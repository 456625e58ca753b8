//! The input files of commands that write one output per input (`sidecar`, `import`): each
//! file's path relative to the command-line argument that reached it, so that outputs mirror
//! the corpus's layout and two files of one name in two folders never collide.

use std::path::{Path, PathBuf};

use crate::config::paths;

/// The path of the file `display` (as reached from an argument) relative to that argument:
/// below a folder argument, its path inside the folder (`vllm/run.json`); for a file argument,
/// its name. A file reached from no argument (cannot happen for loaded files) keeps its path
/// with `..` steps and the root removed.
pub fn relative_to_argument(display: &str, args: &[PathBuf]) -> String {
    let file = paths::absolute(Path::new(display));
    for arg in args {
        let root = paths::absolute(arg);
        if file == root {
            return file
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        }
        if arg.is_dir() && file.starts_with(&root) {
            return paths::relative_to(&file, &root);
        }
    }
    display
        .split(['/', '\\'])
        .filter(|part| !part.is_empty() && *part != "." && *part != "..")
        .collect::<Vec<_>>()
        .join("/")
}

/// The folder that bounds what may be read beside the file `display`: the argument that reached
/// it when it is a folder, a file argument's folder (as `check` bounds sidecars and artifacts).
pub fn root_of(display: &str, args: &[PathBuf]) -> PathBuf {
    let file = paths::absolute(Path::new(display));
    for arg in args {
        let root = super::output::corpus_root(arg);
        if file == paths::absolute(arg) || (arg.is_dir() && file.starts_with(&root)) {
            return root;
        }
    }
    file.parent().map(Path::to_path_buf).unwrap_or(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_to_the_folder_or_the_file_name() {
        let tmp = tempfile::tempdir().unwrap();
        let corpus = tmp.path().join("corpus");
        std::fs::create_dir_all(corpus.join("vllm")).unwrap();
        let file = corpus.join("vllm/run.json");
        std::fs::write(&file, "{}").unwrap();
        let shown = file.to_string_lossy().into_owned();
        assert_eq!(
            relative_to_argument(&shown, std::slice::from_ref(&corpus)),
            "vllm/run.json"
        );
        assert_eq!(
            relative_to_argument(&shown, std::slice::from_ref(&file)),
            "run.json"
        );
        assert_eq!(relative_to_argument("../a/./b.json", &[]), "a/b.json");
    }
}
