//! A file read a line at a time, never held whole: checked first as [`super::read_seen`]
//! checks a file it reads whole (a regular file, the one the walk saw, within the size limit,
//! UTF-8 throughout), in one pass that keeps a block of it, then read again line by line.
//! Offsets are the text's as [`super::read_seen`] gives it: after any byte order mark.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Take};
use std::path::Path;

use super::read::{BOM, HEAD, changed, check_head, grew_past, not_utf8, open_checked};
use super::{ReadError, describe_io};

/// Bytes read at a time.
const BLOCK: usize = 64 << 10;

/// A text file checked whole and read a line at a time.
pub struct LineFile {
    reader: BufReader<Take<File>>,
    /// Length of the text (after any byte order mark).
    len: u64,
    /// Whether the file starts with a UTF-8 byte order mark.
    bom: bool,
    /// Bytes of the text read so far.
    read: u64,
}

impl LineFile {
    /// Opens `path` as [`super::read_seen`] would read it, with the same errors in the same
    /// words, having read it once to check it: every byte of a file that is read on is UTF-8.
    pub fn open(path: &Path, limit: u64, seen: Option<(u64, u64)>) -> Result<Self, ReadError> {
        let (mut file, _) = open_checked(path, limit, seen)?;
        let (len, bom) = check_whole(&mut file, limit)?;
        let skip = if bom { 3 } else { 0 };
        file.seek(SeekFrom::Start(skip))
            .map_err(|e| ReadError(describe_io(&e)))?;
        Ok(LineFile {
            reader: BufReader::with_capacity(BLOCK, file.take(len)),
            len,
            bom,
            read: 0,
        })
    }

    /// The length of the text in bytes (after any byte order mark).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the file starts with a UTF-8 byte order mark (not part of the text).
    pub fn bom(&self) -> bool {
        self.bom
    }

    /// Appends the next line, with its `\n` if it has one, to `text`: how many bytes, none at
    /// the end of the text. A file that no longer reads as it did when checked (cut short, or
    /// no longer UTF-8) is an error.
    pub fn append_line(&mut self, text: &mut String) -> Result<usize, ReadError> {
        let io = |e: std::io::Error| ReadError(describe_io(&e));
        // A line longer than what is buffered is measured first and room made for it once: a
        // line of a hundred megabytes read into a string grown by doubling held three times
        // its size at the last doubling.
        let buffered = self.reader.fill_buf().map_err(io)?;
        if !buffered.contains(&b'\n') {
            let buffered = buffered.len();
            text.reserve(self.line_length(buffered).map_err(io)?);
        }
        let got = self.reader.read_line(text).map_err(|e| {
            if e.kind() == std::io::ErrorKind::InvalidData {
                changed()
            } else {
                ReadError(describe_io(&e))
            }
        })?;
        self.read += got as u64;
        if got == 0 && self.read != self.len {
            return Err(changed());
        }
        Ok(got)
    }

    /// The length of the line the reader is at, its `\n` included, `buffered` bytes of it (with
    /// no `\n`) already in the reader's buffer: the rest measured on the file, a few kilobytes
    /// at a time, without moving the reader. Most lines end within the first read.
    fn line_length(&self, buffered: usize) -> std::io::Result<usize> {
        use std::os::unix::fs::FileExt as _;
        const STEP: usize = 8 << 10;
        let file = self.reader.get_ref().get_ref();
        let start = if self.bom { 3 } else { 0 } + self.read;
        let end = start + (self.len - self.read);
        let mut block = [0u8; STEP];
        let mut at = start + buffered as u64;
        while at < end {
            let want = usize::try_from((end - at).min(STEP as u64)).unwrap_or(STEP);
            let got = file.read_at(&mut block[..want], at)?;
            if got == 0 {
                break;
            }
            if let Some(i) = block[..got].iter().position(|&b| b == b'\n') {
                at += i as u64 + 1;
                break;
            }
            at += got as u64;
        }
        Ok(usize::try_from(at - start).unwrap_or(0))
    }

