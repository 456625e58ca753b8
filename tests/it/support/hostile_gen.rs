//! Hostile strings of many shapes, generated from a seed, and the invariants every output of
//! benchlint keeps whatever its input holds: no raw control, bidirectional or invisible
//! character, no GitHub Actions workflow command on a line of its own, no `##[` or `##vso[`
//! command of GitHub's or Azure's runner anywhere in a line, no live formula in a CSV cell, no
//! live HTML or link in Markdown and HTML, no secret.

#![allow(dead_code, reason = "each test file uses a part")]

mod inert;
mod invariants;

pub use invariants::{Kind, check};

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
