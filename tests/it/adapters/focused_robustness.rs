//! Focused checks that no adapter breaks: hostile values, a level whose concurrency the file
//! does not give, and no document claimed by two adapters.

use std::path::{Path, PathBuf};

use benchlint::adapters::{self, Reading, Source};
use benchlint::model::ResultDoc;
use benchlint::schema;
use serde_json::{Value, json};

use super::{FIXTURES, REALWORLD, check, documents, files_under};

/// Every key of the objects adapters read, replaced by each hostile value in turn: no
/// adapter may panic, and whatever it maps must still be a valid canonical result.
#[test]
fn hostile_values_never_panic_and_never_break_the_schema() {
    let hostile = [
        Value::Null,
        json!("NaN"),
        json!("Infinity"),
        json!(-1),
        json!(1e300),
        json!(12.5),
        json!("not a number"),
        json!([]),
        json!({}),
        json!(true),
    ];
    let mut roots = vec![PathBuf::from(FIXTURES)];
    if Path::new(REALWORLD).is_dir() {
        roots.push(PathBuf::from(REALWORLD));
    }
    let source = Source {
        path: "hostile.json",
        file_name: "hostile.json",
        doc_index: 0,
        doc_count: 1,
        folder: None,
        alone: false,
    };
    let mut problems = Vec::new();
    for path in roots.iter().flat_map(|r| files_under(r)) {
        for doc in &documents(&path) {
            let bases = [
                "",
                "/0",
                "/benchmarks/0",
                "/benchmarks/0/metrics",
                "/benchmarks/0/config/strategy",
                "/input_config",
                "/server_info",
            ];
            for base in bases {
                let Some(obj) = doc.value.pointer(base).and_then(Value::as_object) else {
                    continue;
                };
                for key in obj.keys() {
                    let pointer = format!("{base}/{}", benchlint::json::escape_pointer_token(key));
                    for h in &hostile {
                        let mut v = doc.value.clone();
                        *v.pointer_mut(&pointer).unwrap() = h.clone();
                        let Some((_, Reading::Results(mapped))) = adapters::read(&v, &source)
                        else {
                            continue;
                        };
                        for m in mapped {
                            // A level whose concurrency the file no longer gives is left
                            // without one: the loader reports such a result as E003.
                            let levels = m.value.get("levels").and_then(Value::as_array);
                            if levels
                                .is_some_and(|l| l.iter().any(|l| l.get("concurrency").is_none()))
                            {
                                continue;
                            }
                            let errors = schema::validate(schema::Kind::Result, &m.value);
                            let typed = serde_json::from_value::<ResultDoc>(m.value.clone());
                            if !errors.is_empty() || typed.is_err() {
                                problems.push(format!(
                                    "{} {pointer} = {h}: {errors:?} {:?}",
                                    path.display(),
                                    typed.err()
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_level_whose_concurrency_the_file_does_not_give_is_reported_not_invented() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    let mut doc: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"))
            .unwrap(),
    )
    .unwrap();
    // Neither a rate nor a cap: the level has no load, and the prompt count is not one.
    doc["request_rate"] = json!(null);
    doc["max_concurrency"] = json!(null);
    std::fs::write(&path, doc.to_string()).unwrap();
    let checked = check(&path);
    assert!(checked.corpus.results.is_empty());
    let e003: Vec<_> = checked
        .findings
        .iter()
        .filter(|f| f.rule.code == "E003")
        .collect();
    assert_eq!(
        e003.len(),
        1,
        "{:?}",
        checked
            .findings
            .iter()
            .map(|f| &f.message)
            .collect::<Vec<_>>()
    );
    assert!(
        e003[0].message.contains("concurrency"),
        "{}",
        e003[0].message
    );
    assert_eq!(e003[0].primary.pointer, "");
}

/// Recognition is exclusive: no document of any fixture or real file is claimed by two
/// adapters, so the order of `ADAPTERS` never decides what a file is; and each is claimed by
/// one, except the outputs of benchmarks that measure no server under load (`llama-bench`),
/// which no adapter reads. Each document is offered under its own file name (some side files,
/// such as an MLPerf accuracy log, are told by their name).
#[test]
fn no_document_is_claimed_by_two_adapters() {
    let mut roots = vec![PathBuf::from(FIXTURES)];
    if Path::new(REALWORLD).is_dir() {
        roots.push(PathBuf::from(REALWORLD));
    }
    let mut problems = Vec::new();
    for path in roots.iter().flat_map(|r| files_under(r)) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let out_of_scope = path.to_string_lossy().contains("/llama-bench/");
        for doc in &documents(&path) {
            let source = Source {
                path: "x.json",
                file_name: &name,
                doc_index: doc.index,
                doc_count: 1,
                folder: None,
                alone: false,
            };
            let claims: Vec<&str> = adapters::ADAPTERS
                .iter()
                .filter(|a| !matches!(a.read(&doc.value, &source), Reading::NotMine))
                .map(|a| a.name())
                .collect();
            if claims.len() > 1 || (claims.is_empty() && !out_of_scope) {
                problems.push(format!(
                    "{} document {}: claimed by {claims:?}",
                    path.display(),
                    doc.index
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
