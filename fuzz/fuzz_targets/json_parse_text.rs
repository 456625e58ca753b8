//! The tolerant JSON reader: any text, with and without JSON Lines splitting, with the default
//! bounds and with tiny ones (so the depth check and the array cut run on every input); the
//! typed parse (sample arrays read straight into numbers) agrees with it on every input.

#![no_main]

use benchlint::json::{Limits, parse_text, parse_text_typed, parse_text_with, restore_samples};
use libfuzzer_sys::fuzz_target;

fn check(text: &str, by_line: bool, limits: &Limits) {
    let p = parse_text_with(text, by_line, limits);
    for d in &p.documents {
        assert!(d.start <= text.len());
    }
    for f in &p.failures {
        assert!(
            f.offset <= text.len(),
            "failure offset {} past {}",
            f.offset,
            text.len()
        );
    }
    for n in &p.nonstandard {
        assert!(
            text[n.offset..].starts_with(n.token),
            "token {} not at {}",
            n.token,
            n.offset
        );
    }
    for k in &p.duplicate_keys {
        assert_eq!(text.as_bytes()[k.offset], b'"');
    }
    for t in &p.truncated_arrays {
        assert_eq!(text.as_bytes()[t.offset], b'[');
        assert!(t.items > t.kept);
    }
    let typed = parse_text_typed(text, by_line, limits, "benchlint/result/v1");
    assert_eq!(typed.failures, p.failures);
    assert_eq!(typed.nonstandard, p.nonstandard);
    assert_eq!(typed.duplicate_keys, p.duplicate_keys);
    assert_eq!(typed.wide_integers, p.wide_integers);
    assert_eq!(typed.truncated_arrays, p.truncated_arrays);
    assert_eq!(typed.documents.len(), p.documents.len());
    for (t, d) in typed.documents.iter().zip(&p.documents) {
        let mut value = t.value.clone();
        restore_samples(&mut value, &t.samples, text);
        assert_eq!(value, d.value);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_text(text, false);
    let _ = parse_text(text, true);
    let tiny = Limits {
        max_depth: 4,
        max_array_items: 2,
        max_failures: 3,
    };
    for by_line in [false, true] {
        check(text, by_line, &Limits::default());
        check(text, by_line, &tiny);
    }
});
