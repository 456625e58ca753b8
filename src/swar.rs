//! Finding the first byte of interest eight bytes at a time (one `u64` holds eight bytes), for
//! the scans that cross long runs of plain bytes: the locator over sample arrays, the JSON
//! writer over plain text.

/// `0x01` in every byte.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte.
pub(crate) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Nonzero where a byte of `x` equals `b`: the lowest set bit always marks the first such byte
/// (a borrow may mark a byte above it too, never one below).
pub(crate) fn equal(x: u64, b: u8) -> u64 {
    let y = x ^ (ONES * u64::from(b));
    y.wrapping_sub(ONES) & !y & HIGHS
}

/// The first index at or after `from` of a byte of interest, `bytes.len()` if none. `hits`
/// marks them in an eight-byte chunk read little-endian (a high bit set in each, the lowest one
/// exact, as [`equal`] gives); `is_hit` says the same of one byte, for the tail shorter than
/// eight.
pub(crate) fn first_hit(
    bytes: &[u8],
    from: usize,
    hits: impl Fn(u64) -> u64,
    is_hit: impl Fn(u8) -> bool,
) -> usize {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let h = hits(x);
        if h != 0 {
            return i + (h.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && !is_hit(bytes[i]) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_byte_a_plain_scan_finds() {
        // Every byte value at every place of a chunk and of the tail, among plain bytes and
        // among bytes that make borrows (0x00, 0x80, 0xff).
        for fill in [b'7', 0x00, 0x80, 0xff] {
            for len in [1usize, 7, 8, 9, 16, 23] {
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut bytes = vec![fill; len];
                        bytes[at] = b;
                        for target in [b'"', b'{', 0x00, 0x7f, 0xff] {
                            let plain = bytes.iter().position(|&c| c == target).unwrap_or(len);
                            let found = first_hit(&bytes, 0, |x| equal(x, target), |c| c == target);
                            assert_eq!(found, plain, "{target:#x} in {bytes:?}");
                        }
                    }
                }
            }
        }
    }
}
