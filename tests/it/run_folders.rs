//! Formats whose meaning spans a folder, read a folder at a time: an inference-perf run folder
//! and a genai-bench experiment are one ladder each, an InferenceX run folder's server log and
//! launch command fill what its AIPerf result lacks. Against the real folders in
//! `../shared/realworld` (when present) and the fixtures in `testdata/adapters/`.
//!
//! For every folder: no loader finding (E001 to E004), each value read from another file of
//! the run points at something that file holds (a pointer into its document, the start of a
//! line of the log), and a snapshot of the results, their levels, and which files beside them
//! supplied what.

#![allow(
    clippy::format_push_string,
    clippy::case_sensitive_file_extension_comparisons,
    reason = "test-report building reads more plainly this way"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use benchlint::corpus::{LoadedResult, Options};
use benchlint::engine::{self, Checked};
use benchlint::json::parse_text;
use benchlint::model::Provenance;
use serde_json::Value;

const REALWORLD: &str = "../shared/realworld";
const FIXTURES: &str = "testdata/adapters";

/// The real run folders (relative to `REALWORLD`).
const REAL_FOLDERS: [&str; 7] = [
    "genai-bench/basetenlabs__training_benchmark",
    "inference-perf/kubernetes-sigs__demo-vllm-eagle",
    "inference-perf/jjk-g__gemma4-vllm",
    "inference-perf/jjk-g__llama3-8b",
    "inferencex",
    "inferencex-aiperf/ajith-sirra-amd__minimaxm2.5_tp2_conc4__amds_06",
    "inferencex-aiperf/ajith-sirra-amd__glm5.1_tp2_conc16__amds_08",
];

/// Fixture folders: every folder directly under these, and the folder itself for `inferencex`.
const FIXTURE_GROUPS: [&str; 3] = ["genai-bench", "inference-perf", "run-folder"];

fn check(path: &Path) -> Checked {
    engine::check(&[path.to_path_buf()], &Options::default())
}

fn rel(root: &Path, path: &str) -> String {
    let root = root.to_string_lossy();
    path.strip_prefix(root.as_ref()).map_or_else(
        || path.to_string(),
        |r| r.trim_start_matches('/').to_string(),
    )
}

/// The level's load key and counts, in a line.
fn level_line(level: &Value) -> String {
    let mut parts = Vec::new();
    for k in [
        "concurrency",
        "request_rate",
        "achieved_request_rate",
        "max_concurrency",
        "requests",
        "failed",
        "duration_s",
        "output_tokens",
    ] {
        if let Some(v) = level.get(k) {
            parts.push(format!("{k}={v}"));
        }
    }
    if let Some(a) = level.pointer("/throughput_tok_s/aggregate") {
        parts.push(format!("aggregate={a}"));
    }
    parts.join(" ")
}

/// Checks what the result says about other files against those files.
fn check_provenance(root: &Path, r: &LoadedResult, problems: &mut Vec<String>) {
    for (canonical, p) in r.provenance.iter() {
        match p {
            Provenance::Beside { path, pointer } => {
                let Ok(text) = std::fs::read_to_string(path) else {
                    problems.push(format!("{canonical}: {path} cannot be read"));
                    continue;
                };
                let holds = if path.ends_with(".yaml") || path.ends_with(".yml") {
                    benchlint::yaml::from_str(&text)
                        .ok()
                        .is_some_and(|v| v.pointer(pointer).is_some())
                } else {
                    parse_text(&text, false)
                        .documents
                        .first()
                        .is_some_and(|d| d.value.pointer(pointer).is_some())
                };
                if !holds {
                    problems.push(format!(
                        "{canonical}: {} holds nothing at {pointer}",
                        rel(root, path)
                    ));
                }
            }
            Provenance::ServerLog { path, offset } => {
                let bytes = std::fs::read(path).unwrap_or_default();
                if *offset >= bytes.len() || (*offset > 0 && bytes[offset - 1] != b'\n') {
                    problems.push(format!(
                        "{canonical}: offset {offset} is not the start of a line of {}",
                        rel(root, path)
                    ));
                }
            }
            _ => {}
        }
    }
}

