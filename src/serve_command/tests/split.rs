//! `split_command_line`: quotes, escapes, line continuations, comments, Unicode.

use super::*;

// ---------------------------------------------------------------------------------------
// split_command_line
// ---------------------------------------------------------------------------------------

#[test]
fn split_keeps_single_quoted_json_as_one_word() {
    let line =
        r#"vllm serve m --speculative-config '{"method": "eagle", "num_speculative_tokens": 4}'"#;
    assert_eq!(
        words(line),
        [
            "vllm",
            "serve",
            "m",
            "--speculative-config",
            r#"{"method": "eagle", "num_speculative_tokens": 4}"#,
        ]
    );
}

#[test]
fn split_double_quotes_unescape_only_shell_specials() {
    let line = r#"a "{\"k\": \"v\"}" "x\ny" "\$HOME" "c:\path""#;
    assert_eq!(
        words(line),
        ["a", r#"{"k": "v"}"#, "x\\ny", "$HOME", "c:\\path"]
    );
}

#[test]
fn split_joins_line_continuations() {
    let line = "vllm serve m \\\n  --tensor-parallel-size 4 \\\r\n  --max-num-seqs 64\n";
    assert_eq!(
        words(line),
        [
            "vllm",
            "serve",
            "m",
            "--tensor-parallel-size",
            "4",
            "--max-num-seqs",
            "64"
        ]
    );
    // A continuation inside a word glues the halves together, as in sh.
    assert_eq!(words("--max-num-\\\nseqs"), ["--max-num-seqs"]);
    assert_eq!(words("\"ab\\\ncd\""), ["abcd"]);
}

#[test]
fn split_handles_escapes_empty_words_comments_and_no_expansion() {
    assert_eq!(words(r"a\ b c\\d"), ["a b", r"c\d"]);
    assert_eq!(words("x '' \"\" y"), ["x", "", "", "y"]);
    assert_eq!(words("a # comment\nb c#d"), ["a", "b", "c#d"]);
    assert_eq!(words("$MODEL ~/x *.json"), ["$MODEL", "~/x", "*.json"]);
    assert_eq!(words("  \t \n "), Vec::<String>::new());
}

#[test]
fn split_survives_unterminated_quotes_and_trailing_backslash() {
    assert_eq!(words("a 'b c"), ["a", "b c"]);
    assert_eq!(words("a \"b \\"), ["a", "b \\"]);
    assert_eq!(words("a \\"), ["a", "\\"]);
}

#[test]
fn split_keeps_unicode_intact() {
    assert_eq!(
        words("m\u{e9}del 'd\u{e9}j\u{e0} vu' \u{1F680}\\ x"),
        ["m\u{e9}del", "d\u{e9}j\u{e0} vu", "\u{1F680} x"]
    );
}
