//! The loader fails closed and accounts for every file: a result disguised (renamed, under a
//! sidecar's name, wrapped in an array, with an odd value, its `schema` key in another case)
//! still fails the run beside a clean result; a sidecar or companion of nothing is reported
//! or read as what it is; a summary copied alone is read; a run that reads no result fails;
//! `import` refuses two inputs with one output name; a baseline names no file outside its
//! folder. The last test is a property over generated corpora (fixed seed, bounded).

use crate::support::watchdog;

use std::path::{Path, PathBuf};

use benchlint::corpus::Options;
use benchlint::diagnostic::Severity;
use benchlint::engine::{self, Checked};
use serde_json::{Value, json};
use watchdog::{LIMIT, bin, run};

/// The clean corpus every corpus here holds beside what it tests: it passes on its own.
const CLEAN: &str = "testdata/clean/replicated-corpus";

fn check(paths: &[&Path]) -> Checked {
    let paths: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    engine::check(&paths, &Options::default())
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &target);
        } else {
            std::fs::copy(&p, &target).unwrap();
        }
    }
}

/// A folder holding a copy of the clean corpus.
fn clean_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(Path::new(CLEAN), dir.path());
    dir
}

fn errors(c: &Checked) -> Vec<String> {
    c.findings
        .iter()
        .filter(|f| f.severity == Severity::Error && !f.pre_rule)
        .map(|f| {
            format!(
                "{} {}: {}",
                f.rule.code,
                f.primary.path.raw(),
                f.message.raw()
            )
        })
        .collect()
}

fn exit_of(args: &[&str], path: &Path) -> (Option<i32>, String, String) {
    let r = run(
        {
            let mut c = bin();
            c.args(["check", "--isolated"]).args(args).arg(path);
            c
        },
        LIMIT,
    );
    r.assert_ran("check");
    (r.code, r.out(), r.err())
}

/// A vLLM result with errors of its own (a failed request among others: R006).
fn failing_vllm() -> Value {
    serde_json::from_str(
        &std::fs::read_to_string("testdata/adapters/vllm/bench-serve-save-detailed.json").unwrap(),
    )
    .unwrap()
}

