//! Hostile strings of many shapes, generated from a seed, and the invariants every output of
//! benchlint keeps whatever its input holds: no raw control, bidirectional or invisible
//! character, no GitHub Actions workflow command on a line of its own, no `##[` or `##vso[`
//! command of GitHub's or Azure's runner anywhere in a line, no live formula in a CSV cell, no
//! live HTML or link in Markdown and HTML, no secret.

#![allow(dead_code, reason = "each test file uses a part")]

/// A small deterministic generator (xorshift64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// `n` characters from `alphabet`.
    pub fn word(&mut self, alphabet: &str, n: usize) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        (0..n).map(|_| chars[self.below(chars.len())]).collect()
    }
}

const UPPER: &str = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const ALNUM: &str = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// Fragments that act on a terminal, a log or a renderer, or hide or reorder text.
pub const ACTIVE: [&str; 48] = [
    // The older GitHub form and Azure Pipelines' commands, live anywhere in a line.
    "##[error]pwned",
    "x ##[set-output name=a;]b",
    "##[stop-commands]tok",
    "###[group]g",
    "##vso[task.setvariable variable=x]y",
    "a##vso[task.complete result=Succeeded;]",
    "##[section]s",
    "##teamcity[message text='x']",
    "#",
    "##",
    // Spreadsheet formula leaders, live at the start of a CSV cell.
    "=HYPERLINK(\"https://evil.example/\",\"x\")",
    "+1+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "\u{1b}[2J",
    "\u{1b}[31mred\u{1b}[0m",
    "\u{1b}]8;;https://evil.example/\u{7}link\u{1b}]8;;\u{7}",
    "\u{1b}]0;owned\u{7}",
    "\u{7}",
    "\u{8}\u{8}\u{8}",
    "\r",
    "\n",
    "\r\n",
    "\t",
    "\u{7f}",
    "\u{9b}31m",
    "\u{85}",
    "\u{202e}",
    "\u{202a}",
    "\u{2066}",
    "\u{2069}",
    "\u{200e}",
    "\u{061c}",
    "\u{200b}",
    "\u{200d}",
    "\u{2060}",
    "\u{feff}",
    "\u{ad}",
    "\u{e0041}\u{e0042}",
    "\u{fe0f}",
    "\u{2028}",
    "\u{2029}",
    "\n::error file=a.json,line=1::pwned",
    "\r\n::warning::x",
    "::add-mask::x",
    "\n  ::set-output name=a::b",
    "::stop-commands::tok",
    "\u{0}",
];

/// Fragments that are markup in Markdown or HTML.
pub const MARKUP: [&str; 16] = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "\"><svg/onload=alert(1)>",
    "javascript:alert(1)",
    "[click](javascript:alert(1))",
    "![i](https://evil.example/p.png)",
    "`",
    "``",
    "```",
    "`` ` ``",
    "|",
    "\\",
    "*bold*",
    "# head",
    "&lt;b&gt;",
    "https://evil.example/x www.evil.example",
];

/// A secret in one of the shapes benchlint must recognise, and its core: the part that must
/// never appear in any output.
pub fn secret(rng: &mut Rng) -> (String, String) {
    let core = rng.word(ALNUM, 36);
    let up = rng.word(UPPER, 16);
    let short = format!("{}9{}", rng.word(ALNUM, 6), rng.word(ALNUM, 3));
    match rng.below(24) {
        0 => (format!("sk-proj-{core}"), core),
        1 => (format!("xoxp-1234567890-{core}"), core),
        2 => (format!("AKIA{up}"), up),
        3 => (format!("ASIA{up}"), up),
        4 => (format!("AIza{}", &core[..35]), core[..35].to_string()),
        5 => (
            format!("eyJhbGciOiJIUzI1NiJ9.eyJ{core}.{}", rng.word(ALNUM, 20)),
            core,
        ),
        6 => (format!("sk_live_{core}"), core),
        7 => (format!("npm_{core}"), core),
        8 => (format!("ghp_{core}"), core),
        9 => (format!("hf_{core}"), core),
        10 => (format!("nvapi-{core}"), core),
        11 => (format!("glpat-{core}"), core),
        12 => (format!("Bearer {short}"), short),
        13 => (format!("Basic {core}=="), core),
        14 => (format!("https://admin:{short}@db.example.com/x"), short),
        15 => (format!("PGPASSWORD={short}"), short),
        16 => (format!("OPENAI_API_KEY={short}"), short),
        17 => (format!("--api-key {short}"), short),
        18 => (format!("--api-key={short}"), short),
        19 => (format!("--secret-key {short}"), short),
        20 => (format!("password: {short}"), short),
        21 => (format!("\"api_key\": \"{short}\""), short),
        22 => (format!("Authorization: Bearer {short}"), short),
        _ => (format!("token={short}"), short),
    }
}

