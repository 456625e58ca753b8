//! A JSON Lines file's snippets drawn from the pieces read around them, held to the snippets
//! drawn from the whole text masked: drawn files full of what makes masking reach across lines
//! (secret names at a line's end with their values on the next, `Bearer` before a line feed,
//! strings and objects left open, escapes, hidden characters, blank lines, long lines).

use miette::{SourceCode, SourceSpan};

use super::Prepared;
use super::snippet::Window;
use crate::diagnostic::{Finding, Location, Position, Severity};
use crate::engine::Summary;
use crate::seeded::below;

const KEY: &str = "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP";

/// Pieces of a line: JSON members, free text that carries a value over a line feed, and
/// broken text.
const PARTS: &[&str] = &[
    r#""model": "meta-llama/Llama-3.1-8B""#,
    r#""api_key": "hunter2hunter2""#,
    r#""token":"#,
    r#""notes": "auth Bearer"#,
    r#""cmd": ["vllm", "serve", "--api-key""#,
    r#""plainvalue99", "--port", "8000"]"#,
    "\"env\": {\"PGPASSWORD\": \"s3cr3t-pass\"}",
    "api_key =",
    "Bearer",
    "Authorization: Basic",
    "--api-key",
    "password:",
    "-u",
    "admin:pa55word",
    KEY,
    "\"url\": \"https://user:pa55w0rd@host.example/x\"",
    "\"esc\": \"quote \\\" and \\\\ and \\u0041 and %41%50%49\"",
    "\"samples\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]",
    "\"zw\": \"zero\u{200b}width \u{202e}evil\u{202c}\"",
    "\"é\": \"café\"",
    // A credential glued to a scheme: read alone unless the word after it is in sight.
    "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP-Bearer",
    "null",
    "=",
    ":",
];

/// What breaks a line's JSON, and so may carry the masking walk over its line feed.
const BREAKERS: &[&str] = &["{", "}", "[", "]", "\"open", ",", "\\"];

/// A line drawn from `PARTS`: mostly an object written compact or spaced, sometimes broken.
fn line(state: &mut u64) -> String {
    let count = 1 + below(state, 6);
    let mut parts: Vec<&str> = (0..count)
        .map(|_| PARTS[below(state, PARTS.len())])
        .collect();
    if below(state, 8) == 0 {
        let at = below(state, parts.len() + 1);
        parts.insert(at, BREAKERS[below(state, BREAKERS.len())]);
    }
    match below(state, 8) {
        0 => parts.join(" "),
        // Blank lines past a line's last word: the word its reading looks ahead to is far.
        7 => "\n".repeat(below(state, 300)),
        // A long line of free text: the line before a label can be the first of its piece.
        6 => vec![parts.join(" "); 12].join(" "),
        1 => String::new(),
        2 => " \t ".to_string(),
        3 => format!("{{{}}}", parts.join(",")),
        // A long line: past what a snippet shows whole.
        4 => format!("{{{}}}", vec![parts.join(", "); 12].join(", ")),
        _ => format!("{{{}}}", parts.join(", ")),
    }
}

/// A drawn file: lines, the last with no line feed now and then.
fn file(state: &mut u64) -> String {
    let lines = 1 + below(state, 120);
    let mut text: String = (0..lines).map(|_| line(state) + "\n").collect();
    if below(state, 4) == 0 {
        text.pop();
    }
    // Now and then the first line is JSON, so the file is read as JSON.
    if below(state, 5) != 0 {
        text.insert_str(0, "{\"first\": 1}\n");
    }
    text
}

/// The position of byte `at` of `text` (moved back to a character boundary), `len` bytes.
fn position(text: &str, mut at: usize, len: usize) -> Position {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    let mut end = (at + len).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Position {
        line,
        column,
        start: at,
        len: end - at,
        chars: text[at..end].chars().count(),
    }
}

fn finding(path: &str, code: &str) -> Finding {
    let rule = crate::rules::RULES
        .iter()
        .find(|r| r.meta.code == code)
        .expect("a rule of that code")
        .meta;
    Finding {
        rule,
        severity: Severity::Warning,
        pre_rule: false,
        primary: Location::new(path, "/x"),
        corpus: false,
        related: Vec::new(),
        message: crate::text::Text::own("m"),
        label: None,
        help: None,
        absent: None,
        key: None,
        placed: None,
    }
}

fn prepared() -> Prepared {
    Prepared {
        findings: Vec::new(),
        positions: Vec::new(),
        related_positions: Vec::new(),
        summary: Summary::default(),
        color: false,
        max_file_bytes: 1 << 24,
        files: Vec::new(),
        project: super::project::Project::default(),
        fail_on: Severity::Error,
        quiet: false,
        file_index: std::sync::OnceLock::new(),
    }
}