#[test]
fn the_clean_result_passes_alone() {
    let dir = clean_corpus();
    let (code, out, _) = exit_of(&[], dir.path());
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_result_disguised_in_any_of_the_known_ways_still_fails_the_run() {
    let vllm = failing_vllm();
    let mut warmup = vllm.clone();
    warmup["run_number"] = json!(-1);
    let mut swept = vllm.clone();
    swept["run_number"] = json!(3);
    let mut canonical: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{CLEAN}/complete.json")).unwrap())
            .unwrap();
    canonical["outcome"] = json!("failed");
    let mut no_schema = canonical.clone();
    no_schema.as_object_mut().unwrap().remove("schema");
    let mut upper = canonical.clone();
    upper["schema"] = json!("Benchlint/result/v1");
    let mut served_nothing = canonical.clone();
    served_nothing["outcome"] = json!("ok");
    served_nothing["id"] = json!("hidden");
    let requests = served_nothing["levels"][0]["requests"].clone();
    served_nothing["levels"][0]["failed"] = requests;
    let cases: [(&str, &str, Value); 7] = [
        (
            "a failing canonical result under a sidecar's name",
            "x.meta.json",
            served_nothing,
        ),
        (
            "a failing result under a sidecar's name",
            "x.meta.json",
            vllm.clone(),
        ),
        ("a run marked as a sweep's warm-up", "run.json", warmup),
        (
            "the run saved as a sweep's array of runs",
            "runs.json",
            json!([swept]),
        ),
        ("a canonical result without `schema`", "r.json", no_schema),
        (
            "a canonical result with `Benchlint/result/v1`",
            "r.json",
            upper,
        ),
        (
            "a vLLM result wrapped in an object",
            "w.json",
            json!({"run": vllm}),
        ),
    ];
    for (what, name, value) in cases {
        let dir = clean_corpus();
        std::fs::create_dir(dir.path().join("in")).unwrap();
        std::fs::write(dir.path().join("in").join(name), value.to_string()).unwrap();
        let (code, out, err) = exit_of(&["--format", "json"], dir.path());
        let v: Value = serde_json::from_str(&out).unwrap_or(Value::Null);
        let on_it = v["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["path"].as_str().is_some_and(|p| p.ends_with(name)))
            .filter(|d| d["severity"] == "error")
            .count();
        // The wrapped result is not known to be a result: it is reported, as a warning.
        if name == "w.json" {
            assert!(
                out.contains("w.json"),
                "{what}: the file is not named\n{out}\n{err}"
            );
            continue;
        }
        assert_eq!(code, Some(1), "{what}: the run passed\n{out}\n{err}");
        assert!(on_it > 0, "{what}: no error on the file\n{out}");
    }
}

#[test]
fn a_sidecar_beside_its_result_is_named_as_its_own_and_alone_is_reported() {
    let dir = clean_corpus();
    let side = json!({"engine": {"name": "vllm", "version": "0.10.1"}});
    std::fs::write(dir.path().join("complete.meta.json"), side.to_string()).unwrap();
    std::fs::write(dir.path().join("orphan.meta.json"), side.to_string()).unwrap();
    let (_, out, _) = exit_of(&["--show-files"], dir.path());
    let line = |name: &str| {
        out.lines()
            .find(|l| l.ends_with(name))
            .unwrap_or_else(|| panic!("{name} not listed:\n{out}"))
            .to_string()
    };
    assert!(
        line("complete.meta.json").starts_with("sidecar of `"),
        "{out}"
    );
    assert!(
        line("complete.meta.json").contains("complete.json`"),
        "{out}"
    );
    assert!(line("orphan.meta.json").starts_with("none (E004"), "{out}");
    let c = check(&[dir.path()]);
    let orphan: Vec<String> = c
        .findings
        .iter()
        .filter(|f| f.primary.path.raw().ends_with("orphan.meta.json"))
        .map(|f| f.message.raw().clone())
        .collect();
    assert_eq!(orphan.len(), 1, "{orphan:?}");
    assert!(
        orphan[0].contains("is a sidecar, but no result it attaches to (`orphan.json`"),
        "{orphan:?}"
    );
}

/// An inference-perf summary of a run whose every request failed, as the harness writes it
/// when no stage file and no config is kept beside it (the shape of the lone failed summary
/// in `../shared/realworld`, with counts of its own).
fn failed_summary() -> Value {
    let block = json!({"mean": 0.0021, "min": 0.0009, "max": 0.04, "median": 0.0019, "p90": 0.003, "p99": 0.02});
    json!({
        "benchmark_time_seconds": 40.0,
        "load_summary": {"count": 200, "schedule_delay": block},
        "successes": {
            "count": 0,
            "latency": {"request_latency": null, "time_per_output_token": null, "time_to_first_token": null, "inter_token_latency": null},
            "throughput": {"input_tokens_per_sec": 0.0, "output_tokens_per_sec": 0.0, "total_tokens_per_sec": 0.0, "requests_per_sec": 0.0},
            "prompt_len": null, "output_len": null
        },
        "failures": {"count": 200, "request_latency": block}
    })
}

#[test]
fn a_summary_copied_without_its_stages_is_read_as_the_failed_run_it_describes() {
    let dir = clean_corpus();
    let sub = dir.path().join("failed-run");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(
        sub.join("summary_lifecycle_metrics.json"),
        failed_summary().to_string(),
    )
    .unwrap();
    let c = check(&[dir.path()]);
    let summary = c
        .corpus
        .read
        .iter()
        .find(|r| r.path.raw().ends_with("summary_lifecycle_metrics.json"))
        .unwrap();
    assert_eq!(
        (summary.read_as.as_ref(), summary.results),
        ("inference-perf", 1)
    );
    let codes: Vec<&str> = c
        .findings
        .iter()
        .filter(|f| {
            f.primary
                .path
                .raw()
                .ends_with("summary_lifecycle_metrics.json")
        })
        .map(|f| f.rule.code)
        .collect();
    assert!(codes.contains(&"R007"), "{codes:?}");
    assert!(
        !c.findings.iter().any(|f| f.rule.code == "S009"),
        "a corpus with a failed run is not curated"
    );
}

#[test]
fn the_real_lone_failed_summary_is_read_and_reported() {
    let Some(file) = crate::support::realworld::real(
        "inference-perf/jjk-g__failed-2026-05-01_llama-3.1-8b-instruct-vllm__summary_lifecycle_metrics.json",
    ) else {
        eprintln!("skipped: ../shared/realworld is absent");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&file, dir.path().join("summary_lifecycle_metrics.json")).unwrap();
    let c = check(&[dir.path()]);
    assert_eq!(c.corpus.results.len(), 1);
    let codes: Vec<&str> = c.findings.iter().map(|f| f.rule.code).collect();
    assert!(codes.contains(&"R007"), "{codes:?}");
    assert!(!codes.contains(&"S009"), "{codes:?}");
}

#[test]
fn a_folder_that_reads_no_result_fails_and_names_what_it_found() {
    let dir = tempfile::tempdir().unwrap();
    let report = "===========================================================\n= ENGINE DETAILS\n===========================================================\nModel:                  meta-llama/Llama-3.1-8B\nTensorRT-LLM Version:   0.17.0\n===========================================================\n= PERFORMANCE OVERVIEW\n===========================================================\nRequest Throughput (req/sec):                     41.2\nTotal Output Throughput (tokens/sec):             5273.6\n";
    for name in ["tp1.txt", "tp2.txt"] {
        std::fs::write(dir.path().join(name), report).unwrap();
    }
    std::fs::write(dir.path().join("notes.md"), "# runs\n").unwrap();
    let (code, out, err) = exit_of(&["--format", "json"], dir.path());
    assert_eq!(code, Some(1), "{out}\n{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let ds = v["diagnostics"].as_array().unwrap();
    assert_eq!(ds.len(), 1, "{ds:#?}");
    let message = ds[0]["message"].as_str().unwrap();
    assert_eq!(ds[0]["severity"], "error");
    assert!(message.contains("no result was read"), "{message}");
    assert!(
        message.contains("2 files that are each a trtllm-bench report"),
        "{message}"
    );
    assert!(message.contains("not a serving benchmark"), "{message}");
    assert!(message.contains("1 file of other kinds"), "{message}");
    // A folder of companions only fails the same way.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "testdata/adapters/genai-perf/inputs-companion.json",
        dir.path().join("inputs.json"),
    )
    .unwrap();
    let (code, out, _) = exit_of(&[], dir.path());
    assert_eq!(code, Some(1), "{out}");
}

#[test]
fn import_refuses_two_inputs_that_map_to_one_output_name() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let vllm = failing_vllm();
    std::fs::write(input.join("r.json"), vllm.to_string()).unwrap();
    let mut other = vllm;
    other["date"] = json!("20250101-000000");
    std::fs::write(input.join("r.provenance.json"), other.to_string()).unwrap();
    let out = dir.path().join("out");
    let r = run(
        {
            let mut c = bin();
            c.arg("import").arg(&input).arg("-o").arg(&out);
            c
        },
        LIMIT,
    );
    r.assert_ran("import");
    assert_eq!(r.code, Some(1), "{}\n{}", r.out(), r.err());
    assert!(r.out().contains("refused"), "{}", r.out());
    assert!(r.out().contains("r.provenance.json"), "{}", r.out());
    // The first input's provenance file is its own, not overwritten by the second's result.
    let provenance: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("r.provenance.json")).unwrap())
            .unwrap();
    assert_eq!(provenance["schema"], "benchlint/provenance/v1");
}

