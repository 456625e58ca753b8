//! Memory holds what each result is summarised to, not its document, whatever the command:
//! `summary`, `cards`, `capacity` and `audit` (which counts findings as they are handed over)
//! hold about what `check` holds, `import` and `sidecar` the
//! documents of the files being read, and a JSON Lines file costs a chunk of lines, neither its
//! text nor every line parsed at once. Each bound compares two runs of one build (a command against
//! `check`, a JSON Lines file against the same results as files), never a fixed figure;
//! `BENCHLINT_SCALING_BIN` measures another build. And a JSON Lines file read a chunk of lines
//! at a time says what the same lines read whole say.

use std::ffi::OsString;
use std::path::Path;

use serde_json::{Value, json};

use crate::scaling::exec;

const MIB: u64 = 1024;

/// A result that records little (tens of findings) and carries an engine environment of 150
/// variables: a document many times heavier parsed than what a result is summarised to.
fn heavy(i: u32) -> Value {
    let environment: serde_json::Map<String, Value> = (0..150)
        .map(|k| (format!("VAR_{k}_{}", i % 7), json!(format!("v{k}"))))
        .collect();
    json!({
        "schema": "benchlint/result/v1", "id": format!("r{i}"),
        "measured_at": "2026-09-01T00:00:00Z", "outcome": "ok",
        "engine": {"name": "vllm", "version": "0.11.0", "environment": environment},
        "levels": [{"concurrency": 8, "requests": 100, "duration_s": 60.0,
                    "throughput_tok_s": {"aggregate": 2000.0 + f64::from(i)}}],
    })
}

/// `n` heavy results, one a file, in `dir`.
fn heavy_files(dir: &Path, n: u32) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..n {
        std::fs::write(dir.join(format!("r{i}.json")), heavy(i).to_string()).unwrap();
    }
}

/// `n` heavy results, one a line, written to `path`; their text.
fn heavy_lines(path: &Path, n: u32) -> String {
    let text: String = (0..n).map(|i| heavy(i).to_string() + "\n").collect();
    std::fs::write(path, &text).unwrap();
    text
}

fn args(items: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    items.iter().map(|s| s.as_ref().to_os_string()).collect()
}

/// [`heavy`] with long values in its engine environment, as a line: 3,000 of them are a text
/// of 30 MB that a result is summarised to a few hundred bytes of.
fn padded(i: u32) -> String {
    let mut r = heavy(i);
    for v in r["engine"]["environment"]
        .as_object_mut()
        .unwrap()
        .values_mut()
    {
        *v = json!(format!("{}{}", v.as_str().unwrap(), "x".repeat(60)));
    }
    r.to_string()
}

/// The peak resident set of `check --format json` over `path`, KiB.
fn check_peak(path: &Path) -> u64 {
    peak(&[&"check", &"--exit-zero", &"--format", &"json", &path])
}

/// The peak resident set of a run, KiB.
fn peak(items: &[&dyn AsRef<std::ffi::OsStr>]) -> u64 {
    let a = args(items);
    let r = exec(&a);
    println!("{a:?}: peak {} MiB", r.peak_rss_kib / MIB);
    r.peak_rss_kib
}

#[test]
fn every_command_holds_about_what_check_holds_per_result() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    heavy_files(&corpus, 3000);
    let out = tmp.path().join("out");
    let check = check_peak(&corpus);
    if check == 0 {
        return; // no `/proc` to read the peak from
    }
    // The old loaders kept every result's document (and every finding): three to eight
    // times what `check` keeps here.
    let runs: [&[&dyn AsRef<std::ffi::OsStr>]; 6] = [
        &[&"summary", &corpus],
        &[&"audit", &"-o", &out, &corpus],
        &[&"cards", &corpus],
        &[&"capacity", &corpus],
        &[&"import", &"-o", &out, &corpus],
        &[&"sidecar", &"-o", &out, &corpus],
    ];
    for run in runs {
        let _ = std::fs::remove_dir_all(&out);
        let p = peak(run);
        assert!(
            p <= check * 3 / 2 + 8 * MIB,
            "{:?}: peak {} MiB, `check` {} MiB",
            args(run),
            p / MIB,
            check / MIB
        );
    }
}

/// A harness's files hold about what the same results written as canonical files hold: where
/// each value came from in a harness's file is the same for every file it writes alike, and is
/// kept once (each file kept its own map of some seventy pointers before, 11 KB a result).
#[test]
fn harness_files_hold_about_what_their_canonical_twins_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let harness = tmp.path().join("llmperf");
    std::fs::create_dir_all(&harness).unwrap();
    let fixture: Value = serde_json::from_str(include_str!(
        "../../testdata/adapters/llmperf/summary-with-errors-and-sampling.json"
    ))
    .unwrap();
    for i in 0..3000u32 {
        let mut d = fixture.clone();
        // Each its own run: another name, another throughput.
        d["name"] = json!(format!("run-{i}_summary"));
        if let Some(t) = d.get_mut("results_mean_output_throughput_token_per_s") {
            *t = json!(100.0 + f64::from(i % 500) / 10.0);
        }
        std::fs::write(harness.join(format!("r{i}_summary.json")), d.to_string()).unwrap();
    }
    let canonical = tmp.path().join("canonical");
    let imported = exec(&args(&[&"import", &"-o", &canonical, &harness]));
    assert!(
        imported.code == Some(0) || imported.code == Some(1),
        "import failed"
    );
    let as_harness = check_peak(&harness);
    let as_canonical = check_peak(&canonical);
    if as_canonical == 0 {
        return;
    }
    assert!(
        as_harness <= as_canonical * 5 / 4 + 8 * MIB,
        "harness files: peak {} MiB; the same results as canonical files {} MiB",
        as_harness / MIB,
        as_canonical / MIB
    );
}