    /// The same file, to be read again from its first line: the file opened and checked, never
    /// opened again (so never another file put at its path since).
    pub fn rewind(self) -> Result<Self, ReadError> {
        let mut file = self.reader.into_inner().into_inner();
        let skip = if self.bom { 3 } else { 0 };
        file.seek(SeekFrom::Start(skip))
            .map_err(|e| ReadError(describe_io(&e)))?;
        Ok(LineFile {
            reader: BufReader::with_capacity(BLOCK, file.take(self.len)),
            len: self.len,
            bom: self.bom,
            read: 0,
        })
    }

    /// Reads the next line into `line` (cleared first); `false` at the end of the text.
    pub fn read_line(&mut self, line: &mut String) -> Result<bool, ReadError> {
        line.clear();
        Ok(self.append_line(line)? > 0)
    }
}

impl crate::json::LineSource for LineFile {
    fn append_line(&mut self, text: &mut String) -> Result<usize, String> {
        LineFile::append_line(self, text).map_err(|e| e.0)
    }
}

/// Reads the opened `file` through once, as [`super::read_seen`] checks the bytes it reads: its
/// length after any byte order mark, and whether it had one.
fn check_whole(file: &mut File, limit: u64) -> Result<(u64, bool), ReadError> {
    let mut reader = file.take(limit.saturating_add(1));
    // The head, whole: the byte order mark and the NUL check look at its first bytes.
    let mut block = vec![0; BLOCK.max(HEAD + BOM.len())];
    let mut filled = 0;
    while filled < block.len() {
        let got = read_some(&mut reader, &mut block[filled..])?;
        if got == 0 {
            break;
        }
        filled += got;
    }
    let mut total = filled as u64;
    let bom = block[..filled].starts_with(&BOM);
    let skip = if bom { BOM.len() } else { 0 };
    check_head(&block[skip..filled])?;
    // UTF-8, block by block: a character cut by the end of a block is carried to the next.
    let mut checked: usize = 0;
    let mut carry: Vec<u8> = Vec::new();
    let mut piece: &[u8] = &block[skip..filled];
    let mut joined: Vec<u8> = Vec::new();
    loop {
        if !carry.is_empty() {
            joined.clear();
            joined.extend_from_slice(&carry);
            joined.extend_from_slice(piece);
            piece = &joined;
        }
        let at_end = total > limit || filled == 0;
        match std::str::from_utf8(piece) {
            Ok(_) => {
                checked += piece.len();
                carry.clear();
            }
            Err(e) if e.error_len().is_none() && !at_end => {
                let good = e.valid_up_to();
                checked += good;
                carry = piece[good..].to_vec();
            }
            Err(e) => return Err(not_utf8(checked + e.valid_up_to())),
        }
        if total > limit {
            return Err(grew_past(limit));
        }
        if filled == 0 {
            break;
        }
        filled = read_some(&mut reader, &mut block)?;
        total += filled as u64;
        piece = &block[..filled];
    }
    Ok((total - skip as u64, bom))
}

