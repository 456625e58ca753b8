//! What `regress` holds and how its work grows. Its JSON document is written as it is made:
//! each cell's JSON when the writer reaches it, never the whole report as one JSON value
//! (about ten times the text it prints, and every cell of thousands of configurations is tens
//! of megabytes of text). A run is held once however many cells it is in, and a cell reads only
//! the runs that measured its level. (`BENCHLINT_SCALING_BIN` measures another build.)

use std::path::Path;

use crate::scaling::{exec, time};
use crate::scaling_shapes::{args, assert_linear, identified, jsonl};

/// A level at concurrency `c`: throughput and per-user rate moved by `wiggle` and `scale`,
/// TTFT by `wiggle`.
fn level(c: u64, wiggle: f64, scale: f64) -> serde_json::Value {
    #[expect(clippy::cast_precision_loss, reason = "small concurrencies")]
    let streams = c as f64;
    serde_json::json!({"concurrency": c, "requests": 100, "duration_s": 60.0,
        "throughput_tok_s": {"aggregate": 100.0 * streams * wiggle * scale},
        "per_user_tok_s": {"median": 90.0 / streams * wiggle * scale},
        "ttft_s": {"p50": 0.1 * wiggle}})
}

/// Run `k` of the one platform and model, in launch `launch`, measured at `levels`.
fn run(k: usize, launch: &str, levels: Vec<serde_json::Value>) -> serde_json::Value {
    let mut doc = identified(&format!("r{k}"), 0, 0.0);
    doc["launch"] = serde_json::json!({ "id": launch });
    doc["levels"] = serde_json::Value::Array(levels);
    doc
}

/// `n` configurations, each its own model, six levels, two launches of a run each; `scale`
/// moves every throughput.
fn side(path: &Path, n: usize, scale: f64) {
    many_configurations(path, n, 6, scale);
}

#[test]
fn the_json_report_is_written_as_it_is_made() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, head) = (tmp.path().join("base.jsonl"), tmp.path().join("head.jsonl"));
    side(&base, 1_000, 1.0);
    side(&head, 1_000, 0.98);
    let r = exec(&args(&[&"regress", &base, &head, &"--format", &"json"]));
    let printed = r.out().len() as u64;
    let peak = r.peak_rss_kib * 1024;
    println!(
        "regress --format json: {} MiB printed, peak {} MiB",
        printed >> 20,
        peak >> 20
    );
    if peak == 0 {
        return;
    }
    let document: serde_json::Value = serde_json::from_str(&r.out()).expect("one JSON document");
    assert_eq!(
        document["configurations"].as_array().map(Vec::len),
        Some(1_000)
    );
    let cells = document["cells"].as_array().map_or(0, Vec::len);
    assert!(cells >= 1_000 * 6, "{cells} cells");
    // Measured: the report it is made from and the corpora, about twice the text printed (87
    // MiB for 42); made whole as a JSON value first, thirteen times (560 MiB).
    assert!(
        peak <= printed * 4 + (64 << 20),
        "peak {} MiB for {} MiB printed",
        peak >> 20,
        printed >> 20
    );
    // Written to a file with `-o`, the document is made as it is written too, never held
    // whole before the file is: the same bytes, about the same peak (held, the peak rose by
    // the whole text printed).
    let file = tmp.path().join("report.json");
    let w = exec(&args(&[
        &"regress",
        &base,
        &head,
        &"--format",
        &"json",
        &"-o",
        &file,
    ]));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), r.out());
    let peak_o = w.peak_rss_kib * 1024;
    println!("regress --format json -o: peak {} MiB", peak_o >> 20);
    assert!(
        peak_o <= peak + (12 << 20),
        "peak {} MiB with -o against {} MiB to stdout, {} MiB printed",
        peak_o >> 20,
        peak >> 20,
        printed >> 20
    );
}

/// One configuration of `runs` launches a side, a run each, measured at `levels` levels of
/// three metrics: every run is in a cell for each level and metric.
fn one_configuration(path: &Path, runs: usize, levels: u32) {
    #[expect(clippy::cast_precision_loss, reason = "small counts")]
    jsonl(
        path,
        (0..runs).map(|k| {
            let wiggle = 1.0 + (k % 7) as f64 / 100.0;
            let at = (0..levels).map(|l| level(1 << l, wiggle, 1.0)).collect();
            run(k, &format!("launch-{k}"), at)
        }),
    );
}

/// `regress` with `extra` arguments on two sides `write` makes in `dir`, BASE then HEAD.
fn regress_sides(
    dir: &Path,
    write: &dyn Fn(&Path),
    extra: &[&str],
) -> crate::support::watchdog::Run {
    std::fs::create_dir_all(dir).unwrap();
    let (base, head) = (dir.join("base.jsonl"), dir.join("head.jsonl"));
    write(&base);
    write(&head);
    let mut argv: Vec<&dyn AsRef<std::ffi::OsStr>> = vec![&"regress", &base, &head];
    argv.extend(extra.iter().map(|a| a as &dyn AsRef<std::ffi::OsStr>));
    exec(&args(&argv))
}