#[test]
fn a_json_lines_file_is_held_a_chunk_of_lines_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    let files = tmp.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    // Six thousand lines, about 68 MiB: enough that the text held whole stands well clear of
    // what the chunks in flight hold, which does not grow with the file.
    let n = 6_000;
    for i in 0..n {
        std::fs::write(files.join(format!("r{i}.json")), padded(i)).unwrap();
    }
    let lines = tmp.path().join("all.jsonl");
    let text: String = (0..n).map(|i| padded(i) + "\n").collect();
    std::fs::write(&lines, &text).unwrap();
    let as_files = check_peak(&files);
    let as_lines = check_peak(&lines);
    if as_files == 0 {
        return;
    }
    // Neither its parsed lines nor its text are held whole: a chunk of lines at a time (at most
    // 256, at most about a megabyte of text), read from the file, the next parsed while the
    // last one's documents are checked on the workers. What that holds at its peak moves from
    // run to run with how the workers meet: 9 to 29 MiB over the same results as files, in a
    // debug build, whatever the file's length. Every line parsed at once held three times the
    // text more; the text held whole, all of it.
    let text_kib = text.len() as u64 / 1024;
    assert!(
        as_lines <= as_files + text_kib / 2 + 4 * MIB,
        "JSON Lines: peak {} MiB; the same results as files {} MiB, the text {} MiB",
        as_lines / MIB,
        as_files / MIB,
        text_kib / MIB
    );
}

/// `import` writes a JSON Lines file's results a chunk of lines at a time, as `check` checks
/// them: it held every line's canonical JSON until the file was read, several times the text.
#[test]
fn import_holds_a_json_lines_file_a_chunk_of_lines_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    let lines = corpus.join("all.jsonl");
    heavy_lines(&lines, 3000);
    let out = tmp.path().join("out");
    let checked = check_peak(&lines);
    let imported = peak(&[&"import", &"-o", &out, &lines]);
    if checked == 0 {
        return;
    }
    assert_eq!(
        files_in(&out),
        6000,
        "a canonical and a provenance file a line"
    );
    assert!(
        imported <= checked * 5 / 4 + 8 * MIB,
        "import: peak {} MiB; check {} MiB",
        imported / MIB,
        checked / MIB
    );
}

/// `sidecar` makes a JSON Lines file's skeleton from every line, once the last is read: the
/// lines before it are put away in a temporary file and read back one at a time. Held in
/// memory until then (as compact text), they were the run's peak: the text of the file again.
#[test]
fn sidecar_puts_a_json_lines_files_lines_away_until_the_last() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    let lines = corpus.join("all.jsonl");
    let text: String = (0..3000).map(|i| padded(i) + "\n").collect();
    std::fs::write(&lines, &text).unwrap();
    let out = tmp.path().join("out");
    let checked = check_peak(&lines);
    let made = peak(&[&"sidecar", &"-o", &out, &lines]);
    if checked == 0 {
        return;
    }
    assert_eq!(files_in(&out), 1, "one skeleton for the file");
    // Beyond what `check` holds: the JSON of the chunks of lines in hand (a third of the text
    // here at most). The lines kept as text held all of it besides (98 MiB against 56).
    let text_kib = text.len() as u64 / 1024;
    assert!(
        made <= checked + text_kib / 3 + 4 * MIB,
        "sidecar: peak {} MiB; check {} MiB, the text {} MiB",
        made / MIB,
        checked / MIB,
        text_kib / MIB
    );
}

/// The human report quotes the lines around the findings it lists: of a JSON Lines file it
/// reads the runs of lines around them, a line at a time, and keeps only those. It read the
/// whole text, and masked it, to draw them.
#[test]
fn the_human_report_holds_the_lines_it_quotes_not_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let lines = tmp.path().join("all.jsonl");
    let text: String = (0..3000).map(|i| padded(i) + "\n").collect();
    std::fs::write(&lines, &text).unwrap();
    let checked = check_peak(&lines);
    let shown = peak(&[&"check", &"--exit-zero", &"--format", &"human", &lines]);
    if checked == 0 {
        return;
    }
    // Beyond what `check` holds: the lines around the findings listed (the first thousand of
    // the file's, in its first lines). The whole text was held besides, and a masked copy.
    let text_kib = text.len() as u64 / 1024;
    assert!(
        shown <= checked + text_kib / 4 + 6 * MIB,
        "human: peak {} MiB; check {} MiB, the text {} MiB",
        shown / MIB,
        checked / MIB,
        text_kib / MIB
    );
}

