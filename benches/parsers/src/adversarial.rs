//! Odd and hostile inputs: what each whole-document parser accepts, and what it reads.
//!
//! Each (input, parser) pair runs in a child process of this binary, on a thread with Rust's
//! default 2 MiB stack (the size of a worker thread's stack), so a parser that overflows its
//! stack or aborts is reported as a crash instead of ending the run.

use std::process::Command;

use crate::dump::Dump;

/// The inputs: mostly one member `a` in an object, so the lazy lookup of `/a` applies too.
pub fn cases() -> Vec<(&'static str, Vec<u8>)> {
    let deep = |n: usize| {
        let mut v = b"{\"a\": ".to_vec();
        v.extend(std::iter::repeat_n(b'[', n));
        v.extend(std::iter::repeat_n(b']', n));
        v.push(b'}');
        v
    };
    let mut cases: Vec<(&'static str, Vec<u8>)> = vec![
        (
            "lone high surrogate \\ud800",
            br#"{"a": "x\ud800y"}"#.to_vec(),
        ),
        ("lone low surrogate \\udc00", br#"{"a": "\udc00"}"#.to_vec()),
        (
            "surrogate pair \\ud83d\\ude00",
            br#"{"a": "\ud83d\ude00"}"#.to_vec(),
        ),
        ("number 1e400", br#"{"a": 1e400}"#.to_vec()),
        ("number -1e400", br#"{"a": -1e400}"#.to_vec()),
        ("number 1e-400", br#"{"a": 1e-400}"#.to_vec()),
        ("number -0", br#"{"a": -0}"#.to_vec()),
        ("number -0.0", br#"{"a": -0.0}"#.to_vec()),
        (
            "number 2^64 = 18446744073709551616",
            br#"{"a": 18446744073709551616}"#.to_vec(),
        ),
        ("number 2^64-1", br#"{"a": 18446744073709551615}"#.to_vec()),
        ("number -2^63-1", br#"{"a": -9223372036854775809}"#.to_vec()),
        (
            "number 0.1 with 40 more digits",
            br#"{"a": 0.1000000000000000055511151231257827021181583404541015625}"#.to_vec(),
        ),
        (
            "number 2.2250738585072011e-308",
            br#"{"a": 2.2250738585072011e-308}"#.to_vec(),
        ),
        ("number 5e-324", br#"{"a": 5e-324}"#.to_vec()),
        ("number 1.0 (float integer)", br#"{"a": 1.0}"#.to_vec()),
        ("number 1E2", br#"{"a": 1E2}"#.to_vec()),
        ("number with leading zero 01", br#"{"a": 01}"#.to_vec()),
        ("number 1.", br#"{"a": 1.}"#.to_vec()),
        ("number .5", br#"{"a": .5}"#.to_vec()),
        ("number +1", br#"{"a": +1}"#.to_vec()),
        ("token NaN", br#"{"a": NaN}"#.to_vec()),
        ("token Infinity", br#"{"a": Infinity}"#.to_vec()),
        ("token -Infinity", br#"{"a": -Infinity}"#.to_vec()),
        ("duplicate keys a=1, a=2", br#"{"a": 1, "a": 2}"#.to_vec()),
        (
            "duplicate keys, nested",
            br#"{"a": {"b": 1, "c": 0, "b": 2}}"#.to_vec(),
        ),
        (
            "invalid UTF-8 in a string",
            b"{\"a\": \"x\xff\xfey\"}".to_vec(),
        ),
        ("overlong UTF-8 (C0 AF)", b"{\"a\": \"\xc0\xaf\"}".to_vec()),
        (
            "UTF-8 of a surrogate (ED A0 80)",
            b"{\"a\": \"\xed\xa0\x80\"}".to_vec(),
        ),
        ("invalid UTF-8 outside strings", b"{\"a\": 1}\xff".to_vec()),
        (
            "BOM before the document",
            b"\xef\xbb\xbf{\"a\": 1}".to_vec(),
        ),
        ("trailing comma in an array", br#"{"a": [1, 2,]}"#.to_vec()),
        ("trailing comma in an object", br#"{"a": 1,}"#.to_vec()),
        (
            "raw control character in a string",
            b"{\"a\": \"x\x01y\"}".to_vec(),
        ),
        ("raw tab in a string", b"{\"a\": \"x\ty\"}".to_vec()),
        ("NUL escape \\u0000", br#"{"a": "x\u0000y"}"#.to_vec()),
        ("invalid escape \\x", br#"{"a": "\x41"}"#.to_vec()),
        ("single quotes", br#"{'a': 1}"#.to_vec()),
        ("comment", b"{\"a\": 1 /* c */}".to_vec()),
        ("trailing garbage", br#"{"a": 1} x"#.to_vec()),
        ("two documents", br#"{"a": 1} {"a": 2}"#.to_vec()),
        (
            "error after the member looked up",
            br#"{"a": 1, "b": tru}"#.to_vec(),
        ),
        ("unclosed document", br#"{"a": 1, "b": [1, 2"#.to_vec()),
        ("empty input", Vec::new()),
        ("whitespace only", b" \n\t ".to_vec()),
        ("top-level scalar", b"42".to_vec()),
        ("form feed as whitespace", b"{\"a\":\x0c1}".to_vec()),
        ("nesting depth 127 (object + 126 arrays)", deep(126)),
        ("nesting depth 128", deep(127)),
        ("nesting depth 129", deep(128)),
        ("nesting depth 256", deep(255)),
        ("nesting depth 257", deep(256)),
        ("nesting depth 1,024", deep(1_023)),
        ("nesting depth 1,025", deep(1_024)),
        ("nesting depth 10,000", deep(9_999)),
        ("nesting depth 100,000", deep(99_999)),
    ];
    // A key that is not the canonical one but equal after unescaping.
    cases.push((
        "escaped key \\u0061 then a",
        br#"{"\u0061": 1, "a": 2}"#.to_vec(),
    ));
    cases
}

pub const PARSERS: &[&str] = &[
    "serde_json Value",
    "simd-json borrowed",
    "simd-json -> serde_json Value",
    "sonic-rs Value",
    "sonic-rs -> serde_json Value",
    "sonic-rs get /a",
];

/// The lazy lookup prints only the member's text: only its acceptance is compared.
const LAZY: usize = 5;

/// What a parser made of an input: `Ok(what it read, printed)` or `Err(its message)`.
fn parse(parser: usize, bytes: &[u8]) -> Result<String, String> {
    match parser {
        0 => serde_json::from_slice::<serde_json::Value>(bytes)
            .map(|v| v.dump())
            .map_err(|e| e.to_string()),
        #[cfg(feature = "simd")]
        1 => {
            let mut buf = bytes.to_vec();
            simd_json::to_borrowed_value(&mut buf)
                .map(|v| v.dump())
                .map_err(|e| e.to_string())
        }
        #[cfg(feature = "simd")]
        2 => {
            let mut buf = bytes.to_vec();
            simd_json::serde::from_slice::<serde_json::Value>(&mut buf)
                .map(|v| v.dump())
                .map_err(|e| e.to_string())
        }
        #[cfg(feature = "sonic")]
        3 => sonic_rs::from_slice::<sonic_rs::Value>(bytes)
            .map(|v| v.dump())
            .map_err(|e| e.to_string()),
        #[cfg(feature = "sonic")]
        4 => sonic_rs::from_slice::<serde_json::Value>(bytes)
            .map(|v| v.dump())
            .map_err(|e| e.to_string()),
        #[cfg(feature = "sonic")]
        LAZY => sonic_rs::get(bytes, ["a"].iter())
            .map(|v| format!("/a = {}", v.as_raw_str()))
            .map_err(|e| e.to_string()),
        _ => Err("not built".into()),
    }
}

/// Runs one pair here (the child's side): prints `ok TEXT` or `err MESSAGE` on one line.
pub fn run_one(case: usize, parser: usize) {
    let cases = cases();
    let bytes = cases[case].1.clone();
    let result = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || parse(parser, &bytes))
        .expect("thread")
        .join();
    match result {
        Ok(Ok(text)) => println!("ok {}", one_line(&text)),
        Ok(Err(msg)) => println!("err {}", one_line(&msg)),
        Err(_) => println!("panic"),
    }
}

fn one_line(s: &str) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() > 70 {
        let head: String = s.chars().take(67).collect();
        format!("{head}...")
    } else {
        s
    }
}

/// Runs every pair in a child process and prints the table, then the differences from
/// serde_json.
pub fn report() {
    let exe = std::env::current_exe().expect("current exe");
    let cases = cases();
    let mut rows = Vec::new();
    for (i, (name, _)) in cases.iter().enumerate() {
        let mut cells = Vec::new();
        for p in 0..PARSERS.len() {
            let out = Command::new(&exe)
                .args(["--adversarial-one", &i.to_string(), &p.to_string()])
                .output()
                .expect("child");
            let line = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            let cell = if !out.status.success() {
                use std::os::unix::process::ExitStatusExt;
                let why = out.status.signal().map_or_else(
                    || format!("exit {}", out.status.code().unwrap_or(-1)),
                    |s| format!("signal {s}"),
                );
                let err = String::from_utf8_lossy(&out.stderr);
                let hint = if err.contains("overflow") {
                    ", stack overflow"
                } else {
                    ""
                };
                format!("CRASH ({why}{hint})")
            } else if let Some(text) = line.strip_prefix("ok ") {
                format!("accept: {text}")
            } else if let Some(msg) = line.strip_prefix("err ") {
                format!("reject: {msg}")
            } else {
                line
            };
            cells.push(cell);
        }
        rows.push((*name, cells));
    }
    println!("\n## Odd and hostile inputs (each parse on a 2 MiB stack)\n");
    for (name, cells) in &rows {
        println!("{name}");
        for (p, cell) in cells.iter().enumerate() {
            println!("    {:<20} {cell}", PARSERS[p]);
        }
    }
    println!("\n## Where each parser differs from serde_json's Value\n");
    println!(
        "| input | serde_json Value | {} |",
        PARSERS[1..].join(" | ")
    );
    println!("|---|---|{}", "---|".repeat(PARSERS.len() - 1));
    for (name, cells) in &rows {
        let verdict = |c: &str| -> String {
            if c.starts_with("accept") {
                c.to_owned()
            } else if c.starts_with("reject") {
                "reject".to_owned()
            } else {
                c.to_owned()
            }
        };
        let base = verdict(&cells[0]);
        let differs: Vec<String> = cells[1..]
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let v = verdict(c);
                // The lazy lookup prints only the member's text: compare acceptance alone.
                let same = if k + 1 == LAZY {
                    v.starts_with("accept") == base.starts_with("accept")
                } else {
                    v == base
                };
                if same {
                    "same".to_owned()
                } else {
                    c.replace('|', "\\|")
                }
            })
            .collect();
        if differs.iter().any(|d| d != "same") {
            println!(
                "| {name} | {} | {} |",
                cells[0].replace('|', "\\|"),
                differs.join(" | ")
            );
        }
    }
}
