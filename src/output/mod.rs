//! Writing outputs (`-o` of `check`, `import`, `audit`, `capture`, the baseline, rule pages)
//! without ever writing through a symbolic link, and never into a corpus unless asked.
//!
//! Decisions:
//! - An output folder that is a symlink, or an output file that exists as a symlink (or as
//!   anything but a regular file), is refused with exit 2 and a message naming it: a link in a
//!   checked-out pull request could otherwise point the report at a result file, at the claims
//!   file, or outside the workspace. Refusing says so; silently replacing the link would hide
//!   that someone planted it.
//! - Each file is written to a new temporary file in the same folder (created exclusively, so
//!   it cannot be a link) and renamed over the target: even a link created between the check and
//!   the write is replaced, never followed.
//! - "Inside the corpus" is decided on resolved paths: an output folder reached through a
//!   symlink into the corpus is inside it.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use crate::config::paths;
use crate::io::describe_io;

/// `path` as messages show it (masked and escaped by the writer of the error).
fn shown(path: &Path) -> String {
    paths::display(path)
}

/// `path` with symlinks resolved as far as it exists, the rest appended lexically: where a
/// write to it would land.
pub fn resolved(path: &Path) -> PathBuf {
    let abs = paths::absolute(path);
    let mut existing = abs.clone();
    let mut rest: Vec<Component<'_>> = Vec::new();
    let components: Vec<Component<'_>> = abs.components().collect();
    let mut n = components.len();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let mut out = real;
            for c in rest.iter().rev() {
                out.push(c.as_os_str());
            }
            return out;
        }
        if n == 0 {
            return abs;
        }
        n -= 1;
        rest.push(components[n]);
        existing = components[..n].iter().collect();
    }
}

/// The folder an argument makes into a corpus root: a folder itself, a file's folder.
pub fn corpus_root(p: &Path) -> PathBuf {
    if p.is_dir() {
        paths::absolute(p)
    } else {
        let abs = paths::absolute(p);
        abs.parent().map(Path::to_path_buf).unwrap_or(abs)
    }
}

/// Refuses an output folder inside one of `inputs` (unless `allowed`), judged both on the paths
/// as typed and as resolved through symlinks, and an output folder that is itself a symlink.
pub fn check_output_dir(dir: &Path, inputs: &[PathBuf], allowed: bool) -> Result<(), String> {
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "the output folder `{}` is a symbolic link; benchlint never writes through one (remove the link, or give the folder it points to)",
            shown(dir)
        ));
    }
    if allowed {
        return Ok(());
    }
    let typed = paths::absolute(dir);
    let real = resolved(dir);
    for p in inputs {
        let root = corpus_root(p);
        let real_root = resolved(&root);
        if typed.starts_with(&root) || real.starts_with(&real_root) {
            let corpus = if p.is_dir() {
                format!("`{}`", shown(p))
            } else {
                format!("(the folder of `{}`)", shown(p))
            };
            return Err(format!(
                "the output folder `{}` is inside the corpus {corpus}; benchlint never writes into a corpus unless asked (--allow-inside-corpus)",
                shown(dir)
            ));
        }
    }
    Ok(())
}

/// Creates `dir` (and its parents) for outputs, after [`check_output_dir`].
pub fn create_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create `{}`: {}", shown(dir), describe_io(&e)))?;
    // Created meanwhile as a link? Still refused.
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "the output folder `{}` is a symbolic link; benchlint never writes through one",
            shown(dir)
        ));
    }
    Ok(())
}

/// Moves the file `from` (written by [`write_file`] into a folder of the same output) to
/// `path`, with the care [`write_file`] takes: never through a symbolic link, never over what is
/// not a regular file.
pub fn move_file(from: &Path, path: &Path) -> Result<(), String> {
    refuse_target(path)?;
    std::fs::rename(from, path)
        .map_err(|e| format!("cannot write `{}`: {}", shown(path), describe_io(&e)))
}