/// One read, retried when interrupted.
fn read_some(reader: &mut impl Read, into: &mut [u8]) -> Result<usize, ReadError> {
    loop {
        match reader.read(into) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError(describe_io(&e))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::read_seen;

    fn lines_of(path: &Path) -> Result<(Vec<String>, bool), ReadError> {
        let mut file = LineFile::open(path, 1 << 20, None)?;
        let mut out = Vec::new();
        let mut line = String::new();
        while LineFile::read_line(&mut file, &mut line)? {
            out.push(line.clone());
        }
        // Read again from the start, the same lines.
        let mut again = file.rewind()?;
        let mut second = Vec::new();
        while LineFile::read_line(&mut again, &mut line)? {
            second.push(line.clone());
        }
        assert_eq!(second, out);
        Ok((out, again.bom()))
    }

    /// Every byte string reads line by line as it reads whole: the same text, or the same error
    /// in the same words. Drawn: ASCII, multi-byte characters cut anywhere (across blocks too),
    /// byte order marks, UTF-16 marks, NUL bytes, stray bytes, sizes around the block.
    #[test]
    fn a_file_reads_by_line_as_it_reads_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.jsonl");
        let mut state = 0x5eed_u64;
        let pieces: [&[u8]; 10] = [
            b"{\"a\": 1}\n",
            "é\n".as_bytes(),
            "\u{1F600}".as_bytes(),
            b"\n\n",
            &BOM,
            &[0xFF, 0xFE],
            &[0],
            &[0xC3],
            &[0x80],
            b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        ];
        let (mut read, mut refused) = (0, 0);
        for case in 0..300 {
            let mut bytes = Vec::new();
            let target = match case % 4 {
                0 => crate::seeded::below(&mut state, 64),
                1 => BLOCK - 8 + crate::seeded::below(&mut state, 16),
                2 => 2 * BLOCK + crate::seeded::below(&mut state, 64),
                _ => crate::seeded::below(&mut state, 5000),
            };
            while bytes.len() < target {
                // Mostly text, now and then a byte that may break it.
                let k = crate::seeded::below(&mut state, 200);
                let piece = match k {
                    0..5 if case % 3 == 0 => pieces[4 + k],
                    5..20 => pieces[9],
                    _ => pieces[k % 4],
                };
                bytes.extend_from_slice(piece);
            }
            if case % 5 == 1 {
                let mut with = BOM.to_vec();
                with.extend_from_slice(&bytes);
                bytes = with;
            }
            std::fs::write(&path, &bytes).unwrap();
            let whole = read_seen(&path, 1 << 20, None);
            let by_line = lines_of(&path);
            match (whole, by_line) {
                (Ok((text, bom)), Ok((lines, bom2))) => {
                    assert_eq!(lines.concat(), text, "case {case}");
                    assert_eq!(bom, bom2);
                    assert!(lines.iter().rev().skip(1).all(|l| l.ends_with('\n')));
                    read += 1;
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a, b, "case {case}");
                    refused += 1;
                }
                (a, b) => panic!("case {case}: whole {a:?}, by line {b:?}"),
            }
        }
        assert!(read > 50 && refused > 50, "{read} read, {refused} refused");
    }

    #[test]
    fn the_limits_are_those_of_the_whole_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.jsonl");
        std::fs::write(&path, "{}\n".repeat(100)).unwrap();
        let whole = read_seen(&path, 10, None).unwrap_err();
        let lines = LineFile::open(&path, 10, None).err().unwrap();
        assert_eq!(whole, lines);
        assert!(lines.0.contains("over the 10-byte limit"), "{}", lines.0);
        let folder = LineFile::open(dir.path(), 10, None).err().unwrap();
        assert!(folder.0.contains("not a regular file"), "{}", folder.0);
    }

    /// A line longer than a block is read into room made for it once, never into a string
    /// grown by doubling (which holds up to twice the line, and three times at its last
    /// doubling); the lines after it read as they are.
    #[test]
    fn a_long_line_is_read_into_room_made_for_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.jsonl");
        let long = format!("{{\"a\": \"{}\"}}\n", "x".repeat(1_100_000));
        // The last line without its end of line.
        std::fs::write(&path, format!("{long}{{}}\n{}", long.trim_end())).unwrap();
        let mut file = LineFile::open(&path, 1 << 22, None).unwrap();
        let mut line = String::new();
        assert_eq!(file.append_line(&mut line).unwrap(), long.len());
        assert_eq!(line, long);
        assert!(
            line.capacity() <= long.len() + 64,
            "{} for {}",
            line.capacity(),
            long.len()
        );
        assert!(LineFile::read_line(&mut file, &mut line).unwrap());
        assert_eq!(line, "{}\n");
        let mut last = String::new();
        assert_eq!(file.append_line(&mut last).unwrap(), long.len() - 1);
        assert_eq!(format!("{last}\n"), long);
        assert!(last.capacity() <= long.len() + 64);
        assert_eq!(file.append_line(&mut last).unwrap(), 0);
    }

    /// A file cut short after it was checked is an error, never a shorter text read as whole.
    #[test]
    fn a_file_cut_after_its_check_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.jsonl");
        std::fs::write(&path, "{\"a\": 1}\n".repeat(10_000)).unwrap();
        let mut file = LineFile::open(&path, 1 << 20, None).unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(100)
            .unwrap();
        let mut line = String::new();
        let error = loop {
            match LineFile::read_line(&mut file, &mut line) {
                Ok(true) => {}
                Ok(false) => panic!("a cut file read to its end"),
                Err(e) => break e,
            }
        };
        assert!(
            error.0.contains("changed while it was being checked"),
            "{}",
            error.0
        );
    }
}
