//! [`Neighbourhood`]: the files being read in one run and the per-folder cache every document
//! shares, with each folder's real path and the boundary nothing consulted may leave.

use std::any::Any;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::json::Limits;

type Cell = Arc<OnceLock<Arc<dyn Any + Send + Sync>>>;

/// What one run of the loader may consult: the files being read and a cache shared by all
/// documents. Made once per load.
pub struct Neighbourhood<'r> {
    /// The files being read in this run, as given: borrowed from the loader's list, never a
    /// second copy of every path held through the load.
    files: &'r [&'r Path],
    /// Their real paths, sorted: resolved on first use (most runs never ask).
    in_corpus: OnceLock<Vec<PathBuf>>,
    /// Values computed per (real folder path, key).
    cache: Mutex<BTreeMap<(PathBuf, String), Cell>>,
    /// Each folder's real path and boundary, per (folder as reached, corpus root): resolved
    /// once per folder, not once per file.
    resolved: Mutex<BTreeMap<(PathBuf, PathBuf), Resolved>>,
    pub(super) limits: Limits,
}

/// A folder's real path and the real path nothing consulted from it may leave.
type Resolved = Option<(PathBuf, PathBuf)>;

impl std::fmt::Debug for Neighbourhood<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Neighbourhood")
            .field("files", &self.files.len())
            .finish_non_exhaustive()
    }
}

impl<'r> Neighbourhood<'r> {
    /// A neighbourhood for a run that reads `files`, parsing JSON with `limits`.
    pub fn new(files: &'r [&'r Path], limits: Limits) -> Self {
        Neighbourhood {
            files,
            in_corpus: OnceLock::new(),
            cache: Mutex::new(BTreeMap::new()),
            resolved: Mutex::new(BTreeMap::new()),
            limits,
        }
    }

    pub(super) fn is_read(&self, real: &Path) -> bool {
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
    pub(super) fn resolve(&self, shown: &Path, root: &Path) -> Resolved {
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

    pub(super) fn cell(&self, folder: &Path, key: &str) -> Cell {
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
