//! `benchlint import`: canonical files plus provenance; checking the output finds what checking
//! the originals finds; never writes into the corpus unless asked.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1");
    c
}

/// Findings that describe the measurement, as (code, message); input-level codes (parse
/// errors, secrets in raw documents, sidecar conflicts, artifacts beside the original) are about
/// the original file. A set, not a count: two results of one harness document that share a
/// source value share one finding there, and two once imported into two files.
fn measurement_findings(path: &Path) -> BTreeSet<(String, String)> {
    let out = bin()
        .args(["check", "--format", "json"])
        .arg(path)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut found = BTreeSet::new();
    for d in v["diagnostics"].as_array().unwrap() {
        let code = d["code"].as_str().unwrap().to_string();
        if code.starts_with('E') || code == "M018" || code == "M019" || code == "M017" {
            continue;
        }
        found.insert((code, d["message"].as_str().unwrap().to_string()));
    }
    found
}

fn import_and_compare(input: &Path) {
    let out = tempfile::tempdir().unwrap();
    let status = bin()
        .arg("import")
        .arg(input)
        .arg("-o")
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(
        status.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    // A zero level of a run whose outcome benchlint derived (every request failed) is R007's
    // finding in the harness file, which labels nothing; the imported file writes that outcome
    // as its label, the honest way to publish a run that served nothing, so R007 has nothing
    // left to say there.
    let mut before = measurement_findings(input);
    let derived_zero: Vec<(String, String)> = before
        .iter()
        .filter(|(code, message)| {
            code == "R007" && message.contains("benchlint derived the outcome")
        })
        .cloned()
        .collect();
    for f in &derived_zero {
        before.remove(f);
    }
    let after = measurement_findings(out.path());
    assert_eq!(
        before,
        after,
        "checking the import of {} found other things",
        input.display()
    );
    // Every imported result has its provenance file, and every value in it has an origin.
    let mut results = 0;
    for path in files_under(out.path()) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".provenance.json") {
            results += 1;
            let p: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(p["schema"], "benchlint/provenance/v1");
            assert!(path.with_file_name(format!("{stem}.json")).is_file());
            assert!(!p["values"].as_object().unwrap().is_empty());
        }
    }
    assert!(results > 0, "nothing imported from {}", input.display());
}

/// Every file under `dir`, at any depth, sorted.
fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn importing_the_demo_corpus_keeps_its_findings() {
    import_and_compare(Path::new("testdata/corpora/demo"));
}

#[test]
fn importing_harness_formats_keeps_their_findings() {
    if Path::new("testdata/adapters").is_dir() {
        import_and_compare(Path::new("testdata/adapters"));
    }
    let real = Path::new("../shared/realworld");
    if real.is_dir() {
        import_and_compare(real);
    } else {
        println!("skipping the real-world part: ../shared/realworld not found");
    }
}

#[test]
fn sidecar_values_are_imported_with_their_provenance() {
    let out = tempfile::tempdir().unwrap();
    let status = bin()
        .args(["import", "testdata/corpora/demo/gb300", "-o"])
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(0));
    let p: Value = serde_json::from_str(
        &std::fs::read_to_string(out.path().join("qwen38-27b-r1.provenance.json")).unwrap(),
    )
    .unwrap();
    let eager = &p["values"]["/engine/enforce_eager"];
    assert_eq!(eager["kind"], "sidecar", "{eager}");
    assert_eq!(
        eager["path"],
        "testdata/corpora/demo/gb300/qwen38-27b-r1.meta.json"
    );
    assert_eq!(p["values"]["/engine/max_num_seqs"]["kind"], "recorded");
}

#[test]
fn an_output_folder_inside_the_corpus_is_refused() {
    let corpus = tempfile::tempdir().unwrap();
    std::fs::copy(
        "testdata/bad/minimal.json",
        corpus.path().join("minimal.json"),
    )
    .unwrap();
    let inside = corpus.path().join("imported");
    let out = bin()
        .arg("import")
        .arg(corpus.path())
        .arg("-o")
        .arg(&inside)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !inside.exists(),
        "the refused import still wrote into the corpus"
    );
    let out = bin()
        .arg("import")
        .arg(corpus.path())
        .arg("-o")
        .arg(&inside)
        .arg("--allow-inside-corpus")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(inside.join("minimal.json").is_file());
}

#[test]
fn outputs_mirror_the_inputs_and_skipped_inputs_are_named() {
    let out = tempfile::tempdir().unwrap();
    let run = bin()
        .args([
            "import",
            "testdata/corpora/demo",
            "testdata/adapters/vllm/results-array.json",
            "testdata/bad/truncated.json",
            "-o",
        ])
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let names: Vec<String> = files_under(out.path())
        .iter()
        .map(|p| {
            p.strip_prefix(out.path())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .filter(|n| !n.ends_with(".provenance.json"))
        .collect();
    // By the path relative to the argument; a file of two results gives `-1` and `-2`.
    assert!(
        names.contains(&"gb10-x8/prose-r1.json".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"gb300/qwen38-27b-r1.json".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"results-array-1.json".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"results-array-2.json".to_string()),
        "{names:?}"
    );
    // The result keeps its id inside.
    let r: Value = serde_json::from_str(
        &std::fs::read_to_string(out.path().join("gb10-x8/prose-r1.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(r["id"], "gb10-x8-prose-r1");
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(
        stdout.contains("\nskipped testdata/bad/truncated.json: E002 EOF while parsing"),
        "{stdout}"
    );
}

/// A document of many results is handed over a batch at a time as its results are finished:
/// each is still written once, under the number of its place in the document.
#[test]
fn a_document_of_many_results_is_imported_whole_and_in_order() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = crate::scaling_placing::one_line_rows(tmp.path(), 700)
        .parent()
        .unwrap()
        .to_path_buf();
    let out = tmp.path().join("out");
    let status = bin()
        .arg("import")
        .arg("-o")
        .arg(&out)
        .arg(&folder)
        .output()
        .unwrap();
    assert!(
        matches!(status.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let results: Vec<_> = files_under(&out)
        .into_iter()
        .filter(|p| !p.to_string_lossy().ends_with(".provenance.json"))
        .collect();
    assert_eq!(results.len(), 700);
    for k in 1..=700 {
        let path = out.join(format!("agg_bmk-{k}.json"));
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let id = doc["id"].as_str().unwrap();
        assert!(
            id.ends_with(&format!("#0/{}", k - 1)),
            "{}: {id}",
            path.display()
        );
    }
}
