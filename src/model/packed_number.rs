//! The numbers of a packed level ([`super::packed_level`]), each in a few bytes: a whole
//! number as LEB128, a figure as a whole number and a power of ten when that division gives
//! back its very bits, else as its eight bytes.

/// The scale tag of a figure written as its eight bytes.
const RAW: u64 = 15;
/// Exact powers of ten, 10^0 to 10^14, by scale.
pub(super) const POW10: [f64; 15] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
];
/// Whole numbers up to this are exact in an f64.
const EXACT: f64 = 9_007_199_254_740_992.0;

/// LEB128: seven bits a byte, low first.
pub(super) fn write_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        #[expect(clippy::cast_possible_truncation, reason = "the low seven bits")]
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    #[expect(clippy::cast_possible_truncation, reason = "below 0x80")]
    out.push(v as u8);
}

/// A figure as `zigzag(m) << 4 | k` for `m / 10^k`, or the tag [`RAW`] and its eight bytes.
pub(super) fn write_figure(out: &mut Vec<u8>, v: f64) {
    if let Some((m, k)) = decimal(v) {
        let zigzag = (m << 1) ^ (m >> 63);
        #[expect(clippy::cast_sign_loss, reason = "zigzag is the unsigned form")]
        write_varint(out, ((zigzag as u64) << 4) | k);
    } else {
        write_varint(out, RAW);
        out.extend_from_slice(&v.to_bits().to_le_bytes());
    }
}

/// The smallest scale `k` and whole `m` with `m / 10^k` the very same bits as `v`.
fn decimal(v: f64) -> Option<(i64, u64)> {
    for (k, p) in (0u64..).zip(POW10) {
        let m = (v * p).round();
        if m.is_nan() || m.abs() >= EXACT {
            return None;
        }
        #[expect(clippy::cast_possible_truncation, reason = "whole and below 2^53")]
        let m = m as i64;
        if figure_of(m, k).to_bits() == v.to_bits() {
            return Some((m, k));
        }
    }
    None
}

fn figure_of(m: i64, k: u64) -> f64 {
    #[expect(clippy::cast_precision_loss, reason = "below 2^53, exact")]
    let m = m as f64;
    m / POW10[usize::try_from(k).unwrap_or(0).min(POW10.len() - 1)]
}

pub(super) fn read_figure(r: &mut Reader<'_>) -> f64 {
    let tag = r.varint();
    if tag == RAW {
        let mut bits = [0; 8];
        for b in &mut bits {
            *b = r.byte();
        }
        return f64::from_bits(u64::from_le_bytes(bits));
    }
    let zigzag = tag >> 4;
    #[expect(clippy::cast_possible_wrap, reason = "zigzag back to signed")]
    let m = (zigzag >> 1) as i64 ^ -((zigzag & 1) as i64);
    figure_of(m, tag & 0xf)
}

/// Reads the bytes this module wrote; past the end it reads zeros rather than panicking.
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    pub(super) at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    pub(super) fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    pub(super) fn varint(&mut self) -> u64 {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte();
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                break;
            }
        }
        v
    }
}
