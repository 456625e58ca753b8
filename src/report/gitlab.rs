//! `--format gitlab`: a GitLab Code Quality report (the JSON array
//! `artifacts:reports:codequality` reads), one issue per finding: `description`,
//! `check_name` (the rule's code), `fingerprint`, `severity`, `location.path` (relative to the
//! project root, [`super::Project`]) and `location.lines.begin`.
//!
//! Decisions:
//! - Severity: an error is `critical`, a warning `minor`, an info (and a pre-rule label)
//!   `info`; `major` and `blocker` are not used, so that `critical` always means "fails the
//!   run at the default `--fail-on`".
//! - The fingerprint is a 32-digit hexadecimal digest of the SARIF fingerprint
//!   ([`super::ci_keys`]): stable across runs and working folders, distinct per finding (GitLab
//!   shows only the first issue of a fingerprint).
//! - A finding about the corpus as a whole is placed on a file of the corpus, line 1, and its
//!   description starts `the corpus PATH: `; a finding whose file could not be read again is
//!   placed on line 1.

use serde_json::json;

use super::Prepared;
use super::ci_keys;
use crate::diagnostic::Severity;

/// GitLab's severity for a finding.
pub fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "critical",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// Renders the report: a JSON array, pretty, ending in a line feed.
pub fn render(p: &Prepared) -> Vec<u8> {
    super::spill::in_memory(|sink| write(p, sink))
}

/// [`render`], each issue made as it is written: a quarter of a million findings make hundreds
/// of megabytes of issues.
pub fn write(p: &Prepared, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let fingerprints = ci_keys::fingerprints(p);
    let issues = (0..p.findings.len()).map(|i| {
        let f = &p.findings[i];
        let path = match ci_keys::project_path(p, i) {
            Ok(rel) | Err(rel) => crate::text::masked(&rel).into_owned(),
        };
        let line = if f.corpus {
            1
        } else {
            p.positions[i].map_or(1, |pos| pos.line)
        };
        let mut description = String::new();
        if f.corpus {
            description.push_str("the corpus ");
            description.push_str(&f.primary.path.line());
            description.push_str(": ");
        }
        description.push_str(&f.message.line());
        json!({
            "description": description,
            "check_name": f.rule.code,
            "fingerprint": ci_keys::hex_digest(&fingerprints[i]),
            "severity": severity(f.severity),
            "location": {"path": path, "lines": {"begin": line}},
        })
    });
    crate::text::json::to_writer_pretty(sink, &crate::text::json::Streamed::new(issues))?;
    sink.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_issue_per_finding_with_distinct_fingerprints() {
        let p = super::super::test_findings::prepared();
        let issues: serde_json::Value = serde_json::from_slice(&render(&p)).unwrap();
        let issues = issues.as_array().unwrap();
        assert_eq!(issues.len(), p.findings.len());
        let fingerprints: std::collections::BTreeSet<&str> = issues
            .iter()
            .map(|i| i["fingerprint"].as_str().unwrap())
            .collect();
        assert_eq!(fingerprints.len(), issues.len());
        for (issue, f) in issues.iter().zip(&p.findings) {
            assert_eq!(issue["severity"], severity(f.severity));
            assert!(issue["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
            assert!(!issue["location"]["path"].as_str().unwrap().is_empty());
        }
    }
}
