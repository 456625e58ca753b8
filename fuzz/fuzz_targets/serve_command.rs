//! The serve-command parser: any line through the shell splitter, any argv through the
//! parser; and the secret redaction of both.

#![no_main]

use benchlint::secrets::{argv_secrets, redact_argv};
use benchlint::serve_command::{parse, split_command_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let argv = split_command_line(text);
    let _ = parse(&argv);
    let redacted = redact_argv(&argv);
    assert_eq!(redacted.len(), argv.len());
    for i in argv_secrets(&argv) {
        assert!(i < argv.len());
    }
    // An argv given as a JSON array: one element per NUL-separated piece.
    let pieces: Vec<String> = text.split('\0').map(ToString::to_string).collect();
    let _ = parse(&pieces);
});
