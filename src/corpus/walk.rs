//! What a folder walk skips besides its built-in folders: `exclude` globs ([`Exclude`]) and,
//! inside a git work tree, what `.gitignore` files name (ripgrep's matcher on our own walk,
//! src/corpus/discover.rs); each skip counted, so the run can say it (docs/linter-options.md).

use std::path::{Path, PathBuf};

/// What a walk skips besides the built-in folders: `exclude` globs and, inside a git work tree,
/// what its `.gitignore` files (and `.git/info/exclude`) name.
#[derive(Debug, Clone)]
pub struct Walk {
    /// Globs of files and folders to skip.
    pub exclude: Vec<Exclude>,
    /// Whether `.gitignore` files are followed (default true).
    pub respect_gitignore: bool,
    /// Whether files named on the command line are excluded too.
    pub force_exclude: bool,
    /// How many files and folders were skipped, shared by the clones of one run's walk.
    pub excluded: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// Standard input, copied to this file: `(the file, the name it goes by)`. Its findings
    /// show the name; nothing beside the file is looked for (it is alone in its folder).
    pub stdin: Option<(PathBuf, String)>,
}

impl Default for Walk {
    fn default() -> Self {
        Walk {
            exclude: Vec::new(),
            respect_gitignore: true,
            force_exclude: false,
            excluded: std::sync::Arc::default(),
            stdin: None,
        }
    }
}

