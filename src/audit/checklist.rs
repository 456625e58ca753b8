//! The checklist coverage of the corpus report: for every file, which fields of the publication
//! checklist (M001–M014, seed 004) its results record, and where each value came from: the
//! file itself, another file of the same run (the engine's log, the launch command, a
//! harness's metadata beside the results), a derivation (from a verbatim serve command), a
//! sidecar; or that it is missing, present but not usable, or not asked for this file.
//!
//! The fields are not listed twice: each checklist rule is run on two probe results (one that
//! records nothing, one multi-node run on a shared host with a typed serve command and an empty
//! speculative block, so the conditional items show), and the pointers it reports are the
//! rule's fields. Each result of the corpus is then checked by the same rules: a field a rule
//! reports is missing (or, when a value is there, not usable: a tag where a digest belongs, a
//! sampling block holding only the load); a field it does not report is recorded when present
//! and not asked otherwise (fabric on a single node).
//!
//! A file holding several results shows, per field, the worst state among them: missing before
//! not usable before sidecar before derived before the run folder before recorded.

use std::collections::BTreeMap;

use serde::{Deserialize as _, Serialize};
use serde_json::json;

pub use crate::model::Coverage;
use crate::model::loaded::LoadedResult;
use crate::model::{Provenance, ProvenanceMap, ResultDoc};
use crate::rules::{Check, Emit, Emitter, ResultCtx, find_rule};
use crate::text::FileText;
use crate::thresholds::Thresholds;

/// The rules of the publication checklist, in order.
pub const CHECKLIST_CODES: [&str; 14] = [
    "M001", "M002", "M003", "M004", "M005", "M006", "M007", "M008", "M009", "M010", "M011", "M012",
    "M013", "M014",
];

/// One field of the checklist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChecklistItem {
    /// The rule that asks for it.
    pub code: &'static str,
    /// Its dotted name in the canonical format (`platform.device.model`), as a sidecar writes it.
    pub field: String,
    /// Its canonical JSON pointer.
    #[serde(skip)]
    pub pointer: String,
}

/// The coverage of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileCoverage {
    /// The file, as reached from the command line (a file name is text from an input).
    pub path: FileText,
    /// How many results it holds.
    pub results: usize,
    /// How many fields are asked of it (every state but not applicable).
    pub asked: usize,
    /// How many of those it owes (missing or not usable).
    pub owed: usize,
    /// One state per checklist item, in [`Checklist::items`] order.
    pub states: Vec<Coverage>,
}

impl FileCoverage {
    /// The coverage of a file from its states, with the counts filled in.
    pub fn new(path: FileText, results: usize, states: Vec<Coverage>) -> Self {
        let asked = states
            .iter()
            .filter(|s| **s != Coverage::NotApplicable)
            .count();
        let owed = states.iter().filter(|s| s.is_owed()).count();
        FileCoverage {
            path,
            results,
            asked,
            owed,
            states,
        }
    }

    /// How many of its fields are in `state`.
    pub fn count(&self, state: Coverage) -> usize {
        self.states.iter().filter(|s| **s == state).count()
    }
}

/// The checklist coverage of the corpus: its fields, and each file's state for each.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Checklist {
    /// The fields, by rule in checklist order.
    pub items: Vec<ChecklistItem>,
    /// One row per file holding results, most fields owed first, then by path.
    pub files: Vec<FileCoverage>,
}

impl Checklist {
    /// How many files are in `state` for item `i`.
    pub fn files_in(&self, i: usize, state: Coverage) -> usize {
        self.files.iter().filter(|f| f.states[i] == state).count()
    }

    /// The indices of the items asked by rule `code`.
    pub fn items_of(&self, code: &str) -> Vec<usize> {
        (0..self.items.len())
            .filter(|&i| self.items[i].code == code)
            .collect()
    }

    /// The rules that have items, in checklist order.
    pub fn codes(&self) -> Vec<&'static str> {
        let mut codes: Vec<&'static str> = self.items.iter().map(|i| i.code).collect();
        codes.dedup();
        codes
    }
}