/// One canonical result of a million samples: `import` and `sidecar` hold its samples as
/// numbers, as `check` does, and write them back from the file's text; they held each as a
/// JSON value before, some twenty times the text.
#[test]
fn a_result_of_a_million_samples_is_written_out_without_holding_them_as_json() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    let samples: Vec<String> = (0..250_000).map(|i| (i % 997).to_string()).collect();
    let samples = samples.join(",");
    let levels: Vec<String> = (0..4)
        .map(|c| {
            format!(
                "{{\"concurrency\": {}, \"requests\": 250000, \"duration_s\": 600.0, \"samples\": {{\"ttft_s\": [{samples}]}}}}",
                c + 1
            )
        })
        .collect();
    let text = format!(
        "{{\"schema\": \"benchlint/result/v1\", \"id\": \"huge\", \"measured_at\": \"2026-09-01T00:00:00Z\", \"outcome\": \"ok\", \"levels\": [{}]}}",
        levels.join(", ")
    );
    std::fs::write(corpus.join("huge.json"), &text).unwrap();
    let checked = check_peak(&corpus);
    if checked == 0 {
        return;
    }
    let out = tmp.path().join("out");
    let imported = peak(&[&"import", &"-o", &out, &corpus]);
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("huge.json")).unwrap()).unwrap();
    let read: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        written["levels"], read["levels"],
        "every sample written back"
    );
    let sidecar = peak(&[&"sidecar", &"-o", &tmp.path().join("sidecars"), &corpus]);
    for (command, p) in [("import", imported), ("sidecar", sidecar)] {
        assert!(
            p <= checked * 3 / 2 + 8 * MIB,
            "{command}: peak {} MiB; check {} MiB",
            p / MIB,
            checked / MIB
        );
    }
}

/// The files under `dir`, counted.
fn files_in(dir: &Path) -> usize {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .count()
}

/// Lines of canonical results with what the parser reports (broken lines, repeated keys, bare
/// `NaN`, integers beyond 64 bits, blank lines) and levels past a bound of one, many times over
/// the size of a chunk of lines.
fn mixed_lines(n: usize) -> String {
    let base: Vec<Value> = include_str!("../../testdata/sidecar/canonical/typed-command.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut text = String::new();
    for i in 0..n {
        let line = if i % 97 == 5 {
            format!("{{\"broken\": {i}")
        } else if i % 89 == 7 {
            format!("{{\"id\": \"dup\", \"id\": \"dup2\", \"levels\": [{i}")
        } else if i % 83 == 3 {
            String::new()
        } else {
            let mut d = base[i % base.len()].clone();
            d["id"] = json!(format!("run-{i}"));
            if i % 5 == 0
                && let Some(levels) = d["levels"].as_array_mut()
            {
                let again = levels.clone();
                levels.extend(again);
            }
            let mut line = d.to_string();
            let extra = match i % 4 {
                0 => ", \"k\": 1, \"k\": 2}",
                1 => ", \"wide\": 123456789012345678901234567890}",
                2 => ", \"nan\": NaN, \"inf\": Infinity}",
                _ => "}",
            };
            line.replace_range(line.len() - 1.., extra);
            line
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}

#[test]
fn json_lines_findings_are_those_of_the_lines_read_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let text = mixed_lines(700);
    // `.jsonl` is read a chunk of lines at a time; the same text as `.json` is read whole
    // (split into documents, and by line again since one is broken).
    let (lines, whole) = (tmp.path().join("a"), tmp.path().join("b"));
    std::fs::create_dir_all(&lines).unwrap();
    std::fs::create_dir_all(&whole).unwrap();
    std::fs::write(lines.join("runs.jsonl"), &text).unwrap();
    std::fs::write(whole.join("runs.jsonl.json"), &text).unwrap();
    let capped = tmp.path().join("capped.toml");
    std::fs::write(
        &capped,
        "[thresholds]\nmax_findings_per_file = 40\nmax_levels = 1\n",
    )
    .unwrap();
    for config in [None, Some(&capped)] {
        let report = |dir: &Path, name: &str| {
            let mut a = args(&[&"check", &"--exit-zero", &"--format", &"json"]);
            if let Some(c) = config {
                a.extend(args(&[&"--config", c]));
            }
            a.push(dir.join(name).into_os_string());
            let out = exec(&a).out();
            out.replace(&dir.join(name).to_string_lossy().into_owned(), "RUNS")
                .replace(name, "RUNS")
        };
        let (a, b) = (
            report(&lines, "runs.jsonl"),
            report(&whole, "runs.jsonl.json"),
        );
        assert!(a.contains("E005") && a.contains("E002"), "{a}");
        assert!(a == b, "{config:?}: the findings differ");
    }
}
