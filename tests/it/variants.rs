//! Files no one wrote by hand: variants of every adapter fixture under `testdata/adapters` and
//! of every real file under `../shared/realworld` (when present), checked in-process through
//! the library. Each seed file is copied with its folder into a scratch corpus, then changed
//! one way at a time: a key dropped (one at a time, across a record), a record cut to a subset
//! of its keys, a record that served nothing (its completion counts 0), an unknown key added,
//! a number written as a string, the file moved out of its folder, renamed, and its folder
//! nested one level deeper. Invariants on every variant:
//!
//! - nothing panics (a panic is an internal error of the run);
//! - every file is accounted for: each file of the scratch corpus is reached, and a file
//!   whose original was read as results is read as results again or carries a finding
//!   saying why not (never a silent skip);
//! - one record never spoils its file: a change to one record of a file holding several never
//!   makes the file E004 and leaves every other record read;
//! - a dropped key never creates an error-level finding the original lacked, other than the
//!   checklist (M, L) rules reporting what is now absent, E003 for a record whose load key
//!   was the key dropped, and the rules that judge a figure the drop took away.
//!
//! The choice of keys, records and numbers is drawn from a fixed seed and the count is bounded,
//! so `cargo test` is quick and reproducible; `BENCHLINT_VARIANTS=N` runs up to N variants per
//! seed file and `BENCHLINT_VARIANT_SEED` another seed (the longer run of `fuzz/run.sh`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use benchlint::corpus::Options;
use benchlint::diagnostic::{Finding, Severity};
use benchlint::engine;
use serde_json::{Map, Value};

use crate::support::realworld::REALWORLD;

/// A small deterministic generator (xorshift64*): the same seed draws the same variants.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::try_from(self.next() % (n as u64)).unwrap_or(0)
        }
    }
}

/// Seed files: the JSON and JSON Lines files of `dir` (recursively), small enough to copy
/// often, sorted.
fn seed_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = read.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            seed_files(&p, out);
        } else if p
            .extension()
            .is_some_and(|e| e == "json" || e == "jsonl" || e == "yaml")
            && std::fs::metadata(&p).is_ok_and(|m| m.len() > 0 && m.len() < 300_000)
            && !p.to_string_lossy().contains("broken")
        {
            out.push(p);
        }
    }
}

/// The objects of a document that are records: the elements of a top-level array, a
/// `GuideLLM` report's benchmarks, else the document itself.
fn record_pointers(doc: &Value) -> Vec<String> {
    match doc {
        Value::Array(items) => (0..items.len())
            .filter(|i| items[*i].is_object())
            .map(|i| format!("/{i}"))
            .collect(),
        Value::Object(m) => match m.get("benchmarks").and_then(Value::as_array) {
            Some(b) if !b.is_empty() => (0..b.len()).map(|i| format!("/benchmarks/{i}")).collect(),
            _ => vec![String::new()],
        },
        _ => Vec::new(),
    }
}

/// One way of changing a seed.
#[derive(Debug, Clone)]
enum Change {
    /// Key `key` removed from the record at `record`.
    DropKey { record: String, key: String },
    /// The record at `record` cut to every other key.
    Subset { record: String },
    /// Every completion count of the record at `record` set to 0.
    ZeroRequests { record: String },
    /// An unknown key added to the document and to every record.
    UnknownKey,
    /// The `n`-th number of the document written as a string.
    NumberAsString { n: usize },
    /// The file alone in another folder.
    Moved,
    /// The file under another name (same extension).
    Renamed,
    /// The folder one level deeper.
    Nested,
}

impl Change {
    fn touches_one_record(&self) -> bool {
        matches!(
            self,
            Change::DropKey { .. } | Change::Subset { .. } | Change::ZeroRequests { .. }
        )
    }
}

/// Whether `key` names a count of completed requests in some harness.
fn is_completion_count(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    [
        "completed",
        "num_requests_successful",
        "num_completed_requests",
        "successful",
        "successful_requests",
        "request_count",
        "total_requests_completed",
        "n_success",
    ]
    .contains(&k.as_str())
}

fn zero_counts(v: &mut Value, depth: usize) {
    if depth > 4 {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if is_completion_count(k) && x.is_number() {
                    *x = Value::from(0);
                } else if k == "count" && x.is_number() && depth > 0 {
                    // `successes.count` (inference-perf), `request_count.avg`-like blocks.
                    *x = Value::from(0);
                } else {
                    zero_counts(x, depth + 1);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| zero_counts(x, depth + 1)),
        _ => {}
    }
}