/// What stands around a credential in real text: it is a word of its own, or quoted, or an
/// assignment, or one part of a name or a path.
const DELIMITERS: [&str; 10] = [" ", "\"", "'", "=", ",", "(", "/", "\n", "-", "_"];

/// One hostile string: up to four fragments (active, markup, a secret, plain words) in a random
/// order; the cores of its secrets are added to `secrets`.
pub fn hostile(rng: &mut Rng, secrets: &mut Vec<String>) -> String {
    let mut out = String::new();
    for _ in 0..=rng.below(4) {
        match rng.below(5) {
            0 | 1 => out.push_str(rng.pick(&ACTIVE)),
            2 => out.push_str(rng.pick(&MARKUP)),
            3 => {
                let (s, core) = secret(rng);
                secrets.push(core);
                out.push_str(rng.pick(&DELIMITERS));
                out.push_str(&s);
                out.push_str(rng.pick(&DELIMITERS));
            }
            _ => out.push_str(rng.pick(&["model", "a b", "run-1", "é", "日本", "x/y"])),
        }
        if rng.below(3) == 0 {
            out.push(' ');
        }
    }
    out
}

/// A hostile string with no NUL (for argv and file names) and no `/` (for file names).
pub fn hostile_name(rng: &mut Rng, secrets: &mut Vec<String>) -> String {
    hostile(rng, secrets).replace(['\0', '/'], "_")
}

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

/// The cells of a CSV text (RFC 4180: quoted cells may hold commas, quotes and line breaks).
fn csv_cells(text: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (false, '"') if cell.is_empty() => quoted = true,
            (false, ',' | '\n') => cells.push(std::mem::take(&mut cell)),
            (_, c) => cell.push(c),
        }
    }
    cells.push(cell);
    cells
}

/// No cell starts with what makes a spreadsheet evaluate it (`=`, `+`, `@`, a tab, a carriage
/// return, or a `-` that does not begin a number), leading spaces aside.
fn csv_is_inert(what: &str, text: &str) {
    for cell in csv_cells(text) {
        let t = cell.trim_start_matches(' ');
        let live = match t.chars().next() {
            Some('=' | '+' | '@' | '\t' | '\r') => true,
            Some('-') => t.parse::<f64>().is_err(),
            _ => false,
        };
        assert!(
            !live,
            "{what}: a CSV cell a spreadsheet evaluates: {cell:?}"
        );
    }
}

