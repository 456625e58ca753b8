//! `compare` puts each result away as it is read and holds only what the comparison reads: the
//! two sides' configurations, the runs their copies are told from and the same-vs-same
//! controls on their platform and model. With every other result a configuration of its own
//! (one run, so no control), what it holds grows by a few hundred bytes a result, not by the
//! result. (`BENCHLINT_SCALING_BIN` measures another build.)

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::scaling::exec;
use crate::scaling_shapes::args;

/// The bundled complete canonical result, made run `id` of engine version `version` on launch
/// `launch`, its throughput `scale` times the template's.
pub(crate) fn result(id: &str, version: &str, launch: &str, scale: f64) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/clean/replicated-corpus/complete.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["id"] = json!(id);
    doc["engine"]["version"] = json!(version);
    doc["launch"]["id"] = json!(launch);
    for level in doc["levels"].as_array_mut().unwrap() {
        level.as_object_mut().unwrap().remove("samples");
        let aggregate = &mut level["throughput_tok_s"]["aggregate"];
        if let Some(x) = aggregate.as_f64() {
            *aggregate = json!((x * scale * 10.0).round() / 10.0);
        }
    }
    doc
}

/// `n` results in folders of a thousand, each its own configuration (its own engine version)
/// on one platform and model, and two runs of one more on two launches: the one control a
/// comparison in the corpus has.
fn corpus(dir: &Path, n: usize) -> PathBuf {
    let root = dir.join(format!("distinct-{n}"));
    for i in 0..n {
        let folder = root.join(format!("f{:03}", i / 1_000));
        if i % 1_000 == 0 {
            std::fs::create_dir_all(&folder).unwrap();
        }
        // Every run's figures its own: runs alike in every figure would be copies (S010).
        #[expect(clippy::cast_precision_loss, reason = "small counts")]
        let scale = 1.0 + i as f64 / 1e5;
        let doc = result(
            &format!("r{i}"),
            &format!("0.{i}.0"),
            &format!("launch-{i}"),
            scale,
        );
        std::fs::write(folder.join(format!("r{i}.json")), doc.to_string()).unwrap();
    }
    let folder = root.join("control");
    std::fs::create_dir_all(&folder).unwrap();
    for (k, scale) in [(0, 1.0), (1, 1.05)] {
        let doc = result(
            &format!("control-{k}"),
            "9.9.9",
            &format!("control-{k}"),
            scale,
        );
        std::fs::write(folder.join(format!("c{k}.json")), doc.to_string()).unwrap();
    }
    root
}

#[test]
fn compare_holds_its_sides_and_controls_not_the_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let mut peaks = Vec::new();
    for n in [4_000, 16_000] {
        let root = corpus(tmp.path(), n);
        let r = exec(&args(&[&"compare", &"r0", &"r1", &root]));
        let out = r.out();
        println!(
            "compare over {n} results: peak {} MiB",
            r.peak_rss_kib / 1024
        );
        // What a user reads: the two one-run sides, and the floor set by the one control found
        // among thousands of configurations.
        assert!(
            out.contains("`r0` (result id): 1 run over 1 launch"),
            "{out}"
        );
        assert!(
            out.contains("`r1` (result id): 1 run over 1 launch"),
            "{out}"
        );
        assert!(
            out.contains("noise floor: 5.0% from the same-vs-same control `")
                && out.contains("vllm 9.9.9"),
            "{out}"
        );
        assert!(out.contains("verdict: tie within noise"), "{out}");
        peaks.push(r.peak_rss_kib);
    }
    if peaks[0] == 0 {
        return;
    }
    // Measured: 320 to 370 bytes a result (where each result is, its sort key up to their
    // budget, the files read); 1.2 to 1.5 KB while freed memory stayed mapped for a second
    // after it was freed and the loader copied every path. Holding the corpus, as `compare`
    // did, took 3.2 KB a result of these.
    let per_result = peaks[1].saturating_sub(peaks[0]) * 1024 / 12_000;
    println!("{per_result} bytes a result");
    assert!(
        per_result <= 900,
        "{per_result} bytes a result between 4,000 and 16,000 results"
    );
}