/// The checklist coverage of `results`. `runs_on(path, code)` says whether the configuration
/// runs a rule on a file: a rule turned off there leaves its fields not applicable, and a rule
/// turned off everywhere has no column.
pub fn coverage(
    results: &[LoadedResult],
    thresholds: &Thresholds,
    runs_on: &dyn Fn(&str, &str) -> bool,
    runs: &dyn Fn(&str) -> bool,
) -> Checklist {
    let items = items(thresholds, runs);
    let mut by_file: BTreeMap<&str, (usize, Vec<Coverage>)> = BTreeMap::new();
    for i in crate::fingerprint::path_order(results) {
        let r = &results[i];
        let states = result_states(r, &items, thresholds, runs_on);
        let row = by_file
            .entry(r.origin.path.raw())
            .or_insert_with(|| (0, vec![Coverage::NotApplicable; items.len()]));
        row.0 += 1;
        for (have, new) in row.1.iter_mut().zip(states) {
            if new.rank() > have.rank() {
                *have = new;
            }
        }
    }
    let mut files: Vec<FileCoverage> = by_file
        .into_iter()
        .map(|(path, (results, states))| FileCoverage::new(FileText::new(path), results, states))
        .collect();
    files.sort_by(|a, b| b.owed.cmp(&a.owed).then_with(|| a.path.cmp(&b.path)));
    Checklist { items, files }
}

/// What a checklist rule reports on `ctx`; `None` when it panicked (the loader, which ran it
/// first, has reported that as an internal error, and the run exits 2).
fn emits_of(code: &str, ctx: &ResultCtx<'_>) -> Option<Vec<Emit>> {
    let rule = find_rule(code)?;
    let Check::Result(check) = rule.check else {
        return None;
    };
    crate::guard::catch_panic(|| {
        let mut emits = Vec::new();
        check(ctx, &mut Emitter::new(rule.meta, &mut emits));
        emits
    })
    .ok()
}

/// The fields of each selected checklist rule, found by running it on the probes.
pub fn items(thresholds: &Thresholds, runs: &dyn Fn(&str) -> bool) -> Vec<ChecklistItem> {
    let empty = json!({
        "schema": crate::model::RESULT_SCHEMA, "id": "probe", "measured_at": "2026-01-01T00:00:00Z",
        "outcome": "ok", "levels": []
    });
    let conditional = json!({
        "schema": crate::model::RESULT_SCHEMA, "id": "probe", "measured_at": "2026-01-01T00:00:00Z",
        "outcome": "ok", "levels": [],
        "platform": { "nodes": 2, "shared_host": true },
        "engine": { "serve_command": ["serve"], "speculative": {} }
    });
    let mut items = Vec::new();
    for code in CHECKLIST_CODES.into_iter().filter(|c| runs(c)) {
        let mut pointers: Vec<String> = Vec::new();
        for probe in [&empty, &conditional] {
            let doc = ResultDoc::deserialize(probe).unwrap_or_default();
            let provenance = ProvenanceMap::default();
            let ctx = ResultCtx {
                result: &doc,
                value: probe,
                provenance: &provenance,
                serve: None,
                artifacts: &[],
                thresholds,
            };
            for e in emits_of(code, &ctx).unwrap_or_default() {
                // A finding below a field already listed is about that field (`speculative`
                // and `speculative.enabled` are one item).
                if !pointers.iter().any(|p| related(p, &e.pointer)) {
                    pointers.push(e.pointer);
                }
            }
        }
        items.extend(pointers.into_iter().map(|pointer| ChecklistItem {
            code,
            field: pointer.trim_start_matches('/').replace('/', "."),
            pointer,
        }));
    }
    items
}

/// Whether one pointer is the other or lies below it.
fn related(a: &str, b: &str) -> bool {
    let below =
        |x: &str, y: &str| x.len() > y.len() && x.starts_with(y) && x[y.len()..].starts_with('/');
    a == b || below(a, b) || below(b, a)
}

/// The state of each item for one result: the states the loader worked out
/// ([`LoadedResult::checklist`]) when it did for these items, else asked of its canonical JSON.
fn result_states(
    r: &LoadedResult,
    items: &[ChecklistItem],
    thresholds: &Thresholds,
    runs_on: &dyn Fn(&str, &str) -> bool,
) -> Vec<Coverage> {
    if let Some(states) = r.checklist.as_deref().filter(|s| s.len() == items.len()) {
        return states.to_vec();
    }
    // A result whose canonical JSON was dropped (`Options::lean`) cannot be asked again.
    if r.value.is_null() {
        return vec![Coverage::NotApplicable; items.len()];
    }
    states_of(
        (&r.doc, &r.value, &r.provenance),
        r.origin.path.raw(),
        items,
        thresholds,
        runs_on,
    )
}