/// A rule page's file name as benchlint writes it: `e001-unreadable-file.md` (lowercased).
fn is_rule_page_name(t: &str) -> bool {
    let Some(stem) = t.strip_suffix(".md") else {
        return false;
    };
    let Some((code, name)) = stem.split_once('-') else {
        return false;
    };
    code.len() == 4
        && code.starts_with(|c: char| c.is_ascii_lowercase())
        && code[1..].chars().all(|c| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
}

/// Outside code spans (found as CommonMark finds them: a run of n backticks closed by the next
/// run of exactly n), Markdown holds no HTML tag and no link but benchlint's own rule pages
/// and anchors.
#[expect(clippy::many_single_char_names, reason = "a scanner's indices")]
fn markdown_is_inert(what: &str, text: &str) {
    for line in text.lines() {
        let b: Vec<char> = line.chars().collect();
        let mut outside = String::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == '\\' && i + 1 < b.len() {
                outside.push(' ');
                i += 2;
                continue;
            }
            if b[i] == '`' {
                let n = b[i..].iter().take_while(|&&c| c == '`').count();
                // The closing run of exactly n backticks.
                let mut j = i + n;
                let mut close = None;
                while j < b.len() {
                    if b[j] == '`' {
                        let m = b[j..].iter().take_while(|&&c| c == '`').count();
                        if m == n {
                            close = Some(j + m);
                            break;
                        }
                        j += m;
                    } else {
                        j += 1;
                    }
                }
                if let Some(end) = close {
                    outside.push_str(" CODE ");
                    i = end;
                } else {
                    outside.push_str(&"`".repeat(n));
                    i += n;
                }
                continue;
            }
            outside.push(b[i]);
            i += 1;
        }
        let lower = outside.to_ascii_lowercase();
        let tag = lower
            .char_indices()
            .find(|&(k, c)| {
                c == '<'
                    && lower[k + 1..].chars().next().is_some_and(|n| {
                        n.is_ascii_alphabetic() || n == '/' || n == '!' || n == '?'
                    })
            })
            .map(|(k, _)| k);
        assert!(tag.is_none(), "{what}: live HTML in Markdown: {line:?}");
        // A `javascript:` is live only as a link's target: the check below.
        for (k, _) in lower.match_indices("](") {
            let target = &lower[k + 2..];
            // The index of the rule pages shipped beside a report links its sibling pages.
            let sibling_page =
                what.contains("/rules/") && target.split(')').next().is_some_and(is_rule_page_name);
            assert!(
                target.starts_with("rules/") || target.starts_with('#') || sibling_page,
                "{what}: a link that benchlint did not write: {line:?}"
            );
        }
    }
}

/// Every tag is one benchlint writes, no attribute is an event handler, no URL runs script.
fn html_is_inert(what: &str, text: &str) {
    const TAGS: [&str; 43] = [
        "!doctype",
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "main",
        "h1",
        "h2",
        "h3",
        "p",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "a",
        "code",
        "strong",
        "span",
        "section",
        "blockquote",
        "ul",
        "li",
        "figure",
        "figcaption",
        "svg",
        "g",
        "line",
        "rect",
        "circle",
        "path",
        "text",
        "defs",
        "pattern",
        "polyline",
        "br",
        "footer",
        // The rule pages shipped beside an audit report (`rules/*.html`).
        "pre",
        // The corpus report's contents and scrolling tables.
        "nav",
        "div",
    ];
    let lower = text.to_ascii_lowercase();
    for (k, _) in lower.match_indices('<') {
        let rest = &lower[k + 1..];
        let name: String = rest
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
            .collect();
        assert!(
            TAGS.contains(&name.as_str()) || ["polygon", "tspan", "title"].contains(&name.as_str()),
            "{what}: a tag benchlint does not write: {:?}",
            &text[k..(k + 80).min(text.len())]
        );
        // The tag up to its `>`, attribute values (quoted) left out: only names remain.
        let mut unquoted = String::new();
        let mut quote = None;
        for c in rest.chars() {
            match (quote, c) {
                (None, '>') => break,
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, c) => unquoted.push(c),
                (Some(_), _) => {}
            }
        }
        let inside = unquoted.as_str();
        let handler = inside
            .split(|c: char| c.is_whitespace() || c == '/')
            .any(|a| a.starts_with("on") && a.contains('='));
        assert!(!handler, "{what}: an event handler in <{inside}>");
        assert!(
            !inside.contains("javascript:"),
            "{what}: a javascript: URL in <{inside}>"
        );
    }
}