#[test]
fn baseline_entries_outside_its_folder_are_refused_alike_whatever_exists() {
    let dir = clean_corpus();
    let messages: Vec<String> = ["../../../../etc/passwd", "../../../../no/such/file.json"]
        .iter()
        .map(|entry| {
            let baseline = dir.path().join("baseline.json");
            let body = json!({"version": 1, "tool": "benchlint",
                "findings": {*entry: {"M001": ["/platform"]}}});
            std::fs::write(&baseline, body.to_string()).unwrap();
            let r = run(
                {
                    let mut c = bin();
                    c.args(["check", "--isolated", "--baseline"])
                        .arg(&baseline)
                        .arg(dir.path());
                    c
                },
                LIMIT,
            );
            r.assert_ran("check");
            assert_eq!(r.code, Some(1), "{entry}: {}", r.err());
            assert!(!r.err().contains("stale"), "{entry}: {}", r.err());
            assert!(
                r.err().contains("outside its folder"),
                "{entry}: {}",
                r.err()
            );
            r.err().replace(entry, "ENTRY")
        })
        .collect();
    assert_eq!(
        messages[0], messages[1],
        "the message tells which file exists"
    );
}

#[test]
fn an_in_tree_config_cannot_cap_error_findings_out_of_sarif() {
    let dir = clean_corpus();
    std::fs::write(dir.path().join("bad.json"), failing_vllm().to_string()).unwrap();
    std::fs::write(
        dir.path().join("benchlint.toml"),
        "[thresholds]\nmax_findings = 0\nmax_findings_per_file = 0\n",
    )
    .unwrap();
    let r = run(
        {
            let mut c = bin();
            c.current_dir(dir.path())
                .args(["check", "--format", "sarif", "."]);
            c
        },
        LIMIT,
    );
    r.assert_ran("check");
    assert_eq!(r.code, Some(1), "{}", r.err());
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|x| x["level"] == "error"), "{}", r.err());
    assert!(r.err().contains("max_findings"), "{}", r.err());
}

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