/// What the snippet of `pos` shows, drawn from `masked` as the human report draws it.
fn shown(masked: &super::pieces::Masked, pos: Position) -> String {
    let Some((base, piece)) = masked.piece_at(pos.start) else {
        return "no piece".into();
    };
    let at = pos.start - base;
    let window = Window::around("f".into(), piece, at, pos.line)
        .unwrap_or_else(|| Window::trimmed("f".into(), piece, (at, pos.len), pos.line, pos.column))
        .moved(base);
    let span = SourceSpan::new(pos.start.into(), window.label_len(pos.len));
    match window.read_span(&span, 1, 1) {
        Ok(c) => format!(
            "{:?} line {} column {} span {:?}",
            String::from_utf8_lossy(c.data()),
            c.line(),
            c.column(),
            c.span()
        ),
        Err(e) => format!("error {e}"),
    }
}

#[test]
fn snippets_from_the_pieces_are_those_from_the_whole_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.jsonl");
    let path_text = path.to_str().unwrap();
    let p = prepared();
    let mut state = 0x005e_ed0f_9eec_u64;
    let (mut files_in_pieces, mut held, mut whole) = (0, 0, 0);
    for case in 0..250 {
        let text = file(&mut state);
        std::fs::write(&path, &text).unwrap();
        // Labels anywhere, a few of them M018 findings on a string value.
        let labels = 1 + below(&mut state, 4);
        let mut drawn = Vec::new();
        let mut in_file = Vec::new();
        let mut positions = Vec::new();
        for _ in 0..labels {
            // Now and then past the text's end.
            let at = below(&mut state, text.len() + 1000);
            let pos = match position(&text, at.min(text.len()), 1 + below(&mut state, 30)) {
                p if at > text.len() => Position { start: at, ..p },
                p => p,
            };
            drawn.push(pos);
            in_file.push(finding(path_text, "M001"));
            positions.push(Some(pos));
        }
        for (start, _) in text.match_indices("\"hunter2").take(2) {
            let end = start + text[start + 1..].find('"').map_or(1, |e| e + 2);
            in_file.push(finding(path_text, "M018"));
            positions.push(Some(position(&text, start, end - start)));
        }
        // And one anywhere, which may run over a line feed.
        if below(&mut state, 2) == 0 {
            let at = below(&mut state, text.len() + 1);
            in_file.push(finding(path_text, "M018"));
            positions.push(Some(position(&text, at, 2 + below(&mut state, 80))));
        }
        let pieces = p
            .masked_source(path_text, &in_file, &positions, &drawn)
            .expect("the file reads");
        let reference = super::sources::reading_whole(|| {
            p.masked_source(path_text, &in_file, &positions, &drawn)
        })
        .expect("the file reads");
        // Every byte of the lines the snippets read is masked as in the whole text.
        let starts = super::pieces::label_starts(&drawn);
        for (from, to) in super::snippet::shown_regions(&text, &starts) {
            let (base, piece) = pieces.piece_at(from).expect("a piece");
            let (_, whole) = reference.piece_at(from).expect("the text");
            assert_eq!(
                &piece.as_bytes()[from - base..to - base],
                &whole.as_bytes()[from..to],
                "case {case}, lines {from}..{to} of {text:?}"
            );
        }
        for &pos in &drawn {
            assert_eq!(
                shown(&pieces, pos),
                shown(&reference, pos),
                "case {case}, label at {} of {text:?}",
                pos.start
            );
        }
        if pieces.held() < text.len() {
            files_in_pieces += 1;
        }
        held += pieces.held();
        whole += text.len();
    }
    // The drawn files cut often enough: most are read in pieces, and less than the whole
    // text is held.
    assert!(files_in_pieces > 160, "{files_in_pieces} of 250 in pieces");
    assert!(held * 10 < whole * 9, "{held} of {whole} bytes held");
}

/// The lines the snippets show, as worked out before a label within the lines already taken
/// was skipped: each region searched to its line's end, then merged.
fn regions_searching_each(text: &str, drawn: &[usize]) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut near: Vec<(usize, usize)> = drawn
        .iter()
        .map(|&at| {
            let whole = super::snippet::shown_regions(text, &[at]);
            whole[0]
        })
        .collect();
    near.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (from, to) in near {
        let to = bytes[to..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| to + i);
        match out.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => out.push((from, to)),
        }
    }
    out
}

/// Many labels on a few long lines and many short ones: the regions are those of each label's
/// lines merged, whichever labels are skipped for lying within the lines already taken.
#[test]
fn labels_within_the_lines_taken_add_nothing() {
    let mut state = 0x5_e9e5_u64;
    for case in 0..300 {
        let lines = 1 + below(&mut state, 8);
        let text: String = (0..lines)
            .map(|_| "x".repeat(below(&mut state, 3000)) + "\n")
            .collect();
        let labels = 1 + below(&mut state, 30);
        let mut drawn: Vec<usize> = (0..labels)
            .map(|_| below(&mut state, text.len() + 1))
            .collect();
        drawn.sort_unstable();
        assert_eq!(
            super::snippet::shown_regions(&text, &drawn),
            regions_searching_each(&text, &drawn),
            "case {case}: labels {drawn:?}"
        );
    }
}