impl Walk {
    pub(super) fn count_excluded(&self) {
        self.excluded
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// `paths` as the user named them: the copy of standard input by the name it goes by.
    pub fn shown(&self, paths: &[PathBuf]) -> Vec<PathBuf> {
        paths
            .iter()
            .map(|p| match &self.stdin {
                Some((file, name)) if p == file => PathBuf::from(name),
                _ => p.clone(),
            })
            .collect()
    }

    /// How many files and folders were skipped so far.
    pub fn excluded_count(&self) -> usize {
        self.excluded.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub(super) fn excludes(&self, path: &Path, is_dir: bool, ignores: &mut GitIgnores) -> bool {
        let abs = crate::config::paths::absolute(path);
        self.exclude.iter().any(|g| g.matches(&abs, is_dir))
            || (self.respect_gitignore && ignores.ignored(&abs, is_dir))
    }
}

/// One `exclude` glob and the folder it is relative to.
#[derive(Debug, Clone)]
pub struct Exclude {
    /// The glob as written.
    pub pattern: String,
    matcher: globset::GlobMatcher,
    /// Without `/` (but a trailing one): matches the name of a file or folder anywhere.
    basename: bool,
    /// Ends with `/`: names folders only.
    dir_only: bool,
    base: PathBuf,
}

impl Exclude {
    /// Compiles `pattern`, relative to the folder `base` (as config globs are).
    pub fn new(pattern: &str, base: &Path) -> Result<Self, String> {
        let bare = pattern.trim_start_matches("./");
        let dir_only = bare.ends_with('/');
        let bare = bare.trim_end_matches('/');
        Ok(Exclude {
            pattern: pattern.to_string(),
            matcher: crate::config::selection::compile_glob(bare)?,
            basename: !bare.contains('/'),
            dir_only,
            base: crate::config::paths::absolute(base),
        })
    }

    /// Whether the glob names the file or folder at `abs` (absolute, normalised) or a folder
    /// above it (below the glob's folder).
    pub fn matches(&self, abs: &Path, is_dir: bool) -> bool {
        let key = crate::config::paths::relative_to(abs, &self.base);
        let hit = |k: &str, dir: bool| {
            (dir || !self.dir_only)
                && crate::config::selection::glob_matches(&self.matcher, self.basename, k)
        };
        if hit(&key, is_dir) {
            return true;
        }
        let mut k = key.as_str();
        while let Some(i) = k.rfind('/') {
            k = &k[..i];
            if k == ".." || k.ends_with("/..") {
                break;
            }
            if hit(k, true) {
                return true;
            }
        }
        false
    }
}

/// Largest `.gitignore` read, bytes; a larger one is not followed (the walk then reads more,
/// never less).
const GITIGNORE_LIMIT: u64 = 1024 * 1024;

/// The `.gitignore` files of one walk, read once per folder.
pub(super) struct GitIgnores {
    /// The git work tree the walk is in (none: `.gitignore` files mean nothing).
    root: Option<PathBuf>,
    loaded: std::collections::BTreeMap<PathBuf, Option<ignore::gitignore::Gitignore>>,
}

impl GitIgnores {
    /// For a walk of `arg`: the nearest folder at or above it holding `.git`.
    pub(super) fn for_root(arg: &Path) -> Self {
        let abs = crate::config::paths::absolute(arg);
        let root = abs
            .ancestors()
            .find(|d| d.join(".git").exists())
            .map(Path::to_path_buf);
        GitIgnores {
            root,
            loaded: std::collections::BTreeMap::new(),
        }
    }

    /// Whether a `.gitignore` from the work tree's root down to the folder of `abs` ignores
    /// it; the deepest file that has a word on it decides, as git does.
    fn ignored(&mut self, abs: &Path, is_dir: bool) -> bool {
        let Some(root) = self.root.clone() else {
            return false;
        };
        let Some(parent) = abs.parent() else {
            return false;
        };
        for dir in parent.ancestors() {
            if !dir.starts_with(&root) {
                break;
            }
            let here = dir == root;
            let matcher = self
                .loaded
                .entry(dir.to_path_buf())
                .or_insert_with(|| load_gitignore(dir, here));
            if let Some(m) = matcher {
                match m.matched(abs, is_dir) {
                    ignore::Match::Ignore(_) => return true,
                    ignore::Match::Whitelist(_) => return false,
                    ignore::Match::None => {}
                }
            }
        }
        false
    }
}

/// A regular file of at most [`GITIGNORE_LIMIT`] bytes, never through a symlink.
fn small_regular_file(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file() && m.len() <= GITIGNORE_LIMIT)
}

/// The `.gitignore` of `dir` (and `.git/info/exclude` at the work tree's root), if any.
fn load_gitignore(dir: &Path, root: bool) -> Option<ignore::gitignore::Gitignore> {
    let mut builder = ignore::gitignore::GitignoreBuilder::new(dir);
    let mut any = false;
    let mut files = vec![dir.join(".gitignore")];
    if root {
        files.push(dir.join(".git/info/exclude"));
    }
    for f in files {
        // A line git would not read is skipped by the builder; the rest still holds.
        if small_regular_file(&f) {
            let _ = builder.add(&f);
            any = true;
        }
    }
    if !any {
        return None;
    }
    builder.build().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn excluded(pattern: &str, path: &str, is_dir: bool) -> bool {
        Exclude::new(pattern, Path::new("/repo"))
            .unwrap()
            .matches(Path::new(path), is_dir)
    }

    #[test]
    fn names_anywhere_paths_from_the_base_folders_only_with_a_slash() {
        assert!(excluded("old", "/repo/results/old", true));
        assert!(
            excluded("old", "/repo/results/old/run.json", false),
            "below a folder named"
        );
        assert!(excluded("*.jsonl", "/repo/a/b/x.jsonl", false));
        assert!(
            !excluded("results/old", "/repo/x/results/old", true),
            "anchored at the base"
        );
        assert!(excluded(
            "results/old",
            "/repo/results/old/a/run.json",
            false
        ));
        assert!(excluded("logs/", "/repo/a/logs", true));
        assert!(
            !excluded("logs/", "/repo/a/logs", false),
            "a file called logs is no folder"
        );
        assert!(excluded(
            "./results/**/*.json",
            "/repo/results/a/b.json",
            false
        ));
        assert!(
            !excluded("results/*.json", "/repo/results/a/b.json", false),
            "`*` stops at `/`"
        );
        assert!(
            !excluded("results/old", "/elsewhere/results/old", true),
            "outside the base"
        );
    }
}
