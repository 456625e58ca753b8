//! MLPerf Inference power runs: the level's wall power is the mean of SPEC PTDaemon's samples
//! (`spl.txt`) inside loadgen's `power_begin` / `power_end` window, and the power files of the
//! run (`spl.txt`, `performance/power/*`) are companions, whether walked or named.

use std::path::{Path, PathBuf};

use benchlint::corpus::{LoadedResult, Options};
use benchlint::engine::{self, Checked};
use benchlint::model::Provenance;
use serde_json::{Value, json};

const RUN: &str = "testdata/adapters/mlperf/singlestream-power/performance";

fn check(paths: &[PathBuf]) -> Checked {
    engine::check(paths, &Options::default())
}

fn only(checked: Checked) -> LoadedResult {
    assert_eq!(checked.corpus.results.len(), 1, "{:?}", checked.findings);
    checked.corpus.results.into_iter().next().unwrap()
}

fn derived_from(r: &LoadedResult, canonical: &str) -> String {
    match r.provenance.get(canonical).as_deref() {
        Some(Provenance::Derived { from, .. }) => from.clone(),
        other => panic!("{canonical}: {other:?}"),
    }
}

/// The Watts readings of a PTD sample log whose stamp (all on one day) lies strictly between
/// `begin` and `end`, compared as text: an independent reading of the file.
fn watts_between(spl: &str, begin: &str, end: &str) -> Vec<f64> {
    spl.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[1] > begin && f[1] < end).then(|| f[3].parse::<f64>().unwrap())
        })
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    #[expect(clippy::cast_precision_loss, reason = "a few hundred samples")]
    let n = v.len() as f64;
    v.iter().sum::<f64>() / n
}

fn power(r: &LoadedResult) -> (f64, &Value) {
    let p = &r.value["levels"][0]["power_w"];
    (p["mean"].as_f64().unwrap(), &p["kind"])
}

#[test]
fn the_wall_power_is_the_mean_of_the_ptd_samples_inside_the_loadgen_window() {
    let spl = std::fs::read_to_string(format!("{RUN}/run_1/spl.txt")).unwrap();
    let inside = watts_between(&spl, "06-03-2025 14:20:12.604", "06-03-2025 14:22:23.851");
    assert_eq!(inside.len(), 131);
    let r = only(check(&[Path::new(RUN).join("run_1/mlperf_log_detail.txt")]));
    let (watts, kind) = power(&r);
    assert!((watts - mean(&inside)).abs() < 1e-9, "{watts}");
    assert!((watts - 86.41).abs() < 0.01, "{watts}");
    assert_eq!(kind, "wall");
    let how = derived_from(&r, "/levels/0/power_w/mean");
    assert!(
        how.contains("the 131 positive Watts readings")
            && how.contains("power_begin (06-03-2025 14:20:12.604)"),
        "{how}"
    );
    // The one level is SingleStream's single stream, with the run's token rate beside it.
    assert_eq!(r.value["levels"][0]["concurrency"], 1);
    assert_eq!(
        r.value["levels"][0]["throughput_tok_s"]["aggregate"],
        62.2186
    );
    // The sample log is the run's power trace, at the wall.
    assert_eq!(
        r.value["artifacts"]["power_trace"],
        json!({ "path": "spl.txt", "kind": "wall" })
    );
    // The summary named alone takes the window from the detail log of its run.
    let s = only(check(
        &[Path::new(RUN).join("run_1/mlperf_log_summary.txt")],
    ));
    assert!((power(&s).0 - watts).abs() < 1e-12);
    assert!(
        derived_from(&s, "/levels/0/power_w/mean").contains("mlperf_log_detail.txt"),
        "{:?}",
        s.provenance.get("/levels/0/power_w/mean").as_deref()
    );
}

/// A copy of the run folder whose detail log is rewritten by `edit`.
fn edited_copy(dir: &Path, edit: impl Fn(&str) -> String) -> PathBuf {
    let run = dir.join("run_1");
    std::fs::create_dir_all(&run).unwrap();
    for name in ["spl.txt", "mlperf_log_summary.txt", "mlperf_log_detail.txt"] {
        let text = std::fs::read_to_string(format!("{RUN}/run_1/{name}")).unwrap();
        let text = if name == "mlperf_log_detail.txt" {
            edit(&text)
        } else {
            text
        };
        std::fs::write(run.join(name), text).unwrap();
    }
    run.join("mlperf_log_detail.txt")
}

#[test]
fn without_a_window_the_mean_is_over_the_whole_log_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let detail = edited_copy(dir.path(), |t| {
        t.split_inclusive('\n')
            .filter(|l| !l.contains("\"power_"))
            .collect()
    });
    let r = only(check(&[detail]));
    let spl = std::fs::read_to_string(format!("{RUN}/run_1/spl.txt")).unwrap();
    let all = watts_between(&spl, "", "~");
    assert_eq!(all.len(), 149);
    let (watts, kind) = power(&r);
    assert!((watts - mean(&all)).abs() < 1e-9, "{watts}");
    // The idle seconds before and after the load pull it below the window's 86.4 W.
    assert!(watts < 82.0, "{watts}");
    assert_eq!(kind, "wall");
    let how = derived_from(&r, "/levels/0/power_w/mean");
    assert!(
        how.contains("all 149 positive Watts readings") && how.contains("no power_begin"),
        "{how}"
    );
}

#[test]
fn a_window_the_sample_log_does_not_cover_gives_no_mean() {
    // Loadgen's clock an hour off the analyzer's: no sample falls inside its window.
    let dir = tempfile::tempdir().unwrap();
    let detail = edited_copy(dir.path(), |t| {
        t.replace("06-03-2025 14:2", "06-03-2025 15:2")
    });
    let r = only(check(&[detail]));
    assert!(
        r.value["levels"][0].get("power_w").is_none(),
        "{}",
        *r.value
    );
    // The log is still the run's power trace, at the wall.
    assert_eq!(r.value["artifacts"]["power_trace"]["kind"], "wall");
}

#[test]
fn a_run_without_a_sample_log_has_no_power() {
    let r = only(check(&[PathBuf::from(
        "testdata/adapters/mlperf/offline-lowered-minimums/mlperf_log_detail.txt",
    )]));
    assert!(r.value["levels"][0].get("power_w").is_none());
    assert!(r.value.get("artifacts").is_none());
}

fn loader_findings(c: &Checked) -> Vec<String> {
    c.findings
        .iter()
        .filter(|f| f.rule.code.starts_with('E'))
        .map(|f| format!("{} {}", f.rule.code, f.message))
        .collect()
}

#[test]
fn the_power_files_are_companions_walked_or_named() {
    let walked = check(&[PathBuf::from(RUN)]);
    assert!(
        loader_findings(&walked).is_empty(),
        "{:?}",
        loader_findings(&walked)
    );
    assert_eq!(walked.corpus.results.len(), 1);
    for name in [
        "run_1/spl.txt",
        "power/client.json",
        "power/server.json",
        "power/ptd_logs.txt",
        "power/client.log",
        "power/server.log",
    ] {
        // Named alone, a side file is a companion of nothing: at most one warning naming it
        // for what it is (a `.log` or `.txt` no reader takes is said once as text).
        let named = check(&[Path::new(RUN).join(name)]);
        let said = loader_findings(&named);
        assert!(said.len() <= 1, "{name}: {said:?}");
        assert!(
            said.iter()
                .all(|m| m.contains("beside its results") || m.starts_with("E002")),
            "{name}: {said:?}"
        );
        assert!(named.corpus.results.is_empty(), "{name}");
    }
}
