//! A claims file of many claims, read by a command that does not audit them (`summary`,
//! `capacity`, `cards`), is checked a claim at a time: each claim is parsed, held to the claims
//! schema and let go before the next, so what the command holds grows by the file's text, a
//! couple of hundred bytes a claim, not by the tree of the whole document (about ten times the
//! text, which every such command held until the claims were read apart).
//! (`BENCHLINT_SCALING_BIN` measures another build.)

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::compare_memory::result;
use crate::scaling::exec;
use crate::scaling_shapes::args;

/// Two complete results, and a claims file of `n` ratio claims between them, each claim with
/// its own id and figure; the last claim at `value`.
fn corpus(dir: &Path, n: usize, last: &Value) -> PathBuf {
    let root = dir.join(format!("claims-{n}"));
    std::fs::create_dir_all(&root).unwrap();
    for (i, launch) in ["launch-a", "launch-b"].iter().enumerate() {
        let doc = result(&format!("r{i}"), "0.1.0", launch, 1.0);
        std::fs::write(root.join(format!("r{i}.json")), doc.to_string()).unwrap();
    }
    let claims: Vec<Value> = (0..n)
        .map(|i| {
            #[expect(clippy::cast_precision_loss, reason = "small counts")]
            let value = if i + 1 == n {
                last.clone()
            } else {
                json!(1.0 + i as f64 / 1e6)
            };
            json!({
                "id": format!("c{i}"),
                "kind": "ratio",
                "metric": "aggregate_tok_s",
                "value": value,
                "subject": {"results": ["r1"], "concurrency": 1},
                "baseline": {"results": ["r0"], "concurrency": 1},
            })
        })
        .collect();
    let doc = json!({"schema": "benchlint/claims/v1", "claims": claims});
    std::fs::write(root.join("claims.json"), doc.to_string()).unwrap();
    root
}

/// Peak resident set (KiB), standard output and standard error of `command` over `corpus`.
fn peak(command: &str, corpus: &Path) -> (u64, String, String) {
    let r = exec(&args(&[&command, &corpus]));
    println!(
        "{command} of {}: peak {} MiB",
        corpus.display(),
        r.peak_rss_kib / 1024
    );
    (r.peak_rss_kib, r.out(), r.err())
}

#[test]
fn a_claims_file_is_held_as_its_text_by_commands_that_do_not_audit_it() {
    let tmp = tempfile::tempdir().unwrap();
    let small_corpus = corpus(tmp.path(), 10_000, &json!(1.5));
    let large_corpus = corpus(tmp.path(), 40_000, &json!(1.5));
    for command in ["summary", "capacity", "cards"] {
        let (small, small_out, _) = peak(command, &small_corpus);
        let (large, large_out, _) = peak(command, &large_corpus);
        if small == 0 {
            return;
        }
        // The claims are not what these commands report: the two outputs are the same (the
        // corpus's folder name aside).
        assert_eq!(
            small_out.replace("claims-10000", "claims-N"),
            large_out.replace("claims-40000", "claims-N"),
            "{command}"
        );
        assert!(!small_out.trim().is_empty(), "{command} printed nothing");
        // Measured (release): 160 to 210 bytes a claim of about 190 bytes of text (the file's
        // text, read whole); 3.1 KB a claim while the document was parsed whole as a tree
        // before its claims were read.
        let per_claim = large.saturating_sub(small) * 1024 / 30_000;
        println!("{command}: {per_claim} bytes a claim");
        assert!(
            per_claim <= 1_000,
            "{command}: {per_claim} bytes a claim between 10,000 and 40,000 claims"
        );
    }
}

/// A claims file read a claim at a time is still checked: a claim that breaks the schema is
/// the same E003, at the same line, whether it is the only one or the last of 40,000.
#[test]
fn a_claim_that_breaks_the_schema_is_found_in_a_long_claims_file() {
    let tmp = tempfile::tempdir().unwrap();
    for n in [1, 40_000] {
        let dir = corpus(tmp.path(), n, &json!("fast"));
        let (_, out, err) = peak("summary", &dir);
        assert!(out.contains("2 runs over 2 launches"), "{out}");
        assert!(
            err.contains("1 input could not be read"),
            "{n} claims: {err}"
        );
        let listed = crate::scaling::exec(&args(&[
            &"check",
            &"--select",
            &"E003",
            &"--format",
            &"concise",
            &dir.join("claims.json"),
        ]));
        let text = listed.out();
        assert!(
            text.contains(&format!("schema violation at `/claims/{}/value`", n - 1)),
            "{n} claims: {text}"
        );
    }
}
