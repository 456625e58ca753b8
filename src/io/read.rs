//! Reading one file: regular files only, the one the walk saw, the size limit checked before
//! reading, UTF-8 only.

use std::io::Read;
use std::path::Path;

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError(pub String);

/// Reads `path` as UTF-8 text of at most `limit` bytes, without reading more than the limit.
///
/// A leading byte order mark is removed; the flag says whether there was one.
pub fn read_text(path: &Path, limit: u64) -> Result<(String, bool), ReadError> {
    read_seen(path, limit, None)
}

/// [`read_text`], reading only the file the walk saw (`seen`: its device and inode): the file
/// is checked once opened, so a file replaced after the walk (by a link to a place outside the
/// corpus, say) is refused, never read or quoted.
pub fn read_seen(
    path: &Path,
    limit: u64,
    seen: Option<(u64, u64)>,
) -> Result<(String, bool), ReadError> {
    let (file, len) = open_checked(path, limit, seen)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    // The file may grow between stat and read: never take more than the limit.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError(describe_io(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(grew_past(limit));
    }
    let bom = bytes.starts_with(&BOM);
    if bom {
        bytes.drain(..3);
    }
    check_head(&bytes)?;
    match String::from_utf8(bytes) {
        Ok(s) => Ok((s, bom)),
        Err(e) => Err(not_utf8(e.utf8_error().valid_up_to())),
    }
}

/// The UTF-8 byte order mark.
pub(super) const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// How much of the start of a file is looked at for NUL bytes.
pub(super) const HEAD: usize = 4096;

/// Opens `path` for reading if it is a regular file, the one the walk saw (`seen`), within
/// `limit` bytes; with its length.
pub(super) fn open_checked(
    path: &Path,
    limit: u64,
    seen: Option<(u64, u64)>,
) -> Result<(std::fs::File, u64), ReadError> {
    // The name is looked at before opening only so that a FIFO is never opened (opening one
    // waits for a writer); what is read is decided on the opened file below.
    let named = std::fs::metadata(path).map_err(|e| ReadError(describe_io(&e)))?;
    if !named.is_file() {
        return Err(ReadError(
            "not a regular file (a folder, FIFO, socket or device is never read)".into(),
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| ReadError(describe_io(&e)))?;
    let meta = file.metadata().map_err(|e| ReadError(describe_io(&e)))?;
    let opened = identity(&meta);
    if !meta.is_file() || opened != identity(&named) || seen.is_some_and(|s| s != opened) {
        return Err(changed());
    }
    if meta.len() > limit {
        return Err(ReadError(format!(
            "file is {} bytes, over the {limit}-byte limit",
            meta.len()
        )));
    }
    Ok((file, meta.len()))
}

/// The file changed between the walk (or the first read) and this one.
pub(super) fn changed() -> ReadError {
    ReadError(
        "the file changed while it was being checked (it is not the file the walk found: replaced, or swapped for a link); not read".into(),
    )
}

/// The file grew past `limit` while it was read.
pub(super) fn grew_past(limit: u64) -> ReadError {
    ReadError(format!(
        "file grew past the {limit}-byte limit while being read"
    ))
}

/// A byte at `at` (after any byte order mark) that is not UTF-8.
pub(super) fn not_utf8(at: usize) -> ReadError {
    ReadError(format!(
        "not UTF-8 text (invalid byte at offset {at}); binary data or another encoding"
    ))
}

/// Refuses a text whose first bytes (after any UTF-8 byte order mark) say it is UTF-16 or
/// binary: `bytes` is the file's start, [`HEAD`] bytes of it or all of a shorter file.
pub(super) fn check_head(bytes: &[u8]) -> Result<(), ReadError> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(ReadError(
            "file is UTF-16; benchlint reads UTF-8 only".into(),
        ));
    }
    // JSON text never holds a NUL byte: UTF-16 without a byte order mark, or binary data.
    let head = &bytes[..bytes.len().min(HEAD)];
    if head.contains(&0) {
        let even = head.iter().step_by(2).filter(|&&b| b == 0).count();
        let odd = head.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
        let half = head.len() / 4;
        return Err(ReadError(if even > half || odd > half {
            "file looks like UTF-16 without a byte order mark; benchlint reads UTF-8 only".into()
        } else {
            "file holds NUL bytes: binary data, not JSON text".into()
        }));
    }
    Ok(())
}

/// An I/O error in words, without the OS error number.
pub fn describe_io(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

/// The device and inode of `meta`: which file it is, whatever name reached it.
pub fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt as _;
    (meta.dev(), meta.ino())
}
