//! Applying a baseline to the findings of a run: the entries matched batch by batch, the
//! findings they record removed, and the entries that matched nothing reported as stale.

use std::collections::{BTreeMap, BTreeSet};

use super::Baseline;
use crate::config::Selection;
use crate::diagnostic::Finding;
use crate::rules::RULES;

/// An entry that matched no finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stale {
    /// The file, relative to the baseline's folder.
    pub path: String,
    /// The rule code.
    pub code: String,
    /// The JSON pointer.
    pub pointer: String,
}

/// What applying the baseline did.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    /// Findings suppressed.
    pub suppressed: usize,
    /// Entries that matched nothing.
    pub stale: Vec<Stale>,
}

impl Baseline {
    /// Removes the findings the baseline records and reports the entries that matched none.
    /// `checked` holds the files read in this run, as shown.
    pub fn apply(
        &self,
        findings: &mut Vec<Finding>,
        checked: &[String],
        selection: &Selection,
    ) -> Applied {
        let mut matching = self.matching();
        matching.take(findings);
        matching.finish(checked, selection)
    }

    /// Starts matching findings against the entries, batch by batch ([`Matching::take`]), for a
    /// report written as the files are checked: each entry suppresses the first finding it
    /// matches, whatever the batches.
    pub fn matching(&self) -> Matching<'_> {
        let mut left: BTreeMap<(String, String, String), usize> = BTreeMap::new();
        for (path, codes) in &self.entries {
            for (code, pointers) in codes {
                for p in pointers {
                    *left
                        .entry((path.clone(), code.clone(), p.clone()))
                        .or_default() += 1;
                }
            }
        }
        Matching {
            baseline: self,
            left,
            suppressed: 0,
        }
    }
}

/// Findings being matched against a baseline: the entries not matched yet.
pub struct Matching<'b> {
    baseline: &'b Baseline,
    left: BTreeMap<(String, String, String), usize>,
    suppressed: usize,
}

impl Matching<'_> {
    /// Removes the findings of `findings` that an entry not yet used records.
    pub fn take(&mut self, findings: &mut Vec<Finding>) {
        let (baseline, left) = (self.baseline, &mut self.left);
        let before = findings.len();
        findings.retain(|f| {
            let k = (
                baseline.key(f.primary.path.raw()),
                f.rule.code.to_string(),
                baseline.pointer_of(f).to_string(),
            );
            match left.get_mut(&k) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            }
        });
        self.suppressed += before - findings.len();
    }

    /// How many findings were suppressed, and the entries that matched none: stale when their
    /// file is in `checked` (the files read in this run, as shown) or no longer exists, and
    /// their rule ran on it.
    pub fn finish(self, checked: &[String], selection: &Selection) -> Applied {
        let baseline = self.baseline;
        let mut applied = Applied {
            suppressed: self.suppressed,
            ..Applied::default()
        };
        let checked: BTreeSet<String> = checked.iter().map(|c| baseline.key(c)).collect();
        for ((path, code, pointer), n) in self.left {
            if n == 0 {
                continue;
            }
            let file = baseline.file_of(&path);
            let ran = !RULES.iter().any(|r| r.meta.code == code)
                || selection.runs_on(&file.to_string_lossy(), &code);
            if ran && (checked.contains(&path) || !file.exists()) {
                for _ in 0..n {
                    applied.stale.push(Stale {
                        path: path.clone(),
                        code: code.clone(),
                        pointer: pointer.clone(),
                    });
                }
            }
        }
        applied
    }
}