/// Which files beside the result supplied values, and how many.
fn supplied(root: &Path, r: &LoadedResult) -> Vec<String> {
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    for (_, p) in r.provenance.iter() {
        let key = match p {
            Provenance::Beside { path, .. } => format!("recorded in {}", rel(root, path)),
            Provenance::ServerLog { path, .. } => format!("server log {}", rel(root, path)),
            Provenance::LaunchCommand { path } => format!("launch command {}", rel(root, path)),
            _ => continue,
        };
        *by.entry(key).or_default() += 1;
    }
    by.into_iter().map(|(k, n)| format!("{k}: {n}")).collect()
}

fn audit_folder(root: &Path, problems: &mut Vec<String>) -> String {
    let checked = check(root);
    let mut out = String::new();
    let mut loader: Vec<String> = Vec::new();
    let mut conflicts: Vec<String> = Vec::new();
    for f in &checked.findings {
        let code = f.rule.code;
        let at = rel(root, f.primary.path.raw());
        if matches!(code, "E001" | "E002" | "E003" | "E004") {
            problems.push(format!("{}: {code} {at}: {}", root.display(), f.message));
            loader.push(format!("{code} {at}"));
        }
        if matches!(code, "M015" | "M019") {
            conflicts.push(format!(
                "{code} {at}: {}",
                f.message
                    .raw()
                    .replace(&root.to_string_lossy().into_owned(), "<folder>")
            ));
        }
    }
    conflicts.sort();
    out.push_str(&format!(
        "files: {}\nloader findings: {loader:?}\nresults: {}\n",
        checked.corpus.files,
        checked.corpus.results.len()
    ));
    for r in &checked.corpus.results {
        check_provenance(root, r, problems);
        let levels = r.value["levels"].as_array().cloned().unwrap_or_default();
        out.push_str(&format!(
            "\n== {} ({}, {}, {} level{})\n",
            rel(root, &r.doc.id),
            r.origin.format,
            r.doc.outcome.as_str(),
            levels.len(),
            if levels.len() == 1 { "" } else { "s" }
        ));
        for (i, l) in levels.iter().enumerate() {
            out.push_str(&format!("  level {i}: {}\n", level_line(l)));
        }
        out.push_str(&format!(
            "engine: {}\n",
            r.value.get("engine").unwrap_or(&Value::Null)
        ));
        out.push_str(&format!(
            "model: {}\n",
            r.value.get("model").unwrap_or(&Value::Null)
        ));
        for s in supplied(root, r) {
            out.push_str(&format!("from beside: {s}\n"));
        }
    }
    for c in conflicts {
        out.push_str(&format!("\n{c}"));
    }
    out
}

fn audit(folders: &[PathBuf], prefix: &str, base: &Path) {
    let mut problems = Vec::new();
    for folder in folders {
        let text = audit_folder(folder, &mut problems);
        let name = folder
            .strip_prefix(base)
            .unwrap_or(folder)
            .to_string_lossy()
            .replace(['/', '\\'], "__");
        insta::with_settings!({ snapshot_path => "snapshots/run_folders", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(format!("{prefix}__{name}"), text);
        });
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn real_run_folders_are_read_as_one_run() {
    let base = Path::new(REALWORLD);
    if !base.is_dir() {
        println!("skipping: ../shared/realworld not found");
        return;
    }
    let folders: Vec<PathBuf> = REAL_FOLDERS.iter().map(|f| base.join(f)).collect();
    audit(&folders, "realworld", base);
}

#[test]
fn fixture_run_folders_are_read_as_one_run() {
    let base = Path::new(FIXTURES);
    let mut folders = vec![base.join("inferencex")];
    for group in FIXTURE_GROUPS {
        let mut found: Vec<PathBuf> = std::fs::read_dir(base.join(group))
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        found.sort();
        folders.extend(found);
    }
    audit(&folders, "fixture", base);
}

// ---------------------------------------------------------------- focused checks

fn findings<'a>(checked: &'a Checked, code: &str) -> Vec<&'a benchlint::diagnostic::Finding> {
    checked
        .findings
        .iter()
        .filter(|f| f.rule.code == code)
        .collect()
}

