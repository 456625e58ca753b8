//! The invariants every variant keeps, checked over the adapter fixtures and the real files.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use benchlint::diagnostic::{Finding, Severity};
use serde_json::Value;

use super::change::{Change, apply, draw, lay_out, record_pointers};
use super::{Rng, check, on_file, seed_files};
use crate::support::realworld::REALWORLD;

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