/// Whether every file `c` reached is read, a named companion or sidecar of a result read, a
/// named artifact, a walked YAML file that is not a result, or has a finding of its own.
fn unaccounted(c: &Checked) -> Vec<String> {
    c.corpus
        .read
        .iter()
        .filter(|r| {
            let fate = r.read_as.as_ref();
            let named = ["companion of `", "sidecar of `", "artifact", "skipped"]
                .iter()
                .any(|p| fate.starts_with(p));
            let found = c
                .findings
                .iter()
                .any(|f| f.primary.path.raw() == r.path.raw());
            r.results == 0 && !named && !found
        })
        .map(|r| format!("{} ({})", r.path.raw(), r.read_as))
        .collect()
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

#[test]
fn every_real_file_is_accounted_for_and_only_named_ones_are_unread() {
    let root = Path::new(crate::support::realworld::REALWORLD);
    if !root.is_dir() {
        eprintln!("skipped: ../shared/realworld is absent");
        return;
    }
    let c = check(&[root]);
    let missing = unaccounted(&c);
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    // Out of scope: llama-bench is not a serving benchmark. The others are MLPerf CM side
    // files and an InferenceX file with one sparse row, which the adapters do not read yet:
    // each is reported, none is silent.
    let allowed = [
        "llama-bench/",
        "thien-lm__MlPerfLogExample/cpu_info.json",
        "thien-lm__MlPerfLogExample/results.json",
        "thien-lm__MlPerfLogExample/mlperf_log_trace.json",
        "0604_kimik2.5-fp4-b200-vllm-agentic-lmcache__agg_bmk.json",
    ];
    let unread: Vec<String> = c
        .findings
        .iter()
        .filter(|f| matches!(f.rule.code, "E002" | "E003" | "E004"))
        .map(|f| f.primary.path.raw().to_string())
        .filter(|p| !allowed.iter().any(|a| p.contains(a)))
        .collect();
    assert!(unread.is_empty(), "{unread:#?}");
    let lone = c
        .corpus
        .read
        .iter()
        .find(|r| r.path.raw().contains("failed-2026-05-01"))
        .unwrap();
    assert_eq!(lone.results, 1, "{}", lone.read_as);
    assert!(!c.findings.iter().any(|f| f.rule.code == "S009"));
}

#[test]
fn a_warm_up_beside_its_sweeps_run_is_that_runs_companion() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "testdata/adapters/vllm/sweep-warmup-companion.json",
        dir.path().join("warmup.json"),
    )
    .unwrap();
    let mut run0 = failing_vllm();
    run0["run_number"] = json!(0);
    std::fs::write(dir.path().join("run=0.json"), run0.to_string()).unwrap();
    let c = check(&[dir.path()]);
    assert_eq!(c.corpus.results.len(), 1);
    let warmup = c
        .corpus
        .read
        .iter()
        .find(|r| r.path.raw().ends_with("warmup.json"))
        .unwrap();
    assert!(
        warmup.read_as.starts_with("companion of `") && warmup.read_as.contains("run=0.json"),
        "{}",
        warmup.read_as
    );
}

/// A command that reports results only (`summary`, `capacity`, `cards`, `import`, `sidecar`)
/// lets a claims document's contents go once it is read: the file still counts as read, as
/// claims, its schema findings are the same, and the results read beside it are the same.
#[test]
fn a_claims_file_let_go_is_still_read_and_accounted_for() {
    let dir = PathBuf::from("testdata/rules/C001-mixed-precision/fail/fp8-against-nvfp4");
    let load = |drop_claims| {
        benchlint::corpus::load_results(
            std::slice::from_ref(&dir),
            &Options {
                lean: true,
                drop_claims,
                ..Options::default()
            },
        )
    };
    let (kept, dropped) = (load(false), load(true));
    assert_eq!(kept.claims.len(), 1);
    assert_eq!(dropped.claims.len(), 1);
    assert!(!kept.claims[0].claims.is_empty());
    assert!(kept.claims[0].claims.iter().all(|c| c.read.is_ok()));
    assert!(dropped.claims[0].claims.is_empty());
    let read = |c: &benchlint::model::loaded::Corpus| -> Vec<(String, String)> {
        c.read
            .iter()
            .map(|r| (r.path.raw().to_string(), r.read_as.to_string()))
            .collect()
    };
    assert_eq!(read(&kept), read(&dropped));
    assert!(
        read(&dropped)
            .iter()
            .any(|(p, as_)| p.ends_with("claims.json") && as_ == "claims")
    );
    let ids = |c: &benchlint::model::loaded::Corpus| -> Vec<String> {
        c.results.iter().map(|r| r.doc.id.clone()).collect()
    };
    assert_eq!(ids(&kept), ids(&dropped));
    assert_eq!(kept.findings.len(), dropped.findings.len());
}