#[test]
fn an_api_key_in_genai_bench_cmd_is_reported_on_the_metadata_and_never_printed() {
    let folder = Path::new(FIXTURES).join("genai-bench/sglang-experiment");
    let checked = check(&folder);
    let m018 = findings(&checked, "M018");
    assert_eq!(m018.len(), 1, "{m018:?}");
    assert!(
        m018[0]
            .primary
            .path
            .raw()
            .ends_with("experiment_metadata.json")
    );
    assert_eq!(m018[0].primary.pointer, "/cmd");
    let key = "sk-proj-4fJ2k9QxLmN8pRt3VwYz7HcB";
    for f in &checked.findings {
        assert!(!f.message.contains(key), "{}", f.message);
        assert!(
            !f.help
                .as_ref()
                .map(benchlint::text::Text::raw)
                .unwrap_or_default()
                .contains(key)
        );
    }
    // The client's command is not the serve command.
    let r = &checked.corpus.results[0];
    assert!(r.value.pointer("/engine/serve_command").is_none());
    assert!(!r.value.to_string().contains(key));
    assert!(findings(&checked, "M003").iter().any(|f| {
        f.help
            .as_ref()
            .is_some_and(|h| h.contains("genai-bench's `cmd`"))
    }));
}

#[test]
fn one_level_file_read_alone_is_a_one_level_result_with_the_experiment_identity() {
    let file = Path::new(FIXTURES).join(
        "genai-bench/sglang-experiment/D(100,1000)_text-to-text_num_concurrency_16_time_13s.json",
    );
    let checked = check(&file);
    assert_eq!(checked.corpus.results.len(), 1);
    let r = &checked.corpus.results[0];
    assert_eq!(r.doc.levels.len(), 1);
    assert_eq!(r.doc.levels.as_slice()[0].concurrency, Some(16));
    assert_eq!(r.doc.levels.as_slice()[0].failed, Some(8));
    // Milliseconds in the file (`_time_unit`), seconds and milliseconds in the result.
    let ttft = r
        .value
        .pointer("/levels/0/ttft_s/p50")
        .and_then(Value::as_f64);
    assert!(ttft.is_some_and(|t| (t - 0.1862).abs() < 1e-9), "{ttft:?}");
    assert_eq!(
        r.value.pointer("/engine/version"),
        Some(&Value::from("0.4.6.post2"))
    );
    assert_eq!(
        r.value.pointer("/workload/max_output_tokens"),
        Some(&Value::from(1000))
    );
    match r.provenance.get("/engine/version") {
        Some(Provenance::Beside { path, pointer }) => {
            assert!(path.ends_with("experiment_metadata.json"), "{path}");
            assert_eq!(pointer, "/server_version");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_finding_about_a_level_lands_in_that_level_s_file() {
    let base = Path::new(REALWORLD);
    if !base.is_dir() {
        println!("skipping: ../shared/realworld not found");
        return;
    }
    let checked = check(&base.join("genai-bench/basetenlabs__training_benchmark"));
    let r012 = findings(&checked, "R012");
    assert_eq!(r012.len(), 1, "{r012:?}");
    assert!(
        r012[0]
            .primary
            .path
            .raw()
            .ends_with("N2000_200_200_20_text-to-text_num_concurrency_64_time_14s.json")
    );
    assert_eq!(
        r012[0].primary.pointer,
        "/aggregated_metrics/mean_output_throughput_tokens_per_s"
    );
}

#[test]
fn a_server_log_that_contradicts_the_result_is_m019_pointing_at_its_line() {
    let folder = Path::new(FIXTURES).join("run-folder/vllm-log-contradicts");
    let checked = check(&folder);
    let m019 = findings(&checked, "M019");
    assert_eq!(m019.len(), 1, "{m019:?}");
    let f = m019[0];
    assert_eq!(f.primary.pointer, "/tensor_parallel_size");
    assert!(f.message.contains("server log") && f.message.contains("is 4 but the file records 2"));
    let log_path = folder.join("server.log");
    let related = &f.related[0];
    assert_eq!(related.path.raw(), log_path.to_string_lossy());
    let log = std::fs::read_to_string(&log_path).unwrap();
    let line = &log[related.offset.unwrap()..];
    // The effective configuration the engine printed wins over the arguments it was given.
    assert!(line.starts_with(
        "(EngineCore_DP0 pid=7911) INFO 03-01 14:19:02 [core.py:77] Initializing a V1 LLM engine"
    ));
    // The file's value is kept; what the file does not record is filled from the log.
    let r = &checked.corpus.results[0];
    assert_eq!(r.doc.engine.as_ref().unwrap().tensor_parallel_size, Some(2));
    assert_eq!(r.doc.engine.as_ref().unwrap().max_num_seqs, Some(32));
}

#[test]
fn the_run_folder_above_aiperf_artifacts_passes_the_checklist_items_it_records() {
    let folder = Path::new(FIXTURES).join("run-folder/vllm-aiperf");
    // Read from the run folder, from aiperf_artifacts/ alone, or the file alone: the same.
    for arg in [
        folder.clone(),
        folder.join("aiperf_artifacts"),
        folder.join("aiperf_artifacts/profile_export_aiperf.json"),
    ] {
        let checked = check(&arg);
        assert_eq!(checked.corpus.results.len(), 1, "{}", arg.display());
        for code in ["M003", "M004", "M005", "M006", "M007", "E004"] {
            assert!(
                findings(&checked, code).is_empty(),
                "{} {code}: {:?}",
                arg.display(),
                findings(&checked, code)
            );
        }
        let r = &checked.corpus.results[0];
        assert_eq!(
            r.value.pointer("/engine/serve_command_source"),
            Some(&Value::from("launch-command"))
        );
        assert!(matches!(
            r.provenance.get("/engine/version"),
            Some(Provenance::ServerLog { .. })
        ));
        assert!(matches!(
            r.provenance.get("/engine/serve_command"),
            Some(Provenance::LaunchCommand { path }) if path.ends_with("vllm_command.txt")
        ));
    }
}

#[test]
fn a_symlink_out_of_the_corpus_is_never_consulted() {
    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(
            outside.path().join("server.log"),
            "(APIServer pid=1) INFO non-default args: {'tensor_parallel_size': 8}\n\
             (EngineCore pid=2) INFO Initializing a V1 LLM engine (v9.9.9) with config: tensor_parallel_size=8\n",
        )
        .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("run");
        std::fs::create_dir(&run).unwrap();
        std::fs::copy(
            Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"),
            run.join("result.json"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path().join("server.log"), run.join("server.log"))
            .unwrap();
        let checked = check(&run);
        let r = &checked.corpus.results[0];
        assert!(r.value.pointer("/engine/version").is_none());
        assert!(r.value.pointer("/engine/tensor_parallel_size").is_none());
    }
}

#[test]
fn a_summary_is_never_counted_twice() {
    let folder = Path::new(FIXTURES).join("inference-perf/older-stages-rates-in-config");
    let checked = check(&folder);
    assert_eq!(checked.corpus.results.len(), 1);
    let r = &checked.corpus.results[0];
    assert_eq!(r.doc.levels.len(), 2);
    let rates: Vec<Value> = r.value["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["request_rate"].clone())
        .collect();
    assert_eq!(rates, vec![Value::from(2.0), Value::from(8.0)]);
    // The older files do not record the rate: it is the config's, and says so.
    match r.provenance.get("/levels/1/request_rate") {
        Some(Provenance::Beside { path, pointer }) => {
            assert!(path.ends_with("config.yaml"));
            assert_eq!(pointer, "/load/stages/1/rate");
        }
        other => panic!("{other:?}"),
    }
    // The summary alone is still not a level: it pools two rates.
    let alone = check(&folder.join("summary_lifecycle_metrics.json"));
    assert!(alone.corpus.results.is_empty());
    assert!(alone.findings.iter().all(|f| f.rule.code != "E004"));
}

#[test]
fn import_writes_where_each_value_came_from() {
    let out = tempfile::tempdir().unwrap();
    let folder = Path::new(FIXTURES).join("run-folder/vllm-aiperf");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .arg("import")
        .arg(&folder)
        .arg("-o")
        .arg(out.path())
        .status()
        .unwrap();
    assert!(status.success());
    // The outputs mirror the run folder: the result sits where it sat, below `aiperf_artifacts/`.
    let mut provenance = None;
    let mut folders = vec![out.path().to_path_buf()];
    while let Some(dir) = folders.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                folders.push(p);
            } else if p.to_string_lossy().ends_with(".provenance.json") {
                provenance = Some(std::fs::read_to_string(p).unwrap());
            }
        }
    }
    let v: Value = serde_json::from_str(&provenance.unwrap()).unwrap();
    assert_eq!(v["values"]["/engine/version"]["kind"], "server-log");
    assert_eq!(
        v["values"]["/engine/serve_command"]["kind"],
        "launch-command"
    );
    assert_eq!(
        v["values"]["/engine/serve_command_source"]["kind"],
        "launch-command"
    );
}

#[test]
fn hostile_companions_never_hang_or_break_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    std::fs::copy(
        Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"),
        run.join("result.json"),
    )
    .unwrap();
    // A folder named like a log, binary noise, a log line far past the line bound that holds
    // the marker, a command file that is not a command.
    std::fs::create_dir(run.join("server.log")).unwrap();
    let mut noise: Vec<u8> = (0..200_000u32).map(|i| (i * 7919 % 251) as u8).collect();
    noise.extend_from_slice(b"\nnon-default args: {'tensor_parallel_size': \n");
    std::fs::write(run.join("a_server.log"), &noise).unwrap();
    let long = format!(
        "server_args=ServerArgs(tp_size=8, {})\n",
        "x=1, ".repeat(400_000)
    );
    std::fs::write(run.join("b_server.log"), long).unwrap();
    std::fs::write(
        run.join("x_command.txt"),
        "\u{0}\u{1}not a command at all '\"\\",
    )
    .unwrap();
    #[cfg(unix)]
    {
        let fifo = run.join("vllm_command.txt");
        let ok = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok || !fifo.exists());
    }
    let checked = check(&run);
    assert_eq!(checked.corpus.results.len(), 1);
    assert!(checked.corpus.internal_errors.is_empty());
    let r = &checked.corpus.results[0];
    // Nothing was believed: the long line was skipped whole, the noise names no engine.
    assert!(r.value.pointer("/engine/tensor_parallel_size").is_none());
    assert!(r.value.pointer("/engine/serve_command").is_none());
}

