//! The SARIF log against serde_json's printer and GitHub's needs: URIs escaped, every result
//! placed and fingerprinted, every rule described in plain text.

use super::*;

#[test]
fn uris() {
    assert_eq!(uri("results/a b.json", true), "results/a%20b.json");
    // A backslash, a tab and `::` are escaped, never made into another name.
    assert_eq!(uri("r\\x.json", true), "r%5Cx.json");
    assert_eq!(uri("a\tb::c.json", true), "a%09b%3A%3Ac.json");
    assert_eq!(uri("/abs/x.json", false), "file:///abs/x.json");
    assert_eq!(uri("é.json", true), "%C3%A9.json");
    assert_eq!(
        uri("javascript:alert(1).json", true),
        "javascript%3Aalert%281%29.json"
    );
    assert_eq!(
        uri("r/sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234.json", true),
        "r/%3Credacted%3E"
    );
}

#[test]
fn the_log_is_what_serde_json_prints_for_it_and_validates_its_members() {
    let p = super::super::test_findings::prepared();
    let bytes = render(&p);
    super::super::json_out::is_as_serde_prints(&bytes).unwrap();
    let log: Value = serde_json::from_slice(&bytes).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), p.findings.len());
    // The corpus-wide finding: on a file, line 1, a logical location of kind `module`.
    let corpus = &results[3];
    assert_eq!(corpus["properties"], json!({"corpus": true}));
    assert_eq!(
        corpus["locations"][0]["logicalLocations"][0]["kind"],
        "module"
    );
    assert_eq!(
        corpus["locations"][0]["physicalLocation"]["region"]["startLine"],
        1
    );
    // Every result has a file URI, a line and a fingerprint of its own.
    let mut seen = std::collections::BTreeSet::new();
    for r in results {
        let physical = &r["locations"][0]["physicalLocation"];
        let uri = physical["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            !uri.is_empty() && !uri.ends_with('/') && !uri.starts_with(".."),
            "{uri}"
        );
        assert!(physical["region"]["startLine"].as_u64().is_some());
        assert!(seen.insert(r["partialFingerprints"]["benchlint/v2"].to_string()));
    }
    // A pre-rule label, related places numbered from 1, a secret masked everywhere.
    assert_eq!(results[1]["properties"], json!({"preRule": true}));
    assert_eq!(results[2]["relatedLocations"][1]["id"], 2);
    assert!(
        !String::from_utf8(bytes)
            .unwrap()
            .contains("sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP")
    );
}

#[test]
fn every_rule_has_a_complete_description_and_plain_help() {
    for rule in crate::rules::RULES {
        let d = rule_descriptor(rule.meta);
        let full = d["fullDescription"]["text"].as_str().unwrap();
        assert!(
            full.ends_with(['.', '!', '?', '…']) && !full.ends_with(':'),
            "{}: {full}",
            rule.meta.code
        );
        assert!(!full.contains('`'), "{}: {full}", rule.meta.code);
        let text = d["help"]["text"].as_str().unwrap();
        for markup in ["`", "](", "\n#", "```"] {
            assert!(
                !text.contains(markup),
                "{}: {markup:?} in {text}",
                rule.meta.code
            );
        }
        assert!(!text.starts_with('#'), "{}", rule.meta.code);
        assert!(d["help"]["markdown"].as_str().unwrap().contains("## "));
    }
}

#[test]
fn an_empty_log_closes_its_results_on_the_same_line() {
    let mut p = super::super::test_findings::prepared();
    p.findings.clear();
    p.positions.clear();
    p.related_positions.clear();
    let bytes = render(&p);
    super::super::json_out::is_as_serde_prints(&bytes).unwrap();
    assert!(
        String::from_utf8(bytes)
            .unwrap()
            .contains("\"results\": []")
    );
}