/// `Err` when `path` is a symbolic link or exists and is not a regular file: what
/// [`write_file`] refuses, asked before files written together are begun.
pub fn refuse_target(path: &Path) -> Result<(), String> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.file_type().is_symlink() {
            return Err(format!(
                "`{}` is a symbolic link; benchlint never writes through one (remove it, or write elsewhere)",
                shown(path)
            ));
        }
        if !meta.is_file() {
            return Err(format!(
                "`{}` exists and is not a regular file; nothing was written",
                shown(path)
            ));
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` without following a symlink: refused when `path` exists as a
/// symlink or as anything but a regular file; written to a fresh temporary file beside it,
/// then renamed over it.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    write_file_with(path, &mut |w| w.write_all(bytes))
}

/// [`write_file`] of what `write` writes, handed to it through a buffer as it is made, so that
/// a large document is never held whole.
pub fn write_file_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    let mut staged = Staged::create(path)?;
    if let Err(e) = write(&mut staged) {
        // A failure of the writer's own (a document that cannot be serialised) as much as
        // of the file.
        staged.failed.get_or_insert(e);
    }
    staged.commit()
}

/// Writes what `write` writes into a file made for it at `path`, in a folder of the run's own
/// making that nothing else writes into (`import`'s staging folder): created exclusively, so
/// it is never a link and never what was there (an error instead), and no temporary name and
/// rename, which [`write_file_with`] needs only where a reader may see the target. A failed
/// write removes the file.
pub fn write_new_file_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| cannot_write(path, &e))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
    let written = write(&mut out).and_then(|()| out.flush());
    drop(out);
    written.map_err(|e| {
        let _ = std::fs::remove_file(path);
        cannot_write(path, &e)
    })
}

/// A file being written beside its target under a fresh name (created exclusively, so it
/// cannot be a link), renamed over the target once complete ([`Staged::commit`]) and removed if
/// it never is: a report written as a run goes, never held whole, and never left half written
/// under the target's name.
pub struct Staged {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<std::fs::File>>,
    /// The first write that failed: the commit reports it.
    failed: Option<std::io::Error>,
}

impl Staged {
    /// Starts writing `path`: refused as [`write_file`] refuses it.
    pub fn create(path: &Path) -> Result<Staged, String> {
        refuse_target(path)?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = path.file_name().map_or_else(
            || "output".to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mut attempt = 0u32;
        loop {
            let tmp = dir.join(format!(".{name}.{}.{attempt}.tmp", std::process::id()));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
            {
                Ok(f) => {
                    return Ok(Staged {
                        path: path.to_path_buf(),
                        tmp,
                        file: Some(std::io::BufWriter::with_capacity(1 << 16, f)),
                        failed: None,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                    attempt += 1;
                }
                Err(e) => return Err(cannot_write(path, &e)),
            }
        }
    }

    /// Flushes what was written and renames it over the target; `Err` if any write failed.
    pub fn commit(mut self) -> Result<(), String> {
        let flushed = match self.file.take() {
            Some(mut f) => f.flush(),
            None => Ok(()),
        };
        let result = match self.failed.take() {
            Some(e) => Err(e),
            None => flushed.and_then(|()| std::fs::rename(&self.tmp, &self.path)),
        };
        result.map_err(|e| cannot_write(&self.path, &e))
    }
}

impl Write for Staged {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let Some(file) = self.file.as_mut().filter(|_| self.failed.is_none()) else {
            return Err(std::io::Error::other("an earlier write failed"));
        };
        file.write(buf).inspect_err(|e| {
            self.failed = Some(std::io::Error::new(e.kind(), e.to_string()));
        })
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for Staged {
    /// A file never committed is removed (committed, it is no longer there).
    fn drop(&mut self) {
        drop(self.file.take());
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// Why `path` cannot be written.
fn cannot_write(path: &Path, e: &std::io::Error) -> String {
    format!("cannot write `{}`: {}", shown(path), describe_io(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("result.json");
        std::fs::write(&target, "kept").unwrap();
        let link = tmp.path().join("report.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = write_file(&link, b"report").unwrap_err();
        assert!(e.contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
        let plain = tmp.path().join("plain.md");
        write_file(&plain, b"one").unwrap();
        write_file(&plain, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&plain).unwrap(), "two");
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
        assert_eq!(left.len(), 3, "no temporary file left: {left:?}");
    }

    #[test]
    fn a_new_file_is_made_only_where_nothing_is_and_never_left_half_written() {
        let tmp = tempfile::tempdir().unwrap();
        let made = tmp.path().join("0.json");
        write_new_file_with(&made, &mut |w| w.write_all(b"{}\n")).unwrap();
        assert_eq!(std::fs::read_to_string(&made).unwrap(), "{}\n");
        // What is there already, a file or a link to one, is left as it is: an error.
        let e = write_new_file_with(&made, &mut |w| w.write_all(b"other")).unwrap_err();
        assert!(e.contains("cannot write"), "{e}");
        assert_eq!(std::fs::read_to_string(&made).unwrap(), "{}\n");
        let link = tmp.path().join("1.json");
        std::os::unix::fs::symlink(&made, &link).unwrap();
        assert!(write_new_file_with(&link, &mut |w| w.write_all(b"other")).is_err());
        assert_eq!(std::fs::read_to_string(&made).unwrap(), "{}\n");
        // A writer that fails leaves no file behind.
        let failed = tmp.path().join("2.json");
        let e = write_new_file_with(&failed, &mut |w| {
            w.write_all(b"half")?;
            Err(std::io::Error::other(
                "the document could not be serialised",
            ))
        })
        .unwrap_err();
        assert!(e.contains("could not be serialised"), "{e}");
        assert!(!failed.exists());
    }

    #[test]
    fn a_folder_through_a_link_into_the_corpus_is_inside_it() {
        let tmp = tempfile::tempdir().unwrap();
        let corpus = tmp.path().join("corpus");
        std::fs::create_dir(&corpus).unwrap();
        let link = tmp.path().join("out");
        std::os::unix::fs::symlink(&corpus, &link).unwrap();
        let e = check_output_dir(&link, std::slice::from_ref(&corpus), false).unwrap_err();
        assert!(e.contains("symbolic link"), "{e}");
        let below = link.join("reports");
        let e = check_output_dir(&below, std::slice::from_ref(&corpus), false).unwrap_err();
        assert!(e.contains("inside the corpus"), "{e}");
        assert!(check_output_dir(&tmp.path().join("elsewhere"), &[corpus], false).is_ok());
    }

    #[test]
    fn a_staged_file_is_the_target_once_committed_and_nothing_otherwise() {
        let tmp = tempfile::tempdir().unwrap();
        let names = |dir: &Path| -> Vec<String> {
            let mut n: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            n.sort();
            n
        };
        // Committed: the target holds every byte written, and nothing else is left.
        let target = tmp.path().join("report.json");
        let mut staged = Staged::create(&target).unwrap();
        for k in 0..10_000 {
            writeln!(staged, "line {k}").unwrap();
        }
        assert_eq!(names(tmp.path()).len(), 1);
        assert!(!target.exists(), "not there before the commit");
        staged.commit().unwrap();
        let text = std::fs::read_to_string(&target).unwrap();
        assert_eq!(text.lines().count(), 10_000);
        assert_eq!(names(tmp.path()), ["report.json"]);
        // Dropped without a commit (a run that stopped on an error): the old target stays.
        let mut staged = Staged::create(&target).unwrap();
        staged.write_all(b"half").unwrap();
        drop(staged);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), text);
        assert_eq!(names(tmp.path()), ["report.json"]);
        // A writer that fails: the commit says so, and the target is left as it was.
        let e = write_file_with(&target, &mut |w| {
            w.write_all(b"partial")?;
            Err(std::io::Error::other(
                "the document could not be serialised",
            ))
        })
        .unwrap_err();
        assert!(e.contains("could not be serialised"), "{e}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), text);
        assert_eq!(names(tmp.path()), ["report.json"]);
    }
}
