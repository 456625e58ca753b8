//! The default human output on the real corpus (`../shared/realworld`), as a new user first
//! sees it: short enough to read (under a quarter of the 8,753 lines it once printed), with
//! every finding of `--format json` still listed, each at its line and column under its rule.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

const REALWORLD: &str = "../shared/realworld";

/// Lines of human output allowed per finding: a quarter of the eight a snippet of its own took
/// before findings of one object were folded together (8,753 lines for 1,094 findings, when the
/// corpus was smaller), so the bound follows the corpus as files are added to it.
const LINES_PER_FINDING: usize = 2;

fn check(format: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .args(["check", REALWORLD, "--format", format])
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .unwrap();
    assert_ne!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Where the human output lists a finding: the file (or the corpus), the code, the line and
/// the column (0 and 0 for the corpus).
type Listed = (String, String, usize, usize);

/// `14:3` of `…:14:3]` or of `14:3: …`.
fn line_column(s: &str) -> Option<(usize, usize)> {
    let mut parts = s.splitn(2, ':');
    let line = parts.next()?.parse().ok()?;
    let rest = parts.next()?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line, digits.parse().ok()?))
}

/// Every finding the human output lists: read from each diagnostic's code line (one code, or
/// several before `(not recorded)`), its snippet header `╭─[path:line:column]` and the
/// `also at line:column:` lines under it; and the `the corpus PATH:` heading.
fn listed(human: &str) -> BTreeSet<Listed> {
    let mut out = BTreeSet::new();
    let mut codes: Vec<String> = Vec::new();
    let mut path = String::new();
    let mut corpus: Option<String> = None;
    for line in human.lines() {
        if let Some(rest) = line.strip_prefix("the corpus ") {
            corpus = Some(rest.trim_end_matches(':').to_string());
            continue;
        }
        let is_code_line = line.len() >= 4
            && line.as_bytes()[0].is_ascii_uppercase()
            && line[1..4].bytes().all(|b| b.is_ascii_digit())
            && line.ends_with(')');
        if is_code_line {
            let head = &line[..line.find('(').unwrap()];
            codes = head.split(", ").map(str::to_string).collect();
            if let Some(c) = &corpus {
                for code in &codes {
                    out.insert((c.clone(), code.clone(), 0, 0));
                }
            }
            continue;
        }
        if line.starts_with("Files, worst first") {
            corpus = None;
        }
        if let Some(at) = line.find("╭─[") {
            corpus = None;
            let inside = line[at + "╭─[".len()..].trim_end_matches(']');
            // path:line:column, the path itself possibly holding colons.
            let mut back = inside.rsplitn(3, ':');
            let (column, line_no, file) = (back.next(), back.next(), back.next());
            if let (Some(c), Some(l), Some(f)) = (column, line_no, file) {
                path = f.to_string();
                for code in &codes {
                    out.insert((
                        path.clone(),
                        code.clone(),
                        l.parse().unwrap(),
                        c.parse().unwrap(),
                    ));
                }
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("  also at ")
            && let Some((l, c)) = line_column(rest)
        {
            for code in &codes {
                out.insert((path.clone(), code.clone(), l, c));
            }
        }
    }
    out
}

#[test]
fn the_real_corpus_reads_in_a_quarter_of_the_lines_with_every_finding_listed() {
    if !Path::new(REALWORLD).is_dir() {
        println!("skipped: {REALWORLD} is absent");
        return;
    }
    let human = check("human");
    let lines = human.lines().count();
    let shown = listed(&human);
    let json: Value = serde_json::from_str(&check("json")).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    assert!(diagnostics.len() > 500, "the corpus still has its findings");
    let max_lines = LINES_PER_FINDING * diagnostics.len();
    assert!(
        lines <= max_lines,
        "the human output is {lines} lines for {} findings, over {max_lines}",
        diagnostics.len()
    );
    let mut missing = Vec::new();
    for d in diagnostics {
        let key: Listed = if d["corpus"] == true {
            (
                d["path"].as_str().unwrap().to_string(),
                d["code"].as_str().unwrap().to_string(),
                0,
                0,
            )
        } else {
            let at = |k: &str| usize::try_from(d[k].as_u64().unwrap()).unwrap();
            (
                d["path"].as_str().unwrap().to_string(),
                d["code"].as_str().unwrap().to_string(),
                at("line"),
                at("column"),
            )
        };
        if !shown.contains(&key) {
            missing.push(key);
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {} findings are not listed in the human output: {:#?}",
        missing.len(),
        diagnostics.len(),
        &missing[..missing.len().min(20)]
    );
    // Each folded line says where and what: its line, column and a message.
    for line in human.lines().filter(|l| l.starts_with("  also at ")) {
        let rest = &line["  also at ".len()..];
        let (_, after) = rest.split_once(": ").unwrap();
        assert!(after.len() > 10, "{line}");
    }
    // The overview still ends the output, and the corpus-wide finding heads it.
    assert!(
        human.starts_with("Checked ") && human.lines().nth(1).is_some_and(|l| l == "Worst files:"),
        "a headline opens the output: {}",
        &human[..200]
    );
    // A finding about the corpus as a whole, when there is one (S008 while every real prompt
    // was short), heads the details.
    let details = human.split_once("\n\n").map_or("", |(_, rest)| rest);
    if let Some(first) = diagnostics.iter().find(|d| d["corpus"] == true) {
        let head = format!(
            "the corpus ../shared/realworld/:\n{}",
            first["code"].as_str().unwrap()
        );
        assert!(details.starts_with(&head), "{}", &human[..200]);
    }
    assert!(human.contains("\nFiles, worst first"));
}