/// A run's id, file and launch are held once by the report, not once for each cell the run is
/// in: a configuration of thousands of launches measured at many levels and metrics put a copy
/// of each in every cell, about 390 bytes for each run in each cell (330 MiB for 10,000
/// launches a side at 42 cells).
#[test]
fn a_run_in_many_cells_is_held_once() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = 3_000;
    let peak = |levels: u32| {
        let dir = tmp.path().join(format!("l{levels}"));
        let r = regress_sides(&dir, &|side| one_configuration(side, runs, levels), &[]);
        // Every launch a side is behind each cell.
        assert!(
            r.out().contains(&format!("k={runs} r={runs}")),
            "{}",
            r.out()
        );
        r.peak_rss_kib * 1024
    };
    let (few, many) = (peak(4), peak(16));
    println!(
        "regress, one configuration of {runs} launches a side: peak {} MiB at 4 levels, {} MiB at 16",
        few >> 20,
        many >> 20
    );
    if few == 0 {
        return;
    }
    // Each run is in three cells more for each level more, on each side.
    let more_runs_in_cells = (runs * 2 * 12 * 3) as u64;
    // Measured: about 45 bytes (a run's place and value, its launch's share), with a run's
    // peak moving by up to 8 MiB; a copy of its texts per cell was 332.
    let per = many.saturating_sub(few) / more_runs_in_cells;
    assert!(
        per <= 160,
        "{per} bytes more for each run in a cell ({} MiB at 4 levels, {} MiB at 16)",
        few >> 20,
        many >> 20
    );
}

/// `runs` runs of one configuration, each in a launch of its own and at four levels no other
/// run measured (as a sweep's rates are), so the configuration has four levels a run.
fn levels_of_their_own(path: &Path, runs: usize) {
    jsonl(
        path,
        (0..runs as u64).map(|k| {
            let at = (1..=4).map(|l| level(4 * k + l, 1.0, 1.0)).collect();
            run(usize::try_from(k).unwrap_or(0), &format!("launch-{k}"), at)
        }),
    );
}

/// Each cell reads the runs that measured its level, found once per configuration: reading
/// every run of the configuration for each level and metric grew with the levels times the
/// runs, and here every run brings levels of its own.
#[test]
fn a_configuration_of_many_levels_is_compared_in_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let t = |runs: usize| {
        let dir = tmp.path().join(format!("n{runs}"));
        std::fs::create_dir_all(&dir).unwrap();
        let (base, head) = (dir.join("base.jsonl"), dir.join("head.jsonl"));
        levels_of_their_own(&base, runs);
        levels_of_their_own(&head, runs);
        time(&args(&[&"regress", &base, &head, &"--format", &"json"]))
    };
    let (a, b) = (t(500), t(2_000));
    assert_linear("regress, one configuration of a level set per run", a, b);
}

/// `n` configurations, each its own model, two launches of a run each, measured at `levels`
/// levels (1, 2, 4, ... streams); `scale` moves every throughput.
fn many_configurations(path: &Path, n: usize, levels: u32, scale: f64) {
    #[expect(clippy::cast_precision_loss, reason = "small counts")]
    jsonl(
        path,
        (0..n * 2).map(|k| {
            let (config, launch) = (k / 2, k % 2);
            let wiggle = 1.0 + launch as f64 / 100.0 + config as f64 / 1e6;
            let at = (0..levels).map(|l| level(1 << l, wiggle, scale)).collect();
            let mut doc = run(k, &format!("launch-{config}-{launch}"), at);
            doc["model"]["name"] = serde_json::json!(format!("org/model-{config}"));
            doc
        }),
    );
}

/// The cells are made again, one at a time, at each walk of the report, never all held: a
/// corpus of many configurations measured at many levels held about 670 bytes a cell (its
/// sides, their launches and runs, the change) until the report was written, most of the
/// run's memory. With the same results measured at ten times the levels, what grows is the
/// results' levels, not the cells.
#[test]
fn the_cells_of_many_configurations_are_not_held() {
    let tmp = tempfile::tempdir().unwrap();
    let configs = 600;
    let peak = |levels: u32| {
        let dir = tmp.path().join(format!("c{levels}"));
        let write = |side: &Path| many_configurations(side, configs, levels, 1.0);
        regress_sides(&dir, &write, &["--format", "github"]).peak_rss_kib * 1024
    };
    let (few, many) = (peak(4), peak(32));
    println!(
        "regress, {configs} configurations: peak {} MiB at 4 levels, {} MiB at 32",
        few >> 20,
        many >> 20
    );
    if few == 0 {
        return;
    }
    // Three metrics at each of 28 levels more, in every configuration.
    let more_cells = (configs * 28 * 3) as u64;
    // Measured at 1,000 configurations and 40 levels: 136 to 155 bytes more a cell (the
    // results' own levels, read by every command, and what the walk over them holds), with a
    // run's peak moving by up to 8 MiB (166 bytes a cell here); held, 716.
    let per = many.saturating_sub(few) / more_cells;
    assert!(
        per <= 400,
        "{per} bytes more for each cell ({} MiB at 4 levels, {} MiB at 32)",
        few >> 20,
        many >> 20
    );
}
