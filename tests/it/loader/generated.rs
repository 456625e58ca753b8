//! The loader property over generated corpora (fixed seed, bounded): every file is accounted
//! for and no disguise passes.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{check, clean_corpus, errors, unaccounted};

// The loader property over generated corpora.

/// A small deterministic generator (SplitMix64): the same corpora on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }
}

/// The harness result files under `testdata/adapters` that are read on their own, with their
/// first document: the files a disguise is made of.
fn readable_results() -> Vec<(PathBuf, Value)> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::from("testdata/adapters")];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    for p in files {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.contains("companion")
            || name.contains("broken")
            || p.extension().is_none_or(|e| e != "json")
        {
            continue;
        }
        let Ok(value) = serde_json::from_str::<Value>(&std::fs::read_to_string(&p).unwrap()) else {
            continue;
        };
        let dir = tempfile::tempdir().unwrap();
        let alone = dir.path().join(&name);
        std::fs::write(&alone, value.to_string()).unwrap();
        if check(&[&alone]).corpus.results.is_empty() {
            continue;
        }
        out.push((p, value));
    }
    out
}

/// One disguise of a result document: its file name and text.
fn disguise(rng: &mut Rng, name: &str, value: &Value) -> (String, String, &'static str) {
    let stem = name.trim_end_matches(".json");
    match rng.below(6) {
        0 => (
            format!("renamed-{}.json", rng.below(1000)),
            value.to_string(),
            "renamed",
        ),
        1 => (
            format!("{stem}.meta.json"),
            value.to_string(),
            "as a sidecar",
        ),
        2 => (name.to_string(), json!([value]).to_string(), "in an array"),
        3 => {
            let mut v = value.clone();
            if let Some(m) = v.as_object_mut() {
                m.insert("run_number".into(), json!(-1));
                m.insert(
                    format!("zz_unknown_{}", rng.below(100)),
                    json!(rng.below(7)),
                );
            }
            (name.to_string(), v.to_string(), "with odd values")
        }
        4 => {
            let mut v = value.clone();
            if let Some(m) = v.as_object_mut()
                && let Some(s) = m.remove("schema")
            {
                m.insert("Schema".into(), s);
            } else if let Some(m) = v.as_object_mut() {
                m.insert("SCHEMA".into(), json!("Benchlint/Result/V1"));
            }
            (name.to_string(), v.to_string(), "schema key case changed")
        }
        _ => (
            format!("{stem}.meta.json"),
            json!([value]).to_string(),
            "an array as a sidecar",
        ),
    }
}

#[test]
fn every_file_of_a_generated_corpus_is_accounted_for_and_no_disguise_passes() {
    let results = readable_results();
    assert!(results.len() >= 8, "too few fixtures: {}", results.len());
    let companions = [
        "testdata/adapters/genai-perf/inputs-companion.json",
        "testdata/adapters/llmperf/individual-responses-companion.json",
        "testdata/adapters/vllm/pytorch-benchmark-format-companion.json",
    ];
    let mut rng = Rng(0x005E_ED0F_10AD);
    let mut problems = Vec::new();
    for round in 0..24 {
        let dir = clean_corpus();
        let sub = dir.path().join(format!("round-{round}"));
        std::fs::create_dir(&sub).unwrap();
        let (path, value) = &results[rng.below(results.len())];
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (file, text, how) = disguise(&mut rng, &name, value);
        std::fs::write(sub.join(&file), &text).unwrap();
        // Beside it, sometimes a sidecar of nothing or a companion without its result, in a
        // folder of their own.
        let extra = dir.path().join("extra");
        std::fs::create_dir(&extra).unwrap();
        match rng.below(3) {
            0 => std::fs::write(
                extra.join("lonely.meta.json"),
                json!({"engine": {"name": "vllm"}}).to_string(),
            )
            .unwrap(),
            1 => {
                let c = companions[rng.below(companions.len())];
                std::fs::copy(c, extra.join(Path::new(c).file_name().unwrap())).unwrap();
            }
            _ => {}
        }
        let c = check(&[dir.path()]);
        let what = format!("round {round}: {} {how} as {file}", path.display());
        for u in unaccounted(&c) {
            problems.push(format!("{what}: not accounted for: {u}"));
        }
        let on_it = errors(&c)
            .into_iter()
            .filter(|e| e.contains(&format!("round-{round}/")))
            .count();
        if on_it == 0 {
            problems.push(format!(
                "{what}: the disguised result does not fail the run"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