/// The `n`-th number of `v` (depth-first), written as a string.
fn number_as_string(v: &mut Value, n: usize) -> bool {
    fn walk(v: &mut Value, n: &mut usize) -> bool {
        match v {
            Value::Number(num) => {
                if *n == 0 {
                    *v = Value::String(num.to_string());
                    return true;
                }
                *n -= 1;
                false
            }
            Value::Object(m) => m.values_mut().any(|x| walk(x, n)),
            Value::Array(a) => a.iter_mut().any(|x| walk(x, n)),
            _ => false,
        }
    }
    let mut left = n;
    walk(v, &mut left)
}

fn count_numbers(v: &Value) -> usize {
    match v {
        Value::Number(_) => 1,
        Value::Object(m) => m.values().map(count_numbers).sum(),
        Value::Array(a) => a.iter().map(count_numbers).sum(),
        _ => 0,
    }
}

/// Applies a content change to `doc`; false when it does not apply.
fn apply(doc: &mut Value, change: &Change) -> bool {
    match change {
        Change::DropKey { record: r, key } => doc
            .pointer_mut(r)
            .and_then(Value::as_object_mut)
            .is_some_and(|m| m.remove(key).is_some()),
        Change::Subset { record: r } => doc
            .pointer_mut(r)
            .and_then(Value::as_object_mut)
            .is_some_and(|m| {
                let keep: Map<String, Value> = std::mem::take(m)
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| i % 2 == 0)
                    .map(|(_, kv)| kv)
                    .collect();
                *m = keep;
                true
            }),
        Change::ZeroRequests { record: r } => doc.pointer_mut(r).is_some_and(|m| {
            let before = m.clone();
            zero_counts(m, 0);
            *m != before
        }),
        Change::UnknownKey => {
            let ptrs = record_pointers(doc);
            for p in ptrs {
                if let Some(m) = doc.pointer_mut(&p).and_then(Value::as_object_mut) {
                    m.insert(
                        "zz_field_from_a_newer_version".into(),
                        serde_json::json!({"nested": [1, "two", null], "flag": true}),
                    );
                }
            }
            if let Some(m) = doc.as_object_mut() {
                m.insert("zz_top_level_unknown".into(), Value::from("x"));
            }
            true
        }
        Change::NumberAsString { n } => number_as_string(doc, *n),
        Change::Moved | Change::Renamed | Change::Nested => true,
    }
}

/// The content changes drawn for one document: every key of one record dropped in turn (up
/// to `budget`), a subset record, a zero-request record, an unknown key, numbers as strings.
fn draw(doc: &Value, rng: &mut Rng, budget: usize) -> Vec<Change> {
    let records = record_pointers(doc);
    let mut out = Vec::new();
    if records.is_empty() {
        return out;
    }
    let r = records[rng.below(records.len())].clone();
    if let Some(m) = doc.pointer(&r).and_then(Value::as_object) {
        let keys: Vec<&String> = m.keys().collect();
        let start = rng.below(keys.len().max(1));
        for k in keys.iter().cycle().skip(start).take(keys.len().min(budget)) {
            out.push(Change::DropKey {
                record: r.clone(),
                key: (*k).clone(),
            });
        }
    }
    if records.len() > 1 {
        out.push(Change::Subset { record: r.clone() });
    }
    out.push(Change::ZeroRequests { record: r });
    out.push(Change::UnknownKey);
    let n = count_numbers(doc);
    for _ in 0..2 {
        if n > 0 {
            out.push(Change::NumberAsString { n: rng.below(n) });
        }
    }
    out.extend([Change::Moved, Change::Renamed, Change::Nested]);
    out
}

