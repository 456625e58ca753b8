//! Inputs that once reached an output raw through one of the writers, each kept fixed.

use std::path::Path;

use crate::support::hostile_gen::{Kind, check};

/// The inputs the `output_writers` fuzz target once broke, replayed through the writers as the
/// target feeds them: the parts between `\u{1}` bytes in every text field of findings and of an
/// audit report, every format held to the invariants.
#[test]
fn writer_regressions_stay_fixed() {
    use benchlint::audit::{
        AuditReport, Checklist, ChecklistItem, ClaimOutcome, ConfigLadder, Coverage, FileCoverage,
        LosingRun, Verdict,
    };
    use benchlint::diagnostic::{Finding, Location, Severity};
    use benchlint::report::{self, AuditContext};
    use benchlint::text::Text;
    let dir = Path::new("testdata/hostile/fuzz-regressions");
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("output_writers-") {
            continue;
        }
        let input = String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).into_owned();
        let parts: Vec<&str> = input.split('\u{1}').collect();
        let s = |i: usize| parts[i % parts.len()].to_string();
        // As the target: a secret that also stands where it is none is not held against it.
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
        // The first part is a file whose snippet is drawn.
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f.json");
        std::fs::write(&file, s(0)).unwrap();
        let file_name = file.to_string_lossy().into_owned();
        let mut findings: Vec<Finding> = (0..4)
            .map(|k| Finding {
                rule: benchlint::rules::RULES[(k * 11) % benchlint::rules::RULES.len()].meta,
                severity: Severity::Error,
                pre_rule: false,
                primary: {
                    let mut l =
                        Location::new(if k == 0 { file_name.clone() } else { s(k) }, s(k + 1));
                    if k % 2 == 1 {
                        l.offset = Some(k * 7);
                    }
                    l
                },
                related: vec![Location::new(s(k + 4), s(k + 5))],
                message: Text::file(s(k + 2)),
                label: Some(Text::file(s(k + 6))),
                help: Some(Text::quoting(s(k + 7))),
                absent: None,
                key: None,
                placed: None,
                corpus: false,
            })
            .collect();
        benchlint::positions::place_in_text(&file_name, &s(0), &mut findings);
        let p = report::prepare(
            findings.clone(),
            benchlint::engine::Summary::default(),
            1 << 20,
            false,
        );
        for (format, bytes, kind) in [
            ("human", report::human(&p), Kind::Plain),
            ("concise", report::concise(&p), Kind::Plain),
            ("json", report::json(&p), Kind::Plain),
            ("sarif", report::sarif(&p), Kind::Plain),
            ("github", report::github(&p), Kind::Github),
            ("junit", report::junit(&p), Kind::Plain),
        ] {
            check(&format!("{name} {format}"), &bytes, kind, &secrets);
        }
        let report = AuditReport {
            floor_tok_s: 20.0,
            claims: vec![ClaimOutcome {
                id: s(1).into(),
                statement: Some(s(2).into()),
                kind: "ratio".into(),
                metric: s(3).into(),
                verdict: Verdict::Restated,
                codes: vec!["C001".into()],
                published_value: 2.0,
                restated_value: Some(1.1),
                basis: Some(Text::quoting(s(4))),
                reasons: vec![Text::quoting(s(5))],
                subject: vec![s(8).into()],
                baseline: vec![s(9).into()],
            }],
            ladders: vec![ConfigLadder {
                label: s(10).into(),
                fingerprint: "0123456789ab".into(),
                results: vec![s(11).into()],
                points: Vec::new(),
                capacity: None,
                replication: None,
            }]
            .into(),
            losing_runs: vec![LosingRun {
                id: s(12).into(),
                outcome: "failed".into(),
                path: s(13).into(),
                notes: Some(s(14).into()),
            }],
            // The corpus sections over the same findings, and a coverage row of a hostile path.
            corpus: Some(benchlint::audit::corpus::build(
                findings.len(),
                &[],
                benchlint::audit::corpus::FindingTally::of(&findings),
                Checklist {
                    items: vec![ChecklistItem {
                        code: "M001",
                        field: "platform.host".into(),
                        pointer: "/platform/host".into(),
                    }],
                    files: vec![FileCoverage::new(s(17).into(), 1, vec![Coverage::Missing])],
                },
            )),
        };
        let ctx = AuditContext::new(vec![s(15).into()], Some(s(16).into()));
        check(
            &name,
            &report::audit_markdown(&report, &ctx),
            Kind::Markdown,
            &secrets,
        );
        check(
            &name,
            &report::audit_html(&report, &ctx),
            Kind::Html,
            &secrets,
        );
        check(
            &name,
            &report::audit_json(&report, &ctx),
            Kind::Plain,
            &secrets,
        );
    }
}
