//! `benchlint sidecar`: the skeleton of each file's sidecar (snapshots), the round trip (a
//! skeleton completed with realistic values makes the checklist findings go away, on a file of
//! ours and on a real vLLM file), where skeletons are written and what is refused, and the help
//! of a missing checklist item on a harness's file.

use crate::support::realworld;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

const VLLM: &str = "testdata/sidecar/vllm/qwen3-8b-fp8.jsonl";
const CANONICAL: &str = "testdata/sidecar/canonical/typed-command.jsonl";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_in(dir: Option<&Path>, args: &[&str]) -> Run {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1").args(args);
    if let Some(d) = dir {
        c.current_dir(d);
    }
    let out = c.output().unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn run(args: &[&str]) -> Run {
    run_in(None, args)
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/sidecar", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, text);
    });
}

/// What a team would write for each key a skeleton asks for: realistic values of an H100 box
/// running vLLM, as a launcher script and `docker inspect` would tell them.
#[expect(
    clippy::match_same_arms,
    reason = "one value per key, as a team writes them, equal or not"
)]
fn team_value(key: &str) -> Value {
    match key {
        "platform.host" => json!("gpu-node-07"),
        "platform.description" => json!("1x DGX H100 (8x H100 SXM5 80GB, NVLink), 2 GPUs used"),
        "platform.device.model" => json!("NVIDIA H100 80GB HBM3"),
        "platform.devices_per_node" => json!(2),
        "platform.nodes" => json!(1),
        "engine.name" => json!("vllm"),
        "engine.version" => json!("0.11.0"),
        "engine.image_digest" => json!(format!("sha256:{}", "7c".repeat(32))),
        "engine.serve_command" => json!([
            "vllm",
            "serve",
            "facebook/opt-125m",
            "--max-num-seqs",
            "256",
            "--max-model-len",
            "2048"
        ]),
        "engine.serve_command_source" => json!("process"),
        "engine.speculative.enabled" => json!(false),
        "engine.enforce_eager" => json!(false),
        "engine.kv_cache_dtype" => json!("auto"),
        "engine.max_num_seqs" => json!(256),
        "engine.max_model_len" => json!(2048),
        "engine.max_num_batched_tokens" => json!(8192),
        "engine.enable_prefix_caching" => json!(true),
        "engine.tensor_parallel_size" => json!(2),
        "engine.expert_parallel_size" => json!(1),
        "engine.pipeline_parallel_size" => json!(1),
        "model.precision" => json!("bf16"),
        "model.revision" => json!("27dcfa74d334bc871f3234de431e71c6eeba5dd6"),
        "model.kernel" => json!("flash-attn"),
        "harness.revision" => json!("4c2a9e1f0b7d3a5c8e6f1b2d4a7c9e0f3b5d8a1c"),
        "workload.sampling.top_p" => json!(1.0),
        "workload.sampling.top_k" => json!(-1),
        "workload.temperature" => json!(0),
        "workload.seed" => json!(0),
        "artifacts.power_trace.path" => json!("power/run.csv"),
        "artifacts.power_trace.kind" => json!("device"),
        "artifacts.quality_gate.path" => json!("quality/run.json"),
        "artifacts.quality_gate.passed" => json!(true),
        other => panic!("the skeleton asks for `{other}`, which this test has no value for"),
    }
}

/// Replaces every null of `doc` (but the note) with [`team_value`] of its dotted key.
fn complete(doc: &mut Value, prefix: &str) {
    let Some(map) = doc.as_object_mut() else {
        return;
    };
    for (k, v) in map.iter_mut() {
        if k == "$benchlint" {
            continue;
        }
        let key = format!("{prefix}{k}");
        if v.is_null() {
            *v = team_value(&key);
        } else if v.is_object() {
            complete(v, &format!("{key}."));
        }
    }
}

