//! The pointer resolver: a random pointer (the input's first line) in a random text (the
//! rest), from a random document start; and positions of random offsets.

#![no_main]

use benchlint::json::{Locator, locate, position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(all) = std::str::from_utf8(data) else {
        return;
    };
    let (pointer, text) = all.split_once('\n').unwrap_or(("", all));
    let starts = [0, 1, text.len() / 2, text.len(), text.len() + 7];
    for start in starts {
        if let Some(span) = locate(text, start, pointer) {
            assert!(
                span.start <= span.end && span.end <= text.len(),
                "{span:?} in {}",
                text.len()
            );
            let _ = position(text, span.start);
            let _ = position(text, span.end);
        }
    }
    // The report's cached resolver, over the same pointer and each of its prefixes.
    let mut locator = Locator::default();
    let mut prefix = String::new();
    for token in pointer.split('/').skip(1) {
        prefix.push('/');
        prefix.push_str(token);
        for start in starts {
            if let Some(span) = locator.locate_first_line(text, start, &prefix) {
                assert!(
                    span.start <= span.end && span.end <= text.len(),
                    "{span:?} in {}",
                    text.len()
                );
            }
        }
    }
    for off in [0, 1, 2, 3, text.len() / 3, text.len(), usize::MAX] {
        let (line, column) = position(text, off);
        assert!(line >= 1 && column >= 1);
    }
});
