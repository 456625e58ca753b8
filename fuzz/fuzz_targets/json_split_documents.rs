//! The document splitter and the pre-parse scan: segments in order, inside the text, on
//! character boundaries; cuts that map back.

#![no_main]

use benchlint::json::{Limits, cut, scan, split_documents};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for by_line in [false, true] {
        let mut last = 0;
        for s in split_documents(text, by_line) {
            assert!(
                last <= s.start && s.start < s.end && s.end <= text.len(),
                "{s:?} after {last}"
            );
            let piece = &text[s.start..s.end];
            last = s.end;
            let found = scan(
                piece,
                &Limits {
                    max_depth: 16,
                    max_array_items: 2,
                    ..Limits::default()
                },
            );
            let (short, cuts) = cut(piece, &found.long_arrays);
            assert!(short.len() <= piece.len());
            assert!(cuts.to_original(short.len()) <= piece.len());
        }
    }
});