/// The artifacts the completed sidecar names, beside the result.
fn write_artifacts(dir: &Path) {
    std::fs::create_dir_all(dir.join("power")).unwrap();
    std::fs::create_dir_all(dir.join("quality")).unwrap();
    std::fs::write(dir.join("power/run.csv"), "t_s,power_w\n0,612.5\n1,640.1\n").unwrap();
    std::fs::write(
        dir.join("quality/run.json"),
        r#"{"passed": true, "score": 0.81}"#,
    )
    .unwrap();
}

/// `check --format json` of `file`: its diagnostics.
fn diagnostics(file: &Path) -> Vec<Value> {
    let r = run(&[
        "check",
        "--format",
        "json",
        "--isolated",
        &file.to_string_lossy(),
    ]);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    v["diagnostics"].as_array().unwrap().clone()
}

/// The canonical pointers of the checklist items (M001-M014) `check` reports absent.
fn absent_pointers(diagnostics: &[Value]) -> BTreeSet<String> {
    diagnostics
        .iter()
        .filter(|d| {
            let code = d["code"].as_str().unwrap();
            ("M001"..="M014").contains(&code)
        })
        .filter_map(|d| {
            let m = d["message"].as_str().unwrap();
            let rest = m.strip_prefix("not recorded: ")?;
            let start = rest.rfind("(`")?;
            Some(rest[start + 2..rest.len() - 2].to_string())
        })
        .collect()
}

/// The keys a skeleton lists (missing and derived), as canonical pointers.
fn skeleton_pointers(skeleton: &Value) -> BTreeSet<String> {
    let note = &skeleton["$benchlint"];
    ["missing", "derived"]
        .iter()
        .filter_map(|k| note[k].as_object())
        .flat_map(|m| m.keys())
        .map(|k| format!("/{}", k.replace('.', "/")))
        .collect()
}

/// The keys a skeleton adds only because they go with an item.
const COMPANIONS: [&str; 3] = [
    "/engine/serve_command_source",
    "/artifacts/power_trace/kind",
    "/artifacts/quality_gate/passed",
];

/// The round trip on `file` (a copy in a scratch folder): the skeleton lists exactly what
/// `check` reports absent; completed, it leaves no checklist finding.
fn round_trip(file: &Path) {
    let before = diagnostics(file);
    let absent = absent_pointers(&before);
    assert!(!absent.is_empty(), "the file misses nothing");
    let r = run(&[
        "sidecar",
        "--isolated",
        "--write-beside",
        &file.to_string_lossy(),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.starts_with("wrote "), "{}", r.stdout);
    let written = file.with_file_name(
        r.stdout
            .split_whitespace()
            .nth(1)
            .map(|p| Path::new(p).file_name().unwrap().to_owned())
            .unwrap(),
    );
    let mut skeleton: Value =
        serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    let listed: BTreeSet<String> = skeleton_pointers(&skeleton)
        .into_iter()
        .filter(|p| !COMPANIONS.contains(&p.as_str()))
        .collect();
    assert_eq!(
        listed, absent,
        "the skeleton lists exactly what check reports"
    );
    // As written, it is a valid sidecar that supplies only what benchlint filled in.
    let derived: BTreeSet<String> = skeleton["$benchlint"]["derived"]
        .as_object()
        .map(|m| {
            m.keys()
                .map(|k| format!("/{}", k.replace('.', "/")))
                .collect()
        })
        .unwrap_or_default();
    let blank = diagnostics(file);
    assert_eq!(
        absent_pointers(&blank),
        absent.difference(&derived).cloned().collect()
    );
    assert!(
        !blank
            .iter()
            .any(|d| d["code"] == "E003" || d["code"] == "M019"),
        "{blank:#?}"
    );
    complete(&mut skeleton, "");
    std::fs::write(&written, format!("{skeleton:#}\n")).unwrap();
    write_artifacts(file.parent().unwrap());
    let after = diagnostics(file);
    let left: Vec<&Value> = after
        .iter()
        .filter(|d| {
            let code = d["code"].as_str().unwrap();
            ("M001"..="M014").contains(&code) || code == "M019" || code == "E003"
        })
        .collect();
    assert!(left.is_empty(), "{left:#?}");
    // The folder walked as a whole: the completed sidecar is recognised as one, not reported
    // as an input problem.
    let r = run(&[
        "check",
        "--format",
        "json",
        "--isolated",
        &file.parent().unwrap().to_string_lossy(),
    ]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        !v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["path"].as_str().unwrap().ends_with(".meta.json")
                && d["code"].as_str().unwrap().starts_with('E')),
        "{}",
        r.stdout
    );
}