/// The state of each item for the result `doc` (with its canonical JSON `value` and its
/// `provenance`) read from the file `path`: what the loader keeps of a result for the audit
/// before it drops the canonical JSON.
pub fn states_of(
    (doc, value, provenance): (&ResultDoc, &serde_json::Value, &ProvenanceMap),
    path: &str,
    items: &[ChecklistItem],
    thresholds: &Thresholds,
    runs_on: &dyn Fn(&str, &str) -> bool,
) -> Vec<Coverage> {
    let ctx = ResultCtx {
        result: doc,
        value,
        provenance,
        serve: None,
        artifacts: &[],
        thresholds,
    };
    let mut reported: BTreeMap<&str, Vec<Emit>> = BTreeMap::new();
    for code in CHECKLIST_CODES {
        if items.iter().any(|i| i.code == code)
            && runs_on(path, code)
            && let Some(emits) = emits_of(code, &ctx)
        {
            reported.insert(code, emits);
        }
    }
    items
        .iter()
        .map(|item| {
            let Some(emits) = reported.get(item.code) else {
                return Coverage::NotApplicable;
            };
            let present = ctx.has(&item.pointer);
            for e in emits.iter().filter(|e| related(&e.pointer, &item.pointer)) {
                // A finding on an object above the field is about the field only when the field
                // is absent; one at or below it is about its value.
                if !ctx.has(&e.pointer) || !present {
                    return Coverage::Missing;
                }
                if e.pointer.len() >= item.pointer.len() {
                    return Coverage::Unusable;
                }
            }
            if present {
                source(provenance, &item.pointer)
            } else {
                Coverage::NotApplicable
            }
        })
        .collect()
}

/// Where a present value came from: the entry at the field, else the weakest below it (a
/// sidecar that supplied `speculative.enabled` supplied the speculative block), else the
/// nearest above it; a canonical file records every value itself.
fn source(provenance: &ProvenanceMap, pointer: &str) -> Coverage {
    let of = |p: &Provenance| match p {
        Provenance::Recorded { .. } => Coverage::Recorded,
        Provenance::Sidecar { .. } => Coverage::Sidecar,
        Provenance::Derived { .. } => Coverage::Derived,
        Provenance::Beside { .. }
        | Provenance::ServerLog { .. }
        | Provenance::LaunchCommand { .. } => Coverage::RunFolder,
    };
    if let Some(p) = provenance.get(pointer) {
        return of(&p);
    }
    let below = provenance
        .iter()
        .filter(|(k, _)| {
            k.len() > pointer.len() && k.starts_with(pointer) && k[pointer.len()..].starts_with('/')
        })
        .map(|(_, p)| of(&p))
        .max_by_key(|c| c.rank());
    below
        .or_else(|| provenance.lookup(pointer).map(|(p, _)| of(&p)))
        .unwrap_or(Coverage::Recorded)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields come from the rules themselves: every item of the checklist, conditional ones
    /// included, once.
    #[test]
    fn the_probes_find_every_field() {
        let items = items(&Thresholds::default(), &|_| true);
        let of = |code: &str| -> Vec<&str> {
            items
                .iter()
                .filter(|i| i.code == code)
                .map(|i| i.field.as_str())
                .collect()
        };
        assert_eq!(
            of("M001"),
            [
                "platform.host",
                "platform.description",
                "platform.device.model",
                "platform.devices_per_node"
            ]
        );
        assert_eq!(of("M004"), ["engine.serve_command_source"]);
        assert_eq!(of("M005"), ["engine.speculative"]);
        assert_eq!(
            of("M010"),
            [
                "platform.fabric.interconnect",
                "platform.fabric.collectives"
            ]
        );
        assert_eq!(of("M011"), ["platform.parity_check.at"]);
        assert_eq!(of("M012").len(), 3);
        assert_eq!(items.len(), 35);
        // A rule turned off has no column.
        assert!(
            super::items(&Thresholds::default(), &|c| c != "M014")
                .iter()
                .all(|i| i.code != "M014")
        );
    }

    #[test]
    fn related_pointers() {
        assert!(related(
            "/engine/speculative",
            "/engine/speculative/enabled"
        ));
        assert!(related("/engine", "/engine/name"));
        assert!(!related("/engine/name", "/engine/name_x"));
        assert!(related("/a", "/a"));
    }

    /// A file of several results shows the worst state.
    #[test]
    fn worst_state_wins() {
        assert!(Coverage::Missing.rank() > Coverage::Unusable.rank());
        assert!(Coverage::Sidecar.rank() > Coverage::Derived.rank());
        assert!(Coverage::Recorded.rank() > Coverage::NotApplicable.rank());
    }
}
