//! The output writers: arbitrary strings in every text field a finding and an audit report can
//! carry (path, pointer, message, label, help, related places; claim ids, statements, metrics,
//! reasons, result ids, ladder labels, losing-run notes and paths, the command-line inputs),
//! one of them also a file whose snippet is drawn, through every format (human, concise, JSON,
//! JSON Lines, SARIF, GitHub, JUnit, statistics; audit Markdown, HTML and JSON). Each output
//! must hold no raw control, bidirectional or invisible character, no line that could be a
//! GitHub Actions workflow command (but the github format's own), no live HTML in Markdown or
//! HTML, and no secret the secret finder sees in the input. The input's strings are its parts
//! between `\u{1}` bytes.

#![no_main]

use benchlint::audit::{AuditReport, ClaimOutcome, ConfigLadder, LosingRun, Verdict};
use benchlint::diagnostic::{Finding, Location, Severity};
use benchlint::engine::Summary;
use benchlint::report::{self, AuditContext};
use benchlint::rules::RULES;
use benchlint::text::Text;
use libfuzzer_sys::fuzz_target;

fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{ad}'
                | '\u{61c}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// Outside code spans (a run of n backticks closed by the next run of exactly n), no tag.
fn markdown_tag(line: &str) -> bool {
    let b: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            '\\' => i += 2,
            '`' => {
                let n = b[i..].iter().take_while(|&&c| c == '`').count();
                let mut j = i + n;
                let mut end = None;
                while j < b.len() {
                    if b[j] == '`' {
                        let m = b[j..].iter().take_while(|&&c| c == '`').count();
                        if m == n {
                            end = Some(j + m);
                            break;
                        }
                        j += m;
                    } else {
                        j += 1;
                    }
                }
                i = end.unwrap_or(i + n);
            }
            '<' if b
                .get(i + 1)
                .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?')) =>
            {
                return true;
            }
            _ => i += 1,
        }
    }
    false
}

fn check(what: &str, bytes: &[u8], secrets: &[String]) {
    let text = String::from_utf8_lossy(bytes);
    if let Some(c) = text.chars().find(|&c| forbidden(c)) {
        panic!("{what}: raw U+{:04X}", c as u32);
    }
    for line in text.lines() {
        let t = line.trim_start();
        if what == "github" {
            assert!(
                t.starts_with("::error ") || t.starts_with("::warning ") || t.starts_with("::notice "),
                "{what}: {line:?}"
            );
        } else {
            assert!(!t.starts_with("::"), "{what}: a workflow command line {line:?}");
        }
        if what.ends_with("markdown") {
            assert!(!markdown_tag(line), "{what}: live HTML {line:?}");
        }
    }
    if what == "audit html" {
        let lower = text.to_ascii_lowercase();
        assert!(!lower.contains("<script") && !lower.contains("<img"), "{what}");
    }
    for s in secrets {
        assert!(!text.contains(s.as_str()), "{what}: shows the secret {s:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let parts: Vec<&str> = input.split('\u{1}').collect();
    let s = |i: usize| parts[i % parts.len()].to_string();
    // What the finder takes for a secret in the input: no writer may show it (unless the
    // same string also stands in the input where it is no secret, and is shown from there).
    let found: Vec<(usize, usize, usize)> = parts
        .iter()
        .enumerate()
        .flat_map(|(k, p)| {
            benchlint::secrets::find_in_text(p)
                .into_iter()
                .map(move |(a, b)| (k, a, b))
        })
        .collect();
    let secrets: Vec<String> = found
        .iter()
        .map(|&(k, a, b)| parts[k][a..b].to_string())
        .filter(|x| x.len() >= 12)
        .filter(|x| {
            parts.iter().enumerate().all(|(k, p)| {
                p.match_indices(x.as_str()).all(|(i, _)| {
                    found
                        .iter()
                        .any(|&(fk, a, b)| fk == k && a <= i && i + x.len() <= b)
                })
            })
        })
        .collect();
    // One file on disk, so a snippet of the first part is drawn (masked, stand-ins).
    let file = std::env::temp_dir().join(format!("benchlint-fuzz-writers-{}.json", std::process::id()));
    if std::fs::write(&file, s(0)).is_err() {
        return;
    }
    let file_name = file.to_string_lossy().into_owned();
    let mut findings: Vec<Finding> = (0..4)
        .map(|k| {
            let mut primary = Location::new(if k == 0 { file_name.clone() } else { s(k) }, s(k + 1));
            if k % 2 == 1 {
                primary.offset = Some(k * 7);
            }
            let mut message = Text::file(s(k + 2));
            message.push_text(benchlint::text!(" at `{}` ({} of {})", s(k + 3), k, 4usize));
            Finding {
                rule: RULES[(k * 11) % RULES.len()].meta,
                severity: [Severity::Error, Severity::Warning, Severity::Info][k % 3],
                pre_rule: k == 3,
                primary,
                related: vec![Location::new(s(k + 4), s(k + 5))],
                message,
                label: Some(Text::file(s(k + 6))),
                help: Some(Text::quoting(s(k + 7))),
                placed: None,
            }
        })
        .collect();
    report::place_in_text(&file_name, &s(0), &mut findings);
    let p = report::prepare(findings, Summary::default(), 1 << 20, false);
    for (name, bytes) in [
        ("human", report::human(&p)),
        ("concise", report::concise(&p)),
        ("json", report::json(&p)),
        ("json-lines", report::json_lines(&p)),
        ("sarif", report::sarif(&p)),
        ("github", report::github(&p)),
        ("junit", report::junit(&p)),
        ("statistics", report::statistics_text(&p)),
    ] {
        check(name, &bytes, &secrets);
    }
    let claim = ClaimOutcome {
        id: s(1).into(),
        statement: Some(s(2).into()),
        kind: "ratio".into(),
        metric: s(3).into(),
        verdict: Verdict::Restated,
        codes: vec!["C001".into()],
        published_value: 2.0,
        restated_value: Some(1.1),
        basis: Some(Text::quoting(s(4))),
        reasons: vec![
            Text::quoting(s(5)),
            benchlint::text!("on `{}`: {}", s(6), s(7)),
        ],
        subject: vec![s(8).into()],
        baseline: vec![s(9).into()],
    };
    let report = AuditReport {
        floor_tok_s: 20.0,
        claims: vec![claim],
        ladders: vec![ConfigLadder {
            label: s(10).into(),
            fingerprint: "0123456789ab".into(),
            results: vec![s(11).into()],
            points: Vec::new(),
            capacity: None,
        }],
        losing_runs: vec![LosingRun {
            id: s(12).into(),
            outcome: "failed".into(),
            path: s(13).into(),
            notes: Some(s(14).into()),
        }],
    };
    let ctx = AuditContext::new(vec![s(15).into()], Some(s(16).into()));
    check("audit markdown", &report::audit_markdown(&report, &ctx), &secrets);
    check("audit html", &report::audit_html(&report, &ctx), &secrets);
    check("audit json", &report::audit_json(&report, &ctx), &secrets);
});
