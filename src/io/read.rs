//! Reading one file: regular files only, the size limit checked before reading, UTF-8 only.

use std::io::Read;
use std::path::Path;

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError(pub String);

/// Reads `path` as UTF-8 text of at most `limit` bytes, without reading more than the limit.
///
/// A leading byte order mark is removed; the flag says whether there was one.
pub fn read_text(path: &Path, limit: u64) -> Result<(String, bool), ReadError> {
    let meta = std::fs::metadata(path).map_err(|e| ReadError(describe_io(&e)))?;
    if !meta.is_file() {
        return Err(ReadError(
            "not a regular file (a folder, FIFO, socket or device is never read)".into(),
        ));
    }
    if meta.len() > limit {
        return Err(ReadError(format!(
            "file is {} bytes, over the {limit}-byte limit",
            meta.len()
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| ReadError(describe_io(&e)))?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // The file may grow between stat and read: never take more than the limit.
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError(describe_io(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError(format!(
            "file grew past the {limit}-byte limit while being read"
        )));
    }
    let bom = bytes.starts_with(&[0xEF, 0xBB, 0xBF]);
    if bom {
        bytes.drain(..3);
    }
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(ReadError(
            "file is UTF-16; benchlint reads UTF-8 only".into(),
        ));
    }
    // JSON text never holds a NUL byte: UTF-16 without a byte order mark, or binary data.
    let head = &bytes[..bytes.len().min(4096)];
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
    match String::from_utf8(bytes) {
        Ok(s) => Ok((s, bom)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            Err(ReadError(format!(
                "not UTF-8 text (invalid byte at offset {at}); binary data or another encoding"
            )))
        }
    }
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
