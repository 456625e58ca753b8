//! `-` as a path of `check`: standard input, read with the bound of any file and checked under
//! the name `--stdin-filename` gives it (`-` without one).
//!
//! Decisions (README, "Standard input"):
//! - The input is copied, at most `max_file_bytes` + 1 bytes of it, into a file of that name
//!   alone in a fresh private folder under the system's temporary folder, removed when the run
//!   ends; the loader then reads it as it reads any file (the same bounds, the format told from
//!   the content, and E001 when it is larger than the limit). Nothing is written beside the
//!   corpus.
//! - Findings, config globs (`[per-file-ignores]`) and `--force-exclude` use the given name;
//!   the config is found from it (from the current folder without one). No sidecar, artifact
//!   or `[[sidecar]]` glob applies: the file has nothing beside it.
//! - `-` may be given once.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// A copy of standard input, removed with its folder when dropped.
pub struct StdinCopy {
    dir: PathBuf,
    /// The copy.
    pub file: PathBuf,
    /// The name it goes by in findings.
    pub name: String,
}

impl Drop for StdinCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether `p` is `-`.
pub fn is_stdin(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// Copies standard input (at most `limit` + 1 bytes: one more tells the loader it is too
/// large) into a private folder, as a file named after `name`'s last part.
pub fn copy(name: Option<&Path>, limit: u64) -> Result<StdinCopy, String> {
    let shown = name.map_or_else(|| "-".to_string(), crate::config::paths::slashes);
    let file_name = name
        .and_then(Path::file_name)
        .map_or_else(|| "stdin".into(), |n| n.to_string_lossy().into_owned());
    let base = std::env::temp_dir();
    let cannot = |e: &std::io::Error| {
        format!(
            "standard input could not be copied for reading: {}",
            crate::corpus::describe_io(e)
        )
    };
    let mut attempt = 0u32;
    let dir = loop {
        let dir = base.join(format!("benchlint-stdin-{}-{attempt}", std::process::id()));
        match create_private_dir(&dir) {
            Ok(()) => break dir,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1;
            }
            Err(e) => return Err(cannot(&e)),
        }
    };
    let copy = StdinCopy {
        file: dir.join(&file_name),
        dir,
        name: shown,
    };
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&copy.file)
        .map_err(|e| cannot(&e))?;
    let mut input = std::io::stdin().lock().take(limit.saturating_add(1));
    std::io::copy(&mut input, &mut out)
        .and_then(|_| out.flush())
        .map_err(|e| cannot(&e))?;
    Ok(copy)
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().mode(0o700).create(dir)
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir(dir)
}