#[test]
fn skeleton_of_a_harness_file() {
    let r = run(&["sidecar", "--isolated", VLLM]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot("vllm_skeleton", &r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["model"]["precision"],
        json!("fp8"),
        "from the model's name"
    );
    assert_eq!(
        v["platform"]["devices_per_node"],
        json!(2),
        "from the tensor parallel size the file's metadata records"
    );
    assert!(v["platform"]["host"].is_null());
}

#[test]
fn skeleton_of_a_file_of_several_results() {
    let r = run(&["sidecar", "--isolated", CANONICAL]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot("canonical_skeleton", &r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let note = &v["$benchlint"];
    // Two of three results record the host, alike: the third takes it from the sidecar.
    assert_eq!(v["platform"]["host"], json!("gpu-a"));
    assert!(
        note["derived"]["platform.host"]
            .as_str()
            .unwrap()
            .contains("2 of the 3 results")
    );
    // Two record different model lengths: no one value fits, so it stays to fill, said why.
    assert!(v["engine"]["max_model_len"].is_null());
    assert!(
        note["missing"]["engine.max_model_len"]
            .as_str()
            .unwrap()
            .contains("disagree (4096, 8192)")
    );
    // A typed command is not taken as recorded by `check`; the skeleton fills it, to check.
    assert_eq!(v["engine"]["max_num_seqs"], json!(64));
    assert!(
        note["derived"]["engine.max_num_seqs"]
            .as_str()
            .unwrap()
            .contains("\"typed\"")
    );
}

#[test]
fn round_trip_on_a_file_of_ours() {
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(Path::new(VLLM), tmp.path(), "runs/qwen3-8b-fp8.jsonl");
    round_trip(&file);
}

#[test]
fn round_trip_on_a_real_vllm_file() {
    let Some(real) = realworld::real("vllm/er0080__bench_serve_v0.25.1.json") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(&real, tmp.path(), "runs/bench_serve.json");
    round_trip(&file);
}

#[test]
fn an_existing_sidecar_is_replaced_only_with_force_and_keeps_its_values() {
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(Path::new(VLLM), tmp.path(), "qwen3-8b-fp8.jsonl");
    let shown = file.to_string_lossy().into_owned();
    assert_eq!(
        run(&["sidecar", "--isolated", "--write-beside", &shown]).code,
        0
    );
    let side = tmp.path().join("qwen3-8b-fp8.meta.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&side).unwrap()).unwrap();
    doc["platform"]["host"] = json!("gpu-node-07");
    let edited = format!("{doc:#}\n");
    std::fs::write(&side, &edited).unwrap();
    let r = run(&["sidecar", "--isolated", "--write-beside", &shown]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("exists; nothing was written"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&side).unwrap(), edited);
    let r = run(&["sidecar", "--isolated", "--write-beside", "--force", &shown]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let again: Value = serde_json::from_str(&std::fs::read_to_string(&side).unwrap()).unwrap();
    assert_eq!(again["platform"]["host"], json!("gpu-node-07"));
    assert!(
        again["$benchlint"]["missing"]
            .get("platform.host")
            .is_none()
    );
    assert!(
        again["$benchlint"]["missing"]
            .get("platform.description")
            .is_some()
    );
    // The values benchlint filled in keep their note.
    assert!(
        again["$benchlint"]["derived"]
            .get("model.precision")
            .is_some()
    );
}

#[test]
fn never_written_through_a_symbolic_link() {
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(Path::new(VLLM), tmp.path(), "qwen3-8b-fp8.jsonl");
    let precious = tmp.path().join("precious.txt");
    std::fs::write(&precious, "kept").unwrap();
    std::os::unix::fs::symlink(&precious, tmp.path().join("qwen3-8b-fp8.meta.json")).unwrap();
    for extra in [None, Some("--force")] {
        let mut args = vec!["sidecar", "--isolated", "--write-beside"];
        args.extend(extra);
        let shown = file.to_string_lossy().into_owned();
        args.push(&shown);
        let r = run(&args);
        assert_eq!(r.code, 2, "{}", r.stdout);
        assert!(r.stderr.contains("symbolic link"), "{}", r.stderr);
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), "kept");
    }
}

#[test]
fn an_output_folder_mirrors_the_corpus_and_stays_out_of_it() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    realworld::copy_to(Path::new(VLLM), &corpus, "run-a/results.jsonl");
    realworld::copy_to(Path::new(VLLM), &corpus, "run-b/results.jsonl");
    std::fs::write(corpus.join("run-b/broken.json"), "{\"completed\": ").unwrap();
    let r = run_in(
        Some(tmp.path()),
        &["sidecar", "--isolated", "corpus", "-o", "out"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot("output_folder", &r.stdout);
    for run_folder in ["run-a", "run-b"] {
        let written = tmp
            .path()
            .join("out")
            .join(run_folder)
            .join("results.meta.json");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
        assert_eq!(
            v["$benchlint"]["skeleton_for"],
            json!(format!("corpus/{run_folder}/results.jsonl"))
        );
    }
    assert!(
        !corpus.join("run-a/results.meta.json").exists(),
        "nothing into the corpus"
    );
    let r = run_in(
        Some(tmp.path()),
        &["sidecar", "--isolated", "corpus", "-o", "corpus/sidecars"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("inside the corpus"), "{}", r.stderr);
    assert!(!corpus.join("sidecars").exists());
}

#[test]
fn printing_takes_one_skeleton_and_names_what_it_skipped() {
    let r = run(&["sidecar", "--isolated", VLLM, CANONICAL]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("2 files need a skeleton"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    let complete = "testdata/clean/replicated-corpus/workload-code/code-l1-r10.json";
    let r = run(&[
        "sidecar",
        "--isolated",
        complete,
        "testdata/clean/replicated-corpus/complete.power.csv",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    snapshot("nothing_to_print", &r.stderr);
}

fn help_of(diagnostics: &[Value], pointer: &str) -> String {
    diagnostics
        .iter()
        .find(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .ends_with(&format!("(`{pointer}`)"))
        })
        .and_then(|d| d["help"].as_str())
        .unwrap_or_else(|| panic!("no help for {pointer}: {diagnostics:#?}"))
        .to_string()
}

#[test]
fn a_missing_item_on_a_harness_file_says_where_the_value_goes() {
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(Path::new(VLLM), tmp.path(), "qwen3-8b-fp8.jsonl");
    let before = diagnostics(&file);
    let host = help_of(&before, "/platform/host");
    let shown = file.to_string_lossy().into_owned();
    let side = tmp.path().join("qwen3-8b-fp8.meta.json");
    assert!(
        host.starts_with("add `platform.host`; this vllm file is a harness's output"),
        "{host}"
    );
    assert!(
        host.contains(&format!("`{}`", side.to_string_lossy())),
        "{host}"
    );
    assert!(host.contains(r#"`{"platform": {"host": …}}`"#), "{host}");
    assert!(
        host.contains(&format!("`benchlint sidecar {shown}`")),
        "{host}"
    );
    assert!(!host.contains("capture"), "{host}");
    let seqs = help_of(&before, "/engine/max_num_seqs");
    assert!(seqs.contains("`benchlint capture --pid PID`"), "{seqs}");
    // Once the skeleton is beside the file, the help names it as the place to fill.
    run(&["sidecar", "--isolated", "--write-beside", &shown]);
    let host = help_of(&diagnostics(&file), "/platform/host");
    assert!(host.contains("set it in its sidecar"), "{host}");
    // A canonical file is the team's own document: the rule's help alone.
    let canonical = diagnostics(&PathBuf::from(CANONICAL));
    assert_eq!(
        help_of(&canonical, "/platform/description"),
        "add `platform.description` in words (boxes, cards, fabric)"
    );
}

#[test]
fn checklist_rule_pages_say_how_a_sidecar_supplies_the_items() {
    for n in 1..=14 {
        let code = format!("M{n:03}");
        let r = run(&["rule", &code]);
        assert_eq!(r.code, 0);
        assert!(
            r.stdout.contains("`benchlint sidecar run.json`"),
            "{code}: {}",
            r.stdout
        );
        assert!(r.stdout.contains("`run.meta.json`"), "{code}");
    }
    let r = run(&["rule", "M007"]);
    assert!(
        r.stdout.contains("benchlint capture --pid PID"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_value_copied_from_another_result_carries_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = "sk-proj-4fGh7Jk9Lm2Nq5Rs8Tv1Wx3Yz6Ab0Cd";
    let result = |id: &str, command: Option<Value>| {
        let mut r = json!({
            "schema": "benchlint/result/v1", "id": id, "measured_at": "2026-03-12T09:00:00Z",
            "outcome": "ok", "engine": {"name": "vllm"},
            "levels": [{"concurrency": 1, "throughput_tok_s": {"aggregate": 50.0}}]
        });
        if let Some(c) = command {
            r["engine"]["serve_command"] = c;
            r["engine"]["serve_command_source"] = json!("process");
        }
        r.to_string()
    };
    let file = tmp.path().join("runs.jsonl");
    std::fs::write(
        &file,
        format!(
            "{}\n{}\n",
            result(
                "a",
                Some(json!(["vllm", "serve", "m", "--api-key", secret]))
            ),
            result("b", None)
        ),
    )
    .unwrap();
    let r = run(&["sidecar", "--isolated", &file.to_string_lossy()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains(secret), "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["engine"]["serve_command"][4],
        json!("<redacted>"),
        "{v:#}"
    );
    // What goes with the command comes with it.
    assert_eq!(
        v["engine"]["serve_command_source"],
        json!("process"),
        "{v:#}"
    );
}

/// A JSON Lines file's results reach the skeleton a chunk of lines at a time, kept without
/// their levels until the last line: the skeleton is the one made of every line at once (the
/// same lines in a `.json` file, read whole), its counts over all 700 results.
#[test]
fn a_long_json_lines_file_gets_the_skeleton_of_all_its_lines() {
    let fixture = std::fs::read_to_string("testdata/adapters/sglang/late-2025-server-info.jsonl")
        .unwrap()
        .replace("Infinity", "1000000");
    let lines: Vec<Value> = fixture
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut text = String::new();
    for i in 0..700 {
        let mut d = lines[i % lines.len()].clone();
        d["tag"] = json!(format!("run-{i}"));
        // Settings some lines record and others not, in every chunk of lines.
        let server = d["server_info"].as_object_mut().unwrap();
        for (every, key) in [(3, "kv_cache_dtype"), (7, "quantization"), (11, "tp_size")] {
            if i % every == 0 {
                server.remove(key);
            }
        }
        text.push_str(&d.to_string());
        text.push('\n');
    }
    let tmp = tempfile::tempdir().unwrap();
    let (lines_file, whole_file) = (
        tmp.path().join("runs.jsonl"),
        tmp.path().join("runs.jsonl.json"),
    );
    std::fs::write(&lines_file, &text).unwrap();
    std::fs::write(&whole_file, &text).unwrap();
    let skeleton = |p: &Path| {
        let r = run(&["sidecar", p.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout.replace(p.to_str().unwrap(), "RUNS")
    };
    let (by_lines, whole) = (skeleton(&lines_file), skeleton(&whole_file));
    assert!(
        by_lines.contains("recorded by 466 of the 700 results"),
        "{by_lines}"
    );
    assert_eq!(by_lines, whole);
}