/// A copy of the fixture ladder `newer-three-stages` with `load_summary` taken out of the stage
/// files `without` (by stage index), and, when `config` is given, that `config.yaml` beside it.
fn three_stages_without(without: &[usize], config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(FIXTURES).join("inference-perf/newer-three-stages");
    for i in 0..3 {
        let name = format!("stage_{i}_lifecycle_metrics.json");
        let mut doc: Value =
            serde_json::from_str(&std::fs::read_to_string(from.join(&name)).unwrap()).unwrap();
        if without.contains(&i) {
            doc.as_object_mut().unwrap().remove("load_summary");
        }
        std::fs::write(dir.path().join(&name), doc.to_string()).unwrap();
    }
    if let Some(config) = config {
        std::fs::write(dir.path().join("config.yaml"), config).unwrap();
    }
    dir
}

fn level_rates(r: &LoadedResult) -> Vec<Value> {
    r.value["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["request_rate"].clone())
        .collect()
}

#[test]
fn a_stage_that_lost_its_load_is_reported_and_the_ladder_keeps_its_other_stages() {
    let whole = check(&Path::new(FIXTURES).join("inference-perf/newer-three-stages"));
    assert_eq!(whole.corpus.results.len(), 1);
    assert_eq!(
        level_rates(&whole.corpus.results[0]),
        [Value::from(4.0), Value::from(12.0), Value::from(20.0)]
    );
    assert!(whole.findings.iter().all(|f| f.rule.code != "E003"));

    // The newer layout records each stage's rate only in its `load_summary`: without it the
    // stage has no load, is reported on its own file, and the ladder is read without it.
    let dir = three_stages_without(&[1], None);
    let checked = check(dir.path());
    assert_eq!(checked.corpus.results.len(), 1, "{:?}", checked.findings);
    let r = &checked.corpus.results[0];
    assert_eq!(level_rates(r), [Value::from(4.0), Value::from(20.0)]);
    // The level at 20 req/s still points into its own file, renumbered as level 1.
    match r.provenance.lookup("/levels/1/request_rate") {
        Some((Provenance::Beside { path, .. }, _)) => {
            assert!(path.ends_with("stage_2_lifecycle_metrics.json"), "{path}");
        }
        other => panic!("{other:?}"),
    }
    let e003: Vec<_> = checked
        .findings
        .iter()
        .filter(|f| f.rule.code == "E003")
        .collect();
    assert_eq!(e003.len(), 1, "{e003:?}");
    assert!(
        e003[0]
            .primary
            .path
            .raw()
            .ends_with("stage_1_lifecycle_metrics.json")
    );
    assert_eq!(
        e003[0].message.raw(),
        "level 1 records neither a concurrency nor a request rate (a request count is neither): \
         it is left out, and the result is read with its other 2 levels"
    );
    // `--show-files` names the stage for what became of it, not as the ladder's companion.
    let fate = checked
        .corpus
        .read
        .iter()
        .find(|f| f.path.raw().ends_with("stage_1_lifecycle_metrics.json"))
        .unwrap();
    assert!(
        fate.read_as
            .starts_with("none (E003 schema-violation: its level is left out of `"),
        "{}",
        fate.read_as
    );
    // No finding of the other stages moved onto the stage that was left out.
    assert!(
        checked
            .findings
            .iter()
            .filter(|f| f
                .primary
                .path
                .raw()
                .ends_with("stage_1_lifecycle_metrics.json"))
            .all(|f| f.rule.code == "E003")
    );

    // The older layout gives the rate in `config.yaml`: the stage keeps its level.
    let config = "load:\n  type: constant\n  stages:\n    - rate: 4\n      duration: 60\n    \
                  - rate: 12\n      duration: 60\n    - rate: 20\n      duration: 60\n\
                  api:\n  type: completion\nserver:\n  type: vllm\n  model_name: demo\n";
    let dir = three_stages_without(&[1], Some(config));
    let checked = check(dir.path());
    assert_eq!(checked.corpus.results.len(), 1);
    assert_eq!(
        level_rates(&checked.corpus.results[0]),
        [Value::from(4.0), Value::from(12.0), Value::from(20.0)]
    );
    assert!(checked.findings.iter().all(|f| f.rule.code != "E003"));

    // With no stage keyed, nothing is read and the result is one E003.
    let dir = three_stages_without(&[0, 1, 2], None);
    let checked = check(dir.path());
    assert!(checked.corpus.results.is_empty());
    assert!(checked.findings.iter().any(|f| f.rule.code == "E003"));
}
