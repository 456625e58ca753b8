//! A [`Text`] written as bytes and read back as the same variant with the same parts, for a
//! finding held on disk until the end of a run: every writer then shows it as it showed the text
//! it was made from (a quoting sentence stays one, a joined text stays joined).

use std::borrow::Cow;

use super::{Joined, Part, Text};
use crate::text::bytes::{Reader, put_str, put_u8, put_usize};

const OWN: u8 = 0;
const FILE: u8 = 1;
const QUOTING: u8 = 2;
const PARTS: u8 = 3;
const JOINED: u8 = 4;

impl Text {
    /// The bytes this text's parts hold: what a held finding weighs beyond its own size.
    pub fn stored_len(&self) -> usize {
        let mut n = 0;
        self.each(&mut |_, s| n += s.len());
        n
    }

    /// Appends this text's bytes to `out` ([`Text::read_from`] reads them back).
    pub fn write_to(&self, out: &mut Vec<u8>) {
        match self {
            Text::Own(s) => {
                put_u8(out, OWN);
                put_str(out, s);
            }
            Text::File(s) => {
                put_u8(out, FILE);
                put_str(out, s);
            }
            Text::Quoting(s) => {
                put_u8(out, QUOTING);
                put_str(out, s);
            }
            Text::Parts(parts) => {
                put_u8(out, PARTS);
                put_usize(out, parts.len());
                for p in parts {
                    put_u8(out, u8::from(matches!(p, Part::File(_))));
                    put_str(out, p.as_str());
                }
            }
            Text::Joined(j) => {
                put_u8(out, JOINED);
                put_str(out, &j.text);
                put_usize(out, j.ends.len());
                for &(end, file) in &j.ends {
                    put_usize(out, end as usize);
                    put_u8(out, u8::from(file));
                }
            }
        }
    }

    /// The text [`Text::write_to`] wrote at the reader's place; `None` for bytes it would not
    /// have written (a part ending outside its text or inside a character).
    pub fn read_from(r: &mut Reader<'_>) -> Option<Text> {
        Some(match r.u8()? {
            OWN => Text::Own(Cow::Owned(r.str()?.to_string())),
            FILE => Text::File(r.str()?.to_string()),
            QUOTING => Text::Quoting(r.str()?.to_string()),
            PARTS => {
                let n = r.usize()?;
                // Each part takes nine bytes at least: a count past that is damage.
                let mut parts = Vec::with_capacity(n.min(1 << 16));
                for _ in 0..n {
                    let file = r.bool()?;
                    let s = r.str()?.to_string();
                    parts.push(if file {
                        Part::File(s)
                    } else {
                        Part::Own(Cow::Owned(s))
                    });
                }
                Text::Parts(parts)
            }
            JOINED => {
                let text: Box<str> = r.str()?.into();
                let n = r.usize()?;
                let mut ends = Vec::with_capacity(n.min(1 << 16));
                let mut last = 0;
                for _ in 0..n {
                    let end = r.usize()?;
                    if end < last || !text.is_char_boundary(end) {
                        return None;
                    }
                    last = end;
                    ends.push((u32::try_from(end).ok()?, r.bool()?));
                }
                Text::Joined(Box::new(Joined {
                    text,
                    ends: ends.into_boxed_slice(),
                }))
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(t: &Text) -> Text {
        let mut out = Vec::new();
        t.write_to(&mut out);
        let mut r = Reader::new(&out);
        let back = Text::read_from(&mut r).expect("reads back");
        assert!(r.is_done());
        back
    }

    #[test]
    fn every_variant_reads_back_as_itself() {
        let mut parts = Text::own("configuration ");
        parts.push_file("cfg-ü\u{202e}");
        parts.push_own(" ran once");
        let mut joined = parts.clone();
        joined.compact();
        assert!(matches!(joined, Text::Joined(_)));
        for t in [
            Text::own("all own"),
            Text::file("from a file: sk-live-0123456789abcdef"),
            Text::quoting("quoting `x`"),
            parts,
            joined,
            Text::default(),
        ] {
            let back = round_trip(&t);
            assert_eq!(std::mem::discriminant(&back), std::mem::discriminant(&t));
            assert_eq!(back, t);
            assert_eq!(back.line(), t.line());
            assert_eq!(back.masked(), t.masked());
        }
    }

    #[test]
    fn damaged_bytes_read_as_none() {
        let mut joined = Text::own("é");
        joined.push_file("x");
        joined.compact();
        let mut out = Vec::new();
        joined.write_to(&mut out);
        // The first part's end, moved inside the `é`.
        let at = 1 + 8 + "éx".len() + 8;
        out[at] = 1;
        assert!(Text::read_from(&mut Reader::new(&out)).is_none());
        assert!(Text::read_from(&mut Reader::new(&[9])).is_none());
        for cut in 0..out.len() {
            assert!(Text::read_from(&mut Reader::new(&out[..cut])).is_none());
        }
    }
}