/// A scratch corpus: the seed's folder (when small) with the seed changed, laid out as the
/// change says. Returns the root to check and the changed file's path in it.
fn lay_out(scratch: &Path, seed: &Path, text: &str, change: &Change) -> (PathBuf, PathBuf) {
    let folder = seed.parent().unwrap();
    let siblings: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|r| {
            r.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    let with_siblings = !matches!(change, Change::Moved) && siblings.len() <= 24;
    let root = scratch.to_path_buf();
    let base = match change {
        Change::Nested => root.join("deeper").join("run"),
        Change::Moved => root.join("elsewhere"),
        _ => root.join("run"),
    };
    std::fs::create_dir_all(&base).unwrap();
    if with_siblings {
        for s in &siblings {
            if s != seed && std::fs::metadata(s).is_ok_and(|m| m.len() < 2_000_000) {
                std::fs::copy(s, base.join(s.file_name().unwrap())).unwrap();
            }
        }
    }
    let name = seed.file_name().unwrap().to_string_lossy().into_owned();
    let name = if matches!(change, Change::Renamed) {
        let ext = seed.extension().unwrap().to_string_lossy();
        format!("renamed-{}.{ext}", name.len())
    } else {
        name
    };
    let file = base.join(name);
    std::fs::write(&file, text).unwrap();
    (root, file)
}

/// Findings on `file` (its path as the loader shows it ends with the file's path under the root).
fn on_file<'a>(findings: &'a [Finding], root: &Path, file: &Path) -> Vec<&'a Finding> {
    let rel = file
        .strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .into_owned();
    findings
        .iter()
        .filter(|f| f.primary.path.raw().ends_with(&rel))
        .collect()
}

struct Checked {
    results: usize,
    findings: Vec<Finding>,
    read: Vec<(String, usize)>,
    internal: Vec<String>,
    /// For each result of the file: where its load key came from (source pointers).
    load_sources: BTreeSet<String>,
    /// Whether a result of the file is a losing run (every request failed, say).
    lost: bool,
    /// Levels read in the whole scratch corpus from files other than the changed one (a
    /// ladder's level files are read into one result: each level counts for its own file).
    other_levels: usize,
}

/// Whether level `i` of `r` was read from the file whose path ends with `rel`: a level of a
/// ladder points into its own file, any other into the result's.
fn level_from(r: &benchlint::corpus::LoadedResult, i: usize, rel: &str) -> bool {
    match r.provenance.lookup(&format!("/levels/{i}")) {
        Some((benchlint::model::Provenance::Beside { path, .. }, _)) => path.ends_with(rel),
        _ => r.origin.path.raw().ends_with(rel),
    }
}

fn check(root: &Path, file: &Path) -> Checked {
    let out = engine::check(&[root.to_path_buf()], &Options::default());
    let rel = file
        .strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let mine: Vec<_> = out
        .corpus
        .results
        .iter()
        .filter(|r| r.origin.path.raw().ends_with(&rel))
        .collect();
    // Every result of the scratch corpus: a level file of a ladder is read into its folder's
    // first file's result, its load pointing into the level file.
    let mut load_sources = BTreeSet::new();
    for r in &out.corpus.results {
        for key in ["concurrency", "request_rate", "max_concurrency"] {
            for (i, _) in r.doc.levels.iter().enumerate() {
                if let Some((p, _)) = r.provenance.lookup(&format!("/levels/{i}/{key}")) {
                    load_sources.insert(format!("{p:?}"));
                }
            }
        }
    }
    let other_levels = out
        .corpus
        .results
        .iter()
        .map(|r| {
            (0..r.doc.levels.len())
                .filter(|i| !level_from(r, *i, &rel))
                .count()
        })
        .sum();
    Checked {
        other_levels,
        results: mine.len(),
        findings: out.findings,
        read: out
            .corpus
            .read
            .iter()
            .map(|f| (f.path.raw().to_string(), f.results))
            .collect(),
        internal: out.corpus.internal_errors.clone(),
        lost: mine
            .iter()
            .any(|r| r.doc.outcome != benchlint::model::Outcome::Ok),
        load_sources,
    }
}

/// The rules that judge a figure a dropped key can take away or change the meaning of (a
/// count that no longer adds up, a summary now without its samples): a finding of theirs
/// after a drop describes the file as it now stands.
const FIGURE_RULES: [&str; 8] = [
    "R002", "R006", "R007", "R016", "R017", "R024", "R025", "R028",
];

/// The rules that skip a run that served nothing (`rules/served.rs`): when a drop takes away
/// the counts that showed a run served nothing, the run is no longer known to be one, and
/// these judge it like any other.
const SERVED_GATED: [&str; 6] = ["R005", "R008", "R009", "R010", "R011", "R014"];

