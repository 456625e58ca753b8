//! The config loader: any text as `benchlint.toml`, its error rendered (with the snippet) when
//! it is refused.

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A folder that holds nothing: sidecar paths named by the config resolve to nothing.
    let path = Path::new("/nonexistent-benchlint-fuzz/benchlint.toml");
    if let Err(e) = benchlint::config::parse(text, path) {
        let _ = e.line_column();
        let _ = e.render(false);
    }
});
