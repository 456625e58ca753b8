//! The invariants every output keeps, checked on one output of a given kind: no raw control,
//! bidirectional or invisible character, no runner command, nothing live, no secret.

use super::inert::{csv_is_inert, html_is_inert, markdown_is_inert};

/// How an output is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A terminal or a log: text, JSON, CSV, XML.
    Plain,
    /// The human format with `--color always`: SGR colour sequences of benchlint's own.
    Coloured,
    /// `--format github`: every line is a workflow command of benchlint's own.
    Github,
    /// `summary --format csv`: also no cell a spreadsheet would evaluate.
    Csv,
    /// Markdown.
    Markdown,
    /// HTML.
    Html,
}

/// The characters no output may hold raw (line feeds and tabs aside).
pub fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// Asserts every invariant on one output.
#[track_caller]
pub fn check(what: &str, bytes: &[u8], kind: Kind, secrets: &[String]) {
    let text = String::from_utf8_lossy(bytes);
    let around = |at: usize| {
        let s = text[..at]
            .char_indices()
            .rev()
            .nth(120)
            .map_or(0, |(i, _)| i);
        let e = text[at..]
            .char_indices()
            .nth(120)
            .map_or(text.len(), |(i, _)| at + i);
        format!("{:?}", &text[s..e])
    };
    // 1. Raw control, bidirectional, invisible characters (a coloured report's own SGR aside).
    for (i, c) in text.char_indices() {
        if c == '\u{1b}' && kind == Kind::Coloured {
            let rest = &text[i + 1..];
            let sgr = rest.starts_with('[')
                && rest[1..]
                    .find(|x: char| !(x.is_ascii_digit() || x == ';'))
                    .is_some_and(|e| rest[1 + e..].starts_with('m'));
            assert!(
                sgr,
                "{what}: an escape that is not a colour at {}",
                around(i)
            );
            continue;
        }
        assert!(
            !forbidden(c),
            "{what}: raw {:?} (U+{:04X}) at {}",
            c,
            c as u32,
            around(i)
        );
    }
    // 2. Workflow commands: only the github format writes them, one per line, its own.
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if kind == Kind::Github {
            let Some((head, _)) = t.split_once("::").filter(|_| t.starts_with("::")).map(|_| {
                let body = &t[2..];
                body.split_once("::").unwrap_or((body, ""))
            }) else {
                panic!("{what}: line {} is not a workflow command: {line:?}", n + 1);
            };
            let (command, props) = head.split_once(' ').unwrap_or((head, ""));
            assert!(
                matches!(command, "error" | "warning" | "notice"),
                "{what}: command {command:?} in {line:?}"
            );
            for prop in props.split(',') {
                let key = prop.split_once('=').map_or(prop, |(k, _)| k);
                assert!(
                    matches!(
                        key,
                        "file" | "line" | "col" | "endLine" | "endColumn" | "title"
                    ),
                    "{what}: property {key:?} in {line:?}"
                );
            }
        } else {
            assert!(
                !t.starts_with("::"),
                "{what}: line {} could be a workflow command: {line:?}",
                n + 1
            );
        }
    }
    // 2b. The commands GitHub's runner (`##[...]`), Azure Pipelines (`##vso[...]`) and TeamCity
    // (`##teamcity[...]`) read anywhere in a line: never, in any output.
    for (n, line) in text.lines().enumerate() {
        // `##`, letters (none, `vso`, `teamcity`), `[`.
        let live = line.match_indices("##").any(|(i, _)| {
            line[i + 2..]
                .bytes()
                .find(|b| !b.is_ascii_alphabetic())
                .is_some_and(|b| b == b'[')
        });
        assert!(
            !live,
            "{what}: line {} holds a runner command: {line:?}",
            n + 1
        );
    }
    // 3. Live HTML and links; live formulas.
    match kind {
        Kind::Csv => csv_is_inert(what, &text),
        Kind::Markdown => markdown_is_inert(what, &text),
        Kind::Html => html_is_inert(what, &text),
        _ => {}
    }
    // 4. Secrets.
    for s in secrets {
        if let Some(at) = text.find(s.as_str()) {
            panic!("{what}: shows the secret {s:?} at {}", around(at));
        }
    }
}