/// Error-level codes of `findings`, other than reports of an absent field (the checklist
/// saying what is not recorded, whichever rule says it: an absent field, or a message that
/// opens with "not recorded", as R005's on a dropped warm-up setting).
fn errors(findings: &[&Finding]) -> BTreeSet<&'static str> {
    findings
        .iter()
        .filter(|f| {
            f.severity == Severity::Error
                && f.absent.is_none()
                && !f.message.raw().starts_with("not recorded")
        })
        .map(|f| f.rule.code)
        .collect()
}

/// Runs every variant of `seed`, returning the broken invariants.
fn run_seed(seed: &Path, rng: &mut Rng, budget: usize, problems: &mut Vec<String>) -> usize {
    let Ok(text) = std::fs::read_to_string(seed) else {
        return 0;
    };
    let jsonl = seed.extension().is_some_and(|e| e == "jsonl");
    let yaml = seed.extension().is_some_and(|e| e == "yaml");
    // JSON Lines: the first line is the document changed; the others stay.
    let (doc_text, rest) = if jsonl {
        let mut it = text.splitn(2, '\n');
        (
            it.next().unwrap_or("").to_string(),
            it.next().unwrap_or("").to_string(),
        )
    } else {
        (text.clone(), String::new())
    };
    let parsed: Option<Value> = if yaml {
        None
    } else {
        serde_json::from_str(&doc_text).ok()
    };

    let base_dir = tempfile::tempdir().unwrap();
    // The original: the seed in its folder, under its own name.
    let (root, file) = lay_out(base_dir.path(), seed, &text, &Change::UnknownKey);
    let base = check(&root, &file);
    let base_on = on_file(&base.findings, &root, &file);
    let base_errors = errors(&base_on);
    let base_e004 = base_on.iter().any(|f| f.rule.code == "E004");
    let base_lost = base.lost;

    let changes = match &parsed {
        Some(doc) => draw(doc, rng, budget),
        None => vec![Change::Moved, Change::Renamed, Change::Nested],
    };
    let records = parsed.as_ref().map_or(1, |d| record_pointers(d).len());
    let mut n = 0;
    for change in changes {
        let new_text = match &parsed {
            Some(doc) if !matches!(change, Change::Moved | Change::Renamed | Change::Nested) => {
                let mut d = doc.clone();
                if !apply(&mut d, &change) {
                    continue;
                }
                let body = serde_json::to_string_pretty(&d).unwrap();
                if jsonl {
                    format!("{}\n{rest}", serde_json::to_string(&d).unwrap())
                } else {
                    body
                }
            }
            _ => text.clone(),
        };
        n += 1;
        let dir = tempfile::tempdir().unwrap();
        let (root, file) = lay_out(dir.path(), seed, &new_text, &change);
        let v = check(&root, &file);
        let what = format!("{} [{change:?}]", seed.display());
        if !v.internal.is_empty() {
            problems.push(format!("{what}: internal error {:?}", v.internal));
            continue;
        }
        // Every file of the scratch corpus is reached.
        for entry in walk(&root) {
            let rel = entry
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if !v.read.iter().any(|(p, _)| p.ends_with(&rel)) {
                problems.push(format!("{what}: `{rel}` was never reached"));
            }
        }
        let on = on_file(&v.findings, &root, &file);
        // Read as results before: read again, or a finding says why not.
        // An inference-perf stage under another name (no `stage_N_` name, no `requested_rate`)
        // is its run's summary by the format's own rule; what a summary without its stages
        // becomes is the loader's file accounting, checked where that is tested.
        let renamed_stage = matches!(change, Change::Renamed)
            && seed.to_string_lossy().contains("_lifecycle_metrics");
        if base.results > 0 && v.results == 0 && on.is_empty() && !renamed_stage {
            problems.push(format!(
                "{what}: read as {} result(s) before, now silently nothing",
                base.results
            ));
        }
        // A record spoils only itself across files too: one level file of a ladder that can
        // no longer be read leaves the ladder's other levels read.
        if v.other_levels < base.other_levels && !matches!(change, Change::Moved) {
            problems.push(format!(
                "{what}: levels read from the other files fell from {} to {}",
                base.other_levels, v.other_levels
            ));
        }
        if change.touches_one_record() && records > 1 {
            if !base_e004 && on.iter().any(|f| f.rule.code == "E004") {
                problems.push(format!("{what}: one record made the whole file E004"));
            }
            if v.results + 1 < base.results {
                problems.push(format!(
                    "{what}: one record changed, {} of {} results still read",
                    v.results, base.results
                ));
            }
        }
        if let Change::DropKey { key, .. } = &change {
            let load_key = base
                .load_sources
                .iter()
                .any(|s| s.contains(&format!("/{key}")));
            let new: Vec<&str> = errors(&on)
                .difference(&base_errors)
                .copied()
                .filter(|c| !c.starts_with('M') && !c.starts_with('L'))
                .filter(|c| !FIGURE_RULES.contains(c))
                // A run no longer known to have served nothing, or a side file that the drop
                // turned into a result of its own (a per-phase copy without its counts is read
                // as the export of a run that served nothing), is judged like any run.
                .filter(|c| !((base_lost || base.results == 0) && SERVED_GATED.contains(c)))
                .filter(|c| !(*c == "E003" && load_key))
                .collect();
            if !new.is_empty() {
                let msgs: Vec<String> = on
                    .iter()
                    .filter(|f| new.contains(&f.rule.code))
                    .map(|f| format!("{} {}", f.rule.code, f.message.raw()))
                    .collect();
                problems.push(format!(
                    "{what}: dropping `{key}` created error-level finding(s) the original lacked: {}",
                    msgs.join(" | ")
                ));
            }
        }
    }
    n
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|x| x == "json" || x == "jsonl" || x == "yaml")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run_all(seeds: &[PathBuf], budget: usize) {
    let mut rng = Rng(env_number("BENCHLINT_VARIANT_SEED", 0x5EED_2026).max(1));
    let mut problems = Vec::new();
    let mut variants = 0;
    for seed in seeds {
        variants += run_seed(seed, &mut rng, budget, &mut problems);
    }
    println!("{variants} variants of {} seed files", seeds.len());
    assert!(
        problems.is_empty(),
        "{} of {variants} variants broke an invariant:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn variants_of_the_adapter_fixtures_keep_the_invariants() {
    let mut seeds = Vec::new();
    seed_files(Path::new("testdata/adapters"), &mut seeds);
    assert!(seeds.len() > 20, "the adapter fixtures are missing");
    let budget = usize::try_from(env_number("BENCHLINT_VARIANTS", 4)).unwrap_or(4);
    run_all(&seeds, budget);
}

#[test]
fn variants_of_the_real_files_keep_the_invariants() {
    let root = Path::new(REALWORLD);
    if !root.exists() {
        println!("skipping: {} not found", root.display());
        return;
    }
    let mut seeds = Vec::new();
    seed_files(root, &mut seeds);
    let budget = usize::try_from(env_number("BENCHLINT_VARIANTS", 3)).unwrap_or(3);
    run_all(&seeds, budget);
}

/// The keys the vLLM and `SGLang` readers recognise a record by.
const SIGNATURE_KEYS: [&str; 10] = [
    "model_id",
    "completed",
    "duration",
    "total_output_tokens_retokenized",
    "server_info",
    "request_throughput",
    "output_throughput",
    "mean_ttft_ms",
    "median_ttft_ms",
    "mean_e2e_latency_ms",
];

/// Every key a vLLM or `SGLang` record is recognised by, dropped in turn from the first record
/// of every such fixture and real file: the record is still read as that harness's (a record
/// with fewer keys is read as far as it goes), never refused as "looks like a result".
#[test]
fn a_serving_record_without_one_of_its_signature_keys_is_still_read() {
    let mut seeds = Vec::new();
    for dir in ["testdata/adapters/vllm", "testdata/adapters/sglang"] {
        seed_files(Path::new(dir), &mut seeds);
    }
    for dir in ["vllm", "sglang"] {
        seed_files(&Path::new(REALWORLD).join(dir), &mut seeds);
    }
    assert!(seeds.len() >= 8, "the vLLM and SGLang fixtures are missing");
    let mut problems = Vec::new();
    let mut checked = 0;
    for seed in &seeds {
        let text = std::fs::read_to_string(seed).unwrap();
        let jsonl = seed.extension().is_some_and(|e| e == "jsonl");
        let (first, rest) = if jsonl {
            text.split_once('\n').unwrap_or((&text, ""))
        } else {
            (text.as_str(), "")
        };
        let Ok(doc) = serde_json::from_str::<Value>(first) else {
            continue;
        };
        let Some(record) = doc.as_object() else {
            continue;
        };
        let dir = tempfile::tempdir().unwrap();
        let (root, file) = lay_out(dir.path(), seed, &text, &Change::UnknownKey);
        let base = check(&root, &file);
        if base.results == 0 {
            continue;
        }
        for key in SIGNATURE_KEYS.iter().filter(|k| record.contains_key(**k)) {
            let mut d = doc.clone();
            d.as_object_mut().unwrap().remove(*key);
            let changed = if jsonl {
                format!("{}\n{rest}", serde_json::to_string(&d).unwrap())
            } else {
                serde_json::to_string_pretty(&d).unwrap()
            };
            let dir = tempfile::tempdir().unwrap();
            let (root, file) = lay_out(dir.path(), seed, &changed, &Change::UnknownKey);
            let v = check(&root, &file);
            checked += 1;
            let refused: Vec<String> = on_file(&v.findings, &root, &file)
                .iter()
                .filter(|f| f.rule.code == "E003" || f.rule.code == "E004")
                .map(|f| format!("{} {}", f.rule.code, f.message.raw()))
                .collect();
            if v.results < base.results || !refused.is_empty() {
                problems.push(format!(
                    "{} without `{key}`: {} of {} results read; {}",
                    seed.display(),
                    v.results,
                    base.results,
                    refused.join(" | ")
                ));
            }
        }
    }
    println!("{checked} records without a signature key");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Variants of a level whose server counter is above or below the client's count: the
/// streams left unfinished when the window closed, the failures, the output cap, the two
/// counts and how the client counted, drawn from a fixed seed. R002 fires exactly when the
/// counts differ by more than 2% and the gap is not one the unfinished requests could hold
/// (the server above the client by at most (streams + failed) × cap, the client not counting
/// stream chunks); the expectation is computed here, not read from the program.
#[test]
fn r002_fires_exactly_past_what_unfinished_requests_could_hold() {
    let seed = Path::new("testdata/rules/R002-token-count-mismatch/pass/within-2-percent.json");
    let base: Value = serde_json::from_str(&std::fs::read_to_string(seed).unwrap()).unwrap();
    let level = 3; // 8 streams
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x00D2_2026);
    let mut expected = BTreeSet::new();
    let sources = ["server-usage", "client-tokenizer", "stream-chunks"];
    for n in 0..60 {
        let failed = rng.below(4) as u64;
        let cap = 64 + rng.below(1985) as u64;
        let client = 2_000 + rng.below(98_000) as u64;
        let allowance = (8 + failed) * cap;
        // Gaps drawn around the two edges that matter: 2% and the allowance.
        let gap = match rng.below(4) {
            0 => allowance,
            1 => allowance + 1 + rng.below(50) as u64,
            2 => rng.below(usize::try_from(allowance).unwrap()) as u64,
            _ => client / 50 + rng.below(200) as u64,
        };
        let above = rng.below(3) != 0;
        let server = if above {
            client + gap
        } else {
            client.saturating_sub(gap).max(1)
        };
        let source = sources[rng.below(3)];
        let mut d = base.clone();
        d["id"] = Value::from(format!("r002-variant-{n}"));
        d["workload"]["max_output_tokens"] = Value::from(cap);
        d["workload"]["token_count_source"] = Value::from(source);
        d["levels"][level]["failed"] = Value::from(failed);
        d["levels"][level]["output_tokens"] = Value::from(client);
        d["levels"][level]["server_output_tokens"] = Value::from(server);
        let name = format!("variant-{n:02}.json");
        std::fs::write(
            dir.path().join(&name),
            serde_json::to_string_pretty(&d).unwrap(),
        )
        .unwrap();
        #[expect(clippy::cast_precision_loss, reason = "token counts are small")]
        let differs = (client as f64 - server as f64).abs() / server as f64 > 0.02;
        let held = server > client && server - client <= allowance && source != "stream-chunks";
        if differs && !held {
            expected.insert(name);
        }
    }
    let out = engine::check(&[dir.path().to_path_buf()], &Options::default());
    let fired: BTreeSet<String> = out
        .findings
        .iter()
        .filter(|f| f.rule.code == "R002")
        .filter(|f| f.primary.pointer.raw() == format!("/levels/{level}/output_tokens"))
        .map(|f| {
            Path::new(f.primary.path.raw())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert!(expected.len() >= 10 && expected.len() <= 50, "{expected:?}");
    assert_eq!(fired, expected);
}
