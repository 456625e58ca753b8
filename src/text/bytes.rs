//! Plain little-endian records: what a finding held on disk until the end of a run is written as
//! and read back from. Written and read by the same process, so no version and no portability;
//! read back defensively all the same, so a short or damaged record is an answer, not a panic.

/// Appends `n`.
pub fn put_u64(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

/// Appends `n` (a length, an offset, a line).
pub fn put_usize(out: &mut Vec<u8>, n: usize) {
    put_u64(out, n as u64);
}

/// Appends one byte.
pub fn put_u8(out: &mut Vec<u8>, n: u8) {
    out.push(n);
}

/// Appends `s`, its length first.
pub fn put_str(out: &mut Vec<u8>, s: &str) {
    put_usize(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// Appends `Some` as 1 then what `put` writes, `None` as 0.
pub fn put_option<T>(out: &mut Vec<u8>, value: Option<&T>, put: impl FnOnce(&mut Vec<u8>, &T)) {
    match value {
        Some(v) => {
            out.push(1);
            put(out, v);
        }
        None => out.push(0),
    }
}

/// Reads back what the `put_` functions wrote, in the same order; every read is `None` once the
/// bytes run short or hold what no writer writes.
#[derive(Debug)]
pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { rest: bytes }
    }

    /// Whether every byte was read.
    pub fn is_done(&self) -> bool {
        self.rest.is_empty()
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.rest.len() < n {
            return None;
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Some(head)
    }

    /// A `u64`.
    pub fn u64(&mut self) -> Option<u64> {
        let bytes = self.take(8)?;
        Some(u64::from_le_bytes(bytes.try_into().ok()?))
    }

    /// A `usize`; `None` for one this machine cannot hold.
    pub fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.u64()?).ok()
    }

    /// One byte.
    pub fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    /// A flag written as 0 or 1.
    pub fn bool(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    /// A string; `None` if its bytes are not UTF-8.
    pub fn str(&mut self) -> Option<&'a str> {
        let len = self.usize()?;
        std::str::from_utf8(self.take(len)?).ok()
    }

    /// What [`put_option`] wrote, read with `read`.
    pub fn option<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        if self.bool()? {
            read(self).map(Some)
        } else {
            Some(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_written_reads_back_and_a_short_record_reads_as_none() {
        let mut out = Vec::new();
        put_u64(&mut out, u64::MAX - 3);
        put_str(&mut out, "ünïcode \u{202e} and \"quotes\"");
        put_u8(&mut out, 7);
        put_option(&mut out, Some(&42usize), |o, n| put_usize(o, *n));
        put_option::<usize>(&mut out, None, |o, n| put_usize(o, *n));
        let mut r = Reader::new(&out);
        assert_eq!(r.u64(), Some(u64::MAX - 3));
        assert_eq!(r.str(), Some("ünïcode \u{202e} and \"quotes\""));
        assert_eq!(r.u8(), Some(7));
        assert_eq!(r.option(Reader::usize), Some(Some(42)));
        assert_eq!(r.option(Reader::usize), Some(None));
        assert!(r.is_done());
        for cut in 0..out.len() {
            let mut r = Reader::new(&out[..cut]);
            let whole = r.u64().is_some()
                && r.str().is_some()
                && r.u8().is_some()
                && r.option(Reader::usize).is_some_and(|v| v.is_some())
                && r.option(Reader::usize).is_some();
            assert!(!whole, "a record cut at {cut} bytes read as whole");
        }
        // A length past the end, and bytes that are not UTF-8.
        let mut bad = Vec::new();
        put_usize(&mut bad, 1 << 40);
        assert_eq!(Reader::new(&bad).str(), None);
        let mut bad = Vec::new();
        put_usize(&mut bad, 2);
        bad.extend_from_slice(&[0xff, 0xfe]);
        assert_eq!(Reader::new(&bad).str(), None);
    }
}
